"""The decision text as the app holds it (content.DecisionText), and its checks in plain Python.

content.py reads the file; this module says what a well-formed file is: the file's tables and
texts (one line, bounded, known placeholders, every question and choice of the answers model).
`lean_pack` accepts a file only when the pydantic schema in content_schema.py (the format's
reference) would accept it unchanged; standard library only, so that a command that decides
starts without pydantic.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple, TypeGuard

from gpu_tpu_app.core.decision.fields import CHOICES, FACTORS
from gpu_tpu_app.errors import InputError

SCHEMA_VERSION = 1
#: the placeholders a text may hold; the modules that fill them say which each text needs.
PLACEHOLDERS = frozenset({"factor", "answer", "step", "command", "others", "times"})
#: the longest text the file may hold (the longest shipped one is about 450 characters).
MAX_TEXT_CHARS = 2000
#: what the file's `language` must look like (a BCP 47 tag such as en or zh-Hans).
LANGUAGE_PATTERN = r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$"
_LANGUAGE = re.compile(LANGUAGE_PATTERN.removeprefix("^").removesuffix("$"))


def one_line(text: str) -> str:
    """`text` if it is one line of printable text with no spaces around it; ValueError otherwise."""
    if text != text.strip():
        raise ValueError("must not start or end with spaces")
    if any(ch in text for ch in "\n\r\t") or not text.isprintable():
        raise ValueError("must be one line of printable text")
    return text


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


class PageText(NamedTuple):
    """One wizard page's title and one-line introduction."""

    title: str
    intro: str


class QuestionText(NamedTuple):
    """One question: its short label (flips, open questions, reports), the question, a one-line help
    and the words for each choice."""

    label: str
    text: str
    help: str
    choices: dict[str, str]


class StepText(NamedTuple):
    """One next step: `text` as the window shows it (the button comes from the step's action), and
    `cli` as the CLI and the report print it, with the step's command in place of {command}."""

    text: str
    cli: str | None = None


class Notes(NamedTuple):
    """Sentences the engine adds to a reason."""

    small_serving: str
    inference_duration: str
    correlated: str
    playbook_alone: str
    porting_cost: str
    short_finetune: str


class StepWords(NamedTuple):
    """Words the framework-check steps put in place of {step}."""

    serving_step: str
    training_step: str


class DecisionText:
    """The whole file, checked; ids are checked against the answers model here and against the rules,
    steps and pages by the modules that use them (`require`)."""

    __slots__ = (
        "_source",
        "actions",
        "blockers",
        "conflicts",
        "language",
        "notes",
        "pages",
        "questions",
        "rules",
        "schema_version",
        "small_serving",
        "step_words",
        "steps",
        "variants",
    )
    schema_version: int
    language: str
    pages: dict[str, PageText]
    questions: dict[str, QuestionText]
    rules: dict[str, dict[str, str]]
    small_serving: dict[str, dict[str, str]]
    variants: dict[str, str]
    conflicts: dict[str, str]
    blockers: dict[str, dict[str, str]]
    notes: Notes
    actions: dict[str, str]
    step_words: StepWords
    steps: dict[str, StepText]

    def __init__(self, data: Mapping[str, Any], source: str = "the decision text") -> None:
        """The pack from the file's tables once their shape has been checked (`_shape_ok`)."""
        self.schema_version = data["schema_version"]
        self.language = data["language"]
        self.pages = {pid: PageText(**page) for pid, page in data["pages"].items()}
        self.questions = {field: QuestionText(**q) for field, q in data["questions"].items()}
        self.rules = data["rules"]
        self.small_serving = data["small_serving"]
        self.variants = data["variants"]
        self.conflicts = data["conflicts"]
        self.blockers = data["blockers"]
        self.notes = Notes(**data["notes"])
        self.actions = data["actions"]
        self.step_words = StepWords(**data["step_words"])
        self.steps = {sid: StepText(**step) for sid, step in data["steps"].items()}
        self._source = source

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


# --------------------------------------------------------------------------- the shape, in plain Python

_TOP = frozenset(
    {
        "schema_version",
        "language",
        "pages",
        "questions",
        "rules",
        "small_serving",
        "variants",
        "conflicts",
        "blockers",
        "notes",
        "actions",
        "step_words",
        "steps",
    }
)


def _is_text(value: object) -> bool:
    """One line of text for people: not blank, no line breaks, bounded (content_schema.Text)."""
    if type(value) is not str or not 1 <= len(value) <= MAX_TEXT_CHARS:
        return False
    try:
        one_line(value)
    except ValueError:
        return False
    return True


def _is_table(value: object) -> TypeGuard[dict[str, Any]]:
    return type(value) is dict and all(type(key) is str for key in value)


def _texts_table(value: object, depth: int = 1) -> bool:
    """A table of texts (depth 1) or a table of such tables (depth 2)."""
    if not _is_table(value):
        return False
    if depth == 1:
        return all(_is_text(v) for v in value.values())
    return all(_texts_table(v, depth - 1) for v in value.values())


def _record(value: object, fields: tuple[str, ...], optional: frozenset[str] = frozenset()) -> bool:
    """A table with exactly `fields` (those in `optional` may be left out), each a text."""
    if not _is_table(value):
        return False
    keys = set(value)
    return keys <= set(fields) and set(fields) - optional <= keys and all(_is_text(v) for v in value.values())


def _shape_ok(data: object) -> TypeGuard[dict[str, Any]]:
    """True when the pydantic schema (content_schema.DecisionTextModel) would take `data` as it is: the
    same fields and types, no coercion. False sends the file to that schema for its verdict."""
    if not _is_table(data) or set(data) != _TOP:
        return False
    version = data["schema_version"]
    if type(version) is not int or version != SCHEMA_VERSION:
        return False
    if type(data["language"]) is not str or not _LANGUAGE.fullmatch(data["language"]):
        return False
    questions = data["questions"]
    pages, steps = data["pages"], data["steps"]
    return (
        _is_table(pages)
        and all(_record(p, PageText._fields) for p in pages.values())
        and _is_table(questions)
        and all(
            _is_table(q)
            and set(q) == set(QuestionText._fields)
            and all(_is_text(q[part]) for part in ("label", "text", "help"))
            and _texts_table(q["choices"])
            for q in questions.values()
        )
        and all(_texts_table(data[section], 2) for section in ("rules", "small_serving", "blockers"))
        and all(_texts_table(data[section]) for section in ("variants", "conflicts", "actions"))
        and _record(data["notes"], Notes._fields)
        and _record(data["step_words"], StepWords._fields)
        and _is_table(steps)
        and all(_record(s, StepText._fields, frozenset({"cli"})) for s in steps.values())
    )


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
    for key, text in pack.notes._asdict().items():
        yield f"notes.{key}", text
    for key, text in pack.actions.items():
        yield f"actions.{key}", text
    for key, text in pack.step_words._asdict().items():
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


def problems(pack: DecisionText) -> list[tuple[str, str]]:
    """Placeholders this file may not use, and questions or choices that are not the answers model's."""
    found: list[tuple[str, str]] = []
    for path, text in _texts(pack):
        try:
            unknown = placeholders(text) - PLACEHOLDERS
        except ValueError as exc:
            found.append((path, str(exc)))
            continue
        if unknown:
            found.append((path, f"{{{sorted(unknown)[0]}}} is not a placeholder this file may use"))
    for field in FACTORS:
        if field not in pack.questions:
            found.append((f"questions.{field}", "missing (every question needs its text)"))
            continue
        got = pack.questions[field].choices
        for value in CHOICES[field]:
            if value not in got:
                found.append((f"questions.{field}.choices.{value}", "missing (every choice needs its words)"))
        for value in got:
            if value not in CHOICES[field]:
                found.append((f"questions.{field}.choices.{value}", f"not one of {', '.join(CHOICES[field])}"))
    for field in pack.questions:
        if field not in FACTORS:
            found.append((f"questions.{field}", f"unknown question (known: {', '.join(FACTORS)})"))
    return found


def lean_pack(data: object, source: str = "the decision text") -> DecisionText | None:
    """The pack when `data` passes every check of the file format as it stands; None otherwise."""
    if not _shape_ok(data):
        return None
    pack = DecisionText(data, source)
    return None if problems(pack) else pack
