"""The decision engine's words as a validated content file (resources/decision/decision.<language>.toml).

Every sentence the engine shows (wizard pages and questions, the rules' reasons, blockers, notes,
next steps, the window's action buttons) lives in that file, keyed by the ids the code uses; the
code keeps ids, weights, topics and sources. A translation is one more file with the same keys
(decision.zh-Hans.toml beside decision.en.toml); the file of the language in use
(gpu_tpu_app.i18n) is read on first use and kept, one per language, never at import.

This module reads and checks the file's shape (schema version, one-line texts, placeholders,
every question and choice). The modules that join the words to their ids (rules, steps,
questions) check that every id has its words and every entry is an id they know, with
`DecisionText.require`: any problem is one InputError naming the file and the field.

The check runs in plain Python (pack.py), so a command that decides starts without pydantic. It
accepts a file only when the pydantic schema in content_schema.py (the file format's reference)
accepts it with the same values; anything it does not accept outright goes to that schema, whose
verdict stands: its one-line error for a bad file, or its reading of one that is fine after all (a
schema_version of 1.0, say). tests/core/decision/test_content_lean.py holds the two to agreeing.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from gpu_tpu_app import i18n
from gpu_tpu_app.core.decision.pack import (
    MAX_TEXT_CHARS,
    PLACEHOLDERS,
    SCHEMA_VERSION,
    DecisionText,
    _texts,
    lean_pack,
    placeholders,
)
from gpu_tpu_app.errors import CheckFailed
from gpu_tpu_app.safe_read import read_toml, validate_toml_model

__all__ = [
    "DEFAULT_LANGUAGE",
    "MAX_TEXT_CHARS",
    "PLACEHOLDERS",
    "SCHEMA_VERSION",
    "DecisionText",
    "_texts",
    "decision_text",
    "packaged_text",
    "packaged_text_path",
    "placeholders",
    "read_decision_text",
]

#: the language whose file holds every text (the fallback).
DEFAULT_LANGUAGE = i18n.DEFAULT_LANGUAGE


def decision_text(data: dict[str, Any], path: Path | str) -> DecisionText:
    """A decision text file's tables as the checked pack; InputError('<file>: <field>: <problem>') otherwise."""
    pack = lean_pack(data, str(path))
    if pack is not None:
        return pack
    from gpu_tpu_app.core.decision.content_schema import DecisionTextModel

    model = validate_toml_model(Path(path), data, DecisionTextModel)  # the schema's one-line error, if any
    pack = lean_pack(model.model_dump(exclude_none=True), str(path))
    if pack is None:  # the schema took what this module refuses: the app's own fault, not the file's
        raise CheckFailed(f"{path}: the decision text's two checks disagree about this file")
    return pack


def read_decision_text(path: Path | str) -> DecisionText:
    """Read and check one decision text file's shape; InputError('<file>: <field>: <problem>') otherwise."""
    return decision_text(read_toml(Path(path), "decision text"), path)


def packaged_text_path(language: str | None = None) -> Path:
    """Where the packaged file for `language` (None: the language in use) lies; English where it has none."""
    from gpu_tpu_app.assets import resource_path

    return i18n.localized_file(resource_path("decision"), "decision", "toml", language or i18n.current_language())


def packaged_text(language: str | None = None) -> DecisionText:
    """The packaged decision text for `language` (None: the language in use), read once per language."""
    return _packaged_text(language or i18n.current_language())


@functools.lru_cache(maxsize=8)
def _packaged_text(language: str) -> DecisionText:
    return read_decision_text(packaged_text_path(language))
