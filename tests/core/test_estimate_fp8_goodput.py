"""FP8 where the chip has a faster FP8 rate, the mixture-of-experts MFU derate and goodput (issue 32), each
against hand arithmetic written here."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from gpu_tpu_app.core.catalog import Catalog, load_catalog
from gpu_tpu_app.core.estimate import EstimateRequest, estimate
from tests.core.test_estimate import _row


@pytest.fixture
def catalog() -> Catalog:
    return load_catalog()


def test_float8_training_uses_the_fp8_peak_where_it_is_faster(catalog: Catalog) -> None:
    req = EstimateRequest(params=8e9, tokens=1e12, chips=8, mfu=0.4, dtype="float8")
    result = estimate(req, catalog)
    h100, v6e, a100 = (_row(result, c) for c in ("h100-sxm", "tpu-v6e", "a100-80gb"))
    # H100: 1,979 TFLOP/s dense FP8 against 989 bf16: the time halves
    assert (h100.peak_flops, h100.peak_dtype) == (1979e12, "float8")
    assert h100.days * 86400 == pytest.approx(result.flops / (8 * 1979e12 * 0.4))
    bf16 = _row(estimate(req.model_copy(update={"dtype": "bfloat16"}), catalog), "h100-sxm")
    assert bf16.days / h100.days == pytest.approx(1979 / 989)
    # v6e publishes FP8 at its bf16 rate (918): no speed-up, said in the row
    assert (v6e.peak_flops, v6e.peak_dtype) == (918e12, "bfloat16")
    assert any("no FP8 speed-up on this chip" in w for w in v6e.warnings)
    # A100 has no FP8 rate at all
    assert a100.peak_dtype == "bfloat16" and any("no FP8 rate catalogued" in w for w in a100.warnings)
    assert "nvidia-h100" in result.sources
    # serving at float8: 1 byte a weight, and the prefill at the FP8 peak
    serve = EstimateRequest(params=8e9, tokens=1e6, prompt_tokens=1e6, mode="inference", mfu=0.4, dtype="float8")
    row = _row(estimate(serve, catalog), "h100-sxm")
    assert row.peak_flops == 1979e12 and row.memory_needed_bytes > 1.2 * 8e9


def test_training_dtype_is_bfloat16_or_float8(run_cli) -> None:
    with pytest.raises(ValidationError, match="bfloat16 or float8"):
        EstimateRequest(params=8e9, dtype="int8")
    code, _out, err = run_cli("estimate", "--params", "8B", "--dtype", "int8")
    assert code != 0 and "--dtype: training runs in bfloat16 or float8, not int8" in err


def test_mixture_of_experts_takes_the_megatron_core_derate(catalog: Catalog) -> None:
    moe = EstimateRequest(params=46.7e9, active_params=12.9e9, experts=8, top_k=2, tokens=1e12, chips=64)
    result = estimate(moe, catalog)
    h100 = _row(result, "h100-sxm")
    # the dense H100 range 0.38-0.48; the low end times 39.0 / 49.3 = 0.791 (Liu et al. 2025): 0.301-0.48
    assert h100.mfu_low == pytest.approx(0.38 * 39.0 / 49.3) and h100.mfu_high == pytest.approx(0.48)
    assert "liu-2025-moe-folding" in result.sources and "0.79" in h100.mfu_source
    # the user's MFU wins over any derate
    mine = _row(estimate(moe.model_copy(update={"mfu": 0.4}), catalog), "h100-sxm")
    assert mine.mfu_low == mine.mfu_high == 0.4
    dense = _row(estimate(EstimateRequest(params=12.9e9, tokens=1e12, chips=64), catalog), "h100-sxm")
    assert (dense.mfu_low, dense.mfu_high) == (0.38, 0.48)


def test_goodput_scales_time_and_cost_and_spot_takes_its_default(catalog: Catalog) -> None:
    base = EstimateRequest(params=8e9, tokens=1e12, chips=8, mfu=0.4, prices={"h100-sxm": 3.0})
    full = _row(estimate(base, catalog), "h100-sxm")
    half = estimate(base.model_copy(update={"goodput": 0.8}), catalog)
    row = _row(half, "h100-sxm")
    assert row.days == pytest.approx(full.days / 0.8)
    assert row.cost_usd == pytest.approx(full.days / 0.8 * 24 * 8 * 3.0)
    # spot: 1 - 25/360 = 0.9306 on top of the goodput
    assert half.spot_goodput == pytest.approx(0.8 * (1 - 25 / 360))
    assert row.spot_days == pytest.approx(full.days / (0.8 * (1 - 25 / 360)))
    if row.spot_price is not None:
        assert row.spot_cost_usd == pytest.approx(row.spot_days * 24 * 8 * row.spot_price.usd)
    assert half.goodput_note is not None and "1 - 25/360 = 0.93" in half.goodput_note
    mine = estimate(base.model_copy(update={"spot_goodput": 0.5}), catalog)
    assert mine.spot_goodput == 0.5 and _row(mine, "h100-sxm").spot_days == pytest.approx(full.days / 0.5)


def test_cli_goodput_flags(run_cli) -> None:
    code, out, err = run_cli("estimate", "--params", "8B", "--tokens", "1e12", "--goodput", "0.9")
    assert code == 0 and "Goodput 0.9, set by the user" in out
    code, out, err = run_cli("estimate", "--params", "8B", "--tokens", "1e12")
    assert code == 0 and "Goodput" not in out and "1 - 25/360 = 0.93" in out  # the spot default, in the cost rule
    code, _out, err = run_cli("estimate", "--params", "8B", "--goodput", "1.5")
    assert code != 0 and "--goodput: must be in (0, 1]" in err


def test_float8_training_without_a_stated_mfu_gains_1_25_to_1_5x_not_the_peaks_2x(catalog: Catalog) -> None:
    req = EstimateRequest(params=8e9, tokens=1e12, chips=8, dtype="float8")
    result = estimate(req, catalog)
    h100 = _row(result, "h100-sxm")
    bf16 = _row(estimate(req.model_copy(update={"dtype": "bfloat16"}), catalog), "h100-sxm")
    # torchao float8 on H100: 1.25x end to end at 8B / 8 GPUs, up to 1.5x at 405B. The bf16 range 0.38-0.48 is
    # scaled by gain x bf16 peak / FP8 peak (1.25 x 989 / 1979 = 0.625): 0.38 x 1.25 x 989 / 1979 = 0.2374, 0.48 x 1.5 x 989 / 1979 = 0.3598
    assert h100.mfu_low == pytest.approx(0.38 * 1.25 * 989 / 1979)
    assert h100.mfu_high == pytest.approx(0.48 * 1.5 * 989 / 1979)
    # so the slow end (low MFU) is the bf16 slow end over 1.25 and the fast end the bf16 fast end over 1.5
    assert bf16.days_high / h100.days_high == pytest.approx(1.25)
    assert bf16.days_low / h100.days_low == pytest.approx(1.5)
    assert "torchao-float8-2025" in result.sources
    assert "0.625" in h100.mfu_source and "1.25-1.5x" in h100.mfu_source
    # a chip whose FP8 rate is its bf16 rate keeps the bf16 range, without the FP8 source's words
    v6e = _row(result, "tpu-v6e")
    assert "FP8 peak scaled" not in v6e.mfu_source
