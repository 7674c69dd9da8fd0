"""What the engine finds, as plain records: the verdict, its reasons, blockers, flips and conflicts.

engine.outcome gives an Outcome; engine.decide turns it into the pydantic Recommendation the window,
reports and sessions keep (recommendation.py, field for field), and `gpu-tpu-app decide` prints it
as it is: `as_json` writes the Recommendation's JSON form without pydantic. Standard library only.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from gpu_tpu_app.core.decision.fields import Confidence, Leans, Verdict
from gpu_tpu_app.core.decision.steps import Step


class ReasonRecord(NamedTuple):
    """One answer's lean and why, with the explainer topic and sources it rests on (recommendation.Reason)."""

    factor: str
    answer: str
    leans: Leans
    weight: float
    message: str
    topic: str
    sources: tuple[str, ...]


class BlockerRecord(NamedTuple):
    """A hard constraint that decides the verdict on its own (recommendation.Blocker)."""

    factor: str
    answer: str
    verdict: Leans
    message: str
    topic: str
    sources: tuple[str, ...]


class FlipRecord(NamedTuple):
    """The smallest change of one answer that changes the verdict (recommendation.Flip; "from" in JSON)."""

    factor: str
    from_: str
    to: str
    verdict: Verdict


class ConflictRecord(NamedTuple):
    """Two answers that contradict each other (recommendation.Conflict)."""

    id: str
    factors: tuple[str, ...]
    answers: tuple[str, ...]
    message: str


class Outcome(NamedTuple):
    """The engine's answer in plain records: what `decide` returns as a Recommendation (pydantic), and what
    the CLI prints as it is (`as_json` is that Recommendation's JSON form, key for key)."""

    verdict: Verdict
    score: float
    confidence: Confidence
    blockers: list[BlockerRecord]
    reasons: list[ReasonRecord]
    flips: list[FlipRecord]
    next_steps: list[str]
    unanswered: list[str]
    conflicts: list[ConflictRecord]
    steps: list[Step]


def as_json(outcome: Outcome) -> dict[str, Any]:
    """The outcome as `Recommendation.model_dump(mode="json", by_alias=True)` writes it (tests hold the two
    equal): the keys in the model's order, lists for tuples, "from" for from_, the steps left out."""
    return {
        "verdict": outcome.verdict,
        "score": outcome.score,
        "confidence": outcome.confidence,
        "blockers": [{**b._asdict(), "sources": list(b.sources)} for b in outcome.blockers],
        "reasons": [{**r._asdict(), "sources": list(r.sources)} for r in outcome.reasons],
        "flips": [{"factor": f.factor, "from": f.from_, "to": f.to, "verdict": f.verdict} for f in outcome.flips],
        "next_steps": list(outcome.next_steps),
        "unanswered": list(outcome.unanswered),
        "conflicts": [
            {"id": c.id, "factors": list(c.factors), "answers": list(c.answers), "message": c.message}
            for c in outcome.conflicts
        ],
    }
