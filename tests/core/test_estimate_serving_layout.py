"""Serving layouts as they are run (issue 32): tensor parallel in powers of two dividing the heads and KV heads
inside the fast-link group, copies = chips / copy size, pipeline stages only past the group, and "fits"
judged per chip of the copy; each figure against hand arithmetic written here."""

from __future__ import annotations

import pytest

from gpu_tpu_app.core.catalog import Catalog, load_catalog
from gpu_tpu_app.core.estimate import EstimateRequest, estimate
from gpu_tpu_app.core.estimate.layout import serving_tensor_limit
from tests.core.test_estimate import LLAMA_70B, _row


@pytest.fixture
def catalog() -> Catalog:
    return load_catalog()


#: 70B at batch 1, context 2048: 1.2 x 140 GB of weights and buffers + 2048 x (2 x 80 x 8 x 128 x 2 B) of KV cache
COPY_70B = 1.2 * 140e9 + 2048 * 2 * 80 * 8 * 128 * 2  # 168.67 GB


def test_tensor_parallel_divides_heads_and_kv_heads_within_the_group() -> None:
    assert serving_tensor_limit(8, 64, 8) == 8
    assert serving_tensor_limit(8, 40, 8) == 8  # 40 heads, 8 KV heads: 8 divides both
    assert serving_tensor_limit(8, 12, 4) == 4  # 8 does not divide 12
    assert serving_tensor_limit(2, 64, 8) == 2  # a bridged pair
    assert serving_tensor_limit(256, 64, 8) == 8  # the KV heads bound it on a TPU slice
    assert serving_tensor_limit(None, 64, 8) == 1  # no fast-link group known


def test_70b_on_8_h100_is_tp4_times_two_copies(catalog: Catalog) -> None:
    req = EstimateRequest(params=70e9, tokens=1e9, mode="inference", chips=8, **LLAMA_70B)
    h100 = _row(estimate(req, catalog), "h100-sxm")
    # TP 2 holds 84.3 GB a chip (over 80); TP 4 holds 42.2 GB: two copies of four, nothing idle
    assert COPY_70B / 2 > 80e9 >= COPY_70B / 4
    assert (h100.tensor_parallel, h100.pipeline_stages, h100.chips_per_copy, h100.copies) == (4, 1, 4, 2)
    assert h100.layout == "TP 4 x DP 2" and not h100.warnings
    assert h100.layout_why is not None and h100.layout_why.endswith("TP 4, 42.2 GB of 80 GB a chip")
    assert h100.per_chip_bytes == pytest.approx(COPY_70B / 4) and h100.fits is True
    assert h100.memory_needed_bytes == pytest.approx(COPY_70B)  # per copy, as before
    # the old layout (the fewest chips: ceil(168.7 / 80) = 3 a copy, 2 copies, 2 idle) had 3/4 of this rate:
    # decode is bandwidth-bound, a step reads the copy's bytes over its chips' bandwidth
    share = (h100.bw_share_low + h100.bw_share_high) / 2
    step_bytes = 140e9 + 2048 * 2 * 80 * 8 * 128 * 2
    assert h100.step_seconds == pytest.approx(step_bytes / (4 * 3.35e12 * share))
    old_rate = 2 * 1 / (step_bytes / (3 * 3.35e12 * share))
    assert h100.tokens_per_second / old_rate == pytest.approx(4 / 3)


def test_70b_on_a_v6e_8_is_one_tp8_copy(catalog: Catalog) -> None:
    req = EstimateRequest(params=70e9, tokens=1e9, mode="inference", chips=8, **LLAMA_70B)
    v6e = _row(estimate(req, catalog), "tpu-v6e")
    # 32 GB a chip: TP 4 holds 42.2 GB (over), TP 8 holds 21.1 GB: one copy on all eight chips (not 6 + 2 idle)
    assert COPY_70B / 4 > 32e9 >= COPY_70B / 8
    assert (v6e.tensor_parallel, v6e.chips_per_copy, v6e.copies) == (8, 8, 1)
    assert v6e.fits is True and v6e.per_chip_bytes == pytest.approx(COPY_70B / 8) and not v6e.warnings


def test_past_the_fast_link_group_a_copy_adds_pipeline_stages(catalog: Catalog) -> None:
    req = EstimateRequest(
        params=405e9, tokens=1e9, mode="inference", chips=16, layers=126, width=16384, heads=128, kv_heads=8
    )
    h100 = _row(estimate(req, catalog), "h100-sxm")
    # 1.2 x 810 GB + 2048 x (2 x 126 x 8 x 128 x 2 B) = 973.1 GB; TP 8 holds 121.6 GB a chip (over 80), so two
    # stages of TP 8: 16 chips, 60.8 GB each
    copy = 1.2 * 810e9 + 2048 * 2 * 126 * 8 * 128 * 2
    assert (h100.tensor_parallel, h100.pipeline_stages, h100.chips_per_copy, h100.copies) == (8, 2, 16, 1)
    assert h100.per_chip_bytes == pytest.approx(copy / 16) and h100.fits is True
    assert h100.layout == "TP 8 x PP 2"
    assert any("more than the largest fast-link group of 8" in w for w in h100.warnings)


def test_a_multi_chip_copy_that_fits_each_chip_fits(catalog: Catalog) -> None:
    """The old check compared a copy's whole need with one chip's memory: every multi-chip copy 'did not fit'."""
    req = EstimateRequest(params=70e9, tokens=1e9, mode="inference", chips=8, **LLAMA_70B)
    for row in estimate(req, catalog).rows:
        if row.chips_per_copy and row.chips_per_copy > 1 and row.copies and row.chip_memory_bytes:
            assert row.per_chip_bytes is not None and row.per_chip_bytes <= row.chip_memory_bytes, row.chip_id
            assert row.fits is True and (row.days is not None or row.peak_flops is None), row.chip_id
