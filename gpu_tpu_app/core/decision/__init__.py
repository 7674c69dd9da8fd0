"""The decision engine: answers about a workload in, an explained GPU / TPU recommendation out.

A package of one job per module; every public name is importable from here:

- answers: the answers model (the wizard's fields and their values, as ids)
- content: the engine's words, read from resources/decision/decision.<language>.toml (the language
  from gpu_tpu_app.i18n; each language's words are read and joined to the rules on first use)
- rules: each answer's lean (direction, weight, topic, sources) and the blockers, joined to their words
- steps: next steps as records (id, text, action, command) and the rules that pick them
- questions: the wizard's pages and questions, with each question's short label
- engine: the score, verdict, confidence, reasons and flips (decide)
- io: answers files in (versioned, migrated on load) and the full check of a decision text file
"""

from __future__ import annotations

from gpu_tpu_app.core.decision.answers import (
    FACTORS,
    ORDERED,
    UNKNOWN,
    Answers,
    Confidence,
    CustomOps,
    Framework,
    HighPrecision,
    Leans,
    MatmulShare,
    Verdict,
    YesNo,
    choices,
)
from gpu_tpu_app.core.decision.content import DecisionText, read_decision_text
from gpu_tpu_app.core.decision.engine import (
    MAX_FLIPS,
    MIN_ANSWERS_FOR_VERDICT,
    Blocker,
    Conflict,
    Flip,
    Reason,
    Recommendation,
    answered_count,
    decide,
    has_verdict,
    leans_only,
)
from gpu_tpu_app.core.decision.io import (
    ANSWERS_SCHEMA_VERSION,
    ANSWERS_SCHEMA_VERSIONS,
    check_answers_version,
    check_decision_text,
    load_answers,
    migrate_answers,
    read_answers,
)
from gpu_tpu_app.core.decision.questions import PAGES, QUESTIONS, Page, Question
from gpu_tpu_app.core.decision.rules import (
    BLOCKED_SCORE,
    BLOCKERS,
    CORRELATED,
    CORRELATED_SHARE,
    RULES,
    SCALE,
    THRESHOLD,
    BlockerRule,
    Rule,
)
from gpu_tpu_app.core.decision.rules import SMALL_SERVING as _SMALL_SERVING  # noqa: F401 - the tests' name for it since the engine was one module
from gpu_tpu_app.core.decision.steps import ACTION_WORDS, ACTIONS, Action, Step


def __getattr__(name: str) -> object:
    # the variant rules under the tests' names since the engine was one module, built on first use
    if name in ("_STEADY_SERVING", "_EMBEDDING_LOOKUPS"):
        from gpu_tpu_app.core.decision import rules

        return getattr(rules, name[1:])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ACTIONS",
    "ACTION_WORDS",
    "ANSWERS_SCHEMA_VERSION",
    "ANSWERS_SCHEMA_VERSIONS",
    "BLOCKED_SCORE",
    "BLOCKERS",
    "CORRELATED",
    "CORRELATED_SHARE",
    "FACTORS",
    "MAX_FLIPS",
    "MIN_ANSWERS_FOR_VERDICT",
    "ORDERED",
    "PAGES",
    "QUESTIONS",
    "RULES",
    "SCALE",
    "THRESHOLD",
    "UNKNOWN",
    "Action",
    "Answers",
    "Blocker",
    "BlockerRule",
    "Confidence",
    "Conflict",
    "CustomOps",
    "DecisionText",
    "Flip",
    "Framework",
    "HighPrecision",
    "Leans",
    "MatmulShare",
    "Page",
    "Question",
    "Reason",
    "Recommendation",
    "Rule",
    "Step",
    "Verdict",
    "YesNo",
    "answered_count",
    "check_answers_version",
    "check_decision_text",
    "choices",
    "decide",
    "has_verdict",
    "leans_only",
    "load_answers",
    "migrate_answers",
    "read_answers",
    "read_decision_text",
]
