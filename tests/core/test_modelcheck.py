"""The findings -> answers rules of the model check, the worker-line parser and the parent's session."""

from __future__ import annotations

import json

import pytest

from gpu_tpu_app.core.decision import Answers
from gpu_tpu_app.core.modelcheck import (
    HIGH_PRECISION_FP64,
    MATMUL_DOMINANT,
    MATMUL_LOW,
    CheckSession,
    Findings,
    ModelCheck,
    check_from_findings,
    combine,
    parse_worker_line,
    render_text,
)


def findings(**kw) -> Findings:  # type: ignore[no-untyped-def]
    base = {
        "framework": "pytorch",
        "flops": {"matmul": 90, "other": 10, "method": "m"},
        "static_graph": {"status": "ok", "detail": "one graph"},
        "tpu_lowering": {"status": "unavailable", "detail": "torch_xla: not installed"},
    }
    base.update(kw)
    return Findings.model_validate(base)


@pytest.mark.parametrize(
    ("matmul", "other", "expected"),
    [
        (70, 30, "dominant"),
        (69, 31, "mixed"),
        (30, 70, "mixed"),
        (29, 71, "low"),
        (0, 5, "low"),
    ],
)
def test_matmul_share_thresholds(matmul: int, other: int, expected: str) -> None:
    c = check_from_findings("m.py", findings(flops={"matmul": matmul, "other": other, "method": "m"}), 1.0)
    assert (MATMUL_DOMINANT, MATMUL_LOW) == (0.70, 0.30)
    assert c.answers.matmul_share == expected


def test_uncountable_work_leaves_matmul_share_unknown_with_a_reason() -> None:
    c = check_from_findings("m.py", findings(flops=None), 1.0)
    assert c.answers.matmul_share is None
    assert c.evidence_for("matmul_share")[0].finding == "work could not be counted"


def test_xla_verified_rules() -> None:
    ok = findings(tpu_lowering={"status": "ok", "route": "jax.export", "custom_calls": ["Eigh"]})
    assert check_from_findings("m.py", ok, 1).answers.xla_verified == "yes"
    assert check_from_findings("m.py", ok, 1).level == "lowered_for_tpu"
    failed = findings(tpu_lowering={"status": "failed", "route": "jax.export", "detail": "Boom", "location": "m.py:3"})
    c = check_from_findings("m.py", failed, 1)
    assert c.answers.xla_verified == "no" and "Boom at m.py:3" in c.evidence_for("xla_verified")[0].detail
    no_graph = findings(static_graph={"status": "failed", "detail": "GuardOnDataDependentSymNode"})
    c = check_from_findings("m.py", no_graph, 1)
    assert c.answers.xla_verified == "no" and c.level == "failed"
    c = check_from_findings("m.py", findings(), 1)  # a graph, no route onto a TPU
    assert c.answers.xla_verified is None and c.level == "static_graph_captured"
    assert "necessary for XLA, not sufficient" in c.evidence_for("xla_verified")[0].detail


def test_custom_ops_and_float64_and_dynamic_shapes() -> None:
    c = check_from_findings(
        "m.py",
        findings(
            custom_ops=[{"name": "demo.op", "kind": "custom operator", "location": "m.py:9"}],
            float64=[{"op": "aten.mul", "location": "m.py:4"}],
            data_dependent=[{"what": "nonzero", "location": "m.py:5"}],
        ),
        1,
    )
    assert c.answers.custom_ops == "some"
    assert c.answers.high_precision == HIGH_PRECISION_FP64
    assert c.answers.dynamic_shapes == "yes"
    plain = check_from_findings("m.py", findings(), 1)
    assert plain.answers.custom_ops == "none"
    assert plain.answers.high_precision is None
    assert plain.answers.dynamic_shapes is None  # no other_inputs(): real-use shapes are unknown
    assert "other_inputs()" in plain.evidence_for("dynamic_shapes")[0].detail


def test_recompiles_across_other_inputs() -> None:
    same = findings(programs={"status": "ok", "input_sets": 3, "shapes": 1, "programs_first": 1, "programs": 1})
    assert check_from_findings("m.py", same, 1).answers.dynamic_shapes == "no"
    more = findings(programs={"status": "ok", "input_sets": 3, "shapes": 3, "programs_first": 1, "programs": 3})
    c = check_from_findings("m.py", more, 1)
    assert c.answers.dynamic_shapes == "yes"
    assert "3 compiled programs for 3 input sets" in c.evidence_for("dynamic_shapes")[0].detail


def test_json_contract_keys_and_every_answer_has_evidence() -> None:
    c = check_from_findings("m.py", findings(), 2.345)
    data = json.loads(c.model_dump_json())
    assert set(data) == {"file", "framework", "level", "answers", "evidence", "seconds", "tpu_compile"}
    assert data["tpu_compile"] is None  # no compile step in these findings
    assert data["seconds"] == 2.35
    assert {e["answer"] for e in data["evidence"]} == set(data["answers"])
    assert "Rules:" in render_text(c)


def test_combine_measured_fills_unset_and_stated_wins() -> None:
    c = check_from_findings("m.py", findings(custom_ops=[{"name": "x.y", "kind": "k"}]), 1)
    combined, sources = combine(Answers(custom_ops="none", stage="production"), c)
    assert combined.custom_ops == "none" and sources["custom_ops"] == "stated over measured some"
    assert combined.framework == "pytorch" and sources["framework"] == "measured"
    assert combined.matmul_share == "dominant" and sources["matmul_share"] == "measured"
    assert combined.xla_verified is None and sources["xla_verified"] == "unknown"
    assert combined.stage == "production"


@pytest.mark.parametrize(
    "line",
    [
        "",
        "hello",
        "{not json",
        "[1, 2]",
        '{"type": "findings", "findings": {}}',
        '{"type": "stage"}',
        '{"type": "error", "kind": "user", "message": 5}',
        '{"type": "findings", "findings": {"framework": "pytorch", "parameters": -1}}',
    ],
)
def test_worker_lines_that_are_not_messages_are_ignored(line: str) -> None:
    assert parse_worker_line(line) is None


def test_session_messages_timeout_and_crash() -> None:
    s = CheckSession("m.py", 30, 2048)
    s.feed(b'{"type": "stage", "stage": "calling model()", "function": "model()"}\n{"type": "sta')
    assert s.stage is not None and s.stage.function == "model()"
    assert (
        s.finish(None, 30, timed_out=True)
        == "m.py in model(): did not finish within 30 s (during calling model()); stopped (raise --timeout if the model is large)"
    )
    # SIGKILL of the worker, which the guard reports on its last stderr line, may be memory; SIGKILL of
    # the guard itself (the file killed its parent, or kill -9 from outside) is not blamed on memory
    said = "\nprocess-guard: the command ended by signal 9\n"
    assert "killed (out of memory? the limit is 2048 MiB)" in str(s.finish(-9, 1, stderr_tail=said))
    assert "guard process was killed" in str(s.finish(-9, 1)) and "memory" not in str(s.finish(-9, 1))
    assert str(s.finish(-11, 1, stderr_tail="boom\nprocess-guard: the command ended by signal 11\n")).endswith(
        "signal 11 (boom)"
    )
    assert (
        s.finish(1, 1, stderr_tail="x\nSegfault here")
        == "m.py in model(): the check's process ended with exit code 1 (Segfault here)"
    )
    s.feed(b'{"type": "error", "kind": "memory", "message": "ran out of memory", "function": "model()", "line": 4}\n')
    assert (
        s.finish(0, 1)
        == "m.py:4 in model(): ran out of memory (2048 MiB; raise --memory-limit if the model needs more)"
    )


def test_session_builds_the_check_from_findings() -> None:
    s = CheckSession("m.py", 30, 2048)
    s.feed((json.dumps({"type": "findings", "findings": findings().model_dump()}) + "\n").encode())
    result = s.finish(0, 3.0)
    assert isinstance(result, ModelCheck) and result.answers.matmul_share == "dominant"


def test_torch_xla_and_torchax_route_rules() -> None:
    run = {
        "status": "ok",
        "detail": "ran",
        "fallbacks": [{"name": "aten::nonzero", "count": 2}],
        "compiles": 1,
        "compile_seconds": 0.5,
    }
    c = check_from_findings("m.py", findings(xla_run=run), 1)
    assert c.level == "ran_under_torch_xla"
    assert c.answers.xla_verified is None and c.answers.custom_ops == "some"
    assert "fell back to the CPU: aten::nonzero" in c.evidence_for("xla_verified")[0].finding
    clean = findings(xla_run={**run, "fallbacks": []})
    assert check_from_findings("m.py", clean, 1).answers.xla_verified == "yes"
    assert check_from_findings("m.py", clean, 1).answers.custom_ops == "none"
    broke = findings(xla_run={"status": "failed", "detail": "torch_xla: RuntimeError: boom", "location": "m.py:9"})
    c = check_from_findings("m.py", broke, 1)
    assert c.answers.xla_verified == "no" and c.level == "static_graph_captured"
    assert "boom at m.py:9" in c.evidence_for("xla_verified")[0].detail
    lowered = findings(
        tpu_lowering={"status": "ok", "route": 'torchax.extract_jax, then jax.export, platforms=["tpu"]'}, xla_run=run
    )
    c = check_from_findings("m.py", lowered, 1)
    assert c.level == "lowered_for_tpu_torchax" and c.answers.xla_verified == "yes"
    assert c.answers.custom_ops == "some"  # the torch_xla fallbacks still need a lowering there


def test_a_count_far_below_two_x_parameters_x_tokens_is_said_not_shown_as_fact() -> None:
    # 1M parameters read over 1000 tokens must do at least 2e9 operations; 1e7 counted means work went uncounted
    low = {"matmul": 10**6, "other": 9 * 10**6, "method": "m", "parameters_used": 10**6, "tokens": 1000}
    c = check_from_findings("m.py", findings(flops=low), 1.0)
    assert c.answers.matmul_share is None
    row = c.evidence_for("matmul_share")[0]
    assert "looks incomplete" in row.finding and "2,000,000,000" in row.finding
    plausible = {**low, "matmul": 3 * 10**9}
    assert check_from_findings("m.py", findings(flops=plausible), 1.0).answers.matmul_share == "dominant"
    # without the two figures (JAX, or a worker that sent none) there is nothing to compare with
    assert check_from_findings("m.py", findings(), 1.0).answers.matmul_share == "dominant"


def test_no_program_compiled_for_several_shapes_is_unknown_never_no() -> None:
    skipped = {"status": "ok", "input_sets": 4, "shapes": 3, "programs_first": 0, "programs": 0, "method": "m"}
    c = check_from_findings("m.py", findings(programs=skipped), 1.0)
    assert c.answers.dynamic_shapes is None
    failed = {"status": "failed", "input_sets": 4, "shapes": 3, "detail": "torch.compile compiled no program"}
    assert check_from_findings("m.py", findings(programs=failed), 1.0).answers.dynamic_shapes is None


def test_unbacked_sizes_make_shapes_dynamic_and_set_the_level() -> None:
    graph = {"status": "ok", "detail": "one graph, with data-dependent sizes u0", "unbacked": ["u0"]}
    f = findings(static_graph=graph, data_dependent=[{"what": "sizes u0 known only at run time"}])
    c = check_from_findings("m.py", f, 1.0)
    assert c.level == "dynamic_graph_captured"
    assert c.answers.dynamic_shapes == "yes"
    assert c.answers.xla_verified is None


def test_sparse_layout_is_not_xla_verified_even_when_torchax_lowered_it() -> None:
    f = findings(
        layouts=[{"name": "sparse CSR", "location": "input 0"}],
        tpu_lowering={"status": "ok", "route": "torchax.extract_jax, then jax.export", "detail": "dense"},
    )
    c = check_from_findings("m.py", f, 1.0)
    assert c.answers.xla_verified == "no"
    assert "sparse CSR at input 0" in c.evidence_for("xla_verified")[0].finding
    # channels-last is a layout worth showing, not a reason against XLA
    assert check_from_findings("m.py", findings(layouts=[{"name": "channels-last"}]), 1).answers.xla_verified is None


def test_every_route_is_shown_and_a_failed_lowering_outranks_cpu_fallbacks() -> None:
    lowered = {"status": "ok", "route": "torchax.extract_jax, then jax.export", "detail": "42 KiB"}
    xla_failed = {"status": "failed", "detail": "torch_xla: RuntimeError: no device"}
    c = check_from_findings("m.py", findings(tpu_lowering=lowered, xla_run=xla_failed), 1.0)
    assert c.answers.xla_verified == "yes"
    assert "torch_xla: RuntimeError: no device" in c.evidence_for("xla_verified")[0].detail
    failed = {"status": "failed", "route": "torchax.extract_jax", "detail": "torchax.extract_jax: KeyError: op"}
    fallbacks = {"status": "ok", "detail": "ran", "fallbacks": [{"name": "aten::_ctc_loss", "count": 1}]}
    c = check_from_findings("m.py", findings(tpu_lowering=failed, xla_run=fallbacks), 1.0)
    assert c.answers.xla_verified == "no"
    assert "1 operator fell back" in c.evidence_for("xla_verified")[0].detail


def test_item_under_torch_xla_is_a_host_sync_not_a_fallback_operator() -> None:
    run = {"status": "ok", "detail": "ran", "fallbacks": [{"name": "aten::_local_scalar_dense", "count": 2}]}
    c = check_from_findings("m.py", findings(xla_run=run, custom_ops=[]), 1.0)
    assert c.answers.custom_ops == "none"
    assert c.answers.xla_verified == "yes"


def test_instrumentation_error_is_the_checks_own() -> None:
    f = findings(flops=None, instrumentation_error="counting the operators failed inside the check: X")
    c = check_from_findings("m.py", f, 1.0)
    assert c.answers.matmul_share is None and c.answers.custom_ops is None
    assert "inside the check" in c.evidence_for("matmul_share")[0].detail


def test_differing_names_each_stated_answer_the_check_measured_otherwise() -> None:
    from gpu_tpu_app.core.modelcheck import differing

    c = check_from_findings("m.py", findings(custom_ops=[{"name": "x.y", "kind": "k"}]), 1.0)
    stated = Answers(framework="pytorch", custom_ops="none", matmul_share=None)
    assert differing(stated, c) == {"custom_ops": "some"}
    assert differing(Answers(), c) == {}  # open answers are filled, never "differ"


def test_verdict_change_says_both_verdicts_or_unchanged() -> None:
    from gpu_tpu_app.core.decision import decide
    from gpu_tpu_app.core.verdict_text import verdict_change

    open_rec = decide(Answers())
    assert verdict_change(open_rec, open_rec) == "Verdict unchanged: no verdict yet."
    gpu = decide(Answers(custom_ops="essential", framework="pytorch", team="cuda", stage="exploring"))
    assert verdict_change(open_rec, gpu).startswith("Verdict changed: no verdict yet → GPU, ")


def test_findings_that_do_not_validate_name_the_field_instead_of_a_bare_exit_code() -> None:
    session = CheckSession("m.py", 60, 1024)
    line = json.dumps({"type": "findings", "findings": {"framework": "jax", "tpu_compile": {"status": "maybe"}}})
    session.feed(line.encode() + b"\n")
    result = session.finish(0, 1.0)
    assert isinstance(result, str)
    assert result.startswith("m.py: the check's worker sent findings this app cannot read (findings.tpu_compile.status")


def test_findings_that_do_not_validate_are_the_apps_failure_not_the_users() -> None:
    from gpu_tpu_app.commands.check_model import measure_result
    from gpu_tpu_app.errors import CheckFailed

    session = CheckSession("m.py", 10, 1024)
    session.feed(b'{"type": "findings", "findings": {"framework": "pytorch", "no_such_field": 1}}\n')
    result = session.finish(0, 1.0)
    assert isinstance(result, str) and "no_such_field" in result
    with pytest.raises(CheckFailed):  # exit status 1, not the 2 of a bad model file
        measure_result(result)
