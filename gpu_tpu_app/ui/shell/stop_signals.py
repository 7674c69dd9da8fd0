"""SIGTERM, SIGHUP and the desktop session closing: the window keeps every measured point, as the CLI does.

Without this a SIGTERM (a logout, `systemctl stop`, `kill`) ends the window at once and a probe run in
progress is lost. Here the signal is taken by Python's handler, which only wakes the Qt event loop
(signal.set_wakeup_fd on a socket pair, read by a QSocketNotifier): the loop then saves the run so far as a
run file marked partial (incomplete, what stopped it among its errors) in the folder the CLI keeps runs it
could not write (the user's state folder, unsaved-runs), says where on stderr, stops the workers and quits
with 128 + the signal's number. The desktop session manager's commitDataRequest saves it the same way
before the session ends. POSIX only: elsewhere there is no SIGHUP and the loop cannot be woken this way.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
from pathlib import Path
from typing import Any

from gpu_tpu_app.core.texts import text

#: the signals that stop the window but keep the measured points.
STOP_SIGNALS: tuple[str, ...] = ("SIGTERM", "SIGHUP")
#: what a partial run file says stopped it (run files are written in English).
WHY_SIGNAL = "the window was stopped by {signal} before the end"
WHY_SESSION = "the desktop session closed before the end"


def keep_measured(window: Any, why: str) -> Path | None:
    """Save the probe run in progress as a partial run file; its path (None when none runs, it measured
    nothing yet, or it could not be saved: said on stderr)."""
    from gpu_tpu_app.commands.probe.common import run_json, save_fallback

    panel = getattr(window, "probe_panel", None)
    run = panel.partial_run(why) if panel is not None else None
    if run is None:
        return None
    path, problem = save_fallback(run_json(run), "probe-run-partial.json")
    n = len(run.results)
    line = (
        text("window.partial_run", why=why, n=n, path=path)
        if path is not None
        else text("window.partial_not_saved", why=why, n=n, problem=problem)
    )
    with contextlib.suppress(OSError, ValueError):
        print(line, file=sys.stderr, flush=True)
    return path


def install(app: Any, window: Any) -> bool:
    """Make SIGTERM and SIGHUP (and the session manager's commit request) keep the measured points before
    the window goes; False where this platform cannot. Call from the main thread, before app.exec()."""
    from PySide6.QtCore import QSocketNotifier

    app.commitDataRequest.connect(lambda _manager: keep_measured(window, WHY_SESSION))
    if os.name != "posix":
        return False
    wanted = {int(getattr(signal, name)): name for name in STOP_SIGNALS}
    read, write = socket.socketpair()
    read.setblocking(False)
    write.setblocking(False)
    signal.set_wakeup_fd(write.fileno(), warn_on_full_buffer=False)
    for number in wanted:
        signal.signal(number, lambda _n, _f: None)  # the wake-up byte does the work, in the event loop

    def on_signal() -> None:
        try:
            data = read.recv(64)
        except OSError:
            return
        got = [b for b in data if b in wanted]
        if not got:
            return
        notifier.setEnabled(False)
        keep_measured(window, WHY_SIGNAL.format(signal=wanted[got[0]]))
        window.shutdown()
        app.exit(128 + got[0])

    notifier = QSocketNotifier(read.fileno(), QSocketNotifier.Type.Read, app)
    notifier.activated.connect(on_signal)
    app._stop_signals = (read, write, notifier)  # kept alive as long as the application
    return True
