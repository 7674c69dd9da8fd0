"""`gpu-tpu-app check-model FILE`: measure a model file's framework-check answers in a worker process."""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import TYPE_CHECKING

from gpu_tpu_app import i18n
from gpu_tpu_app.commands.check_flags import add_check_flags
from gpu_tpu_app.core.check_limits import DEFAULT_TPU_CHIPS, MAX_CHIPS
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.errors import CheckFailed, InputError

if TYPE_CHECKING:
    from gpu_tpu_app.core.modelcheck import ModelCheck

# The model check itself (core.modelcheck, the worker launcher, the catalogue) is imported by
# measure() and run(), not here; the flags `decide` shares are in check_flags.py, so that `decide`
# builds its parser without this module and pays for the model check only when given --model.


def configure(p: argparse.ArgumentParser) -> None:
    """Add the check-model flags to the subcommand's parser."""
    p.add_argument(
        "file",
        metavar="FILE",
        help=text("cli.check_model.file"),
    )
    p.add_argument("--format", choices=("text", "json"), default="text", help=text("cli.format_text_json"))
    add_check_flags(p)


def measure(
    file: str,
    timeout: float,
    memory_limit: int,
    quiet: bool = False,
    tpu_chips: int = DEFAULT_TPU_CHIPS,
    python: str | None = None,
    language: str | None = None,
) -> ModelCheck:
    """Run the check; a bad file, exception, timeout or memory problem raises InputError (one line, exit 2). The
    evidence and the error line are in `language` (None: the interface language; JSON output asks for English)."""
    if tpu_chips != 0 and (not 1 <= tpu_chips <= MAX_CHIPS or tpu_chips & (tpu_chips - 1)):
        raise InputError(text("cli.check_model.bad_tpu_chips", language=language, n=tpu_chips, most=MAX_CHIPS))
    if not math.isfinite(timeout) or timeout <= 0:
        raise InputError(text("cli.check_model.bad_timeout", language=language, seconds=f"{timeout:g}"))
    if memory_limit < 512:
        raise InputError(text("cli.check_model.small_memory_limit", language=language, mib=memory_limit))
    progress = None
    if not quiet and sys.stderr.isatty():
        from gpu_tpu_app.core.modelcheck.phases import progress as step_line

        def progress(msg):
            print(f"  {step_line(msg.stage, msg.function, language)}", file=sys.stderr)

    from gpu_tpu_app.probe.modelcheck_launch import run_check

    return measure_result(
        run_check(file, timeout, memory_limit, on_stage=progress, tpu_chips=tpu_chips, python=python, language=language)
    )


def measure_result(result: ModelCheck | str) -> ModelCheck:
    """The check, or its one-line error raised: CheckFailed (exit 1) when the check itself failed, InputError
    (exit 2) for a bad file."""
    if isinstance(result, str):
        from gpu_tpu_app.core.modelcheck import own_failure

        raise CheckFailed(result) if own_failure(result) else InputError(result)
    return result


def _with_install_hint(
    exc: InputError | CheckFailed, python: str | None, language: str | None
) -> InputError | CheckFailed:
    """`exc` followed by the line naming the extra to install, when the model's framework is missing from the app's
    own Python (no --python) because the base install leaves it out (gpu_tpu_app.extras)."""
    from gpu_tpu_app.extras import install_hint, missing_in_error

    module = None if python else missing_in_error(str(exc))
    return type(exc)(f"{exc}; {install_hint(module, language)}") if module else exc


def run(args: argparse.Namespace) -> int:
    """Check the file and print the result; exit 0 when the check ran, whatever it found. With --format json a
    bad file is a JSON object {"error": ..., "file": ...} on stdout as well as the line on stderr (exit 2)."""
    from gpu_tpu_app.core.modelcheck import render_text

    # JSON is for tools: its evidence and its error line are English in every language
    language = i18n.DEFAULT_LANGUAGE if args.format == "json" else None
    try:
        check = measure(
            args.file, args.timeout, args.memory_limit, tpu_chips=args.tpu_chips, python=args.python, language=language
        )
    except (InputError, CheckFailed) as exc:
        exc = _with_install_hint(exc, args.python, language)
        if args.format == "json":
            from gpu_tpu_app.probe.modelcheck_launch import shown_path

            print(json.dumps({"error": str(exc), "file": shown_path(args.file)}, indent=2, allow_nan=False))
        raise exc from None
    if args.format == "json":
        print(json.dumps(check.model_dump(mode="json"), indent=2, allow_nan=False))
    else:
        print(render_text(check))
    return 0
