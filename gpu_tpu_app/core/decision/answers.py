"""The answers model: what the user knows about the workload, one field per wizard question.

The fields, their values and their order are those of fields.py (the one home of them, which the
CLI reads without pydantic); this module declares the pydantic model the window, sessions and the
model check use, and refuses to build if the two ever differ.
"""

from __future__ import annotations

from typing import get_args

from pydantic import BaseModel, ConfigDict

from gpu_tpu_app.core.decision.fields import (
    CHOICES,
    FACTORS,
    FIELDS,
    ORDERED,
    UNKNOWN,
    ArchitectureChanges,
    Batch,
    BurstCapacity,
    Confidence,
    CostFocus,
    CustomOps,
    DataPipeline,
    Deployment,
    Duration,
    Embeddings,
    Framework,
    HighPrecision,
    Leans,
    MatmulShare,
    PortingBudget,
    Scale,
    Stage,
    Team,
    Utilization,
    Verdict,
    Workload,
    YesNo,
    choices,
    values_of,
)

__all__ = [
    "CHOICES",
    "FACTORS",
    "ORDERED",
    "UNKNOWN",
    "Answers",
    "Confidence",
    "CustomOps",
    "Framework",
    "HighPrecision",
    "Leans",
    "MatmulShare",
    "Verdict",
    "YesNo",
    "choices",
    "values_of",
]


class Answers(BaseModel):
    """What the user knows about the workload; None means "unknown"."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    framework: Framework | None = None
    xla_verified: YesNo | None = None
    custom_ops: CustomOps | None = None
    dynamic_shapes: YesNo | None = None
    high_precision: HighPrecision | None = None
    stage: Stage | None = None
    architecture_changes: ArchitectureChanges | None = None
    workload: Workload | None = None
    scale: Scale | None = None
    batch: Batch | None = None
    duration: Duration | None = None
    matmul_share: MatmulShare | None = None
    embeddings: Embeddings | None = None
    team: Team | None = None
    porting_budget: PortingBudget | None = None
    deployment: Deployment | None = None
    burst_capacity: BurstCapacity | None = None
    utilization: Utilization | None = None
    data_pipeline: DataPipeline | None = None
    cost_focus: CostFocus | None = None


def _declared() -> dict[str, tuple[str, ...]]:
    """Each model field's allowed values, read from its annotation."""
    out = {}
    for name, info in Answers.model_fields.items():
        literal = next(arg for arg in get_args(info.annotation) if arg is not type(None))
        out[name] = get_args(literal)
    return out


if _declared() != CHOICES or tuple(Answers.model_fields) != FACTORS or set(FIELDS) != set(FACTORS):
    raise RuntimeError("core.decision.answers.Answers and core.decision.fields.FIELDS differ: declare a field in both")
