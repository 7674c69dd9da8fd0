"""Check my model…: the model-check worker driven with QProcess, and its bar on the Framework-check page.

The user's file runs only in the worker (gpu-tpu-app model-check-worker), never in the window's
process; the window reads its JSON lines through core.modelcheck.CheckSession, as the CLI does,
and stays responsive while it runs, under the process guard (probe/guarded.py): Cancel, a time-out or the
window's end (even kill -9) ends the worker and everything the file started. The bar's Python
selector (the Probe page's ui.envs_view.EnvsView) picks the interpreter the worker runs in, as
`check-model --python` does, so a model is checked with the user's own packages.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject, QProcess, QProcessEnvironment, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from gpu_tpu_app.core.modelcheck import CheckSession, ModelCheck, WorkerStage, level_text
from gpu_tpu_app.core.modelcheck.phases import STEPS, estimate_left, phase_of, progress
from gpu_tpu_app.probe import guarded
from gpu_tpu_app.probe.modelcheck_launch import (
    DEFAULT_MEMORY_LIMIT_MB,
    DEFAULT_TIMEOUT_S,
    DEFAULT_TPU_CHIPS,
    precheck,
    worker_command,
    worker_env,
)
from gpu_tpu_app.shared import portable
from gpu_tpu_app.ui.probe.envs_view import EnvsView
from gpu_tpu_app.ui.shell.widgets import label

#: the chip counts the bar offers (0: no TPU compile, a faster check).
TPU_CHIP_CHOICES = (0, 1, 4, 8, 16, 64, 256)

MODEL_FILTER = str(QT_TRANSLATE_NOOP("ModelCheckBar", "Python model file (*.py);;All files (*)"))


LAST_FOLDER_KEY = "model_check/last_folder"


def examples_folder() -> Path | None:
    """The example models that come with a source checkout (examples/models), when they are there."""
    folder = Path(__file__).resolve().parents[3] / "examples" / "models"
    return folder if folder.is_dir() else None


def start_folder() -> str:
    """Where Check my model's file dialog opens: the last folder a model was picked from (while it
    exists), else the shipped example models, else the home folder."""
    last = QSettings().value(LAST_FOLDER_KEY, "", str)
    if isinstance(last, str) and last and Path(last).is_dir():
        return last
    examples = examples_folder()
    return str(examples if examples is not None else Path.home())


class ModelCheckProcess(QObject):
    """One check in a QProcess. sig_stage(str) while it runs ("step 5 of 6: lowering for TPU", from the phase
    registry core.modelcheck.phases) and sig_step(WorkerStage) with it; sig_finished(ModelCheck | str | None)
    once: the result, the one-line error, or None when cancelled."""

    sig_stage = Signal(str)
    sig_step = Signal(object)
    sig_finished = Signal(object)

    def __init__(
        self,
        file: str,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        memory_limit_mb: int = DEFAULT_MEMORY_LIMIT_MB,
        parent: QObject | None = None,
        tpu_chips: int = DEFAULT_TPU_CHIPS,
        python: str | None = None,
    ) -> None:
        super().__init__(parent)
        self.file = file
        self._tpu_chips = tpu_chips
        self.python = python
        self.session = CheckSession(file, timeout_s, memory_limit_mb)
        self.session.choose_python = self.tr(
            "choose the Python environment that has the package in the Python selector beside Check my model…"
        )
        self._timeout_s = timeout_s
        self._memory = memory_limit_mb
        self._proc: QProcess | None = None
        self._stderr = bytearray()
        self._start = 0.0
        self._timed_out = False
        self._cancelled = False
        self._done = False
        self._mark: str | None = None  # this launch's marker (probe/guarded.py), for the sweep at the end
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._on_timeout)

    def start(self) -> None:
        """Start the worker; returns at once (a bad path finishes at once with its one-line error)."""
        bad = precheck(self.file, self.python)
        if bad:
            QTimer.singleShot(0, lambda: self._finish(bad))
            return
        # under the process guard (probe/guarded.py): nothing the file starts outlives the check or the window
        argv = guarded.guard_command(
            worker_command(self.file, self._memory, self._timeout_s, self._tpu_chips, self.python),
            self._memory,
            report_signal=True,  # SIGKILL of the worker may be memory; of the guard itself, never
        )
        proc = QProcess(self)
        if sys.platform != "win32":
            flags = QProcess.UnixProcessFlag
            proc.setUnixProcessParameters(flags.CreateNewSession | flags.ResetSignalHandlers | flags.IgnoreSigPipe)
        env = QProcessEnvironment()
        marked = guarded.marked(worker_env(python=self.python))
        self._mark = marked[guarded.MARK_ENV]
        for k, v in marked.items():
            env.insert(k, v)
        proc.setProcessEnvironment(env)
        proc.setProgram(argv[0])
        proc.setArguments(argv[1:])
        proc.readyReadStandardOutput.connect(self._on_stdout)
        proc.readyReadStandardError.connect(self._on_stderr)
        proc.finished.connect(self._on_finished)
        proc.errorOccurred.connect(self._on_error)
        self._proc = proc
        self._start = time.monotonic()
        proc.start()
        self._timer.start(int(self._timeout_s * 1000))

    def is_running(self) -> bool:
        return self._proc is not None and not self._done

    def cancel(self) -> None:
        """Stop the check now: its guard kills the worker and everything it started (the TPU compiler's process
        too) and is reaped here before this returns (within the guard's grace, then its group is killed), so
        the check has ended, all of it, when Cancel's click is handled."""
        if self._done:
            return
        self._cancelled = True
        proc = self._proc
        if proc is not None and proc.state() != QProcess.ProcessState.NotRunning:
            self.stop()  # (stop() calls cancel() only when nothing runs: no loop)
            if proc.state() != QProcess.ProcessState.NotRunning:
                proc.waitForFinished(1000)  # its group was killed: reap it
        self._finish(None)

    def _kill(self) -> None:
        proc = self._proc
        if proc is None or proc.state() == QProcess.ProcessState.NotRunning:
            if not self._done:
                self._finish(None if self._cancelled else self.tr("stopped"))
            return
        pid = int(proc.processId())
        try:
            if pid and sys.platform != "win32":
                os.kill(pid, signal.SIGTERM)  # the guard ends the worker and all it started, then exits
                QTimer.singleShot(int(guarded.STOP_GRACE_S * 1000), self, lambda: self._kill_group(pid))
            else:
                proc.kill()
        except (ProcessLookupError, PermissionError):
            proc.kill()

    def stop(self) -> None:
        """Stop the check at once and wait until its guard is reaped (the window is closing: no grace)."""
        proc = self._proc
        if self._done or proc is None or proc.state() == QProcess.ProcessState.NotRunning:
            self.cancel()
            return
        self._cancelled = True
        pid = int(proc.processId())
        try:
            if pid and sys.platform != "win32":
                os.kill(pid, signal.SIGTERM)  # the guard ends the worker and all it started, then exits
            else:
                proc.kill()
        except (ProcessLookupError, PermissionError):
            proc.kill()
        if not proc.waitForFinished(int(guarded.STOP_GRACE_S * 1000)):
            self._kill_group(pid)
            proc.waitForFinished(3000)

    def _kill_group(self, pid: int) -> None:
        """The guard did not end within its grace: kill it and its group."""
        proc = self._proc
        if self._done or proc is None or proc.state() == QProcess.ProcessState.NotRunning:
            return
        if not portable.kill_group(pid):
            proc.kill()

    def _on_timeout(self) -> None:
        self._timed_out = True
        self._kill()

    def _on_stdout(self) -> None:
        if self._proc is None:
            return
        for msg in self.session.feed(bytes(self._proc.readAllStandardOutput().data())):
            if isinstance(msg, WorkerStage):
                self.sig_stage.emit(progress(msg.stage, msg.function))
                self.sig_step.emit(msg)

    def _on_stderr(self) -> None:
        if self._proc is None:
            return
        self._stderr += bytes(self._proc.readAllStandardError().data())
        del self._stderr[:-4096]

    def _on_error(self, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart:
            self._finish(self.tr("{file}: the check's worker process could not start").format(file=self.file))

    def _on_finished(self, code: int, status: QProcess.ExitStatus) -> None:
        guarded.sweep(self._mark)  # what escaped a guard that was killed (by the file, or kill -9)
        if self._proc is not None:
            self._on_stdout()
            self._on_stderr()
        if self._cancelled:
            self._finish(None)
            return
        rc = portable.killed_exit_code() if status == QProcess.ExitStatus.CrashExit else code
        self._finish(
            self.session.finish(
                rc,
                time.monotonic() - self._start,
                timed_out=self._timed_out,
                stderr_tail=bytes(self._stderr).decode("utf-8", "replace"),
            )
        )

    def _finish(self, result: ModelCheck | str | None) -> None:
        if self._done:
            return
        self._done = True
        self._timer.stop()
        self.sig_finished.emit(result)


class ModelCheckBar(QWidget):
    """The Check-my-model button, and while a check runs, its progress view with Cancel.

    sig_checked(ModelCheck) after a check that ran; bad input shows a dialog.
    """

    sig_checked = Signal(object)
    sig_finished = Signal(object)  # ModelCheck | str | None, for tests and the window

    def __init__(
        self, parent: QWidget | None = None, python: str | None = None, added: list[str] | None = None
    ) -> None:
        super().__init__(parent)
        self.process: ModelCheckProcess | None = None
        self.timeout_s = DEFAULT_TIMEOUT_S
        root = QVBoxLayout(self)
        root.setContentsMargins(0, 0, 0, 0)
        root.setSpacing(6)
        row = QHBoxLayout()
        self.button = QPushButton(self.tr("Check my model…"))
        self.button.setToolTip(
            self.tr(
                "Pick your model's Python file; it runs in a separate process, and the answers "
                "on this page are filled from what is measured"
            )
        )
        self.button.clicked.connect(self.choose_file)
        row.addWidget(self.button)
        self.hint = label(
            self.tr(
                "Measure these answers from your own model file (PyTorch: model() and example_inputs(); "
                "JAX: params(), forward() and example_inputs())."
            ),
            "muted",
        )
        row.addWidget(self.hint, 1)
        self.chips = QComboBox()
        for n in TPU_CHIP_CHOICES:
            if not n:
                text = self.tr("no TPU compile")
            elif n == 1:
                text = self.tr("1 chip")
            else:
                text = self.tr("{n} chips").format(n=n)
            self.chips.addItem(text, n)
        self.chips.setCurrentIndex(TPU_CHIP_CHOICES.index(DEFAULT_TPU_CHIPS))
        self.chips.setAccessibleName(self.tr("TPU chips to compile for"))
        self.chips.setToolTip(
            self.tr(
                "With libtpu installed, the check compiles your model for each TPU generation of the catalogue, "
                "for a slice of this many chips (more than one shows how the batch is split)"
            )
        )
        chips_label = QLabel(self.tr("Compile for TPU:"))
        chips_label.setBuddy(self.chips)
        row.addWidget(chips_label)
        row.addWidget(self.chips)
        root.addLayout(row)
        self.envs = EnvsView(python, added)
        self.envs.combo.setToolTip(
            self.tr(
                "The Python your model is checked in: this app's own, or one of your environments, so that "
                "the packages your model imports (and their torch or JAX) are the ones you use"
            )
        )
        root.addWidget(self.envs)
        self.progress_view = QWidget()
        prow = QHBoxLayout(self.progress_view)
        prow.setContentsMargins(0, 0, 0, 0)
        self.progress = QProgressBar()
        self.progress.setRange(0, STEPS)  # the check's phases (core.modelcheck.phases), one step each
        self.progress.setMaximumWidth(180)
        self.stage_label = label("", "muted")
        self._step: WorkerStage | None = None
        self._started = 0.0
        self._tick = QTimer(self)
        self._tick.setInterval(1000)
        self._tick.timeout.connect(self._show_step)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.clicked.connect(self.cancel)
        prow.addWidget(self.progress)
        prow.addWidget(self.stage_label, 1)
        prow.addWidget(self.cancel_button)
        self.progress_view.hide()
        root.addWidget(self.progress_view)
        self._head = ""
        self.status = label("", "muted")
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status.hide()
        root.addWidget(self.status)

    def choose_file(self) -> None:
        """Ask for a model file (the dialog opens in the last folder used, else at the shipped examples),
        then check it."""
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Check a model file"), start_folder(), self.tr(MODEL_FILTER)
        )
        if path:
            QSettings().setValue(LAST_FOLDER_KEY, str(Path(path).parent))
            self.check(path)

    def check(self, path: str) -> None:
        """Check `path` in a worker process; returns at once."""
        if self.process is not None and self.process.is_running():
            return
        if self.process is not None:
            self.process.deleteLater()
        self.process = ModelCheckProcess(
            path,
            self.timeout_s,
            parent=self,
            tpu_chips=int(self.chips.currentData()),
            python=self.envs.selected(),
        )
        self.process.sig_step.connect(self._on_step)
        self.process.sig_finished.connect(self._finished)
        self.button.setEnabled(False)
        self.envs.setEnabled(False)
        where = self.envs.selected()
        if where:
            starting = self.tr("Starting the check of {file} in {python}…").format(file=Path(path).name, python=where)
        else:
            starting = self.tr("Starting the check of {file}…").format(file=Path(path).name)
        self.stage_label.setText(starting)
        self._step = None
        self._started = time.monotonic()
        self.progress.setValue(0)
        self._tick.start()
        self.status.hide()
        self.progress_view.show()
        self.process.start()

    def _on_step(self, msg: WorkerStage) -> None:
        self._step = msg
        self._show_step()

    def _show_step(self) -> None:
        """The step line: "step 6 of 6: compiling for v6e, 42 s elapsed, about 10 s left" (the estimate from
        the steps done so far)."""
        msg = self._step
        if msg is None:
            return
        phase = phase_of(msg.stage)
        elapsed = time.monotonic() - self._started
        step = progress(msg.stage, msg.function)
        left = estimate_left(phase.step, elapsed) if phase is not None else None
        if phase is not None:
            self.progress.setValue(phase.step - 1)
        if left is None:
            self.stage_label.setText(self.tr("{step}; {elapsed} s elapsed").format(step=step, elapsed=round(elapsed)))
        else:
            self.stage_label.setText(
                self.tr("{step}; {elapsed} s elapsed, about {left} s left").format(
                    step=step, elapsed=round(elapsed), left=max(1, round(left))
                )
            )

    def show_outcome(self, lines: list[str]) -> None:
        """Add what the check changed (answers filled, answers kept, the verdict) under its summary."""
        self.status.setText("\n".join(line for line in [self._head, *lines] if line))
        self.status.show()

    def show_saved(self, check: ModelCheck | None) -> None:
        """The line of a check saved with an opened session; None (File > New) clears the line."""
        if self.is_running():
            return
        if check is None:
            self._head = ""
            self.status.clear()
            self.status.hide()
            return
        self._head = self.tr("Checked {file} (saved with this session): evidence level {level}.").format(
            file=Path(check.file).name, level=level_text(check)
        )
        self.status.setText(self._head)
        self.status.show()

    def cancel(self) -> None:
        """Stop the running check."""
        if self.process is not None:
            self.process.cancel()

    def shutdown(self) -> None:
        """Stop the running check and the environment listing now (the window is closing)."""
        if self.process is not None:
            self.process.stop()
        self.envs.stop()

    def is_running(self) -> bool:
        return self.process is not None and self.process.is_running()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self.envs.environments() and not self.envs.is_listing():  # list them the first time it shows
            QTimer.singleShot(0, self._list_if_shown)

    def _list_if_shown(self) -> None:
        # queued at show: the page (or a screenshot's window) may be gone by the time it runs
        if self.isVisible() and not self.envs.environments() and not self.envs.is_listing():
            self.envs.refresh()

    def hideEvent(self, event: QHideEvent) -> None:
        # a listing still running when the page goes away is stopped; the next show lists again (cached)
        if not self.envs.environments():
            self.envs.stop()
        super().hideEvent(event)

    def _finished(self, result: ModelCheck | str | None) -> None:
        self._tick.stop()
        self.progress_view.hide()
        self.button.setEnabled(True)
        self.envs.setEnabled(True)
        if result is None:
            self.status.setText(self.tr("Check cancelled; the answers were left as they were."))
            self.status.show()
        elif isinstance(result, str):
            self.status.setText(self.tr("The check did not run: {problem}").format(problem=result))
            self.status.show()
            box = QMessageBox(
                QMessageBox.Icon.Warning,
                self.tr("The model check did not run"),
                result,
                QMessageBox.StandardButton.Ok,
                self,
            )
            box.setTextFormat(Qt.TextFormat.PlainText)
            box.open()
        else:
            self._head = self.tr(
                "Checked {file} in {seconds} s: evidence level {level}. Measured values fill only the answers "
                "you left open; each stays yours to change."
            ).format(file=Path(result.file).name, seconds=f"{result.seconds:.1f}", level=level_text(result))
            self.status.setText(self._head)
            self.status.show()
            self.sig_checked.emit(result)
        self.sig_finished.emit(result)
