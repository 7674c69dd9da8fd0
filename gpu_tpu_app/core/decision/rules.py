"""The rules: how far each answer leans toward the GPU ("the workshop") or the TPU ("the factory
line"), drawn from the lesson's playbook and Google's own guidance on when TPUs fit.

Here are ids, weights, explainer topics and source ids only; each rule's words are content
(resources/decision, `rules.<question>.<answer>` and the sections beside it), joined to the
weights by build_rules, once per language on first use (rules_for). The score is tanh of the weighted sum (engine.py), so it stays in
[-1, 1]; hard constraints (blockers) decide the verdict alone and cap the score on the GPU side.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import NamedTuple

from gpu_tpu_app import i18n
from gpu_tpu_app.core.decision.content import DecisionText, packaged_text
from gpu_tpu_app.core.decision.fields import FACTORS, ORDERED, Leans
from gpu_tpu_app.core.localized import InLanguage, sentences

#: |score| below this is "either".
THRESHOLD = 0.15
#: the weighted sum is divided by this before tanh: one moderate answer alone stays near "either".
SCALE = 4.0
#: with a blocker the score is at most this (GPU side), whatever the other answers say.
BLOCKED_SCORE = -0.5


class Lean(NamedTuple):
    """One answer value's lean as the code keeps it: direction, weight, topic id, source ids."""

    leans: Leans
    weight: float
    topic: str
    sources: tuple[str, ...]


class Block(NamedTuple):
    """A hard constraint as the code keeps it: the verdict it forces, topic id, source ids, and the answers
    that lift it (field -> values: any one of them, answered by the user or measured by the framework check,
    and the blocker does not apply; its words say so)."""

    verdict: Leans
    topic: str
    sources: tuple[str, ...]
    lifted_by: tuple[tuple[str, tuple[str, ...]], ...] = ()


class Rule(NamedTuple):
    """The lean of one answer value: direction, weight, plain-words message, topic, sources."""

    leans: Leans
    weight: float
    message: str
    topic: str
    sources: tuple[str, ...]


class BlockerRule(NamedTuple):
    """A hard constraint with its words: the verdict it forces, message, topic, sources."""

    verdict: Leans
    message: str
    topic: str
    sources: tuple[str, ...]


def _gpu(weight: float, topic: str, *sources: str) -> Lean:
    return Lean("gpu", weight, topic, sources)


def _tpu(weight: float, topic: str, *sources: str) -> Lean:
    return Lean("tpu", weight, topic, sources)


#: factor -> answer -> lean (words: rules.<factor>.<answer>). An answer with no entry leans neither way.
_LEANS: dict[str, dict[str, Lean]] = {
    "framework": {
        "jax": _tpu(0.6, "software", "lesson-ch3", "lesson-ch7", "lesson-faq-extended"),
        "tensorflow": _tpu(0.3, "software", "lesson-ch3", "google-tpu7x"),
        "pytorch": _gpu(0.3, "software", "lesson-ch4", "pytorch-xla-3356", "pytorch-xla-6614"),
        "other": _gpu(0.8, "software", "lesson-ch4", "lesson-faq-extended"),
    },
    "xla_verified": {
        "yes": _tpu(0.8, "software", "lesson-ch7", "lesson-faq-extended"),
        "with_fallbacks": _tpu(0.3, "software", "lesson-ch7", "google-tpu-intro"),
        "no": _gpu(1.0, "software", "lesson-ch7", "lesson-faq-extended"),
    },
    "custom_ops": {
        "none": _tpu(0.3, "flexibility", "google-tpu-intro"),
        "some": _gpu(0.5, "flexibility", "lesson-ch4", "google-tpu-intro"),
        "essential": _gpu(1.2, "flexibility", "lesson-ch4", "google-tpu-intro"),
    },
    "dynamic_shapes": {
        "yes": _gpu(0.6, "software", "jax-sharp-bits", "pytorch-xla-3356"),
        "no": _tpu(0.2, "software", "jax-sharp-bits"),
    },
    "high_precision": {
        "fp64": _gpu(1.0, "architecture", "google-tpu-intro"),
        "fp32": _gpu(0.5, "architecture", "google-tpu-intro", "jax-matmul-precision"),
    },
    "stage": {
        "exploring": _gpu(0.8, "playbook", "lesson-ch7", "lesson-faq-extended"),
        "stabilizing": _tpu(0.15, "playbook", "lesson-ch7"),
        "production": _tpu(0.7, "playbook", "lesson-ch7", "lesson-faq-extended"),
    },
    "architecture_changes": {
        "weekly": _gpu(0.7, "flexibility", "lesson-ch4", "lesson-ch7"),
        "monthly": _gpu(0.2, "flexibility", "lesson-ch4"),
        "locked": _tpu(0.6, "flexibility", "lesson-quote-1", "lesson-faq-extended"),
    },
    "scale": {
        "small": _gpu(0.6, "workload", "lesson-guide", "google-tpu-intro"),
        "medium": _gpu(0.1, "workload", "google-tpu-intro"),
        "large": _tpu(0.4, "workload", "lesson-guide", "google-tpu-intro"),
        "massive": _tpu(0.8, "workload", "lesson-ch3", "lesson-ch7", "google-tpu-intro"),
    },
    "batch": {
        "small": _gpu(0.3, "workload", "google-tpu-intro"),
        "large": _tpu(0.4, "workload", "lesson-guide", "google-tpu-intro"),
    },
    "duration": {
        "hours": _gpu(0.3, "workload", "lesson-ch6", "pytorch-xla-6614"),
        "days": _tpu(0.1, "workload", "lesson-ch3"),
        "weeks": _tpu(0.6, "workload", "lesson-ch3", "google-tpu-intro"),
    },
    "matmul_share": {
        "irregular": _gpu(0.7, "architecture", "google-tpu-intro"),
        "low": _gpu(0.7, "architecture", "google-tpu-intro"),
        "mixed": _gpu(0.1, "architecture", "lesson-ch3"),
        "dominant": _tpu(0.7, "architecture", "google-tpu-intro", "lesson-guide", "lesson-faq"),
    },
    "embeddings": {
        "ultra_large": _tpu(0.6, "architecture", "google-tpu-intro"),
    },
    "team": {
        "cuda": _gpu(0.6, "workflow", "lesson-ch4", "lesson-ch7"),
        "xla": _tpu(0.5, "workflow", "lesson-ch4", "lesson-faq-extended"),
        "general": _gpu(0.1, "workflow", "lesson-faq-extended", "lesson-ch6"),
    },
    "porting_budget": {
        "none": _gpu(0.6, "cost", "lesson-ch5", "lesson-ch7"),
        "some": _tpu(0.05, "cost", "lesson-ch5"),
        "ample": _tpu(0.3, "cost", "lesson-ch5", "lesson-faq-extended"),
    },
    "deployment": {
        "google_cloud": _tpu(0.4, "cost", "lesson-ch4", "lesson-faq-extended"),
        "any_cloud": _gpu(0.7, "cost", "lesson-ch5", "lesson-faq-extended"),
        "aws": _gpu(1.0, "cost", "lesson-faq-extended", "google-tpu-intro"),
        "azure": _gpu(1.0, "cost", "lesson-faq-extended", "google-tpu-intro"),
        "other_cloud": _gpu(1.0, "cost", "lesson-faq-extended", "google-tpu-intro"),
        "on_premises": _gpu(1.0, "cost", "lesson-faq-extended", "google-tpu-intro"),
        "local": _gpu(1.0, "cost", "lesson-faq-extended", "google-tpu-intro"),
    },
    "burst_capacity": {
        "yes": _gpu(0.5, "cost", "lesson-ch7", "lesson-ch5"),
        "no": _tpu(0.1, "cost", "lesson-ch5"),
    },
    "utilization": {
        "sporadic": _gpu(0.4, "utilization", "lesson-ch5"),
        "steady": _tpu(0.4, "utilization", "lesson-ch5", "lesson-faq-extended"),
    },
    "data_pipeline": {
        "slow": _gpu(0.5, "utilization", "lesson-ch6"),
        "fast": _tpu(0.2, "utilization", "lesson-ch6"),
    },
    "cost_focus": {
        "hardware": _tpu(0.3, "cost", "lesson-ch5", "lesson-faq"),
        "engineering": _gpu(0.4, "cost", "lesson-ch5", "lesson-faq-extended"),
    },
    "capacity_held": {
        "tpu": _tpu(0.4, "cost", "lesson-ch5"),
        "gpu": _gpu(0.4, "cost", "lesson-ch5"),
    },
}

#: Rules that replace an answer's usual one when other answers change what it means (words: variants.<id>).
#: steady_serving: sustained serving on a steady queue is a TPU strength of its own (replaces utilization/steady
#: when the chips serve); embedding_lookups: embedding lookups are the "low matmul share" work SparseCores take
#: on (replaces matmul_share/low when embeddings are ultra-large).
#: pytorch_embeddings: SparseCore is reached from TensorFlow's TPUEmbedding and JAX's SparseCore API, not from
#: TorchRec or FBGEMM, so for PyTorch code ultra-large embeddings mean a rewrite (replaces embeddings/ultra_large).
_VARIANT_LEANS: dict[str, Lean] = {
    "steady_serving": _tpu(0.6, "utilization", "lesson-guide", "lesson-ch5"),
    "embedding_lookups": _gpu(0.1, "architecture", "google-tpu-intro"),
    "pytorch_embeddings": _gpu(0.5, "architecture", "jax-sparsecore", "tf-tpu-embedding"),
    "tpu_kernels": _tpu(0.2, "flexibility", "google-tpu-intro"),
}

#: a training run's length matters less when the chips mostly serve: duration weights scale by this.
INFERENCE_DURATION_FACTOR = 0.5

#: Small-batch serving: token-by-token decoding at a small batch reads every weight from memory for a few
#: tokens, so it is bound by memory bandwidth and latency, not by matrix units. The playbook's "stable
#: design at scale" answers were written for scaling training; for such serving they only say a port is
#: possible. These rules replace the usual ones when workload is inference and batch is small
#: (words: small_serving.<factor>.<answer>; those in _SMALL_SERVING_NOTED add notes.small_serving).
_SMALL_SERVING_LEANS: dict[tuple[str, str], Lean] = {
    ("batch", "small"): _gpu(0.6, "workload", "google-tpu-intro", "lesson-guide"),
    ("stage", "production"): _tpu(0.15, "playbook", "lesson-ch7"),
    ("architecture_changes", "locked"): _tpu(0.15, "flexibility", "lesson-quote-1"),
    ("utilization", "steady"): _tpu(0.1, "utilization", "lesson-ch5"),
    ("matmul_share", "dominant"): _tpu(0.2, "architecture", "google-tpu-intro"),
}
_SMALL_SERVING_NOTED = frozenset(
    {("stage", "production"), ("architecture_changes", "locked"), ("utilization", "steady")}
)

#: Short, small-batch fine-tunes of a fixed base model (LoRA and the like: runs of hours at a small batch, not
#: serving): a locked architecture and dominant matrix math there are not the lesson's "stable design scaling on
#: a mountain of data", so they count little (words: the usual rule's, plus notes.short_finetune).
_SHORT_FINETUNE_LEANS: dict[tuple[str, str], Lean] = {
    ("stage", "production"): _tpu(0.15, "playbook", "lesson-ch7"),
    ("architecture_changes", "locked"): _tpu(0.15, "flexibility", "lesson-quote-1"),
    ("matmul_share", "dominant"): _tpu(0.2, "architecture", "google-tpu-intro"),
}

#: Answers that contradict each other are found by rule (words: conflicts.<id>, the id "<answer>_<answer>"):
#: two ordered questions that move together (a settled design changes seldom; a small model trains briefly)
#: contradict each other at opposite ends of their orders, and a CUDA team contradicts code that is
#: XLA-native. Each conflict found is named on the result page and lowers the confidence one level; two or
#: more make the verdict "either" at low confidence, with a step to answer them again (engine.py).
_MOVE_TOGETHER: tuple[tuple[str, str], ...] = (("stage", "architecture_changes"), ("scale", "duration"))
#: team -> the frameworks whose code points to another stack than the team's skills.
_TEAM_MISMATCH: dict[str, tuple[str, ...]] = {"cuda": ("jax", "tensorflow")}


def _conflict_pairs() -> dict[str, tuple[tuple[str, str], tuple[str, str]]]:
    pairs: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {}
    for first, second in _MOVE_TOGETHER:
        one, two = ORDERED[first], ORDERED[second]
        for a, b in ((one[0], two[-1]), (one[-1], two[0])):
            pairs[f"{a}_{b}"] = ((first, a), (second, b))
    for team, frameworks in _TEAM_MISMATCH.items():
        for framework in frameworks:
            pairs[f"{team}_{framework}"] = (("team", team), ("framework", framework))
    return pairs


_CONFLICTS: dict[str, tuple[tuple[str, str], tuple[str, str]]] = _conflict_pairs()
#: with this many conflicts or more the answers cannot carry a verdict: "either", low, answer them again.
CONFLICTS_UNDECIDED = 2
#: Answers that say much the same thing: within a group, per direction, the strongest counts in full and the
#: others at half, so one fact told twice is not counted as two pieces of evidence.
CORRELATED: tuple[tuple[str, ...], ...] = (
    ("stage", "architecture_changes"),
    ("scale", "batch", "duration"),
)
#: share of its weight that a non-strongest answer of a correlated group keeps.
CORRELATED_SHARE = 0.5
#: when the only answers for the TPU are these, the verdict stays "either" (score just under the threshold).
PLAYBOOK_GROUP = CORRELATED[0]
BELOW_THRESHOLD = 0.14
#: with fewer answers than this and no blocker, the answers lean but decide nothing: the verdict is
#: "either" (score within the band) at low confidence.
FULL_ENOUGH = 5

#: what running under XLA means for lifting a blocker: it compiles and runs, cleanly or with fallbacks.
RUNS_UNDER_XLA = ("yes", "with_fallbacks")

#: (factor, answer) -> blocker (words: blockers.<factor>.<answer>, which say what lifts it). A blocker with
#: `lifted_by` does not apply when any of those answers is given (or measured by the framework check):
#: framework "other" once the code runs under XLA; essential custom operations when they are Pallas kernels
#: or XLA custom calls; porting_budget "none" applies only to code that is not XLA-native (NOT_XLA_NATIVE)
#: and lifts once it runs under XLA: no time to port means the code runs on a TPU only if it already does.
#: A region blocks when the price table lists no TPU there (engine.py asks the table).
_BLOCKS: dict[tuple[str, str], Block] = {
    ("framework", "other"): Block(
        "gpu", "software", ("lesson-faq-extended", "lesson-ch7"), (("xla_verified", RUNS_UNDER_XLA),)
    ),
    ("xla_verified", "no"): Block("gpu", "software", ("lesson-ch7", "lesson-faq-extended")),
    ("custom_ops", "essential"): Block(
        "gpu", "flexibility", ("google-tpu-intro", "lesson-ch4"), (("custom_ops_kind", ("pallas_xla",)),)
    ),
    ("high_precision", "fp64"): Block("gpu", "architecture", ("google-tpu-intro",)),
    ("deployment", "on_premises"): Block("gpu", "cost", ("lesson-faq-extended", "google-tpu-intro")),
    ("deployment", "other_cloud"): Block("gpu", "cost", ("lesson-faq-extended", "google-tpu-intro")),
    ("deployment", "local"): Block("gpu", "cost", ("lesson-faq-extended", "google-tpu-intro")),
    ("deployment", "aws"): Block("gpu", "cost", ("lesson-faq-extended", "google-tpu-intro")),
    ("deployment", "azure"): Block("gpu", "cost", ("lesson-faq-extended", "google-tpu-intro")),
    # the playbook's order: can this code run on a TPU at all, before how big it is
    ("porting_budget", "none"): Block(
        "gpu",
        "software",
        ("lesson-ch7", "lesson-ch4", "pytorch-xla-3356"),
        (("xla_verified", RUNS_UNDER_XLA), ("framework", ("jax", "tensorflow"))),
    ),
    **{
        ("region", area): Block("gpu", "cost", ("google-tpu-intro", "gce-gpus"))
        for area in ("us", "canada", "europe", "asia_pacific")
    },
}
#: (factor, answer) -> the answers that lift that blocker (field, values).
BLOCK_LIFTS: dict[tuple[str, str], tuple[tuple[str, tuple[str, ...]], ...]] = {
    key: block.lifted_by for key, block in _BLOCKS.items() if block.lifted_by
}
#: frameworks whose code reaches XLA only through a port (torch_xla, or no known route at all).
NOT_XLA_NATIVE = ("pytorch", "other")

#: With XLA untested, these GPU-side answers (custom operations, changing shapes, a CUDA team) are parts of
#: one cost, the port: each makes it larger, so n of them each weigh 1 + PORTING_GROWTH x (n - 1) times
#: their own weight rather than adding up as small leans that a big job outweighs (the lesson: a CUDA
#: team's switching cost "might be higher than the hardware savings").
PORTING_COST: tuple[str, ...] = ("custom_ops", "dynamic_shapes", "team")
PORTING_GROWTH = 0.5


def rule_ids() -> dict[str, list[str]]:
    """Every id whose words the content file must hold, per section (tests compare both ways)."""
    return {
        "rules": [f"{factor}.{value}" for factor, by_value in _LEANS.items() for value in by_value],
        "small_serving": [f"{factor}.{value}" for factor, value in _SMALL_SERVING_LEANS],
        "variants": list(_VARIANT_LEANS),
        "conflicts": list(_CONFLICTS),
        "blockers": [f"{factor}.{value}" for factor, value in _BLOCKS],
    }


class ConflictRule(NamedTuple):
    """Two answers that contradict each other, and the sentence that names them."""

    answers: tuple[tuple[str, str], tuple[str, str]]
    message: str


class RuleSet(NamedTuple):
    """The rules joined to their words in one language."""

    rules: dict[str, dict[str, Rule]]
    steady_serving: Rule
    embedding_lookups: Rule
    small_serving: dict[tuple[str, str], Rule]
    short_finetune: dict[tuple[str, str], Rule]
    pytorch_embeddings: Rule
    #: custom operations written as Pallas kernels or XLA custom calls: they run on a TPU
    tpu_kernels: Rule
    conflicts: dict[str, ConflictRule]
    blockers: dict[tuple[str, str], BlockerRule]
    #: the sentence that says an inference job's duration counts half
    inference_note: str
    #: "counted at half" for a correlated answer, with {factor} and {answer} of the one it repeats
    correlated_note: str
    #: added to the lead reason when a settled design is the only case for the TPU
    playbook_alone: str
    #: added to each part of the porting cost, with {others} (the other parts) and {times}
    porting_note: str


def _grouped(pairs: list[tuple[str, str]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for factor, value in pairs:
        out.setdefault(factor, []).append(value)
    return out


def _section(text: DecisionText, name: str, table: dict[str, dict[str, str]], pairs: list[tuple[str, str]]) -> None:
    """Check that a factor -> answer -> words section holds exactly `pairs`, naming the file and field."""
    wanted = _grouped(pairs)
    text.require(name, table, wanted)
    for factor, values in wanted.items():
        text.require(f"{name}.{factor}", table[factor], values)


def build_rules(text: DecisionText) -> RuleSet:
    """The rules with the words of `text`; InputError naming the file and field when an id lacks its words."""
    _section(text, "rules", text.rules, [(f, v) for f, by_value in _LEANS.items() for v in by_value])
    _section(text, "small_serving", text.small_serving, list(_SMALL_SERVING_LEANS))
    _section(text, "blockers", text.blockers, list(_BLOCKS))
    text.require("variants", text.variants, _VARIANT_LEANS)
    text.require("conflicts", text.conflicts, _CONFLICTS)
    for path, words in [
        *[(f"rules.{f}.{v}", w) for f, by_value in text.rules.items() for v, w in by_value.items()],
        *[(f"small_serving.{f}.{v}", w) for f, by_value in text.small_serving.items() for v, w in by_value.items()],
        *[(f"blockers.{f}.{v}", w) for f, by_value in text.blockers.items() for v, w in by_value.items()],
        *[(f"variants.{k}", w) for k, w in text.variants.items()],
        *[(f"conflicts.{k}", w) for k, w in text.conflicts.items()],
        ("notes.short_finetune", text.notes.short_finetune),
        ("notes.small_serving", text.notes.small_serving),
        ("notes.inference_duration", text.notes.inference_duration),
        ("notes.playbook_alone", text.notes.playbook_alone),
    ]:
        text.template(path, words, ())
    correlated = text.template("notes.correlated", text.notes.correlated, ("factor", "answer"))
    porting = text.template("notes.porting_cost", text.notes.porting_cost, ("others", "times"))

    def rule(lean: Lean, message: str) -> Rule:
        return Rule(lean.leans, lean.weight, message, lean.topic, lean.sources)

    small = {
        (f, v): rule(
            lean,
            sentences(text.small_serving[f][v], text.notes.small_serving)
            if (f, v) in _SMALL_SERVING_NOTED
            else text.small_serving[f][v],
        )
        for (f, v), lean in _SMALL_SERVING_LEANS.items()
    }
    return RuleSet(
        rules={f: {v: rule(lean, text.rules[f][v]) for v, lean in by_value.items()} for f, by_value in _LEANS.items()},
        steady_serving=rule(_VARIANT_LEANS["steady_serving"], text.variants["steady_serving"]),
        embedding_lookups=rule(_VARIANT_LEANS["embedding_lookups"], text.variants["embedding_lookups"]),
        small_serving=small,
        short_finetune={
            (f, v): rule(lean, sentences(text.rules[f][v], text.notes.short_finetune))
            for (f, v), lean in _SHORT_FINETUNE_LEANS.items()
        },
        pytorch_embeddings=rule(_VARIANT_LEANS["pytorch_embeddings"], text.variants["pytorch_embeddings"]),
        tpu_kernels=rule(_VARIANT_LEANS["tpu_kernels"], text.variants["tpu_kernels"]),
        conflicts={cid: ConflictRule(pair, text.conflicts[cid]) for cid, pair in _CONFLICTS.items()},
        blockers={
            (f, v): BlockerRule(b.verdict, text.blockers[f][v], b.topic, b.sources) for (f, v), b in _BLOCKS.items()
        },
        inference_note=text.notes.inference_duration,
        correlated_note=correlated,
        playbook_alone=text.notes.playbook_alone,
        porting_note=porting,
    )


def rules_for(language: str | None = None) -> RuleSet:
    """The rules with the words of `language` (None: the language in use), built once per language."""
    return _rules_for(language or i18n.current_language())


@functools.lru_cache(maxsize=8)
def _rules_for(language: str) -> RuleSet:
    return build_rules(packaged_text(language))


#: factor -> answer -> rule, in the language in use. An answer with no entry leans neither way.
RULES: Mapping[str, dict[str, Rule]] = InLanguage(lambda lang: _rules_for(lang).rules)
#: (factor, answer) -> blocker, in the language in use.
BLOCKERS: Mapping[tuple[str, str], BlockerRule] = InLanguage(lambda lang: _rules_for(lang).blockers)
#: (factor, answer) -> the small-batch serving rule, in the language in use.
SMALL_SERVING: Mapping[tuple[str, str], Rule] = InLanguage(lambda lang: _rules_for(lang).small_serving)


def __getattr__(name: str) -> object:
    # the variant rules as the tests know them, in the language in use: built on first use, not at import
    if name == "STEADY_SERVING":
        return rules_for().steady_serving
    if name == "EMBEDDING_LOOKUPS":
        return rules_for().embedding_lookups
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: the largest weight any answer of a factor can carry: the answered share behind confidence.
MAX_WEIGHT: dict[str, float] = {
    factor: max((lean.weight for lean in _LEANS.get(factor, {}).values()), default=0.0) for factor in FACTORS
}
MAX_WEIGHT["utilization"] = max(MAX_WEIGHT["utilization"], _VARIANT_LEANS["steady_serving"].weight)
for (_factor, _value), _lean in _SMALL_SERVING_LEANS.items():
    MAX_WEIGHT[_factor] = max(MAX_WEIGHT[_factor], _lean.weight)
MAX_WEIGHT["workload"] = 0.2  # the workload shapes how duration and utilization count
TOTAL_WEIGHT = sum(MAX_WEIGHT.values())
