"""Small helpers shared by every command line: one-line errors, exit codes."""

from __future__ import annotations

import argparse
import math
import re
import sys
from typing import NoReturn

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
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a finite number more than 0, not {text!r}")
    return value


EXIT_USAGE = 2
#: Stopped by the user (Ctrl+C): 128 + SIGINT, as shells report it.
EXIT_CANCELLED = 130


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line ('prog: error: ...') and exit 2, no usage dump."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {one_line(message)} (see --help)\n")


def fail(message: str, code: int = EXIT_USAGE) -> int:
    """Print a one-line error to stderr and return the exit code to use."""
    print(f"error: {one_line(message)}", file=sys.stderr)
    return code
