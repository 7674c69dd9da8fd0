"""Start a command as a terminal starts it: SIGINT and SIGHUP at their default actions.

A test run started in the background of a script (`cmd &`: SIGINT ignored) or under nohup (SIGHUP ignored)
hands those signals down ignored, and the CLI rightly keeps ignoring them (a test under nohup holds that).
Tests that press Ctrl-C or hang up on the CLI start it through this small launcher, which resets the two
signals and then execs the command (same pid). Not a preexec_fn: that makes subprocess fork the test
process, and a test process that has imported JAX warns on every fork (an error under pytest).
"""

from __future__ import annotations

import sys

_LAUNCH = (
    "import os, signal, sys\n"
    "for s in (signal.SIGINT, signal.SIGHUP):\n"
    "    signal.signal(s, signal.SIG_DFL)\n"
    "os.execv(sys.argv[1], sys.argv[1:])\n"
)


def as_from_a_terminal(argv: list[str]) -> list[str]:
    """`argv` (an absolute program path first) behind the launcher."""
    return [sys.executable, "-c", _LAUNCH, *argv]
