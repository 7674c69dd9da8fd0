"""The estimator's model inputs in the window: experts, shape ratio, training memory, fp32, bandwidth share."""

from __future__ import annotations

import pytest

from gpu_tpu_app.core.estimate import EstimateRequest
from gpu_tpu_app.ui.result.result_page import ResultPage


@pytest.fixture
def page(qtbot):
    widget = ResultPage()
    qtbot.addWidget(widget)
    return widget


def _edit(qtbot, page: ResultPage, edit, text: str) -> EstimateRequest | None:
    edit.setText(text)
    with qtbot.waitSignal(page.sig_estimate_changed) as blocker:
        edit.editingFinished.emit()
    return blocker.args[0]


def test_moe_inputs_reach_the_estimate_and_the_table(qtbot, page: ResultPage) -> None:
    card, inputs = page.estimator, page.estimator.model_inputs
    card.params_edit.setText("46.7B")
    card.params_edit.editingFinished.emit()
    _edit(qtbot, page, inputs.experts_edit, "8")
    assert "experts and top_k go together" in card.message.text()  # half an answer: said, no estimate
    inputs.active_edit.setText("12.9B")
    inputs.active_edit.editingFinished.emit()  # still half an answer: the request stays None
    assert card.request() is None
    request = _edit(qtbot, page, inputs.top_k_edit, "2")
    assert request is not None and (request.active_params, request.experts, request.top_k) == (12.9e9, 8, 2)
    assert card.result is not None and card.result.moe is not None
    # FLOPs from the active 12.9B: (6 x 12.9e9 + 12 x 40 x 2048 x 5120) x 934e9 default tokens (20 x 46.7B)
    assert card.result.flops == pytest.approx((6 * 12.9e9 + 12 * 40 * 2048 * 5120) * 20 * 46.7e9)
    assert "Mixture of experts: FLOPs from 12.9B active parameters, memory from all 46.7B" in card.rules.text()
    assert "12.9B active parameters per token; 8 experts, top-2" in card.message.text()


def test_training_and_precision_inputs_round_trip(qtbot, page: ResultPage) -> None:
    card, inputs = page.estimator, page.estimator.model_inputs
    card.params_edit.setText("405B")
    card.params_edit.editingFinished.emit()
    with qtbot.waitSignal(page.sig_estimate_changed) as blocker:
        inputs.checkpoint_combo.setCurrentIndex(inputs.checkpoint_combo.findData("full"))
    assert blocker.args[0].checkpointing == "full"
    with qtbot.waitSignal(page.sig_estimate_changed) as blocker:
        inputs.micro_spin.setValue(2)
    assert blocker.args[0].micro_batch == 2
    with qtbot.waitSignal(page.sig_estimate_changed) as blocker:
        inputs.fp32_check.setChecked(True)
    assert blocker.args[0].strict_fp32 is True
    request = _edit(qtbot, page, inputs.aspect_edit, "100")
    assert request is not None and request.aspect_ratio == 100
    assert (
        card.result is not None and card.result.shape is not None and "width / layers = 100" in card.result.shape.origin
    )
    assert "Precision: strict fp32" in card.rules.text() and "Training state:" in card.rules.text()
    _edit(qtbot, page, inputs.aspect_edit, "wide")
    assert "type a number" in card.message.text()
    inputs.aspect_edit.setText("100")
    # a saved request fills every model input back
    saved = request
    page.set_estimate_request(EstimateRequest(params=1e9))
    assert inputs.checkpoint_combo.currentData() == "auto" and not inputs.fp32_check.isChecked()
    page.set_estimate_request(saved)
    assert card.request() == saved and inputs.micro_spin.value() == 2 and inputs.fp32_check.isChecked()
    assert inputs.checkpoint_combo.currentData() == "full" and inputs.aspect_edit.text() == "100"


def test_bandwidth_share_is_a_serving_input(qtbot, page: ResultPage) -> None:
    card, inputs = page.estimator, page.estimator.model_inputs
    page.set_estimate_request(EstimateRequest(params=7e9, mode="inference", tokens=1e9))
    assert "Bandwidth: decode at 0.65-0.80 of nominal memory bandwidth" in card.rules.text()
    request = _edit(qtbot, page, inputs.share_edit, "0.9")
    assert request is not None and request.bw_share == 0.9
    assert "0.9 of nominal bandwidth, set by the user" in card.rules.text()
    _edit(qtbot, page, inputs.share_edit, "2")
    assert card.message.text().startswith("Check the inputs:")


def test_an_answer_of_strict_fp32_checks_the_box_until_the_user_sets_it(qtbot, page: ResultPage) -> None:
    from gpu_tpu_app.core.decision import Answers, decide

    card, inputs = page.estimator, page.estimator.model_inputs
    card.params_edit.setText("7B")
    card.params_edit.editingFinished.emit()
    with qtbot.waitSignal(page.sig_estimate_changed) as blocker:
        page.set_recommendation(decide(Answers(high_precision="fp32", framework="jax")))
    assert inputs.fp32_check.isChecked() and blocker.args[0].strict_fp32 is True
    v5p = next(r for r in card.result.rows if r.chip_id == "tpu-v5p")
    assert v5p.peak_flops == pytest.approx(459e12 / 4.5)  # bf16 peak over 3-6 passes
    inputs.fp32_check.click()  # the user's own choice here wins over the answer from now on
    assert not inputs.fp32_check.isChecked() and card.request().strict_fp32 is False
    page.set_recommendation(decide(Answers(high_precision="fp32", framework="jax")))
    assert not inputs.fp32_check.isChecked()


def test_the_chips_per_copy_cell_says_the_layout(page: ResultPage) -> None:
    page.set_estimate_request(EstimateRequest(params=405e9, tokens=15.6e12, chips=16_384))
    card = page.estimator
    row = next(r for r in range(card.table.rowCount()) if card.table.item(r, 0).text() == "NVIDIA H100 SXM")
    assert card.table.item(row, 7).text() == "4096"
    tip = card.table.item(row, 7).toolTip()
    assert "TP 2 x FSDP 2048 x DP 4 (no recompute)" in tip
    # why: the fullest chip's 6.48e12 / 4096 = 1.58 GB of state + (144.9 + 1.58 GB of logits) / 2 = 73.2 GB of
    # activations, within the 80 x 0.95 - 1 = 75 GB a chip gives a layout
    assert (
        "the fastest layout on the 16384 chips given whose fullest chip fits: 74.8 GB of the 75 GB a chip of 80 GB"
        " gives a layout (5 % kept for fragmentation and 1 GB for the runtime)"
    ) in tip


def test_a_compiled_model_check_adds_rows_from_your_model(qtbot, page: ResultPage) -> None:
    import json
    from pathlib import Path

    from gpu_tpu_app.core.modelcheck import ModelCheck

    path = Path(__file__).resolve().parents[1] / "data" / "model-check-tpu-compiled.json"
    check = ModelCheck.model_validate(json.loads(path.read_text(encoding="utf-8")))
    card, inputs = page.estimator, page.estimator.model_inputs
    page.set_estimate_request(EstimateRequest(params=5e9))
    page.set_model_check(check)
    names = [card.table.item(r, 0).text() for r in range(card.table.rowCount())]
    assert "Google TPU v5p (your model, compiled)" in names
    request = _edit(qtbot, page, inputs.steps_edit, "1000")
    assert request is not None and request.steps == 1000
    row = next(
        r for r in range(card.table.rowCount()) if card.table.item(r, 0).text().startswith("Google TPU v5p (your")
    )
    assert card.table.item(row, 1).text() == "your model" and card.table.item(row, 4).text() == "7.77 s"
    assert "Your model, compiled: per chip" in card.rules.text()
    page.set_model_check(None)
    assert not any("(your model" in card.table.item(r, 0).text() for r in range(card.table.rowCount()))


def test_the_fine_tune_choice_reaches_the_estimate_and_saved_requests(qtbot, page: ResultPage) -> None:
    card, inputs = page.estimator, page.estimator.model_inputs
    card.params_edit.setText("8B")
    card.params_edit.editingFinished.emit()
    inputs.finetune_combo.setCurrentIndex(inputs.finetune_combo.findData("lora"))
    # a fine-tune has no default tokens: the card asks for them and estimates nothing
    assert card.request() is None and "Fine-tune: type the tokens to train on" in card.message.text()
    request = _edit(qtbot, page, card.tokens_edit, "1e8")
    assert request is not None and (request.finetune, request.lora_rank) == ("lora", 16)
    h100 = next(r for r in card.result.rows if r.chip_id == "h100-sxm")
    # frozen bf16 weights 2 x 8e9 + 16 B x 18 x 16 x 4096 x 34 adapter parameters: 16.64 GB, one H100
    assert card.result.finetune is not None
    assert card.result.finetune.state_bytes == pytest.approx(2 * 8e9 + 16 * 18 * 16 * 4096 * 34)
    assert h100.fits is True and h100.chips_per_copy == 1
    # the arithmetic behind the new figures is in the card's notes
    assert "adapters = 18 x r x d x L = 18 x 16 x 4096 x 34 = 4.011e+07" in card.rules.text()
    assert "(no weight gradients of frozen weights)" in card.rules.text()
    inputs.rank_spin.setValue(64)
    assert card.request() is not None and card.request().lora_rank == 64
    inputs.finetune_combo.setCurrentIndex(inputs.finetune_combo.findData("qlora"))
    assert card.request().finetune == "qlora"
    # a saved request fills the choice back; pre-training shows as such
    page.set_estimate_request(EstimateRequest(params=8e9, tokens=1e8, finetune="full"))
    assert inputs.finetune_combo.currentData() == "full" and inputs.rank_spin.value() == 16
    page.set_estimate_request(EstimateRequest(params=8e9))
    assert inputs.finetune_combo.currentData() == "" and card.request().finetune is None


def test_memory_says_per_chip_and_per_copy_and_a_row_without_time_says_why(page: ResultPage) -> None:
    from gpu_tpu_app.ui.probe.estimator_table import EST_COLUMNS, MEMORY_COLUMN

    page.set_estimate_request(
        EstimateRequest(params=70e9, mode="inference", tokens=1e9, chips=2, layers=80, width=8192, heads=64, kv_heads=8)
    )
    card = page.estimator
    by_name = {card.table.item(r, 0).text(): r for r in range(card.table.rowCount())}
    h100 = by_name["NVIDIA H100 SXM"]
    # 1.2 x 140 GB + 2048 x 327,680 B = 168.7 GB a copy; TP 4 puts 42.2 GB on each 80 GB chip
    memory = card.table.item(h100, MEMORY_COLUMN).text()
    assert memory == "42.2 GB / 80 GB a chip; 169 GB / 320 GB a copy of 4, does not fit"
    time = card.table.item(h100, EST_COLUMNS.index("Time")).text()
    assert time == "– (one copy needs 4 chips)"  # 2 chips given
    a10g = by_name["NVIDIA A10G (AWS)"]
    assert "no bf16 or fp16 peak" in card.table.item(a10g, EST_COLUMNS.index("Time")).text()
    h200 = by_name["NVIDIA H200 SXM"]  # 141 GB: TP 2 holds 84.3 GB a chip, a copy of both chips
    assert card.table.item(h200, MEMORY_COLUMN).text() == "84.3 GB / 141 GB a chip; 169 GB / 282 GB a copy of 2"


def test_an_input_error_shows_at_its_field_and_opens_the_advanced_inputs(qtbot, page: ResultPage) -> None:
    card = page.estimator
    heads, kv_heads = card.shape_edits["heads"], card.shape_edits["kv_heads"]
    # the shape is an advanced input: hidden until asked for, or until one of them is wrong
    assert not card.advanced_button.isChecked() and card.params_edit.isVisibleTo(card)
    assert not kv_heads.isVisibleTo(card)
    card.params_edit.setText("8B")
    heads.setText("32")
    kv_heads.setText("64")
    kv_heads.editingFinished.emit()
    error = card.field_errors[kv_heads]
    assert card.request() is None
    assert error.text() == "kv_heads cannot exceed heads" and error.isVisibleTo(card)
    assert "border" in kv_heads.styleSheet()  # the red frame
    assert card.advanced_button.isChecked() and kv_heads.isVisibleTo(card)
    assert "Check the inputs: kv_heads cannot exceed heads" in card.message.text()
    # a number that does not read is said under its own input
    kv_heads.setText("8")
    card.tokens_edit.setText("lots")
    card.tokens_edit.editingFinished.emit()
    assert not card.field_errors[kv_heads].isVisibleTo(card) and kv_heads.styleSheet() == ""
    assert (
        card.field_errors[card.tokens_edit].isVisibleTo(card) and "'lots'" in card.field_errors[card.tokens_edit].text()
    )
    card.tokens_edit.setText("1e9")
    card.tokens_edit.editingFinished.emit()
    assert card.request() is not None and not any(e.isVisibleTo(card) for e in card.field_errors.values())


def test_the_page_scrolls_to_an_input_in_error(qtbot, page: ResultPage) -> None:
    page.resize(900, 400)
    page.show()
    qtbot.waitExposed(page)
    card, bar = page.estimator, page.scroll_area.verticalScrollBar()
    bar.setValue(0)  # the page's top: the estimator's inputs are below the fold
    top = card.tokens_edit.mapTo(page.scroll_area.widget(), card.tokens_edit.rect().topLeft()).y()
    assert top > page.scroll_area.viewport().height()
    card.params_edit.setText("8B")
    card.tokens_edit.setText("lots")
    card.tokens_edit.editingFinished.emit()
    assert card.field_errors[card.tokens_edit].isVisibleTo(card)
    assert bar.value() > 0 and bar.value() <= top <= bar.value() + page.scroll_area.viewport().height()


def test_fp8_in_the_window_trains_at_the_fp8_peak(page: ResultPage) -> None:
    card = page.estimator
    card.params_edit.setText("8B")
    card.dtype_combo.setCurrentIndex(card.dtype_combo.findData("float8"))
    card.params_edit.editingFinished.emit()
    assert card.request() is not None and card.request().dtype == "float8"
    h100 = next(r for r in card.result.rows if r.chip_id == "h100-sxm")
    assert (h100.peak_flops, h100.peak_dtype) == (1979e12, "float8")
    card.dtype_combo.setCurrentIndex(card.dtype_combo.findData("int8"))  # a serving type: training stays bf16
    assert card.request().dtype == "bfloat16"


def test_the_price_place_can_be_set_from_the_users_cloud(page: ResultPage) -> None:
    card = page.estimator
    page.set_estimate_request(EstimateRequest(params=8e9, chips=8))
    card.set_price_place("gcp")
    request = card.request()
    assert request is not None and (request.price_cloud, request.price_region) == ("gcp", None)
    v6e = next(r for r in card.result.rows if r.chip_id == "tpu-v6e")
    assert v6e.price is None or v6e.price.cloud == "gcp"
    card.set_price_place(None)
    assert (card.request().price_cloud, card.request().price_region) == (None, None)


def test_latency_targets_and_goodput_in_the_window_fill_the_latency_columns(qtbot, page: ResultPage) -> None:
    import math

    from gpu_tpu_app.ui.probe.estimator_table import LATENCY_COLUMNS, LATENCY_FIRST
    from tests.core.test_estimate import LLAMA_8B

    card, inputs = page.estimator, page.estimator.model_inputs
    page.set_estimate_request(
        EstimateRequest(
            params=8e9, tokens=1e9, mode="inference", mfu=0.5, bw_share=0.8, prices={"h100-sxm": 3.0}, **LLAMA_8B
        )
    )
    h100 = next(r for r in range(card.table.rowCount()) if card.table.item(r, 0).text() == "NVIDIA H100 SXM")
    # no targets: the latency columns stay hidden
    assert all(card.table.isColumnHidden(LATENCY_FIRST + n) for n in range(len(LATENCY_COLUMNS)))
    inputs.output_edit.setText("256")
    inputs.rate_edit.setText("50")
    request = _edit(qtbot, page, inputs.tpot_edit, "20")
    assert request is not None and (request.tpot_ms, request.requests_per_s, request.output_len) == (20, 50, 256)
    assert not any(card.table.isColumnHidden(LATENCY_FIRST + n) for n in range(len(LATENCY_COLUMNS)))
    h100 = next(r for r in range(card.table.rowCount()) if card.table.item(r, 0).text() == "NVIDIA H100 SXM")
    cells = [card.table.item(h100, LATENCY_FIRST + n).text() for n in range(len(LATENCY_COLUMNS))]
    # Llama 3 8B's shape: a decode step at batch B reads 16 GB of weights and B x 268.4 MB of KV
    # cache at 3.35e12 x 0.8 B/s; within 20 ms: B <= (0.020 x 2.68e12 - 16e9) / 268.4e6 = 140.1 -> 140
    kv, bw = 2048 * 2 * 32 * 8 * 128 * 2, 3.35e12 * 0.8
    step = (16e9 + 140 * kv) / bw
    assert cells[0] == "140" and cells[2] == f"{step * 1e3:.3g} ms"
    assert cells[3] == f"{140 / step:,.0f}"  # tokens/s a chip
    assert cells[4] == f"${3.0 / 3600 / (140 / step) * 1e6:.2f}"  # $/M tokens at $3 a chip-hour
    prefill = (2048 - 256) * (2 * 8e9 + 4 * 32 * 2048 * 4096) / (989e12 * 0.5)
    assert cells[5] == f"{math.ceil(50 / (1 / (prefill + 256 * step / 140))):,}"  # chips for 50 requests/s
    tip = card.table.item(h100, LATENCY_FIRST).toolTip()
    # the rule in the language in use, then the arithmetic as the JSON has it
    assert tip.startswith("time to the first token: the prompt")
    assert "step(B) = max(B x" in tip and "at B = 140: step 19.99 ms" in tip
    # a target no chip meets says by how much in the batch cell
    request = _edit(qtbot, page, inputs.tpot_edit, "5")
    h100 = next(r for r in range(card.table.rowCount()) if card.table.item(r, 0).text() == "NVIDIA H100 SXM")
    at_one = (16e9 + kv) / bw * 1e3  # 6.07 ms even at batch 1
    assert f"{at_one - 5:.3g} ms over the 5 ms target" in card.table.item(h100, LATENCY_FIRST).text()
    # goodput divides the time; the inputs fill back from a saved request
    request = _edit(qtbot, page, inputs.goodput_edit, "0.9")
    assert request is not None and request.goodput == 0.9
    inputs.fill(None)
    assert inputs.tpot_edit.text() == "" and inputs.goodput_edit.text() == ""
    inputs.fill(request)
    assert (inputs.tpot_edit.text(), inputs.output_edit.text(), inputs.goodput_edit.text()) == ("5", "256", "0.9")


def test_a_latency_rule_shows_at_its_field(qtbot, page: ResultPage) -> None:
    card, inputs = page.estimator, page.estimator.model_inputs
    page.set_estimate_request(EstimateRequest(params=8e9, tokens=1e9, mode="inference"))
    assert not inputs.output_edit.isVisibleTo(card)  # an advanced input
    inputs.rate_edit.setText("5")
    inputs.rate_edit.editingFinished.emit()
    assert card.request() is None
    error = card.field_errors[inputs.output_edit]
    assert (
        error.isVisibleTo(card) and error.text() == "requests_per_s needs output_len: the tokens each request generates"
    )
    assert "border" in inputs.output_edit.styleSheet() and card.advanced_button.isChecked()
    inputs.goodput_edit.setText("1.5")
    inputs.output_edit.setText("256")
    inputs.output_edit.editingFinished.emit()
    assert card.request() is None and card.field_errors[inputs.goodput_edit].isVisibleTo(card)


def test_fp8_derate_and_the_memory_reserve_are_in_the_tooltips(page: ResultPage) -> None:
    from gpu_tpu_app.ui.probe.estimator_table import MEMORY_COLUMN

    card = page.estimator
    page.set_estimate_request(EstimateRequest(params=8e9, tokens=1e12, chips=8, dtype="float8"))
    h100 = next(r for r in range(card.table.rowCount()) if card.table.item(r, 0).text() == "NVIDIA H100 SXM")
    mfu = card.table.item(h100, 3)
    # 0.38 x 1.25 x 989 / 1979 = 0.237 and 0.48 x 1.5 x 989 / 1979 = 0.360: the cell shows the derated range and
    # its tooltip the arithmetic and the source
    assert mfu.text() == "0.24-0.36"
    assert "scaled by 0.625 at the low end and 0.750 at the high end" in mfu.toolTip()
    assert "torchao-float8-2025" in mfu.toolTip()
    # the memory tip: the activations count the logits, and a layout uses 80 x 0.95 - 1 = 75 GB of a chip
    tip = card.table.item(h100, MEMORY_COLUMN).toolTip()
    assert "of activations and the loss's logits" in tip and "a layout may use 75 GB" in tip
