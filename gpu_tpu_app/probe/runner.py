"""Run a probe headless: one worker process per backend, one after another, read with subprocess.

The decisions (budgets, caps, restarts, the run file) live in protocol.ProbeSession, which
the window drives with QProcess instead; this module only moves bytes and signals.
"""

from __future__ import annotations

import collections
import contextlib
import os
import selectors
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator

from gpu_tpu_app.core.runs import DeviceInfo, Message, RunFile
from gpu_tpu_app.core.terms import BACKENDS
from gpu_tpu_app.probe.protocol import (
    CANCEL_WAIT_S,
    SUITE_BUDGET_S,
    LineDecoder,
    ProbeRequest,
    ProbeSession,
    RunAssembler,
    WorkerLaunch,
    worker_command,
    worker_env,
)

__all__ = [
    "BACKENDS",
    "STOP_SIGNALS",
    "SUITE_BUDGET_S",
    "CancelEvent",
    "LineDecoder",
    "ProbeRequest",
    "ProbeSession",
    "RunAssembler",
    "list_devices",
    "run_probe",
    "stop_on_signals",
    "worker_command",
    "worker_env",
]

OnMessage = Callable[[Message], None]

#: Signals that stop a run as Ctrl-C does (the results so far are kept): Ctrl-C, `kill`, a closed terminal.
STOP_SIGNALS: tuple[int, ...] = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n))


class CancelEvent(threading.Event):
    """A cancel flag that remembers the first stop signal that set it (None when code set it)."""

    def __init__(self) -> None:
        super().__init__()
        self.signum: int | None = None


@contextlib.contextmanager
def stop_on_signals(cancel: threading.Event, *, escalate: bool = True) -> Iterator[None]:
    """While inside, each of STOP_SIGNALS sets `cancel` instead of ending the process.

    With `escalate`, a second one raises KeyboardInterrupt (to break out of a wait). Only in the
    main thread (elsewhere this does nothing); a signal the process ignores (`nohup`) stays ignored.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: object) -> None:
        if cancel.is_set() and escalate:
            raise KeyboardInterrupt
        if isinstance(cancel, CancelEvent) and cancel.signum is None:
            cancel.signum = signum
        cancel.set()

    previous: dict[int, object] = {}
    try:
        for sig in STOP_SIGNALS:
            if signal.getsignal(sig) is not signal.SIG_IGN:
                previous[sig] = signal.signal(sig, handler)
        yield
    finally:
        for sig, old in previous.items():
            if old is not None:
                signal.signal(sig, old)  # type: ignore[arg-type]  # a handler signal.getsignal returned


class _Stderr:
    """Drains a worker's stderr on a thread, keeping the last lines for crash messages."""

    def __init__(self, stream, echo: bool) -> None:
        self.lines: collections.deque[str] = collections.deque(maxlen=40)
        self._echo = echo
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream) -> None:
        with stream:
            for raw in iter(stream.readline, b""):
                line = raw.decode("utf-8", "replace").rstrip()
                if line:
                    self.lines.append(line)
                    if self._echo:
                        os.write(2, raw)

    def tail(self) -> str:
        """The last few ordinary log lines, once the stream has ended (or after 0.5 s)."""
        self._thread.join(timeout=0.5)
        # faulthandler's dump is noise for the one-line message; keep the last ordinary line
        useful = [
            x
            for x in self.lines
            if not x.startswith(("  File ", "Extension modules", "Current thread", "Thread 0x", "Fatal Python error"))
        ]
        return "\n".join(useful[-3:])


def _signal_group(proc: subprocess.Popen, sig: int) -> None:
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _run_worker(session: ProbeSession, launch: WorkerLaunch, on_message: OnMessage, cancel: threading.Event) -> None:
    """Start one worker, pass its messages on, stop it on cancel or when it hangs, report how it ended."""
    echo = os.environ.get("GPU_TPU_APP_PROBE_LOG") == "1"
    proc = subprocess.Popen(
        launch.argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=launch.env,
        start_new_session=True,  # its own process group: Ctrl-C reaches the parent, kills reach helpers too
    )
    assert proc.stdout is not None and proc.stderr is not None
    errlog = _Stderr(proc.stderr, echo)
    fd = proc.stdout.fileno()
    os.set_blocking(fd, False)
    sel = selectors.DefaultSelector()
    sel.register(fd, selectors.EVENT_READ)
    stop_sent: float | None = None
    timed_out = False
    try:
        while True:
            now = time.monotonic()
            if cancel.is_set() and stop_sent is None:
                session.cancel()
                _signal_group(proc, signal.SIGINT)
                stop_sent = now
            if stop_sent is not None and (now - stop_sent > CANCEL_WAIT_S or session.assembler.done is not None):
                break  # cancelled, and it said done (or took too long to): no need to wait for its exit
            if stop_sent is None and session.timed_out():
                timed_out = True
                break
            if not sel.select(0.05):
                continue
            try:
                data = os.read(fd, 1 << 16)
            except BlockingIOError:
                continue
            if not data:
                break
            for msg in session.feed(data):
                on_message(msg)
    finally:
        if proc.poll() is None and (timed_out or stop_sent is not None):
            _signal_group(proc, signal.SIGKILL)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            _signal_group(proc, signal.SIGKILL)
            proc.wait()
        _signal_group(proc, signal.SIGKILL)  # helpers it may have left behind
        sel.close()
        proc.stdout.close()
    tail = errlog.tail()
    for msg in session.worker_exited(proc.returncode, timed_out=timed_out, stderr_tail=tail):
        on_message(msg)


def run_probe(
    request: ProbeRequest, on_message: OnMessage | None = None, cancel_event: threading.Event | None = None
) -> RunFile:
    """Probe every requested backend in turn and return the run, partial when cancelled.

    `on_message` sees every message as it arrives (results with pct_ceiling filled).
    Setting `cancel_event` (or Ctrl-C, SIGTERM or SIGHUP, when called from the main thread)
    stops within about a second and keeps every result already received; a CancelEvent
    records which signal it was.
    """
    cancel = cancel_event or threading.Event()
    callback = on_message or (lambda _m: None)
    session = ProbeSession(request)
    try:
        with stop_on_signals(cancel):
            while not cancel.is_set() and (launch := session.next_launch()) is not None:
                _run_worker(session, launch, callback, cancel)
    except KeyboardInterrupt:
        cancel.set()
    if cancel.is_set():
        session.cancel()
    return session.finish()


def list_devices(
    backends: tuple[str, ...] = BACKENDS,
    env: dict[str, str] | None = None,
    timeout_s: float = 180.0,
    python: str | None = None,
) -> tuple[list[DeviceInfo], list]:
    """Devices and BackendStatus of each backend, each detected in its own worker (in `python` if given)."""
    request = ProbeRequest(suite="smoke", backends=backends, env=env or {}, python=python)
    assembler = RunAssembler("smoke", python=python)
    for backend in backends:
        assembler.start_worker(backend)
        argv = worker_command(backend, request, list_devices=True)
        try:
            proc = subprocess.run(
                argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout_s, env=worker_env(backend, request)
            )
        except subprocess.TimeoutExpired:
            assembler.worker_exited(None, timed_out=True)
            continue
        decoder = LineDecoder()
        for msg in decoder.feed(proc.stdout) + decoder.flush():
            assembler.add(msg)
        tail = proc.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] if proc.stderr else []
        assembler.worker_exited(proc.returncode, stderr_tail="\n".join(tail))
    return list(assembler.devices.values()), list(assembler.backends.values())
