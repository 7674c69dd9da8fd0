"""Estimator rows from the user's own model as the TPU compiler compiled it (a recorded model check)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.estimate import EstimateRequest, estimate
from gpu_tpu_app.core.modelcheck import ModelCheck

#: a real check (recorded by the model-check work): a model holding 20 GiB of weights compiled for 4 chips
#: of each TPU generation; it does not fit the 32 GiB v4 or the 16 GB v5e chips and compiles on the others.
CHECK = Path(__file__).resolve().parents[1] / "data" / "model-check-tpu-compiled.json"


@pytest.fixture
def check() -> ModelCheck:
    return ModelCheck.model_validate(json.loads(CHECK.read_text(encoding="utf-8")))


def test_a_row_per_compiled_generation_from_the_models_own_figures(check: ModelCheck) -> None:
    catalog = load_catalog()
    req = EstimateRequest(params=5e9, steps=1000)
    result = estimate(req, catalog, compiled=check.tpu_compile)
    rows = {r.chip_id: r for r in result.rows if r.family == "compiled"}
    assert set(rows) == {f"compiled:{g}" for g in ("tpu-v4", "tpu-v5e", "tpu-v5p", "tpu-v6e", "tpu7x")}
    v5p = rows["compiled:tpu-v5p"]
    assert (
        v5p.chip_name == "Google TPU v5p (your model, compiled)" and "your model compiled for 4 chips" in v5p.mfu_source
    )
    # per chip: 2.147e10 FLOPs and 2.148e10 bytes. At 459 TFLOP/s that is 46.8 us of compute, at 2,765 GB/s
    # 7.770 ms of memory traffic: memory-bound, 7.770 ms a step; 1,000 steps = 7.77 s
    step = 21483433984.0 / 2765e9
    assert step > 21474836480.0 / 459e12 and step == pytest.approx(7.770e-3, rel=1e-3)
    assert v5p.bound == "memory" and v5p.step_seconds == pytest.approx(step)
    assert v5p.days == pytest.approx(1000 * step / 86_400)
    # memory: the compiled program's 21.48 GB per chip against 95 GB; 4 chips
    assert v5p.fits is True and v5p.per_chip_bytes == 21483395072 and v5p.chips_per_copy == 4
    assert v5p.memory_needed_bytes == 4 * 21483395072 and v5p.memory_available_bytes == 4 * 95e9
    # the compiler's own RESOURCE_EXHAUSTED: does not fit, no time, the compiler's reason as a warning
    v5e = rows["compiled:tpu-v5e"]
    assert v5e.fits is False and v5e.days is None and v5e.memory_needed_bytes is None
    assert any("did not compile" in w and "RESOURCE_EXHAUSTED" in w for w in v5e.warnings)
    assert result.compiled_rule and "steps x that step" in result.compiled_rule
    # beside the parameter-count rows, which stay as they were
    plain = estimate(req, catalog)
    assert [r for r in result.rows if r.family != "compiled"] == plain.rows
    assert plain.compiled_rule is None


def test_without_steps_the_step_time_is_shown_and_said(check: ModelCheck) -> None:
    result = estimate(EstimateRequest(params=5e9), compiled=check.tpu_compile)
    v6e = next(r for r in result.rows if r.chip_id == "compiled:tpu-v6e")
    assert v6e.days is None and v6e.step_seconds == pytest.approx(21483433984.0 / 1638e9)
    assert any("give the steps to run" in w for w in v6e.warnings)
    assert estimate(EstimateRequest(params=5e9), compiled=None).compiled_rule is None


def test_cli_model_check_rows(run_cli, tmp_path: Path) -> None:
    code, out, err = run_cli("estimate", "--params", "5B", "--model-check", str(CHECK), "--steps", "1000")
    assert code == 0 and err == ""
    line = next(x for x in out.splitlines() if x.startswith("Google TPU v5p (your model, compiled)"))
    assert "7.77 s" in line and "your model" in line and " fits" in line
    assert "Your model, compiled: per chip, the compiled program's memory" in out
    code, _out, err = run_cli("estimate", "--params", "5B", "--steps", "10")
    assert code == 2 and err.startswith("error: --steps:")
    bad = tmp_path / "check.json"
    bad.write_text('{"file": 1}', encoding="utf-8")
    code, _out, err = run_cli("estimate", "--params", "5B", "--model-check", str(bad))
    assert code == 2 and err.startswith("error: --model-check:") and len(err.strip().splitlines()) == 1
