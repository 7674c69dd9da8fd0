"""The answers model: what the user knows about the workload, one field per wizard question.

The field names and their values are ids; the words people read for them are content
(resources/decision, loaded by questions.py).
"""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict

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


#: every field's allowed values, computed once.
CHOICES: dict[str, tuple[str, ...]] = {factor: choices(factor) for factor in FACTORS}

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


def values_of(answers: Answers) -> dict[str, str | None]:
    """The answers as a plain mapping of field to value (None: unknown), in wizard order."""
    return {factor: getattr(answers, factor) for factor in FACTORS}
