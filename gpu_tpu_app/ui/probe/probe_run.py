"""The Probe page's run lifecycle: start, cancel and follow probe runs, list devices, run collectives.

ProbeRunner is the base of ProbePanel (probe_panel.py) and holds the page's worker wiring: the
probe run's QProcess (probe_process.py), the device-listing workers, the standby workers that start
the next run while the user reads the page, and the collective run. It reads and updates the
widgets the panel builds (declared below), and leaves layout, import and export to the panel.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QComboBox, QLabel, QProgressBar, QWidget

from gpu_tpu_app.core.note_text import reason_text
from gpu_tpu_app.core.runs import BackendStatus, DeviceInfo, ErrorMsg, Message, Progress, ResultMsg, RunFile
from gpu_tpu_app.core.wording import format_eta, format_seconds
from gpu_tpu_app.probe.protocol import ProbeRequest, point_label
from gpu_tpu_app.shared.terms import BACKENDS, SUITES
from gpu_tpu_app.ui.charts.view import ChartsView
from gpu_tpu_app.ui.probe.collective_run import PROCESSES, CollectiveRun
from gpu_tpu_app.ui.probe.devices_view import DevicesView
from gpu_tpu_app.ui.probe.envs_view import EnvsView
from gpu_tpu_app.ui.probe.probe_process import DeviceLister, ProbeProcess
from gpu_tpu_app.ui.probe.results_model import STATUS_WORDS, SUITE_WORDS, ResultsModel, words
from gpu_tpu_app.ui.probe.run_controls import RunControls
from gpu_tpu_app.ui.probe.runs_list import RunsList
from gpu_tpu_app.ui.shell.standby_workers import StandbyListing, StandbyWorkers


class ProbeRunner(QWidget):
    """Runs the workers of the Probe page and keeps the runs list, devices and progress bar in step."""

    sig_runs_changed = Signal()
    sig_finished = Signal(object)
    sig_result = Signal(object)  # each ProbeResult as it arrives from a worker
    sig_devices_listed = Signal()  # every backend's device-listing worker has answered

    # built by ProbePanel
    controls: RunControls
    suite: QComboBox
    envs: EnvsView
    progress: QProgressBar
    runs_list: RunsList
    devices: DevicesView
    devices_note: QLabel
    charts: ChartsView
    model: ResultsModel
    log: Callable[[str, str], None]
    _rebuild: Callable[[], None]
    _update_buttons: Callable[[], None]
    _live_timer: QTimer
    _standby: StandbyWorkers
    _closed: bool
    _collective: CollectiveRun | None

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._probe: ProbeProcess | None = None
        self._pending: ProbeRequest | None = None
        self._lister: DeviceLister | StandbyListing | None = None
        self._listed = False
        self._listed_backends: set[str] = set()
        self._t0 = 0.0

    def start(self, suite: str | None = None) -> bool:
        """Start a probe run with the chosen suite, backends, kernels and dtypes; False if it cannot start."""
        if self.is_running():
            return False
        if suite is not None:
            if suite not in SUITES:
                raise ValueError(
                    self.tr("unknown suite {suite} (choose from {suites})").format(
                        suite=repr(suite), suites=", ".join(SUITES)
                    )
                )
            self.controls.set_suite(suite)
        request = self.controls.request(self.envs.selected())
        if request is None:
            self.log("warning", self.tr("Choose at least one backend (torch or jax) to run a probe."))
            return False
        if self._lister is not None and self._lister.is_running():
            # Device detection imports torch and jax in the background: measuring next to it would
            # report noise. Start as soon as it is done.
            self._pending = request
            self._say_waiting()
            self._update_buttons()
            return True
        self._start_request(request)
        return True

    def cancel(self) -> None:
        """Stop the running probe; the results measured so far stay (sig_finished follows)."""
        if self._pending is not None:
            self._pending = None
            self.log("info", self.tr("Cancelled before the probe started."))
            self.progress.setFormat(self.tr("Ready: choose a suite and press Run."))
            self._update_buttons()
            return
        if self._probe is not None and self._probe.is_running():
            self.progress.setFormat(self.tr("Cancelling…"))
            self._probe.cancel()

    def is_running(self) -> bool:
        """True while a probe run is in progress (or about to start)."""
        return self._pending is not None or (self._probe is not None and self._probe.is_running())

    def partial_run(self, why: str) -> RunFile | None:
        """The run in progress as a run file marked partial (the window is being stopped: a signal, the
        desktop session closing); None when no run is in progress or it measured nothing yet."""
        return self._probe.partial(why) if self._probe is not None and self._probe.is_running() else None

    def list_devices(self) -> None:
        """Ask each backend's worker which devices it sees (in the background)."""
        if self._lister is not None and self._lister.is_running():
            return
        self._listed = True
        backends = tuple(BACKENDS)
        self._listed_backends.clear()
        self.devices_note.setText(self.tr("Looking for devices (each backend in its own worker)…"))
        self.devices.set_searching(backends)
        request = ProbeRequest(suite=self.controls.suite_id(), backends=backends, python=self.envs.selected())
        if not self._closed and set(self._standby.prepare(request)) == set(backends):
            # the standby workers just started list their devices themselves: no second import of each
            self._lister = StandbyListing(self._standby, request, self)
        else:  # they were running already (Refresh): a fresh look, in listing workers
            self._lister = DeviceLister(backends, self, python=self.envs.selected())
            self._lister.start()
        self._lister.sig_backend.connect(self._on_listed)
        self._lister.sig_finished.connect(self._on_listing_done)
        self.warm_up()

    def adopt_workers(self, lister: DeviceLister | StandbyListing | None, standby: StandbyWorkers) -> None:
        """Take over the device listing (finished or running) and the standby workers that the window
        started before this page was built (probe_warmup.py); a listing of another interpreter is ended."""
        own, self._standby = self._standby, standby
        standby.setParent(self)
        own.stop()
        own.deleteLater()
        if lister is None:
            return
        if lister.python != self.envs.selected():
            lister.stop()
            lister.deleteLater()
            standby.stop()  # they run another interpreter: the page lists and warms its own when shown
            return
        lister.setParent(self)
        self._lister = lister
        self._listed = True
        self._listed_backends.clear()
        self.devices.set_searching(tuple(b for b in lister.backends if b not in lister.results))
        for status, devices in list(lister.results.values()):
            self._on_listed(status, devices)
        if lister.is_running():
            self.devices_note.setText(self.tr("Looking for devices (each backend in its own worker)…"))
            lister.sig_backend.connect(self._on_listed)
            lister.sig_finished.connect(self._on_listing_done)

    def run_collective(self) -> bool:
        """Measure collectives across two processes on this machine (the Collectives tab's button); the run
        joins the page when done. False when a probe or another collective run is going on."""
        if self.is_running():
            self.log("warning", self.tr("A probe is running: the collective run starts once it is done or cancelled."))
            return False
        backends = self.controls.backends() or list(BACKENDS)
        self._collective = CollectiveRun(backends, self.envs.selected(), self)
        self._collective.sig_finished.connect(self._collective_done)
        button = self.charts.collective.run_button
        button.setEnabled(False)
        button.setText(self.tr("Measuring across {n} processes…").format(n=PROCESSES))
        self.progress.setFormat(
            self.tr("Collectives: starting {n} processes ({backends})…").format(
                n=PROCESSES, backends=", ".join(backends)
            )
        )
        self.log(
            "info", self.tr("Measuring collectives: {command}").format(command=" ".join(self._collective.argv[2:]))
        )
        self._collective.start()
        return True

    def _collective_done(self, run: RunFile | None, text: str) -> None:
        button = self.charts.collective.run_button
        button.setEnabled(True)
        button.setText(self.tr("Measure across {n} processes").format(n=PROCESSES))
        self.progress.setFormat(text)
        self.log("info" if run is not None else "warning", text)
        if run is not None and self.runs_list.add(run) is not None:
            self._rebuild()
            self.charts.setCurrentWidget(self.charts.collective)
            self.sig_runs_changed.emit()

    def shutdown(self) -> None:
        """Stop every worker now (the window is closing)."""
        self._closed = True  # and start no more
        self._standby.stop()
        if self._collective is not None:
            self._collective.stop()
        if self._probe is not None and self._probe.is_running():
            self._probe.kill()
        if self._lister is not None:
            self._lister.stop()
        self.envs.stop()

    # ---------------------------------------------------------------- running
    def _start_request(self, request: ProbeRequest) -> None:
        self._probe = ProbeProcess(request, self, standby=self._standby)
        self._probe.sig_message.connect(self._on_message)
        self._probe.sig_progress.connect(self._on_progress)
        self._probe.sig_log.connect(self.log)
        self._probe.sig_finished.connect(self._on_finished)
        self.runs_list.add_live(self._probe.snapshot())
        self._rebuild()
        self._t0 = time.monotonic()
        what = ", ".join(request.backends)
        filt = []
        if request.kernels:
            filt.append(self.tr("kernels {kernels}").format(kernels=", ".join(request.kernels)))
        if request.dtypes:
            filt.append(self.tr("dtypes {dtypes}").format(dtypes=", ".join(request.dtypes)))
        suite = words(SUITE_WORDS, request.suite)
        if filt:
            started = self.tr("Started the {suite} suite on {backends} ({limits}).").format(
                suite=suite, backends=what, limits=self.tr("; ").join(filt)
            )
        else:
            started = self.tr("Started the {suite} suite on {backends}.").format(suite=suite, backends=what)
        self.log("info", started)
        self.progress.setValue(0)
        self._probe.start()
        first = request.backends[0]
        if self._probe.warm_starts:
            self.progress.setFormat(
                self.tr("{backend}: on the worker started ahead of time; planning the points…").format(backend=first)
            )
        else:
            self.progress.setFormat(
                self.tr("Starting the {backend} worker (loading {backend}, finding its devices)…").format(backend=first)
            )
        self._update_buttons()

    def _on_message(self, msg: Message) -> None:
        if isinstance(msg, ResultMsg):
            if not self._live_timer.isActive():
                self._live_timer.start()
            self.sig_result.emit(msg.result)
        elif msg.type == "device":
            dev: DeviceInfo = msg.device
            self.devices.add_device(dev)
        elif isinstance(msg, ErrorMsg) and msg.kernel is None and msg.backend:
            status = self._probe.backend_status(msg.backend) if self._probe else None
            if status is not None and not status.available:
                self.devices.set_backend(status, [])

    def _refresh_live(self) -> None:
        if self.runs_list.live_index() is None or self._probe is None:
            return
        snap = self._probe.snapshot()
        i = self.runs_list.update_live(snap)
        if i is not None:
            self.model.update_run(i, snap, self.runs_list.label(i))
            self.charts.schedule()

    def _on_progress(self, p: Progress, backend_index: int, backend_count: int) -> None:
        frac = (backend_index + (p.done / p.total if p.total else 0.0)) / max(1, backend_count)
        self.progress.setValue(int(1000 * min(1.0, frac)))
        backend = p.backend or (self._probe.request.backends[backend_index] if self._probe else "")
        eta = f" · {format_eta(p.eta_s)}" if p.eta_s is not None else ""
        then = ""
        if self._probe is not None and backend_index + 1 < backend_count:
            then = self.tr(", then {backends}").format(
                backends=", ".join(self._probe.request.backends[backend_index + 1 :])
            )
        self.progress.setFormat(
            self.tr("{backend}: {point} · point {n} of {total} · {elapsed} so far{eta}{then}").format(
                backend=backend,
                point=point_label(p),
                n=p.done + 1,
                total=p.total,
                elapsed=format_seconds(time.monotonic() - self._t0),
                eta=eta,
                then=then,
            )
        )

    def _on_finished(self, run: RunFile) -> None:
        QTimer.singleShot(0, self.warm_up)  # the next run's workers, ready before it is asked for
        self._live_timer.stop()
        self.runs_list.finish_live(run)
        self._rebuild()
        took = time.monotonic() - self._t0
        counts: dict[str, int] = {}
        for r in run.results:
            counts[r.status] = counts.get(r.status, 0) + 1
        detail = ", ".join(f"{n} {words(STATUS_WORDS, s)}" for s, n in sorted(counts.items())) or self.tr("no results")
        cancelled = self._probe is not None and self._probe.session.cancelled
        if cancelled:
            head = self.tr("Cancelled")
        elif run.complete:
            head = self.tr("Finished")
        else:
            head = self.tr("Finished with problems")
        level = "info" if run.complete or cancelled else "warning"
        self.log(
            level,
            self.tr("{head} after {time}: {n} results ({detail}).").format(
                head=head, time=format_seconds(took), n=len(run.results), detail=detail
            ),
        )
        for b in run.backends:
            if not b.available and self.devices.backend_status(b.backend) in (None,):
                self.devices.set_backend(b, [])
        self.progress.setValue(1000 if run.complete else self.progress.value())
        self.progress.setFormat(
            self.tr("{head}: {n} results in {time}").format(head=head, n=len(run.results), time=format_seconds(took))
        )
        self._update_buttons()
        self.sig_runs_changed.emit()
        self.sig_finished.emit(run)

    def _on_listed(self, status: BackendStatus, devices: list[DeviceInfo]) -> None:
        self._listed_backends.add(status.backend)
        self.devices.set_backend(status, devices)
        if self._pending is not None:
            self._say_waiting()
        if self._listed_backends >= set(BACKENDS):
            self.devices_note.setText(self.tr("Found by a worker process for each backend."))
        if not status.available:
            self.log(
                "warning",
                self.tr("{backend}: not usable here: {reason}").format(
                    backend=status.backend, reason=reason_text(status)
                ),
            )

    def _say_waiting(self) -> None:
        """The progress line while Run waits for device detection: which backends are still loading."""
        lister = self._lister
        left = [b for b in lister.backends if b not in lister.results] if lister is not None else []
        first = self._pending.backends[0] if self._pending is not None else ""
        self.progress.setFormat(
            self.tr(
                "Getting ready: finding devices ({left} still loading) and loading the {first} worker; "
                "measuring starts right after, so detection cannot disturb it…"
            ).format(left=", ".join(left) or "…", first=first)
        )

    def _on_listing_done(self) -> None:
        self.sig_devices_listed.emit()
        if self._pending is not None:
            request, self._pending = self._pending, None
            self._start_request(request)
        else:
            self.warm_up()

    def warm_up(self) -> None:
        """Start the workers of the next run now, while the user reads the page (beside device detection:
        neither measures anything yet), so Run skips their start-up: loading the framework, finding the
        devices, the first use of each. A no-op while a run is going on or for workers already waiting."""
        if self._closed or (self._probe is not None and self._probe.is_running()):
            return
        request = self.controls.request(self.envs.selected())
        if request is not None:
            self._standby.prepare(request)
