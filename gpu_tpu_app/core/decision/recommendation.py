"""The engine's answer as pydantic models: what the window, the report and sessions keep, and what a
Recommendation read back from JSON is checked against.

engine.decide builds one from the engine's plain records (records.Outcome), field for field; the
JSON form (``model_dump(mode="json", by_alias=True)``) is what `gpu-tpu-app decide --format json`
prints, which records.as_json writes without pydantic (tests hold the two equal).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from gpu_tpu_app.core.decision.fields import Confidence, Leans, Verdict
from gpu_tpu_app.core.decision.records import Outcome
from gpu_tpu_app.core.decision.steps import Step, step_of_line


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


class Conflict(BaseModel):
    """Two answers that contradict each other: named on the result page, and the confidence drops a level."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    factors: list[str]
    answers: list[str]
    message: str


class Recommendation(BaseModel):
    """The engine's answer: verdict, score, confidence and everything that explains them.

    `steps` are the next steps as structured records (the window's buttons come from their
    actions); `next_steps` are the same steps as the CLI, the report and JSON output print them.
    `steps` stays out of the JSON form, which tools already read; read back, the steps are found
    again from their lines.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    verdict: Verdict
    score: float = Field(ge=-1.0, le=1.0)
    confidence: Confidence
    blockers: list[Blocker]
    reasons: list[Reason]
    flips: list[Flip]
    next_steps: list[str]
    unanswered: list[str]
    conflicts: list[Conflict] = []
    steps: list[Step] = Field(default_factory=list, exclude=True)

    @model_validator(mode="before")
    @classmethod
    def _steps_from_lines(cls, data: Any) -> Any:
        if isinstance(data, dict) and "steps" not in data and isinstance(data.get("next_steps"), list):
            data = {**data, "steps": [step_of_line(line) for line in data["next_steps"] if isinstance(line, str)]}
        return data

    @model_validator(mode="after")
    def _lines_are_the_steps(self) -> Recommendation:
        if [step.line for step in self.steps] != self.next_steps:
            raise ValueError("next_steps must be the lines of steps")
        return self


def recommendation(outcome: Outcome) -> Recommendation:
    """The engine's records as a Recommendation (validated, as every Recommendation is)."""
    return Recommendation(
        verdict=outcome.verdict,
        score=outcome.score,
        confidence=outcome.confidence,
        blockers=[Blocker(**b._asdict()) for b in outcome.blockers],
        reasons=[Reason(**r._asdict()) for r in outcome.reasons],
        flips=[Flip(**f._asdict()) for f in outcome.flips],
        next_steps=outcome.next_steps,
        unanswered=outcome.unanswered,
        conflicts=[Conflict(**c._asdict()) for c in outcome.conflicts],
        steps=outcome.steps,
    )
