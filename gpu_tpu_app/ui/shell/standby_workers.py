"""Workers started ahead of the run, while the user reads the page, and the device listing they give.

A standby worker (`probe-worker --backend B --standby`) imports its framework, finds its devices, uses
each once, says what it found as `--list-devices` would (Hello, devices, Done: its listing), then waits
for the run's arguments on stdin. `StandbyWorkers` starts them and reads each listing; a run takes the
worker that matches its launch exactly (probe_process.ProbeProcess). `StandbyListing` shows those
listings to the Probe page the way a DeviceLister does, so one process per backend both lists the
devices and runs the first points: no second framework import competes for the CPU. Neither imports
torch or jax.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QProcess, QTimer, Signal

from gpu_tpu_app.core.runs import BackendStatus, DeviceInfo, Done
from gpu_tpu_app.probe import guarded
from gpu_tpu_app.probe.protocol import (
    STARTUP_TIMEOUT_S,
    LineDecoder,
    ProbeRequest,
    RunAssembler,
    worker_command,
    worker_env,
)
from gpu_tpu_app.ui.probe.probe_process import (
    _environment,
    _guarded,
    _kill,
    _new_session,
    _returncode,
    _split,
    stderr_tail,
)

STANDBY_FLAG = "--standby"
#: How long Run waits for a standby worker that was only just started to be running.
STANDBY_START_MS = 3000

Key = tuple[tuple[str, ...], tuple[tuple[str, str], ...]]


class _Waiting:
    """One standby worker and what the window has read of its listing."""

    def __init__(self, proc: QProcess, backend: str, python: str | None, mark: str) -> None:
        self.proc = proc
        self.mark = mark  # its guard's marker: what escaped a killed guard is swept by it
        self.backend = backend
        self.python = python
        self.decoder = LineDecoder()
        self.assembler = RunAssembler("smoke")
        self.assembler.start_worker(backend)
        self.stderr = bytearray()
        self.listed = False


class StandbyWorkers(QObject):
    """Workers started ahead of the run, while the user reads the page: each has imported its framework
    and found its devices (the slow part of a start) and waits for the run's arguments on stdin, so Run
    reaches its first point sooner. One per backend and interpreter and environment; a run takes the one
    that matches its launch exactly, or starts a worker as usual. Closing stdin (or the window) ends them.

    sig_listed(python, BackendStatus, list[DeviceInfo]): a worker's listing arrived (or it ended first).
    """

    sig_listed = Signal(object, object, object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._procs: dict[Key, _Waiting] = {}

    @staticmethod
    def _key(argv: list[str], env: dict[str, str]) -> Key:
        return tuple(_split(argv)[0]), tuple(sorted(env.items()))

    def prepare(self, request: ProbeRequest) -> list[str]:
        """Start a standby worker for each backend of `request` that has none; returns those started."""
        started = []
        for backend in request.backends:
            argv, env = worker_command(backend, request), worker_env(backend, request)
            key = self._key(argv, env)
            old = self._procs.get(key)
            if old is not None and old.proc.state() != QProcess.ProcessState.NotRunning:
                continue
            proc = QProcess(self)
            _new_session(proc)
            # under the process guard with a marker of its own, as a worker the run starts itself: a run that
            # takes it sweeps that marker too (ProbeProcess._adopt), so it is contained the same way
            mark = guarded.new_mark()
            proc.setProcessEnvironment(_environment({**env, guarded.MARK_ENV: mark}))
            program = _guarded([*_split(argv)[0], STANDBY_FLAG])
            proc.setProgram(program[0])
            proc.setArguments(program[1:])
            waiting = _Waiting(proc, backend, request.python, mark)
            # its listing is read as it comes; what the framework writes to stderr meanwhile (e.g.
            # libtpu's warnings) is drained, so neither pipe ever fills
            proc.readyReadStandardOutput.connect(self._on_stdout)
            proc.readyReadStandardError.connect(self._on_stderr)
            proc.finished.connect(self._on_finished)
            proc.errorOccurred.connect(self._on_error)
            proc.start()
            self._procs[key] = waiting
            started.append(backend)
        return started

    def take(self, argv: list[str], env: dict[str, str]) -> tuple[QProcess, bool] | None:
        """The waiting worker for exactly this launch and whether its listing was read in full (if not,
        the taker skips the rest of it); None when there is none. The caller then gives it its arguments."""
        waiting = self._procs.pop(self._key(argv, env), None)
        if waiting is None:
            return None
        proc = waiting.proc
        if proc.state() == QProcess.ProcessState.NotRunning:
            return None
        if proc.state() == QProcess.ProcessState.Starting and not proc.waitForStarted(STANDBY_START_MS):
            self._procs[self._key(argv, env)] = waiting  # a start takes milliseconds; killed with the rest
            return None
        self._disconnect(proc)
        return proc, waiting.listed

    def _disconnect(self, proc: QProcess) -> None:
        for sig, slot in (
            (proc.readyReadStandardOutput, self._on_stdout),
            (proc.readyReadStandardError, self._on_stderr),
            (proc.finished, self._on_finished),
            (proc.errorOccurred, self._on_error),
        ):
            try:
                sig.disconnect(slot)
            except (RuntimeError, TypeError):
                pass

    def _waiting(self) -> _Waiting | None:
        proc = self.sender()
        return next((w for w in self._procs.values() if w.proc is proc), None)

    def _on_stdout(self) -> None:
        waiting = self._waiting()
        if waiting is not None:
            self._read(waiting)

    def _on_stderr(self) -> None:
        waiting = self._waiting()
        if waiting is not None:
            self._drain(waiting)

    def _on_finished(self) -> None:
        waiting = self._waiting()
        if waiting is not None:
            self._ended(waiting)

    def _read(self, waiting: _Waiting) -> None:
        if waiting.listed:
            return  # nothing comes after the listing before the run's arguments
        data = bytes(waiting.proc.readAllStandardOutput().data())
        for msg in waiting.decoder.feed(data):
            waiting.assembler.add(msg)
            if isinstance(msg, Done):
                self._listed(waiting, None)
                return

    def _drain(self, waiting: _Waiting) -> None:
        waiting.stderr += bytes(waiting.proc.readAllStandardError().data())
        del waiting.stderr[:-4096]

    def _on_error(self, error: QProcess.ProcessError) -> None:
        waiting = self._waiting()
        if waiting is None or error != QProcess.ProcessError.FailedToStart:
            return  # a crash ends in finished, which reports it
        if not waiting.listed:
            self._listed(waiting, f"could not start the worker: {waiting.proc.errorString()}")
        self._procs = {k: w for k, w in self._procs.items() if w is not waiting}
        self._disconnect(waiting.proc)
        waiting.proc.deleteLater()

    def _ended(self, waiting: _Waiting) -> None:
        if not waiting.listed:
            self._read(waiting)
        if not waiting.listed:
            tail = stderr_tail(waiting.stderr).splitlines()[-1:]
            code = _returncode(waiting.proc)
            self._listed(waiting, f"the worker stopped (status {code})" + (f": {tail[0][:200]}" if tail else ""))
        self._procs = {k: w for k, w in self._procs.items() if w is not waiting}
        self._disconnect(waiting.proc)
        waiting.proc.deleteLater()
        guarded.sweep(waiting.mark)  # what its interpreter (a --python wrapper) left behind

    def _listed(self, waiting: _Waiting, problem: str | None) -> None:
        waiting.listed = True
        asm = waiting.assembler
        devices = [d for d in asm.devices.values() if d.backend == waiting.backend]
        status = asm.backends.get(waiting.backend)
        if status is None or (problem and not devices):
            status = BackendStatus(backend=waiting.backend, available=False, reason=problem or "no device reported")
        self.sig_listed.emit(waiting.python, status, devices)

    def listing(self, python: str | None, backend: str) -> tuple[BackendStatus, list[DeviceInfo]] | None:
        """What the waiting worker of `backend` in `python` has listed so far (None: nothing yet)."""
        for w in self._procs.values():
            if w.backend == backend and w.python == python and w.listed:
                asm = w.assembler
                status = asm.backends.get(backend)
                if status is not None:
                    return status, [d for d in asm.devices.values() if d.backend == backend]
        return None

    def count(self) -> int:
        """Standby workers still alive."""
        return sum(w.proc.state() != QProcess.ProcessState.NotRunning for w in self._procs.values())

    def stop(self) -> None:
        """End every standby worker (the window closes, or the interpreter or environment changed)."""
        waiting = list(self._procs.values())
        self._procs.clear()  # ended on purpose: no listing is reported for them
        for w in waiting:
            proc = w.proc
            self._disconnect(proc)
            if proc.state() != QProcess.ProcessState.NotRunning:
                _kill(proc)
                proc.waitForFinished(STANDBY_START_MS)  # reaped here: gone before its QProcess is
            proc.deleteLater()
            guarded.sweep(w.mark)  # the guard was killed: what was below it is ended by its marker


class StandbyListing(QObject):
    """The device listing of freshly started standby workers, with a DeviceLister's interface (backends,
    python, results, is_running(), stop(), sig_backend, sig_finished), for the Probe page."""

    sig_backend = Signal(object, object)
    sig_finished = Signal()

    def __init__(self, standby: StandbyWorkers, request: ProbeRequest, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.backends = tuple(request.backends)
        self.python = request.python
        self.results: dict[str, tuple[BackendStatus, list[DeviceInfo]]] = {}
        for backend in self.backends:  # listings that came before this was made
            known = standby.listing(self.python, backend)
            if known is not None:
                self.results[backend] = known
        self._running = len(self.results) < len(self.backends)
        standby.sig_listed.connect(self._on_listed)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._give_up)
        if self._running:
            self._timer.start(int(STARTUP_TIMEOUT_S * 1000))

    def is_running(self) -> bool:
        """True until every backend's worker has said what it found (or the wait ran out)."""
        return self._running

    def stop(self) -> None:
        """Stop waiting (the workers themselves are the StandbyWorkers' to end)."""
        self._running = False
        self._timer.stop()

    def _on_listed(self, python: str | None, status: BackendStatus, devices: list[DeviceInfo]) -> None:
        if not self._running or python != self.python or status.backend not in self.backends:
            return
        if status.backend in self.results:
            return
        self.results[status.backend] = (status, list(devices))
        self.sig_backend.emit(status, list(devices))
        if len(self.results) == len(self.backends):
            self.stop()
            self.sig_finished.emit()

    def _give_up(self) -> None:
        for backend in self.backends:
            if backend not in self.results:
                reason = f"no answer within {STARTUP_TIMEOUT_S:.0f} s"
                status = BackendStatus(backend=backend, available=False, reason=reason)
                self.results[backend] = (status, [])
                self.sig_backend.emit(status, [])
        self._running = False
        self.sig_finished.emit()
