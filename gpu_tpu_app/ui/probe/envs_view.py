"""The probe page's environment selector: which Python the probe workers run in, and what each one sees.

The list comes from `gpu-tpu-probe envs --format json`, run in a QProcess with a time limit, so a
Python that hangs or crashes while it is asked never holds up the window. The first entry is the
app's own interpreter; the others are the user's venvs, conda envs and pyenv versions (their own
CUDA / ROCm / TPU builds). One that cannot run a probe is listed, greyed out, with the reason.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QProcess, QProcessEnvironment, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gpu_tpu_app.core.environments import PythonEnv, kind_words, problem_words
from gpu_tpu_app.core.wording import version_words
from gpu_tpu_app.probe import guarded
from gpu_tpu_app.probe.envs import QUERY_TIMEOUT_S, envs_command, parse_envs_json, parse_progress_line
from gpu_tpu_app.shared import procutil
from gpu_tpu_app.ui.shell.icons import set_themed_icon
from gpu_tpu_app.ui.shell.widgets import label, plain_tip

#: The whole listing may take this long (queries run four at a time, each with its own limit).
LIST_TIMEOUT_S = 3 * QUERY_TIMEOUT_S + 30
#: Output beyond this is not read.
MAX_OUTPUT = 8 * 1024 * 1024


def _list_sep() -> str:
    """Between the items of a list in a line (", "; Chinese writes "、")."""
    return QCoreApplication.translate("EnvsView", ", ")


def env_text(env: PythonEnv) -> str:
    """The combo box line: name, Python, and what it has or why it cannot be used."""
    what = _list_sep().join(f"{k} {version_words(env.versions[k])}" for k in ("torch", "jax") if k in env.versions)
    python = env.python or "?"
    if not env.usable:
        return QCoreApplication.translate("EnvsView", "{name} (Python {python}): not usable").format(
            name=env.name, python=python
        )
    return QCoreApplication.translate("EnvsView", "{name} (Python {python}; {frameworks})").format(
        name=env.name, python=python, frameworks=what or QCoreApplication.translate("EnvsView", "no frameworks")
    )


def device_words(device: str) -> str:
    """A device as a framework's query names it, in the user's words: 'cpu' / 'cpu:0 cpu' -> 'the CPU',
    'cuda:0 NVIDIA H100' -> 'NVIDIA H100', 'mps' -> 'the Apple GPU (MPS)', 'tpu:0 TPU v5 lite' -> 'TPU v5 lite'."""
    first, _sep, name = device.partition(" ")
    platform = first.split(":")[0].lower()
    if platform == "cpu":
        return QCoreApplication.translate("EnvsView", "the CPU")
    if platform == "mps":
        return QCoreApplication.translate("EnvsView", "the Apple GPU (MPS)")
    return name.strip() or device


def build_words(flavour: str) -> str:
    """The builds a query found ('torch +cpu, jax cpu', core.environments.build_flavour), said in words:
    'PyTorch CPU-only build, JAX for the CPU'; a part it does not know stays as it is."""
    out = []
    for part in (p.strip() for p in flavour.split(",")):
        if part == "torch +cpu":
            out.append(QCoreApplication.translate("EnvsView", "PyTorch CPU-only build"))
        elif part == "jax cpu":
            out.append(QCoreApplication.translate("EnvsView", "JAX for the CPU"))
        elif part.startswith(("torch CUDA ", "torch ROCm ")):
            out.append(
                QCoreApplication.translate("EnvsView", "PyTorch {build} build").format(
                    build=part.removeprefix("torch ")
                )
            )
        elif part.startswith(("jax CUDA", "jax ROCm", "jax TPU")):
            build, _sep, plugin = part.removeprefix("jax ").partition(" ")
            out.append(
                QCoreApplication.translate("EnvsView", "JAX {build} build {plugin}")
                .format(build=build, plugin=plugin)
                .strip()
            )
        elif part:
            out.append(part)
    return _list_sep().join(out)


def frameworks_words(env: PythonEnv) -> str:
    """'torch 2.13.0 (CPU-only build) finds the CPU; jax 0.10.2 finds the CPU', or the problem."""
    if not env.usable:
        return problem_words(env.problem) if env.problem else QCoreApplication.translate("EnvsView", "not usable")
    parts = []
    for fw in env.frameworks:
        name = f"{fw.framework} {version_words(env.versions.get(fw.framework, ''))}".strip()
        if fw.devices:
            found = _list_sep().join(dict.fromkeys(device_words(d) for d in fw.devices))
            parts.append(
                QCoreApplication.translate("EnvsView", "{framework} finds {devices}").format(
                    framework=name, devices=found
                )
            )
        else:
            parts.append(
                QCoreApplication.translate("EnvsView", "{framework} finds no device ({why})").format(
                    framework=name, why=fw.error or QCoreApplication.translate("EnvsView", "none reported")
                )
            )
    return QCoreApplication.translate("EnvsView", "; ").join(parts)


def env_tooltip(env: PythonEnv) -> str:
    """Everything the query found, one fact per line."""
    lines = [
        env.interpreter,
        QCoreApplication.translate("EnvsView", "found as: {kind}").format(kind=kind_words(env.kind)),
    ]
    if env.python:
        lines.append(f"Python {env.python}")
    if env.flavour:
        lines.append(QCoreApplication.translate("EnvsView", "build: {build}").format(build=build_words(env.flavour)))
    for fw in env.frameworks:
        seen = (
            _list_sep().join(dict.fromkeys(device_words(d) for d in fw.devices))
            if fw.devices
            else QCoreApplication.translate("EnvsView", "no devices")
        )
        if fw.error:
            line = QCoreApplication.translate("EnvsView", "{framework} sees: {devices} ({error})")
        else:
            line = QCoreApplication.translate("EnvsView", "{framework} sees: {devices}")
        lines.append(line.format(framework=fw.framework, devices=seen, error=fw.error))
    if env.problem:
        lines.append(problem_words(env.problem))
    return "\n".join(lines)


class EnvsView(QWidget):
    """A combo box of Python environments, an Add… button and a line saying what the chosen one sees.

    Signals: sig_selected(str | None) when the user picks another environment (None: the app's own),
    sig_added(str) when one is added by path, sig_listed() when a listing has arrived (or failed),
    sig_message(level, text) for the page's message list.
    """

    sig_selected = Signal(object)
    sig_added = Signal(str)
    sig_listed = Signal()
    sig_message = Signal(str, str)

    def __init__(
        self, selected: str | None = None, added: list[str] | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._selected = selected
        self._added = list(added or [])
        self._envs: list[PythonEnv] = []
        self._proc: QProcess | None = None
        self._out = bytearray()
        self._err = bytearray()  # stderr not yet split into lines
        self._err_lines: list[str] = []  # its lines other than progress (a problem, a warning): the last 20
        self._step: tuple[int, int, str] | None = None  # (k, n, interpreter) of the interpreter asked last
        self._mark: str | None = None  # the listing's guard marker (probe/guarded.py), swept when it ends
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._give_up)
        self._tick = QTimer(self)  # the note's elapsed time while the listing runs
        self._tick.setInterval(1000)
        self._tick.timeout.connect(self._say_elapsed)
        self._started = 0.0

        self.combo = QComboBox()
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.combo.setMinimumContentsLength(18)
        self.combo.setToolTip(
            self.tr(
                "The Python the probe workers run in: this app's own, or one of your environments "
                "with its own torch / JAX builds"
            )
        )
        self.combo.activated.connect(self._on_activated)
        self.add_button = QPushButton(self.tr("Add…"))
        self.add_button.setToolTip(self.tr("Add a Python interpreter by path (e.g. ~/venvs/train/bin/python)"))
        self.add_button.clicked.connect(self._add_dialog)
        self.refresh_button = QToolButton()
        set_themed_icon(self.refresh_button, "reload")
        self.refresh_button.setToolTip(self.tr("Ask every environment again"))
        self.refresh_button.clicked.connect(lambda: self.refresh(force=True))
        self.cancel_button = QPushButton(self.tr("Stop"))
        self.cancel_button.setToolTip(self.tr("Stop looking for environments now; the list shown stays"))
        self.cancel_button.clicked.connect(self.cancel)
        self.cancel_button.hide()
        self.note = label("", "muted")
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(label("Python", wrap=False))
        row.addWidget(self.combo, 1)
        row.addWidget(self.add_button)
        row.addWidget(self.refresh_button)
        row.addWidget(self.cancel_button)
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(2)
        col.addLayout(row)
        col.addWidget(self.note)
        self._fill()

    def minimumSizeHint(self) -> QSize:
        """Room for the note as wrapped at the width it has (a layout counts a wrapping label as one line),
        so the pane below never covers its second line."""
        hint = super().minimumSizeHint()
        extra = self.note.heightForWidth(max(1, self.note.width())) - self.note.minimumSizeHint().height()
        return QSize(hint.width(), hint.height() + max(0, extra))

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self.updateGeometry()  # the note wraps differently at another width

    # ---------------------------------------------------------------- API
    def selected(self) -> str | None:
        """The chosen interpreter, or None for the app's own."""
        return self._selected

    def environments(self) -> list[PythonEnv]:
        """What the last listing found."""
        return list(self._envs)

    def added(self) -> list[str]:
        """Interpreters added by path."""
        return list(self._added)

    def is_listing(self) -> bool:
        """True while the listing process runs."""
        return self._proc is not None

    def refresh(self, force: bool = False) -> None:
        """List the environments again in the background (force: ask each one, ignoring the cache)."""
        if self._proc is not None:
            return
        # under the process guard, as the model check: tied to the window's life (kill -9 of the window
        # ends the guard, which ends the listing and every interpreter it asked), and swept when it ends
        argv = guarded.guard_command(envs_command(self._added, refresh=force, progress=True))
        proc = QProcess(self)
        if sys.platform != "win32":
            flags = QProcess.UnixProcessFlag
            proc.setUnixProcessParameters(flags.CreateNewSession | flags.ResetSignalHandlers | flags.IgnoreSigPipe)
        env = QProcessEnvironment()
        marked = guarded.marked({**os.environ, "PYTHONUNBUFFERED": "1"})
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
        self._out = bytearray()
        self._err = bytearray()
        self._err_lines = []
        self._step = None
        self._proc = proc
        self.refresh_button.setEnabled(False)
        self.cancel_button.show()
        self._started = time.monotonic()
        self._say_elapsed()
        proc.start()
        self._timer.start(int(LIST_TIMEOUT_S * 1000))
        self._tick.start()

    def _say_elapsed(self) -> None:
        """What the listing does, in words: step k of n (the interpreter it asks), the time it has taken, an
        estimate of the time left (from the time per interpreter so far) and the most it may take."""
        elapsed = time.monotonic() - self._started
        if self._step is not None:
            k, n, interpreter = self._step
            if k >= 2:
                left = min(elapsed / k * (n - k + 1), max(0.0, LIST_TIMEOUT_S - elapsed))
                estimate = self.tr("about {left} s left").format(left=f"{left:.0f}")
            else:
                estimate = self.tr("{limit} s at most").format(limit=f"{LIST_TIMEOUT_S:.0f}")
            self.note.setText(
                self.tr(
                    "Step {k} of {n}: asking {python} which torch and JAX it has; {elapsed} s so far, {estimate}."
                ).format(k=k, n=n, python=interpreter, elapsed=f"{elapsed:.0f}", estimate=estimate)
            )
            return
        self.note.setText(
            self.tr(
                "Looking for Python environments (venvs, conda, pyenv) and asking each for its torch and JAX: "
                "{elapsed} s so far, {limit} s at most."
            ).format(elapsed=f"{time.monotonic() - self._started:.0f}", limit=f"{LIST_TIMEOUT_S:.0f}")
        )

    def cancel(self) -> None:
        """Stop the listing now (the user pressed Stop); the environments listed before stay."""
        proc = self._proc
        if proc is None:
            return
        self._done()  # first: its finished signal, sent while it is killed, finds no listing to read
        proc.kill()
        proc.waitForFinished(2000)
        self.note.setText(self.tr("Stopped looking for environments; the list shown is the last one."))
        self.sig_listed.emit()

    def add(self, path: str) -> None:
        """Add an interpreter by path and list again; it is selected once it answers and can run a probe."""
        path = os.path.abspath(os.path.expanduser(path))
        if path not in self._added:
            self._added.append(path)
            self.sig_added.emit(path)
        self._want = path
        self.refresh()

    def select(self, interpreter: str | None) -> bool:
        """Choose an environment as the user would; False when it is not listed or cannot run a probe."""
        index = self._index_of(interpreter)
        if index < 0 or not self._enabled(index):
            return False
        self.combo.setCurrentIndex(index)
        self._on_activated(index)
        return True

    # ---------------------------------------------------------------- internals
    _want: str | None = None

    def _index_of(self, interpreter: str | None) -> int:
        for i in range(self.combo.count()):
            if self.combo.itemData(i) == interpreter:
                return i
        return -1

    def _enabled(self, index: int) -> bool:
        model = self.combo.model()
        item = model.item(index) if isinstance(model, QStandardItemModel) else None
        return item is None or item.isEnabled()

    def _fill(self) -> None:
        self.combo.blockSignals(True)
        self.combo.clear()
        own = next((e for e in self._envs if e.kind == "app"), None)
        frozen = getattr(sys, "frozen", False)
        first = self.tr("this app (bundle)") if frozen else self.tr("this app")
        if own and own.python:
            first += f" (Python {own.python})"
        self.combo.addItem(first, None)
        self.combo.setItemData(0, plain_tip(env_tooltip(own) if own else sys.executable), Qt.ItemDataRole.ToolTipRole)
        model = self.combo.model()
        for env in self._envs:
            if env.kind == "app":
                continue
            self.combo.addItem(env_text(env), env.interpreter)
            i = self.combo.count() - 1
            self.combo.setItemData(i, plain_tip(env_tooltip(env)), Qt.ItemDataRole.ToolTipRole)
            if not env.usable and isinstance(model, QStandardItemModel):
                model.item(i).setEnabled(False)
        index = self._index_of(self._selected)
        if index < 0 and self._selected is not None and self._envs:
            self.sig_message.emit(
                "warning",
                self.tr("The probe environment {python} was not found; using this app's own Python.").format(
                    python=self._selected
                ),
            )
            self._selected = None
            self.sig_selected.emit(None)
            index = 0
        elif index >= 0 and not self._enabled(index):
            env = next(e for e in self._envs if e.interpreter == self._selected)
            self.sig_message.emit(
                "warning",
                self.tr("The probe environment cannot be used ({problem}); using this app's own Python.").format(
                    problem=problem_words(env.problem) if env.problem else env.summary()
                ),
            )
            self._selected = None
            self.sig_selected.emit(None)
            index = 0
        self.combo.setCurrentIndex(max(0, index))
        self.combo.blockSignals(False)
        self._show_note()

    def _current_env(self) -> PythonEnv | None:
        if self._selected is None:
            return next((e for e in self._envs if e.kind == "app"), None)
        return next((e for e in self._envs if e.interpreter == self._selected), None)

    def _show_note(self) -> None:
        env = self._current_env()
        if env is None:
            self.note.setText("" if self._proc is None else self.note.text())
            return
        self.note.setText(frameworks_words(env))
        self.updateGeometry()
        self.note.setToolTip(plain_tip(env_tooltip(env)))

    def _on_activated(self, index: int) -> None:
        interpreter = self.combo.itemData(index)
        if interpreter == self._selected:
            return
        self._selected = interpreter
        self._show_note()
        self.sig_selected.emit(interpreter)

    def _add_dialog(self) -> None:
        start = str(Path.home())
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Choose a Python interpreter"), start)
        if path:
            self.add(path)

    def _on_stdout(self) -> None:
        if self._proc is None:
            return
        data = bytes(self._proc.readAllStandardOutput().data())
        if len(self._out) < MAX_OUTPUT:
            self._out += data[: MAX_OUTPUT - len(self._out)]

    def _on_stderr(self) -> None:
        """Progress lines move the note on; other lines are kept (the last 20) for a failure's message."""
        if self._proc is None:
            return
        self._err += bytes(self._proc.readAllStandardError().data())
        *lines, rest = bytes(self._err).split(b"\n")
        self._err = bytearray(rest[-65536:])  # a line without its end is kept, bounded
        stepped = False
        for raw in lines:
            line = raw.decode("utf-8", "replace").rstrip("\r")
            step = parse_progress_line(line)
            if step is not None:
                self._step = step
                stepped = True
            elif line.strip():
                self._err_lines = [*self._err_lines, line[:500]][-20:]
        if stepped:
            self._say_elapsed()

    def _done(self) -> None:
        self._timer.stop()
        guarded.sweep(self._mark)
        self._mark = None
        self._tick.stop()
        self.cancel_button.hide()
        if self._proc is not None:
            self._proc.deleteLater()
        self._proc = None
        self.refresh_button.setEnabled(True)

    def _on_finished(self, code: int, _status: object) -> None:
        if self._proc is None:
            return
        self._on_stdout()
        self._on_stderr()
        tail = bytes(self._err).decode("utf-8", "replace").strip()
        err = [*self._err_lines, *([tail[:500]] if tail else [])]
        self._done()
        try:
            self._envs = parse_envs_json(bytes(self._out))
        except ValueError as exc:
            if err:
                failed = self.tr("Listing the Python environments failed: {problem} ({stderr})").format(
                    problem=exc, stderr=err[-1][:200]
                )
            else:
                failed = self.tr("Listing the Python environments failed: {problem}").format(problem=exc)
            self.sig_message.emit("error", failed)
            self.note.setText(self.tr("The environment list could not be read; the app's own Python is used."))
            self.sig_listed.emit()
            return
        for env in self._envs:
            if env.kind == "added" and env.problem:
                self.sig_message.emit("warning", problem_words(env.problem))
        want, self._want = self._want, None
        self._fill()
        if want is not None:
            self.select(want)
        self.sig_listed.emit()

    def _on_error(self, error: QProcess.ProcessError) -> None:
        if self._proc is None or error != QProcess.ProcessError.FailedToStart:
            return
        self._done()
        self.sig_message.emit("error", self.tr("Could not start the environment listing."))
        self.sig_listed.emit()

    def stop(self) -> None:
        """End the listing now (the window is closing, or it took too long): SIGTERM to its guard (it ends the listing and every interpreter it asked),
        SIGKILL to the guard's group after the grace; waits until the guard is gone."""
        proc = self._proc
        if proc is None or proc.state() == QProcess.ProcessState.NotRunning:
            return
        pid = int(proc.processId())
        if pid and sys.platform != "win32" and procutil.kill(pid, signal.SIGTERM):
            if proc.waitForFinished(int(guarded.STOP_GRACE_S * 1000)):
                return
            procutil.killpg(pid)
        proc.kill()
        proc.waitForFinished(2000)

    def _give_up(self) -> None:
        if self._proc is None:
            return
        self.stop()
        self._done()
        self.sig_message.emit(
            "error",
            self.tr("Listing the Python environments took longer than {seconds} s; stopped it.").format(
                seconds=f"{LIST_TIMEOUT_S:.0f}"
            ),
        )
        self.sig_listed.emit()
