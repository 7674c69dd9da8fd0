"""The headless subcommands, one module each: `configure(parser)` adds its options, `run(args)` does it.

`gpu_tpu_app.cli` builds their parsers and imports only the module of the command asked for;
`commands/probe/` holds gpu-tpu-probe's subcommands the same way. `guarded` is the one place
where the errors any command may raise become one line on stderr and an exit code.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from gpu_tpu_app import safe_output
from gpu_tpu_app.errors import CheckFailed, InputError
from gpu_tpu_app.shared.cliutil import EXIT_CANCELLED, EXIT_USAGE, error_line, one_line


def _said(exc: BaseException) -> str:
    """What `exc` says, on one line; its type's name when its text cannot be had (a __str__ that raises)."""
    try:
        return one_line(str(exc))
    except Exception:
        return type(exc).__name__


def guarded(call: Callable[[], int]) -> int:
    """Run one command: bad input is one line and exit 2, the app's own failure one line and exit 1, Ctrl+C
    exit 130, a closed pipe ends quietly. A file name that is not UTF-8 prints as `\\xNN` escapes, never as a
    UnicodeEncodeError (safe_output)."""
    safe_output.use()
    try:
        return call()
    except InputError as exc:
        print(error_line(_said(exc)), file=sys.stderr)
        return EXIT_USAGE
    except CheckFailed as exc:
        print(error_line(_said(exc)), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return EXIT_CANCELLED
    except BrokenPipeError:
        return 0
