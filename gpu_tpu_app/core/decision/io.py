"""Files in: answers files (JSON, versioned, migrated on load) and a full check of a decision text file.

Standard library only until an Answers model is asked for: `answer_values` and `read_answer_values`
check an answers file completely (every field and value, with the same one-line errors) and give
the values as a plain mapping, which is all `gpu-tpu-app decide` needs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from gpu_tpu_app.core.decision.content import DecisionText, read_decision_text
from gpu_tpu_app.core.decision.fields import CHOICES, FACTORS, Values
from gpu_tpu_app.core.decision.questions import build_questions
from gpu_tpu_app.core.decision.rules import build_rules
from gpu_tpu_app.core.decision.steps import build_steps
from gpu_tpu_app.core.texts import text as words
from gpu_tpu_app.errors import InputError, from_validation, json_object
from gpu_tpu_app.errors import shown as quoted
from gpu_tpu_app.safe_read import MAX_SMALL_FILE_BYTES, read_text

if TYPE_CHECKING:
    from gpu_tpu_app.core.decision.answers import Answers

#: version an answers file may state in an optional top-level "schema_version" key. Version 1 had
#: high_precision "yes" | "no" and no embeddings answer; such files are migrated on load.
ANSWERS_SCHEMA_VERSION = 2
#: every answers version this app reads (older ones pass through migrate_answers).
ANSWERS_SCHEMA_VERSIONS = (1, 2)

#: version-1 answers that changed meaning, and what they are now: "yes" meant "fp64 or strict fp32";
#: it becomes "fp64", the reading that keeps the old verdict (a GPU blocker) unchanged.
_V1_RENAMED: dict[str, dict[str, str]] = {"high_precision": {"yes": "fp64"}}


def check_answers_version(version: object, source_name: str) -> int:
    """The answers schema version, if this app reads it; InputError naming the file otherwise."""
    if isinstance(version, bool) or version not in ANSWERS_SCHEMA_VERSIONS:
        known = words("decide.error.versions_joiner").join(str(v) for v in ANSWERS_SCHEMA_VERSIONS)
        raise InputError(
            words("decide.error.version", source=source_name, version=quoted(json.dumps(version)), known=known)
        )
    return int(version)


def migrate_answers(data: dict[str, object], version: int | None) -> dict[str, object]:
    """Answers as written under schema `version` (None: not stated), in this version's terms.

    Version 1 wrote high_precision "yes"; it loads as "fp64". Values that never existed are left
    alone for validation to report.
    """
    if version is not None and version >= ANSWERS_SCHEMA_VERSION:
        return dict(data)
    out = dict(data)
    for factor, renamed in _V1_RENAMED.items():
        value = out.get(factor)
        if isinstance(value, str) and value in renamed:
            out[factor] = renamed[value]
    return out


def load_answers(text: str, source_name: str = "answers") -> Answers:
    """Parse a JSON answers object; any problem is an InputError naming the file, the field and what is allowed.

    Missing fields and null mean "unknown". An optional "schema_version" key must be 1 or 2; files
    of version 1 (or without a version) are migrated (high_precision "yes" reads as "fp64").
    """
    from pydantic import ValidationError

    from gpu_tpu_app.core.decision.answers import Answers

    data = _checked(text, source_name)
    try:
        return Answers.model_validate(data)
    except ValidationError as exc:  # the checks above should catch everything; keep the one-line promise anyway
        raise from_validation(source_name, exc) from None


def answer_values(text: str, source_name: str = "answers") -> Values:
    """`load_answers` without the model: the same checks and errors, the answers as field -> value (None:
    unknown) in wizard order."""
    data = _checked(text, source_name)
    return {factor: data.get(factor) for factor in FACTORS}  # type: ignore[misc]  # checked: a choice or None


def _checked(text: str, source_name: str) -> dict[str, object]:
    """The answers object of `text`, migrated, after every check of its fields and values."""
    data = dict(json_object(text, source_name, words("errors.what.answers")))
    version = check_answers_version(data.pop("schema_version"), source_name) if "schema_version" in data else None
    data = migrate_answers(data, version)
    for key in data:
        if key not in CHOICES:
            raise InputError(
                words("decide.error.unknown_field", source=source_name, field=quoted(key), fields=", ".join(FACTORS))
            )
    for factor in FACTORS:
        value = data.get(factor)
        if value is not None and value not in CHOICES[factor]:
            shown = quoted(repr(value) if isinstance(value, str) else json.dumps(value), 60)
            raise InputError(
                words(
                    "decide.error.not_a_choice",
                    source=source_name,
                    factor=factor,
                    value=shown,
                    choices=", ".join(CHOICES[factor]),
                )
            )
    return data


def read_answers(path: str | Path) -> Answers:
    """Read and parse an answers file; a missing or unreadable file is an InputError too."""
    path = Path(path)
    return load_answers(read_text(path, words("errors.what.answers_file"), MAX_SMALL_FILE_BYTES), str(path))


def read_answer_values(path: str | Path) -> Values:
    """`read_answers` without the model (`answer_values`)."""
    path = Path(path)
    return answer_values(read_text(path, words("errors.what.answers_file"), MAX_SMALL_FILE_BYTES), str(path))


def check_decision_text(path: str | Path) -> DecisionText:
    """Read a decision text file (a translation, say) and check it in full: its shape, and that every
    rule, step, page and question the code uses has its words and nothing else is there.

    Any problem is one InputError naming the file and the field.
    """
    text = read_decision_text(path)
    build_rules(text)
    build_steps(text)
    build_questions(text)
    return text
