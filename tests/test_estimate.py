"""The estimator: FLOPs and time rules, memory fit, cost, measured rows, and the `estimate` command."""

from __future__ import annotations

import importlib.util
import json
from datetime import datetime, timezone
from pathlib import Path

import pytest
from pydantic import ValidationError

from gpu_tpu_app import cli
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


@pytest.fixture
def run_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    """cli.main with the subcommands whose modules exist (each command is tested in its own module)."""
    present = {name: spec for name, spec in cli.COMMANDS.items() if importlib.util.find_spec(spec[0]) is not None}
    monkeypatch.setattr(cli, "COMMANDS", present)

    def run(*argv: str) -> tuple[int, str, str]:
        code = cli.main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return run


def _row(result: Estimate, chip_id: str):
    return next(row for row in result.rows if row.chip_id == chip_id)


# ------------------------------------------------------------------ time


def test_training_time_by_hand(catalog: Catalog) -> None:
    req = EstimateRequest(params=7e9, tokens=1.4e11, chips=64, mfu=0.4)
    result = estimate(req, catalog)
    # 6 x 7e9 x 1.4e11 = 5.88e21 FLOPs; 64 x 989e12 x 0.4 = 2.53184e16 FLOP/s;
    # 5.88e21 / 2.53184e16 = 232,242.16 s = 2.68799 days.
    assert result.flops == pytest.approx(5.88e21, rel=1e-12)
    h100 = _row(result, "h100-sxm")
    assert h100.peak_flops == 989e12 and h100.mfu == 0.4
    assert h100.days == pytest.approx(5.88e21 / (64 * 989e12 * 0.4) / 86_400, rel=1e-12)
    assert h100.days == pytest.approx(2.68799, rel=1e-5)
    v5p = _row(result, "tpu-v5p")
    assert v5p.days == pytest.approx(5.88e21 / (64 * 459e12 * 0.4) / 86_400, rel=1e-12)
    assert all(row.mfu_source == "set by the user" for row in result.rows)


def test_default_tokens_are_twenty_per_parameter(catalog: Catalog) -> None:
    result = estimate(EstimateRequest(params=1e9), catalog)
    assert result.tokens == 2e10
    assert result.flops == pytest.approx(6 * 1e9 * 2e10)
    assert "20 x N" in result.rule and "6 x N x D" in result.rule
    assert {"eleuther-transformer-math", "hoffmann-2022"} <= set(result.sources)


def test_default_mfu_per_family_with_sources(catalog: Catalog) -> None:
    result = estimate(EstimateRequest(params=1e9), catalog)
    gpu, tpu = catalog.mfu["gpu"], catalog.mfu["tpu"]
    assert gpu.value == 0.40 and tpu.value == 0.46
    for row in result.rows:
        default = catalog.mfu[row.family]
        assert row.mfu == default.value
        for sid in default.sources:
            assert sid in row.mfu_source
    assert {"palm-2022", "maxtext-tiering", "megatron-lm", "llama3-2024"} <= set(result.sources)
    source_ids = {s.id for s in catalog.sources}
    assert set(result.sources) <= source_ids
    b200 = _row(result, "b200")
    assert b200.days == pytest.approx(6 * 1e9 * 2e10 / (2250e12 * 0.40) / 86_400)


def test_inference_flops_and_tokens_required(catalog: Catalog) -> None:
    result = estimate(EstimateRequest(params=7e9, tokens=1e9, mode="inference"), catalog)
    assert result.flops == pytest.approx(2 * 7e9 * 1e9)
    assert _row(result, "l4").days == pytest.approx(1.4e19 / (121e12 * 0.40) / 86_400)
    assert "memory bandwidth" in result.rule
    with pytest.raises(ValidationError, match="tokens"):
        EstimateRequest(params=7e9, mode="inference")


def test_rows_fastest_first_and_unknown_peaks_last(catalog: Catalog) -> None:
    result = estimate(EstimateRequest(params=1e9), catalog)
    days = [row.days for row in result.rows]
    assert all(d is not None for d in days)
    assert days == sorted(days)
    assert result.rows[-1].chip_id == "t4"
    # A chip with neither a bf16 nor an fp16 figure gets no time and goes last.
    data = catalog.model_dump()
    l4 = next(c for c in data["chips"] if c["id"] == "l4")
    l4["bf16"] = {"value": None, "unit": "TFLOP/s", "source": "nvidia-l4", "reason": "test"}
    l4["bf16_sparse"] = None
    l4["fp16"] = None
    changed = Catalog.model_validate(data)
    rows = estimate(EstimateRequest(params=1e9), changed).rows
    assert rows[-1].chip_id == "l4" and rows[-1].days is None and rows[-1].peak_flops is None


def test_chip_without_bf16_uses_its_fp16_peak(catalog: Catalog) -> None:
    t4 = _row(estimate(EstimateRequest(params=1e9), catalog), "t4")
    assert t4.peak_dtype == "float16" and t4.peak_flops == 65e12
    assert _row(estimate(EstimateRequest(params=1e9), catalog), "h100-sxm").peak_dtype == "bfloat16"


# ------------------------------------------------------------------ memory


def test_training_fits_at_sixteen_bytes_per_parameter(catalog: Catalog) -> None:
    exact = estimate(EstimateRequest(params=5e9), catalog)  # 80e9 bytes
    assert _row(exact, "h100-sxm").memory_needed_bytes == 80e9
    assert _row(exact, "h100-sxm").fits is True
    assert _row(exact, "a100-40gb").fits is False
    over = estimate(EstimateRequest(params=5.001e9), catalog)
    assert _row(over, "h100-sxm").fits is False
    assert "16 bytes per parameter" in exact.memory_rule


def test_fit_scales_with_chip_count_and_uses_gib_for_tpus(catalog: Catalog) -> None:
    needed = 16 * 70e9  # 1.12e12 bytes
    assert _row(estimate(EstimateRequest(params=70e9, chips=14), catalog), "h100-sxm").fits is True
    thirteen = _row(estimate(EstimateRequest(params=70e9, chips=13), catalog), "h100-sxm")
    assert thirteen.fits is False and thirteen.memory_available_bytes == 13 * 80e9
    # 16 GiB = 17.18e9 bytes: 1.07e9 parameters need 17.12e9 bytes and fit one v5e, not one 16 GB T4.
    small = estimate(EstimateRequest(params=1.07e9), catalog)
    assert _row(small, "tpu-v5e").memory_available_bytes == 16 * 2**30
    assert _row(small, "tpu-v5e").fits is True and _row(small, "t4").fits is False
    assert _row(estimate(EstimateRequest(params=70e9), catalog), "b200").memory_needed_bytes == needed


def test_inference_memory_is_weights_times_one_point_two(catalog: Catalog) -> None:
    result = estimate(EstimateRequest(params=7e9, tokens=1e6, mode="inference"), catalog)
    assert _row(result, "t4").memory_needed_bytes == pytest.approx(1.2 * 2 * 7e9)  # 16.8 GB
    assert _row(result, "t4").fits is False
    assert _row(result, "l4").fits is True
    assert "1.2 x weight bytes" in result.memory_rule


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


@pytest.mark.parametrize("bad", [{"params": 0}, {"params": -1e9}, {"params": 1e9, "mfu": 0}, {"params": 1e9, "mfu": 1.2},
                                 {"params": 1e9, "chips": 0}, {"params": 1e9, "tokens": -5}, {"params": float("nan")}])
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
    assert row.days == pytest.approx(1.2e20 / (2 * 2e12) / 86_400)
    assert row.memory_available_bytes == 128e9 and row.fits is True
    assert row.cost_usd is None
    assert [r.days for r in result.rows] == sorted(r.days for r in result.rows)


def test_measured_from_run_takes_the_best_ok_matmul() -> None:
    runs = pytest.importorskip("gpu_tpu_app.core.runs")
    run = runs.RunFile.model_validate(
        {
            "app_version": "0.1.0", "host": "box", "os": "Linux", "python": "3.11", "suite": "quick",
            "started": datetime(2025, 1, 1, tzinfo=timezone.utc).isoformat(),
            "devices": [{"backend": "torch", "platform": "cpu", "name": "Some CPU", "memory_bytes": 8_000_000_000}],
            "results": [
                {"kernel": "matmul", "backend": "torch", "device": "torch:cpu:0", "dtype": "float32", "size": 512,
                 "metric": "flops", "value": 1.0e11, "status": "ok"},
                {"kernel": "matmul", "backend": "torch", "device": "torch:cpu:0", "dtype": "float32", "size": 2048,
                 "metric": "flops", "value": 3.0e11, "status": "ok"},
                {"kernel": "matmul", "backend": "torch", "device": "torch:cpu:0", "dtype": "bfloat16", "size": 2048,
                 "metric": "flops", "value": 9.0e14, "status": "suspect"},
                {"kernel": "triad", "backend": "torch", "device": "torch:cpu:0", "dtype": "float32", "size": 2048,
                 "metric": "bytes_per_s", "value": 5.0e12, "status": "ok"},
            ],
        }
    )
    (device,) = measured_from_run(run)
    assert device.flops == 3.0e11 and device.name == "Some CPU" and device.key == "torch:cpu:0"
    assert device.memory_bytes == 8e9 and device.host == "box"


# ------------------------------------------------------------------ formatting helpers


@pytest.mark.parametrize(
    ("text", "value"),
    [("7e9", 7e9), ("7B", 7e9), ("7b", 7e9), ("70M", 7e7), ("1.4T", 1.4e12), ("1.4e11", 1.4e11),
     ("7,000,000", 7e6), ("7_000", 7e3), ("1.5k", 1500.0), (" 13B ", 13e9), ("-5", -5.0)],
)
def test_parse_quantity(text: str, value: float) -> None:
    assert parse_quantity(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["", "abc", "7X", "7BB", "B7", "inf", "1e999"])
def test_parse_quantity_rejects(text: str) -> None:
    with pytest.raises(ValueError):
        parse_quantity(text)


# ------------------------------------------------------------------ command


def test_estimate_table(run_cli, catalog: Catalog) -> None:
    code, out, err = run_cli("estimate", "--params", "7e9", "--tokens", "1.4e11", "--chips", "64", "--mfu", "0.4")
    assert code == 0 and err == ""
    assert "5.88e+21 FLOPs" in out and "64 chips" in out
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("chip "))
    body = lines[header + 2: header + 2 + len(catalog.chips)]
    expected = estimate(EstimateRequest(params=7e9, tokens=1.4e11, chips=64, mfu=0.4), catalog)
    assert [line.split("  ")[0] for line in body] == [row.chip_name for row in expected.rows]
    h100 = next(line for line in body if line.startswith("NVIDIA H100 SXM"))
    assert "2.69 days" in h100 and " fits " in h100
    assert "cost" not in lines[header]
    assert "--price" in out  # says how to get a cost


def test_estimate_table_with_price_and_units(run_cli) -> None:
    code, out, _err = run_cli("estimate", "--params", "7B", "--chips", "8", "--price", "h100-sxm=2.5", "--price", "TPU-V5P=4")
    assert code == 0
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("chip "))
    assert header.rstrip().endswith("cost")
    assert "$" in next(line for line in lines if line.startswith("NVIDIA H100 SXM"))
    assert "$" in next(line for line in lines if line.startswith("Google TPU v5p"))
    assert "$" not in next(line for line in lines if line.startswith("NVIDIA B200"))


def test_estimate_json_is_the_estimate_model(run_cli, catalog: Catalog) -> None:
    code, out, _err = run_cli("estimate", "--params", "70M", "--inference", "--tokens", "1e9", "--format", "json")
    assert code == 0
    parsed = Estimate.model_validate(json.loads(out))
    assert parsed.request.mode == "inference" and parsed.request.params == 7e7
    assert parsed == estimate(EstimateRequest(params=7e7, tokens=1e9, mode="inference"), catalog)


def test_estimate_with_results_file(run_cli, tmp_path: Path) -> None:
    runs = pytest.importorskip("gpu_tpu_app.core.runs")
    run = runs.RunFile(
        app_version="0.1.0", host="box", os="Linux", python="3.11", suite="quick",
        started=datetime(2025, 1, 1, tzinfo=timezone.utc),
        devices=[runs.DeviceInfo(backend="torch", platform="cpu", name="Some CPU")],
        results=[runs.ProbeResult(kernel="matmul", backend="torch", device="torch:cpu:0", dtype="float32",
                                  size=1024, metric="flops", value=2.5e11, status="ok")],
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
