"""The result page on its own: blockers first, reasons with sources and Learn links, flips,
open questions, the gauge, and the estimator table."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QStyleOptionViewItem

from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.decision import QUESTIONS, Answers, decide
from gpu_tpu_app.core.estimate import EstimateRequest
from gpu_tpu_app.core.lesson import load_lesson
from gpu_tpu_app.core.report import collect, factor_label
from gpu_tpu_app.core.session import new_session
from gpu_tpu_app.core.wording import MISSING
from gpu_tpu_app.ui.result.result_page import MEMORY_COLUMN, PRICE_COLUMN, PRICE_PLACEHOLDER, TOP_REASONS, ResultPage
from tests.builders import matmul_run, tpu_answers

BLOCKED = Answers(framework="pytorch", deployment="on_premises", stage="exploring", team="cuda")
TPU = tpu_answers(every=True)


@pytest.fixture
def page(qtbot):
    p = ResultPage(load_lesson(), load_catalog())
    qtbot.addWidget(p)
    p.resize(1100, 800)
    p.show()
    return p


def _texts(layout) -> list[str]:
    return [layout.itemAt(i).widget().text() for i in range(layout.count()) if layout.itemAt(i).widget()]


def test_blockers_come_first_with_clear_styling(page: ResultPage) -> None:
    rec = decide(BLOCKED)
    assert rec.blockers
    page.set_recommendation(rec)
    assert page.blockers_card.isVisible()
    assert page.blockers_card.property("card") == "blocker"
    texts = _texts(page.blockers_box)
    assert len(texts) == len(rec.blockers)
    assert rec.blockers[0].message in texts[0].replace("&#x27;", "'")
    # the blockers card sits above the reasons in the left column
    assert page.blockers_card.y() < page.reasons_card.y()
    assert "hard constraint" in page.summary.text()


def test_no_blockers_card_without_blockers(page: ResultPage) -> None:
    page.set_recommendation(decide(TPU))
    assert not page.blockers_card.isVisible()
    assert page.headline.text().startswith("The factory line")


def test_reasons_show_sources_and_learn_links(page: ResultPage) -> None:
    lesson = load_lesson()
    rec = decide(TPU)
    page.set_recommendation(rec)
    texts = _texts(page.reasons_box)
    assert len(texts) == min(TOP_REASONS, len(rec.reasons))
    for r, text in zip(rec.reasons, texts):
        assert f'href="topic:{r.topic}"' in text
        assert lesson.topic(r.topic).title in text
        for sid in r.sources:
            assert lesson.source(sid).title.split(" (")[0] in text
    # strongest first, as the engine ordered them
    assert [w for w in (r.weight for r in rec.reasons)] == sorted((r.weight for r in rec.reasons), reverse=True)


def test_show_all_reasons_toggle(qtbot, page: ResultPage) -> None:
    rec = decide(TPU)
    assert len(rec.reasons) > TOP_REASONS
    page.set_recommendation(rec)
    assert page.more_link.isVisible()
    page.more_link.linkActivated.emit("more:")
    assert len(_texts(page.reasons_box)) == len(rec.reasons)
    page.more_link.linkActivated.emit("more:")
    assert len(_texts(page.reasons_box)) == TOP_REASONS


def test_reason_link_asks_for_its_topic(qtbot, page: ResultPage) -> None:
    rec = decide(TPU)
    page.set_recommendation(rec)
    first = page.reasons_box.itemAt(0).widget()
    with qtbot.waitSignal(page.sig_open_topic) as blocker:
        first.linkActivated.emit(f"topic:{rec.reasons[0].topic}")
    assert blocker.args == [rec.reasons[0].topic]


def test_flips_and_open_questions(qtbot, page: ResultPage) -> None:
    rec = decide(TPU)
    page.set_recommendation(rec)
    assert rec.flips
    flips = page.flips_label.text()
    for f in rec.flips:
        assert f'href="question:{f.factor}"' in flips
        assert factor_label(f.factor) in flips
    assert rec.unanswered
    assert page.open_card.isVisible()
    for field in rec.unanswered:
        assert f'href="question:{field}"' in page.open_label.text()
    with qtbot.waitSignal(page.sig_edit_question) as blocker:
        page.open_label.linkActivated.emit(f"question:{rec.unanswered[0]}")
    assert blocker.args == [rec.unanswered[0]]


def test_everything_answered_hides_open_questions(page: ResultPage) -> None:
    full = Answers(**{field: q.choices[0][0] for field, q in QUESTIONS.items()})
    rec = decide(full)
    assert rec.unanswered == []
    page.set_recommendation(rec)
    assert not page.open_card.isVisible()


def test_gauge_follows_the_score(page: ResultPage) -> None:
    rec = decide(TPU)
    page.set_recommendation(rec)
    assert page.gauge.score() == pytest.approx(rec.score)
    assert "TPU" in page.gauge.accessibleDescription()
    assert rec.confidence in page.gauge.accessibleDescription()
    image = page.gauge.grab().toImage()
    assert image.width() > 250 and image.height() > 150


def test_estimator_table_across_the_catalogue(qtbot, page: ResultPage) -> None:
    catalog = load_catalog()
    card = page.estimator
    assert card.table.rowCount() == 0
    assert "parameters" in card.message.text()
    card.params_edit.setText("7B")
    with qtbot.waitSignal(page.sig_estimate_changed) as blocker:
        card.params_edit.editingFinished.emit()
    request = blocker.args[0]
    assert isinstance(request, EstimateRequest) and request.params == 7e9 and request.tokens is None
    assert card.table.rowCount() == len(catalog.chips)
    names = {card.table.item(r, 0).text() for r in range(card.table.rowCount())}
    assert names == {c.name for c in catalog.chips}
    assert "140B training tokens (default: 20 per parameter" in card.message.text()  # 20 x N, shown as an input
    assert "6 x N x D" in card.rules.text() and "attention" in card.rules.text()
    assert [card.table.horizontalHeaderItem(c).text() for c in range(card.table.columnCount())][4:8] == [
        "Time",
        "Bound",
        "Memory\nneeded / available",
        "Chips per\ncopy",
    ]

    # chips and mode
    with qtbot.waitSignal(page.sig_estimate_changed) as blocker:
        card.chips_spin.setValue(64)
    assert blocker.args[0].chips == 64
    card.mode_combo.setCurrentIndex(1)
    assert "tokens to serve" in card.message.text()
    card.tokens_edit.setText("1e12")
    with qtbot.waitSignal(page.sig_estimate_changed) as blocker:
        card.tokens_edit.editingFinished.emit()
    assert blocker.args[0].mode == "inference" and blocker.args[0].tokens == 1e12

    # the serving inputs the CLI has: batch, context and the model's shape
    with qtbot.waitSignal(page.sig_estimate_changed) as blocker:
        card.batch_spin.setValue(64)
    assert blocker.args[0].batch == 64 and blocker.args[0].context is None  # 2048 by default
    h100 = next(r for r in range(card.table.rowCount()) if card.table.item(r, 0).text() == "NVIDIA H100 SXM")
    assert card.table.item(h100, 5).text() == "memory" and card.table.item(h100, 7).text() == "1"
    # the worked example's H100 row: 7B at the default shape (33 layers, 8 KV heads of 128) keeps
    # 2 x 33 x 8 x 128 x 2 = 135,168 B of KV cache a token; a step reads 14e9 + 64 x 2048 x 135,168 =
    # 31.72e9 B at 0.80 to 0.65 of 3,350 GB/s: 11.8-14.6 ms, 64 copies x 64 tokens a step: 33.4-41.2 days
    assert card.table.item(h100, 4).text() == "33.4 days - 41.2 days"
    card.shape_edits["kv_heads"].setText("32")
    with qtbot.waitSignal(page.sig_estimate_changed) as blocker:
        card.shape_edits["kv_heads"].editingFinished.emit()
    assert blocker.args[0].kv_heads == 32
    card.shape_edits["kv_heads"].setText("many")
    card.shape_edits["kv_heads"].editingFinished.emit()
    assert "whole number" in card.message.text()
    card.shape_edits["kv_heads"].setText("")
    card.shape_edits["kv_heads"].editingFinished.emit()
    card.prompt_edit.setText("1e9")
    with qtbot.waitSignal(page.sig_estimate_changed) as blocker:
        card.prompt_edit.editingFinished.emit()
    assert blocker.args[0].prompt_tokens == 1e9
    with qtbot.waitSignal(page.sig_estimate_changed) as blocker:
        card.dtype_combo.setCurrentIndex(card.dtype_combo.findData("float8"))
    assert blocker.args[0].dtype == "float8"
    # a saved request fills every input back
    saved = blocker.args[0]
    page.set_estimate_request(saved)
    assert card.request() == saved and card.dtype_combo.currentData() == "float8" and card.batch_spin.value() == 64

    # a typo is reported, not raised
    card.params_edit.setText("seven")
    card.params_edit.editingFinished.emit()
    assert "not a number" in card.message.text()
    assert card.table.rowCount() == 0


def test_price_typed_in_the_table_gives_a_cost(qtbot, page: ResultPage) -> None:
    card = page.estimator
    # 16 chips: 7B's 112 GB of state needs TP 2 x FSDP 8 on 16 GB chips that give a layout 16 x 0.95 - 1 = 14.2 GB
    page.set_estimate_request(EstimateRequest(params=7e9, chips=16))
    v5e = load_catalog().chip("tpu-v5e").name
    row = next(r for r in range(card.table.rowCount()) if card.table.item(r, 0).text() == v5e)
    cost_col = PRICE_COLUMN + 1
    assert card.table.item(row, cost_col).text() == ""
    with qtbot.waitSignal(page.sig_estimate_changed) as blocker:
        card.table.item(row, PRICE_COLUMN).setText("1.2")
    assert blocker.args[0].prices == {"tpu-v5e": 1.2}
    rows = range(card.table.rowCount())
    qtbot.waitUntil(lambda: any(card.table.item(r, cost_col).text().startswith("$") for r in rows))
    priced = [r for r in range(card.table.rowCount()) if card.table.item(r, cost_col).text()]
    assert len(priced) == 1 and card.table.item(priced[0], 0).text() == v5e


def test_measured_devices_become_rows(page: ResultPage) -> None:
    run = matmul_run(memory_bytes=32 << 30, size=2048, value=3e11, complete=False)
    page.set_runs([run])
    page.set_estimate_request(EstimateRequest(params=1e9))
    card = page.estimator
    rows = [r for r in range(card.table.rowCount()) if card.table.item(r, 1).text() == "measured"]
    assert len(rows) == 1
    assert "Example CPU" in card.table.item(rows[0], 0).text()
    assert card.table.item(rows[0], PRICE_COLUMN).flags() & Qt.ItemFlag.ItemIsEditable == Qt.ItemFlag.NoItemFlags
    assert card.table.item(rows[0], PRICE_COLUMN).text() == MISSING  # no field to type in: not a placeholder
    # the report says it in the same words
    report = collect(new_session().with_runs([run]), estimate=card.result)
    assert [row[1] for row in report.estimate_rows].count("measured") == 1
    assert not any("this machine" in cell for row in report.estimate_rows for cell in row)


def test_memory_shows_needed_over_available_in_decimal_gb(page: ResultPage) -> None:
    page.set_estimate_request(EstimateRequest(params=70e9, mode="inference", tokens=1e9))
    card = page.estimator
    catalog = load_catalog()
    by_name = {card.table.item(r, 0).text(): r for r in range(card.table.rowCount())}
    shown = {}
    for chip_id in ("h100-sxm", "tpu-v5e"):
        chip = catalog.chip(chip_id)
        row = next(x for x in card.result.rows if x.chip_id == chip_id)
        item = card.table.item(by_name[chip.name], MEMORY_COLUMN)
        per_chip, per_copy = item.text().split(", does not fit")[0].split("; ")
        # the numbers are the estimate's, in decimal GB (10^9 bytes): per chip of the copy, then per copy
        need, have = (float(part.split()[0]) for part in per_chip.removesuffix(" a chip").split(" / "))
        assert need == pytest.approx(row.per_chip_bytes / 1e9, rel=5e-3)
        assert have == pytest.approx(row.chip_memory_bytes / 1e9, rel=5e-3)
        needed, available = (float(part.split()[0]) for part in per_copy.split(" a copy")[0].split(" / "))
        assert per_copy.endswith(f" a copy of {row.chips_per_copy}") and row.chips_per_copy > 1
        assert needed == pytest.approx(row.memory_needed_bytes / 1e9, rel=5e-3)
        assert available == pytest.approx(row.memory_available_bytes / 1e9, rel=5e-3)
        assert item.text().endswith("does not fit") == (row.fits is False)
        shown[chip_id] = item
    # a chip published in GiB says so in the tooltip, next to the decimal figure (TPU7x: 192 GiB);
    # Google's v5e page states 16 GB, shown as it is
    row = next(x for x in card.result.rows if x.chip_id == "tpu7x")
    tpu7x = card.table.item(by_name[catalog.chip("tpu7x").name], MEMORY_COLUMN)
    assert row.chip_memory_stated == "192 GiB" and "192 GiB as published" in tpu7x.toolTip()
    assert "206 GB" in tpu7x.toolTip()
    assert catalog.chip("tpu-v5e").memory.unit == "GB" and "17.2 GB" not in shown["tpu-v5e"].toolTip()
    assert "GB = 10^9 bytes" in shown["h100-sxm"].toolTip()
    assert "GiB as published" not in shown["h100-sxm"].toolTip()  # NVIDIA publishes GB
    header = card.table.horizontalHeaderItem(MEMORY_COLUMN)
    assert "needed / available" in header.text() and "decimal GB" in header.toolTip()
    assert "decimal GB" in card.rules.text()


def test_price_cells_look_editable(page: ResultPage) -> None:
    page.set_estimate_request(EstimateRequest(params=7e9))
    card = page.estimator
    delegate = card.table.itemDelegateForColumn(PRICE_COLUMN)
    assert "Editable" in card.table.horizontalHeaderItem(PRICE_COLUMN).toolTip()
    plain = card.table.item(0, PRICE_COLUMN - 1).background().color()
    for r in range(card.table.rowCount()):
        item = card.table.item(r, PRICE_COLUMN)
        assert item.flags() & Qt.ItemFlag.ItemIsEditable  # catalogue chips only here
        assert item.text() == "" and "Editable" in item.toolTip()
        assert item.background().color() != plain and item.background().style() != Qt.BrushStyle.NoBrush
        option = QStyleOptionViewItem()
        delegate.initStyleOption(option, card.table.indexFromItem(item))
        assert option.text == PRICE_PLACEHOLDER and option.font.italic()
    # a typed price shows as itself, not as the placeholder
    item = card.table.item(0, PRICE_COLUMN)
    chip = item.data(Qt.ItemDataRole.UserRole)
    page.set_estimate_request(EstimateRequest(params=7e9, prices={chip: 2.5}))
    row = next(r for r in range(card.table.rowCount()) if card.table.item(r, PRICE_COLUMN).text())
    option = QStyleOptionViewItem()
    delegate.initStyleOption(option, card.table.indexFromItem(card.table.item(row, PRICE_COLUMN)))
    assert option.text == "2.5"
    editor = delegate.createEditor(
        card.table.viewport(), option, card.table.indexFromItem(card.table.item(row, PRICE_COLUMN))
    )
    assert "USD per chip-hour" in editor.placeholderText()


def test_notes_round_trip_without_echo(qtbot, page: ResultPage) -> None:
    with qtbot.assertNotEmitted(page.sig_notes_changed):
        page.set_notes("from the file")
    assert page.notes_edit.toPlainText() == "from the file"
    with qtbot.waitSignal(page.sig_notes_changed) as blocker:
        page.notes_edit.setPlainText("typed")
    assert blocker.args == ["typed"]


def test_the_estimate_follows_typing_and_chip_names_are_readable(qtbot) -> None:
    from PySide6.QtWidgets import QHeaderView

    from gpu_tpu_app.core.catalog import load_catalog
    from gpu_tpu_app.ui.result.result_page import TYPING_PAUSE_MS, EstimatorCard

    card = EstimatorCard(load_catalog())
    qtbot.addWidget(card)
    card.resize(1100, 900)
    card.show()
    qtbot.keyClicks(card.params_edit, "7B")  # typed, no Enter, no leaving the field
    qtbot.waitUntil(lambda: card.result is not None, timeout=TYPING_PAUSE_MS * 10)
    assert card.request() is not None and card.request().params == 7e9
    table = card.table
    assert table.horizontalHeader().sectionResizeMode(0) == QHeaderView.ResizeMode.Interactive
    fm = table.fontMetrics()
    widest = max(fm.horizontalAdvance(table.item(r, 0).text()) for r in range(table.rowCount()))
    assert table.columnWidth(0) >= widest  # no name elided ("NVIDIA H100..." three times)
    for r in range(table.rowCount()):
        assert table.item(r, 0).text() in table.item(r, 0).toolTip()


def test_contradictory_answers_and_a_lean_from_few_answers_are_said_on_the_page(page: ResultPage) -> None:
    """issue 19: contradictions are named with the verdict; a few answers lean without deciding."""
    conflicted = decide(Answers(**{**TPU.model_dump(), "stage": "exploring"}))
    assert [c.id for c in conflicted.conflicts] == ["exploring_locked"]
    page.set_recommendation(conflicted)
    assert conflicted.conflicts[0].message in page.summary.text()
    assert "contradict" in page.summary.text()
    few = decide(Answers(framework="jax", scale="massive", matmul_share="dominant"))
    page.set_recommendation(few)
    assert page.headline.text() == "Either, for now: too few answers to decide"
    assert "lean but do not decide" in page.summary.text()
    # the steps card shows each step's own words and the button its action names
    steps = page.steps_label.text()
    assert "action:check_model" in steps and "gpu-tpu-" not in steps
