"""The rules from the worker's findings to the framework-check answers, the evidence behind each and the
evidence level (`check_from_findings`), and measured answers combined with the user's stated ones.

`mapping_rules()` says the rules in words (the README and the check's text output show them); each rule
function below is one of them. The sentences are read by id from resources/text/modelcheck.<language>.toml
(`Words`); what the worker, the compilers and torch wrote is filled in as it is. Pure: no Qt, no torch, no jax.
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
from gpu_tpu_app.core.note_model import said
from gpu_tpu_app.core.texts import area_texts, text
from gpu_tpu_app.core.tpu_compile import compiled_generations, route_words
from gpu_tpu_app.i18n import current_language
from gpu_tpu_app.shared.units import plain_number

#: matmul share at or above this is "dominant"; below MATMUL_LOW it is "low"; between, "mixed".
MATMUL_DOMINANT = 0.70
MATMUL_LOW = 0.30
#: the JSON contract's language: `check-model --format json` and everything saved stay in it.
CONTRACT_LANGUAGE = "en"


class Words:
    """The model check's sentences in one language (None: the interface language in use)."""

    def __init__(self, language: str | None = None) -> None:
        self.language = language

    def __call__(self, key: str, **values: object) -> str:
        return text(f"modelcheck.{key}", language=self.language, **values)

    def count(self, n: int, noun: str) -> str:
        """'1 operator', '3 operators' in the language's own way (count.<noun>_one / _other)."""
        return self(f"count.{noun}_{'one' if n == 1 else 'other'}", n=n)


def mapping_rules(language: str | None = None) -> tuple[str, ...]:
    """The rules from findings to answers in words, one per answer, in wizard order."""
    t = Words(language)
    return (
        t("rules.framework"),
        t("rules.xla_verified"),
        t("rules.custom_ops"),
        t("rules.dynamic_shapes"),
        t("rules.high_precision", fp64=repr(HIGH_PRECISION_FP64)),
        t("rules.matmul_share", dominant=f"{MATMUL_DOMINANT:.0%}", low=f"{MATMUL_LOW:.0%}"),
    )


#: the rules in English, as the README shows them.
MAPPING_RULES: tuple[str, ...] = mapping_rules(CONTRACT_LANGUAGE)


# --------------------------------------------------------------------------- mapping


def _said(t: Words, model: object, field: str) -> str:
    """A worker's text field in the check's language, from the notes it keeps (core.note_model.said)."""
    return said(model, field, t.language or current_language())


def _kind(t: Words, kind: str) -> str:
    """A kind of work the worker counted ("matrix multiplies", its id) in the check's language; an unknown
    kind as it came."""
    return t(f"kind.{kind}") if f"kind.{kind}" in area_texts("modelcheck", "en") else kind


def _at(t: Words, location: str | None) -> str:
    return t("at", location=location) if location else ""


def _names(t: Words, items: list, attr: str = "name", limit: int = 6) -> str:
    shown = [f"{getattr(i, attr)}{_at(t, getattr(i, 'location', None))}" for i in items[:limit]]
    more = t("and_more", n=len(items) - limit) if len(items) > limit else ""
    return ", ".join(shown) + more


def _framework(t: Words, f: Findings) -> Evidence:
    entry = t("framework.entry_pytorch") if f.framework == "pytorch" else t("framework.entry_jax")
    versions = ", ".join(f"{k} {v}" for k, v in f.versions.items())
    return Evidence(
        answer="framework",
        value=f.framework,
        finding=t("framework.finding", entry=entry),
        detail=t(
            "framework.detail",
            versions=versions,
            interpreter=t("framework.interpreter", path=f.interpreter) if f.interpreter else "",
            parameters=f"{f.parameters:,}",
            inputs=f.inputs,
        )
        + (t("framework.compiled_module") if f.compiled_module else ""),
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


def _routes(t: Words, f: Findings) -> str:
    """Every TPU route's outcome in one line: torchax's lowering and the torch_xla step, each as it went."""
    parts = []
    tpu = f.tpu_lowering
    if tpu is not None and tpu.route and tpu.route.startswith("torchax"):
        parts.append(
            t("routes.torchax_lowered") if tpu.status == "ok" else t("routes.torchax", detail=_said(t, tpu, "detail"))
        )
    elif tpu is not None and tpu.status == "unavailable":
        parts.append(_said(t, tpu, "detail"))
    elif tpu is not None and tpu.status == "failed" and f.framework == "pytorch":
        parts.append(t("routes.torchax", detail=_said(t, tpu, "detail")))
    run = f.xla_run
    if run is not None:
        if run.status == "ok":
            fb = _fallbacks(f)
            parts.append(
                t("routes.torch_xla_fallbacks", operators=t.count(len(fb), "operator"))
                if fb
                else t("routes.torch_xla_clean")
            )
        else:
            parts.append(
                _said(t, run, "detail")
                if run.detail.startswith("torch_xla")
                else t("routes.torch_xla", detail=_said(t, run, "detail"))
            )
    return "; ".join(p for p in parts if p)


def _compiled(t: Words, f: Findings) -> tuple[list[Evidence], list[Evidence]]:
    """The TPU compiler's evidence for xla_verified: (a deciding row when a generation compiled, []) or
    ([], a supporting row saying why nothing compiled)."""
    tc = f.tpu_compile
    if tc is None:
        return [], []
    done = compiled_generations(tc)
    others = [g for g in tc.generations if g not in done]
    # generations that failed for the same reason share it ("v4:1x1x1, v5e:1x1: reason"), each reason once
    reasons: dict[str, list[str]] = {}
    for g in others:
        reasons.setdefault(g.reason(), []).append(g.topology)
    failed = "; ".join(f"{', '.join(names)}: {reason}" for reason, names in list(reasons.items())[:4])
    if done:
        names = ", ".join(g.topology for g in done)
        row = Evidence(
            answer="xla_verified",
            value="yes",
            finding=t("compiled.finding", names=names, libtpu=tc.libtpu or "?"),
            detail=route_words(tc, t.language) + (t("compiled.not_compiled", failed=failed) if failed else ""),
        )
        return [row], []
    why = failed if tc.status == "ok" else _said(t, tc, "detail")
    return [], [Evidence(answer="xla_verified", value=None, finding=t("compiled.none_finding"), detail=why)]


def _xla_verified(t: Words, f: Findings) -> Evidence:
    tpu = f.tpu_lowering
    run = f.xla_run
    routes = _routes(t, f)
    also_routes = t("routes.also", routes=routes) if routes and f.framework == "pytorch" else ""
    sparse = _sparse(f)
    if sparse:
        return Evidence(
            answer="xla_verified",
            value="no",
            finding=t("xla.sparse_finding", names=_names(t, sparse)),
            detail=t("xla.sparse_detail", routes=also_routes),
        )
    if tpu is not None and tpu.status == "ok":
        calls = (
            t("xla.custom_calls", calls=", ".join(tpu.custom_calls)) if tpu.custom_calls else t("xla.no_custom_calls")
        )
        if not tpu.custom_calls and any(c.name == "pallas_call" for c in f.custom_ops):
            # a Pallas kernel run in the interpreter lowers to the emulation's XLA operations: no custom call
            calls = t("xla.pallas_interpreted")
        cuda = f.cuda_lowering
        also = ""
        if cuda is not None and cuda.status == "ok":
            also = t("xla.also_cuda")
        elif cuda is not None and cuda.status == "failed":
            also = t("xla.cuda_failed", detail=_said(t, cuda, "detail"))
        return Evidence(
            answer="xla_verified",
            value="yes",
            finding=t("xla.lowered_finding", route=_said(t, tpu, "route")),
            detail=f"{_said(t, tpu, 'detail')}{calls}{also}{also_routes}",
        )
    compiled = ""
    if run is not None and run.status == "ok" and run.compiles is not None and run.compile_seconds is not None:
        compiled = t("xla.compiles", compiles=t.count(run.compiles, "compile"), seconds=f"{run.compile_seconds:g}")
    if run is not None and run.status == "ok" and not _fallbacks(f):
        return Evidence(
            answer="xla_verified",
            value="yes",
            finding=t("xla.torch_xla_ok_finding"),
            detail=f"{_said(t, run, 'detail')}{compiled}{also_routes}",
        )
    # a failed lowering ranks above a step that ran with CPU fallbacks
    if tpu is not None and tpu.status == "failed":
        return Evidence(
            answer="xla_verified",
            value="no",
            finding=t("xla.lowering_failed_finding", route=_said(t, tpu, "route")),
            detail=f"{_said(t, tpu, 'detail')}{_at(t, tpu.location)}{also_routes}",
        )
    if run is not None and run.status == "failed":
        return Evidence(
            answer="xla_verified",
            value="no",
            finding=t("xla.torch_xla_failed_finding"),
            detail=f"{_said(t, run, 'detail')}{_at(t, run.location)}{also_routes}",
        )
    graph = f.static_graph
    if graph is not None and graph.status == "failed":
        return Evidence(
            answer="xla_verified",
            value="no",
            finding=t("xla.export_failed_finding"),
            detail=f"{graph.detail}{_at(t, graph.location)}{also_routes or t('no_route_tried')}",
        )
    if run is not None and run.status == "ok":
        fb = _fallbacks(f)
        return Evidence(
            answer="xla_verified",
            value=None,
            finding=t("xla.fallbacks_finding", operators=t.count(len(fb), "operator"), names=_names(t, fb)),
            detail=t("xla.fallbacks_detail", compiles=compiled, routes=also_routes),
        )
    if graph is not None and graph.unbacked:
        return Evidence(
            answer="xla_verified",
            value=None,
            finding=t("xla.unbacked_finding"),
            detail=t("xla.unbacked_detail", detail=graph.detail, routes=also_routes),
        )
    if graph is not None:
        return Evidence(
            answer="xla_verified",
            value=None,
            finding=t("xla.no_route_finding"),
            detail=t("xla.no_route_detail", detail=graph.detail, routes=routes or t("none_tried")),
        )
    return Evidence(answer="xla_verified", value=None, finding=t("xla.nothing_finding"), detail=routes)


def _fallback_ops(t: Words, f: Findings) -> list[Evidence]:
    run = f.xla_run
    fallbacks = _fallbacks(f)
    if run is None or run.status != "ok" or not fallbacks:
        return []
    return [
        Evidence(
            answer="custom_ops",
            value="some",
            finding=t(
                "custom.fallback_finding",
                operators=t.count(len(fallbacks), "operator"),
                names=", ".join(f"{x.name} ({x.count}x)" for x in fallbacks[:8]),
            ),
            detail=t("custom.fallback_detail"),
        )
    ]


def _custom_ops(t: Words, f: Findings) -> Evidence:
    if f.custom_ops:
        kinds = sorted({c.kind for c in f.custom_ops})
        return Evidence(
            answer="custom_ops",
            value="some",
            finding=t(
                "custom.found_finding",
                operators=t.count(len(f.custom_ops), "custom_operator"),
                names=_names(t, f.custom_ops),
            ),
            detail=t("custom.found_detail", kinds=", ".join(kinds)),
        )
    if f.flops is not None:
        return Evidence(
            answer="custom_ops",
            value="none",
            finding=t("custom.none_finding"),
            detail=t("custom.non_core", ops=", ".join(f.non_core_ops[:8])) if f.non_core_ops else "",
        )
    return Evidence(
        answer="custom_ops",
        value=None,
        finding=t("custom.not_traced") if not f.instrumentation_error else t("custom.not_recorded"),
        detail=f.instrumentation_error or t("custom.incomplete"),
    )


def _dynamic_shapes(t: Words, f: Findings) -> list[Evidence]:
    rows: list[Evidence] = []
    for d in f.data_dependent:
        rows.append(
            Evidence(
                answer="dynamic_shapes",
                value="yes",
                finding=t("shapes.data_dependent_finding"),
                detail=f"{_said(t, d, 'what')}{_at(t, d.location)}",
            )
        )
    p = f.programs
    if p is not None and p.status == "ok" and p.programs > p.programs_first:
        rows.append(
            Evidence(
                answer="dynamic_shapes",
                value="yes",
                finding=t("shapes.recompiles_finding"),
                detail=t(
                    "shapes.recompiles_detail",
                    programs=p.programs,
                    input_sets=p.input_sets,
                    shapes=p.shapes,
                    first=p.programs_first,
                    method=_said(t, p, "method"),
                ),
            )
        )
    if rows:
        return rows
    if p is not None and p.status == "ok" and p.programs_first >= 1:
        return [
            Evidence(
                answer="dynamic_shapes",
                value="no",
                finding=t("shapes.one_program_finding"),
                detail=t(
                    "shapes.one_program_detail",
                    input_sets=t.count(p.input_sets, "input_set"),
                    shapes=t.count(p.shapes, "distinct_shape"),
                    programs=t.count(p.programs, "program"),
                    method=_said(t, p, "method"),
                ),
            )
        ]
    if p is not None and p.status == "ok" and p.programs_first == 0:  # nothing compiled: not "one program"
        return [
            Evidence(
                answer="dynamic_shapes",
                value=None,
                finding=t("shapes.none_compiled_finding", shapes=t.count(p.shapes, "distinct_shape")),
                detail=t("shapes.none_compiled_detail", method=_said(t, p, "method")),
            )
        ]
    if p is not None:
        return [Evidence(answer="dynamic_shapes", value=None, finding=t("shapes.not_counted_finding"), detail=p.detail)]
    return [
        Evidence(
            answer="dynamic_shapes",
            value=None,
            finding=t("shapes.no_others_finding"),
            detail=t("shapes.no_others_detail"),
        )
    ]


def _high_precision(t: Words, f: Findings) -> Evidence:
    if f.float64:
        return Evidence(
            answer="high_precision",
            value=HIGH_PRECISION_FP64,
            finding=t("precision.fp64_finding"),
            detail=t("precision.fp64_detail", names=_names(t, f.float64, "op")),
        )
    if f.float64_requested:
        where = ", ".join(x for x in f.float64_requested if x) or t("in_the_file")
        return Evidence(
            answer="high_precision",
            value=HIGH_PRECISION_FP64,
            finding=t("precision.asked_finding"),
            detail=t("precision.asked_detail", where=where),
        )
    return Evidence(
        answer="high_precision",
        value=None,
        finding=t("precision.none_finding"),
        detail=t("precision.none_detail"),
    )


#: a count below this fraction of 2 x parameters used x tokens is not plausible for one forward pass.
PLAUSIBLE_FRACTION = 1 / 8


def _expected_minimum(fl: Flops) -> int | None:
    """2 x parameters x tokens: each parameter an operator read does at least a multiply and an add per token."""
    if not fl.parameters_used or not fl.tokens:
        return None
    return 2 * fl.parameters_used * fl.tokens


def _matmul_share(t: Words, f: Findings) -> Evidence:
    fl = f.flops
    total = (fl.matmul + fl.other) if fl is not None else 0
    if fl is None or total <= 0:
        reason = f.instrumentation_error or (t("matmul.not_traced") if fl is None else t("matmul.no_work"))
        return Evidence(answer="matmul_share", value=None, finding=t("matmul.not_counted_finding"), detail=reason)
    share = fl.matmul / total
    value = "dominant" if share >= MATMUL_DOMINANT else "low" if share < MATMUL_LOW else "mixed"
    kinds = t("matmul.kind_separator").join(
        t("matmul.kind_count", kind=_kind(t, k), n=plain_number(v))
        for k, v in sorted(fl.kinds.items(), key=lambda kv: -kv[1])
        if v
    )
    counted = t(
        "matmul.counted",
        matmul=plain_number(fl.matmul),
        total=plain_number(total),
        kinds=t("matmul.kinds", kinds=kinds) if kinds else "",
        dominant=f"{MATMUL_DOMINANT:.0%}",
        low=f"{MATMUL_LOW:.0%}",
    )
    expected = _expected_minimum(fl)
    if expected is not None and total < PLAUSIBLE_FRACTION * expected:
        return Evidence(
            answer="matmul_share",
            value=None,
            finding=t(
                "matmul.incomplete_finding",
                total=plain_number(total),
                parameters=f"{fl.parameters_used:,}",
                tokens=f"{fl.tokens:,}",
                expected=plain_number(expected),
            ),
            detail=t("matmul.incomplete_detail", share=f"{share:.1%}", counted=counted, method=_said(t, fl, "method")),
        )
    return Evidence(
        answer="matmul_share",
        value=value,
        finding=t("matmul.share_finding", share=f"{share:.1%}"),
        detail=t("matmul.share_detail", counted=counted, method=_said(t, fl, "method")),
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


def check_from_findings(
    file: str, findings: Findings, seconds: float, language: str | None = CONTRACT_LANGUAGE
) -> ModelCheck:
    """Map the worker's findings to answers and evidence by the rules in `mapping_rules()`, the evidence in
    `language` (English, the JSON contract's, unless asked; None: the interface language in use)."""
    t = Words(language)
    compiled, not_compiled = _compiled(t, findings)
    if _sparse(findings):  # a compile of a densified sparse argument is not this model's program
        compiled = []
    evidence = [
        _framework(t, findings),
        *compiled,
        _xla_verified(t, findings),
        *not_compiled,
        *_fallback_ops(t, findings),
        _custom_ops(t, findings),
        *_dynamic_shapes(t, findings),
        _high_precision(t, findings),
        _matmul_share(t, findings),
    ]
    for cb in findings.host_callbacks:
        evidence.append(
            Evidence(
                answer="xla_verified",
                value=None,
                finding=t("xla.host_callback_finding"),
                detail=t("xla.host_callback_detail", name=cb.name, at=_at(t, cb.location)),
            )
        )
    breaks = findings.graph_breaks
    if breaks is not None and breaks.status == "ok" and breaks.breaks:
        graphs = t("xla.graph_count", graphs=t.count(breaks.graphs, "graph")) if breaks.graphs is not None else ""
        evidence.append(
            Evidence(
                answer="xla_verified",
                value=None,
                finding=t("xla.graph_breaks_finding", breaks=t.count(len(breaks.breaks), "graph_break")) + graphs,
                detail="; ".join(f"{b.reason}{_at(t, b.location)}" for b in breaks.breaks[:6]),
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
