"""The TPU compile step's data model: validation, the roofline arithmetic, the table, the level and the answers.

The figures here are made up to check the arithmetic and the mapping; the real compiler's figures are tested in
tests/worker/test_tpu_compile.py.
"""

from __future__ import annotations

import re

import pytest
from pydantic import ValidationError

from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.modelcheck import Findings, check_from_findings, level_text, render_text
from gpu_tpu_app.core.tpu_compile import (
    CompiledProgram,
    TpuCompile,
    compiled_generations,
    render_table,
    roofline,
    table_rows,
    targets,
)

CATALOG = load_catalog()


def chip(chip_id: str):  # type: ignore[no-untyped-def]
    return next(c for c in CATALOG.chips if c.id == chip_id)


def program(**kw) -> CompiledProgram:  # type: ignore[no-untyped-def]
    base = {"program": "forward", "status": "compiled", "argument_bytes": 2**30, "output_bytes": 2**20}
    base.update(kw)
    return CompiledProgram.model_validate(base)


def test_every_catalogued_tpu_has_a_compile_target_and_no_gpu_has_one() -> None:
    ids = {t["id"] for t in targets(CATALOG)}
    assert ids == {c.id for c in CATALOG.chips if c.family == "tpu"}
    assert all(c.compile_target is None for c in CATALOG.chips if c.family == "gpu")
    assert {t["topology"]: t["dims"] for t in targets(CATALOG)}["tpu-v5e" and "v5e"] == 2


def test_roofline_is_the_slower_of_compute_and_memory_at_the_catalogue_peaks() -> None:
    v5e = chip("tpu-v5e")  # 197 TFLOP/s bf16, 819 GB/s
    compute_bound = roofline(program(flops=197e12, bytes_accessed=819e9 / 10), v5e)
    assert compute_bound is not None and compute_bound.bound == "compute"
    assert compute_bound.seconds == pytest.approx(1.0) and compute_bound.memory_seconds == pytest.approx(0.1)
    memory_bound = roofline(program(flops=1e12, bytes_accessed=819e9 * 2), v5e)
    assert memory_bound is not None and memory_bound.bound == "memory" and memory_bound.seconds == pytest.approx(2.0)
    assert memory_bound.sources == ["google-tpu-v5e"]
    assert roofline(program(status="does_not_fit", detail="RESOURCE_EXHAUSTED"), v5e) is None
    assert roofline(program(flops=None, bytes_accessed=1.0), v5e) is None


def test_hbm_bytes_adds_arguments_outputs_temporaries_and_code_less_aliases() -> None:
    p = program(argument_bytes=100, output_bytes=50, temp_bytes=30, code_bytes=20, alias_bytes=40)
    assert p.hbm_bytes() == 160
    assert program(temp_bytes=None).hbm_bytes() is None


def test_bad_worker_figures_are_refused() -> None:
    for bad in ({"argument_bytes": -1}, {"flops": float("nan")}, {"status": "maybe"}, {"program": "backward"}):
        with pytest.raises(ValidationError):
            program(**bad)
    with pytest.raises(ValidationError):
        TpuCompile.model_validate({"status": "ok", "chips": 0})


def _compile(v5e: str = "compiled") -> dict:
    fwd = {"program": "forward", "status": v5e, "detail": "" if v5e == "compiled" else "RESOURCE_EXHAUSTED: x"}
    if v5e == "compiled":
        fwd.update(argument_bytes=10, output_bytes=10, temp_bytes=0, flops=1e9, bytes_accessed=1e6)
    return {
        "status": "ok",
        "route": "jax.jit(...)",
        "libtpu": "0.0.42.1",
        "chips": 4,
        "generations": [
            {"chip": "tpu-v5e", "topology": "v5e:2x2", "chips": 4, "devices": 4, "status": v5e, "programs": [fwd]},
            {
                "chip": "tpu7x",
                "topology": "tpu7x:2x2x1",
                "chips": 4,
                "devices": 8,
                "status": "failed",
                "detail": "the TPU compiler's process ended with signal 11",
                "programs": [],
            },
        ],
    }


def test_a_compiled_generation_is_the_strongest_level_and_decides_xla_verified() -> None:
    f = Findings.model_validate(
        {
            "framework": "jax",
            "tpu_lowering": {"status": "ok", "route": "jax.export", "detail": "module"},
            "tpu_compile": _compile(),
        }
    )
    c = check_from_findings("m.py", f, 1.0)
    assert c.level == "compiled_for_tpu" and level_text(c) == "compiled for TPU v5e"
    assert c.answers.xla_verified == "yes"
    rows = c.evidence_for("xla_verified")
    assert rows[0].finding.startswith("compiled for TPU v5e:2x2 by the TPU compiler (libtpu 0.0.42.1)")
    assert "tpu7x:2x2x1: the TPU compiler's process ended with signal 11" in rows[0].detail
    assert c.tpu_compile is not None and [g.chip for g in compiled_generations(c.tpu_compile)] == ["tpu-v5e"]
    text = render_text(c)
    assert "Compiled for TPU generations" in text and "v5e" in text and "signal 11" in text


def test_nothing_fitting_anywhere_leaves_the_level_to_the_lowering_and_says_why() -> None:
    f = Findings.model_validate(
        {
            "framework": "jax",
            "tpu_lowering": {"status": "ok", "route": "jax.export", "detail": "module"},
            "tpu_compile": _compile("does_not_fit"),
        }
    )
    c = check_from_findings("m.py", f, 1.0)
    assert c.level == "lowered_for_tpu"
    assert c.answers.xla_verified == "yes"  # the lowering decides; the compiler's no-fit is shown beside it
    texts = [e.finding + " " + e.detail for e in c.evidence_for("xla_verified")]
    assert any("not compiled for any TPU generation" in t and "RESOURCE_EXHAUSTED" in t for t in texts)
    rows = table_rows(c.tpu_compile, CATALOG)  # type: ignore[arg-type]
    assert rows[0].outcome == "does not fit" and rows[0].fits == "no (RESOURCE_EXHAUSTED)"
    # a crash of the compiler's process saved without its kind of failure: the check's limit, never the model's
    assert rows[1].outcome == "the check's limit" and "signal 11" in rows[1].note
    assert "--tpu-chips 0" in rows[1].note


def test_table_rows_word_per_chip_figures_and_the_roofline() -> None:
    tc = TpuCompile.model_validate(_compile())
    row = table_rows(tc, CATALOG)[0]
    assert row.generation == "TPU v5e" and row.topology == "v5e:2x2 (4 chips)"
    hbm = chip("tpu-v5e").memory_bytes()
    assert row.fits == f"yes: 20 B of {hbm / 2**30:.3g} GiB"
    assert row.step_time.endswith("µs") and "compute-bound" in row.note
    assert table_rows(tc, CATALOG)[1].topology == "tpu7x:2x2x1 (4 chips, 8 devices)"


def test_the_table_never_writes_e_notation_even_for_huge_programs() -> None:
    data = _compile()
    fwd = data["generations"][0]["programs"][0]
    fwd.update(flops=6.33e21, bytes_accessed=3.2e15, argument_bytes=2.5e15, temp_bytes=1.5e14, compile_seconds=4321.0)
    rows = table_rows(TpuCompile.model_validate(data), CATALOG)
    row = rows[0]
    cells = [row.flops, row.bytes_accessed, row.arguments, row.temporaries, row.compile_time, row.step_time, row.note]
    assert not any(re.search(r"\de[+-]\d", cell) for cell in cells), cells
    assert row.flops == "6.33 × 10²¹"
    assert row.compile_time == "4,320 s" and row.arguments == "2,330,000 GiB"
    assert "6.33 × 10²¹ FLOPs" in row.note


def _failed_everywhere(reason: str, failure: str | None = None) -> dict:
    ids = [(t["id"], f"{t['topology']}:1x1") for t in targets(CATALOG)]
    program = {"program": "forward", "status": "failed", "detail": reason}
    if failure is not None:
        program["failure"] = failure
    return {
        "status": "ok",
        "route": "torchax",
        "libtpu": "0.0.42.1",
        "chips": 1,
        "generations": [
            {"chip": i, "topology": name, "chips": 1, "status": "failed", "detail": reason, "programs": [program]}
            for i, name in ids
        ],
    }


def test_long_reasons_from_every_generation_are_bounded_where_the_evidence_is_made() -> None:
    # the torch.cond crash: one 600-character reason per generation joined into one detail passed the 2,000
    # characters the contract allows, and pydantic raised out of the check (exit 1, a traceback, no JSON)
    reasons = [f"NotImplementedError: no rule for cond #{i} " + "x" * 560 for i in range(6)]
    raw = _failed_everywhere(reasons[0], "check_limit")
    for g, reason in zip(raw["generations"], reasons):
        g["detail"] = g["programs"][0]["detail"] = reason
    f = Findings.model_validate({"framework": "pytorch", "tpu_compile": raw})
    c = check_from_findings("m.py", f, 1.0)
    rows = [e for e in c.evidence_for("xla_verified") if e.finding.startswith("not compiled for any")]
    assert len(rows) == 1 and len(rows[0].detail) == 2000 and rows[0].detail.endswith("…")
    assert "no rule for cond #0" in rows[0].detail


def test_generations_that_failed_alike_share_one_reason() -> None:
    f = Findings.model_validate({"framework": "jax", "tpu_compile": _failed_everywhere("E: the same", "model_failed")})
    rows = check_from_findings("m.py", f, 1.0).evidence_for("xla_verified")
    (row,) = [e for e in rows if e.finding.startswith("not compiled for any")]
    assert row.detail.count("E: the same") == 1 and "v5e:1x1" in row.detail and "v6e:1x1" in row.detail


@pytest.mark.parametrize(
    ("failure", "words", "step"),
    [
        ("timed_out", "timed out", "--timeout SECONDS"),
        ("check_limit", "the check's limit", "--tpu-chips 0"),
        ("model_failed", "model failed to compile", "change the model"),
    ],
)
def test_each_failure_is_worded_with_its_next_step_in_rows_and_text(failure: str, words: str, step: str) -> None:
    tc = TpuCompile.model_validate(_failed_everywhere("XlaRuntimeError: INVALID_ARGUMENT: bad", failure))
    rows = table_rows(tc, CATALOG)
    assert {r.outcome for r in rows} == {words} and all(step in r.note for r in rows)
    assert all(r.note.startswith("XlaRuntimeError: INVALID_ARGUMENT: bad") for r in rows)
    assert tc.generations[0].failure_kind() == failure
    zh = table_rows(tc, CATALOG, language="zh-Hans")
    assert all(r.outcome not in ("", words) for r in zh)


def test_a_step_not_run_says_not_run_and_why_in_text_and_json() -> None:
    for status in ("unavailable", "failed"):
        tc = TpuCompile.model_validate({"status": status, "failure": "not_run", "detail": "libtpu is not installed"})
        lines = render_table(tc, CATALOG)
        assert lines[0] == "Compiled for TPU generations: not run"
        assert lines[1].strip() == "libtpu is not installed" and "not run" in lines[2]
        assert tc.model_dump(mode="json")["failure"] == "not_run"
    # a result saved before the four were told apart: unavailable is not run, a failure the check's limit
    assert TpuCompile.model_validate({"status": "unavailable"}).failure_kind() == "not_run"
    assert TpuCompile.model_validate({"status": "failed"}).failure_kind() == "check_limit"
    with pytest.raises(ValidationError):
        TpuCompile.model_validate({"status": "failed", "failure": "the model's fault"})


def test_a_program_the_check_cannot_place_says_so_and_what_the_user_can_do() -> None:
    raw = _failed_everywhere("ValueError: Received incompatible devices for jitted computation", "check_limit")
    for g in raw["generations"]:
        g["mesh"] = "cannot_place"
    rows = table_rows(TpuCompile.model_validate(raw), CATALOG)
    assert {r.outcome for r in rows} == {"the check's limit"}
    assert all(r.note.startswith("the check cannot place this program on TPU devices") for r in rows)
    assert all(
        "build the Mesh inside params() or forward()" in r.note and "incompatible devices" in r.note for r in rows
    )


def test_the_estimators_compiled_rows_carry_the_tables_caveats() -> None:
    from gpu_tpu_app.core.estimate.compiled import compiled_rows
    from gpu_tpu_app.core.estimate.models import EstimateRequest

    raw = _compile()
    fwd = raw["generations"][0]["programs"][0]
    fwd.update(dynamic_loops=True, compiled_dtype="float32")
    rows = compiled_rows(
        TpuCompile.model_validate(raw), CATALOG, EstimateRequest(params=5e9, mode="inference", tokens=1e9)
    )
    (row,) = [r for r in rows if r.chip_id == "compiled:tpu-v5e"]
    assert any("lower bound" in w for w in row.warnings) and any("compiled in float32" in w for w in row.warnings)
