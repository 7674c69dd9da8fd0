"""Saves and exports are confirmed where the user looks (the path written, a link to its folder), and
File > New leaves no trace of the old session anywhere in the window."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QApplication, QLabel, QLineEdit, QPlainTextEdit, QTextEdit, QWidget

from gpu_tpu_app.core.decision import Answers
from gpu_tpu_app.core.modelcheck import MeasuredAnswers, ModelCheck
from gpu_tpu_app.core.session import load_session
from gpu_tpu_app.ui.shell.main_window import MainWindow

SESSION = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "example-session.json"


def _window(qtbot) -> MainWindow:
    w = MainWindow(persist=False)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    return w


def test_save_is_confirmed_in_the_window_with_its_folder(qtbot, tmp_path: Path, monkeypatch) -> None:
    opened: list[str] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url.toLocalFile()) or True)
    w = _window(qtbot)
    assert not w.notice.isVisible()
    target = tmp_path / "plans" / "plan.json"
    target.parent.mkdir()
    assert w.save_as(target)
    assert target.exists()
    assert w.notice.isVisible() and w.notice.text.text() == f"Saved the session to {target.resolve()}"
    assert w.notice.geometry().bottom() < w.height() // 4  # at the top of the page, not in the status bar
    w.notice.folder_button.click()
    assert opened == [str(target.parent.resolve())]
    w.notice.dismiss_button.click()
    assert not w.notice.isVisible()


def _texts(w: MainWindow) -> list[str]:
    out = []
    for child in w.findChildren(QWidget):
        if w.notice.isAncestorOf(child) or child is w.notice or child.isHidden():
            continue  # texts a hidden widget keeps are no trace; pages not shown now are still read
        if isinstance(child, (QLabel, QLineEdit)):
            out.append(child.text())
        elif isinstance(child, (QPlainTextEdit, QTextEdit)):
            out.append(child.toPlainText())
    return out


@pytest.mark.slow
def test_file_new_clears_every_trace_of_the_old_session(qtbot) -> None:
    fresh = _window(qtbot)
    fresh.show_wizard(0)
    used = _window(qtbot)
    used.set_session(load_session(SESSION), SESSION)
    used.show_result()
    used.wizard.apply_model_check(
        ModelCheck(
            file="/home/u/net.py",
            framework="pytorch",
            level="static_graph_captured",
            answers=MeasuredAnswers(framework="pytorch", custom_ops="none"),
            evidence=[],
            seconds=1.0,
        )
    )
    used.result_page.set_notes("my notes on the old plan")
    used._notes_changed("my notes on the old plan")
    used.mark_saved(used.session(), SESSION)  # nothing unsaved: New asks nothing
    assert used.new_session()
    QApplication.processEvents()
    assert used.session().answers == Answers() and not used.session().runs and used.session().model_check is None
    assert used.wizard.model_check_bar.status.isHidden()
    old = [t for t in _texts(used) if t not in _texts(fresh)]
    assert not old, old
    assert used.windowTitle() == fresh.windowTitle()
