"""The estimator: FLOPs and time rules, memory fit, cost, measured rows, and the `estimate` command."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from pydantic import ValidationError

from gpu_tpu_app.core.catalog import Catalog, load_catalog
from gpu_tpu_app.core.estimate import (
    Estimate,
    EstimateRequest,
    MeasuredDevice,
    estimate,
    measured_from_run,
    parse_quantity,
)
from gpu_tpu_app.errors import InputError


@pytest.fixture
def catalog() -> Catalog:
    return load_catalog()


def _row(result: Estimate, chip_id: str):
    return next(row for row in result.rows if row.chip_id == chip_id)


#: the Llama 3 8B shape (The Llama 3 Herd of Models, Table 3), given explicitly where a test's
#: arithmetic is about something else than the default shape.
LLAMA_8B = {"layers": 32, "width": 4096, "heads": 32, "kv_heads": 8}
LLAMA_70B = {"layers": 80, "width": 8192, "heads": 64, "kv_heads": 8}
#: the middle of the catalogue's measured decode share of bandwidth (0.65-0.80)
SHARE = (0.65 + 0.80) / 2


# ------------------------------------------------------------------ time


def test_training_time_by_hand(catalog: Catalog) -> None:
    req = EstimateRequest(params=7e9, tokens=1.4e11, chips=64, mfu=0.4, **LLAMA_8B)
    result = estimate(req, catalog)
    # the Llama 3 8B shape: 32 layers, width 4096; context 2048 by default.
    # per token 6 x 7e9 + 12 x 32 x 2048 x 4096 = 4.2e10 + 3.221225472e9 = 4.5221225472e10;
    # x 1.4e11 tokens = 6.33097e21 FLOPs (5.88e21 for 6ND alone, +7.7% attention).
    flops = (6 * 7e9 + 12 * 32 * 2048 * 4096) * 1.4e11
    assert result.flops == pytest.approx(flops, rel=1e-12)
    assert result.flops == pytest.approx(6.33097e21, rel=1e-5)
    h100 = _row(result, "h100-sxm")
    assert h100.peak_flops == 989e12 and h100.mfu == 0.4 and h100.bound == "compute"
    # one copy: 112 GB of state + 30.6 GB of activations (no recomputation) over TP 2: 32 copies of 2
    assert (h100.chips_per_copy, h100.copies, h100.checkpointing) == (2, 32, "none")
    assert h100.days == pytest.approx(flops / (64 * 989e12 * 0.4) / 86_400, rel=1e-12)
    assert h100.days_low == h100.days_high == h100.days  # one MFU set by the user: no range
    v5p = _row(result, "tpu-v5p")
    assert v5p.days == pytest.approx(flops / (64 * 459e12 * 0.4) / 86_400, rel=1e-12)
    assert all(row.mfu_source == "set by the user" for row in result.rows)
    assert "attention" in result.rule and "12 x L x c x d" in result.rule


def test_default_tokens_are_twenty_per_parameter(catalog: Catalog) -> None:
    result = estimate(EstimateRequest(params=1e9), catalog)
    assert result.tokens == 2e10 and result.tokens_default is True
    # 1B at width / layers = 128: L = (1e9 / (12 x 128^2))^(1/3) = 17.2 -> 17 layers,
    # d = sqrt(1e9 / (12 x 17)) = 2,214 -> 2,048 (a multiple of 8 heads of 128)
    assert result.shape is not None and (result.shape.layers, result.shape.width) == (17, 2048)
    assert result.flops == pytest.approx((6 * 1e9 + 12 * 17 * 2048 * 2048) * 2e10)
    assert estimate(EstimateRequest(params=1e9, tokens=2e10), catalog).tokens_default is False
    assert "20 x N" in result.rule and "6 x N x D" in result.rule
    assert {"eleuther-transformer-math", "hoffmann-2022"} <= set(result.sources)


def test_default_mfu_is_a_range_per_chip_with_sources(catalog: Catalog) -> None:
    result = estimate(EstimateRequest(params=1e9), catalog)
    for row in (r for r in result.rows if r.days is not None):
        low, high, text, sources = catalog.mfu_for(catalog.chip(row.chip_id))
        assert (row.mfu_low, row.mfu_high) == (low, high) and row.mfu == pytest.approx((low + high) / 2)
        assert row.mfu_source == text and all(sid in text for sid in sources)
        # the time runs from the high-MFU end to the low-MFU end
        assert row.days_low <= row.days <= row.days_high
    assert {"palm-2022", "maxtext-tiering", "megatron-lm", "llama3-2024", "ml-engineering-mamf"} <= set(result.sources)
    assert set(result.sources) <= {s.id for s in catalog.sources}
    b200 = _row(result, "b200")
    flops = (6 * 1e9 + 12 * 17 * 2048 * 2048) * 2e10
    assert b200.chips_per_copy == 1 and b200.checkpointing == "none"  # 16 GB + 8.1 GB of activations
    assert b200.days_high == pytest.approx(flops / (2250e12 * 0.37) / 86_400)
    assert b200.days_low == pytest.approx(flops / (2250e12 * 0.47) / 86_400)


def test_efficiency_is_compared_fairly(catalog: Catalog) -> None:
    """Same evidence for both families: no TPU head start, and MI300X's low matmul share shows."""
    result = estimate(EstimateRequest(params=70e9, chips=512), catalog)
    h100, mi300x = _row(result, "h100-sxm"), _row(result, "mi300x")
    assert mi300x.days > h100.days  # 1,307 peak x 0.24-0.31 < 989 x 0.38-0.48
    assert catalog.mfu["tpu"].value / catalog.mfu["gpu"].value < 1.05


def test_inference_flops_and_tokens_required(catalog: Catalog) -> None:
    result = estimate(EstimateRequest(params=7e9, tokens=1e9, mode="inference", **LLAMA_8B), catalog)
    assert result.flops == pytest.approx((2 * 7e9 + 4 * 32 * 2048 * 4096) * 1e9)
    assert "memory bandwidth" in result.rule and "prefill" in result.rule
    with pytest.raises(ValidationError, match="tokens"):
        EstimateRequest(params=7e9, mode="inference")


def test_rows_fastest_first_and_unknown_peaks_last(catalog: Catalog) -> None:
    result = estimate(EstimateRequest(params=1e9, chips=8), catalog)
    days = [row.days for row in result.rows if row.days is not None]
    assert days == sorted(days)
    timed = len(days)
    assert all(row.days is None for row in result.rows[timed:])
    # A chip with neither a bf16 nor an fp16 figure (the A10G, the RTX PRO 6000: not published) gets no
    # time and goes last; so does one whose copy needs more chips than given.
    untimed = {row.chip_id for row in result.rows[timed:]}
    assert untimed == {"a10g", "rtx-pro-6000"}
    assert all(_row(result, cid).peak_flops is None for cid in untimed)
    one = estimate(EstimateRequest(params=1e9, chips=1), catalog)
    t4 = _row(one, "t4")  # 16 GB of state + 8.1 GB of activations need 2 T4s
    assert t4.chips_per_copy == 2 and t4.days is None and t4.fits is False


def test_chip_without_bf16_uses_its_fp16_peak(catalog: Catalog) -> None:
    t4 = _row(estimate(EstimateRequest(params=1e9), catalog), "t4")
    assert t4.peak_dtype == "float16" and t4.peak_flops == 65e12
    assert _row(estimate(EstimateRequest(params=1e9), catalog), "h100-sxm").peak_dtype == "bfloat16"


# ------------------------------------------------------------------ memory


def test_training_memory_is_state_plus_activations(catalog: Catalog) -> None:
    req = EstimateRequest(params=4e9, chips=8, checkpointing="full", **LLAMA_8B)
    h100 = _row(estimate(req, catalog), "h100-sxm")
    # state 16 x 4e9 = 64 GB; full checkpointing keeps each layer's input, 2 x s x h bytes:
    # 32 x 2 x 2048 x 4096 = 0.537 GB, plus one layer's working set while it is recomputed,
    # 2048 x 4096 x (34 + 5 x 32 x 2048 / 4096) = 0.956 GB: 1.493 GB in all, 65.49 GB per copy.
    acts = 32 * 2 * 2048 * 4096 + 2048 * 4096 * (34 + 5 * 32 * 2048 / 4096)
    assert h100.activation_bytes == pytest.approx(acts) and acts == pytest.approx(1.493e9, rel=1e-3)
    assert h100.memory_needed_bytes == pytest.approx(64e9 + acts)
    assert h100.chips_per_copy == 1 and h100.fits is True
    assert "16 bytes per parameter" in estimate(req, catalog).memory_rule


def test_fit_scales_with_chip_count_and_converts_gib_once(catalog: Catalog) -> None:
    req = EstimateRequest(params=70e9, chips=16, **LLAMA_70B)
    h100 = _row(estimate(req, catalog), "h100-sxm")
    # 1.12 TB of state; selective recomputation keeps 80 x 34 x 2048 x 8192 = 45.6 GB of activations:
    # TP 8 puts 5.7 GB of them on a chip, so 1.12e12 / (8 x 74.3e9) = 1.88 -> 2 groups: 16 chips
    assert (h100.tensor_parallel, h100.shards, h100.checkpointing) == (8, 2, "selective")
    assert h100.activation_bytes == pytest.approx(80 * 34 * 2048 * 8192)
    assert h100.fits is True and h100.memory_available_bytes == 16 * 80e9
    fifteen = _row(estimate(req.model_copy(update={"chips": 15}), catalog), "h100-sxm")
    assert fifteen.fits is False and fifteen.days is None
    assert any("one copy needs 16 chips" in w for w in fifteen.warnings)
    # TPU7x memory is published as 192 GiB: 206.2e9 bytes, converted once
    assert _row(estimate(req, catalog), "tpu7x").chip_memory_bytes == 192 * 2**30


def test_serving_memory_is_weights_plus_kv_cache_per_copy(catalog: Catalog) -> None:
    result = estimate(EstimateRequest(params=7e9, tokens=1e6, mode="inference", **LLAMA_8B), catalog)
    # batch 1, context 2048: 14e9 B of weights + 2048 x 131,072 B of KV cache
    kv_per_token = 2 * 32 * 8 * 128 * 2
    assert result.shape is not None and result.shape.kv_bytes_per_token == kv_per_token == 131_072
    needed = 1.2 * 2 * 7e9 + 2048 * kv_per_token  # 16.8 GB of weights and buffers + 0.27 GB KV
    t4 = _row(result, "t4")
    assert t4.memory_needed_bytes == pytest.approx(needed)
    # a 7B bf16 model does not fit a 16 GB T4: one copy is split over two
    assert t4.fits is False and t4.chips_per_copy == 2
    assert _row(result, "l4").fits is True and _row(result, "l4").chips_per_copy == 1
    assert "1.2 x weight bytes" in result.memory_rule and "KV cache" in result.memory_rule


# ------------------------------------------------------------------ cost


def test_cost_only_for_priced_chips(catalog: Catalog) -> None:
    unpriced = estimate(EstimateRequest(params=7e9, chips=8), catalog)
    assert all(row.cost_usd is None for row in unpriced.rows)
    priced = estimate(EstimateRequest(params=7e9, chips=8, prices={"h100-sxm": 2.0}), catalog)
    h100 = _row(priced, "h100-sxm")
    assert h100.cost_usd == pytest.approx(h100.days * 24 * 8 * 2.0)
    assert [row.chip_id for row in priced.rows if row.cost_usd is not None] == ["h100-sxm"]


def test_price_for_unknown_chip_is_an_input_error(catalog: Catalog) -> None:
    with pytest.raises(InputError, match="unknown chip id 'h900'"):
        estimate(EstimateRequest(params=7e9, prices={"h900": 1.0}), catalog)
    with pytest.raises(ValidationError):
        EstimateRequest(params=7e9, prices={"h100-sxm": -1.0})


@pytest.mark.parametrize(
    "bad",
    [
        {"params": 0},
        {"params": -1e9},
        {"params": 1e9, "mfu": 0},
        {"params": 1e9, "mfu": 1.2},
        {"params": 1e9, "chips": 0},
        {"params": 1e9, "tokens": -5},
        {"params": float("nan")},
    ],
)
def test_request_rejects_bad_values(bad: dict) -> None:
    with pytest.raises(ValidationError):
        EstimateRequest(**bad)


# ------------------------------------------------------------------ measured devices


def test_measured_device_row_uses_its_throughput_directly(catalog: Catalog) -> None:
    device = MeasuredDevice(name="Test CPU", flops=2e12, memory_bytes=64e9, key="torch:cpu:0")
    result = estimate(EstimateRequest(params=1e9, chips=2, mfu=0.3), catalog, [device])
    row = _row(result, "measured:torch:cpu:0")
    assert row.family == "measured" and row.mfu == 1.0
    assert row.mfu_source.startswith("measured matmul on this machine")
    assert row.days == pytest.approx(result.flops / (2 * 2e12) / 86_400)
    assert row.memory_available_bytes == 64e9 and row.fits is True  # one copy fits the 64 GB device
    assert row.copies == 2
    assert row.cost_usd is None
    timed = [r.days for r in result.rows if r.days is not None]
    assert timed == sorted(timed)


def test_measured_from_run_takes_the_best_ok_matmul() -> None:
    runs = pytest.importorskip("gpu_tpu_app.core.runs")
    run = runs.RunFile.model_validate(
        {
            "app_version": "0.1.0",
            "host": "box",
            "os": "Linux",
            "python": "3.11",
            "suite": "quick",
            "started": datetime(2025, 1, 1, tzinfo=UTC).isoformat(),
            "devices": [{"backend": "torch", "platform": "cpu", "name": "Some CPU", "memory_bytes": 8_000_000_000}],
            "results": [
                {
                    "kernel": "matmul",
                    "backend": "torch",
                    "device": "torch:cpu:0",
                    "dtype": "float32",
                    "size": 512,
                    "metric": "flops",
                    "value": 1.0e11,
                    "status": "ok",
                },
                {
                    "kernel": "matmul",
                    "backend": "torch",
                    "device": "torch:cpu:0",
                    "dtype": "float32",
                    "size": 2048,
                    "metric": "flops",
                    "value": 3.0e11,
                    "status": "ok",
                },
                {
                    "kernel": "matmul",
                    "backend": "torch",
                    "device": "torch:cpu:0",
                    "dtype": "bfloat16",
                    "size": 2048,
                    "metric": "flops",
                    "value": 9.0e14,
                    "status": "suspect",
                },
                {
                    "kernel": "triad",
                    "backend": "torch",
                    "device": "torch:cpu:0",
                    "dtype": "float32",
                    "size": 2048,
                    "metric": "bytes_per_s",
                    "value": 5.0e12,
                    "status": "ok",
                },
            ],
        }
    )
    (device,) = measured_from_run(run)
    assert device.flops == 3.0e11 and device.name == "Some CPU" and device.key == "torch:cpu:0"
    assert device.memory_bytes == 8e9 and device.host == "box"


# ------------------------------------------------------------------ formatting helpers


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("7e9", 7e9),
        ("7B", 7e9),
        ("7b", 7e9),
        ("70M", 7e7),
        ("1.4T", 1.4e12),
        ("1.4e11", 1.4e11),
        ("7,000,000", 7e6),
        ("7_000", 7e3),
        ("1.5k", 1500.0),
        (" 13B ", 13e9),
        ("-5", -5.0),
    ],
)
def test_parse_quantity(text: str, value: float) -> None:
    assert parse_quantity(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["", "abc", "7X", "7BB", "B7", "inf", "1e999"])
def test_parse_quantity_rejects(text: str) -> None:
    with pytest.raises(ValueError):
        parse_quantity(text)


# ------------------------------------------------------------------ command


def test_estimate_table(run_cli, catalog: Catalog) -> None:
    shape = ["--layers", "32", "--width", "4096", "--heads", "32", "--kv-heads", "8"]
    code, out, err = run_cli(
        "estimate", "--params", "7e9", "--tokens", "1.4e11", "--chips", "64", "--mfu", "0.4", *shape
    )
    assert code == 0 and err == ""
    assert "6.33 × 10²¹ FLOPs" in out and "64 chips" in out
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("chip "))
    body = lines[header + 2 : header + 2 + len(catalog.chips)]
    expected = estimate(EstimateRequest(params=7e9, tokens=1.4e11, chips=64, mfu=0.4, **LLAMA_8B), catalog)
    assert [line.split("  ")[0] for line in body] == [row.chip_name for row in expected.rows]
    h100 = next(line for line in body if line.startswith("NVIDIA H100 SXM"))
    assert "2.89 days" in h100 and " fits" in h100 and " compute " in h100
    # costs come from the shipped price table by default, each with its source and date
    assert lines[header].rstrip().endswith("$/chip-h  cost     spot cost")
    assert "$" in h100
    assert "h100-sxm: on-demand $" in out and "(shipped table, read 20" in out
    unpriced = next(line for line in body if line.startswith("NVIDIA B300"))
    assert "$" not in unpriced  # no public list price is shipped for it
    assert "No price for " in out and "--price CHIP=USD" in out  # says how to get a cost


def test_estimate_table_with_price_and_units(run_cli) -> None:
    code, out, _err = run_cli(
        "estimate", "--params", "7B", "--chips", "8", "--price", "h100-sxm=2.5", "--price", "TPU-V5P=4"
    )
    assert code == 0
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("chip "))
    assert header.rstrip().endswith("spot cost")
    assert "$2.50" in next(line for line in lines if line.startswith("NVIDIA H100 SXM"))
    assert "$4.00" in next(line for line in lines if line.startswith("Google TPU v5p"))
    assert "$" not in next(line for line in lines if line.startswith("NVIDIA B300"))
    assert "h100-sxm: $2.50/chip-hour (your price, which wins over every table)" in out


def test_estimate_json_is_the_estimate_model(run_cli, catalog: Catalog) -> None:
    code, out, _err = run_cli("estimate", "--params", "70M", "--inference", "--tokens", "1e9", "--format", "json")
    assert code == 0
    parsed = Estimate.model_validate(json.loads(out))
    assert parsed.request.mode == "inference" and parsed.request.params == 7e7
    from gpu_tpu_app.core.price_import import load_book

    book = load_book(defaults=False)  # the shipped table: the command prices from it by default
    made = estimate(EstimateRequest(params=7e7, tokens=1e9, mode="inference"), catalog, book=book)
    # every field of the JSON form; the words kept as text ids for other languages are not in it
    assert parsed.model_dump() == made.model_dump()


def test_estimate_with_results_file(run_cli, tmp_path: Path) -> None:
    runs = pytest.importorskip("gpu_tpu_app.core.runs")
    run = runs.RunFile(
        app_version="0.1.0",
        host="box",
        os="Linux",
        python="3.11",
        suite="quick",
        started=datetime(2025, 1, 1, tzinfo=UTC),
        devices=[runs.DeviceInfo(backend="torch", platform="cpu", name="Some CPU")],
        results=[
            runs.ProbeResult(
                kernel="matmul",
                backend="torch",
                device="torch:cpu:0",
                dtype="float32",
                size=1024,
                metric="flops",
                value=2.5e11,
                status="ok",
            )
        ],
    )
    path = tmp_path / "run.json"
    runs.save_run(run, path)
    code, out, _err = run_cli("estimate", "--params", "1e8", "--results", str(path), "--format", "json")
    assert code == 0
    row = next(r for r in Estimate.model_validate_json(out).rows if r.family == "measured")
    assert row.peak_flops == 2.5e11 and row.chip_name == "Some CPU (measured)" and "box" in row.mfu_source
    empty = tmp_path / "empty.json"
    runs.save_run(run.model_copy(update={"results": []}), empty)
    code, _out, err = run_cli("estimate", "--params", "1e8", "--results", str(empty))
    assert code == 2 and err.startswith("error: --results:")


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["--params", "-5"], "--params"),
        (["--params", "0"], "--params"),
        (["--params", "seven"], "--params"),
        (["--params", "7B", "--tokens", "x"], "--tokens"),
        (["--params", "7B", "--inference"], "--tokens"),
        (["--params", "7B", "--mfu", "0"], "--mfu"),
        (["--params", "7B", "--mfu", "1.5"], "--mfu"),
        (["--params", "7B", "--mfu", "lots"], "--mfu"),
        (["--params", "7B", "--chips", "0"], "--chips"),
        (["--params", "7B", "--chips", "2.5"], "--chips"),
        (["--params", "7B", "--price", "h900=2"], "--price"),
        (["--params", "7B", "--price", "h100-sxm"], "--price"),
        (["--params", "7B", "--price", "h100-sxm=cheap"], "--price"),
        (["--params", "7B", "--price", "h100-sxm=-1"], "--price"),
        (["--params", "7B", "--price", "=2"], "--price"),
    ],
)
def test_estimate_bad_flags_exit_2_with_one_line(run_cli, argv: list[str], flag: str) -> None:
    code, out, err = run_cli("estimate", *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"error: {flag}:"), err
    assert "Traceback" not in err


def test_estimate_missing_params_is_a_usage_error(run_cli) -> None:
    with pytest.raises(SystemExit) as info:
        run_cli("estimate")
    assert info.value.code == 2


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
    # 1.2 x 140 GB of weights + 8 x 2048 x 327,680 B of KV cache = 173.4 GB: three 80 GB H100s
    assert h100.memory_needed_bytes == pytest.approx(1.2 * 140e9 + 8 * 2048 * 327_680)
    assert h100.chips_per_copy == 3 and h100.fits is False and h100.days is None
    assert any("one copy needs 3 chips" in w for w in h100.warnings)
    three = _row(estimate(req.model_copy(update={"chips": 4}), catalog), "h100-sxm")
    assert three.days is not None and three.copies == 1 and three.memory_available_bytes == 240e9
    assert any("1 chip left idle" in w for w in three.warnings)


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
        # Korthikanti et al. 2022: s x b x h x (34 + 5 x a x s / h) per layer; a = 32 heads
        "none": 32 * sbh * (34 + 5 * 32 * 4096 / 4096),  # 32 x 16.8M x 194 = 104.2 GB
        "selective": 32 * sbh * 34,  # 18.3 GB
        "full": 32 * 2 * sbh + sbh * (34 + 5 * 32 * 4096 / 4096),  # 1.07 GB + 3.25 GB
    }
    assert expected["none"] == pytest.approx(104.2e9, rel=1e-3)
    assert expected["selective"] == pytest.approx(18.25e9, rel=1e-3)
    assert expected["full"] == pytest.approx(4.33e9, rel=1e-3)
    rows = {}
    for mode, acts in expected.items():
        h100 = _row(estimate(EstimateRequest(checkpointing=mode, **base), catalog), "h100-sxm")
        assert h100.activation_bytes == pytest.approx(acts), mode
        assert h100.memory_needed_bytes == pytest.approx(16 * 7e9 + acts), mode
        rows[mode] = h100
    # none: 104.2 GB over TP 2 leaves 52.1 + 56 GB a chip, over 80: TP 4 holds 26.1 + 28 GB: 4 chips;
    # selective: TP 2 holds 9.1 + 56 GB a chip: 2 chips; full: TP 2, 2.2 + 56 GB
    assert (rows["none"].tensor_parallel, rows["none"].chips_per_copy) == (4, 4)
    assert rows["selective"].chips_per_copy == rows["full"].chips_per_copy == 2
    # full checkpointing repeats the forward pass: (8 x 7e9 + 4 x att) / (6 x 7e9 + 3 x att) more time
    att = 4 * 32 * 4096 * 4096
    assert rows["full"].days / rows["selective"].days == pytest.approx(
        ((8 * 7e9 + 4 * att) / (6 * 7e9 + 3 * att)) / ((6 * 7e9 + 4 * att) / (6 * 7e9 + 3 * att))
    )
    auto = _row(estimate(EstimateRequest(**base), catalog), "h100-sxm")
    assert auto.checkpointing == "selective"  # the least recomputation reaching the fewest chips (2)


def test_405b_reads_128_chips_per_copy_as_llama3_ran(catalog: Catalog) -> None:
    req = EstimateRequest(params=405e9, tokens=15.6e12, chips=16_384)
    result = estimate(req, catalog)
    assert result.shape is not None and (result.shape.layers, result.shape.width, result.shape.heads) == (
        127,
        16384,
        128,
    )
    h100 = _row(result, "h100-sxm")
    # state 16 x 405e9 = 6.48 TB. Selective recomputation: 127 x 34 x 2048 x 16384 = 144.9 GB of
    # activations, 18.1 GB a chip over TP 8; 6.48e12 / (8 x (80 - 18.1) GB) = 13.1 -> 16 stages: 128
    # chips (without recomputation 60.7 GB a chip leaves 19.3 GB: 41.9 -> 64 stages, 512 chips).
    assert (h100.tensor_parallel, h100.shards, h100.chips_per_copy) == (8, 16, 128)
    assert h100.checkpointing == "selective" and h100.copies == 128
    assert h100.activation_bytes == pytest.approx(127 * 34 * 2048 * 16384)
    # Llama 3's own shape at its 8,192-token context: selective would keep 71.9 GB a chip, so full
    # checkpointing (126 x 2 x 8192 x 16384 + one layer's 8192 x 16384 x 354 = 81.3 GB, 10.2 GB a chip)
    # with 6.48e12 / (8 x 69.8e9) = 11.6 -> 16 stages: again 128 chips per copy, as Llama 3 ran (TP 8 x PP 16)
    llama = EstimateRequest(
        params=405e9, tokens=15.6e12, chips=16_384, context=8192, layers=126, width=16384, heads=128, kv_heads=8
    )
    h100 = _row(estimate(llama, catalog), "h100-sxm")
    assert (h100.tensor_parallel, h100.shards, h100.checkpointing) == (8, 16, "full")
    assert h100.activation_bytes == pytest.approx(126 * 2 * 8192 * 16384 + 8192 * 16384 * (34 + 5 * 128 * 8192 / 16384))


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
    from gpu_tpu_app.core.estimate_text import estimate_warnings

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
