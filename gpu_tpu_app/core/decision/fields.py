"""The answers' ids: one field per wizard question, each with the values it may take. Standard library only.

The field names and their values are ids; the words people read for them are content
(resources/decision, loaded by questions.py). SPECS below is the one home of the questions: the
answers model (answers.Answers, pydantic) is generated from it, as are the wizard's pages;
`gpu-tpu-app decide` reads and checks answers files with it alone, without pydantic, and starts
quickly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NamedTuple, get_args

Leans = Literal["gpu", "tpu"]
Verdict = Literal["gpu", "tpu", "either"]
Confidence = Literal["low", "medium", "high"]

#: how a missing answer is written in flips and text output.
UNKNOWN = "unknown"

#: Answer values that a framework check can also measure (core.modelcheck.MeasuredAnswers shares them).
Framework = Literal["pytorch", "jax", "tensorflow", "other"]
YesNo = Literal["yes", "no"]
CustomOps = Literal["none", "some", "essential"]
HighPrecision = Literal["fp64", "fp32", "no"]
#: "irregular": little dense matrix math, and most of the rest FFTs, sparse math or gathers.
MatmulShare = Literal["irregular", "low", "mixed", "dominant"]
Stage = Literal["exploring", "stabilizing", "production"]
ArchitectureChanges = Literal["weekly", "monthly", "locked"]
Workload = Literal["training", "inference", "both"]
Scale = Literal["small", "medium", "large", "massive"]
Batch = Literal["small", "large"]
Duration = Literal["hours", "days", "weeks"]
Embeddings = Literal["ultra_large", "ordinary"]
Team = Literal["cuda", "xla", "general"]
PortingBudget = Literal["none", "some", "ample"]
#: "aws" / "azure": that cloud only (its GPUs priced from the table); "other_cloud": some cloud other than Google's.
#: "local": one workstation or laptop (no data centre, no cloud).
Deployment = Literal["google_cloud", "any_cloud", "other_cloud", "aws", "azure", "on_premises", "local"]
BurstCapacity = Literal["yes", "no"]
Utilization = Literal["sporadic", "steady"]
DataPipeline = Literal["slow", "fast"]
CostFocus = Literal["hardware", "engineering"]
#: "with_fallbacks": it compiles and runs under XLA (in CI, say), with its own kernels swapped for fallbacks.
XlaVerified = Literal["yes", "with_fallbacks", "no"]
#: which kind the custom kernels are: hand-written CUDA, Triton on GPUs only, or Pallas / XLA custom calls
#: (which run on a TPU).
CustomOpsKind = Literal["cuda", "triton", "pallas_xla"]
#: the serving stack the model runs under (or will).
ServingStack = Literal["vllm", "sglang", "tensorrt_llm", "jetstream", "own"]
#: what limits the work today: the accelerator, the host CPUs (a CPU-bound simulator), or the input pipeline.
Bottleneck = Literal["accelerator", "cpu", "input"]
#: where the chips must run (data residency, latency): an area, matched against the price table's regions.
Region = Literal["anywhere", "us", "canada", "europe", "asia_pacific"]
#: capacity already held: a TPU commitment or a GPU reservation (or none).
CapacityHeld = Literal["none", "tpu", "gpu"]
#: how the cloud chips are rented: on demand, as Spot (preemptible: they can be taken back), or reserved.
Rental = Literal["on_demand", "spot", "reserved"]


class Spec(NamedTuple):
    """One wizard question as the code keeps it: its answer field, the values it may take (a Literal, in
    the wizard's order), the page that asks it, its explainer topic (a lesson topic id) and whether its
    values are ordered, running toward the factory-line (TPU) end (flips then prefer the nearest one)."""

    field: str
    values: object
    page: str
    topic: str
    ordered: bool = False
    #: asked only when another answer is one of these (field, values): a follow-up question
    when: tuple[str, tuple[str, ...]] | None = None


#: The one home of the wizard's questions, in wizard order: the answers model (answers.Answers), the
#: wizard's pages and topics (questions.py), the flips' orders and the answers files' check all derive
#: from it. A new question is one row here, its words in resources/decision and, if it leans, its rules.
SPECS: tuple[Spec, ...] = (
    Spec("framework", Framework, "framework", "software"),
    Spec("xla_verified", XlaVerified, "framework", "software"),
    Spec("custom_ops", CustomOps, "framework", "flexibility"),
    Spec("custom_ops_kind", CustomOpsKind, "framework", "flexibility", when=("custom_ops", ("some", "essential"))),
    Spec("dynamic_shapes", YesNo, "framework", "software"),
    Spec("high_precision", HighPrecision, "framework", "architecture"),
    Spec("stage", Stage, "stage", "playbook", ordered=True),
    Spec("architecture_changes", ArchitectureChanges, "stage", "flexibility", ordered=True),
    Spec("workload", Workload, "workload", "workload"),
    Spec("serving_stack", ServingStack, "workload", "software", when=("workload", ("inference", "both"))),
    Spec("scale", Scale, "workload", "workload", ordered=True),
    Spec("batch", Batch, "workload", "workload", ordered=True),
    Spec("duration", Duration, "workload", "workload", ordered=True),
    Spec("matmul_share", MatmulShare, "workload", "architecture", ordered=True),
    Spec("embeddings", Embeddings, "workload", "architecture"),
    Spec("bottleneck", Bottleneck, "workload", "utilization"),
    Spec("team", Team, "team", "workflow"),
    Spec("porting_budget", PortingBudget, "team", "cost", ordered=True),
    Spec("deployment", Deployment, "cloud", "cost"),
    Spec("region", Region, "cloud", "cost"),
    Spec("capacity_held", CapacityHeld, "cloud", "cost"),
    Spec(
        "rental",
        Rental,
        "cloud",
        "cost",
        when=("deployment", ("google_cloud", "any_cloud", "other_cloud", "aws", "azure")),
    ),
    Spec("burst_capacity", BurstCapacity, "cloud", "cost"),
    Spec("utilization", Utilization, "cloud", "utilization", ordered=True),
    Spec("data_pipeline", DataPipeline, "cloud", "utilization", ordered=True),
    Spec("cost_focus", CostFocus, "cloud", "cost"),
)

#: each answer field, in wizard order, and the type of its values (None, "unknown", is allowed for every one).
FIELDS: dict[str, object] = {spec.field: spec.values for spec in SPECS}

#: field names in wizard order.
FACTORS: tuple[str, ...] = tuple(FIELDS)

#: every field's allowed values, in the table's order.
CHOICES: dict[str, tuple[str, ...]] = {factor: get_args(values) for factor, values in FIELDS.items()}


def choices(factor: str) -> tuple[str, ...]:
    """The allowed values of one answer field, in the table's order."""
    return CHOICES[factor]


#: the ordered factors, each value order running toward the factory-line (TPU) end.
ORDERED: dict[str, tuple[str, ...]] = {spec.field: CHOICES[spec.field] for spec in SPECS if spec.ordered}

#: each question's explainer topic (a lesson topic id), in wizard order.
TOPICS: dict[str, str] = {spec.field: spec.topic for spec in SPECS}

#: the wizard's pages in the playbook's order, each with the fields it asks (in wizard order).
PAGES: dict[str, list[str]] = {}
for _spec in SPECS:
    PAGES.setdefault(_spec.page, []).append(_spec.field)

#: the follow-up questions: field -> (the field it follows, the answers after which it is asked).
FOLLOW_UPS: dict[str, tuple[str, tuple[str, ...]]] = {spec.field: spec.when for spec in SPECS if spec.when}
#: the questions asked whatever the other answers are.
ALWAYS_ASKED: tuple[str, ...] = tuple(f for f in FACTORS if f not in FOLLOW_UPS)


def applies(field: str, values: Mapping[str, str | None]) -> bool:
    """Whether a question is asked given the other answers (a follow-up only after its answers)."""
    follows = FOLLOW_UPS.get(field)
    return follows is None or values.get(follows[0]) in follows[1]


def open_questions(values: Mapping[str, str | None]) -> list[str]:
    """The questions asked and not answered, in wizard order."""
    return [f for f in FACTORS if values.get(f) is None and applies(f, values)]


#: the answers as a plain mapping of field to value (None: unknown), in wizard order.
Values = dict[str, str | None]


def values_of(answers: object) -> Values:
    """The answers (an Answers model) as a plain mapping of field to value (None: unknown), in wizard order."""
    return {factor: getattr(answers, factor) for factor in FACTORS}
