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
"""

from __future__ import annotations

import functools
import string
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from gpu_tpu_app import i18n
from gpu_tpu_app.core.decision.answers import CHOICES, FACTORS
from gpu_tpu_app.errors import InputError, problem_error, supported_version
from gpu_tpu_app.safe_read import read_toml_model

SCHEMA_VERSION = 1
#: the file format version this app reads, checked on load.
SchemaVersion = Annotated[int, AfterValidator(supported_version(SCHEMA_VERSION))]
#: the language whose file holds every text (the fallback).
DEFAULT_LANGUAGE = i18n.DEFAULT_LANGUAGE
#: the placeholders a text may hold; the modules that fill them say which each text needs.
PLACEHOLDERS = frozenset({"factor", "answer", "step", "command", "others", "times"})
#: the longest text the file may hold (the longest shipped one is about 450 characters).
MAX_TEXT_CHARS = 2000


def _one_line(text: str) -> str:
    if text != text.strip():
        raise ValueError("must not start or end with spaces")
    if any(ch in text for ch in "\n\r\t") or not text.isprintable():
        raise ValueError("must be one line of printable text")
    return text


#: one line of text for people: not blank, no line breaks, bounded.
Text = Annotated[str, Field(min_length=1, max_length=MAX_TEXT_CHARS), AfterValidator(_one_line)]


def placeholders(text: str) -> set[str]:
    """The {name} placeholders in `text`; ValueError when its braces are not well formed."""
    names: set[str] = set()
    for _literal, name, spec, conversion in string.Formatter().parse(text):
        if name is None:
            continue
        if not name.isidentifier() or spec or conversion:
            raise ValueError(f"{{{name}}} is not a placeholder this file may use")
        names.add(name)
    return names


class _Content(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PageText(_Content):
    """One wizard page's title and one-line introduction."""

    title: Text
    intro: Text


class QuestionText(_Content):
    """One question: its short label (flips, open questions, reports), the question, a one-line help
    and the words for each choice."""

    label: Text
    text: Text
    help: Text
    choices: dict[str, Text]


class StepText(_Content):
    """One next step: `text` as the window shows it (the button comes from the step's action), and
    `cli` as the CLI and the report print it, with the step's command in place of {command}."""

    text: Text
    cli: Text | None = None


class Notes(_Content):
    """Sentences the engine adds to a reason."""

    small_serving: Text
    inference_duration: Text
    correlated: Text
    playbook_alone: Text
    porting_cost: Text
    short_finetune: Text


class StepWords(_Content):
    """Words the framework-check steps put in place of {step}."""

    serving_step: Text
    training_step: Text


class DecisionText(_Content):
    """The whole file; ids are checked against the answers model here and against the rules,
    steps and pages by the modules that use them (`require`)."""

    schema_version: SchemaVersion
    language: str = Field(pattern=r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$")
    pages: dict[str, PageText]
    questions: dict[str, QuestionText]
    rules: dict[str, dict[str, Text]]
    small_serving: dict[str, dict[str, Text]]
    variants: dict[str, Text]
    conflicts: dict[str, Text]
    blockers: dict[str, dict[str, Text]]
    notes: Notes
    actions: dict[str, Text]
    step_words: StepWords
    steps: dict[str, StepText]

    _source: str = PrivateAttr(default="the decision text")

    @model_validator(mode="after")
    def _consistent(self) -> DecisionText:
        problems = _problems(self)
        if problems:
            raise problem_error(problems)
        return self

    @property
    def source(self) -> str:
        """The file these words were read from, as messages name it."""
        return self._source

    def problem(self, field: str, problem: str) -> InputError:
        """The one-line error for a problem with one field of this file."""
        return InputError(f"{self.source}: {field}: {problem}")

    def require(self, field: str, found: Mapping[str, object], ids: Iterable[str]) -> None:
        """InputError naming the file and field unless `found` has exactly the keys `ids`."""
        wanted = list(ids)
        missing = [i for i in wanted if i not in found]
        if missing:
            raise self.problem(f"{field}.{missing[0]}", "missing (every id the code uses needs its text)")
        unknown = [key for key in found if key not in wanted]
        if unknown:
            raise self.problem(f"{field}.{unknown[0]}", f"unknown id (known: {', '.join(wanted)})")

    def template(self, field: str, text: str, needs: Iterable[str]) -> str:
        """`text` after checking it holds exactly the placeholders `needs`; InputError naming the field otherwise."""
        want = set(needs)
        have = placeholders(text)  # well formed: checked on load
        if have != want:
            shown = ", ".join(f"{{{n}}}" for n in sorted(want)) or "no placeholder"
            raise self.problem(field, f"must hold {shown}")
        return text


def _texts(pack: DecisionText) -> Iterable[tuple[str, str]]:
    """(field path, text) for every text in the file."""
    for section in ("rules", "small_serving", "blockers"):
        for factor, by_value in getattr(pack, section).items():
            for value, text in by_value.items():
                yield f"{section}.{factor}.{value}", text
    for key, text in pack.variants.items():
        yield f"variants.{key}", text
    for key, text in pack.conflicts.items():
        yield f"conflicts.{key}", text
    for key, text in pack.notes.model_dump().items():
        yield f"notes.{key}", text
    for key, text in pack.actions.items():
        yield f"actions.{key}", text
    for key, text in pack.step_words.model_dump().items():
        yield f"step_words.{key}", text
    for pid, page in pack.pages.items():
        yield f"pages.{pid}.title", page.title
        yield f"pages.{pid}.intro", page.intro
    for field, q in pack.questions.items():
        for part in ("label", "text", "help"):
            yield f"questions.{field}.{part}", getattr(q, part)
        for value, text in q.choices.items():
            yield f"questions.{field}.choices.{value}", text
    for sid, step in pack.steps.items():
        yield f"steps.{sid}.text", step.text
        if step.cli is not None:
            yield f"steps.{sid}.cli", step.cli


def _problems(pack: DecisionText) -> list[tuple[str, str]]:
    """Placeholders this file may not use, and questions or choices that are not the answers model's."""
    problems: list[tuple[str, str]] = []
    for path, text in _texts(pack):
        try:
            unknown = placeholders(text) - PLACEHOLDERS
        except ValueError as exc:
            problems.append((path, str(exc)))
            continue
        if unknown:
            problems.append((path, f"{{{sorted(unknown)[0]}}} is not a placeholder this file may use"))
    for field in FACTORS:
        if field not in pack.questions:
            problems.append((f"questions.{field}", "missing (every question needs its text)"))
            continue
        got = pack.questions[field].choices
        for value in CHOICES[field]:
            if value not in got:
                problems.append((f"questions.{field}.choices.{value}", "missing (every choice needs its words)"))
        for value in got:
            if value not in CHOICES[field]:
                problems.append((f"questions.{field}.choices.{value}", f"not one of {', '.join(CHOICES[field])}"))
    for field in pack.questions:
        if field not in FACTORS:
            problems.append((f"questions.{field}", f"unknown question (known: {', '.join(FACTORS)})"))
    return problems


def read_decision_text(path: Path | str) -> DecisionText:
    """Read and check one decision text file's shape; InputError('<file>: <field>: <problem>') otherwise."""
    pack = read_toml_model(Path(path), DecisionText, "decision text")
    pack._source = str(path)
    return pack


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
