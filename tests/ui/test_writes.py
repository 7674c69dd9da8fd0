"""Saving from the window: a session saved through a symlink keeps the link; a full disk or a symlink loop is a
dialog, the file on disk and the window's state are unchanged, and no temporary file is left."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from gpu_tpu_app.core.session import load_session
from gpu_tpu_app.ui.shell.main_window import MainWindow


class Errors:
    """Records the error dialogs (plain text) instead of showing them."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.shown: list[tuple[str, str]] = []
        monkeypatch.setattr(QMessageBox, "exec", lambda box: self._exec(box))

    def _exec(self, box: QMessageBox) -> int:
        assert box.textFormat() == Qt.TextFormat.PlainText, box.text()
        self.shown.append((box.windowTitle(), box.text()))
        return int(QMessageBox.StandardButton.Ok)


@pytest.fixture
def window(qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    w = MainWindow(persist=False)

    def forget(win: MainWindow) -> None:
        win.session_controller.mark_clean()  # closing without the unsaved-changes question

    qtbot.addWidget(w, before_close_func=forget)
    return w


def _edit(window: MainWindow, notes: str) -> None:
    window.set_session(window.session().model_copy(update={"notes": notes}), window.path(), modified=True)


def test_saving_through_a_symlink_writes_its_target(window: MainWindow, tmp_path: Path) -> None:
    real = tmp_path / "synced" / "plan.json"
    real.parent.mkdir()
    link = tmp_path / "plan.json"
    link.symlink_to(real)
    _edit(window, "first")
    assert window.save_as(link)
    _edit(window, "second")
    assert window.save()
    assert link.is_symlink() and load_session(real).notes == "second"


def test_a_full_disk_is_a_dialog_and_keeps_the_saved_file(
    window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, full_disk
) -> None:
    path = tmp_path / "plan.json"
    _edit(window, "saved before")
    assert window.save_as(path)
    before = path.read_bytes()
    _edit(window, "not saved")
    errors = Errors(monkeypatch)
    full_disk()
    assert not window.save()
    assert errors.shown == [("Cannot save session", f"{path}: No space left on device")]
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["plan.json"]
    assert window.is_modified() and window.path() == path


def test_a_symlink_loop_is_a_dialog(window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    loop = tmp_path / "loop.json"
    loop.symlink_to(loop.name)
    errors = Errors(monkeypatch)
    _edit(window, "x")
    assert not window.save_as(loop)
    assert len(errors.shown) == 1 and errors.shown[0][0] == "Cannot save session"
    assert errors.shown[0][1].startswith(f"{loop}: ") and "symbolic links" in errors.shown[0][1]
    assert loop.is_symlink() and os.readlink(loop) == loop.name
    assert window.path() is None and window.is_modified()
