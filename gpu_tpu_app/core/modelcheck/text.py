"""The model check in words: the evidence level, the plain-text result (`check-model`), the one-line errors,
and the notes the wizard, the result page and the report show, in the interface language (the sentences in
resources/text/modelcheck.<language>.toml; `language` None is the one in use). Pure: no Qt, no torch, no jax.
"""

from __future__ import annotations

from gpu_tpu_app import i18n
from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.modelcheck.contract import ANSWER_FIELDS, HIGH_PRECISION_FP64, ModelCheck, WorkerError
from gpu_tpu_app.core.modelcheck.rules import CONTRACT_LANGUAGE, Words, mapping_rules
from gpu_tpu_app.core.tpu_compile import compiled_generations, generation_name, render_table
from gpu_tpu_app.shared.units import clip_words

#: how a failure of the check itself (not of the user's file) is said; such a check exits 1, never 2.
INTERNAL_FAILURE = Words(CONTRACT_LANGUAGE)("errors.internal_failure")
#: findings the worker sent that this app cannot read: the app's problem too (exit 1).
MALFORMED_FINDINGS = Words(CONTRACT_LANGUAGE)("errors.malformed")
#: the evidence levels in English (the JSON contract's `level` ids in words).
LEVEL_TEXT: dict[str, str] = {
    level: Words(CONTRACT_LANGUAGE)(f"level.{level}")
    for level in (
        "compiled_for_tpu",
        "lowered_for_tpu",
        "lowered_for_tpu_torchax",
        "ran_under_torch_xla",
        "static_graph_captured",
        "dynamic_graph_captured",
        "failed",
    )
}


def own_failure(message: str) -> bool:
    """Whether a one-line error says the check itself failed (exit 1), in any of the app's languages."""
    return any(
        Words(lang)(key) in message
        for lang in i18n.LANGUAGES
        for key in ("errors.internal_failure", "errors.malformed")
    )


def error_line(file: str, err: WorkerError, language: str | None = None) -> str:
    """The one-line message for a bad model file: the file (with the line), the function, what happened."""
    where = f"{file}:{err.line}" if err.line else file
    function = Words(language)("in_function", function=err.function) if err.function else ""
    return f"{where}{function}: {err.message}"


def level_text(check: ModelCheck, language: str | None = None) -> str:
    """The evidence level in words; "compiled for TPU" names the generations it compiled for."""
    t = Words(language)
    if check.level == "compiled_for_tpu":
        catalog = load_catalog()
        done = [generation_name(catalog, g.chip)[0] for g in compiled_generations(check.tpu_compile)]
        return t("level.compiled_for", generations=", ".join(done)) if done else t(f"level.{check.level}")
    return t(f"level.{check.level}")


# --------------------------------------------------------------------------- text


def render_text(check: ModelCheck, with_rules: bool = True, language: str | None = None) -> str:
    """The check as plain text: level, each answer with its evidence, then the rules."""
    t = Words(language)
    lines = [
        t("render.title", file=check.file, framework=check.framework, seconds=f"{check.seconds:.1f}"),
        t("render.level", level=level_text(check, language)),
        "",
        t("render.answers"),
    ]
    for name in ANSWER_FIELDS:
        value = getattr(check.answers, name)
        lines.append(f"  {name:<15} {value if value is not None else t('render.unknown')}")
        for e in check.evidence_for(name):
            lines.append(f"      - {e.finding}")
            if e.detail:
                lines.append(f"        {e.detail}")
    if check.tpu_compile is not None:
        float64 = check.answers.high_precision == HIGH_PRECISION_FP64
        lines += ["", *render_table(check.tpu_compile, load_catalog(), float64, language)]
    if with_rules:
        lines += ["", t("render.rules")] + [f"  - {r}" for r in mapping_rules(language)]
    return "\n".join(lines)


# --------------------------------------------------------------------------- notes for the wizard, result and report


def evidence_text(check: ModelCheck, answer: str) -> str:
    """The evidence of one answer as plain text lines (finding, then its detail)."""
    rows = []
    for e in check.evidence_for(answer):
        rows.append(f"• {e.finding}" + (f"\n  {e.detail}" if e.detail else ""))
    return "\n".join(rows)


def measured_note(
    check: ModelCheck | None, answer: str, current: str | None, language: str | None = None
) -> str | None:
    """One line for a reason or a report: what the model check measured for `answer`, or None."""
    if check is None or answer not in ANSWER_FIELDS:
        return None
    rows = check.evidence_for(answer)
    if not rows:
        return None
    t = Words(language)
    measured = getattr(check.answers, answer)
    name = check.file.replace("\\", "/").rsplit("/", 1)[-1]
    first = rows[0]
    head = t("note.measured", name=name, finding=first.finding)
    if first.detail:
        detail = clip_words(first.detail, 140)  # the whole of it: the wizard's Show evidence
        head += f" ({detail})"
    if measured is None:
        return t("note.undecided", head=head)
    if current is not None and current != measured:
        return t("note.differs", head=head, measured=measured, current=current)
    return head
