"""The answers' ids: one field per wizard question, each with the values it may take. Standard library only.

The field names and their values are ids; the words people read for them are content
(resources/decision, loaded by questions.py). The answers model (answers.Answers, pydantic) is
declared from these types and checked against them when it is built, so this table is the one
home of the fields; `gpu-tpu-app decide` reads and checks answers files with it alone, without
pydantic, and starts quickly.
"""

from __future__ import annotations

from typing import Literal, get_args

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
Deployment = Literal["google_cloud", "any_cloud", "other_cloud", "on_premises"]
BurstCapacity = Literal["yes", "no"]
Utilization = Literal["sporadic", "steady"]
DataPipeline = Literal["slow", "fast"]
CostFocus = Literal["hardware", "engineering"]

#: each answer field, in wizard order, and the type of its values (None, "unknown", is allowed for every one).
FIELDS: dict[str, object] = {
    "framework": Framework,
    "xla_verified": YesNo,
    "custom_ops": CustomOps,
    "dynamic_shapes": YesNo,
    "high_precision": HighPrecision,
    "stage": Stage,
    "architecture_changes": ArchitectureChanges,
    "workload": Workload,
    "scale": Scale,
    "batch": Batch,
    "duration": Duration,
    "matmul_share": MatmulShare,
    "embeddings": Embeddings,
    "team": Team,
    "porting_budget": PortingBudget,
    "deployment": Deployment,
    "burst_capacity": BurstCapacity,
    "utilization": Utilization,
    "data_pipeline": DataPipeline,
    "cost_focus": CostFocus,
}

#: field names in wizard order.
FACTORS: tuple[str, ...] = tuple(FIELDS)

#: every field's allowed values, in the table's order.
CHOICES: dict[str, tuple[str, ...]] = {factor: get_args(values) for factor, values in FIELDS.items()}


def choices(factor: str) -> tuple[str, ...]:
    """The allowed values of one answer field, in the table's order."""
    return CHOICES[factor]


#: the ordered factors, each value order running toward the factory-line (TPU) end.
ORDERED: dict[str, tuple[str, ...]] = {
    "stage": ("exploring", "stabilizing", "production"),
    "architecture_changes": ("weekly", "monthly", "locked"),
    "scale": ("small", "medium", "large", "massive"),
    "batch": ("small", "large"),
    "duration": ("hours", "days", "weeks"),
    "matmul_share": ("irregular", "low", "mixed", "dominant"),
    "porting_budget": ("none", "some", "ample"),
    "utilization": ("sporadic", "steady"),
    "data_pipeline": ("slow", "fast"),
}

#: the answers as a plain mapping of field to value (None: unknown), in wizard order.
Values = dict[str, str | None]


def values_of(answers: object) -> Values:
    """The answers (an Answers model) as a plain mapping of field to value (None: unknown), in wizard order."""
    return {factor: getattr(answers, factor) for factor in FACTORS}
