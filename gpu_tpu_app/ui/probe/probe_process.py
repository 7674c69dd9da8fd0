"""Probe workers driven from the GUI with QProcess: the event loop never blocks on a worker.

`ProbeProcess` runs one probe request through the shared `ProbeSession` of
gpu_tpu_app.probe.protocol (the same parsing, per-point caps, crash and timeout results and
restarts after the failed point as the headless CLI), starting each worker with QProcess
and checking the session's deadline on a timer. `DeviceLister` runs each backend's worker
with --list-devices to fill the device list. Neither imports torch or jax: they run in the
worker processes only.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
from datetime import datetime
from typing import Protocol

from PySide6.QtCore import QObject, QProcess, QProcessEnvironment, QTimer, Signal

from gpu_tpu_app.core.note_text import result_message
from gpu_tpu_app.core.runs import (
    BackendStatus,
    DeviceInfo,
    Done,
    ErrorMsg,
    Message,
    Progress,
    ResultMsg,
    RunFile,
)
from gpu_tpu_app.probe import guarded
from gpu_tpu_app.probe.protocol import (
    CANCEL_WAIT_S,
    STARTUP_TIMEOUT_S,
    LineDecoder,
    ProbeRequest,
    ProbeSession,
    RunAssembler,
    point_label,
    worker_command,
    worker_env,
)
from gpu_tpu_app.shared.terms import BACKENDS
from gpu_tpu_app.ui.probe.results_model import STATUS_WORDS, words


class Standby(Protocol):
    """Workers waiting for a run (standby_workers.StandbyWorkers): `take` hands over the one for exactly
    this launch and whether its own device listing was read in full, or None."""

    def take(self, argv: list[str], env: dict[str, str]) -> tuple[QProcess, bool] | None: ...


#: How often the watchdog asks the session whether the running point is past its cap.
WATCHDOG_MS = 200
STDERR_TAIL_BYTES = 4096
#: How long a closing window waits for a killed worker to be reaped.
REAP_WAIT_MS = 3000


def _environment(env: dict[str, str]) -> QProcessEnvironment:
    qenv = QProcessEnvironment()
    for k, v in env.items():
        qenv.insert(k, v)
    return qenv


def _returncode(proc: QProcess) -> int | None:
    """subprocess-style return code: negative signal number when the worker was killed or crashed."""
    if proc.exitStatus() == QProcess.ExitStatus.CrashExit:
        code = proc.exitCode()
        return -code if code > 0 else -int(signal.SIGKILL)
    return proc.exitCode()


def _new_session(proc: QProcess) -> None:
    """Start the worker in its own session / process group, so stop and kill reach its child processes too."""
    if sys.platform != "win32":
        flags = QProcess.UnixProcessFlag
        proc.setUnixProcessParameters(flags.CreateNewSession | flags.ResetSignalHandlers | flags.IgnoreSigPipe)


def _signal_group(proc: QProcess, sig: int, pid: int | None = None) -> bool:
    pid = pid or proc.processId()
    if not pid or sys.platform == "win32":
        return False
    try:
        os.killpg(pid, sig)
        return True
    except (ProcessLookupError, PermissionError):
        return False


def _interrupt(proc: QProcess) -> None:
    """Ask a worker to stop: SIGINT to its group on POSIX (it keeps what it has and says done)."""
    if not _signal_group(proc, signal.SIGINT):
        proc.terminate()


def _kill(proc: QProcess) -> None:
    """Kill a worker and every child process it started."""
    if not _signal_group(proc, signal.SIGKILL):
        proc.kill()


def _guarded(argv: list[str]) -> list[str]:
    """The worker's argv under the process guard (a subreaper: what the worker or its --python wrapper starts,
    a setsid daemon too, ends with it, and with the window when it is killed), SIGINT passed on to the worker.
    Where there is no fork, or the interpreter cannot be run (the start failure stays Qt's, as before),
    the worker runs as it is."""
    if not hasattr(os, "fork") or shutil.which(argv[0]) is None:
        return argv
    return guarded.guard_command(argv, forward_interrupt=True)


def stderr_tail(data: bytes | bytearray) -> str:
    """The last ordinary log lines of a worker (faulthandler's dump left out), for crash messages."""
    lines = [x.rstrip() for x in bytes(data).decode("utf-8", "replace").splitlines() if x.strip()]
    noise = ("  File ", "Extension modules", "Current thread", "Thread 0x", "Fatal Python error")
    return "\n".join([x for x in lines if not x.startswith(noise)][-3:])


def _split(argv: list[str]) -> tuple[list[str], list[str]]:
    """A worker's argv as (the program up to its backend, the rest of its own arguments)."""
    i = argv.index("--backend")
    return argv[: i + 2], argv[i:]


class ProbeProcess(QObject):
    """One probe run: backends one after another, each worker in its own QProcess.

    Signals: sig_message(Message) for every recorded message (results carry pct_ceiling so far),
    sig_progress(Progress, backend_index, backend_count), sig_log(level, text) for the panel's
    message list, sig_finished(RunFile) once, at the end (also after cancel or failures).
    """

    sig_message = Signal(object)
    sig_progress = Signal(object, int, int)
    sig_log = Signal(str, str)
    sig_finished = Signal(object)

    def __init__(self, request: ProbeRequest, parent: QObject | None = None, standby: Standby | None = None) -> None:
        super().__init__(parent)
        self.request = request
        self.session = ProbeSession(request)
        self._standby = standby
        self.warm_starts = 0  # workers taken from standby (started while the user read the page)
        self._proc: QProcess | None = None
        self._preamble: bytearray | None = None  # a taken standby worker's listing, still being skipped
        self._backend = ""
        self._backend_index = -1
        self._seen_backends: list[str] = []
        self._stderr = bytearray()
        self._timed_out = False
        self._running = False
        self._finished_run: RunFile | None = None
        self._pid = 0
        # every worker this run starts carries one marker: what one left behind out of reach of the group
        # kill (a setsid helper of a --python wrapper, say) is swept when the run ends or is killed
        self._mark = guarded.new_mark()
        self._marks = [self._mark]  # and the markers of the standby workers it took (each has its own)
        self._watchdog = QTimer(self)
        self._watchdog.setInterval(WATCHDOG_MS)
        self._watchdog.timeout.connect(self._check_deadline)
        self._kill_timer = QTimer(self)
        self._kill_timer.setSingleShot(True)
        self._kill_timer.timeout.connect(self._kill)

    # -- public
    def start(self) -> None:
        """Start the first worker; returns at once."""
        self._running = True
        self._launch_next()

    def cancel(self) -> None:
        """Stop the run: the running worker is interrupted, then killed after a short wait; results stay."""
        if not self._running:
            return
        self.session.cancel()
        self.sig_log.emit("info", self.tr("Cancelling: the results already measured are kept."))
        if self._proc is not None and self._proc.state() != QProcess.ProcessState.NotRunning:
            _interrupt(self._proc)
            self._kill_timer.start(int(CANCEL_WAIT_S * 1000))
        else:
            self._finish()

    def backend_status(self, backend: str) -> BackendStatus | None:
        """What the run has learnt about `backend` so far, or None."""
        return self.session.backend_status(backend)

    def is_running(self) -> bool:
        """True from start() until sig_finished."""
        return self._running

    def kill(self) -> None:
        """Stop at once (the window is closing): no waiting for the worker to say done, only for it to be
        gone (reaped, so no QProcess outlives its process)."""
        self.session.cancel()
        self._kill()
        if self._proc is not None:
            self._proc.waitForFinished(REAP_WAIT_MS)
        self._sweep()

    def _sweep(self) -> None:
        for mark in self._marks:
            guarded.sweep(mark)

    def pid(self) -> int | None:
        """Process id of the running worker, if any."""
        if self._proc is None or self._proc.state() == QProcess.ProcessState.NotRunning:
            return None
        return int(self._proc.processId())

    def snapshot(self) -> RunFile:
        """The run so far, cheaply (no validation), for live tables and charts."""
        if self._finished_run is not None:
            return self._finished_run
        return self.session.assembler.snapshot()

    def partial(self, why: str) -> RunFile | None:
        """The run so far as a validated run file marked partial (incomplete, with `why` among its errors),
        for a window that is stopped mid-run (SIGTERM, SIGHUP, the desktop session closing); None when
        it has finished (the window keeps finished runs) or measured nothing yet."""
        if self._finished_run is not None or not self.session.assembler.results:
            return None
        run = self.session.assembler.finish(cancelled=True)
        return run.model_copy(update={"errors": [*run.errors, why]})

    # -- worker lifecycle
    def _launch_next(self) -> None:
        launch = self.session.next_launch()
        if launch is None:
            self._finish()
            return
        if launch.backend not in self._seen_backends:
            self._seen_backends.append(launch.backend)
        self._backend = launch.backend
        self._backend_index = self._seen_backends.index(launch.backend)
        self._stderr.clear()
        self._timed_out = False
        warm = self._standby.take(launch.argv, launch.env) if self._standby is not None else None
        if warm is not None:
            self._adopt(warm[0], launch.argv, listed=warm[1])
            return
        self._preamble = None
        proc = QProcess(self)
        _new_session(proc)
        proc.setProcessEnvironment(_environment({**launch.env, guarded.MARK_ENV: self._mark}))
        argv = _guarded(launch.argv)
        proc.setProgram(argv[0])
        proc.setArguments(argv[1:])
        proc.readyReadStandardOutput.connect(self._on_stdout)
        proc.readyReadStandardError.connect(self._on_stderr)
        proc.finished.connect(self._on_finished)
        proc.errorOccurred.connect(self._on_error)
        proc.started.connect(lambda: setattr(self, "_pid", int(proc.processId())))
        self._proc = proc
        self._pid = 0
        proc.start()
        self._watchdog.start()

    def _adopt(self, proc: QProcess, argv: list[str], listed: bool = True) -> None:
        """Run this launch in a standby worker: its output comes here from now on, then its arguments go in;
        the rest of a listing not read yet (the standby's own stream, up to its Done) is skipped."""
        proc.setParent(self)
        # started under the guard with its own marker (standby_workers): swept with this run's
        mark = proc.processEnvironment().value(guarded.MARK_ENV)
        if mark and mark not in self._marks:
            self._marks.append(mark)
        self._preamble = None if listed else bytearray()
        proc.readyReadStandardOutput.connect(self._on_stdout)
        proc.readyReadStandardError.connect(self._on_stderr)
        proc.finished.connect(self._on_finished)
        proc.errorOccurred.connect(self._on_error)
        self._proc = proc
        self._pid = int(proc.processId())
        self.warm_starts += 1
        proc.write((json.dumps(_split(argv)[1], allow_nan=False) + "\n").encode())
        proc.closeWriteChannel()
        self._watchdog.start()
        if proc.bytesAvailable():  # written before the hand-over: no readyRead comes for it again
            self._read_stdout()

    def _on_stdout(self) -> None:
        if self.sender() is self._proc:
            self._read_stdout()

    def _read_stdout(self) -> None:
        if self._proc is None:
            return
        data = bytes(self._proc.readAllStandardOutput().data())
        if self._preamble is not None:
            data = self._skip_preamble(data)
        for msg in self.session.feed(data):
            self._emit(msg)

    def _skip_preamble(self, data: bytes) -> bytes:
        """Drop a standby worker's own listing (lines up to its Done line); returns what follows it."""
        assert self._preamble is not None
        self._preamble += data
        while True:
            nl = self._preamble.find(b"\n")
            if nl < 0:
                return b""
            line = bytes(self._preamble[:nl])
            del self._preamble[: nl + 1]
            try:
                done = json.loads(line).get("type") == "done"
            except (ValueError, AttributeError):
                done = False
            if done:
                rest, self._preamble = bytes(self._preamble), None
                return rest

    def _on_stderr(self) -> None:
        if self._proc is None:
            return
        self._stderr += bytes(self._proc.readAllStandardError().data())
        del self._stderr[:-STDERR_TAIL_BYTES]

    def _emit(self, msg: Message) -> None:
        if isinstance(msg, Progress):
            self.sig_progress.emit(msg, self._backend_index, len(self.request.backends))
        elif isinstance(msg, ErrorMsg):
            where = " ".join(x for x in (msg.backend or self._backend, msg.kernel) if x)
            self.sig_log.emit(
                "error" if msg.kernel is None else "warning",
                self.tr("{where}: {message}").format(where=where, message=result_message(msg)),
            )
        elif isinstance(msg, ResultMsg) and msg.result.status in ("error", "timeout", "suspect"):
            r = msg.result
            level = "warning" if r.status == "suspect" else "error"
            status = words(STATUS_WORDS, r.status)
            if r.message:
                line = self.tr("{point}: {status}: {message}").format(
                    point=f"{r.backend} {r.label()}", status=status, message=result_message(r)
                )
            else:
                line = self.tr("{point}: {status}").format(point=f"{r.backend} {r.label()}", status=status)
            self.sig_log.emit(level, line)
        elif isinstance(msg, Done) and not msg.ok and msg.message:
            self.sig_log.emit(
                "warning",
                self.tr("{backend}: stopped early: {message}").format(
                    backend=self._backend, message=result_message(msg)
                ),
            )
        self.sig_message.emit(msg)

    def _check_deadline(self) -> None:
        if self._proc is None or self._proc.state() == QProcess.ProcessState.NotRunning:
            return
        if not self.session.cancelled and self.session.timed_out():
            self._timed_out = True
            cur = self.session.assembler.current
            if cur:
                what = self.tr("{point} ran past its time cap").format(point=point_label(cur))
            else:
                what = self.tr("the worker did not start in time")
            self.sig_log.emit(
                "warning",
                self.tr("{backend}: {what}; stopping that worker and going on.").format(
                    backend=self._backend, what=what
                ),
            )
            _kill(self._proc)

    def _kill(self) -> None:
        if self._proc is not None and self._proc.state() != QProcess.ProcessState.NotRunning:
            _kill(self._proc)

    def _on_error(self, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart and self._proc is not None:
            self.sig_log.emit(
                "error",
                self.tr("{backend}: could not start the worker: {reason}").format(
                    backend=self._backend, reason=self._proc.errorString()
                ),
            )
            self._worker_done(None)

    def _on_finished(self, _code: int, _status: QProcess.ExitStatus) -> None:
        proc = self.sender()
        if proc is not self._proc or self._proc is None:
            return
        self._read_stdout()
        self._on_stderr()
        self._worker_done(_returncode(self._proc))

    def _worker_done(self, returncode: int | None) -> None:
        self._watchdog.stop()
        self._kill_timer.stop()
        proc, self._proc = self._proc, None
        if proc is not None:
            _signal_group(proc, signal.SIGKILL, self._pid)  # child processes it may have left behind
            proc.deleteLater()
        tail = stderr_tail(self._stderr)
        for msg in self.session.worker_exited(returncode, timed_out=self._timed_out, stderr_tail=tail):
            self._emit(msg)
        if self.session.cancelled:
            self._finish()
        else:
            # Back to the event loop first, so a crash loop can never starve the window.
            QTimer.singleShot(0, self._launch_next)

    def _finish(self) -> None:
        if self._finished_run is not None:
            return
        self._watchdog.stop()
        self._sweep()
        run = self.session.finish()
        self._finished_run = run
        self._running = False
        self.sig_finished.emit(run)


class DeviceLister(QObject):
    """Lists each backend's devices in a worker (`probe-worker --list-devices`), both backends at once.

    sig_backend(BackendStatus, list[DeviceInfo]) per backend as its worker ends; sig_finished() after all.
    """

    sig_backend = Signal(object, object)
    sig_finished = Signal()

    def __init__(
        self, backends: tuple[str, ...] = BACKENDS, parent: QObject | None = None, python: str | None = None
    ) -> None:
        super().__init__(parent)
        self.backends = backends
        self.python = python  # the interpreter to ask (None: the app's own)
        self._procs: dict[str, QProcess] = {}
        self._decoders: dict[str, LineDecoder] = {}
        self._assemblers: dict[str, RunAssembler] = {}
        self._stderr: dict[str, bytearray] = {}
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._give_up)
        self.results: dict[str, tuple[BackendStatus, list[DeviceInfo]]] = {}

    def start(self) -> None:
        """Start one listing worker per backend."""
        request = ProbeRequest(suite="smoke", backends=self.backends, python=self.python)
        for backend in self.backends:
            argv = worker_command(backend, request, list_devices=True)
            proc = QProcess(self)
            _new_session(proc)
            proc.setProcessEnvironment(_environment(worker_env(backend, request)))
            proc.setProgram(argv[0])
            proc.setArguments(argv[1:])
            self._decoders[backend] = LineDecoder()
            asm = RunAssembler("smoke")
            asm.start_worker(backend)
            self._assemblers[backend] = asm
            self._stderr[backend] = bytearray()
            proc.readyReadStandardOutput.connect(lambda b=backend: self._on_stdout(b))
            proc.readyReadStandardError.connect(lambda b=backend: self._on_stderr(b))
            proc.finished.connect(lambda _c, _s, b=backend: self._on_finished(b))
            proc.errorOccurred.connect(lambda e, b=backend: self._on_error(b, e))
            self._procs[backend] = proc
            proc.start()
        self._timer.start(int(STARTUP_TIMEOUT_S * 1000))

    def is_running(self) -> bool:
        """True while a listing worker is still running."""
        return bool(self._procs)

    def stop(self) -> None:
        """Kill any listing worker still running (e.g. when the window closes)."""
        for proc in list(self._procs.values()):
            _kill(proc)
            proc.waitForFinished(2000)

    def _on_stdout(self, backend: str) -> None:
        proc = self._procs.get(backend)
        if proc is None:
            return
        for msg in self._decoders[backend].feed(bytes(proc.readAllStandardOutput().data())):
            self._assemblers[backend].add(msg)

    def _on_stderr(self, backend: str) -> None:
        proc = self._procs.get(backend)
        if proc is None:
            return
        buf = self._stderr[backend]
        buf += bytes(proc.readAllStandardError().data())
        del buf[:-STDERR_TAIL_BYTES]

    def _on_error(self, backend: str, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart:
            proc = self._procs.get(backend)
            reason = proc.errorString() if proc else self.tr("could not start")
            self._report(backend, self.tr("could not start the worker: {reason}").format(reason=reason))

    def _on_finished(self, backend: str) -> None:
        proc = self._procs.get(backend)
        if proc is None:
            return
        self._on_stdout(backend)
        for msg in self._decoders[backend].flush():
            self._assemblers[backend].add(msg)
        self._on_stderr(backend)
        asm = self._assemblers[backend]
        problem = None
        if asm.done is None:
            code = _returncode(proc)
            tail = stderr_tail(self._stderr[backend]).splitlines()[-1:]
            if tail:
                problem = self.tr("device listing worker stopped (status {code}): {tail}").format(
                    code=code, tail=tail[0][:200]
                )
            else:
                problem = self.tr("device listing worker stopped (status {code})").format(code=code)
        self._report(backend, problem)

    def _report(self, backend: str, problem: str | None) -> None:
        proc = self._procs.pop(backend, None)
        if proc is None:
            return
        proc.deleteLater()
        asm = self._assemblers[backend]
        devices = [d for d in asm.devices.values() if d.backend == backend]
        status = asm.backends.get(backend)
        if status is None or (problem and not devices):
            reason = problem or self.tr("the worker reported no device")
            status = BackendStatus(backend=backend, available=False, reason=reason)
        self.results[backend] = (status, devices)
        self.sig_backend.emit(status, devices)
        if not self._procs:
            self._timer.stop()
            self.sig_finished.emit()

    def _give_up(self) -> None:
        for backend, proc in list(self._procs.items()):
            _kill(proc)
            self._report(backend, self.tr("no answer within {seconds} s").format(seconds=f"{STARTUP_TIMEOUT_S:.0f}"))


def now_label(dt: datetime | None = None) -> str:
    """'14:02:07' for the message list."""
    return (dt or datetime.now()).strftime("%H:%M:%S")
