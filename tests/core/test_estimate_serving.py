"""The estimator's serving side (prefill and decode, issue 11) and its model shapes (mixture of experts,
activations, layout, strict fp32, issue 19), by hand and through the `estimate` command."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from gpu_tpu_app.core.catalog import Catalog, load_catalog
from gpu_tpu_app.core.estimate import Estimate, EstimateRequest, estimate
from tests.core.test_estimate import LLAMA_8B, LLAMA_70B, SHARE, _row


@pytest.fixture
def catalog() -> Catalog:
    return load_catalog()


# ------------------------------------------------------------------ serving: prefill and decode (issue 11)

#: the audit's worked example: bandwidth-bound days for a 7B model serving 1e12 tokens on 64 chips at
#: batch 64 and 2k context with a grouped-query KV cache, at the nominal bandwidth; decode reaches
#: only a measured share of it, so the expected days are these over the share.
ROOFLINE_DAYS = {"h100-sxm": 26, "h200": 18, "tpu-v6e": 54, "tpu7x": 12}
WORKED_EXAMPLE = {chip_id: days / SHARE for chip_id, days in ROOFLINE_DAYS.items()}


def test_worked_example_within_25_percent(catalog: Catalog) -> None:
    req = EstimateRequest(params=7e9, tokens=1e12, mode="inference", chips=64, batch=64, context=2048, **LLAMA_8B)
    result = estimate(req, catalog)
    for chip_id, days in WORKED_EXAMPLE.items():
        row = _row(result, chip_id)
        assert row.bound == "memory", chip_id
        assert row.days == pytest.approx(days, rel=0.25), (chip_id, row.days)
        assert (row.bw_share_low, row.bw_share_high) == (0.65, 0.80)
        if chip_id == "tpu-v6e":
            # 34.0 GB per copy (1.2 x 14 GB + 17.2 GB of KV cache) is over the 32 GB Google publishes:
            # 32 copies of 2 chips, each step at twice the bandwidth: the same tokens per second
            assert (row.chips_per_copy, row.copies) == (2, 32)
        else:
            assert row.fits is True and row.chips_per_copy == 1 and row.copies == 64
    # the order the audit expects: v6e well behind H100, TPU7x ahead of H200
    days = {cid: _row(result, cid).days for cid in WORKED_EXAMPLE}
    assert days["tpu7x"] < days["h200"] < days["h100-sxm"] < days["tpu-v6e"]


def test_decode_step_by_hand(catalog: Catalog) -> None:
    req = EstimateRequest(params=7e9, tokens=1e12, mode="inference", chips=64, batch=64, context=2048, **LLAMA_8B)
    result = estimate(req, catalog)
    h100 = _row(result, "h100-sxm")
    step_bytes = 2 * 7e9 + 64 * 2048 * 131_072  # weights + KV cache read once per step
    # at 0.725 of the nominal 3,350 GB/s: 31.18e9 B / 2.429e12 B/s = 12.84 ms a step
    step = step_bytes / (3350e9 * SHARE)
    assert step == pytest.approx(12.84e-3, rel=1e-3)
    assert "sources: ninfer-3090-decode" in (result.bw_share_source or "")
    compute = 64 * (2 * 7e9 + 4 * 32 * 2048 * 4096) / (989e12 * h100.mfu)
    assert compute < step  # memory-bound
    assert h100.step_seconds == pytest.approx(step)
    assert h100.tokens_per_second == pytest.approx(64 * 64 / step)
    assert h100.days == pytest.approx(1e12 / (64 * 64 / step) / 86_400)
    assert h100.decode_days == pytest.approx(h100.days) and h100.prefill_days == 0


def test_large_batch_short_context_turns_compute_bound(catalog: Catalog) -> None:
    req = EstimateRequest(params=7e9, tokens=1e12, mode="inference", chips=8, batch=1024, context=128)
    rows = estimate(req, catalog).rows
    assert _row(estimate(req, catalog), "h100-sxm").bound == "compute"
    assert {r.bound for r in rows if r.days is not None} <= {"compute", "memory"}
    # a compute-bound row has a time range from the MFU range; a memory-bound one does not
    h100 = _row(estimate(req, catalog), "h100-sxm")
    assert h100.days_low < h100.days < h100.days_high


def test_prefill_is_compute_bound_and_adds_to_the_time(catalog: Catalog) -> None:
    base = EstimateRequest(params=7e9, tokens=1e9, mode="inference", chips=8, batch=32, **LLAMA_8B)
    with_prompt = base.model_copy(update={"prompt_tokens": 4e9})
    a, b = _row(estimate(base, catalog), "h100-sxm"), _row(estimate(with_prompt, catalog), "h100-sxm")
    expected = 4e9 * (2 * 7e9 + 4 * 32 * 2048 * 4096) / (8 * 989e12 * b.mfu) / 86_400
    assert b.prefill_days == pytest.approx(expected)
    assert b.days == pytest.approx(a.days + expected)


def test_model_shape_defaults_and_overrides(catalog: Catalog) -> None:
    from gpu_tpu_app.core.estimate import model_shape

    seven = model_shape(EstimateRequest(params=7e9))
    # L = (7e9 / (12 x 128^2))^(1/3) = 32.9 -> 33; d = sqrt(7e9 / (12 x 33)) = 4,204 -> 4,096
    assert (seven.layers, seven.width, seven.heads, seven.kv_heads) == (33, 4096, 32, 8)
    assert seven.origin == "from the parameter count at width / layers = 128"
    wide = model_shape(EstimateRequest(params=7e9, aspect_ratio=256))
    # L = (7e9 / (12 x 256^2))^(1/3) = 20.7 -> 21; d = sqrt(7e9 / (12 x 21)) = 5,270 -> 5,120
    assert (wide.layers, wide.width) == (21, 5120) and "256" in wide.origin
    deep = model_shape(EstimateRequest(params=7e9, layers=64))
    assert deep.layers == 64 and deep.width == 3072 and deep.origin.startswith("given, the rest")
    own = model_shape(EstimateRequest(params=7e9, layers=32, width=4096, heads=32, kv_heads=32))
    assert own.kv_bytes_per_token == 4 * 131_072 and own.origin == "given"  # full multi-head KV cache: 4x
    fp8 = model_shape(EstimateRequest(params=7e9, dtype="float8", **LLAMA_8B))
    assert fp8.kv_bytes_per_token == 65_536
    with pytest.raises(ValidationError):
        EstimateRequest(params=7e9, heads=8, kv_heads=16)


def test_a_copy_too_big_for_the_chips_given_has_no_time(catalog: Catalog) -> None:
    req = EstimateRequest(params=70e9, tokens=1e9, mode="inference", chips=1, batch=8, **LLAMA_70B)
    h100 = _row(estimate(req, catalog), "h100-sxm")
    # 1.2 x 140 GB of weights + 8 x 2048 x 327,680 B of KV cache = 173.4 GB: TP 2 holds 86.7 GB a chip, over
    # 80; TP 4 (a power of two dividing the 64 heads and 8 KV heads) holds 43.4 GB: four H100s, not three
    assert h100.memory_needed_bytes == pytest.approx(1.2 * 140e9 + 8 * 2048 * 327_680)
    assert h100.chips_per_copy == 4 and h100.fits is False and h100.days is None
    assert any("one copy needs 4 chips" in w for w in h100.warnings)
    four = _row(estimate(req.model_copy(update={"chips": 4}), catalog), "h100-sxm")
    assert four.days is not None and four.copies == 1 and four.memory_available_bytes == 320e9
    assert four.per_chip_bytes == pytest.approx((1.2 * 140e9 + 8 * 2048 * 327_680) / 4) and four.fits is True
    assert not any("idle" in w for w in four.warnings) and four.layout == "TP 4"
    # six chips: TP 4 leaves 2 idle, TP 8 is more than six; one copy of four
    six = _row(estimate(req.model_copy(update={"chips": 6}), catalog), "h100-sxm")
    assert (six.tensor_parallel, six.copies) == (4, 1) and any("2 chips left idle" in w for w in six.warnings)


def test_warning_when_chips_exceed_the_largest_fast_link_group(catalog: Catalog) -> None:
    training = estimate(EstimateRequest(params=7e9, chips=512), catalog)
    v6e, tpu7x = _row(training, "tpu-v6e"), _row(training, "tpu7x")
    assert any("largest fast-link group of 256" in w for w in v6e.warnings)
    assert not tpu7x.warnings  # 512 of a 9,216-chip pod
    assert any("of 8" in w for w in _row(training, "h100-sxm").warnings)
    assert _row(training, "gb200-nvl72").warnings  # 512 > 72


def test_old_estimator_inputs_still_load() -> None:
    """Estimator inputs saved by the first version (no batch, context or shape) load with the defaults."""
    old = {"params": 7e9, "tokens": 1e12, "mode": "inference", "chips": 64, "mfu": None, "prices": {"h100-sxm": 2.5}}
    req = EstimateRequest.model_validate(old)
    assert req.batch is None and req.context is None and req.dtype == "bfloat16"
    assert estimate(req).batch == 1 and estimate(req).context == 2048


def test_cli_inference_json_has_bound_and_memory_per_copy(run_cli, catalog: Catalog) -> None:
    code, out, err = run_cli(
        "estimate",
        "--inference",
        "--params",
        "7e9",
        "--tokens",
        "1e12",
        "--chips",
        "64",
        "--batch",
        "64",
        "--context",
        "2048",
        "--layers",
        "32",
        "--width",
        "4096",
        "--heads",
        "32",
        "--kv-heads",
        "8",
        "--format",
        "json",
    )
    assert code == 0 and err == ""
    raw = json.loads(out)
    for row in raw["rows"]:
        assert {"bound", "memory_needed_bytes", "chips_per_copy", "days_low", "days_high"} <= set(row)
    parsed = Estimate.model_validate(raw)
    h100 = _row(parsed, "h100-sxm")
    assert h100.bound == "memory" and h100.chips_per_copy == 1
    assert h100.days == pytest.approx(WORKED_EXAMPLE["h100-sxm"], rel=0.25)


def test_cli_table_shows_inputs_bound_and_warnings(run_cli) -> None:
    code, out, _err = run_cli("estimate", "--params", "7e9", "--chips", "64")
    assert code == 0
    assert "training tokens (default: 20 per parameter, compute-optimal" in out
    assert "Warnings:" in out and "fast-link group" in out
    code, out, _err = run_cli("estimate", "--inference", "--params", "7B", "--tokens", "1e9", "--batch", "8")
    assert code == 0 and "batch 8 per model copy" in out and " memory " in out and "KV cache:" in out


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["--batch", "8"], "--batch"),  # training has no batch of sequences to decode
        (["--inference", "--tokens", "1e9", "--batch", "0"], "--batch"),
        (["--inference", "--tokens", "1e9", "--batch", "2.5"], "--batch"),
        (["--context", "-4"], "--context"),
        (["--heads", "8", "--kv-heads", "16"], "--kv-heads"),
        (["--width", "1000", "--heads", "3"], "--width"),
        (["--inference", "--tokens", "1e9", "--prompt-tokens", "-1"], "--prompt-tokens"),
    ],
)
def test_serving_flags_are_checked(run_cli, argv: list[str], flag: str) -> None:
    code, out, err = run_cli("estimate", "--params", "7e9", *argv)
    assert code == 2 and out == ""
    assert err.startswith(f"gpu-tpu-app: error: {flag}:") or f"{flag}:" in err
    assert len(err.strip().splitlines()) == 1


# ------------------------------------------------------------------ issue 19: MoE, shapes, activations, layout, fp32

#: Mixtral 8x7B as published (46.7B total, 12.9B active, 8 experts, top-2, 32 layers x 4,096, 32 heads, 8 KV heads)
MIXTRAL = {"params": 46.7e9, "active_params": 12.9e9, "experts": 8, "top_k": 2, **LLAMA_8B}


def test_moe_flops_from_active_memory_from_all(catalog: Catalog) -> None:
    req = EstimateRequest(tokens=1e12, chips=64, mfu=0.4, **MIXTRAL)
    result = estimate(req, catalog)
    # FLOPs per token: 6 x 12.9e9 + 12 x 32 x 2048 x 4096 = 7.74e10 + 3.221e9 = 8.062e10; x 1e12 tokens
    flops = (6 * 12.9e9 + 12 * 32 * 2048 * 4096) * 1e12
    assert result.flops == pytest.approx(flops) and flops == pytest.approx(8.062e22, rel=1e-3)
    dense = estimate(req.model_copy(update={"active_params": None, "experts": None, "top_k": None}), catalog)
    # counting all 46.7B: (6 x 46.7e9 + 3.221e9) / 8.062e10 = 2.834e11 / 8.062e10 = 3.52x too many FLOPs
    assert dense.flops / result.flops == pytest.approx(3.515, rel=1e-3)
    # memory: every expert's state, 16 x 46.7e9 = 747.2 GB, plus the activations (MLP part x top-2)
    h100 = _row(result, "h100-sxm")
    assert h100.memory_needed_bytes - h100.activation_bytes == pytest.approx(16 * 46.7e9)
    assert result.moe is not None
    # split: per expert (46.7 - 12.9) / (8 - 2) = 5.633B; shared 46.7 - 8 x 5.633 = 1.633B
    assert result.moe.per_expert == pytest.approx(5.6333e9, rel=1e-4)
    assert result.moe.shared == pytest.approx(1.6333e9, rel=1e-4)
    assert h100.days == pytest.approx(flops / (h100.copies * h100.chips_per_copy * 989e12 * 0.4) / 86_400)


def test_moe_decode_reads_the_routed_experts_more_at_larger_batch(catalog: Catalog) -> None:
    serve = {"mode": "inference", "tokens": 1e9, "chips": 8, **MIXTRAL}
    one = estimate(EstimateRequest(batch=1, **serve), catalog)
    four = estimate(EstimateRequest(batch=4, **serve), catalog)
    many = estimate(EstimateRequest(batch=64, **serve), catalog)
    assert one.moe and four.moe and many.moe
    # batch 1: the shared weights and 2 experts = the 12.9B active parameters
    assert one.moe.decode_params == pytest.approx(12.9e9)
    # batch 4: 8 x (1 - (6/8)^4) = 5.469 experts on average: 1.633B + 5.469 x 5.633B = 32.44B
    assert four.moe.decode_params == pytest.approx(1.6333e9 + 8 * (1 - 0.75**4) * 5.6333e9, rel=1e-4)
    assert four.moe.decode_params == pytest.approx(32.44e9, rel=1e-3)
    # batch 64: every expert, all 46.7B
    assert many.moe.decode_params == pytest.approx(46.7e9, rel=1e-6)
    h200 = _row(one, "h200")
    kv = 1 * 2048 * 131_072
    assert h200.step_seconds == pytest.approx((12.9e9 * 2 + kv) / (4800e9 * SHARE))
    # memory from all experts: 1.2 x 93.4 GB of weights + the KV cache
    assert h200.memory_needed_bytes == pytest.approx(1.2 * 2 * 46.7e9 + kv)


def test_moe_inputs_are_checked() -> None:
    with pytest.raises(ValidationError, match="active_params cannot exceed"):
        EstimateRequest(params=7e9, active_params=8e9)
    with pytest.raises(ValidationError, match="together"):
        EstimateRequest(params=47e9, active_params=13e9, experts=8)
    with pytest.raises(ValidationError, match="top_k must be fewer"):
        EstimateRequest(params=47e9, active_params=13e9, experts=8, top_k=8)
    with pytest.raises(ValidationError, match="shared weights cannot be negative"):
        EstimateRequest(params=47e9, active_params=5e9, experts=8, top_k=2)  # 5/47 < 2/8
    # without experts and top-k, a decode step reads at most batch x active
    moe = estimate(EstimateRequest(params=47e9, active_params=13e9, mode="inference", tokens=1e6, batch=2)).moe
    assert moe is not None and moe.decode_params == 26e9


def test_a_100m_model_takes_a_shape_of_its_size(catalog: Catalog) -> None:
    req = EstimateRequest(params=1e8, mfu=0.4)
    result = estimate(req, catalog)
    assert result.shape is not None
    # L = (1e8 / (12 x 128^2))^(1/3) = 7.98 -> 8 layers; d = sqrt(1e8 / 96) = 1,021 -> 1,024; 8 heads
    assert (result.shape.layers, result.shape.width, result.shape.heads) == (8, 1024, 8)
    # per token 6 x 1e8 + 12 x 8 x 2048 x 1024 = 6e8 + 2.013e8 = 8.013e8 FLOPs; D = 2e9 tokens
    per_token = 6 * 1e8 + 12 * 8 * 2048 * 1024
    assert result.flops == pytest.approx(per_token * 2e9) and per_token == pytest.approx(8.013e8, rel=1e-3)
    # the old default (the Llama 3 8B shape, 32 x 4,096) counted 6e8 + 3.221e9 = 3.82e9: 4.8x too slow
    assert (6e8 + 12 * 32 * 2048 * 4096) / per_token == pytest.approx(4.77, rel=0.01)
    h100 = _row(result, "h100-sxm")
    # 1.603e18 FLOPs / (989e12 x 0.4) = 4,051 s = 1.13 hours on one H100
    assert h100.days * 86_400 == pytest.approx(per_token * 2e9 / (989e12 * 0.4))
    assert h100.days * 24 == pytest.approx(1.125, rel=1e-3)


def test_activation_memory_with_and_without_checkpointing(catalog: Catalog) -> None:
    base = {"params": 7e9, "chips": 8, "context": 4096, **LLAMA_8B}
    sbh = 4096 * 4096  # one micro-batch of 1 sequence of 4,096 tokens at width 4,096
    expected = {
        # Korthikanti et al. 2022: s x b x h x (34 + 5 x a x s / h) per layer, a = 32 heads, but a flash attention
        # kernel keeps no scores (5 x a x s / h), so no recomputation keeps s x b x h x 34 like selective
        # each plus the loss's logits, 4,096 tokens x 128,256 vocabulary entries x 6 B = 3.15 GB
        "none": 32 * sbh * 34 + 4096 * 128_256 * 6,  # 18.3 + 3.15 GB (104.2 GB + 3.15 if the scores were kept)
        "selective": 32 * sbh * 34 + 4096 * 128_256 * 6,  # 21.4 GB
        "full": 32 * 2 * sbh + sbh * 34 + 4096 * 128_256 * 6,  # 1.07 GB + 0.57 GB + 3.15 GB
    }
    assert expected["none"] == pytest.approx(21.405e9, rel=1e-3)
    assert expected["full"] == pytest.approx(4.796e9, rel=1e-3)
    rows = {}
    for mode, acts in expected.items():
        h100 = _row(estimate(EstimateRequest(checkpointing=mode, **base), catalog), "h100-sxm")
        assert h100.activation_bytes == pytest.approx(acts), mode
        assert h100.memory_needed_bytes == pytest.approx(16 * 7e9 + acts), mode
        rows[mode] = h100
    # a chip gives a layout 80 x 0.95 - 1 = 75 GB. none and selective: 112 / p + 21.4 <= 75 needs p >= 2.09, and
    # the smallest such p dividing 8 is 4: FSDP 4, two copies; full: 112 / p + 4.8 <= 75 needs p >= 1.6: FSDP 2
    assert (rows["none"].tensor_parallel, rows["none"].shards, rows["none"].chips_per_copy) == (1, 4, 4)
    assert rows["selective"].chips_per_copy == 4 and rows["full"].chips_per_copy == 2
    # full checkpointing repeats the forward pass: (8 x 7e9 + 4 x att) / (6 x 7e9 + 3 x att) more time
    att = 4 * 32 * 4096 * 4096
    assert rows["full"].days / rows["selective"].days == pytest.approx(
        ((8 * 7e9 + 4 * att) / (6 * 7e9 + 3 * att)) / ((6 * 7e9 + 4 * att) / (6 * 7e9 + 3 * att))
    )
    auto = _row(estimate(EstimateRequest(**base), catalog), "h100-sxm")
    # the fastest on the 8 chips given: no recomputation, FSDP 4 (28 + 21.4 GB a chip), two copies
    assert (auto.checkpointing, auto.tensor_parallel, auto.shards, auto.copies) == ("none", 1, 4, 2)
    assert auto.days == pytest.approx(rows["none"].days)
    assert auto.days < rows["selective"].days


def test_405b_on_16384_h100_takes_the_fastest_layout_that_fits(catalog: Catalog) -> None:
    req = EstimateRequest(params=405e9, tokens=15.6e12, chips=16_384)
    result = estimate(req, catalog)
    assert result.shape is not None and (result.shape.layers, result.shape.width, result.shape.heads) == (
        127,
        16384,
        128,
    )
    h100 = _row(result, "h100-sxm")
    # state 16 x 405e9 = 6.48 TB. No recomputation (flash attention): 127 x 34 x 2048 x 16384 = 144.9 GB of
    # activations + 2048 x 128,256 x 6 = 1.58 GB of logits = 146.5 GB. A chip gives a layout 80 x 0.95 - 1 = 75 GB;
    # TP 2 puts 73.2 GB on a chip, leaving 1.77 GB: 6.48e12 / (2 x 1.77e9) = 1,833 shards at least, and the smallest
    # that divides 16384 / 2 = 8192 is 2048: TP 2 x FSDP 2048 = 4096 chips, 4 copies. TP 4 and TP 8 also keep all
    # 16,384 chips working with nothing recomputed; less tensor parallel wins the tie.
    acts = 127 * 34 * 2048 * 16384 + 2048 * 128_256 * 6
    assert 6.48e12 / (2 * (75e9 - acts / 2)) == pytest.approx(1832.6, rel=1e-3)
    assert (h100.tensor_parallel, h100.shards, h100.chips_per_copy) == (2, 2048, 4096)
    assert h100.checkpointing == "none" and h100.copies == 4
    assert h100.activation_bytes == pytest.approx(acts)
    assert h100.per_chip_bytes == pytest.approx(6.48e12 / 4096 + acts / 2)
    # Llama 3's own shape at its 8,192-token context: 126 x 34 x 8192 x 16384 = 575 GB of activations + 8192 x
    # 128,256 x 6 = 6.3 GB of logits, 72.7 GB a chip over TP 8 (TP 4 would need 145.3), so 6.48e12 / (8 x 2.34e9)
    # = 346.4 -> 512 shards (a divisor of 2048): TP 8 x FSDP 512 with nothing recomputed
    llama = EstimateRequest(
        params=405e9, tokens=15.6e12, chips=16_384, context=8192, layers=126, width=16384, heads=128, kv_heads=8
    )
    h100 = _row(estimate(llama, catalog), "h100-sxm")
    big = 126 * 34 * 8192 * 16384 + 8192 * 128_256 * 6
    assert 6.48e12 / (8 * (75e9 - big / 8)) == pytest.approx(346.4, rel=1e-3)
    assert (h100.tensor_parallel, h100.shards, h100.checkpointing) == (8, 512, "none")
    assert h100.activation_bytes == pytest.approx(big)
    assert h100.per_chip_bytes == pytest.approx(6.48e12 / 4096 + big / 8)


def test_strict_fp32_prices_tpus_at_three_to_six_bf16_passes(catalog: Catalog) -> None:
    req = EstimateRequest(params=1e9, chips=8, mfu=0.4, strict_fp32=True, **LLAMA_8B)
    result = estimate(req, catalog)
    v5p, h100 = _row(result, "tpu-v5p"), _row(result, "h100-sxm")
    # TPU: 459 TFLOP/s bf16 / 3 passes (fastest) to / 6 passes (precision=HIGHEST); middle / 4.5
    assert v5p.peak_flops == pytest.approx(459e12 / 4.5) and "3-6 bf16 passes" in (v5p.peak_dtype or "")
    assert v5p.days_low == pytest.approx(result.flops / (v5p.copies * v5p.chips_per_copy * 459e12 / 3 * 0.4) / 86_400)
    assert v5p.days_high == pytest.approx(result.flops / (v5p.copies * v5p.chips_per_copy * 459e12 / 6 * 0.4) / 86_400)
    # GPU: its FP32 peak (67 TFLOP/s on an H100), not TF32 or bf16
    assert h100.peak_flops == 67e12 and h100.peak_dtype == "float32"
    assert "jax-matmul-precision" in result.sources and result.fp32_note
    plain = _row(estimate(req.model_copy(update={"strict_fp32": False}), catalog), "tpu-v5p")
    assert plain.peak_flops == 459e12
    with pytest.raises(ValidationError, match="contradicts"):
        EstimateRequest(params=1e9, strict_fp32=True, dtype="int8")


def test_decode_share_is_shown_and_can_be_set(catalog: Catalog) -> None:
    req = EstimateRequest(params=7e9, tokens=1e9, mode="inference", **LLAMA_8B)
    result = estimate(req, catalog)
    h100 = _row(result, "h100-sxm")
    step = (2 * 7e9 + 2048 * 131_072) / 3350e9
    # memory-bound: the time runs from the high share (0.80) to the low one (0.65)
    assert h100.days_low < h100.days < h100.days_high
    assert h100.days_high / h100.days_low == pytest.approx(0.80 / 0.65)
    assert h100.step_seconds == pytest.approx(step / SHARE)
    assert "0.65-0.80 of nominal memory bandwidth" in (result.bw_share_source or "")
    own = _row(estimate(req.model_copy(update={"bw_share": 1.0}), catalog), "h100-sxm")
    assert own.step_seconds == pytest.approx(step) and own.days_low == own.days_high


def test_the_largest_inputs_stay_finite(catalog: Catalog) -> None:
    """Every bound at once (hostile but valid inputs) gives finite numbers or an honest no-fit, never inf/nan."""
    import math

    huge = EstimateRequest(
        params=1e15, tokens=1e18, chips=10_000_000, context=100_000_000, micro_batch=100_000, aspect_ratio=1
    )
    serve = EstimateRequest(
        params=1e15, active_params=1e14, experts=100_000, top_k=10_000, mode="inference", tokens=1e18,
        batch=1_000_000, context=100_000_000, chips=10_000_000,
    )  # fmt: skip
    for req in (huge, serve):
        result = estimate(req, catalog)
        assert math.isfinite(result.flops)
        for row in result.rows:
            for value in (row.days, row.memory_needed_bytes, row.activation_bytes, row.step_seconds):
                assert value is None or math.isfinite(value), row.chip_id
            assert row.fits in (True, False, None)


def test_chips_too_small_for_one_copy_are_one_note_not_a_line_each(catalog: Catalog) -> None:
    from gpu_tpu_app.core.estimate.text import estimate_warnings

    est = estimate(EstimateRequest(params=70e9, tokens=1e9, mode="inference", chips=1, batch=8, **LLAMA_70B), catalog)
    short = [row for row in est.rows if any(w.startswith("one copy needs") for w in row.warnings)]
    assert len(short) > 3 and all(row.days is None for row in short)  # a setup that does not fit has no time
    lines = estimate_warnings(est)
    notes = [ln for ln in lines if "cannot hold one copy" in ln]
    assert len(notes) == 1 and notes[0].startswith(
        f"{len(short)} of the chips cannot hold one copy on the 1 chip given"
    )
    assert all(row.chip_name in notes[0] for row in short)
    assert not any("one copy needs" in ln for ln in lines)
