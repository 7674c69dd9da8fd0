"""The model check's flags (--timeout, --memory-limit, --tpu-chips, --python), shared by `check-model` and
`decide --model`; nothing of the model check itself, so that `decide` offers them without importing it."""

from __future__ import annotations

import argparse

from gpu_tpu_app.core.check_limits import DEFAULT_MEMORY_LIMIT_MB, DEFAULT_TIMEOUT_S, DEFAULT_TPU_CHIPS, MAX_CHIPS
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.shared.cliutil import positive_number


def add_check_flags(p: argparse.ArgumentParser) -> None:
    """--timeout and --memory-limit, shared by check-model and decide --model."""
    p.add_argument(
        "--timeout",
        type=positive_number,
        default=DEFAULT_TIMEOUT_S,
        metavar="S",
        help=text("cli.check_model.timeout", seconds=f"{DEFAULT_TIMEOUT_S:g}"),
    )
    p.add_argument(
        "--memory-limit",
        type=int,
        default=DEFAULT_MEMORY_LIMIT_MB,
        metavar="MIB",
        help=text("cli.check_model.memory_limit", mib=DEFAULT_MEMORY_LIMIT_MB),
    )
    p.add_argument(
        "--tpu-chips",
        type=int,
        default=DEFAULT_TPU_CHIPS,
        metavar="N",
        help=text("cli.check_model.tpu_chips", most=MAX_CHIPS, default=DEFAULT_TPU_CHIPS),
    )
    p.add_argument(
        "--python",
        metavar="PATH",
        help=text("cli.check_model.python"),
    )
