"""User preferences as a pydantic model, saved as JSON in the user's config folder.

Each field carries a title and a description, so the preferences dialog is generated
from the model. Window geometry and recent files are not preferences: the window keeps
them in QSettings. Pure Python: no Qt.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gpu_tpu_app import APP_NAME
from gpu_tpu_app.atomic import write_text
from gpu_tpu_app.errors import check_schema_version, from_validation
from gpu_tpu_app.safe_read import MAX_SMALL_FILE_BYTES, NAME_CHARS, read_json_object

SCHEMA_VERSION = 1
FILE_NAME = "preferences.json"


class Preferences(BaseModel):
    """What the user can change in Preferences; every field has a default."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, str_max_length=NAME_CHARS)

    schema_version: int = Field(SCHEMA_VERSION, json_schema_extra={"hidden": True})
    theme: Literal["system", "light", "dark"] = Field(
        "system",
        title="Theme",
        description="Light or dark colours; 'system' follows the desktop's colour scheme.",
    )
    default_suite: Literal["smoke", "quick", "full"] = Field(
        "quick",
        title="Default probe suite",
        description="The probe suite selected when the Probe page opens: smoke takes seconds, "
        "quick about a minute, full several minutes.",
    )
    probe_python: str | None = Field(
        None,
        max_length=4096,
        json_schema_extra={"hidden": True},
        title="Probe environment",
        description="The Python interpreter the probe workers run in; empty: the app's own.",
    )
    python_envs: list[str] = Field(
        [],
        max_length=64,
        json_schema_extra={"hidden": True},
        title="Added environments",
        description="Python interpreters added by path on the Probe page.",
    )


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
    raw = read_json_object(path, "a JSON object of preferences", MAX_SMALL_FILE_BYTES)
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


def editable_fields() -> list[str]:
    """The fields the preferences dialog shows, in declaration order."""
    return [
        name
        for name, field in Preferences.model_fields.items()
        if not (isinstance(field.json_schema_extra, dict) and field.json_schema_extra.get("hidden"))
    ]
