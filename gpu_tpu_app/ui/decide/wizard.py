"""The Decide wizard: the decision engine's questions, page by page, in plain words.

Pages follow `decision.PAGES` (framework check, project stage, workload shape, team, cloud and
cost); every answer field is asked once, with its help text, a "Learn more" link to its
explainer topic and an explicit "Skip / don't know". Keyboard: Tab moves between questions,
arrow keys or Space choose, Enter or Alt+N goes on, Alt+B goes back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, Signal
from PySide6.QtGui import QFocusEvent, QKeyEvent, QMouseEvent, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QButtonGroup,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from gpu_tpu_app.core.decision import FACTORS, PAGES, QUESTIONS, Answers, Page, decide, question_count
from gpu_tpu_app.core.decision.fields import ALWAYS_ASKED
from gpu_tpu_app.core.modelcheck import ANSWER_FIELDS, ModelCheck, combine, differing, evidence_text
from gpu_tpu_app.core.verdict_text import verdict_change, verdict_words
from gpu_tpu_app.ui.probe.model_check import ModelCheckBar
from gpu_tpu_app.ui.shell.widgets import Card, LinkButton, label, scroll_page, set_role

if TYPE_CHECKING:
    from gpu_tpu_app.core.lesson import LessonPack

# the choice that leaves a question open, in English; shown through the card's tr()
SKIP_LABEL = str(QT_TRANSLATE_NOOP("QuestionCard", "Skip / don't know"))
#: below this page width the question cards stack in one column.
TWO_COLUMN_MIN_WIDTH = 860


class StepLabel(QLabel):
    """One entry of the progress row; clicking it jumps to that step."""

    clicked = Signal(int)

    def __init__(self, index: int, text: str, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.index = index
        self.full_text = text
        self.short_text = text
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit(self.index)
        super().mousePressEvent(event)


class ChoiceButton(QRadioButton):
    """A radio button that passes Tab focus on to the checked choice of its group."""

    def focusInEvent(self, event: QFocusEvent) -> None:
        group = self.group()
        checked = group.checkedButton() if group is not None else None
        reasons = (Qt.FocusReason.TabFocusReason, Qt.FocusReason.BacktabFocusReason)
        if checked is not None and checked is not self and event.reason() in reasons:
            checked.setFocus(event.reason())
            return
        super().focusInEvent(event)


class QuestionCard(Card):
    """One question: text, help, choices as radio buttons plus Skip, and a Learn-more link."""

    sig_changed = Signal(str)  # field name
    sig_learn_more = Signal(str)  # topic id

    def __init__(self, field: str, topic_title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent=parent)
        q = QUESTIONS[field]
        self.field = field
        self.topic = q.topic
        self.title = label(q.text, "heading")
        self.help = label(q.help, "muted")
        self.body.addWidget(self.title)
        self.body.addWidget(self.help)
        self.group = QButtonGroup(self)
        self.group.setExclusive(True)
        self.buttons: dict[str | None, QRadioButton] = {}
        box = QWidget()
        col = QVBoxLayout(box)
        col.setContentsMargins(0, 2, 0, 2)
        col.setSpacing(3)
        for value, text in [*q.choices, (None, self.tr(SKIP_LABEL))]:
            button = ChoiceButton(text)
            button.setProperty("answer", value)
            button.setAccessibleName(f"{q.text} {text}")
            if value is None:
                button.setProperty("role", "muted")
            self.group.addButton(button)
            self.buttons[value] = button
            col.addWidget(button)
        self.buttons[None].setChecked(True)
        self.body.addWidget(box)
        # what the model check measured for this answer: a marker, and the evidence one click away
        self.measured: str | None = None
        self.measured_from: str | None = None
        self.measured_row = QWidget()
        mrow = QHBoxLayout(self.measured_row)
        mrow.setContentsMargins(0, 0, 0, 0)
        self.measured_label = label("", "muted")
        # where the user's answer differs from the measurement: nothing changes until they choose
        self.use_measured_button = LinkButton(self.tr("Use measured"))
        self.use_measured_button.setAccessibleName(
            self.tr("Use the measured answer for: {question}").format(question=q.text)
        )
        self.use_measured_button.setToolTip(self.tr("Replace your answer with the one the model check measured"))
        self.use_measured_button.clicked.connect(self.use_measured)
        self.use_measured_button.hide()
        self.evidence_button = LinkButton(self.tr("Show evidence"))
        self.evidence_button.setAccessibleName(
            self.tr("Evidence the model check found for: {question}").format(question=q.text)
        )
        self.evidence_button.clicked.connect(self.toggle_evidence)
        mrow.addWidget(self.measured_label, 1)
        mrow.addWidget(self.use_measured_button)
        mrow.addWidget(self.evidence_button)
        self.evidence_label = label("", "muted")
        self.evidence_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.measured_row.hide()
        self.evidence_label.hide()
        self.body.addWidget(self.measured_row)
        self.body.addWidget(self.evidence_label)
        self.learn = LinkButton(self.tr("Learn more: {topic} →").format(topic=topic_title))
        self.learn.setAccessibleName(self.tr("Learn more about {topic}").format(topic=topic_title))
        self.learn.setToolTip(self.tr("Open the explainer topic “{topic}” in Learn").format(topic=topic_title))
        self.learn.clicked.connect(lambda: self.sig_learn_more.emit(self.topic))
        self.body.addWidget(self.learn)
        self.body.addStretch(1)
        self.group.buttonToggled.connect(self._toggled)

    def _toggled(self, _button: QAbstractButton, checked: bool) -> None:
        if checked:
            self._update_marker()
            self.sig_changed.emit(self.field)

    def set_measured(self, check: ModelCheck | None) -> None:
        """Mark this answer with what `check` measured (None clears the mark); the value is not changed."""
        if check is None or self.field not in ANSWER_FIELDS:
            self.measured = self.measured_from = None
            self.measured_label.clear()
            self.evidence_label.clear()
            self.measured_row.hide()
            self.evidence_label.hide()
            return
        self.measured = getattr(check.answers, self.field)
        self.measured_from = check.file.replace("\\", "/").rsplit("/", 1)[-1]
        self.evidence_label.setText(evidence_text(check, self.field))
        self.measured_row.show()
        self._update_marker()

    def _update_marker(self) -> None:
        if not self.measured_row.isVisibleTo(self) and self.measured_from is None:
            return
        name = self.measured_from
        mine = self.value()
        differs = False
        if self.measured is None:
            text = self.tr("Measured in {file}: not decided (see why)").format(file=name)
            role = "muted"
        elif mine == self.measured:
            text = self.tr("✓ measured in {file}").format(file=name)
            role = "measured"
        elif mine is None:
            text = self.tr("Measured in {file}: {measured}; you cleared it").format(
                file=name, measured=self._choice_text(self.measured)
            )
            role = "muted"
            differs = True
        else:
            text = self.tr("You: {mine}; measured in {file}: {measured}. Yours is kept until you choose.").format(
                mine=self._choice_text(mine), file=name, measured=self._choice_text(self.measured)
            )
            role = "warning"
            differs = True
        self.measured_label.setText(text)
        self.use_measured_button.setVisible(differs)
        set_role(self.measured_label, "role", role)

    def _choice_text(self, value: str) -> str:
        return dict(QUESTIONS[self.field].choices).get(value, value)

    def differs_from_measured(self) -> bool:
        """True when the check measured a value for this answer and the answer is another one."""
        return self.measured_from is not None and self.measured is not None and self.value() != self.measured

    def use_measured(self) -> None:
        """Take the measured value as the answer (the user's choice, from the marker's link)."""
        if self.measured is not None and self.value() != self.measured:
            self.buttons[self.measured].setChecked(True)  # emits sig_changed through _toggled

    def toggle_evidence(self) -> None:
        """Show or hide the evidence under the mark."""
        show = not self.evidence_label.isVisibleTo(self)
        self.evidence_label.setVisible(show)
        self.evidence_button.setText(self.tr("Hide evidence") if show else self.tr("Show evidence"))

    def value(self) -> str | None:
        """The chosen value, None for Skip."""
        checked = self.group.checkedButton()
        return None if checked is None else checked.property("answer")

    def set_value(self, value: str | None) -> None:
        """Check the button of `value` without emitting sig_changed."""
        self.group.blockSignals(True)
        self.buttons.get(value, self.buttons[None]).setChecked(True)
        self.group.blockSignals(False)
        self._update_marker()

    def focus_choice(self) -> None:
        """Put the keyboard focus on the checked choice."""
        button = self.group.checkedButton() or self.buttons[None]
        button.setFocus(Qt.FocusReason.OtherFocusReason)


class QuestionPage(QWidget):
    """One wizard page: its title, intro and question cards in one or two columns."""

    def __init__(
        self, page: Page, cards: list[QuestionCard], parent: QWidget | None = None, header: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.page = page
        self.cards = cards
        self._columns = 0
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        body = QWidget()
        self.body_layout = QVBoxLayout(body)
        self.body_layout.setContentsMargins(0, 0, 8, 8)
        self.body_layout.setSpacing(10)
        if header is not None:
            self.body_layout.addWidget(header)
        self.grid = QGridLayout()
        self.grid.setHorizontalSpacing(12)
        self.grid.setVerticalSpacing(12)
        self.body_layout.addLayout(self.grid)
        self.body_layout.addStretch(1)
        self.scroll_area: QScrollArea = scroll_page(body)
        outer.addWidget(self.scroll_area)
        self._arrange(2)

    def _arrange(self, columns: int) -> None:
        if columns == self._columns:
            return
        self._columns = columns
        for card in self.cards:
            self.grid.removeWidget(card)
        for i, card in enumerate(self.cards):
            self.grid.addWidget(card, i // columns, i % columns)
        for c in range(2):
            self.grid.setColumnStretch(c, 1 if c < columns else 0)

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._arrange(2 if event.size().width() >= TWO_COLUMN_MIN_WIDTH else 1)
        super().resizeEvent(event)


class DecideWizard(QWidget):
    """The questions of the decision engine, one page per playbook step, then the result."""

    sig_answers_changed = Signal(object)  # Answers
    sig_show_result = Signal()
    sig_learn_more = Signal(str)  # topic id
    sig_page_changed = Signal(int)
    sig_model_checked = Signal(object)  # ModelCheck

    def __init__(self, lesson: LessonPack | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("DecideWizard")
        self._lesson = lesson
        self.cards: dict[str, QuestionCard] = {}
        self.model_check: ModelCheck | None = None

        root = QVBoxLayout(self)
        root.setContentsMargins(24, 18, 24, 14)
        root.setSpacing(10)

        # progress row: one label per page plus the result
        steps = QHBoxLayout()
        steps.setSpacing(6)
        self.step_labels: list[StepLabel] = []
        self._step_titles = [p.title for p in PAGES] + [self.tr("Result")]
        self._furthest = 0
        for i, title in enumerate(self._step_titles):
            step = StepLabel(i, f"{i + 1}  {title}")
            step.clicked.connect(self._step_clicked)
            self.step_labels.append(step)
            steps.addWidget(step)
            if i < len(PAGES):
                sep = label("›", "muted", wrap=False)
                steps.addWidget(sep)
        steps.addStretch(1)
        root.addLayout(steps)

        self.title = label("", "title")
        self.intro = label("", "muted")
        root.addWidget(self.title)
        root.addWidget(self.intro)

        self.stack = QStackedWidget()
        self.pages: list[QuestionPage] = []
        for page in PAGES:
            cards = []
            for field in page.fields:
                card = QuestionCard(field, self._topic_title(QUESTIONS[field].topic))
                card.sig_changed.connect(self._changed)
                card.sig_learn_more.connect(self.sig_learn_more)
                self.cards[field] = card
                cards.append(card)
            header = None
            if page.id == "framework":
                self.model_check_bar = header = ModelCheckBar()
                header.sig_checked.connect(self.apply_model_check)
            qpage = QuestionPage(page, cards, header=header)
            self.pages.append(qpage)
            self.stack.addWidget(qpage)
        root.addWidget(self.stack, 1)

        buttons = QHBoxLayout()
        self.count_label = label("", "muted", wrap=False)
        buttons.addWidget(self.count_label)
        buttons.addStretch(1)
        self.back_button = QPushButton(self.tr("&Back"))
        self.back_button.setToolTip(self.tr("Previous page (Alt+B)"))
        self.next_button = QPushButton(self.tr("&Next"))
        self.next_button.setToolTip(self.tr("Next page (Enter or Alt+N)"))
        self.next_button.setDefault(True)
        self.back_button.clicked.connect(self.back)
        self.next_button.clicked.connect(self.next)
        buttons.addWidget(self.back_button)
        buttons.addWidget(self.next_button)
        root.addLayout(buttons)

        missing = [f for f in FACTORS if f not in self.cards]
        if missing:  # the engine and its pages must agree; fail loudly during development
            raise RuntimeError(f"decision.PAGES does not ask: {', '.join(missing)}")
        self._show(0)

    # ------------------------------------------------------------------ model

    def _topic_title(self, topic_id: str) -> str:
        if self._lesson is not None:
            try:
                return self._lesson.topic(topic_id).title
            except KeyError:
                pass
        return topic_id.replace("_", " ").capitalize()

    def answers(self) -> Answers:
        """The answers as chosen now."""
        return Answers(**{field: card.value() for field, card in self.cards.items()})

    def set_answers(self, answers: Answers) -> None:
        """Show `answers` (e.g. from an opened session) without emitting sig_answers_changed."""
        for field, card in self.cards.items():
            card.set_value(getattr(answers, field))
        self._update_steps()
        self._update_count()

    def apply_model_check(self, check: ModelCheck) -> None:
        """Fill only the answers left open from what the check measured, mark each (with its evidence),
        keep every stated answer (a differing one shows both, with a "Use measured" link), and say what the
        check did to the verdict."""
        self.model_check = check
        stated = self.answers()
        combined, _sources = combine(stated, check)
        for field in ANSWER_FIELDS:
            card = self.cards[field]
            card.set_value(getattr(combined, field))
            card.set_measured(check)
        self._update_count()
        filled = [f for f in ANSWER_FIELDS if getattr(stated, f) is None and getattr(combined, f) is not None]
        others = differing(stated, check)
        lines = [verdict_change(decide(stated), decide(combined))]
        if filled:
            filled_text = (
                self.tr("Filled 1 open answer from the check.")
                if len(filled) == 1
                else self.tr("Filled {n} open answers from the check.").format(n=len(filled))
            )
            lines.insert(0, filled_text)
        if others:
            n = len(others)
            kept = (
                self.tr(
                    "1 of your answers differs from what was measured and was kept; each shows both, with "
                    "“Use measured”. Using every measured value: {verdict}."
                )
                if n == 1
                else self.tr(
                    "{n} of your answers differ from what was measured and were kept; each shows both, with "
                    "“Use measured”. Using every measured value: {verdict}."
                )
            )
            lines.append(kept.format(n=n, verdict=verdict_words(decide(combined.model_copy(update=others)))))
        self.model_check_bar.show_outcome(lines)
        self.sig_model_checked.emit(check)
        self.sig_answers_changed.emit(self.answers())

    def reset_progress(self) -> None:
        """Forget which pages the user went past (another session was opened or started)."""
        self._furthest = 0
        self._show(self.current_page())

    def set_model_check(self, check: ModelCheck | None) -> None:
        """Show the marks of a saved check (an opened session) without changing any answer; None (File >
        New) clears them and the check's line."""
        self.model_check = check
        self.model_check_bar.show_saved(check)
        for field in ANSWER_FIELDS:
            self.cards[field].set_measured(check)

    def _changed(self, _field: str) -> None:
        self._update_steps()
        self._update_count()
        self.sig_answers_changed.emit(self.answers())

    def _update_count(self) -> None:
        # "in all" counts as the Result page does (engine.answered_count / question_count): the questions asked
        # whatever the answers are; a follow-up question counts on its own page only
        answered = sum(self.cards[field].value() is not None for field in ALWAYS_ASKED)
        page = self.pages[self.current_page()]
        on_page = sum(card.value() is not None for card in page.cards)
        self.count_label.setText(
            self.tr("{on_page} of {page_total} answered on this page · {answered} of {total} in all").format(
                on_page=on_page, page_total=len(page.cards), answered=answered, total=question_count()
            )
        )

    # ------------------------------------------------------------------ navigation

    def current_page(self) -> int:
        """Index of the page shown (0 = framework check)."""
        return self.stack.currentIndex()

    def go_to_page(self, index: int) -> None:
        """Show question page `index` and focus its first question."""
        self._show(max(0, min(index, len(self.pages) - 1)))
        self.pages[self.current_page()].cards[0].focus_choice()

    def _show(self, index: int) -> None:
        self.stack.setCurrentIndex(index)
        page = PAGES[index]
        self.title.setText(page.title)
        self.intro.setText(page.intro)
        self.back_button.setEnabled(index > 0)
        last = index == len(self.pages) - 1
        self.next_button.setText(self.tr("&Next: see the result") if last else self.tr("&Next"))
        self._furthest = max(self._furthest, index)
        self._update_steps()
        self._update_count()
        self.sig_page_changed.emit(index)

    def _update_steps(self) -> None:
        """The progress row: the current step, and a ✓ on each page the user went past or answered on (an
        opened session's answered pages, which nobody went past in this window, are marked too)."""
        index = self.current_page()
        for i, step in enumerate(self.step_labels):
            answered = i < len(self.pages) and any(card.value() is not None for card in self.pages[i].cards)
            done = i != index and i < len(self.pages) and (i <= self._furthest or answered)
            state = "current" if i == index else "done" if done else "todo"
            set_role(step, "step", state)
            step.full_text = f"{'✓ ' if done else ''}{i + 1}  {self._step_titles[i]}"
            step.short_text = f"{'✓ ' if done else ''}{i + 1}"
            step.setText(step.full_text)
            step.setToolTip("")
            step.setAccessibleName(
                (self.tr("Step {n}, {title}, finished") if done else self.tr("Step {n}, {title}")).format(
                    n=i + 1, title=self._step_titles[i]
                )
            )
        self._fit_steps()

    def _fit_steps(self) -> None:
        """Show every step's title when the row has room; otherwise only the current step's, the others by
        number with their title as a tooltip (a narrow window or a long language never cuts a title)."""
        if not self.step_labels:
            return
        row = self.step_labels[0].parentWidget()
        room = (row.contentsRect().width() if row is not None else self.width()) - 48  # the card's margins
        current = self.current_page()
        for step in self.step_labels:
            step.setText(step.full_text)
            step.setToolTip("")
        separators = len(PAGES) * (self.fontMetrics().horizontalAdvance("›") + 12)
        needed = sum(step.sizeHint().width() + 6 for step in self.step_labels) + separators
        if needed <= room:
            return
        for i, step in enumerate(self.step_labels):
            if i != current:
                step.setText(step.short_text)
                step.setToolTip(self._step_titles[i])

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_steps()

    def next(self) -> None:
        """Go to the next page, or ask for the result after the last one."""
        index = self.current_page()
        if index >= len(self.pages) - 1:
            self.sig_show_result.emit()
        else:
            self.go_to_page(index + 1)

    def back(self) -> None:
        """Go to the previous page."""
        if self.current_page() > 0:
            self.go_to_page(self.current_page() - 1)

    def _step_clicked(self, index: int) -> None:
        if index >= len(self.pages):
            self.sig_show_result.emit()
        else:
            self.go_to_page(index)

    def focus_question(self, field: str) -> None:
        """Show the page that asks `field`, scroll to it and put the focus on its choices."""
        card = self.cards[field]
        for i, page in enumerate(self.pages):
            if card in page.cards:
                self._show(i)
                page.scroll_area.ensureWidgetVisible(card, 0, 40)
                break
        card.focus_choice()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Enter goes to the next page, unless a focused link or button took the key already."""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not (
            event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        ):
            self.next()
            event.accept()
            return
        super().keyPressEvent(event)


if __name__ == "__main__":  # a page on its own: python -m gpu_tpu_app.ui.decide.wizard
    import sys

    from PySide6.QtWidgets import QApplication

    from gpu_tpu_app.core.lesson import load_lesson
    from gpu_tpu_app.ui.shell.theme import theme_manager

    app = QApplication(sys.argv)
    theme_manager().apply("system")
    w = DecideWizard(load_lesson())
    w.sig_answers_changed.connect(lambda a: print(a.model_dump(exclude_none=True)))
    w.resize(1100, 760)
    w.show()
    sys.exit(app.exec())
