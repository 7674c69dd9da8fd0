"""User-facing input errors: one line that names the file and the field.

The file and the field stay as they are; the problem is in the language in use
(resources/text/errors.<lang>.toml). pydantic's own messages are looked up by pydantic's error type,
with the values of its context (`PYDANTIC_TEXTS`); a type not mapped keeps pydantic's English.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gpu_tpu_app.core.texts import text as _text
from gpu_tpu_app.shared.cliutil import one_line

if TYPE_CHECKING:  # pydantic is imported where a model is validated, not by every command that can fail
    from pydantic import ValidationError

#: pydantic error type that a model validator raises for a cross-reference problem; its
#: context holds the field `path`, the `problem` and how many problems were found (`count`).
PROBLEM = "file_problem"


#: the longest field name or key quoted from a file in a message.
SHOWN_CHARS = 80


def shown(text: object, limit: int = SHOWN_CHARS) -> str:
    """A name or value quoted from a file, on one line and cut to `limit` characters."""
    out = one_line(str(text))
    return out if len(out) <= limit else out[: limit - 1] + "…"


class CheckFailed(Exception):
    """The app's own failure while checking (a bug in it, not in the user's input): exit status 1, not 2."""

    def __init__(self, message: str) -> None:
        super().__init__(one_line(str(message)))


class InputError(Exception):
    """Bad input from a user's file or flag; str(err) is the one-line message shown to them."""

    def __init__(self, message: str) -> None:
        super().__init__(one_line(str(message)))


def _loc(loc: tuple) -> str:
    return ".".join(shown(part) for part in loc) or _text("errors.top_level")


#: pydantic error types with a text of their own (errors.pydantic.<type>); -> the context value whose count
#: picks the _one or _other text, or None.
PYDANTIC_TEXTS: dict[str, str | None] = {
    **dict.fromkeys(
        (
            "missing",
            "string_type",
            "int_type",
            "int_parsing",
            "int_from_float",
            "float_type",
            "float_parsing",
            "finite_number",
            "bool_type",
            "bool_parsing",
            "list_type",
            "dict_type",
            "tuple_type",
            "set_type",
            "model_type",
            "model_attributes_type",
            "none_required",
            "literal_error",
            "enum",
            "greater_than",
            "greater_than_equal",
            "less_than",
            "less_than_equal",
            "multiple_of",
            "string_pattern_mismatch",
        )
    ),
    "string_too_short": "min_length",
    "string_too_long": "max_length",
    "too_short": "min_length",
    "too_long": "max_length",
}
#: the allowed values pydantic lists in a literal or enum error: reprs of the schema's own values
#: ("'gpu' or 'tpu'", "'a', 'b' or 'c'"), rejoined in the language in use.
_CHOICE = r"'[^',]*'|-?\d+(?:\.\d+)?"
_CHOICES = re.compile(rf"((?:{_CHOICE})(?:, (?:{_CHOICE}))*) or ({_CHOICE})")


def _context_value(value: object) -> str:
    """A context value as pydantic's message writes it: a whole float without its '.0'."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return shown(value, 200)


def _choices(expected: str) -> str:
    """pydantic's list of allowed values in the language in use (as it is when it is not such a list)."""
    m = _CHOICES.fullmatch(expected)
    if m is None:
        return expected
    first = m.group(1).split(", ")
    return _text("errors.choices", items=_text("errors.list_sep").join(first), last=m.group(2))


def problem_text(error: dict[str, Any]) -> str:
    """The problem of one pydantic error in the language in use: its text when its type has one, else
    pydantic's own message."""
    kind = str(error.get("type", ""))
    ctx = dict(error.get("ctx") or {})
    if kind == "extra_forbidden":
        return _text("errors.unknown_field")
    if kind == "schema_version" and {"got", "want"} <= set(ctx):
        return _text("errors.unsupported_schema_version", got=_context_value(ctx["got"]), want=ctx["want"])
    if kind in PYDANTIC_TEXTS:
        values = {k: _context_value(v) for k, v in ctx.items()}
        if "expected" in values:
            values["expected"] = _choices(values["expected"])
        if "field_type" in values:
            field_type = f"errors.field_type.{values['field_type'].lower()}"
            values["field_type"] = _text(field_type) if field_type in _FIELD_TYPES else values["field_type"]
        count = PYDANTIC_TEXTS[kind]
        ident = kind if count is None else f"{kind}_{'one' if str(ctx.get(count)) == '1' else 'other'}"
        try:
            return _text(f"errors.pydantic.{ident}", **values)
        except (KeyError, ValueError, IndexError):  # a context pydantic changed: its own message
            pass
    return shown(error.get("msg", "invalid value"), 300)


_FIELD_TYPES = {f"errors.field_type.{k}" for k in ("list", "dictionary", "tuple", "set", "frozenset", "data")}


def from_validation(source: str | Path, exc: ValidationError) -> InputError:
    """Turn a pydantic ValidationError into one InputError line: '<file>: <field>: <problem>'."""
    errors = exc.errors(include_url=False)
    first: dict[str, Any] = dict(errors[0]) if errors else {"loc": (), "msg": str(exc)}
    msg = problem_text(first)
    expected = (first.get("ctx") or {}).get("expected")
    if expected and first.get("type") not in PYDANTIC_TEXTS and str(expected) not in msg:
        msg = _text("errors.allowed", problem=msg, expected=shown(expected, 300))
    if len(errors) > 1:
        msg = _text("errors.more_one" if len(errors) == 2 else "errors.more_other", problem=msg, n=len(errors) - 1)
    return InputError(f"{source}: {_loc(tuple(first.get('loc', ())))}: {msg}")


def problem_error(problems: list[tuple[str, str]]) -> Exception:
    """The error a model validator raises for the first of `problems` ((field path, problem) pairs)."""
    from pydantic_core import PydanticCustomError

    path, problem = problems[0]
    return PydanticCustomError(PROBLEM, "{path}: {problem}", {"path": path, "problem": problem, "count": len(problems)})


def supported_version(supported: int) -> Callable[[int], int]:
    """The check a content file's ``schema_version`` field runs: the version this app reads, or a
    pydantic error 'unsupported schema version <got> (this app reads <want>)' that `from_validation`
    turns into one line naming the file and the field. Use as
    ``schema_version: Annotated[int, AfterValidator(supported_version(SCHEMA_VERSION))]``."""
    from pydantic_core import PydanticCustomError

    def check(version: int) -> int:
        if version != supported:
            raise PydanticCustomError(
                "schema_version",
                "unsupported schema version {got} (this app reads {want})",
                {"got": version, "want": supported},
            )
        return version

    return check


#: Python's JSON reader's messages -> their ids in errors.<lang>.toml [json].
JSON_MESSAGES = {
    "Expecting value": "expecting_value",
    "Expecting ',' delimiter": "expecting_comma",
    "Expecting ':' delimiter": "expecting_colon",
    "Expecting property name enclosed in double quotes": "expecting_name",
    "Extra data": "extra_data",
    "Unterminated string starting at": "unterminated_string",
    "Invalid control character at": "control_character",
    "Invalid \\escape": "bad_escape",
    "Invalid \\uXXXX escape": "bad_unicode_escape",
}


def _json_message(message: str) -> str:
    """The JSON reader's message in the language in use (as it is when it is not one of the known ones)."""
    ident = JSON_MESSAGES.get(message)
    return _text(f"errors.json.{ident}") if ident else message


def json_object(text: str, source: str | Path, expected: str | None = None) -> dict[str, Any]:
    """Parse JSON text that must be one object; InputError '<source>: line L column C: ...' otherwise."""
    expected = _text("errors.what.object") if expected is None else expected
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        where = _text("errors.not_json", line=exc.lineno, column=exc.colno, detail=_json_message(exc.msg))
        raise InputError(f"{source}: {where}") from None
    except RecursionError:
        raise InputError(f"{source}: {_text('errors.too_deep')}") from None
    except ValueError as exc:  # absurdly long numbers
        detail = shown(str(exc).splitlines()[0], 200) if str(exc) else "invalid"
        raise InputError(f"{source}: {_text('errors.not_json_value', detail=detail)}") from None
    if not isinstance(raw, dict):
        kind = {list: "list", str: "string", bool: "bool", type(None): "null"}.get(type(raw), "number")
        got = _text("errors.expected", expected=expected, kind=_text(f"errors.kind.{kind}"))
        raise InputError(f"{source}: {_text('errors.top_level')}: {got}")
    return raw


def check_schema_version(version: object, source: str | Path, supported: int) -> None:
    """InputError unless `version` is the file format version this app reads."""
    if version != supported or isinstance(version, bool):
        problem = _text("errors.version_not_supported", version=shown(json.dumps(version)), supported=supported)
        raise InputError(f"{source}: schema_version: {problem}")
