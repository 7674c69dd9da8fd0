"""The verdict in words (core.verdict_text)."""

from __future__ import annotations

from gpu_tpu_app.core import verdict_text
from gpu_tpu_app.core.decision import Answers, decide, question_count
from gpu_tpu_app.core.verdict_text import verdict_summary


def test_verdict_summary_counts_answers_and_names_a_blocker() -> None:
    rec = decide(Answers())
    text = verdict_summary(rec)
    assert f"0 of {question_count()} questions answered" in text and f"{rec.score:+.2f}" in text
    assert not text.startswith("A hard constraint")
    assert verdict_text.VERDICT_WORDS[rec.verdict] in ("GPU", "TPU", "Either")
