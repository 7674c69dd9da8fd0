"""Input a new user gives the window: the mouse wheel over a combo box, spin box or slider the user did not click
changes nothing, on every page (wizard pages, result with its estimator, probe, learn), and the page scrolls instead;
once the field has focus the wheel changes it as before. F5 runs and Esc cancels on the Probe page."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QAbstractScrollArea, QAbstractSlider, QAbstractSpinBox, QApplication, QComboBox, QWidget

from gpu_tpu_app.ui.shell.main_window import MainWindow
from gpu_tpu_app.ui.shell.wheel_guard import _guarded


@pytest.fixture
def window(qtbot) -> Iterator[MainWindow]:
    w = MainWindow(persist=False)
    qtbot.addWidget(w, before_close_func=lambda win: win.session_controller.mark_clean())
    w.resize(1280, 800)
    w.show()
    yield w
    w.shutdown()


def _state(widget: QWidget) -> object:
    if isinstance(widget, QComboBox):
        return widget.currentIndex()
    if isinstance(widget, QAbstractSpinBox):
        return widget.text()
    assert isinstance(widget, QAbstractSlider)
    return widget.value()


def _wheel(widget: QWidget, down: bool = True) -> None:
    centre = QPointF(widget.rect().center())
    glob = QPointF(widget.mapToGlobal(QPoint(int(centre.x()), int(centre.y()))))
    delta = QPoint(0, -120 if down else 120)
    event = QWheelEvent(
        centre,
        glob,
        QPoint(),
        delta,
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(widget, event)


def _fields(w: MainWindow) -> list[QWidget]:
    return [
        c
        for c in w.findChildren(QWidget)
        if _guarded(c) and c.isVisibleTo(w) and c.isEnabled() and c.window() is w and c.width() > 0
    ]


def _pages(w: MainWindow, qtbot) -> Iterator[str]:
    for i in range(len(w.wizard.pages)):
        w.show_wizard(i)
        yield f"wizard page {i}"
    w.show_result()
    yield "result"
    w.show_page("probe")
    yield "probe"
    w.show_page("learn")
    yield "learn"


def test_the_wheel_edits_no_unfocused_field_on_any_page(window: MainWindow, qtbot) -> None:
    seen: dict[str, int] = {}
    for page in _pages(window, qtbot):
        qtbot.wait(10)
        fields = _fields(window)
        seen[page] = len(fields)
        for field in fields:
            window.nav.setFocus()  # the pointer passes over the field; the keyboard is elsewhere
            before = _state(field)
            for down in (True, True, False, False, False):
                _wheel(field, down)
            assert _state(field) == before, f"{page}: the wheel changed {type(field).__name__} {field.objectName()}"
            assert not field.hasFocus(), f"{page}: the wheel gave {type(field).__name__} the focus"
    assert seen["result"] >= 3 and seen["probe"] >= 2, seen  # the estimator's and the probe page's combo boxes


def test_a_focused_combo_still_follows_the_wheel_and_an_unfocused_one_scrolls_the_page(
    window: MainWindow, qtbot
) -> None:
    window.resize(1024, 640)
    window.show_result()
    qtbot.wait(10)
    combos = [c for c in _fields(window) if isinstance(c, QComboBox) and c.count() > 2]
    assert combos
    combo = combos[0]
    area = next(p for p in _ancestors(combo) if isinstance(p, QAbstractScrollArea))
    bar = area.verticalScrollBar()
    assert bar.maximum() > 0  # the result page is taller than a 1024x640 window
    bar.setValue(bar.maximum() // 2)
    before = bar.value()
    _wheel(combo, down=True)
    assert bar.value() > before
    window.activateWindow()
    combo.setFocus(Qt.FocusReason.MouseFocusReason)
    assert combo.hasFocus()
    index = combo.currentIndex()
    _wheel(combo, down=index == 0)
    assert combo.currentIndex() != index


def _ancestors(widget: QWidget) -> Iterator[QWidget]:
    parent = widget.parentWidget()
    while parent is not None:
        yield parent
        parent = parent.parentWidget()


def test_f5_runs_and_esc_cancels_on_the_probe_page_and_both_are_listed(window: MainWindow, qtbot, monkeypatch) -> None:
    from PySide6.QtGui import QAction

    from gpu_tpu_app.ui.shell.help import shortcut_rows

    panel = window.ensure_probe_panel()
    window.show_page("probe")
    calls: list[str] = []
    monkeypatch.setattr(panel, "start", lambda *a: calls.append("run") or True)
    monkeypatch.setattr(panel, "cancel", lambda: calls.append("cancel"))
    window.activateWindow()
    qtbot.waitUntil(lambda: window.isActiveWindow())
    panel.suite.setFocus()
    qtbot.keyClick(panel.suite, Qt.Key.Key_F5)
    assert calls == ["run"]
    panel.controls.set_running(True)  # Cancel is enabled while a run goes on
    qtbot.keyClick(panel.suite, Qt.Key.Key_Escape)
    assert calls == ["run", "cancel"]
    panel.controls.set_running(False)  # and Esc does nothing when nothing runs
    qtbot.keyClick(panel.suite, Qt.Key.Key_Escape)
    assert calls == ["run", "cancel"]
    rows = dict(shortcut_rows(window.findChildren(QAction)))
    assert rows["Run the probe"] == "F5" and rows["Cancel the probe"] == "Esc"
    assert panel.run_button.toolTip().endswith("(F5)")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_menu_buttons_keep_their_arrow_beside_the_word(window: MainWindow, qtbot, theme: str) -> None:
    """ "Kernels: all" drew its menu arrow over the word: each menu button is wide enough for its word and the
    arrow, side by side."""
    from PySide6.QtCore import QRect

    from gpu_tpu_app.ui.shell.theme import theme_manager

    theme_manager().apply(theme)
    window.ensure_probe_panel()
    window.show_page("probe")
    qtbot.wait(10)
    from gpu_tpu_app.ui.probe.run_controls import CheckMenuButton

    buttons = [b for b in window.findChildren(CheckMenuButton) if b.isVisibleTo(window)]
    assert len(buttons) == 2, [b.text() for b in buttons]  # Kernels, Dtypes
    for b in buttons:  # the arrow is drawn right of the words, a gap between (tests/ui/test_menu_buttons.py)
        words = QRect(b.text_rect().left(), 0, b.text_width(), b.height())
        assert b.text_rect().width() >= b.text_width(), (b.text(), b.text_rect(), b.text_width())
        assert not b.arrow_rect().intersects(words) and b.rect().contains(b.arrow_rect()), (b.text(), words)


def test_reopening_a_session_marks_the_pages_it_answered(window: MainWindow) -> None:
    from pathlib import Path

    from gpu_tpu_app.core.session import load_session

    session = load_session(Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "example-session.json")
    window.set_session(session)
    window.show_wizard(0)
    wizard = window.wizard
    answered = [any(card.value() is not None for card in page.cards) for page in wizard.pages]
    assert sum(answered[1:]) >= 2  # the example answers questions on several pages
    for i, step in enumerate(wizard.step_labels[1 : len(wizard.pages)], 1):
        assert step.text().startswith("✓ ") == answered[i], (i, step.text())
        assert (step.property("step") == "done") == answered[i]
