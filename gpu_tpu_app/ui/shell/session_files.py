"""The window's session file actions: New, Open, Open Recent, Save, Save As, Import Run.

`SessionFiles` asks for files, reads and writes them and keeps the recent-files list; the
`SessionController` keeps the session itself (the window renders it). What the file actions need
of the window besides is the `SessionView` protocol (MainWindow implements it), so this module
does not import the window.
A file that cannot be read or shown is reported in a dialog and the session stays as it was.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, QSettings
from PySide6.QtWidgets import QFileDialog, QMenu, QMessageBox, QStatusBar, QWidget

from gpu_tpu_app.core.runs import load_run
from gpu_tpu_app.core.session import load_session, new_session, save_session
from gpu_tpu_app.errors import InputError, shown
from gpu_tpu_app.safe_read import NOTES_CHARS
from gpu_tpu_app.ui.shell.session_controller import SessionController
from gpu_tpu_app.ui.shell.widgets import message_box, plain_tip, show_error

MAX_RECENT = 8
# file-dialog filters in English, shown through QCoreApplication.translate("SessionFiles", ...)
SESSION_FILTER = str(QT_TRANSLATE_NOOP("SessionFiles", "gpu-tpu-app session (*.json);;All files (*)"))
RUN_FILTER = str(QT_TRANSLATE_NOOP("SessionFiles", "Probe run (*.json);;All files (*)"))


class SessionView(Protocol):
    """What the file actions need of the window that shows the session."""

    def show_wizard(self, page: int | None = None) -> None: ...
    def show_result(self) -> None: ...
    def probe_running(self) -> bool: ...
    def statusBar(self) -> QStatusBar: ...
    def confirm(self, what: str, path: Path | None = None, read: bool = False) -> None: ...


class SessionFiles(QObject):
    """File actions for one window's session, and its Open Recent menu.

    `parent` is the widget the dialogs belong to; `session` holds the session; `window` shows it
    (`parent` and `window` are the main window).
    """

    def __init__(self, parent: QWidget, session: SessionController, window: SessionView, persist: bool = True) -> None:
        super().__init__(parent)
        self._parent = parent
        self._session = session
        self._window = window
        self._persist = persist
        self.recent_menu = QMenu(self.tr("Open &Recent"), parent)

    @staticmethod
    def _filter(english: str) -> str:
        return QCoreApplication.translate("SessionFiles", english)

    def _status(self, text: str, ms: int) -> None:
        self._window.statusBar().showMessage(text, ms)

    def _start_dir(self) -> str:
        path = self._session.path()
        return str(path.parent) if path else str(Path.home())

    # ------------------------------------------------------------------ file actions

    def maybe_save(self) -> bool:
        """Ask to save unsaved changes; False when the user cancels."""
        if not self._session.is_modified():
            return True
        path = self._session.path()
        name = path.name if path else self.tr("Untitled")
        answer = message_box(
            self._parent,
            QMessageBox.Icon.Warning,
            self.tr("Unsaved changes"),
            self.tr("The session “{name}” has changes that are not saved. Save them first?").format(name=name),
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save,
        ).exec()
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def new_session(self) -> bool:
        """Start over with an empty session (after the unsaved-changes prompt)."""
        window = self._window
        if window.probe_running():
            self._status(self.tr("A probe is running: cancel it before starting a new session."), 6000)
            return False
        if not self.maybe_save():
            return False
        self._session.set_session(new_session())
        window.show_wizard(0)
        self._status(self.tr("New session"), 3000)
        window.confirm(self.tr("New session: every answer, run, check and note of the last one is cleared."))
        return True

    def open_session(self, path: str | Path | None = None) -> bool:
        """Open a session file (asks for one when `path` is None); a broken file is reported, never changed."""
        if not self.maybe_save():
            return False
        window = self._window
        if path is None:
            chosen, _f = QFileDialog.getOpenFileName(
                self._parent, self.tr("Open session"), self._start_dir(), self._filter(SESSION_FILTER)
            )
            if not chosen:
                return False
            path = chosen
        path = Path(path)
        try:
            session = load_session(path)
        except InputError as exc:
            show_error(self._parent, self.tr("Cannot open session"), str(exc))
            return False
        try:
            self._session.set_session(session, path)
        except Exception as exc:  # valid, yet it cannot be shown: the previous session stays, unchanged
            show_error(
                self._parent,
                self.tr("Cannot open session"),
                self.tr("{path}: cannot be shown ({error})").format(path=path, error=shown(exc, 300)),
            )
            return False
        self.add_recent(path)
        if any(v is not None for v in session.answers.model_dump().values()):
            window.show_result()
        else:
            window.show_wizard(0)
        self._status(self.tr("Opened {path}").format(path=path), 4000)
        return True

    def save(self) -> bool:
        """Save to the current file, or ask for one."""
        path = self._session.path()
        if path is None:
            return self.save_as()
        return self._write(path)

    def save_as(self, path: str | Path | None = None) -> bool:
        """Save under a new name (asks for it when `path` is None)."""
        if path is None:
            current = self._session.path()
            start = str(current) if current else str(Path.home() / "gpu-tpu-session.json")
            chosen, _f = QFileDialog.getSaveFileName(
                self._parent, self.tr("Save session as"), start, self._filter(SESSION_FILTER)
            )
            if not chosen:
                return False
            path = chosen if Path(chosen).suffix else chosen + ".json"
        return self._write(Path(path))

    def _write(self, path: Path) -> bool:
        session = self._session.session()
        if len(session.notes) > NOTES_CHARS:  # a file this app could not open again
            show_error(
                self._parent,
                self.tr("Cannot save session"),
                self.tr(
                    "{path}: notes: {n} characters, over the {limit} a session keeps; shorten them and save again"
                ).format(path=path, n=f"{len(session.notes):,}", limit=f"{NOTES_CHARS:,}"),
            )
            return False
        try:
            saved = save_session(session, path)
        except OSError as exc:
            show_error(
                self._parent,
                self.tr("Cannot save session"),
                self.tr("{path}: {error}").format(path=path, error=exc.strerror or exc),
            )
            return False
        self._session.mark_saved(saved, path)
        self.add_recent(path)
        self._status(self.tr("Saved {path}").format(path=path), 4000)
        self._window.confirm(self.tr("Saved the session"), path)
        return True

    def import_run(self, path: str | Path | None = None) -> bool:
        """Add a probe run file (e.g. measured on a TPU VM with gpu-tpu-probe) to the session."""
        if path is None:
            chosen, _f = QFileDialog.getOpenFileName(
                self._parent, self.tr("Import probe run"), self._start_dir(), self._filter(RUN_FILTER)
            )
            if not chosen:
                return False
            path = chosen
        try:
            run = load_run(path)
        except InputError as exc:
            show_error(self._parent, self.tr("Cannot import run"), str(exc))
            return False
        runs = self._session.session().runs
        if run in runs:
            self._window.confirm(self.tr("{path}: this run is already in the session").format(path=path))
            return False
        try:
            self._session.show_runs([*runs, run])
        except Exception as exc:  # valid, yet it cannot be shown: the session keeps its runs, unchanged
            show_error(
                self._parent,
                self.tr("Cannot import run"),
                self.tr("{path}: cannot be shown ({error})").format(path=path, error=shown(exc, 300)),
            )
            return False
        self._window.confirm(
            self.tr("Imported the run of {host} ({n} results)").format(host=run.host, n=len(run.results)),
            Path(path),
            read=True,
        )
        return True

    # ------------------------------------------------------------------ recent files

    def recent_files(self) -> list[str]:
        """Recently opened or saved sessions, newest first."""
        if not self._persist:
            return []
        value = QSettings().value("recent", [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, (list, tuple)):  # a settings file edited by hand: ignore what is not a list
            return []
        return [v for v in value if isinstance(v, str) and 0 < len(v) <= 4096][:MAX_RECENT]

    def add_recent(self, path: Path) -> None:
        """Put `path` first in the recent-files list (kept in QSettings)."""
        if not self._persist:
            return
        entry = str(Path(path).resolve())
        files = [f for f in self.recent_files() if f != entry]
        QSettings().setValue("recent", [entry, *files][:MAX_RECENT])
        self.update_recent_menu()

    def update_recent_menu(self) -> None:
        """Fill File › Open Recent from the recent-files list."""
        self.recent_menu.clear()
        files = self.recent_files()
        for i, f in enumerate(files, 1):
            act = self.recent_menu.addAction(f"&{i} {Path(f).name}")
            act.setToolTip(plain_tip(f))
            act.setStatusTip(f)
            act.triggered.connect(lambda _c=False, p=f: self.open_session(p))
        if not files:
            empty = self.recent_menu.addAction(self.tr("No recent sessions"))
            empty.setEnabled(False)
        else:
            self.recent_menu.addSeparator()
            clear = self.recent_menu.addAction(self.tr("&Clear List"))
            clear.triggered.connect(self.clear_recent)

    def clear_recent(self) -> None:
        """File › Open Recent › Clear List."""
        QSettings().remove("recent")
        self.update_recent_menu()
