"""The model check's flags (--timeout, --memory-limit, --tpu-chips, --python), shared by `check-model` and
`decide --model`; standard library only, so that `decide` offers them without importing the model check."""

from __future__ import annotations

import argparse

from gpu_tpu_app.cliutil import positive_number
from gpu_tpu_app.core.check_limits import DEFAULT_MEMORY_LIMIT_MB, DEFAULT_TIMEOUT_S, DEFAULT_TPU_CHIPS, MAX_CHIPS


def add_check_flags(p: argparse.ArgumentParser) -> None:
    """--timeout and --memory-limit, shared by check-model and decide --model."""
    p.add_argument(
        "--timeout",
        type=positive_number,
        default=DEFAULT_TIMEOUT_S,
        metavar="S",
        help=f"stop the check after S seconds (default {DEFAULT_TIMEOUT_S:g})",
    )
    p.add_argument(
        "--memory-limit",
        type=int,
        default=DEFAULT_MEMORY_LIMIT_MB,
        metavar="MIB",
        help=f"address-space limit of the worker process in MiB (default {DEFAULT_MEMORY_LIMIT_MB})",
    )
    p.add_argument(
        "--tpu-chips",
        type=int,
        default=DEFAULT_TPU_CHIPS,
        metavar="N",
        help="compile for a slice of N chips of each TPU generation (a power of two up to "
        f"{MAX_CHIPS}; default {DEFAULT_TPU_CHIPS}; 0 skips the TPU compile); needs libtpu in the checking "
        "interpreter",
    )
    p.add_argument(
        "--python",
        metavar="PATH",
        help="check the model in this Python interpreter (your venv or conda env, with your packages) "
        "instead of the app's own; it needs only the model's framework",
    )
