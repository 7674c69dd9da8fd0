"""The decision engine: answers about a workload in, an explained GPU / TPU recommendation out.

Each answer carries a weighted lean toward the GPU ("the workshop") or the TPU ("the factory
line") from rules.py. The score is tanh of the weighted sum, so it stays in [-1, 1]; hard
constraints (blockers) decide the verdict alone and cap the score on the GPU side. Everything
here is pure and deterministic: the wizard, the CLI and the tests all run the same function,
`outcome`, which works on plain values and records (standard library only); `decide` gives its
answer as the pydantic Recommendation the window, reports and sessions keep.
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING, NamedTuple

from gpu_tpu_app import i18n
from gpu_tpu_app.core.decision.fields import (
    ALWAYS_ASKED,
    CHOICES,
    FACTORS,
    ORDERED,
    Confidence,
    Values,
    Verdict,
    open_questions,
    values_of,
)
from gpu_tpu_app.core.decision.records import (
    BlockerRecord,
    ConflictRecord,
    FlipRecord,
    Outcome,
    ReasonRecord,
)
from gpu_tpu_app.core.decision.regions import tpu_offered_in
from gpu_tpu_app.core.decision.rules import (
    BELOW_THRESHOLD,
    BLOCK_LIFTS,
    BLOCKED_SCORE,
    CONFLICTS_UNDECIDED,
    CORRELATED,
    CORRELATED_SHARE,
    FULL_ENOUGH,
    INFERENCE_DURATION_FACTOR,
    MAX_WEIGHT,
    NOT_XLA_NATIVE,
    PLAYBOOK_GROUP,
    PORTING_COST,
    PORTING_GROWTH,
    SCALE,
    THRESHOLD,
    TOTAL_WEIGHT,
    Rule,
    RuleSet,
    rules_for,
)
from gpu_tpu_app.core.decision.steps import next_steps, steps_for
from gpu_tpu_app.core.localized import sentences

if TYPE_CHECKING:
    from gpu_tpu_app.core.decision.answers import Answers
    from gpu_tpu_app.core.decision.recommendation import Recommendation

# --------------------------------------------------------------------------- the engine core


def _blocked(values: Values, factor: str, rules: RuleSet) -> bool:
    """Whether the answer to `factor` is a blocker here: it is one, and no answer that lifts it is given."""
    value = values[factor]
    if value is None or (factor, value) not in rules.blockers:
        return False
    if factor == "porting_budget" and values["framework"] not in NOT_XLA_NATIVE:
        return False
    if factor == "region":
        return not tpu_offered_in(value)
    lifts = BLOCK_LIFTS.get((factor, value), ())
    return not any(values[field] in lifting for field, lifting in lifts)


def _conflict_count(values: Values, rules: RuleSet) -> int:
    return sum(all(values[f] == v for f, v in c.answers) for c in rules.conflicts.values())


def _small_serving(values: Values) -> bool:
    return values["workload"] == "inference" and values["batch"] == "small"


def _short_finetune(values: Values) -> bool:
    """A short, small-batch fine-tune of a fixed base model (LoRA and the like): hours, a small batch, not
    serving; not a large or massive job, nor a design that changes every week (no fixed base model)."""
    return (
        values["workload"] != "inference"
        and values["duration"] == "hours"
        and values["batch"] == "small"
        and values["scale"] not in ("large", "massive")
        and values["architecture_changes"] != "weekly"
    )


def _tpu_kernels(values: Values) -> bool:
    """Custom operations that are Pallas kernels or XLA custom calls: written for XLA, they run on a TPU."""
    return values["custom_ops"] in ("some", "essential") and values["custom_ops_kind"] == "pallas_xla"


def _variant(values: Values, factor: str, rules: RuleSet) -> str:
    """Which form of a factor's rule applies: a few answers shape how another one counts."""
    value = values[factor]
    if _small_serving(values) and (factor, value) in rules.small_serving:
        return "small_serving"
    if _short_finetune(values) and (factor, value) in rules.short_finetune:
        return "short_finetune"
    if factor == "custom_ops" and _tpu_kernels(values):
        return "tpu_kernels"
    if factor == "embeddings" and values["framework"] == "pytorch":
        return "pytorch"
    if factor == "utilization" and values["workload"] in ("inference", "both"):
        return "serving"
    if factor == "duration" and values["workload"] == "inference":
        return "inference"
    if factor == "matmul_share" and values["embeddings"] == "ultra_large" and values["framework"] != "pytorch":
        return "embeddings"  # SparseCore takes the lookups, where the framework reaches it
    return ""


def _variants(factor: str, value: str, rule: Rule, rules: RuleSet) -> dict[str, Rule]:
    forms = {"": rule}
    if (factor, value) in rules.small_serving:
        forms["small_serving"] = rules.small_serving[(factor, value)]
    if (factor, value) in rules.short_finetune:
        forms["short_finetune"] = rules.short_finetune[(factor, value)]
    if factor == "embeddings":
        forms["pytorch"] = rules.pytorch_embeddings if value == "ultra_large" else rule
    if factor == "utilization":
        forms["serving"] = rules.steady_serving if value == "steady" else rule
    if factor == "matmul_share":
        forms["embeddings"] = rules.embedding_lookups if value in ("irregular", "low") else rule
    if factor == "custom_ops" and value in ("some", "essential"):
        forms["tpu_kernels"] = rules.tpu_kernels
    if factor == "duration":
        forms["inference"] = rule._replace(
            weight=rule.weight * INFERENCE_DURATION_FACTOR, message=sentences(rule.message, rules.inference_note)
        )
    return forms


def _reason(factor: str, value: str, rule: Rule) -> ReasonRecord:
    return ReasonRecord(
        factor=factor,
        answer=value,
        leans=rule.leans,
        weight=round(rule.weight, 3),
        message=rule.message,
        topic=rule.topic,
        sources=tuple(rule.sources),
    )


class _Prepared(NamedTuple):
    """The rules of one language as the engine looks them up, built once."""

    rules: RuleSet
    #: (factor, answer) -> the question's label and the answer's words, as people read them in notes
    said: dict[tuple[str, str], tuple[str, str]]
    #: (factor, answer, variant) -> (signed weight, Reason)
    reasons: dict[tuple[str, str, str], tuple[float, ReasonRecord]]
    blockers: dict[tuple[str, str], BlockerRecord]


def _prepare(rules: RuleSet, said: dict[tuple[str, str], tuple[str, str]] | None = None) -> _Prepared:
    reasons = {
        (factor, value, variant): (rule.weight if rule.leans == "tpu" else -rule.weight, _reason(factor, value, rule))
        for factor, by_value in rules.rules.items()
        for value, base in by_value.items()
        for variant, rule in _variants(factor, value, base, rules).items()
    }
    blockers = {
        (factor, value): BlockerRecord(
            factor=factor, answer=value, verdict=b.verdict, message=b.message, topic=b.topic, sources=tuple(b.sources)
        )
        for (factor, value), b in rules.blockers.items()
    }
    return _Prepared(rules, said or {}, reasons, blockers)


@functools.lru_cache(maxsize=8)
def _prepared(language: str) -> _Prepared:
    """The rules of one language as the engine looks them up, built on first use."""
    from gpu_tpu_app.core.decision.questions import wizard

    said = {
        (field, value): (q.label, words)
        for field, q in wizard(language).questions.items()
        for value, words in q.choices
    }
    return _prepare(rules_for(language), said)


def _words(prepared: _Prepared, factor: str, answer: str) -> tuple[str, str]:
    """A question's label and an answer's words as people read them (the ids where the words are unknown)."""
    return prepared.said.get((factor, answer), (factor, answer))


def __getattr__(name: str) -> object:
    if name == "_ENGLISH":  # the English rules, as the tests reach them
        return _prepared(i18n.DEFAULT_LANGUAGE)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Evaluation(NamedTuple):
    score: float
    blocked: bool
    #: how many pairs of answers contradict each other
    conflicts: int
    blockers: list[BlockerRecord]
    reasons: list[tuple[float, int, ReasonRecord]]  # (-weight, wizard index, reason)


def _combine(
    found: dict[str, tuple[float, ReasonRecord]], prepared: _Prepared, explain: bool = True
) -> dict[str, tuple[float, ReasonRecord]]:
    """Correlated answers: per group and direction the strongest keeps its weight, the others keep
    CORRELATED_SHARE of it, and their reasons say so. Monotone in every answer's signed weight."""
    out = dict(found)
    for group in CORRELATED:
        for sign in (1.0, -1.0):
            members = [f for f in group if f in found and found[f][0] * sign > 0]
            if len(members) < 2:
                continue
            members.sort(key=lambda f: (-abs(found[f][0]), group.index(f)))
            lead = members[0]
            lead_reason = found[lead][1]
            for f in members[1:]:
                signed, reason = found[f]
                shared = signed * CORRELATED_SHARE
                label, words = _words(prepared, lead, lead_reason.answer)
                note = prepared.rules.correlated_note.format(factor=label, answer=words)
                out[f] = (
                    shared,
                    reason._replace(weight=round(abs(shared), 3), message=sentences(reason.message, note))
                    if explain
                    else reason,
                )
    return out


def _porting_cost(
    values: Values, found: dict[str, tuple[float, ReasonRecord]], prepared: _Prepared, explain: bool = True
) -> dict[str, tuple[float, ReasonRecord]]:
    """While XLA is untested, the GPU-side parts of a port (custom operations, changing shapes, a CUDA
    team) weigh as one cost that grows with each part. Monotone in every answer's signed weight."""
    if values["xla_verified"] == "yes":
        return found
    parts = [f for f in PORTING_COST if f in found and found[f][0] < 0]
    if len(parts) < 2:
        return found
    times = 1 + PORTING_GROWTH * (len(parts) - 1)
    out = dict(found)
    for f in parts:
        signed, reason = found[f]
        others = ", ".join("{}: {}".format(*_words(prepared, o, found[o][1].answer)) for o in parts if o != f)
        note = prepared.rules.porting_note.format(others=others, times=f"{times:g}")
        grown = signed * times
        if explain:
            reason = reason._replace(weight=round(abs(grown), 3), message=sentences(reason.message, note))
        out[f] = (grown, reason)
    return out


def _evaluate(values: Values, prepared: _Prepared, explain: bool = True) -> _Evaluation:
    """One pass over the answers: the score (tanh of the signed weighted sum, capped by blockers),
    the blockers that apply and the weighted reasons (correlated answers combined). Without
    `explain` the score and blockers are the same, and the reasons' notes are left out (flips)."""
    rules = prepared.rules
    blockers: list[BlockerRecord] = []
    found: dict[str, tuple[float, ReasonRecord]] = {}
    for factor in FACTORS:
        value = values[factor]
        if value is None:
            continue
        if _blocked(values, factor, rules):
            blockers.append(prepared.blockers[(factor, value)])
            continue
        rule = prepared.reasons.get((factor, value, _variant(values, factor, rules)))
        if rule is not None:
            found[factor] = rule
    combined = _combine(_porting_cost(values, found, prepared, explain), prepared, explain)
    total = sum(signed for signed, _r in combined.values())
    # a blocked factor's own lean still counts toward the (capped) score, as before
    for b in blockers:
        lean = prepared.reasons.get((b.factor, b.answer, _variant(values, b.factor, rules)))
        if lean is not None:
            total += lean[0]
    score = math.tanh(total / SCALE)
    tpu_side = {factor for factor, (signed, _r) in combined.items() if signed > 0}
    if score >= THRESHOLD and tpu_side and tpu_side <= set(PLAYBOOK_GROUP):
        # the playbook says a settled design is when it is time to *look at* the TPU: on its own it is no verdict
        score = min(score, BELOW_THRESHOLD)
        lead = max(tpu_side, key=lambda f: (combined[f][0], -FACTORS.index(f)))
        signed, reason = combined[lead]
        if explain:
            reason = reason._replace(message=sentences(reason.message, rules.playbook_alone))
        combined[lead] = (signed, reason)
    index = {factor: i for i, factor in enumerate(FACTORS)}
    reasons = [(-reason.weight, index[factor], reason) for factor, (_s, reason) in combined.items()]
    if blockers:
        score = min(score, BLOCKED_SCORE)
    elif sum(value is not None for value in values.values()) < FULL_ENOUGH:
        # a few answers lean, but they are no verdict yet: the score stays in the "either" band
        score = max(-BELOW_THRESHOLD, min(BELOW_THRESHOLD, score))
    return _Evaluation(round(score, 4), bool(blockers), _conflict_count(values, rules), blockers, reasons)


def _verdict(score: float, blocked: bool, conflicts: int = 0) -> Verdict:
    """GPU when a blocker applies; "either" when the answers contradict each other in two places or more
    (they cannot carry a verdict until answered again); otherwise the score's side of the threshold."""
    if blocked:
        return "gpu"
    if conflicts >= CONFLICTS_UNDECIDED:
        return "either"
    if score <= -THRESHOLD:
        return "gpu"
    if score >= THRESHOLD:
        return "tpu"
    return "either"


_LOWER: dict[Confidence, Confidence] = {"high": "medium", "medium": "low", "low": "low"}


def _conflicts(values: Values, rules: RuleSet) -> list[ConflictRecord]:
    """The pairs of answers that contradict each other, in the rules' order."""
    return [
        ConflictRecord(
            id=cid, factors=tuple(f for f, _v in c.answers), answers=tuple(v for _f, v in c.answers), message=c.message
        )
        for cid, c in rules.conflicts.items()
        if all(values[f] == v for f, v in c.answers)
    ]


def compatibility_gates(values: Values) -> list[str]:
    """The answers that say the code may not run well on a TPU yet, whatever the business answers add up to:
    XLA untried, custom operations that run on GPUs only (CUDA, Triton, or a kind not stated), changing
    shapes, a CUDA-only team. With any of them a TPU verdict is at most "low" (the gates come first)."""
    gates = []
    if values["xla_verified"] is None:
        gates.append("xla_verified")
    if values["custom_ops"] in ("some", "essential") and not _tpu_kernels(values):
        gates.append("custom_ops")
    if values["dynamic_shapes"] == "yes":
        gates.append("dynamic_shapes")
    if values["team"] == "cuda":
        gates.append("team")
    return gates


def pilot_caps(values: Values) -> list[str]:
    """The answers after which compiling is not yet speed: irregular memory access (gathers and scatters) and
    code that runs under XLA only with its kernels swapped for fallbacks. A TPU verdict is at most "medium"
    until a pilot has timed them."""
    caps = []
    if values["matmul_share"] == "irregular":
        caps.append("matmul_share")
    if values["xla_verified"] == "with_fallbacks":
        caps.append("xla_verified")
    if values["high_precision"] == "fp32":
        caps.append("high_precision")
    return caps


def not_the_bottleneck(values: Values) -> bool:
    """The answers say the host CPUs or the input pipeline limit the work: no accelerator fixes that."""
    return values["bottleneck"] in ("cpu", "input")


def _confidence(values: Values, score: float, verdict: Verdict, blocked: bool, conflicts: int = 0) -> Confidence:
    """Blockers decide with high confidence; otherwise the answered share and the margin both count.

    A TPU verdict stays at most "medium" until the framework check has passed (xla_verified = yes):
    the lesson's rule is to verify rather than assume; and with strict fp32 (which a TPU's matrix
    units reach only in three to six bf16 passes), irregular memory access or kernels swapped for
    fallbacks, until a pilot has timed it (pilot_caps). With a compatibility gate open it is at most
    "low" (compatibility_gates). Answers that contradict each other lower the confidence one level;
    two contradictions or more, or answers that say the accelerator is not the bottleneck, make it "low".
    """
    if blocked:
        return "high"
    if conflicts >= CONFLICTS_UNDECIDED or not_the_bottleneck(values):
        return "low"
    answered = sum(MAX_WEIGHT[f] for f in FACTORS if values[f] is not None) / TOTAL_WEIGHT
    margin = THRESHOLD - abs(score) if verdict == "either" else abs(score) - THRESHOLD
    if answered >= 0.7 and margin >= 0.25:
        level: Confidence = "high"
    elif answered >= 0.4 and margin >= 0.08:
        level = "medium"
    else:
        level = "low"
    if verdict == "tpu" and level == "high" and (values["xla_verified"] != "yes" or pilot_caps(values)):
        level = "medium"
    if verdict == "tpu" and compatibility_gates(values):
        level = "low"
    return _LOWER[level] if conflicts else level


#: at most this many flips are listed.
MAX_FLIPS = 5


def _flips(values: Values, verdict: Verdict, score: float, prepared: _Prepared) -> list[FlipRecord]:
    """What single changed answer would change the verdict: answered questions only, strongest first.

    Per answered factor the smallest change that flips the verdict is kept (nearest in the factor's
    order first, then the smallest move of the score, then the table order). The flips are then
    ordered by how far they move the score, largest first, and at most MAX_FLIPS are kept.
    """
    found: list[tuple[float, int, FlipRecord]] = []
    for position, factor in enumerate(FACTORS):
        current = values[factor]
        if current is None:
            continue  # nobody answered it: the open questions are listed apart
        order = ORDERED.get(factor)
        best: tuple[tuple[int, float, int], str, Verdict] | None = None
        for index, candidate in enumerate(CHOICES[factor]):
            if candidate == current:
                continue
            # only the score and the verdict matter here: decide() without its words and steps
            rerun = _evaluate({**values, factor: candidate}, prepared, explain=False)
            rerun_verdict = _verdict(rerun.score, rerun.blocked, rerun.conflicts)
            if rerun_verdict == verdict:
                continue
            distance = abs(order.index(candidate) - order.index(current)) if order and current is not None else 0
            key = (distance, abs(rerun.score - score), index)
            if best is None or key < best[0]:
                best = (key, candidate, rerun_verdict)
        if best is not None:
            flip = FlipRecord(factor=factor, from_=current, to=best[1], verdict=best[2])
            found.append((-best[0][1], position, flip))
    found.sort(key=lambda item: (item[0], item[1]))
    return [flip for _move, _pos, flip in found[:MAX_FLIPS]]


# --------------------------------------------------------------------------- public entry point


def decide(answers: Answers, flips: bool = True, language: str | None = None) -> Recommendation:
    """Turn answers into a recommendation; with flips, also find what single change would flip it.

    The words (reasons, blockers, conflicts, next steps) are those of `language` (None: the language
    in use); everything else (verdict, score, confidence, ids, flips) is the same in every language.
    """
    from gpu_tpu_app.core.decision.recommendation import recommendation

    return recommendation(outcome(values_of(answers), flips, language))


def outcome(values: Values, flips: bool = True, language: str | None = None) -> Outcome:
    """`decide` on the answers as a mapping of field to value (None: unknown), as plain records."""
    lang = language or i18n.current_language()
    prepared = _prepared(lang)
    ev = _evaluate(values, prepared)
    verdict = _verdict(ev.score, ev.blocked, ev.conflicts)
    ev.reasons.sort(key=lambda item: (item[0], item[1]))
    conflicts = _conflicts(values, prepared.rules)
    steps = next_steps(
        values, verdict, [b.factor for b in ev.blockers], steps_for(lang), [c.factors for c in conflicts]
    )
    return Outcome(
        verdict=verdict,
        score=ev.score,
        confidence=_confidence(values, ev.score, verdict, ev.blocked, len(conflicts)),
        blockers=ev.blockers,
        reasons=[reason for _w, _i, reason in ev.reasons],
        flips=_flips(values, verdict, ev.score, prepared) if flips else [],
        next_steps=[step.line for step in steps],
        unanswered=open_questions(values),
        conflicts=conflicts,
        steps=steps,
    )


# --------------------------------------------------------------------------- enough to go on

#: With fewer answered questions than this (and no blocker) there is no verdict yet: one or two
#: answers can push the score to either end with nothing to weigh them against.
MIN_ANSWERS_FOR_VERDICT = 3


def question_count() -> int:
    """How many questions the answered count is out of: every question but the follow-ups."""
    return len(ALWAYS_ASKED)


def answered_count(rec: Recommendation | Outcome) -> int:
    """How many of the wizard's questions the recommendation was given (follow-up questions, asked after
    some answers only, do not count)."""
    return len(ALWAYS_ASKED) - len(set(rec.unanswered) & set(ALWAYS_ASKED))


def leans_only(rec: Recommendation | Outcome) -> bool:
    """True when the answers are too few to decide (rules.FULL_ENOUGH) and no blocker does: the verdict is
    "either" at low confidence, whichever way the score leans."""
    return not rec.blockers and answered_count(rec) < FULL_ENOUGH


def has_verdict(rec: Recommendation | Outcome) -> bool:
    """True when there is enough to go on: a blocker (decisive alone) or enough answered questions."""
    return bool(rec.blockers) or answered_count(rec) >= MIN_ANSWERS_FOR_VERDICT
