"""User-facing input errors: one line that names the file and the field."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gpu_tpu_app.cliutil import one_line

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
    return ".".join(shown(part) for part in loc) or "(top level)"


def from_validation(source: str | Path, exc: ValidationError) -> InputError:
    """Turn a pydantic ValidationError into one InputError line: '<file>: <field>: <problem>'."""
    errors = exc.errors(include_url=False)
    first: dict[str, Any] = dict(errors[0]) if errors else {"loc": (), "msg": str(exc)}
    msg = shown(first.get("msg", "invalid value"), 300)
    if first.get("type") == "extra_forbidden":
        msg = "unknown field"
    ctx = first.get("ctx") or {}
    expected = ctx.get("expected")
    if expected and str(expected) not in msg:
        msg = f"{msg} (allowed: {expected})"
    more = f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})" if len(errors) > 1 else ""
    return InputError(f"{source}: {_loc(tuple(first.get('loc', ())))}: {msg}{more}")


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


def json_object(text: str, source: str | Path, expected: str = "a JSON object") -> dict[str, Any]:
    """Parse JSON text that must be one object; InputError '<source>: line L column C: ...' otherwise."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{source}: line {exc.lineno} column {exc.colno}: not valid JSON ({exc.msg})") from None
    except RecursionError:
        raise InputError(f"{source}: not valid JSON (nested too deeply)") from None
    except ValueError as exc:  # absurdly long numbers
        detail = shown(str(exc).splitlines()[0], 200) if str(exc) else "invalid"
        raise InputError(f"{source}: not valid JSON ({detail})") from None
    if not isinstance(raw, dict):
        kind = {list: "a list", str: "a string", bool: "true or false", type(None): "null"}.get(type(raw), "a number")
        raise InputError(f"{source}: (top level): expected {expected}, got {kind}")
    return raw


def check_schema_version(version: object, source: str | Path, supported: int) -> None:
    """InputError unless `version` is the file format version this app reads."""
    if version != supported or isinstance(version, bool):
        raise InputError(
            f"{source}: schema_version: {shown(json.dumps(version))} is not supported (this app reads {supported})"
        )
