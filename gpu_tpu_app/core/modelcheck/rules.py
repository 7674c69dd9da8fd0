"""The rules from the worker's findings to the framework-check answers, the evidence behind each and the
evidence level (`check_from_findings`), and measured answers combined with the user's stated ones.

`MAPPING_RULES` says the rules in words (the README and the check's text output show them); each rule
function below is one of them. Pure: no Qt, no torch, no jax.
"""

from __future__ import annotations

from gpu_tpu_app.core.decision import Answers
from gpu_tpu_app.core.modelcheck.contract import (
    ANSWER_FIELDS,
    HIGH_PRECISION_FP64,
    Evidence,
    Fallback,
    Findings,
    Flops,
    Level,
    Located,
    MeasuredAnswers,
    ModelCheck,
)
from gpu_tpu_app.core.tpu_compile import compiled_generations
from gpu_tpu_app.core.units import count_words

#: matmul share at or above this is "dominant"; below MATMUL_LOW it is "low"; between, "mixed".
MATMUL_DOMINANT = 0.70
MATMUL_LOW = 0.30

#: the rules from findings to answers, as shown in the README and in the check's text output.
MAPPING_RULES: tuple[str, ...] = (
    "framework: the entry points the file defines (model() + example_inputs() is PyTorch; params() + "
    "forward() + example_inputs() is JAX).",
    "xla_verified, the first rule that applies: a sparse tensor in the pass -> no (no XLA backend takes one; a "
    "torchax lowering that densified it is not a yes); compiled for a TPU generation by the TPU compiler -> yes; "
    "lowering for TPU succeeded (jax.export, or torchax then "
    "jax.export) -> yes; one step under torch_xla on XLA's CPU device with no CPU fallback -> yes; lowering for "
    "TPU, the torch_xla step or torch.export failed -> no, with the reason; that step with operators falling "
    "back to the CPU -> unknown (choose no yourself when they sit in the main loop, yes when they do not); a "
    "graph without a working TPU route here -> unknown. Every route's outcome is listed.",
    "custom_ops: custom operators found (torch.library or extension ops, autograd.Function, Pallas or FFI calls, "
    "JAX host callbacks), or operators that fell back to the CPU under torch_xla -> some (raise it to essential "
    "yourself when they carry the main loop); none in a full forward pass -> none.",
    "dynamic_shapes: data-dependent shapes or control flow (host syncs, sizes known only at run time), or more "
    "compiled programs than the first input needed across other_inputs() -> yes; one program for all shapes "
    "given -> no; no program compiled to count, or no other_inputs() and no data-dependent operation -> unknown.",
    f"high_precision: float64 values (or float64 asked for) -> {HIGH_PRECISION_FP64!r}; none -> unknown (the need "
    "for strict fp32 is not measurable).",
    f"matmul_share: share of counted operations in matrix multiplies, convolutions, attention and dense linear "
    f"algebra: >= {MATMUL_DOMINANT:.0%} dominant, < {MATMUL_LOW:.0%} low, between them mixed; a count far below "
    "2 x parameters x tokens -> unknown, said to look incomplete.",
)


# --------------------------------------------------------------------------- mapping


def _at(location: str | None) -> str:
    return f" at {location}" if location else ""


def _names(items: list, attr: str = "name", limit: int = 6) -> str:
    shown = [f"{getattr(i, attr)}{_at(getattr(i, 'location', None))}" for i in items[:limit]]
    more = f" and {len(items) - limit} more" if len(items) > limit else ""
    return ", ".join(shown) + more


def _framework(f: Findings) -> Evidence:
    entry = (
        "model() and example_inputs()"
        if f.framework == "pytorch"
        else "params(), forward(params, *inputs) and example_inputs()"
    )
    versions = ", ".join(f"{k} {v}" for k, v in f.versions.items())
    return Evidence(
        answer="framework",
        value=f.framework,
        finding=f"the file defines {entry}",
        detail=f"checked with {versions}{f' in {f.interpreter}' if f.interpreter else ''}; {f.parameters:,} "
        f"parameters; inputs {f.inputs}",
    )


#: layouts that no XLA backend takes (torch_xla and torchax need dense, strided tensors).
SPARSE_PREFIX = "sparse"
#: operators torch_xla lists as CPU fallbacks that are value reads (a host sync), not missing lowerings.
HOST_SYNC_OPS = ("_local_scalar_dense", "item", "is_nonzero")


def _sparse(f: Findings) -> list[Located]:
    return [x for x in f.layouts if x.name.lower().startswith(SPARSE_PREFIX)]


def _is_host_sync(name: str) -> bool:
    return name.removeprefix("aten::").removeprefix("aten.") in HOST_SYNC_OPS


def _fallbacks(f: Findings) -> list[Fallback]:
    run = f.xla_run
    return [x for x in run.fallbacks if not _is_host_sync(x.name)] if run is not None else []


def _routes(f: Findings) -> str:
    """Every TPU route's outcome in one line: torchax's lowering and the torch_xla step, each as it went."""
    parts = []
    tpu = f.tpu_lowering
    if tpu is not None and tpu.route and tpu.route.startswith("torchax"):
        parts.append(f"torchax: {'lowered for TPU' if tpu.status == 'ok' else tpu.detail}")
    elif tpu is not None and tpu.status == "unavailable":
        parts.append(tpu.detail)
    elif tpu is not None and tpu.status == "failed" and f.framework == "pytorch":
        parts.append(f"torchax: {tpu.detail}")
    run = f.xla_run
    if run is not None:
        if run.status == "ok":
            fb = _fallbacks(f)
            parts.append(
                f"torch_xla: ran, {count_words(len(fb), 'operator')} fell back to the CPU"
                if fb
                else "torch_xla: ran, no operator fell back to the CPU"
            )
        else:
            parts.append(run.detail if run.detail.startswith("torch_xla") else f"torch_xla: {run.detail}")
    return "; ".join(p for p in parts if p)


def _compiled(f: Findings) -> tuple[list[Evidence], list[Evidence]]:
    """The TPU compiler's evidence for xla_verified: (a deciding row when a generation compiled, []) or
    ([], a supporting row saying why nothing compiled)."""
    tc = f.tpu_compile
    if tc is None:
        return [], []
    done = compiled_generations(tc)
    others = [g for g in tc.generations if g not in done]
    failed = "; ".join(f"{g.topology}: {g.reason()}" for g in others[:4])
    if done:
        names = ", ".join(g.topology for g in done)
        row = Evidence(
            answer="xla_verified",
            value="yes",
            finding=f"compiled for TPU {names} by the TPU compiler (libtpu {tc.libtpu or '?'})",
            detail=tc.route + (f"; not compiled: {failed}" if failed else ""),
        )
        return [row], []
    why = failed if tc.status == "ok" else tc.detail
    return [], [Evidence(answer="xla_verified", value=None, finding="not compiled for any TPU generation", detail=why)]


def _xla_verified(f: Findings) -> Evidence:
    tpu = f.tpu_lowering
    run = f.xla_run
    routes = _routes(f)
    also_routes = f"; TPU routes here: {routes}" if routes and f.framework == "pytorch" else ""
    sparse = _sparse(f)
    if sparse:
        return Evidence(
            answer="xla_verified",
            value="no",
            finding=f"sparse tensors ({_names(sparse)}) have no XLA backend",
            detail="torch_xla and torchax take only dense (strided) tensors, and a TPU program is dense: densify "
            f"the tensor (to_dense) or rewrite the sparse product as a gather and a segment sum{also_routes}",
        )
    if tpu is not None and tpu.status == "ok":
        calls = (
            f"; custom calls in the TPU module: {', '.join(tpu.custom_calls)}"
            if tpu.custom_calls
            else "; no custom calls in the TPU module"
        )
        cuda = f.cuda_lowering
        also = ""
        if cuda is not None and cuda.status == "ok":
            also = "; it also lowers for CUDA GPUs"
        elif cuda is not None and cuda.status == "failed":
            also = f"; lowering for CUDA GPUs failed: {cuda.detail}"
        return Evidence(
            answer="xla_verified",
            value="yes",
            finding=f"lowered for TPU with {tpu.route}",
            detail=f"{tpu.detail}{calls}{also}{also_routes}",
        )
    compiled = ""
    if run is not None and run.status == "ok" and run.compiles is not None and run.compile_seconds is not None:
        compiled = f"; {count_words(run.compiles, 'compile')}, {run.compile_seconds:g} s compiling"
    if run is not None and run.status == "ok" and not _fallbacks(f):
        return Evidence(
            answer="xla_verified",
            value="yes",
            finding="one step ran under torch_xla on XLA's CPU device; no operator fell back to the CPU",
            detail=f"{run.detail}{compiled}{also_routes}",
        )
    # a failed lowering ranks above a step that ran with CPU fallbacks
    if tpu is not None and tpu.status == "failed":
        return Evidence(
            answer="xla_verified",
            value="no",
            finding=f"lowering for TPU failed ({tpu.route})",
            detail=f"{tpu.detail}{_at(tpu.location)}{also_routes}",
        )
    if run is not None and run.status == "failed":
        return Evidence(
            answer="xla_verified",
            value="no",
            finding="one step under torch_xla failed",
            detail=f"{run.detail}{_at(run.location)}{also_routes}",
        )
    graph = f.static_graph
    if graph is not None and graph.status == "failed":
        return Evidence(
            answer="xla_verified",
            value="no",
            finding="torch.export could not capture one static graph",
            detail=f"{graph.detail}{_at(graph.location)}{also_routes or '; no TPU route was tried'}",
        )
    if run is not None and run.status == "ok":
        fb = _fallbacks(f)
        return Evidence(
            answer="xla_verified",
            value=None,
            finding=f"ran on XLA's CPU device; {count_words(len(fb), 'operator')} fell back to the CPU: {_names(fb)}",
            detail=f"each runs on the host CPU in every step on a TPU; choose no if they sit in the "
            f"main loop, yes if not{compiled}{also_routes}",
        )
    if graph is not None and graph.unbacked:
        return Evidence(
            answer="xla_verified",
            value=None,
            finding="one graph captured, but its sizes depend on the data",
            detail=f"{graph.detail}; XLA compiles static shapes, so the data-dependent part needs padding to a "
            f"fixed size or a rewrite{also_routes}",
        )
    if graph is not None:
        return Evidence(
            answer="xla_verified",
            value=None,
            finding="static graph captured, but no route onto a TPU works here",
            detail=f"a static graph ({graph.detail}) is necessary for XLA, not sufficient; TPU routes here: "
            f"{routes or 'none was tried'}",
        )
    return Evidence(answer="xla_verified", value=None, finding="nothing was lowered", detail=routes)


def _fallback_ops(f: Findings) -> list[Evidence]:
    run = f.xla_run
    fallbacks = _fallbacks(f)
    if run is None or run.status != "ok" or not fallbacks:
        return []
    return [
        Evidence(
            answer="custom_ops",
            value="some",
            finding=f"{count_words(len(fallbacks), 'operator')} fell back to the CPU under torch_xla: "
            f"{', '.join(f'{x.name} ({x.count}x)' for x in fallbacks[:8])}",
            detail="torch_xla has no XLA lowering for them; on a TPU each runs on the host CPU. Choose "
            "essential if they carry the main loop.",
        )
    ]


def _custom_ops(f: Findings) -> Evidence:
    if f.custom_ops:
        kinds = sorted({c.kind for c in f.custom_ops})
        return Evidence(
            answer="custom_ops",
            value="some",
            finding=f"{count_words(len(f.custom_ops), 'custom operator')}: {_names(f.custom_ops)}",
            detail=f"kinds: {', '.join(kinds)}; each needs an XLA lowering, a rewrite in standard "
            "operators or a CPU fallback on a TPU. Choose essential if they carry the main loop.",
        )
    if f.flops is not None:
        extra = (
            f"; operators outside the core ATen set (they decompose): {', '.join(f.non_core_ops[:8])}"
            if f.non_core_ops
            else ""
        )
        return Evidence(
            answer="custom_ops",
            value="none",
            finding="only the framework's own operators in one full forward pass",
            detail=extra.lstrip("; "),
        )
    return Evidence(
        answer="custom_ops",
        value=None,
        finding="the forward pass could not be traced" if not f.instrumentation_error else "operators not recorded",
        detail=f.instrumentation_error or "without a complete pass the operators are not all known",
    )


def _dynamic_shapes(f: Findings) -> list[Evidence]:
    rows: list[Evidence] = []
    for d in f.data_dependent:
        rows.append(
            Evidence(
                answer="dynamic_shapes",
                value="yes",
                finding="data-dependent shape or control flow",
                detail=f"{d.what}{_at(d.location)}",
            )
        )
    p = f.programs
    if p is not None and p.status == "ok" and p.programs > p.programs_first:
        rows.append(
            Evidence(
                answer="dynamic_shapes",
                value="yes",
                finding="recompiles across other_inputs()",
                detail=f"{p.programs} compiled programs for {p.input_sets} input sets "
                f"({p.shapes} distinct shapes; the first input needed {p.programs_first}); "
                f"{p.method}",
            )
        )
    if rows:
        return rows
    if p is not None and p.status == "ok" and p.programs_first >= 1:
        return [
            Evidence(
                answer="dynamic_shapes",
                value="no",
                finding="one program for every input shape given",
                detail=f"{count_words(p.input_sets, 'input set')}, {count_words(p.shapes, 'distinct shape')}, "
                f"{count_words(p.programs, 'program')}; {p.method}",
            )
        ]
    if p is not None and p.status == "ok" and p.programs_first == 0:  # nothing compiled: not "one program"
        return [
            Evidence(
                answer="dynamic_shapes",
                value=None,
                finding=f"no compiled program to count for {count_words(p.shapes, 'distinct shape')}",
                detail=f"{p.method}; the compiler skipped the model, so how many programs XLA compiles is not known",
            )
        ]
    if p is not None:
        return [
            Evidence(
                answer="dynamic_shapes",
                value=None,
                finding="the programs for the other inputs could not be counted",
                detail=p.detail,
            )
        ]
    return [
        Evidence(
            answer="dynamic_shapes",
            value=None,
            finding="no data-dependent operations in one pass",
            detail="the file defines no other_inputs(), so whether shapes change in real use is not "
            "measured; add other_inputs() with the shapes the model sees",
        )
    ]


def _high_precision(f: Findings) -> Evidence:
    if f.float64:
        return Evidence(
            answer="high_precision",
            value=HIGH_PRECISION_FP64,
            finding="float64 values in the forward pass",
            detail=f"{_names(f.float64, 'op')}; TPUs have no float64 arithmetic",
        )
    if f.float64_requested:
        where = ", ".join(x for x in f.float64_requested if x) or "in the model file"
        return Evidence(
            answer="high_precision",
            value=HIGH_PRECISION_FP64,
            finding="the code asks for float64",
            detail=f"{where}; jax_enable_x64 is off, so JAX silently computes these in float32",
        )
    return Evidence(
        answer="high_precision",
        value=None,
        finding="no float64 values found",
        detail="whether the math needs strict fp32 or tolerates bfloat16 cannot be measured from one pass",
    )


#: a count below this fraction of 2 x parameters used x tokens is not plausible for one forward pass.
PLAUSIBLE_FRACTION = 1 / 8


def _expected_minimum(fl: Flops) -> int | None:
    """2 x parameters x tokens: each parameter an operator read does at least a multiply and an add per token."""
    if not fl.parameters_used or not fl.tokens:
        return None
    return 2 * fl.parameters_used * fl.tokens


def _matmul_share(f: Findings) -> Evidence:
    fl = f.flops
    total = (fl.matmul + fl.other) if fl is not None else 0
    if fl is None or total <= 0:
        reason = f.instrumentation_error or (
            "the forward pass could not be traced" if fl is None else "no work counted"
        )
        return Evidence(answer="matmul_share", value=None, finding="work could not be counted", detail=reason)
    share = fl.matmul / total
    value = "dominant" if share >= MATMUL_DOMINANT else "low" if share < MATMUL_LOW else "mixed"
    kinds = ", ".join(f"{k} {v:.3g}" for k, v in sorted(fl.kinds.items(), key=lambda kv: -kv[1]) if v)
    counted = (
        f"{fl.matmul:.3g} of {total:.3g} operations per forward pass"
        + (f" ({kinds})" if kinds else "")
        + f" (thresholds: >= {MATMUL_DOMINANT:.0%} dominant, < {MATMUL_LOW:.0%} low)"
    )
    expected = _expected_minimum(fl)
    if expected is not None and total < PLAUSIBLE_FRACTION * expected:
        return Evidence(
            answer="matmul_share",
            value=None,
            finding=f"the count looks incomplete: {total:.3g} operations per forward pass, far below 2 x "
            f"{fl.parameters_used:,} parameters x {fl.tokens:,} tokens = {expected:.3g}",
            detail=f"{share:.1%} of the counted operations are matrix math, but some work was likely not "
            f"counted (a kernel without a formula), so the share is not given as measured; {counted}; {fl.method}",
        )
    return Evidence(
        answer="matmul_share",
        value=value,
        finding=f"{share:.1%} of counted operations are matrix math (matrix multiplies, convolutions, attention, "
        "dense linear algebra)",
        detail=f"{counted}; {fl.method}",
    )


def _level(f: Findings) -> Level:
    if compiled_generations(f.tpu_compile):
        return "compiled_for_tpu"
    if f.tpu_lowering is not None and f.tpu_lowering.status == "ok":
        return "lowered_for_tpu_torchax" if (f.tpu_lowering.route or "").startswith("torchax") else "lowered_for_tpu"
    if f.xla_run is not None and f.xla_run.status == "ok":
        return "ran_under_torch_xla"
    if f.static_graph is not None and f.static_graph.status == "ok":
        return "dynamic_graph_captured" if f.static_graph.unbacked else "static_graph_captured"
    return "failed"


def check_from_findings(file: str, findings: Findings, seconds: float) -> ModelCheck:
    """Map the worker's findings to answers and evidence by the rules in MAPPING_RULES."""
    compiled, not_compiled = _compiled(findings)
    if _sparse(findings):  # a compile of a densified sparse argument is not this model's program
        compiled = []
    evidence = [
        _framework(findings),
        *compiled,
        _xla_verified(findings),
        *not_compiled,
        *_fallback_ops(findings),
        _custom_ops(findings),
        *_dynamic_shapes(findings),
        _high_precision(findings),
        _matmul_share(findings),
    ]
    for cb in findings.host_callbacks:
        evidence.append(
            Evidence(
                answer="xla_verified",
                value=None,
                finding="host callback",
                detail=f"{cb.name}{_at(cb.location)} runs Python on the host CPU in every step",
            )
        )
    breaks = findings.graph_breaks
    if breaks is not None and breaks.status == "ok" and breaks.breaks:
        evidence.append(
            Evidence(
                answer="xla_verified",
                value=None,
                finding=f"{count_words(len(breaks.breaks), 'graph break')} under torch.compile's tracer"
                + (f" ({count_words(breaks.graphs, 'graph')})" if breaks.graphs is not None else ""),
                detail="; ".join(f"{b.reason}{_at(b.location)}" for b in breaks.breaks[:6]),
            )
        )
    firsts: dict[str, str | None] = {}
    for e in evidence:
        if e.answer not in firsts:
            firsts[e.answer] = e.value
    answers = MeasuredAnswers(**{k: v for k, v in firsts.items() if v is not None})
    # supporting rows carry the value of the answer they support; rows stay in wizard order
    evidence = [e if e.value is not None else e.model_copy(update={"value": firsts.get(e.answer)}) for e in evidence]
    evidence.sort(key=lambda e: ANSWER_FIELDS.index(e.answer))
    return ModelCheck(
        file=file,
        framework=findings.framework,
        level=_level(findings),
        answers=answers,
        evidence=evidence,
        seconds=round(seconds, 2),
        tpu_compile=findings.tpu_compile,
    )


# --------------------------------------------------------------------------- combining with stated answers


def combine(stated: Answers, check: ModelCheck) -> tuple[Answers, dict[str, str]]:
    """Stated and measured answers in one: a measured value wins unless the user stated that answer.

    Returns the combined answers and, for each measurable answer, where its value came from:
    "measured", "stated" (no measurement decided it), "stated over measured X", or "unknown".
    """
    values = stated.model_dump()
    sources: dict[str, str] = {}
    for name in ANSWER_FIELDS:
        mine = values.get(name)
        measured = getattr(check.answers, name)
        if mine is not None:
            sources[name] = "stated" if measured is None or measured == mine else f"stated over measured {measured}"
        elif measured is not None:
            values[name] = measured
            sources[name] = "measured"
        else:
            sources[name] = "unknown"
    return Answers.model_validate(values), sources


def differing(stated: Answers, check: ModelCheck) -> dict[str, str]:
    """The measurable answers the user stated otherwise than the check measured: field -> measured value.

    These keep the user's value; the window shows both and changes nothing until the user chooses.
    """
    out: dict[str, str] = {}
    for name in ANSWER_FIELDS:
        mine, measured = getattr(stated, name), getattr(check.answers, name)
        if mine is not None and measured is not None and mine != measured:
            out[name] = measured
    return out
