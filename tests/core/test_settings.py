"""Preferences: defaults, round trip, the sandboxed location, and broken files left untouched."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from pydantic import ValidationError

from gpu_tpu_app import i18n
from gpu_tpu_app.core import texts
from gpu_tpu_app.core.settings import (
    Preferences,
    choice_label,
    editable_fields,
    field_choices,
    field_text,
    load_preferences,
    preferences_path,
    save_preferences,
)
from gpu_tpu_app.errors import InputError


def test_defaults_when_no_file(tmp_path: Path) -> None:
    prefs = load_preferences(tmp_path / "missing.json")
    assert prefs == Preferences()
    assert prefs.theme == "system"
    assert prefs.default_suite == "quick"


def test_default_location_is_inside_the_test_sandbox(sandbox_home: str) -> None:
    path = preferences_path()
    assert str(path).startswith(os.environ["XDG_CONFIG_HOME"])
    assert str(path).startswith(sandbox_home)
    assert path.parent.name == "gpu-tpu-app"


def test_round_trip_default_location() -> None:
    prefs = Preferences(theme="dark", default_suite="smoke")
    written = save_preferences(prefs)
    assert written == preferences_path()
    assert load_preferences() == prefs
    assert json.loads(written.read_text())["theme"] == "dark"
    save_preferences(Preferences())  # leave the sandbox as other tests expect it
    assert load_preferences() == Preferences()


def test_every_editable_field_has_title_and_description() -> None:
    fields = editable_fields()
    assert fields == ["theme", "default_suite", "language"]
    for name in fields:
        info = Preferences.model_fields[name]
        assert info.title and info.description, name
        assert (info.title, info.description) == (
            field_text(name, "title", "en"),
            field_text(name, "description", "en"),
        )


@pytest.mark.parametrize("language", [lang for lang in i18n.LANGUAGES if lang != i18n.DEFAULT_LANGUAGE])
def test_every_editable_field_and_choice_has_its_words_in_each_language(language: str) -> None:
    english = texts.area_texts("preferences", "en")
    translated = texts.area_texts("preferences", language)
    for name in editable_fields():
        for what in ("title", "description"):
            assert translated.get(f"{name}.{what}"), (language, name, what)
            assert translated[f"{name}.{what}"] != english[f"{name}.{what}"], (language, name, what)
        choices = field_choices(name)
        assert choices, name
        for choice in choices:
            label = choice_label(name, choice, language)
            assert label and label != choice, (name, choice)
    # the languages are listed by their own names, whatever the language in use
    assert [choice_label("language", c, language) for c in i18n.LANGUAGES] == [
        i18n.LANGUAGE_NAMES[c] for c in i18n.LANGUAGES
    ]


def test_language_is_system_by_default_and_remembered(tmp_path: Path) -> None:
    assert Preferences().language == "system"
    assert field_choices("language") == ("system", *i18n.LANGUAGES)
    path = save_preferences(Preferences(language="zh-Hans"), tmp_path / "prefs.json")
    assert json.loads(path.read_text())["language"] == "zh-Hans"
    assert load_preferences(path).language == "zh-Hans"
    # a file written before the field existed reads as "system"
    path.write_text('{"schema_version": 1, "theme": "dark"}')
    assert load_preferences(path).language == "system"


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"theme": "purple"}', "theme"),
        ('{"default_suite": "huge"}', "default_suite"),
        ('{"language": "fr"}', "language: Value error, must be one of system, en, zh-Hans"),
        ('{"colour": "red"}', "colour: unknown field"),
        ('{"schema_version": 7}', "schema_version: 7 is not supported"),
        ("[1, 2]", "expected a JSON object"),
        ("{not json", "not valid JSON"),
    ],
)
def test_broken_file_is_one_line_error_and_untouched(tmp_path: Path, content: str, expected: str) -> None:
    path = tmp_path / "preferences.json"
    path.write_text(content)
    before = path.read_bytes()
    with pytest.raises(InputError) as err:
        load_preferences(path)
    message = str(err.value)
    assert str(path) in message and expected in message
    assert "\n" not in message
    assert path.read_bytes() == before


def test_preferences_are_frozen() -> None:
    with pytest.raises(ValidationError):
        Preferences().theme = "dark"  # type: ignore[misc]
