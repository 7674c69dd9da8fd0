"""Small helpers shared by every command line: one-line errors, exit codes."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from gpu_tpu_app.errors import one_line

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line ('prog: error: ...') and exit 2, no usage dump."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {one_line(message)} (see --help)\n")


def fail(message: str, code: int = EXIT_USAGE) -> int:
    """Print a one-line error to stderr and return the exit code to use."""
    print(f"error: {one_line(message)}", file=sys.stderr)
    return code
