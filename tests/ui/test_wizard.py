"""The Decide wizard: every question once, Skip by default, links to Learn, and keyboard only to the result."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from gpu_tpu_app.core.decision import FACTORS, PAGES, QUESTIONS, Answers
from gpu_tpu_app.core.lesson import load_lesson
from gpu_tpu_app.ui.decide.wizard import SKIP_LABEL, DecideWizard
from gpu_tpu_app.ui.shell.main_window import MainWindow

#: what the keyboard test answers (field -> value); the others stay "don't know".
TARGET = {
    "framework": "jax",
    "xla_verified": "yes",
    "custom_ops": "none",
    "high_precision": "no",
    "stage": "production",
    "architecture_changes": "locked",
    "workload": "training",
    "scale": "large",
    "duration": "weeks",
    "matmul_share": "dominant",
    "team": "general",
    "deployment": "google_cloud",
    "utilization": "steady",
}


@pytest.fixture
def wizard(qtbot):
    w = DecideWizard(load_lesson())
    qtbot.addWidget(w)
    w.resize(1100, 760)
    return w


def test_every_answer_field_is_asked_once_in_page_order(wizard: DecideWizard) -> None:
    asked = [card.field for page in wizard.pages for card in page.cards]
    assert asked == [f for p in PAGES for f in p.fields]
    assert sorted(asked) == sorted(FACTORS)
    assert len(asked) == len(set(asked))
    assert [p.page.title for p in wizard.pages] == [p.title for p in PAGES]


def test_each_question_has_plain_words_choices_skip_and_learn_more(wizard: DecideWizard) -> None:
    lesson = load_lesson()
    for field, card in wizard.cards.items():
        q = QUESTIONS[field]
        assert card.title.text() == q.text
        assert card.help.text() == q.help
        labels = [b.text() for b in card.group.buttons()]
        assert labels == [text for _v, text in q.choices] + [SKIP_LABEL]
        assert card.value() is None and card.buttons[None].isChecked()
        assert lesson.topic(q.topic).title in card.learn.text()
    assert wizard.answers() == Answers()


def test_learn_more_asks_for_the_topic(qtbot, wizard: DecideWizard) -> None:
    card = wizard.cards["custom_ops"]
    with qtbot.waitSignal(wizard.sig_learn_more) as blocker:
        qtbot.mouseClick(card.learn, Qt.MouseButton.LeftButton)
    assert blocker.args == [QUESTIONS["custom_ops"].topic]


def test_set_answers_shows_them_without_signalling(qtbot, wizard: DecideWizard) -> None:
    answers = Answers(framework="pytorch", deployment="any_cloud", batch="large")
    with qtbot.assertNotEmitted(wizard.sig_answers_changed):
        wizard.set_answers(answers)
    assert wizard.answers() == answers
    assert wizard.cards["framework"].buttons["pytorch"].isChecked()


def test_clicking_a_choice_emits_the_new_answers(qtbot, wizard: DecideWizard) -> None:
    with qtbot.waitExposed(wizard):
        wizard.show()

    def click(button) -> None:  # on the indicator: a radio button reacts only on its indicator and text
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=QPoint(8, button.height() // 2))

    with qtbot.waitSignal(wizard.sig_answers_changed) as blocker:
        click(wizard.cards["framework"].buttons["tensorflow"])
    assert blocker.args[0] == Answers(framework="tensorflow")
    with qtbot.waitSignal(wizard.sig_answers_changed) as blocker:
        click(wizard.cards["framework"].buttons[None])
    assert blocker.args[0] == Answers()


def test_progress_row_and_buttons_follow_the_page(qtbot, wizard: DecideWizard) -> None:
    wizard.show()
    assert wizard.current_page() == 0
    assert not wizard.back_button.isEnabled()
    assert wizard.step_labels[0].property("step") == "current"
    qtbot.mouseClick(wizard.step_labels[3], Qt.MouseButton.LeftButton)
    assert wizard.current_page() == 3
    assert [s.property("step") for s in wizard.step_labels[:5]] == ["done", "done", "done", "current", "todo"]
    assert [s.text().startswith("✓ ") for s in wizard.step_labels[:5]] == [True, True, True, False, False]
    assert wizard.step_labels[0].accessibleName().endswith(", finished")
    assert wizard.title.text() == PAGES[3].title
    wizard.go_to_page(len(PAGES) - 1)
    assert "result" in wizard.next_button.text()
    with qtbot.waitSignal(wizard.sig_show_result):
        qtbot.mouseClick(wizard.step_labels[-1], Qt.MouseButton.LeftButton)


def test_a_narrow_progress_row_names_the_other_steps_by_number_and_tooltip(qtbot, wizard: DecideWizard) -> None:
    wizard.show()
    wizard.go_to_page(4)
    wizard.resize(1400, 760)
    qtbot.waitUntil(lambda: all(s.text().endswith(t) for s, t in zip(wizard.step_labels, wizard._step_titles)))
    assert all(s.width() >= s.sizeHint().width() for s in wizard.step_labels)
    wizard.resize(640, 760)
    qtbot.waitUntil(lambda: wizard.step_labels[0].text() == "✓ 1")
    current = wizard.step_labels[4]
    assert current.text() == f"5  {PAGES[4].title}" and current.width() >= current.sizeHint().width()
    assert [s.toolTip() for s in wizard.step_labels[:4]] == [p.title for p in PAGES[:4]]
    assert wizard.step_labels[-1].text() == str(len(PAGES) + 1) and current.toolTip() == ""
    wizard.resize(1400, 760)
    qtbot.waitUntil(lambda: wizard.step_labels[0].text() == f"✓ 1  {PAGES[0].title}")


def test_focus_question_jumps_to_its_page(qtbot, wizard: DecideWizard) -> None:
    with qtbot.waitActive(wizard):
        wizard.show()
    wizard.focus_question("utilization")
    assert wizard.current_page() == next(i for i, p in enumerate(PAGES) if "utilization" in p.fields)
    assert wizard.cards["utilization"].group.checkedButton().hasFocus()


def test_cards_stack_in_one_column_when_narrow(qtbot, wizard: DecideWizard) -> None:
    wizard.show()
    page = wizard.pages[0]
    wizard.resize(1200, 760)
    qtbot.waitUntil(lambda: page._columns == 2)
    wizard.resize(700, 760)
    qtbot.waitUntil(lambda: page._columns == 1)
    assert page.grid.getItemPosition(page.grid.indexOf(page.cards[1]))[:2] == (1, 0)


def _press(qtbot, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    widget = QApplication.focusWidget()
    assert widget is not None, "keyboard focus was lost"
    qtbot.keyClick(widget, key, modifier)


def test_keyboard_only_from_first_page_to_result(qtbot) -> None:
    window = MainWindow(persist=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.session_controller.mark_clean())
    window.resize(1280, 800)
    with qtbot.waitActive(window):
        window.show()
    wizard = window.wizard
    window.show_wizard(0)
    assert wizard.current_page() == 0

    used_alt_n = used_alt_b = False
    for index, page in enumerate(PAGES):
        assert wizard.current_page() == index
        for n, field in enumerate(page.fields):
            card = wizard.cards[field]
            if n > 0:  # from the previous question's choices: Tab to its Learn-more link, Tab to this question
                _press(qtbot, Qt.Key.Key_Tab)
                assert QApplication.focusWidget() is wizard.cards[page.fields[n - 1]].learn
                _press(qtbot, Qt.Key.Key_Tab)
            assert QApplication.focusWidget() is card.buttons[None], field  # lands on the checked choice: Skip
            target = TARGET.get(field)
            if target is not None:
                values = [v for v, _t in QUESTIONS[field].choices]
                for _ in range(len(values) - values.index(target)):  # Up from Skip walks back through the choices
                    _press(qtbot, Qt.Key.Key_Up)
                assert card.value() == target
                assert QApplication.focusWidget() is card.buttons[target]
        if index == 1 and not used_alt_b:
            # Alt+N forward, Alt+B back, then Enter again
            with qtbot.waitSignal(wizard.sig_page_changed):
                _press(qtbot, Qt.Key.Key_N, Qt.KeyboardModifier.AltModifier)
            assert wizard.current_page() == 2
            with qtbot.waitSignal(wizard.sig_page_changed):
                _press(qtbot, Qt.Key.Key_B, Qt.KeyboardModifier.AltModifier)
            assert wizard.current_page() == 1
            used_alt_n = used_alt_b = True
            # the answers given before going back are still there, and focus is on the page's first question
            assert wizard.answers().stage == "production"
            _press(qtbot, Qt.Key.Key_Return)
            continue
        if index < len(PAGES) - 1:
            _press(qtbot, Qt.Key.Key_Return)
        else:
            with qtbot.waitSignal(wizard.sig_show_result):
                _press(qtbot, Qt.Key.Key_Return)
    assert used_alt_n and used_alt_b
    assert window.decide_stack.currentWidget() is window.result_page
    expected = Answers(**TARGET)
    assert wizard.answers() == expected
    assert window.session().answers == expected
    rec = window.result_page.recommendation()
    assert rec is not None and rec.verdict == "tpu"
    assert window.result_page.headline.text().startswith("The factory line")
    assert window.isWindowModified()


def test_the_count_in_all_is_out_of_the_same_total_as_the_result_page(wizard: DecideWizard) -> None:
    """A follow-up question (kernel kind, asked after custom kernels) counts on its page only; "in all" is the
    Result page's count (engine.answered_count of question_count), whatever the follow-ups say."""
    from gpu_tpu_app.core.decision import answered_count, decide, question_count

    answers = Answers(framework="jax", custom_ops="essential", custom_ops_kind="pallas_xla", workload="inference")
    wizard.set_answers(answers)
    wizard.go_to_page(0)
    in_all = wizard.count_label.text().split(" · ")[1]
    assert in_all == f"{answered_count(decide(answers))} of {question_count()} in all" == "3 of 23 in all"
    assert wizard.count_label.text().startswith("3 of ")  # the page counts its follow-up: framework, ops, kind
