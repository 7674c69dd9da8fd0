"""Small helpers shared by every command line: one-line errors, exit codes, aligned tables.

Standard library only: the probe worker uses it in interpreters without the app's dependencies.
The error lines speak the interface language once ``gpu_tpu_app.clilang.use_language`` has set
``translate`` (the worker's stay English).
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import unicodedata
from collections.abc import Callable
from typing import NoReturn

#: looks up a text id of resources/text/cli.<lang>.toml in the interface language (set by clilang); until
#: then (and in a worker) the English of those ids, below.
translate: Callable[..., str] | None = None
#: the English of the ids used here, for the worker side (tests/test_clilang.py keeps them equal to cli.en.toml).
ENGLISH = {
    "cli.error": "error: {message}",
    "cli.parser_error": "{prog}: error: {message} (see --help)",
    "cli.not_a_number": "{value} is not a number",
    "cli.not_positive_number": "must be a finite number more than 0, not {value}",
}


def say(ident: str, **values: object) -> str:
    """The text `ident` in the interface language, placeholders filled."""
    if translate is not None:
        return translate(ident, **values)
    return ENGLISH[ident].format(**values)


#: control characters, line and paragraph separators, and the marks that reorder text on screen (bidi
#: embeddings, overrides and isolates), which make a quoted name read differently from what it holds.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def one_line(text: str) -> str:
    """`text` with line breaks and other control characters written as escapes: it stays on one line.

    Standard library only (the probe worker uses it, in interpreters without pydantic); errors.py re-exports it.
    """
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def positive_number(text: str) -> float:
    """An argparse type: a finite number more than 0 (seconds, budgets). NaN, Infinity, 0 and negative
    numbers are refused up front, so no flag can turn a deadline off ('--budget-s nan')."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(say("cli.not_a_number", value=repr(text))) from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(say("cli.not_positive_number", value=repr(text)))
    return value


EXIT_USAGE = 2
#: Stopped by the user (Ctrl+C): 128 + SIGINT, as shells report it.
EXIT_CANCELLED = 130


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line ('prog: error: ...') and exit 2, no usage dump."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, say("cli.parser_error", prog=self.prog, message=one_line(message)) + "\n")


def error_line(message: object) -> str:
    """'error: <message>' in the interface language."""
    return say("cli.error", message=message)


def fail(message: str, code: int = EXIT_USAGE) -> int:
    """Print a one-line error to stderr and return the exit code to use."""
    print(error_line(one_line(message)), file=sys.stderr)
    return code


def display_width(cell: str) -> int:
    """Columns `cell` takes in a terminal: wide (CJK) characters take two, combining marks none."""
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in cell)


def pad(cell: str, width: int, right: bool = False) -> str:
    """`cell` padded with spaces to `width` terminal columns (on the left when `right`)."""
    space = " " * max(0, width - display_width(cell))
    return space + cell if right else cell + space


def align(table: list[list[str]], right: set[int]) -> list[str]:
    """Rows as aligned text columns (`right`: the columns aligned right, below the header), a rule under the
    header; widths in terminal columns, so Chinese headers and cells line up too."""
    widths = [max(display_width(r[i]) for r in table) for i in range(len(table[0]))]
    lines = []
    for n, row in enumerate(table):
        cells = [pad(c, widths[i], right=i in right and n > 0) for i, c in enumerate(row)]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return lines
