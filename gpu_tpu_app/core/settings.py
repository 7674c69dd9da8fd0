"""User preferences as a pydantic model, saved as JSON in the user's config folder.

Each field carries a title and a description, so the preferences dialog is generated
from the model; both (and the choices' labels) come from ``resources/text/preferences.<lang>.toml``
by field name, the English ones into the model, the language in use into the dialog
(``field_text``). Window geometry and recent files are not preferences: the window keeps
them in QSettings. Pure Python: no Qt.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from gpu_tpu_app import APP_NAME, i18n
from gpu_tpu_app.atomic import write_text
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.errors import check_schema_version, from_validation
from gpu_tpu_app.safe_read import MAX_SMALL_FILE_BYTES, NAME_CHARS, read_json_object

SCHEMA_VERSION = 1
FILE_NAME = "preferences.json"
#: Preferences.language: "system" (the locale, as gpu_tpu_app.i18n reads it) or a shipped language.
SYSTEM_LANGUAGE = "system"
LANGUAGE_CHOICES: tuple[str, ...] = (SYSTEM_LANGUAGE, *i18n.LANGUAGES)


def field_text(name: str, what: str, /, language: str | None = None, **values: object) -> str:
    """A field's "title" or "description", or "choices.<value>", in `language` (default: the one in use)."""
    return text(f"preferences.{name}.{what}", language=language, **values)


def _english(name: str, what: str) -> str:
    return field_text(name, what, i18n.DEFAULT_LANGUAGE)


class Preferences(BaseModel):
    """What the user can change in Preferences; every field has a default."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, str_max_length=NAME_CHARS)

    schema_version: int = Field(SCHEMA_VERSION, json_schema_extra={"hidden": True})
    theme: Literal["system", "light", "dark"] = Field(
        "system", title=_english("theme", "title"), description=_english("theme", "description")
    )
    default_suite: Literal["smoke", "quick", "full"] = Field(
        "quick", title=_english("default_suite", "title"), description=_english("default_suite", "description")
    )
    language: str = Field(
        SYSTEM_LANGUAGE,
        json_schema_extra={"choices": list(LANGUAGE_CHOICES)},
        title=_english("language", "title"),
        description=_english("language", "description"),
    )
    probe_python: str | None = Field(
        None,
        max_length=4096,
        json_schema_extra={"hidden": True},
        title=_english("probe_python", "title"),
        description=_english("probe_python", "description"),
    )
    python_envs: list[str] = Field(
        [],
        max_length=64,
        json_schema_extra={"hidden": True},
        title=_english("python_envs", "title"),
        description=_english("python_envs", "description"),
    )

    @field_validator("language")
    @classmethod
    def _known_language(cls, value: str) -> str:
        if value not in LANGUAGE_CHOICES:
            raise ValueError(f"must be one of {', '.join(LANGUAGE_CHOICES)}")
        return value


def config_dir() -> Path:
    """The user's config folder for this app (XDG_CONFIG_HOME/gpu-tpu-app on Linux)."""
    import platformdirs

    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def preferences_path() -> Path:
    """Where the preferences file lives."""
    return config_dir() / FILE_NAME


def load_preferences(path: str | Path | None = None) -> Preferences:
    """Read the preferences; defaults when the file does not exist yet.

    A broken file raises InputError naming the file and the field; it is left untouched.
    """
    path = Path(path) if path is not None else preferences_path()
    if not os.path.lexists(path):
        return Preferences()
    raw = read_json_object(path, text("errors.what.preferences"), MAX_SMALL_FILE_BYTES)
    check_schema_version(raw.get("schema_version", SCHEMA_VERSION), path, SCHEMA_VERSION)
    try:
        return Preferences.model_validate(raw)
    except ValidationError as exc:
        raise from_validation(path, exc) from None


def save_preferences(prefs: Preferences, path: str | Path | None = None) -> Path:
    """Write the preferences atomically; returns the path written."""
    path = Path(path) if path is not None else preferences_path()
    write_text(path, prefs.model_dump_json(indent=2) + "\n")
    return path


def field_choices(name: str) -> tuple[str, ...] | None:
    """The values a field may take, when it is a choice (a Literal, or listed in its "choices"); else None."""
    import typing

    info = Preferences.model_fields[name]
    if typing.get_origin(info.annotation) is typing.Literal:
        return tuple(str(c) for c in typing.get_args(info.annotation))
    extra = info.json_schema_extra
    choices = extra.get("choices") if isinstance(extra, dict) else None
    if isinstance(choices, list):
        return tuple(str(c) for c in choices)
    return None


def choice_label(name: str, value: str, language: str | None = None) -> str:
    """What the dialog shows for one choice: a language by its own name, the others from the text file."""
    if name == "language" and value in i18n.LANGUAGE_NAMES:
        return i18n.LANGUAGE_NAMES[value]
    return field_text(name, f"choices.{value}", language)


def editable_fields() -> list[str]:
    """The fields the preferences dialog shows, in declaration order."""
    return [
        name
        for name, field in Preferences.model_fields.items()
        if not (isinstance(field.json_schema_extra, dict) and field.json_schema_extra.get("hidden"))
    ]
