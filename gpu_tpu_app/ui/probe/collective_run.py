"""Measure a collective across two processes from the Collectives tab: the same `gpu-tpu-probe collective
--processes 2` a user would type, run with QProcess under the process guard (worker/guard.py) with a marker of
its own: Cancel stops every rank, and kill -9 of the window ends the command line, its ranks and anything they
started (a setsid daemon of a --python wrapper too), not only what the ranks' own lifeline reaches. Its run file
is read back and shown. The window imports neither torch nor jax: the ranks do."""

from __future__ import annotations

import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QObject, QProcess, QProcessEnvironment, Signal

from gpu_tpu_app.core.runs import RunFile, load_run
from gpu_tpu_app.errors import InputError
from gpu_tpu_app.probe import envs, guarded
from gpu_tpu_app.probe.protocol import frozen
from gpu_tpu_app.shared import portable

#: Ranks started: the smallest group that has something to exchange.
PROCESSES = 2
#: Measuring time per engine, and how long to wait for the ranks to join (seconds).
BUDGET_S = 60
JOIN_TIMEOUT_S = 60
#: How long a stopped run's guard gets to end the ranks before it is killed (then its marker is swept).
STOP_WAIT_MS = 3000


def collective_command(out: Path, backends: list[str], python: str | None) -> list[str]:
    """argv of the run: this program's `probe collective` with two ranks, saving to `out`."""
    base = [sys.executable, "probe"] if frozen() else [sys.executable, "-m", "gpu_tpu_app", "probe"]
    argv = [*base, "collective", "--processes", str(PROCESSES), "--out", str(out)]
    argv += ["--backend", backends[0] if len(backends) == 1 else "all"]
    argv += ["--budget-s", str(BUDGET_S), "--timeout-s", str(JOIN_TIMEOUT_S)]
    if python and not envs.is_own(python):
        argv += ["--python", python]
    return argv


class CollectiveRun(QObject):
    """One two-process collective run. sig_finished(RunFile | None, str): the run and a line saying how
    it went (the run is None when it failed or was cancelled)."""

    sig_finished = Signal(object, str)

    def __init__(self, backends: list[str], python: str | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._folder = Path(tempfile.mkdtemp(prefix="gpu-tpu-collective-"))
        self.out = self._folder / "collective.json"
        self.argv = collective_command(self.out, backends, python)
        self._proc: QProcess | None = None
        self._stderr = bytearray()
        self._cancelled = False
        # the window's environment with a marker of this run's own (carried by the guard and the command line;
        # the ranks get the command line's) and the guard's lifeline anchor
        self._env = guarded.marked(os.environ)
        self.mark = self._env[guarded.MARK_ENV]
        self._guarded = hasattr(os, "fork")

    def start(self) -> None:
        proc = QProcess(self)
        if sys.platform != "win32":
            flags = QProcess.UnixProcessFlag
            proc.setUnixProcessParameters(flags.CreateNewSession | flags.ResetSignalHandlers)
        env = QProcessEnvironment()
        for key, value in self._env.items():
            env.insert(key, value)
        proc.setProcessEnvironment(env)
        argv = guarded.guard_command(self.argv) if self._guarded else self.argv
        proc.setProgram(argv[0])
        proc.setArguments(argv[1:])
        proc.readyReadStandardError.connect(self._on_stderr)
        proc.finished.connect(self._on_finished)
        proc.errorOccurred.connect(self._on_error)
        self._proc = proc
        proc.start()

    def is_running(self) -> bool:
        return self._proc is not None and self._proc.state() != QProcess.ProcessState.NotRunning

    def stop(self) -> None:
        """Stop every rank now and wait until they are reaped (the window is closing)."""
        self.cancel()
        if self._proc is not None and self.is_running() and not self._proc.waitForFinished(STOP_WAIT_MS):
            self._kill()
            self._proc.waitForFinished(STOP_WAIT_MS)
        guarded.sweep(self.mark)

    def cancel(self) -> None:
        """Stop every rank now: SIGTERM to the guard, which kills every process below it (the ranks and
        whatever they started) and exits; without the guard, the launcher's group is killed."""
        self._cancelled = True
        if self._proc is None or not self.is_running():
            return
        pid = int(self._proc.processId())
        if self._guarded and pid:
            try:
                os.kill(pid, signal.SIGTERM)
                return
            except OSError:
                pass
        self._kill()

    def _kill(self) -> None:
        assert self._proc is not None
        pid = int(self._proc.processId())
        if not (pid and portable.has_process_groups() and portable.kill_group(pid)):
            self._proc.kill()  # no process groups (Windows): QProcess ends the launcher

    def _on_stderr(self) -> None:
        if self._proc is not None:
            self._stderr += bytes(self._proc.readAllStandardError().data())
            del self._stderr[:-4096]

    def _on_error(self, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart:
            self._done(None, self.tr("the collective run could not start"))

    def _on_finished(self, code: int, _status: QProcess.ExitStatus) -> None:
        if self._cancelled:
            self._done(None, self.tr("Cancelled the collective run; nothing was added."))
            return
        if code == 0 and self.out.is_file():
            try:
                run = load_run(self.out)
            except InputError as exc:
                self._done(
                    None, self.tr("The collective run wrote a file this app cannot read: {problem}").format(problem=exc)
                )
                return
            ok = sum(r.status == "ok" for r in run.results if r.kernel == "collective")
            self._done(
                run, self.tr("Measured collectives across {n} processes: {ok} points.").format(n=PROCESSES, ok=ok)
            )
            return
        lines = [ln for ln in bytes(self._stderr).decode("utf-8", "replace").splitlines() if ln.strip()]
        why = lines[-1] if lines else self.tr("exit status {code}").format(code=code)
        self._done(None, self.tr("The collective run did not finish: {why}").format(why=why[:300]))

    def _done(self, run: RunFile | None, text: str) -> None:
        guarded.sweep(self.mark)  # what escaped a guard that was itself killed
        shutil.rmtree(self._folder, ignore_errors=True)
        self.sig_finished.emit(run, text)
