"""The Probe page's workers, started before the page is built: a standby worker per backend (which
finds and lists its devices, then waits for a run: standby_workers.py), begun a moment after the window opens (or as the pointer moves onto Probe), so that Run,
pressed right after the page opens, starts measuring on a worker that has already loaded its framework.

The window process only starts processes here (QProcess): torch and JAX load in the workers. The
Probe page takes the listing (finished or still running) and the standby workers over when it is
built (`take`); what was never taken ends with the window (`stop`).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject, QTimer

from gpu_tpu_app.core.settings import Preferences
from gpu_tpu_app.probe.protocol import ProbeRequest
from gpu_tpu_app.shared.terms import BACKENDS
from gpu_tpu_app.ui.shell.standby_workers import StandbyListing, StandbyWorkers

#: Milliseconds after the window is shown before the workers start: the window paints first.
START_DELAY_MS = 700


class ProbeWarmup(QObject):
    """Device detection and standby workers for the Probe page, started ahead of it (once)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.standby = StandbyWorkers(self)
        self.lister: StandbyListing | None = None
        self.request: ProbeRequest | None = None
        self._taken = False
        self._stopped = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._prefs: Preferences | None = None
        self._timer.timeout.connect(lambda: self.start(self._prefs))
        app = QCoreApplication.instance()
        if app is not None:  # however the app ends, what was not taken over is ended and reaped
            app.aboutToQuit.connect(self.stop)

    def start_later(self, prefs: Preferences, delay_ms: int = START_DELAY_MS) -> None:
        """Start after `delay_ms` (the window's first paint comes first)."""
        self._prefs = prefs
        if not self.started():
            self._timer.start(max(0, delay_ms))

    def started(self) -> bool:
        """True once the workers were started (or the page took over)."""
        return self.lister is not None or self._taken or self._stopped

    def start(self, prefs: Preferences | None) -> bool:
        """List the devices of every backend and start a standby worker for each, in the interpreter the
        Probe page will use; False when already started, taken over or stopped."""
        self._timer.stop()
        if self.started():
            return False
        prefs = prefs or Preferences()
        self.request = ProbeRequest(suite=prefs.default_suite, backends=tuple(BACKENDS), python=prefs.probe_python)
        self.standby.prepare(self.request)  # each worker lists its devices, then waits for a run
        self.lister = StandbyListing(self.standby, self.request, self)
        return True

    def take(self) -> tuple[StandbyListing | None, StandbyWorkers]:
        """Hand the listing (None when it never started) and the standby workers to the Probe page; the
        caller reparents them. After this the warm-up starts nothing more."""
        self._timer.stop()
        self._taken = True
        lister, self.lister = self.lister, None
        return lister, self.standby

    def stop(self) -> None:
        """End whatever was not taken over (the window closes)."""
        self._timer.stop()
        self._stopped = True
        if not self._taken:
            if self.lister is not None:
                self.lister.stop()
            self.standby.stop()
