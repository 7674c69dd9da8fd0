"""User-facing input errors: one line that names the file and the field."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError


class InputError(Exception):
    """Bad input from a user's file or flag; str(err) is the one-line message shown to them."""


def _loc(loc: tuple) -> str:
    return ".".join(str(part) for part in loc) or "(top level)"


def from_validation(source: str | Path, exc: ValidationError) -> InputError:
    """Turn a pydantic ValidationError into one InputError line: '<file>: <field>: <problem>'."""
    errors = exc.errors(include_url=False)
    first = errors[0] if errors else {"loc": (), "msg": str(exc)}
    msg = str(first.get("msg", "invalid value"))
    if first.get("type") == "extra_forbidden":
        msg = "unknown field"
    ctx = first.get("ctx") or {}
    expected = ctx.get("expected")
    if expected and str(expected) not in msg:
        msg = f"{msg} (allowed: {expected})"
    more = f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})" if len(errors) > 1 else ""
    return InputError(f"{source}: {_loc(tuple(first.get('loc', ())))}: {msg}{more}")
