"""The decision engine: answers about a workload in, an explained GPU / TPU recommendation out.

A package of one job per module; every public name is importable from here:

- fields: the answers' fields and their values, as ids (standard library only)
- answers: the answers model (pydantic), declared from fields
- content: the engine's words, read from resources/decision/decision.<language>.toml (the language
  from gpu_tpu_app.i18n; each language's words are read and joined to the rules on first use)
- rules: each answer's lean (direction, weight, topic, sources) and the blockers, joined to their words
- steps: next steps as records (id, text, action, command) and the rules that pick them
- questions: the wizard's pages and questions, with each question's short label
- engine: the score, verdict, confidence, reasons and flips (decide; `outcome` as plain records)
- recommendation: the engine's answer as pydantic models (Recommendation and its parts)
- io: answers files in (versioned, migrated on load) and the full check of a decision text file

Each name is imported from its module on first use. Only answers, recommendation and
content_schema (the decision text's reference schema, for its error messages) need pydantic.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gpu_tpu_app.core.decision.answers import (
        Answers,
    )
    from gpu_tpu_app.core.decision.content import (
        DecisionText,
        read_decision_text,
    )
    from gpu_tpu_app.core.decision.engine import (
        MAX_FLIPS,
        MIN_ANSWERS_FOR_VERDICT,
        answered_count,
        decide,
        has_verdict,
        leans_only,
        question_count,
    )
    from gpu_tpu_app.core.decision.fields import (
        FACTORS,
        ORDERED,
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
    from gpu_tpu_app.core.decision.questions import (
        PAGES,
        QUESTIONS,
        Page,
        Question,
    )
    from gpu_tpu_app.core.decision.recommendation import (
        Blocker,
        Conflict,
        Flip,
        Reason,
        Recommendation,
    )
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
    from gpu_tpu_app.core.decision.steps import (
        ACTION_WORDS,
        ACTIONS,
        Action,
        Step,
    )

#: each public name -> the module (of this package) that defines it, imported on first use.
_HOMES: dict[str, str] = {
    "Answers": "answers",
    "DecisionText": "content",
    "read_decision_text": "content",
    "MAX_FLIPS": "engine",
    "MIN_ANSWERS_FOR_VERDICT": "engine",
    "answered_count": "engine",
    "question_count": "engine",
    "decide": "engine",
    "has_verdict": "engine",
    "leans_only": "engine",
    "Confidence": "fields",
    "CustomOps": "fields",
    "FACTORS": "fields",
    "Framework": "fields",
    "HighPrecision": "fields",
    "Leans": "fields",
    "MatmulShare": "fields",
    "ORDERED": "fields",
    "UNKNOWN": "fields",
    "Verdict": "fields",
    "YesNo": "fields",
    "choices": "fields",
    "ANSWERS_SCHEMA_VERSION": "io",
    "ANSWERS_SCHEMA_VERSIONS": "io",
    "check_answers_version": "io",
    "check_decision_text": "io",
    "load_answers": "io",
    "migrate_answers": "io",
    "read_answers": "io",
    "PAGES": "questions",
    "Page": "questions",
    "QUESTIONS": "questions",
    "Question": "questions",
    "Blocker": "recommendation",
    "Conflict": "recommendation",
    "Flip": "recommendation",
    "Reason": "recommendation",
    "Recommendation": "recommendation",
    "BLOCKED_SCORE": "rules",
    "BLOCKERS": "rules",
    "BlockerRule": "rules",
    "CORRELATED": "rules",
    "CORRELATED_SHARE": "rules",
    "RULES": "rules",
    "Rule": "rules",
    "SCALE": "rules",
    "THRESHOLD": "rules",
    "_SMALL_SERVING": "rules",
    "ACTIONS": "steps",
    "ACTION_WORDS": "steps",
    "Action": "steps",
    "Step": "steps",
}


def __getattr__(name: str) -> object:
    # each name from the module that defines it, imported on first use: `decide` on the command line reads
    # answers and prints a verdict without the pydantic models of the window and sessions (answers,
    # recommendation), and `import gpu_tpu_app.core.decision` costs nothing
    home = _HOMES.get(name)
    if home is not None:
        value = getattr(importlib.import_module(f"{__name__}.{home}"), name.lstrip("_"))
        globals()[name] = value
        return value
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
    "question_count",
    "read_answers",
    "read_decision_text",
]
