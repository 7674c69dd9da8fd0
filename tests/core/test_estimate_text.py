"""An estimate row in words (core.estimate_text): kind, peak, fit and cost in one set of words."""

from __future__ import annotations

from gpu_tpu_app.core.estimate import EstimateRequest, estimate
from gpu_tpu_app.core.estimate.text import estimate_cells
from gpu_tpu_app.shared.units import MISSING


def test_estimate_cells_say_kind_peak_fit_and_cost_in_one_set_of_words() -> None:
    est = estimate(EstimateRequest(params=7e9, tokens=1.4e11, chips=64, mfu=0.4, prices={"h100-sxm": 2.5}))
    h100 = next(r for r in est.rows if r.chip_id == "h100-sxm")
    cells = estimate_cells(h100)
    # 6ND plus the attention term (12 x L x c x d x D) at the default shape (33 layers x 4,096):
    # (4.2e10 + 3.322e9) x 1.4e11 = 6.345e21 FLOPs / (64 x 989e12 x 0.4) = 2.506e5 s = 2.9 days
    assert cells.kind == "GPU" and cells.time == "2.9 days" and cells.fits == "fits"
    # 112 GB of state + 33 x 34 x 2048 x 4096 = 9.4 GB of activations: FSDP 2 (56 + 9.4 GB a chip), 32 copies
    assert cells.bound == "compute" and cells.chips_per_copy == "2" and cells.mfu == "0.40"
    ranged = estimate_cells(
        next(r for r in estimate(EstimateRequest(params=7e9, chips=64)).rows if r.chip_id == "h100-sxm")
    )
    assert ranged.mfu == "0.38-0.48" and " - " in ranged.time
    assert cells.peak.endswith(f"TFLOP/s {h100.peak_dtype}")
    assert cells.cost.startswith("$")
    tpu = next(r for r in est.rows if r.family == "tpu")
    assert estimate_cells(tpu).kind == "TPU" and estimate_cells(tpu).cost == ""
    unknown = h100.model_copy(update={"fits": None, "peak_flops": None})
    assert estimate_cells(unknown).fits == MISSING and estimate_cells(unknown).peak == MISSING


def test_cost_is_a_range_where_time_is() -> None:
    from gpu_tpu_app.core.catalog import load_catalog
    from gpu_tpu_app.core.estimate import EstimateRequest, estimate
    from gpu_tpu_app.core.estimate.text import time_range

    est = estimate(EstimateRequest(params=7e9, chips=8, prices={"h100-sxm": 3.0}), load_catalog())
    [row] = [r for r in est.rows if r.chip_id == "h100-sxm"]
    cells = estimate_cells(row)
    assert " - " in time_range(row.days_low, row.days, row.days_high)
    low, high = cells.cost.split(" - ")
    assert float(low.strip("$").replace(",", "")) < row.cost_usd < float(high.strip("$").replace(",", ""))
