"""The verdict in words: headlines, short words, the one-sentence summary and what a change did.

The same sentences in the window, the report and the CLI, in the language in use: the words are
in resources/text/verdict.<language>.toml (core.texts).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from gpu_tpu_app.core.decision import answered_count, has_verdict, leans_only, question_count
from gpu_tpu_app.core.decision.rules import FULL_ENOUGH
from gpu_tpu_app.core.localized import InLanguage, sentences
from gpu_tpu_app.core.texts import text

if TYPE_CHECKING:
    from gpu_tpu_app.core.decision import Recommendation

_VERDICTS = ("gpu", "tpu", "either")

#: each verdict's headline, in the language in use.
HEADLINES: Mapping[str, str] = InLanguage(
    lambda lang: {v: text(f"verdict.headline.{v}", language=lang) for v in _VERDICTS}
)
#: each verdict (and a reason's lean) in one word, in the language in use.
VERDICT_WORDS: Mapping[str, str] = InLanguage(
    lambda lang: {v: text(f"verdict.word.{v}", language=lang) for v in _VERDICTS}
)


def __getattr__(name: str) -> str:
    if name == "LEANS_ONLY_HEADLINE":  # the headline while a few answers lean but decide nothing
        return text("verdict.headline.leans_only")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def confidence_word(confidence: str) -> str:
    """'high', 'medium' or 'low' in the language in use."""
    return text(f"verdict.confidence.{confidence}")


def headline(rec: Recommendation) -> str:
    """The verdict's headline (window and report)."""
    return text("verdict.headline.leans_only") if leans_only(rec) else HEADLINES[rec.verdict]


def verdict_summary(rec: Recommendation) -> str:
    """The verdict's score, confidence and answered questions in one sentence (window and report)."""
    answered = answered_count(rec)
    summary = text(
        "verdict.summary.score",
        score=f"{rec.score:+.2f}",
        confidence=confidence_word(rec.confidence),
        answered=answered,
        total=question_count(),
    )
    if rec.blockers:
        summary = text("verdict.summary.blocked", summary=summary)
    elif leans_only(rec):
        summary = text("verdict.summary.leans_only", summary=summary, n=FULL_ENOUGH)
    if rec.conflicts:
        messages = rec.conflicts[0].message
        for c in rec.conflicts[1:]:
            messages = sentences(messages, c.message)
        summary = text("verdict.summary.conflicts", summary=summary, messages=messages)
    return summary


def verdict_words(rec: Recommendation) -> str:
    """The verdict and its confidence in a few words: 'GPU, high confidence', or 'no verdict yet'."""
    if not has_verdict(rec):
        return text("verdict.words.none")
    return text("verdict.words.verdict", verdict=VERDICT_WORDS[rec.verdict], confidence=confidence_word(rec.confidence))


def verdict_change(before: Recommendation, after: Recommendation) -> str:
    """What a change of answers did to the verdict, in one sentence."""
    old, new = verdict_words(before), verdict_words(after)
    if old == new:
        return text("verdict.words.unchanged", words=new)
    return text("verdict.words.changed", old=old, new=new)
