"""The answers model: what the user knows about the workload, one field per wizard question.

The model is generated from fields.SPECS (the one home of the questions, which the CLI reads
without pydantic): one optional field per question, in wizard order, each allowing its question's
values or None ("unknown"). The window, sessions and the model check use it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, create_model

from gpu_tpu_app.core.decision.fields import (
    CHOICES,
    FACTORS,
    ORDERED,
    SPECS,
    UNKNOWN,
    Confidence,
    CustomOps,
    Framework,
    HighPrecision,
    Leans,
    MatmulShare,
    Verdict,
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

_CONFIG = ConfigDict(extra="forbid", frozen=True)

if TYPE_CHECKING:

    class Answers(BaseModel):
        """What the user knows about the workload; None means "unknown" (the type checker's view of the
        model generated below: every field is one of its question's values, or None)."""

        def __init__(self, **values: str | None) -> None: ...

        def __getattr__(self, name: str) -> str | None: ...

else:
    _fields: dict[str, Any] = {spec.field: (spec.values | None, None) for spec in SPECS}
    Answers = create_model("Answers", __config__=_CONFIG, __module__=__name__, __doc__=None, **_fields)
    Answers.__doc__ = 'What the user knows about the workload; None means "unknown".'
