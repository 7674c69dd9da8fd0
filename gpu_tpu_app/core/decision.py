"""The decision engine: answers about a workload in, an explained GPU / TPU recommendation out.

Each answer carries a weighted lean toward the GPU ("the workshop") or the TPU ("the factory
line"), drawn from the lesson's playbook and Google's own guidance on when TPUs fit. The
score is tanh of the weighted sum, so it stays in [-1, 1]; hard constraints (blockers) decide
the verdict alone and cap the score on the GPU side. Everything here is pure and
deterministic: the wizard, the CLI and the tests all run the same function.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Literal, NamedTuple, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gpu_tpu_app.errors import InputError, from_validation, json_object
from gpu_tpu_app.errors import shown as quoted
from gpu_tpu_app.safe_read import MAX_SMALL_FILE_BYTES, read_text

__all__ = [
    "ANSWERS_SCHEMA_VERSION",
    "ANSWERS_SCHEMA_VERSIONS",
    "BLOCKED_SCORE",
    "BLOCKERS",
    "FACTORS",
    "ORDERED",
    "PAGES",
    "QUESTIONS",
    "RULES",
    "THRESHOLD",
    "Answers",
    "Blocker",
    "Flip",
    "Page",
    "Question",
    "Reason",
    "Recommendation",
    "Rule",
    "check_answers_version",
    "choices",
    "decide",
    "load_answers",
    "migrate_answers",
    "read_answers",
]

Leans = Literal["gpu", "tpu"]
Verdict = Literal["gpu", "tpu", "either"]
Confidence = Literal["low", "medium", "high"]

#: version an answers file may state in an optional top-level "schema_version" key. Version 1 had
#: high_precision "yes" | "no" and no embeddings answer; such files are migrated on load.
ANSWERS_SCHEMA_VERSION = 2
#: every answers version this app reads (older ones pass through migrate_answers).
ANSWERS_SCHEMA_VERSIONS = (1, 2)
#: |score| below this is "either".
THRESHOLD = 0.15
#: the weighted sum is divided by this before tanh: one moderate answer alone stays near "either".
SCALE = 4.0
#: with a blocker the score is at most this (GPU side), whatever the other answers say.
BLOCKED_SCORE = -0.5
#: how a missing answer is written in flips and text output.
UNKNOWN = "unknown"


#: Answer values that a framework check can also measure (core.modelcheck.MeasuredAnswers shares them).
Framework = Literal["pytorch", "jax", "tensorflow", "other"]
YesNo = Literal["yes", "no"]
CustomOps = Literal["none", "some", "essential"]
HighPrecision = Literal["fp64", "fp32", "no"]
MatmulShare = Literal["low", "mixed", "dominant"]


class Answers(BaseModel):
    """What the user knows about the workload; None means "unknown"."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    framework: Framework | None = None
    xla_verified: YesNo | None = None
    custom_ops: CustomOps | None = None
    dynamic_shapes: YesNo | None = None
    high_precision: HighPrecision | None = None
    stage: Literal["exploring", "stabilizing", "production"] | None = None
    architecture_changes: Literal["weekly", "monthly", "locked"] | None = None
    workload: Literal["training", "inference", "both"] | None = None
    scale: Literal["small", "medium", "large", "massive"] | None = None
    batch: Literal["small", "large"] | None = None
    duration: Literal["hours", "days", "weeks"] | None = None
    matmul_share: MatmulShare | None = None
    embeddings: Literal["ultra_large", "ordinary"] | None = None
    team: Literal["cuda", "xla", "general"] | None = None
    porting_budget: Literal["none", "some", "ample"] | None = None
    deployment: Literal["google_cloud", "any_cloud", "other_cloud", "on_premises"] | None = None
    burst_capacity: Literal["yes", "no"] | None = None
    utilization: Literal["sporadic", "steady"] | None = None
    data_pipeline: Literal["slow", "fast"] | None = None
    cost_focus: Literal["hardware", "engineering"] | None = None


#: field names in wizard order.
FACTORS: tuple[str, ...] = tuple(Answers.model_fields)


def choices(factor: str) -> tuple[str, ...]:
    """The allowed values of one answer field, in the table's order."""
    annotation = Answers.model_fields[factor].annotation
    literal = next(arg for arg in get_args(annotation) if arg is not type(None))
    return tuple(get_args(literal))


_CHOICES: dict[str, tuple[str, ...]] = {factor: choices(factor) for factor in FACTORS}

#: the ordered factors, each value order running toward the factory-line (TPU) end.
ORDERED: dict[str, tuple[str, ...]] = {
    "stage": ("exploring", "stabilizing", "production"),
    "architecture_changes": ("weekly", "monthly", "locked"),
    "scale": ("small", "medium", "large", "massive"),
    "batch": ("small", "large"),
    "duration": ("hours", "days", "weeks"),
    "matmul_share": ("low", "mixed", "dominant"),
    "porting_budget": ("none", "some", "ample"),
    "utilization": ("sporadic", "steady"),
    "data_pipeline": ("slow", "fast"),
}


# --------------------------------------------------------------------------- output models


class Reason(BaseModel):
    """One answer's lean and why, with the explainer topic and sources it rests on."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    factor: str
    answer: str
    leans: Leans
    weight: float
    message: str
    topic: str
    sources: list[str]


class Blocker(BaseModel):
    """A hard constraint that decides the verdict on its own."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    factor: str
    answer: str
    verdict: Leans
    message: str
    topic: str
    sources: list[str]


class Flip(BaseModel):
    """The smallest change of one answer that changes the verdict (serialised with "from")."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    factor: str
    from_: str = Field(alias="from")
    to: str
    verdict: Verdict


class Recommendation(BaseModel):
    """The engine's answer: verdict, score, confidence and everything that explains them."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    verdict: Verdict
    score: float = Field(ge=-1.0, le=1.0)
    confidence: Confidence
    blockers: list[Blocker]
    reasons: list[Reason]
    flips: list[Flip]
    next_steps: list[str]
    unanswered: list[str]


# --------------------------------------------------------------------------- rules


class Rule(NamedTuple):
    """The lean of one answer value: direction, weight, plain-words message, topic, sources."""

    leans: Leans
    weight: float
    message: str
    topic: str
    sources: tuple[str, ...]


class _BlockerRule(NamedTuple):
    verdict: Leans
    message: str
    topic: str
    sources: tuple[str, ...]


def _gpu(weight: float, message: str, topic: str, *sources: str) -> Rule:
    return Rule("gpu", weight, message, topic, sources)


def _tpu(weight: float, message: str, topic: str, *sources: str) -> Rule:
    return Rule("tpu", weight, message, topic, sources)


#: factor -> answer -> rule. An answer with no entry leans neither way.
RULES: dict[str, dict[str, Rule]] = {
    "framework": {
        "jax": _tpu(
            0.6,
            "JAX compiles through XLA by design, which is the only way onto a TPU, so the factory "
            "line accepts this code with little change.",
            "software",
            "lesson-ch3",
            "lesson-ch7",
            "lesson-faq-extended",
        ),
        "tensorflow": _tpu(
            0.3,
            "TensorFlow reaches TPUs through XLA, but the newest generation (TPU7x) supports "
            "only JAX and PyTorch, which narrows the choice of chips.",
            "software",
            "lesson-ch3",
            "google-tpu7x",
        ),
        "pytorch": _gpu(
            0.3,
            "PyTorch is at home on CUDA; its TPU route (torch_xla) works but has known pain with "
            "recompiles and long compile times.",
            "software",
            "lesson-ch4",
            "pytorch-xla-3356",
            "pytorch-xla-6614",
        ),
        "other": _gpu(
            0.8,
            "A framework outside JAX, TensorFlow and PyTorch has few proven routes onto XLA; the "
            "GPU ecosystem supports far more of them.",
            "software",
            "lesson-ch4",
            "lesson-faq-extended",
        ),
    },
    "xla_verified": {
        "yes": _tpu(
            0.8,
            "The model's operations already compile and run under XLA: the framework check has "
            "passed, the first gate to the factory line.",
            "software",
            "lesson-ch7",
            "lesson-faq-extended",
        ),
        "no": _gpu(
            1.0,
            "Some of the model's operations fail under XLA or fall back to the host CPU.",
            "software",
            "lesson-ch7",
            "lesson-faq-extended",
        ),
    },
    "custom_ops": {
        "none": _tpu(
            0.3,
            "Standard operations only: Google names models without custom ops in the main training "
            "loop as a good TPU fit.",
            "flexibility",
            "google-tpu-intro",
        ),
        "some": _gpu(
            0.5,
            "A few custom operations would each need an XLA-friendly rewrite or a slow fallback; the "
            "workshop runs them as they are.",
            "flexibility",
            "lesson-ch4",
            "google-tpu-intro",
        ),
        "essential": _gpu(
            1.2, "Custom kernels sit at the heart of the main loop.", "flexibility", "lesson-ch4", "google-tpu-intro"
        ),
    },
    "dynamic_shapes": {
        "yes": _gpu(
            0.6,
            "Shapes or control flow that change every step make XLA compile again and again unless "
            "inputs are padded or bucketed; GPUs run such code eagerly.",
            "software",
            "jax-sharp-bits",
            "pytorch-xla-3356",
        ),
        "no": _tpu(
            0.2, "Fixed shapes compile once under XLA and then run at full speed.", "software", "jax-sharp-bits"
        ),
    },
    "high_precision": {
        "fp64": _gpu(1.0, "The math needs fp64, which TPUs have no hardware for.", "architecture", "google-tpu-intro"),
        "fp32": _gpu(
            0.5,
            "Strict fp32 math leans GPU: a TPU reaches near-fp32 accuracy in matrix multiplies only "
            "by running several bfloat16 passes per product (three or six in JAX's BF16_BF16_F32_X3 and "
            "_X6 algorithms), which costs that many times the bf16 time; GPUs have fp32 units.",
            "architecture",
            "google-tpu-intro",
            "jax-matmul-precision",
        ),
    },
    "stage": {
        "exploring": _gpu(
            0.8,
            "An exploratory project changes often and breaks often: the flexible workshop and "
            "its mature debugging tools keep it moving.",
            "playbook",
            "lesson-ch7",
            "lesson-faq-extended",
        ),
        "stabilizing": _tpu(
            0.15,
            "The design is settling, so it is the right moment to test whether the factory line would take it.",
            "playbook",
            "lesson-ch7",
        ),
        "production": _tpu(
            0.7,
            "A settled model whose goal has shifted from invention to scaling: the lesson's "
            "playbook says this is when it is time to look at the TPU.",
            "playbook",
            "lesson-ch7",
            "lesson-faq-extended",
        ),
    },
    "architecture_changes": {
        "weekly": _gpu(
            0.7,
            "An architecture that changes every week needs the freedom to pivot that GPUs give.",
            "flexibility",
            "lesson-ch4",
            "lesson-ch7",
        ),
        "monthly": _gpu(
            0.2, "Occasional architecture changes still favour the flexible side a little.", "flexibility", "lesson-ch4"
        ),
        "locked": _tpu(
            0.6,
            "A locked architecture is the stable kind of work where the factory line's efficiency "
            "starts to outweigh the workshop's versatility.",
            "flexibility",
            "lesson-quote-1",
            "lesson-faq-extended",
        ),
    },
    "scale": {
        "small": _gpu(
            0.6,
            "Small models gain little from a TPU's large matrix units; GPUs (or even CPUs) serve them well.",
            "workload",
            "lesson-guide",
            "google-tpu-intro",
        ),
        "medium": _gpu(
            0.1, "Medium-sized models run well on GPUs, as Google's own guidance notes.", "workload", "google-tpu-intro"
        ),
        "large": _tpu(
            0.4,
            "Large models keep TPU matrix units and their fast chip-to-chip links busy.",
            "workload",
            "lesson-guide",
            "google-tpu-intro",
        ),
        "massive": _tpu(
            0.8,
            "Massive models and data sets are where TPU pods are strongest.",
            "workload",
            "lesson-ch3",
            "lesson-ch7",
            "google-tpu-intro",
        ),
    },
    "batch": {
        "small": _gpu(0.3, "Small batches leave much of a TPU's matrix units idle.", "workload", "google-tpu-intro"),
        "large": _tpu(
            0.4,
            "Large effective batches fill the TPU's matrix units, one of its best cases.",
            "workload",
            "lesson-guide",
            "google-tpu-intro",
        ),
    },
    "duration": {
        "hours": _gpu(
            0.3,
            "Runs of a few hours leave little time to win back the compile step and the setup a TPU needs.",
            "workload",
            "lesson-ch6",
            "pytorch-xla-6614",
        ),
        "days": _tpu(
            0.1, "Runs of several days start to repay the effort of moving to TPUs.", "workload", "lesson-ch3"
        ),
        "weeks": _tpu(
            0.6,
            "Training runs of weeks are exactly the jobs Google recommends TPUs for.",
            "workload",
            "lesson-ch3",
            "google-tpu-intro",
        ),
    },
    "matmul_share": {
        "low": _gpu(
            0.7,
            "Mostly element-wise or branch-heavy work is a poor fit for TPU matrix units, per Google's guidance.",
            "architecture",
            "google-tpu-intro",
        ),
        "mixed": _gpu(
            0.1, "A mix of matrix and other work gains only part of the TPU's advantage.", "architecture", "lesson-ch3"
        ),
        "dominant": _tpu(
            0.7,
            "Dense matrix math dominates: the very work TPUs were built for.",
            "architecture",
            "google-tpu-intro",
            "lesson-guide",
            "lesson-faq",
        ),
    },
    "embeddings": {
        "ultra_large": _tpu(
            0.6,
            "Google lists models with ultra-large embeddings (ranking and recommendation) "
            "among the workloads TPUs suit; recent generations add SparseCores for embedding "
            "lookups.",
            "architecture",
            "google-tpu-intro",
        ),
    },
    "team": {
        "cuda": _gpu(
            0.6,
            "A team fluent in CUDA would pay for the switch in retraining and rewriting; the lesson "
            "warns that this cost might be higher than the hardware savings themselves.",
            "workflow",
            "lesson-ch4",
            "lesson-ch7",
        ),
        "xla": _tpu(
            0.5,
            "The team already knows XLA and TPUs, so the factory line's stricter rules cost them little.",
            "workflow",
            "lesson-ch4",
            "lesson-faq-extended",
        ),
        "general": _gpu(
            0.1,
            "Without special hardware depth, the GPU's larger community and tooling lower the barrier.",
            "workflow",
            "lesson-faq-extended",
            "lesson-ch6",
        ),
    },
    "porting_budget": {
        "none": _gpu(
            0.6,
            "No time for adapting code: whatever runs today on GPUs keeps running.",
            "cost",
            "lesson-ch5",
            "lesson-ch7",
        ),
        "some": _tpu(
            0.05,
            "Some engineering time is available for adapting code, if the savings justify it.",
            "cost",
            "lesson-ch5",
        ),
        "ample": _tpu(
            0.3,
            "Ample engineering time makes a careful port to the TPU stack affordable.",
            "cost",
            "lesson-ch5",
            "lesson-faq-extended",
        ),
    },
    "deployment": {
        "google_cloud": _tpu(
            0.4,
            "The work already lives in Google Cloud, the only place TPUs are offered.",
            "cost",
            "lesson-ch4",
            "lesson-faq-extended",
        ),
        "any_cloud": _gpu(
            0.7,
            "Keeping the freedom to run in any cloud rules out nothing for GPUs, which every "
            "major cloud offers; TPUs would tie the work to Google Cloud.",
            "cost",
            "lesson-ch5",
            "lesson-faq-extended",
        ),
        "other_cloud": _gpu(
            1.0,
            "The work must run in another cloud (AWS, Azure, ...), and TPUs are rented only in Google Cloud.",
            "cost",
            "lesson-faq-extended",
            "google-tpu-intro",
        ),
        "on_premises": _gpu(
            1.0,
            "The work must run on the organisation's own machines.",
            "cost",
            "lesson-faq-extended",
            "google-tpu-intro",
        ),
    },
    "burst_capacity": {
        "yes": _gpu(
            0.5,
            "Starting machines on short notice in many regions is easier with GPUs, which almost "
            "every cloud and region offers.",
            "cost",
            "lesson-ch7",
            "lesson-ch5",
        ),
        "no": _tpu(0.1, "Capacity that can be planned ahead suits reserved TPU slices.", "cost", "lesson-ch5"),
    },
    "utilization": {
        "sporadic": _gpu(
            0.4,
            "Without a steady queue of compatible jobs a TPU may sit idle, while a GPU finds other work more easily.",
            "utilization",
            "lesson-ch5",
        ),
        "steady": _tpu(
            0.4,
            "A steady queue of compatible jobs keeps the factory line busy, which is when its efficiency pays.",
            "utilization",
            "lesson-ch5",
            "lesson-faq-extended",
        ),
    },
    "data_pipeline": {
        "slow": _gpu(
            0.5,
            "A slow input pipeline would leave a fast TPU waiting for data; fix the feed first.",
            "utilization",
            "lesson-ch6",
        ),
        "fast": _tpu(0.2, "The input pipeline can keep a fast chip fed.", "utilization", "lesson-ch6"),
    },
    "cost_focus": {
        "hardware": _tpu(
            0.3,
            "Chip-hours dominate the bill; the lesson says TPUs often give better performance "
            "and energy efficiency on large, matrix-heavy work, which is where hardware savings can "
            "come from.",
            "cost",
            "lesson-ch5",
            "lesson-faq",
        ),
        "engineering": _gpu(
            0.4,
            "People's time dominates the bill, and time spent adapting code to a TPU is a hidden cost.",
            "cost",
            "lesson-ch5",
            "lesson-faq-extended",
        ),
    },
}

#: sustained serving on a steady queue is a TPU strength of its own: replaces utilization/steady then.
_STEADY_SERVING = _tpu(
    0.6,
    "A steady queue of work including sustained, matrix-heavy serving keeps TPUs busy; "
    "long-running inference is one of their strengths.",
    "utilization",
    "lesson-guide",
    "lesson-ch5",
)
#: embedding lookups are the "low matmul share" work SparseCores take on: replaces matmul_share/low then.
_EMBEDDING_LOOKUPS = _gpu(
    0.1,
    "Little dense matrix math, but the main work is lookups in ultra-large embedding "
    "tables, which recent TPUs handle on their SparseCores; this counts only a little "
    "against the TPU.",
    "architecture",
    "google-tpu-intro",
)
#: a training run's length matters less when the chips mostly serve: duration weights scale by this.
_INFERENCE_DURATION_FACTOR = 0.5

#: Small-batch serving: token-by-token decoding at a small batch reads every weight from memory for a few
#: tokens, so it is bound by memory bandwidth and latency, not by matrix units. The playbook's "stable
#: design at scale" answers were written for scaling training; for such serving they only say a port is
#: possible. These rules replace the usual ones when workload is inference and batch is small.
_SMALL_SERVING_NOTE = (
    " For small-batch serving this counts little: decoding a few sequences at a time is "
    "bound by memory bandwidth and latency, not by the matrix units a TPU adds."
)
_SMALL_SERVING: dict[tuple[str, str], Rule] = {
    ("batch", "small"): _gpu(
        0.6,
        "Small-batch serving is latency-bound: each decoded token reads all the weights "
        "and the KV cache from memory, so a TPU's large matrix units sit mostly idle.",
        "workload",
        "google-tpu-intro",
        "lesson-guide",
    ),
    ("stage", "production"): _tpu(
        0.15,
        "The model is settled, so a port would not chase a moving target." + _SMALL_SERVING_NOTE,
        "playbook",
        "lesson-ch7",
    ),
    ("architecture_changes", "locked"): _tpu(
        0.15,
        "A locked architecture would only need porting once." + _SMALL_SERVING_NOTE,
        "flexibility",
        "lesson-quote-1",
    ),
    ("utilization", "steady"): _tpu(
        0.1, "A steady queue keeps any chip busy." + _SMALL_SERVING_NOTE, "utilization", "lesson-ch5"
    ),
    ("matmul_share", "dominant"): _tpu(
        0.2,
        "Matrix multiplies dominate the model, but at a small batch each one "
        "is a thin matrix-vector product limited by memory bandwidth.",
        "architecture",
        "google-tpu-intro",
    ),
}

#: Answers that say much the same thing: within a group, per direction, the strongest counts in full and the
#: others at half, so one fact told twice is not counted as two pieces of evidence.
CORRELATED: tuple[tuple[str, ...], ...] = (
    ("stage", "architecture_changes"),
    ("scale", "batch", "duration"),
)
_GROUP_OF: dict[str, tuple[str, ...]] = {factor: group for group in CORRELATED for factor in group}
#: share of its weight that a non-strongest answer of a correlated group keeps.
CORRELATED_SHARE = 0.5
#: when the only answers for the TPU are these, the verdict stays "either" (score just under the threshold).
_PLAYBOOK_GROUP = CORRELATED[0]
_BELOW_THRESHOLD = 0.14
_PLAYBOOK_ALONE = " On its own a settled design is not yet a verdict: the framework check and the workload come first."

#: (factor, answer) -> blocker. framework "other" blocks only while XLA is not verified.
BLOCKERS: dict[tuple[str, str], _BlockerRule] = {
    ("framework", "other"): _BlockerRule(
        "gpu",
        "The framework has no known path onto XLA, and TPUs run only what XLA compiles; the GPU stays "
        "the default until a framework check proves otherwise.",
        "software",
        ("lesson-faq-extended", "lesson-ch7"),
    ),
    ("xla_verified", "no"): _BlockerRule(
        "gpu",
        "The framework check failed: operations XLA cannot compile would run on the host CPU or not at all on a TPU.",
        "software",
        ("lesson-ch7", "lesson-faq-extended"),
    ),
    ("custom_ops", "essential"): _BlockerRule(
        "gpu",
        "Essential custom operations in the main loop: Google lists this as a workload TPUs do not suit.",
        "flexibility",
        ("google-tpu-intro", "lesson-ch4"),
    ),
    ("high_precision", "fp64"): _BlockerRule(
        "gpu",
        "fp64 math: TPUs have no fp64 hardware, and Google lists workloads that need high-precision "
        "arithmetic as a poor fit.",
        "architecture",
        ("google-tpu-intro",),
    ),
    ("deployment", "on_premises"): _BlockerRule(
        "gpu",
        "On-premises only: TPUs are rented in Google Cloud and cannot be installed in your own data centre; GPUs can.",
        "cost",
        ("lesson-faq-extended", "google-tpu-intro"),
    ),
    ("deployment", "other_cloud"): _BlockerRule(
        "gpu",
        "Another cloud only (AWS, Azure, ...): TPUs are rented only in Google Cloud; every major cloud rents GPUs.",
        "cost",
        ("lesson-faq-extended", "google-tpu-intro"),
    ),
}

#: the largest weight any answer of a factor can carry: the answered share behind confidence.
_MAX_WEIGHT: dict[str, float] = {
    factor: max((r.weight for r in RULES.get(factor, {}).values()), default=0.0) for factor in FACTORS
}
_MAX_WEIGHT["utilization"] = max(_MAX_WEIGHT["utilization"], _STEADY_SERVING.weight)
for (_factor, _value), _rule in _SMALL_SERVING.items():
    _MAX_WEIGHT[_factor] = max(_MAX_WEIGHT[_factor], _rule.weight)
_MAX_WEIGHT["workload"] = 0.2  # the workload shapes how duration and utilization count
_TOTAL_WEIGHT = sum(_MAX_WEIGHT.values())


# --------------------------------------------------------------------------- the engine core


def _blocked(values: dict[str, str | None], factor: str) -> bool:
    value = values[factor]
    if value is None or (factor, value) not in BLOCKERS:
        return False
    if factor == "framework":
        return values["xla_verified"] != "yes"
    return True


def _small_serving(values: dict[str, str | None]) -> bool:
    return values["workload"] == "inference" and values["batch"] == "small"


def _variant(values: dict[str, str | None], factor: str) -> str:
    """Which form of a factor's rule applies: a few answers shape how another one counts."""
    value = values[factor]
    if _small_serving(values) and (factor, value) in _SMALL_SERVING:
        return "small_serving"
    if factor == "utilization" and values["workload"] in ("inference", "both"):
        return "serving"
    if factor == "duration" and values["workload"] == "inference":
        return "inference"
    if factor == "matmul_share" and values["embeddings"] == "ultra_large":
        return "embeddings"
    return ""


def _variants(factor: str, value: str, rule: Rule) -> dict[str, Rule]:
    forms = {"": rule}
    if (factor, value) in _SMALL_SERVING:
        forms["small_serving"] = _SMALL_SERVING[(factor, value)]
    if factor == "utilization":
        forms["serving"] = _STEADY_SERVING if value == "steady" else rule
    if factor == "matmul_share":
        forms["embeddings"] = _EMBEDDING_LOOKUPS if value == "low" else rule
    if factor == "duration":
        forms["inference"] = rule._replace(
            weight=rule.weight * _INFERENCE_DURATION_FACTOR,
            message=rule.message + " Training is not the main job here, so this counts half.",
        )
    return forms


def _reason(factor: str, value: str, rule: Rule) -> Reason:
    return Reason(
        factor=factor,
        answer=value,
        leans=rule.leans,
        weight=round(rule.weight, 3),
        message=rule.message,
        topic=rule.topic,
        sources=list(rule.sources),
    )


#: (factor, answer, variant) -> (signed weight, Reason): built once, since rules never change.
_REASONS: dict[tuple[str, str, str], tuple[float, Reason]] = {
    (factor, value, variant): (rule.weight if rule.leans == "tpu" else -rule.weight, _reason(factor, value, rule))
    for factor, by_value in RULES.items()
    for value, base in by_value.items()
    for variant, rule in _variants(factor, value, base).items()
}
_BLOCKER_MODELS: dict[tuple[str, str], Blocker] = {
    (factor, value): Blocker(
        factor=factor, answer=value, verdict=b.verdict, message=b.message, topic=b.topic, sources=list(b.sources)
    )
    for (factor, value), b in BLOCKERS.items()
}


class _Evaluation(NamedTuple):
    score: float
    blocked: bool
    blockers: list[Blocker]
    reasons: list[tuple[float, int, Reason]]  # (-weight, wizard index, reason)


def _combine(found: dict[str, tuple[float, Reason]]) -> dict[str, tuple[float, Reason]]:
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
                note = (
                    f" Counted at half: it says much the same as {lead} = {lead_reason.answer}, so the two "
                    "are not added as independent evidence."
                )
                out[f] = (
                    shared,
                    reason.model_copy(update={"weight": round(abs(shared), 3), "message": reason.message + note}),
                )
    return out


def _evaluate(values: dict[str, str | None]) -> _Evaluation:
    """One pass over the answers: the score (tanh of the signed weighted sum, capped by blockers),
    the blockers that apply and the weighted reasons (correlated answers combined)."""
    blockers: list[Blocker] = []
    found: dict[str, tuple[float, Reason]] = {}
    for factor in FACTORS:
        value = values[factor]
        if value is None:
            continue
        if _blocked(values, factor):
            blockers.append(_BLOCKER_MODELS[(factor, value)])
            continue
        rule = _REASONS.get((factor, value, _variant(values, factor)))
        if rule is not None:
            found[factor] = rule
    combined = _combine(found)
    total = sum(signed for signed, _r in combined.values())
    # a blocked factor's own lean still counts toward the (capped) score, as before
    for b in blockers:
        lean = _REASONS.get((b.factor, b.answer, _variant(values, b.factor)))
        if lean is not None:
            total += lean[0]
    score = math.tanh(total / SCALE)
    tpu_side = {factor for factor, (signed, _r) in combined.items() if signed > 0}
    if score >= THRESHOLD and tpu_side and tpu_side <= set(_PLAYBOOK_GROUP):
        # the playbook says a settled design is when it is time to *look at* the TPU: on its own it is no verdict
        score = min(score, _BELOW_THRESHOLD)
        lead = max(tpu_side, key=lambda f: (combined[f][0], -FACTORS.index(f)))
        signed, reason = combined[lead]
        combined[lead] = (signed, reason.model_copy(update={"message": reason.message + _PLAYBOOK_ALONE}))
    index = {factor: i for i, factor in enumerate(FACTORS)}
    reasons = [(-reason.weight, index[factor], reason) for factor, (_s, reason) in combined.items()]
    if blockers:
        score = min(score, BLOCKED_SCORE)
    return _Evaluation(round(score, 4), bool(blockers), blockers, reasons)


def _verdict(score: float, blocked: bool) -> Verdict:
    if blocked or score <= -THRESHOLD:
        return "gpu"
    if score >= THRESHOLD:
        return "tpu"
    return "either"


def _confidence(values: dict[str, str | None], score: float, verdict: Verdict, blocked: bool) -> Confidence:
    """Blockers decide with high confidence; otherwise the answered share and the margin both count.

    A TPU verdict stays at most "medium" until the framework check has passed (xla_verified = yes):
    the lesson's rule is to verify rather than assume.
    """
    if blocked:
        return "high"
    answered = sum(_MAX_WEIGHT[f] for f in FACTORS if values[f] is not None) / _TOTAL_WEIGHT
    margin = THRESHOLD - abs(score) if verdict == "either" else abs(score) - THRESHOLD
    if answered >= 0.7 and margin >= 0.25:
        level: Confidence = "high"
    elif answered >= 0.4 and margin >= 0.08:
        level = "medium"
    else:
        level = "low"
    if verdict == "tpu" and level == "high" and values["xla_verified"] != "yes":
        level = "medium"
    return level


#: at most this many flips are listed.
MAX_FLIPS = 5


def _flips(answers: Answers, verdict: Verdict, score: float) -> list[Flip]:
    """What single changed answer would change the verdict: answered questions only, strongest first.

    Per answered factor the smallest change that flips the verdict is kept (nearest in the factor's
    order first, then the smallest move of the score, then the table order). The flips are then
    ordered by how far they move the score, largest first, and at most MAX_FLIPS are kept.
    """
    found: list[tuple[float, int, Flip]] = []
    for position, factor in enumerate(FACTORS):
        current = getattr(answers, factor)
        if current is None:
            continue  # nobody answered it: the open questions are listed apart
        order = ORDERED.get(factor)
        best: tuple[tuple[int, float, int], str, Verdict] | None = None
        for index, candidate in enumerate(_CHOICES[factor]):
            if candidate == current:
                continue
            rerun = decide(answers.model_copy(update={factor: candidate}), flips=False)
            if rerun.verdict == verdict:
                continue
            distance = abs(order.index(candidate) - order.index(current)) if order and current is not None else 0
            key = (distance, abs(rerun.score - score), index)
            if best is None or key < best[0]:
                best = (key, candidate, rerun.verdict)
        if best is not None:
            flip = Flip(factor=factor, from_=current, to=best[1], verdict=best[2])
            found.append((-best[0][1], position, flip))
    found.sort(key=lambda item: (item[0], item[1]))
    return [flip for _move, _pos, flip in found[:MAX_FLIPS]]


# --------------------------------------------------------------------------- next steps


def _framework_step(framework: str | None, inference: bool) -> str:
    """The framework check in the workload's own terms (a serving step, or a training step)."""
    step = "one prefill and one decode step" if inference else "one full training step"
    if framework == "pytorch":
        return (
            f"Framework check: run {step} under torch_xla and read its metrics report: it names the "
            "operations that fall back to the CPU, and a rising compile count means recompiles."
        )
    if framework == "jax":
        return (
            f"Framework check: run {step} under jax.jit on a TPU and look for ops XLA rejects, host "
            "round trips and recompiles when the input shape changes."
        )
    if framework == "tensorflow":
        return (
            f"Framework check: run {step} with XLA compilation on and look for ops the TPU lacks; note "
            "that the newest TPU7x chips support only JAX and PyTorch."
        )
    return (
        f"Framework check: run {step} of the model under XLA (jax.jit, or torch_xla for PyTorch) and "
        "look for unsupported ops, CPU fallbacks and repeated compiles before planning on TPUs."
    )


#: the software route onto a TPU per framework; PyTorch's as its own project tracker states it (checked in
#: November 2026: pytorch/xla issue 9684, torchax on PyPI), not from memory.
_STEP_ROUTE = {
    "pytorch": (
        "Software route for PyTorch: torch_xla is the established path, but check its current state "
        "before you plan a port: the PyTorch/XLA tracker's RFC (github.com/pytorch/xla issue 9684, "
        "October 2025, open) proposes a native TPU backend in place of today's lazy-tensor design, and "
        "torchax (github.com/google/torchax, PyTorch on TPU through JAX) is still published as a "
        "pre-release. Pin one release and read its notes and open issues for your model's ops."
    ),
    "jax": (
        "Software route for JAX: the code runs on TPUs as it is under jax.jit; use the JAX and MaxText "
        "documentation for sharding across a slice."
    ),
    "tensorflow": (
        "Software route for TensorFlow: it reaches TPUs through XLA on generations before TPU7x "
        "only; plan on v6e, v5p or v5e, or a move to JAX for TPU7x."
    ),
}
_STEP_PILOT = (
    "Run a short pilot of the same model step on one TPU VM and one GPU, with this app's probe "
    "(gpu-tpu-probe) on each, and compare time and cost per step rather than spec sheets."
)
_STEP_PILOT_SERVING = (
    "Run a short serving pilot on one TPU VM and one GPU at your real batch and context "
    "length, and compare tokens per second, latency and cost per token rather than spec "
    "sheets (gpu-tpu-app estimate --inference shows which bound applies)."
)
_STEP_GENERATION_SERVING = (
    "Generation to look at: for serving and small or medium training, TPU v6e (Trillium) "
    "or v5e, in slices of up to 256 chips; compare memory per chip with the model's "
    "weights and KV cache (gpu-tpu-app catalog, estimate)."
)
_STEP_GENERATION_LARGE = (
    "Generation to look at: for large runs, TPU v5p (slices up to 6,144 chips of an "
    "8,960-chip pod) or TPU7x (Ironwood, 9,216-chip pods, 192 GiB per chip); TPU7x runs "
    "JAX and PyTorch only (gpu-tpu-app catalog)."
)
_STEP_CAPACITY = (
    "Capacity: TPUs are obtained only in Google Cloud, on demand (no preemption, but no "
    "guarantee of capacity), as Spot VMs, through flex-start requests of up to 7 days, or "
    "through reservations (calendar mode up to 90 days, or a year or more with committed-use "
    "discounts); check quota for the generation and zone first "
    "(cloud.google.com/tpu/docs/consumption-options)."
)
_STEP_SHAPES = (
    "Pad or bucket the input shapes so XLA compiles only a handful of programs, and count the "
    "compiles during the pilot."
)
_STEP_CUSTOM = (
    "List each custom operation and how it would run under XLA (a rewrite in standard ops, a "
    "Pallas kernel, or a fallback), with its cost in engineering days."
)
_STEP_DATA = (
    "Check that the input pipeline can feed the chip: time the data loader alone against the step "
    "time, and prefetch or preprocess offline if it cannot keep up."
)
_STEP_QUEUE = "Check quota and queue times for the chips you need in the regions you use before planning around them."
_STEP_PORTING = (
    "Estimate the engineering weeks the port and its tuning would take and set them against the "
    "hardware savings (gpu-tpu-app estimate gives days and cost per chip for the run)."
)
_STEP_UTILIZATION = (
    "Plan how the chips stay busy between jobs: a reserved TPU slice that sits idle costs as much as one that works."
)
_STEP_REVISIT = (
    "Decide again once the architecture is locked and the runs grow; that is when the lesson "
    "says it is time to look at the TPU."
)
_STEP_GPU_MEMORY = (
    "Size GPU memory per model copy: weights plus KV cache for serving, about 16 bytes per "
    "parameter plus activations for training; gpu-tpu-app estimate shows the memory per copy "
    "and how many GPUs one copy needs."
)
_STEP_GPU_LINKS = (
    "If one model copy spans several GPUs, choose parts joined by NVLink (H100/H200/B200 SXM "
    "boards of 8, or a 72-GPU GB200 NVL72 rack); PCIe cards (L4, L40S, A10G, H100 PCIe) suit "
    "models that fit on one GPU."
)
_STEP_GPU_FP64 = (
    "FP64 work: compare GPUs by their FP64 figures (the fp64 and fp64 matrix columns of "
    "gpu-tpu-app catalog), never by BF16 peak; data-centre parts such as H100, H200 and MI300X "
    "have FP64 matrix units, while L4, L40S and A10G run FP64 at a small fraction of their fp32 "
    "rate."
)
_STEP_GPU_QUANT = (
    "For serving, try FP8 or INT8 weights: each decode step reads every weight, so halving the "
    "bytes per weight nearly halves a bandwidth-bound step; check the accuracy first."
)
_STEP_GPU_CHOICE = (
    "Compare GPU models for this workload with gpu-tpu-app catalog and estimate, and measure "
    "the one you have with gpu-tpu-probe."
)
_STEP_ANSWER = "Answer the open questions; each one you settle makes the verdict firmer."


def _next_steps(values: dict[str, str | None], verdict: Verdict, blockers: list[Blocker]) -> list[str]:
    """Concrete checks for this verdict and these answers, most urgent first."""
    steps: list[str] = []
    tpu_possible = not blockers
    inference = values["workload"] == "inference"
    serving = values["workload"] in ("inference", "both")
    large = values["scale"] in ("large", "massive")
    # an unfamiliar framework blocks only until the framework check says otherwise
    check_can_unblock = bool(blockers) and all(b.factor == "framework" for b in blockers)
    if values["xla_verified"] is None and (check_can_unblock or (tpu_possible and verdict != "gpu")):
        steps.append(_framework_step(values["framework"], inference))
    if verdict == "tpu" and tpu_possible:
        steps.append(_STEP_GENERATION_LARGE if large and not inference else _STEP_GENERATION_SERVING)
        if values["framework"] in _STEP_ROUTE:
            steps.append(_STEP_ROUTE[values["framework"]])
        steps.append(_STEP_CAPACITY)
    if tpu_possible and values["custom_ops"] == "some" and verdict != "gpu":
        steps.append(_STEP_CUSTOM)
    if tpu_possible and values["dynamic_shapes"] == "yes" and verdict != "gpu":
        steps.append(_STEP_SHAPES)
    if tpu_possible and verdict != "gpu":
        steps.append(_STEP_PILOT_SERVING if inference else _STEP_PILOT)
    if tpu_possible and verdict != "gpu" and values["data_pipeline"] != "fast" and not inference:
        steps.append(_STEP_DATA)
    if verdict == "either" and values["deployment"] != "on_premises":
        steps.append(_STEP_QUEUE)
    if tpu_possible and verdict != "gpu" and not (values["team"] == "xla" and values["porting_budget"] == "ample"):
        steps.append(_STEP_PORTING)
    if tpu_possible and verdict == "tpu" and values["utilization"] != "steady":
        steps.append(_STEP_UTILIZATION)
    if verdict == "gpu":
        steps.append(_STEP_GPU_MEMORY)
        if values["high_precision"] == "fp64":
            steps.append(_STEP_GPU_FP64)
        if large or values["scale"] is None:
            steps.append(_STEP_GPU_LINKS)
        if serving:
            steps.append(_STEP_GPU_QUANT)
        if values["burst_capacity"] == "yes":
            steps.append(_STEP_QUEUE)
        not_settled = values["architecture_changes"] != "locked" and values["stage"] != "production"
        if tpu_possible and not_settled:
            steps.append(_STEP_REVISIT)
        steps.append(_STEP_GPU_CHOICE)
    if any(values[f] is None for f in FACTORS):
        steps.append(_STEP_ANSWER)
    return steps


# --------------------------------------------------------------------------- public entry point


def decide(answers: Answers, flips: bool = True) -> Recommendation:
    """Turn answers into a recommendation; with flips, also find what single change would flip it."""
    values: dict[str, str | None] = {factor: getattr(answers, factor) for factor in FACTORS}
    ev = _evaluate(values)
    verdict = _verdict(ev.score, ev.blocked)
    ev.reasons.sort(key=lambda item: (item[0], item[1]))
    return Recommendation(
        verdict=verdict,
        score=ev.score,
        confidence=_confidence(values, ev.score, verdict, ev.blocked),
        blockers=ev.blockers,
        reasons=[reason for _w, _i, reason in ev.reasons],
        flips=_flips(answers, verdict, ev.score) if flips else [],
        next_steps=_next_steps(values, verdict, ev.blockers),
        unanswered=[factor for factor in FACTORS if values[factor] is None],
    )


# --------------------------------------------------------------------------- loading answers


#: version-1 answers that changed meaning, and what they are now: "yes" meant "fp64 or strict fp32";
#: it becomes "fp64", the reading that keeps the old verdict (a GPU blocker) unchanged.
_V1_RENAMED: dict[str, dict[str, str]] = {"high_precision": {"yes": "fp64"}}


def check_answers_version(version: object, source_name: str) -> int:
    """The answers schema version, if this app reads it; InputError naming the file otherwise."""
    if isinstance(version, bool) or version not in ANSWERS_SCHEMA_VERSIONS:
        known = " and ".join(str(v) for v in ANSWERS_SCHEMA_VERSIONS)
        raise InputError(
            f"{source_name}: schema_version: {quoted(json.dumps(version))} is not supported (this app reads {known})"
        )
    return int(version)


def migrate_answers(data: dict[str, object], version: int | None) -> dict[str, object]:
    """Answers as written under schema `version` (None: not stated), in this version's terms.

    Version 1 wrote high_precision "yes"; it loads as "fp64". Values that never existed are left
    alone for validation to report.
    """
    if version is not None and version >= ANSWERS_SCHEMA_VERSION:
        return dict(data)
    out = dict(data)
    for factor, renamed in _V1_RENAMED.items():
        value = out.get(factor)
        if isinstance(value, str) and value in renamed:
            out[factor] = renamed[value]
    return out


def load_answers(text: str, source_name: str = "answers") -> Answers:
    """Parse a JSON answers object; any problem is an InputError naming the file, the field and what is allowed.

    Missing fields and null mean "unknown". An optional "schema_version" key must be 1 or 2; files
    of version 1 (or without a version) are migrated (high_precision "yes" reads as "fp64").
    """
    data = dict(json_object(text, source_name, "a JSON object of answers"))
    version = check_answers_version(data.pop("schema_version"), source_name) if "schema_version" in data else None
    data = migrate_answers(data, version)
    for key in data:
        if key not in _CHOICES:
            raise InputError(f"{source_name}: {quoted(key)}: unknown field (known: {', '.join(FACTORS)})")
    for factor in FACTORS:
        value = data.get(factor)
        if value is not None and value not in _CHOICES[factor]:
            shown = quoted(repr(value) if isinstance(value, str) else json.dumps(value), 60)
            raise InputError(f"{source_name}: {factor}: {shown} is not one of {', '.join(_CHOICES[factor])}")
    try:
        return Answers.model_validate(data)
    except ValidationError as exc:  # the checks above should catch everything; keep the one-line promise anyway
        raise from_validation(source_name, exc) from None


def read_answers(path: str | Path) -> Answers:
    """Read and parse an answers file; a missing or unreadable file is an InputError too."""
    path = Path(path)
    return load_answers(read_text(path, "an answers file", MAX_SMALL_FILE_BYTES), str(path))


# --------------------------------------------------------------------------- wizard texts


class Question(BaseModel):
    """One wizard question: plain-words text, a one-line help, its explainer topic and labelled choices."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    field: str
    text: str
    help: str
    topic: str
    choices: list[tuple[str, str]]


class Page(BaseModel):
    """One wizard page: a title, a one-line intro and the fields it asks, in order."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    title: str
    intro: str
    fields: list[str]


def _q(field: str, text: str, help: str, topic: str, *labels: tuple[str, str]) -> Question:
    return Question(field=field, text=text, help=help, topic=topic, choices=list(labels))


QUESTIONS: dict[str, Question] = {
    q.field: q
    for q in (
        _q(
            "framework",
            "Which framework is the model written in?",
            "TPUs run only what the XLA compiler builds: JAX and TensorFlow use it natively, PyTorch through torch_xla.",
            "software",
            ("pytorch", "PyTorch"),
            ("jax", "JAX (Flax, Equinox, ...)"),
            ("tensorflow", "TensorFlow / Keras"),
            ("other", "Something else"),
        ),
        _q(
            "xla_verified",
            "Have you run the model's operations under XLA?",
            "The framework check: one real step under jax.jit or torch_xla shows unsupported ops and CPU fallbacks.",
            "software",
            ("yes", "Yes, it compiles and runs cleanly"),
            ("no", "Tried it: some ops fail or fall back to the CPU"),
        ),
        _q(
            "custom_ops",
            "Does the training loop rely on custom kernels or unusual operations?",
            "Hand-written CUDA kernels and non-standard ops must be rewritten for XLA or they leave the chip.",
            "flexibility",
            ("none", "No, standard layers only"),
            ("some", "A few, and they could be replaced"),
            ("essential", "Yes, they are essential to the main loop"),
        ),
        _q(
            "dynamic_shapes",
            "Do tensor shapes or control flow change from step to step?",
            "XLA compiles one program per input shape; shapes that keep changing mean repeated compiles.",
            "software",
            ("yes", "Yes (variable lengths, data-dependent branches)"),
            ("no", "No, the same shapes every step"),
        ),
        _q(
            "high_precision",
            "Does the math need fp64 or strict fp32?",
            "TPUs have no fp64 hardware and reach fp32 accuracy in matrix math only with several bf16 passes.",
            "architecture",
            ("fp64", "Yes, fp64 (double precision)"),
            ("fp32", "Strict fp32, but not fp64"),
            ("no", "No, bf16 or mixed precision is fine"),
        ),
        _q(
            "stage",
            "Where is the project now?",
            "Early, changing work suits the flexible workshop; a proven model being scaled suits the factory line.",
            "playbook",
            ("exploring", "Exploring: prototypes and experiments"),
            ("stabilizing", "Stabilizing: the design is settling"),
            ("production", "Production: scaling a proven model"),
        ),
        _q(
            "architecture_changes",
            "How often does the model architecture change?",
            "Frequent redesigns need flexibility; a locked design can be tuned once for specialised hardware.",
            "flexibility",
            ("weekly", "Every week or more often"),
            ("monthly", "About once a month"),
            ("locked", "It is locked"),
        ),
        _q(
            "workload",
            "What will the chips mostly do?",
            "Long training runs and steady, heavy serving are where TPUs pay off most.",
            "workload",
            ("training", "Training"),
            ("inference", "Inference (serving the model)"),
            ("both", "Both"),
        ),
        _q(
            "scale",
            "How big are the model and its data?",
            "TPU matrix units and pods shine on large models; small models gain little from them.",
            "workload",
            ("small", "Small: fits one chip with room to spare"),
            ("medium", "Medium: a few chips"),
            ("large", "Large: many chips working together"),
            ("massive", "Massive: hundreds of chips or more"),
        ),
        _q(
            "batch",
            "How large is the effective batch?",
            "Large batches keep a TPU's big matrix units full; small ones leave them partly idle.",
            "workload",
            ("small", "Small"),
            ("large", "Large"),
        ),
        _q(
            "duration",
            "How long does one training run take?",
            "Weeks-long runs repay the effort of moving to TPUs; runs of hours rarely do.",
            "workload",
            ("hours", "Hours"),
            ("days", "Days"),
            ("weeks", "Weeks or longer"),
        ),
        _q(
            "matmul_share",
            "How much of the step time is dense matrix math?",
            "Matrix multiplies are what TPU matrix units do; element-wise and branchy work gains little.",
            "architecture",
            ("low", "Little: mostly element-wise, sparse or branchy work"),
            ("mixed", "A mix"),
            ("dominant", "Most of it: large matrix multiplies"),
        ),
        _q(
            "embeddings",
            "Does the model rely on very large embedding tables?",
            "Ranking and recommendation models with ultra-large embeddings are a listed TPU strength.",
            "architecture",
            ("ultra_large", "Yes: ultra-large embeddings (ranking, recommendation)"),
            ("ordinary", "No, ordinary embeddings or none"),
        ),
        _q(
            "team",
            "What does the team already know well?",
            "Switching stacks costs people's time; existing skills are part of the price.",
            "workflow",
            ("cuda", "CUDA and GPU tooling"),
            ("xla", "JAX / XLA and TPUs"),
            ("general", "General ML, no hardware depth"),
        ),
        _q(
            "porting_budget",
            "How much engineering time can go into adapting the code?",
            "Porting and tuning for the TPU stack takes weeks that count against the hardware savings.",
            "cost",
            ("none", "None: the code must run as it is"),
            ("some", "Some: days to a few weeks"),
            ("ample", "Ample: a dedicated porting effort"),
        ),
        _q(
            "deployment",
            "Where must the work run?",
            "GPUs are in nearly every cloud and in your own racks; TPUs only in Google Cloud.",
            "cost",
            ("google_cloud", "Google Cloud"),
            ("any_cloud", "Any cloud: no tie to one provider"),
            ("other_cloud", "Only another cloud: AWS, Azure, ..."),
            ("on_premises", "Our own machines (on premises)"),
        ),
        _q(
            "burst_capacity",
            "Must you start machines on short notice, in many regions?",
            "Capacity on demand across regions is easier to find for GPUs than for TPUs.",
            "cost",
            ("yes", "Yes, on short notice"),
            ("no", "No, capacity can be planned"),
        ),
        _q(
            "utilization",
            "Is there a steady queue of compatible jobs to keep the chips busy?",
            "Specialised chips pay only while they work; idle reserved chips still cost money.",
            "utilization",
            ("sporadic", "Sporadic: chips would often sit idle"),
            ("steady", "Steady: a constant queue of work"),
        ),
        _q(
            "data_pipeline",
            "Can the input pipeline keep a fast chip fed?",
            "A TPU fed by a slow loader spends its time waiting; measure the loader alone.",
            "utilization",
            ("slow", "Slow: loading or preprocessing already holds us back"),
            ("fast", "Fast: data is ready before the chip needs it"),
        ),
        _q(
            "cost_focus",
            "Which cost weighs more for you?",
            "Cheaper chip-hours can be eaten up by the engineering time spent getting there.",
            "cost",
            ("hardware", "Hardware: chip-hours dominate"),
            ("engineering", "Engineering: people's time dominates"),
        ),
    )
}

PAGES: list[Page] = [
    Page(
        id="framework",
        title="Framework check",
        intro="First, can the model's code run on the TPU's compiler at all?",
        fields=["framework", "xla_verified", "custom_ops", "dynamic_shapes", "high_precision"],
    ),
    Page(
        id="stage",
        title="Project stage",
        intro="Still in the workshop phase, or ready for the factory line?",
        fields=["stage", "architecture_changes"],
    ),
    Page(
        id="workload",
        title="Workload shape",
        intro="How big, how long and how matrix-heavy the work is.",
        fields=["workload", "scale", "batch", "duration", "matmul_share", "embeddings"],
    ),
    Page(
        id="team",
        title="Team",
        intro="What your people know, and how much time they can spend adapting code.",
        fields=["team", "porting_budget"],
    ),
    Page(
        id="cloud",
        title="Cloud, cost and availability",
        intro="Where it runs, how well the chips stay busy, and which bill matters most.",
        fields=["deployment", "burst_capacity", "utilization", "data_pipeline", "cost_focus"],
    ),
]


# --------------------------------------------------------------------------- enough to go on

#: With fewer answered questions than this (and no blocker) there is no verdict yet: one or two
#: answers can push the score to either end with nothing to weigh them against.
MIN_ANSWERS_FOR_VERDICT = 3


def answered_count(rec: Recommendation) -> int:
    """How many of the wizard's questions the recommendation was given."""
    return len(QUESTIONS) - len(rec.unanswered)


def has_verdict(rec: Recommendation) -> bool:
    """True when there is enough to go on: a blocker (decisive alone) or enough answered questions."""
    return bool(rec.blockers) or answered_count(rec) >= MIN_ANSWERS_FOR_VERDICT
