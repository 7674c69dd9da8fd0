"""The model check in words: the evidence level, the plain-text result (`check-model`), the one-line errors,
and the notes the wizard, the result page and the report show. Pure: no Qt, no torch, no jax.
"""

from __future__ import annotations

from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.modelcheck.contract import ANSWER_FIELDS, HIGH_PRECISION_FP64, ModelCheck, WorkerError
from gpu_tpu_app.core.modelcheck.rules import MAPPING_RULES
from gpu_tpu_app.core.tpu_compile import compiled_generations, generation_name, render_table
from gpu_tpu_app.core.units import clip_words

#: how a failure of the check itself (not of the user's file) is said; such a check exits 1, never 2.
INTERNAL_FAILURE = "the check itself failed (a problem in gpu-tpu-app, not in your file)"
#: findings the worker sent that this app cannot read: the app's problem too (exit 1).
MALFORMED_FINDINGS = "the check's worker sent findings this app cannot read"
LEVEL_TEXT: dict[str, str] = {
    "compiled_for_tpu": "compiled for TPU",
    "lowered_for_tpu": "lowered for TPU",
    "lowered_for_tpu_torchax": "lowered for TPU through torchax",
    "ran_under_torch_xla": "ran under torch_xla (CPU device)",
    "static_graph_captured": "static graph captured (not lowered for TPU)",
    "dynamic_graph_captured": "one graph captured, with data-dependent sizes (not a static graph; not lowered for TPU)",
    "failed": "failed (no static graph)",
}


def error_line(file: str, err: WorkerError) -> str:
    """The one-line message for a bad model file: the file (with the line), the function, what happened."""
    where = f"{file}:{err.line}" if err.line else file
    function = f" in {err.function}" if err.function else ""
    return f"{where}{function}: {err.message}"


def level_text(check: ModelCheck) -> str:
    """The evidence level in words; "compiled for TPU" names the generations it compiled for."""
    if check.level == "compiled_for_tpu":
        catalog = load_catalog()
        done = [generation_name(catalog, g.chip)[0] for g in compiled_generations(check.tpu_compile)]
        return f"compiled for {', '.join(done)}" if done else LEVEL_TEXT[check.level]
    return LEVEL_TEXT[check.level]


# --------------------------------------------------------------------------- text


def render_text(check: ModelCheck, with_rules: bool = True) -> str:
    """The check as plain text: level, each answer with its evidence, then the rules."""
    lines = [
        f"Model check: {check.file} ({check.framework}), {check.seconds:.1f} s",
        f"Evidence level: {level_text(check)}",
        "",
        "Answers (from what was measured):",
    ]
    for name in ANSWER_FIELDS:
        value = getattr(check.answers, name)
        lines.append(f"  {name:<15} {value if value is not None else 'unknown'}")
        for e in check.evidence_for(name):
            lines.append(f"      - {e.finding}")
            if e.detail:
                lines.append(f"        {e.detail}")
    if check.tpu_compile is not None:
        float64 = check.answers.high_precision == HIGH_PRECISION_FP64
        lines += ["", *render_table(check.tpu_compile, load_catalog(), float64)]
    if with_rules:
        lines += ["", "Rules:"] + [f"  - {r}" for r in MAPPING_RULES]
    return "\n".join(lines)


# --------------------------------------------------------------------------- notes for the wizard, result and report


def evidence_text(check: ModelCheck, answer: str) -> str:
    """The evidence of one answer as plain text lines (finding, then its detail)."""
    rows = []
    for e in check.evidence_for(answer):
        rows.append(f"• {e.finding}" + (f"\n  {e.detail}" if e.detail else ""))
    return "\n".join(rows)


def measured_note(check: ModelCheck | None, answer: str, current: str | None) -> str | None:
    """One line for a reason or a report: what the model check measured for `answer`, or None."""
    if check is None or answer not in ANSWER_FIELDS:
        return None
    rows = check.evidence_for(answer)
    if not rows:
        return None
    measured = getattr(check.answers, answer)
    name = check.file.replace("\\", "/").rsplit("/", 1)[-1]
    first = rows[0]
    head = f"Measured in {name}: {first.finding}"
    if first.detail:
        detail = clip_words(first.detail, 140)  # the whole of it: the wizard's Show evidence
        head += f" ({detail})"
    if measured is None:
        return f"{head}; the check could not decide this answer"
    if current is not None and current != measured:
        return f"{head}; measured {measured}, you chose {current}"
    return head
