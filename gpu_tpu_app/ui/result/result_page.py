"""The result of the Decide wizard: verdict gauge, blockers, reasons with sources, what would
change the verdict, next steps, open questions, and the estimator for the user's workload."""

from __future__ import annotations

import html
import itertools
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from gpu_tpu_app.core.decision import (
    MIN_ANSWERS_FOR_VERDICT,
    Answers,
    Recommendation,
    answered_count,
    has_verdict,
    question_count,
)
from gpu_tpu_app.core.decision.fields import values_of
from gpu_tpu_app.core.decision.money import render_money
from gpu_tpu_app.core.decision.regions import ANSWERED_CLOUDS, answered_region, clouds_for
from gpu_tpu_app.core.estimate import EstimateRequest
from gpu_tpu_app.core.modelcheck import ModelCheck, measured_note
from gpu_tpu_app.core.next_steps import ACTION_TEXT, window_step
from gpu_tpu_app.core.prices import PriceBook, cheapest_step
from gpu_tpu_app.core.report import answer_label, factor_label, page_of
from gpu_tpu_app.core.runs import RunFile
from gpu_tpu_app.core.session import measured_devices
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.core.verdict_text import VERDICT_WORDS, headline, verdict_summary
from gpu_tpu_app.ui.probe.compile_card import CompileCard
from gpu_tpu_app.ui.probe.estimator_card import (
    INPUT_COLUMN_WIDTH,
    INPUT_COLUMNS,
    INPUT_MIN_WIDTH,
    TYPING_PAUSE_MS,
    EstimatorCard,
)
from gpu_tpu_app.ui.probe.estimator_table import (
    ANYWHERE,
    COST_COLUMN,
    EST_COLUMNS,
    MEMORY_COLUMN,
    PRICE_COLUMN,
    PRICE_PLACEHOLDER,
    PRICE_TIP,
    PROMPT,
    SORT_ROLE,
    PriceDelegate,
    SortItem,
    place_key,
    place_of,
    place_words,
)
from gpu_tpu_app.ui.result.gauge import VerdictGauge
from gpu_tpu_app.ui.shell.theme import theme_manager
from gpu_tpu_app.ui.shell.widgets import Card, anchor, clear_layout, label, link_label, scroll_page

if TYPE_CHECKING:
    from gpu_tpu_app.core.catalog import Catalog
    from gpu_tpu_app.core.lesson import LessonPack

#: The estimator card and its table live in ui/probe/estimator_card.py and ui/probe/estimator_table.py; their
#: names stay importable from here.
__all__ = [
    "ANYWHERE",
    "COST_COLUMN",
    "EST_COLUMNS",
    "INPUT_COLUMNS",
    "INPUT_COLUMN_WIDTH",
    "INPUT_MIN_WIDTH",
    "MEMORY_COLUMN",
    "PRICE_COLUMN",
    "PRICE_PLACEHOLDER",
    "PRICE_TIP",
    "PROMPT",
    "SORT_ROLE",
    "TOP_REASONS",
    "TYPING_PAUSE_MS",
    "EstimatorCard",
    "PriceDelegate",
    "ResultPage",
    "SortItem",
    "place_key",
    "place_of",
    "place_words",
]

#: reasons shown before "show all".
TOP_REASONS = 6


class ResultPage(QWidget):
    """Everything the engine says about the answers, with links into Learn and back to the wizard."""

    sig_open_topic = Signal(str)  # topic id
    sig_edit_question = Signal(str)  # answer field
    sig_edit_answers = Signal()
    sig_export = Signal()
    sig_estimate_changed = Signal(object)  # EstimateRequest | None
    sig_notes_changed = Signal(str)
    sig_action = Signal(str)  # a next step's action: estimate, probe_quick, compare_chips, check_model, answer

    def __init__(
        self, lesson: LessonPack | None = None, catalog: Catalog | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("ResultPage")
        self._lesson = lesson
        self._rec: Recommendation | None = None
        self._deployment: str | None = None  # the answered cloud and region (area) the next steps price in
        self._area: str | None = None
        self._values: dict[str, str | None] = {}  # the answers the money is worked out for
        self._model_check: ModelCheck | None = None
        self._show_all = False
        self._book: PriceBook | None = None
        self._catalog = catalog

        outer = QVBoxLayout(self)
        outer.setContentsMargins(24, 18, 24, 14)
        outer.setSpacing(10)
        outer.addLayout(self._build_top_bar())

        body = QWidget()
        col = QVBoxLayout(body)
        col.setContentsMargins(0, 0, 8, 8)
        col.setSpacing(12)
        columns = QHBoxLayout()
        columns.setSpacing(12)
        left = QVBoxLayout()
        left.setSpacing(12)
        right = QVBoxLayout()
        right.setSpacing(12)
        columns.addLayout(left, 3)
        columns.addLayout(right, 2)
        col.addLayout(columns)
        self._build_left_column(left)
        self._build_right_column(right)

        self.compile_card = CompileCard(catalog)
        col.addWidget(self.compile_card)
        self.estimator = EstimatorCard(catalog)
        self.estimator.sig_request_changed.connect(self.sig_estimate_changed)
        self.estimator.sig_request_changed.connect(self._estimate_changed)
        col.addWidget(self.estimator)
        col.addStretch(1)
        self.scroll_area = scroll_page(body)
        outer.addWidget(self.scroll_area, 1)
        theme_manager().sig_theme_changed.connect(self._rerender)

    def _build_top_bar(self) -> QHBoxLayout:
        """The page title and its two buttons: Change answers, Export report."""
        top = QHBoxLayout()
        top.addWidget(label(self.tr("Recommendation"), "title", wrap=False))
        top.addStretch(1)
        self.edit_button = QPushButton(self.tr("&Change answers"))
        self.edit_button.clicked.connect(self.sig_edit_answers)
        self.export_button = QPushButton(self.tr("&Export report…"))
        self.export_button.clicked.connect(self.sig_export)
        top.addWidget(self.edit_button)
        top.addWidget(self.export_button)
        return top

    def _build_left_column(self, left: QVBoxLayout) -> None:
        """Verdict and gauge, hard constraints, strongest reasons."""
        self.verdict_card = Card()
        self.headline = label("", "heading")
        self.summary = label("", "muted")
        self.gauge = VerdictGauge()
        self.verdict_card.body.addWidget(self.headline)
        self.verdict_card.body.addWidget(self.summary)
        self.verdict_card.body.addWidget(self.gauge)
        left.addWidget(self.verdict_card)
        # the money beside the verdict: the run on the best GPU and TPU in the answered cloud and region
        self.money_card = Card(text("decide.money.title"))
        self.money_label = label("", "muted")
        self.money_card.body.addWidget(self.money_label)
        left.addWidget(self.money_card)

        self.blockers_card = Card(self.tr("Hard constraints"), kind="blocker")
        self.blockers_box = QVBoxLayout()
        self.blockers_card.body.addLayout(self.blockers_box)
        left.addWidget(self.blockers_card)

        self.reasons_card = Card(self.tr("Strongest reasons"))
        self.reasons_box = QVBoxLayout()
        self.reasons_box.setSpacing(10)
        self.reasons_card.body.addLayout(self.reasons_box)
        self.more_link = link_label("")
        self.more_link.linkActivated.connect(self._toggle_all)
        self.reasons_card.body.addWidget(self.more_link)
        left.addWidget(self.reasons_card)
        left.addStretch(1)

    def _build_right_column(self, right: QVBoxLayout) -> None:
        """What would change this, next steps, open questions, notes."""
        self.flips_card = Card(self.tr("What would change this"))
        self.flips_label = link_label("")
        self.flips_label.linkActivated.connect(self._link)
        self.flips_card.body.addWidget(self.flips_label)
        right.addWidget(self.flips_card)

        self.steps_card = Card(self.tr("Next steps"))
        self.steps_label = link_label("")
        self.steps_label.linkActivated.connect(self._link)
        self.steps_card.body.addWidget(self.steps_label)
        right.addWidget(self.steps_card)

        self.open_card = Card(self.tr("Open questions"))
        self.open_label = link_label("")
        self.open_label.linkActivated.connect(self._link)
        self.open_card.body.addWidget(self.open_label)
        right.addWidget(self.open_card)

        self.notes_card = Card(self.tr("Notes"))
        self.notes_edit = QPlainTextEdit()
        self.notes_edit.setPlaceholderText(
            self.tr("Your notes on this decision; saved with the session and in the report.")
        )
        self.notes_edit.setAccessibleName(self.tr("Notes"))
        self.notes_edit.setTabChangesFocus(True)
        self.notes_edit.setFixedHeight(90)
        self.notes_edit.textChanged.connect(lambda: self.sig_notes_changed.emit(self.notes_edit.toPlainText()))
        self.notes_card.body.addWidget(self.notes_edit)
        right.addWidget(self.notes_card)
        right.addStretch(1)

    # ------------------------------------------------------------------ data in

    def set_recommendation(self, rec: Recommendation, answers: Answers | None = None) -> None:
        """Show a recommendation (of `answers`, when given: their cloud and region choose where the next
        steps' chips are priced); an answer that the work needs strict fp32 checks the estimator's box
        (TPUs then run at 3-6 bf16 passes), unless the user set that box there."""
        self._rec = rec
        strict = any(r.factor == "high_precision" and r.answer == "fp32" for r in rec.reasons)
        self.estimator.model_inputs.follow_answer(strict)
        # the answered cloud preselects where the estimator prices the costs (Google Cloud: its own prices)
        answered: list[tuple[str, str | None]] = [(r.factor, r.answer) for r in rec.reasons]
        answered += [(b.factor, b.answer) for b in rec.blockers]
        if answers is not None:
            answered = [("deployment", answers.deployment), ("region", answers.region)]
        deployment = next((answer for factor, answer in answered if factor == "deployment"), None)
        self._deployment = deployment
        self._values = values_of(answers) if answers is not None else {f: a for f, a in answered}
        self._area = next((answer for factor, answer in answered if factor == "region"), None)
        cloud = ANSWERED_CLOUDS.get(deployment or "")
        self.estimator.follow_deployment(cloud, answered_region(cloud, self._area))
        self._render()

    def recommendation(self) -> Recommendation | None:
        """The recommendation shown."""
        return self._rec

    def set_runs(self, runs: list[RunFile]) -> None:
        """Probe runs of the session: their best matmul per device becomes an estimator row."""
        self.estimator.set_measured(measured_devices(runs))

    def set_notes(self, notes: str) -> None:
        """Notes from the session, without emitting sig_notes_changed."""
        if notes != self.notes_edit.toPlainText():
            self.notes_edit.blockSignals(True)
            self.notes_edit.setPlainText(notes)
            self.notes_edit.blockSignals(False)

    def set_estimate_request(self, request: EstimateRequest | None) -> None:
        """Estimator inputs from the session."""
        self.estimator.set_request(request)
        self._render_money(self.estimator.request())

    def set_price_book(self, book: PriceBook | None) -> None:
        """The prices the estimator costs with and the next steps name the cheapest places from."""
        self._book = book
        self.estimator.set_price_book(book)
        if self._rec is not None:
            self._render_steps(self._rec)

    def _cheapest_step(self, rec: Recommendation) -> str | None:
        if (
            self._book is None
            or self._catalog is None
            or not has_verdict(rec)
            or (rec.blockers and rec.verdict == "tpu")
        ):
            return None
        # only chips that hold the run: none without bf16 arithmetic (the T4), none the estimate shows too
        # small for one copy; priced only in the answered cloud and region
        result = self.estimator.result
        too_small = {r.chip_id for r in result.rows if r.fits is False} if result is not None else set()
        chips = [
            (c.id, c.name, c.family)
            for c in self._catalog.chips
            if c.bf16.missing != "not supported" and c.id not in too_small
        ]
        clouds = clouds_for(self._deployment)
        return cheapest_step(self._book, chips, rec.verdict, clouds=clouds or None, area=self._area)

    # ------------------------------------------------------------------ rendering

    def _rerender(self, *_args: object) -> None:
        self._render()

    def _source_titles(self, ids: list[str]) -> list[str]:
        if self._lesson is None:
            return list(ids)
        return [text for _key, text, _url in self._lesson.citations_for(ids)]

    def _topic_title(self, topic: str) -> str:
        if self._lesson is not None:
            try:
                return self._lesson.topic(topic).title
            except KeyError:
                pass
        return topic

    def _lean_html(self, leans: str) -> str:
        c = theme_manager().colors()
        word = {"gpu": "GPU", "tpu": "TPU"}.get(leans, leans)
        return f'<span style="color:{c.get(leans, c["foreground"])}; font-weight:600">{word}</span>'

    def set_model_check(self, check: ModelCheck | None) -> None:
        """The model check whose evidence is shown beside the reasons it feeds."""
        self._model_check = check
        self.compile_card.set_check(check)
        self.estimator.set_compiled(check.tpu_compile if check is not None else None)
        self._render()

    def _item_html(self, message: str, factor: str, answer: str, sources: list[str], topic: str, lean: str) -> str:
        c = theme_manager().colors()
        src = "; ".join(html.escape(t) for t in self._source_titles(sources))
        note = measured_note(self._model_check, factor, answer)
        measured = f'<br><span style="color:{c["ok"]}">{html.escape(note)}</span>' if note else ""
        yours = self.tr("Your answer: {question}: {answer}").format(
            question=html.escape(factor_label(factor)), answer=html.escape(answer_label(factor, answer))
        )
        learn = self.tr("Open in Learn: {topic}").format(topic=self._topic_title(topic))
        sources_line = self.tr("Sources: {sources}").format(sources=src)
        return (
            f"{self._lean_html(lean)}&nbsp; {html.escape(message)}<br>"
            f'<span style="color:{c["muted"]}">{yours}'
            f"{measured}<br>{sources_line}</span><br>"
            f"{anchor('topic:' + topic, learn)} →"
        )

    def _render(self) -> None:
        rec = self._rec
        if rec is None:
            return
        ready = self._render_verdict(rec)
        self.gauge.setVisible(ready)
        self.flips_card.setVisible(ready)
        self.steps_card.setVisible(ready and bool(rec.steps))
        self._render_blockers(rec)
        self._render_reasons(rec)
        self._render_flips(rec)
        self._render_steps(rec)
        self._render_open_questions(rec)
        self._render_money(self.estimator.request())
        self._reading_order()

    def _estimate_changed(self, request: EstimateRequest | None) -> None:
        """The user changed the estimator's inputs: the money follows, and the cheapest-places step once the
        estimator has worked out which chips hold the run (it refreshes right after this signal)."""
        self._render_money(request)
        if self._rec is not None:
            QTimer.singleShot(0, self._rerender_steps)

    def _rerender_steps(self) -> None:
        if self._rec is not None:
            self._render_steps(self._rec)

    def _render_money(self, request: EstimateRequest | None) -> None:
        """The money card: with the estimator's parameter count (typed, or from a model check), the run's
        cost on the best GPU and TPU in the answered cloud and region and the port's break-even; without
        it, what to enter."""
        if request is None or not request.params:
            self.money_label.setText(text("decide.money.enter"))
            return
        words = render_money(self._values, request.params, request.chips, request.tokens, None, None, window=True)
        self.money_label.setText(words.replace("\n  - ", "\n• ").replace("\n  ", "\n"))

    def _render_verdict(self, rec: Recommendation) -> bool:
        """Headline, summary and gauge; False while there are too few answers for a verdict."""
        ready = has_verdict(rec)
        if ready:
            self.headline.setText(headline(rec))
            self.summary.setText(verdict_summary(rec))
            self.gauge.set_value(rec.score, rec.verdict, rec.confidence)
        else:
            n = answered_count(rec)
            self.headline.setText(self.tr("No verdict yet"))
            self.summary.setText(
                self.tr(
                    "{n} of {total} questions answered: answer at least {needed} "
                    "(any of them; every one can be skipped) and the verdict appears here."
                ).format(n=n, total=question_count(), needed=MIN_ANSWERS_FOR_VERDICT)
            )
        return ready

    def _render_blockers(self, rec: Recommendation) -> None:
        clear_layout(self.blockers_box)
        self.blockers_card.setVisible(bool(rec.blockers))
        for b in rec.blockers:
            lab = link_label(self._item_html(b.message, b.factor, b.answer, b.sources, b.topic, b.verdict))
            lab.linkActivated.connect(self._link)
            self.blockers_box.addWidget(lab)

    def _render_reasons(self, rec: Recommendation) -> None:
        """The strongest reasons (all of them after Show more)."""
        clear_layout(self.reasons_box)
        shown = rec.reasons if self._show_all else rec.reasons[:TOP_REASONS]
        if not rec.reasons:
            self.reasons_box.addWidget(
                label(self.tr("No answer leans either way yet. Answer the questions to see reasons here."), "muted")
            )
        for r in shown:
            lab = link_label(self._item_html(r.message, r.factor, r.answer, r.sources, r.topic, r.leans))
            lab.setToolTip(self.tr("weight {weight}").format(weight=f"{r.weight:g}"))
            lab.linkActivated.connect(self._link)
            self.reasons_box.addWidget(lab)
        hidden = len(rec.reasons) - TOP_REASONS
        if hidden > 0:
            self.more_link.setText(
                anchor("more:", self.tr("Show fewer") if self._show_all else self.tr("Show {n} more").format(n=hidden))
            )
            self.more_link.show()
        else:
            self.more_link.hide()

    def _render_flips(self, rec: Recommendation) -> None:
        """The single answer changes that would change the verdict."""
        if rec.flips:
            c = theme_manager().colors()
            items = []
            for f in rec.flips:
                verdict = VERDICT_WORDS.get(f.verdict, f.verdict)
                col = c.get(f.verdict, c["foreground"])
                change = self.tr("{to} instead of {from_}").format(
                    to=html.escape(answer_label(f.factor, f.to)), from_=html.escape(answer_label(f.factor, f.from_))
                )
                item = self.tr("{question}: {change}").format(
                    question=anchor("question:" + f.factor, factor_label(f.factor)), change=change
                )
                items.append(
                    f'<li>{item} → <span style="color:{col}; font-weight:600">{html.escape(verdict)}</span></li>'
                )
            self.flips_label.setText("<ul style='margin-left:-20px'>" + "".join(items) + "</ul>")
        else:
            self.flips_label.setText(self.tr("No single answer change would change this verdict."))

    def _render_steps(self, rec: Recommendation) -> None:
        """Next steps, each with its in-app action when it has one; the cheapest places to rent the
        verdict's chips last, when prices are known."""
        step_items = []
        for step in rec.steps:
            ws = window_step(step)
            link = f"<br>{anchor('action:' + ws.action, ACTION_TEXT[ws.action])} →" if ws.action else ""
            step_items.append(f"<li>{html.escape(ws.text)}{link}</li>")
        cheapest = self._cheapest_step(rec)
        if cheapest is not None:
            link = f"<br>{anchor('action:estimate', ACTION_TEXT['estimate'])} →"
            step_items.append(f"<li>{html.escape(cheapest)}{link}</li>")
        self.steps_label.setText("<ol style='margin-left:-20px'>" + "".join(step_items) + "</ol>")

    def _render_open_questions(self, rec: Recommendation) -> None:
        self.open_card.setVisible(bool(rec.unanswered))
        if rec.unanswered:
            c = theme_manager().colors()
            items = []
            for f in rec.unanswered:
                page = self.tr("({page})").format(page=html.escape(page_of(f)))
                items.append(
                    f"<li>{anchor('question:' + f, factor_label(f))} "
                    f'<span style="color:{c["muted"]}">{page}</span></li>'
                )
            n = len(rec.unanswered)
            skipped = (
                self.tr("1 question skipped; each one answered makes the verdict firmer.")
                if n == 1
                else self.tr("{n} questions skipped; each one answered makes the verdict firmer.").format(n=n)
            )
            self.open_label.setText(skipped + "<ul style='margin-left:-20px'>" + "".join(items) + "</ul>")

    def _reading_order(self) -> None:
        """Tab follows reading order: the buttons, the left column (blockers, reasons), the right column
        (flips, next steps, open questions, notes), then the estimator's inputs and its table."""

        def links(box: QVBoxLayout) -> list[QWidget]:
            return [
                w
                for i in range(box.count())
                if (it := box.itemAt(i)) is not None
                and isinstance(w := it.widget(), QLabel)
                and w.focusPolicy() != Qt.FocusPolicy.NoFocus
            ]

        chain: list[QWidget] = [
            self.edit_button,
            self.export_button,
            *links(self.blockers_box),
            *links(self.reasons_box),
            self.more_link,
            self.flips_label,
            self.steps_label,
            self.open_label,
            self.notes_edit,
        ]
        estimator: list[QWidget] = []
        w: QWidget | None = self.estimator.params_edit
        while w is not None and w not in estimator and self.estimator.isAncestorOf(w):
            if w.focusPolicy() & Qt.FocusPolicy.TabFocus:
                estimator.append(w)
            w = w.nextInFocusChain()
        chain += estimator
        for first, second in itertools.pairwise(chain):
            QWidget.setTabOrder(first, second)

    def _toggle_all(self, _href: str) -> None:
        self._show_all = not self._show_all
        self._render()

    def _link(self, href: str) -> None:
        kind, _, value = href.partition(":")
        if kind == "topic":
            self.sig_open_topic.emit(value)
        elif kind == "question":
            self.sig_edit_question.emit(value)
        elif kind == "action" and value == "estimate":
            self.focus_estimator()
        elif kind == "action":
            self.sig_action.emit(value)

    def focus_estimator(self) -> None:
        """Scroll to the estimator and put the cursor in its first input."""
        self.scroll_area.ensureWidgetVisible(self.estimator, 0, 0)
        self.estimator.params_edit.setFocus(Qt.FocusReason.OtherFocusReason)


if __name__ == "__main__":  # a page on its own: python -m gpu_tpu_app.ui.result.result_page
    import sys

    from PySide6.QtWidgets import QApplication

    from gpu_tpu_app.core.catalog import load_catalog
    from gpu_tpu_app.core.decision import Answers, decide
    from gpu_tpu_app.core.lesson import load_lesson

    app = QApplication(sys.argv)
    theme_manager().apply("system")
    page = ResultPage(load_lesson(), load_catalog())
    page.set_recommendation(decide(Answers(framework="jax", stage="production", deployment="google_cloud")))
    page.set_estimate_request(EstimateRequest(params=7e9, chips=8))
    page.resize(1100, 800)
    page.show()
    sys.exit(app.exec())
