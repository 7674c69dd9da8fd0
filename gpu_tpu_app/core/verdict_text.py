"""The verdict in words: headlines, short words, the one-sentence summary and what a change did.

The same sentences in the window, the report and the CLI.
"""

from __future__ import annotations

from gpu_tpu_app.core.decision import QUESTIONS, Recommendation, has_verdict, leans_only
from gpu_tpu_app.core.decision.rules import FULL_ENOUGH

HEADLINES: dict[str, str] = {
    "gpu": "The workshop: GPUs fit this work better",
    "tpu": "The factory line: TPUs fit this work better",
    "either": "Either can work: the answers do not lean clearly",
}
VERDICT_WORDS: dict[str, str] = {"gpu": "GPU", "tpu": "TPU", "either": "Either"}
#: the headline while a few answers lean but decide nothing (decision.leans_only).
LEANS_ONLY_HEADLINE = "Either, for now: too few answers to decide"


def headline(rec: Recommendation) -> str:
    """The verdict's headline (window and report)."""
    return LEANS_ONLY_HEADLINE if leans_only(rec) else HEADLINES[rec.verdict]


def verdict_summary(rec: Recommendation) -> str:
    """The verdict's score, confidence and answered questions in one sentence (window and report)."""
    answered = len(QUESTIONS) - len(rec.unanswered)
    summary = (
        f"Score {rec.score:+.2f} on a scale from −1 (workshop) to +1 (factory line); "
        f"confidence {rec.confidence}; "
        f"{answered} of {len(QUESTIONS)} questions answered."
    )
    if rec.blockers:
        summary = "A hard constraint decides this on its own. " + summary
    elif leans_only(rec):
        summary += f" With fewer than {FULL_ENOUGH} answers they lean but do not decide: answer more for a verdict."
    if rec.conflicts:
        summary += " Some answers contradict each other, which lowers the confidence: " + " ".join(
            c.message for c in rec.conflicts
        )
    return summary


def verdict_words(rec: Recommendation) -> str:
    """The verdict and its confidence in a few words: 'GPU, high confidence', or 'no verdict yet'."""
    if not has_verdict(rec):
        return "no verdict yet"
    return f"{VERDICT_WORDS[rec.verdict]}, {rec.confidence} confidence"


def verdict_change(before: Recommendation, after: Recommendation) -> str:
    """What a change of answers did to the verdict, in one sentence."""
    old, new = verdict_words(before), verdict_words(after)
    if old == new:
        return f"Verdict unchanged: {new}."
    return f"Verdict changed: {old} → {new}."
