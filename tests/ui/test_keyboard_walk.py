"""A keyboard-only walk through the wizard to the verdict: focus starts on a choice, arrow keys answer, Tab moves
to the next question, Enter goes to the next page and, after the last one, to the result. No mouse, no calls
into the widgets."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QRadioButton

from gpu_tpu_app.ui.decide.wizard import QuestionCard
from gpu_tpu_app.ui.shell.main_window import MainWindow


def _card_of(widget) -> QuestionCard | None:
    while widget is not None and not isinstance(widget, QuestionCard):
        widget = widget.parentWidget()
    return widget


def test_the_wizard_walks_to_the_verdict_by_keyboard_alone(qtbot) -> None:
    w = MainWindow(persist=False)
    qtbot.addWidget(w, before_close_func=lambda win: win.session_controller.mark_clean())
    w.resize(1280, 800)
    w.show()
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    w.show_wizard(0)
    answered: set[str] = set()
    for page_index, page in enumerate(w.wizard.pages):
        assert w.wizard.current_page() == page_index
        cards_seen: list[QuestionCard] = []
        for _ in range(200):  # Tab through the page, answering each question once
            focus = QApplication.focusWidget()
            card = _card_of(focus)
            if card is not None and card in page.cards and card not in cards_seen and isinstance(focus, QRadioButton):
                cards_seen.append(card)
                qtbot.keyClick(focus, Qt.Key.Key_Up)  # from "Skip" to the choice above it
                if card.value() is None:
                    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Down)
                assert card.value() is not None, f"page {page_index}: no choice by arrow keys"
                answered.add(card.field)
            if len(cards_seen) == len(page.cards):
                break
            qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        assert len(cards_seen) == len(page.cards), f"page {page_index}: Tab reached {len(cards_seen)} questions"
        focus = QApplication.focusWidget()
        assert focus is not None and focus.hasFocus()
        qtbot.keyClick(focus, Qt.Key.Key_Return)
    assert w.place() == ("result",)
    answers = w.session().answers.model_dump()
    assert answered and all(answers[f] is not None for f in answered)
    w.shutdown()
