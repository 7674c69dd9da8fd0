"""`gpu-tpu-probe compare`: several run files side by side, one column per run and device."""

from __future__ import annotations

import argparse
import json

from gpu_tpu_app.commands.probe.common import paragraphs
from gpu_tpu_app.core.runs import load_run
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.probe.cli_output import compare_runs, compare_text
from gpu_tpu_app.shared.cliutil import OneLineParser


def configure(sub: argparse._SubParsersAction[OneLineParser]) -> None:
    """Add the `compare` subcommand."""
    raw = argparse.RawDescriptionHelpFormatter
    cmp_ = sub.add_parser(
        "compare",
        help=text("probe.help.compare"),
        formatter_class=raw,
        description=paragraphs(text("cli.probe_commands.compare")),
        epilog=text("cli.examples") + "\n  gpu-tpu-probe compare laptop.json tpu-vm.json\n"
        "  gpu-tpu-probe compare before.json after.json --format json",
    )
    cmp_.add_argument("runs", nargs="+", metavar="RUN.json")
    cmp_.add_argument("--format", choices=("table", "json"), default="table")


def run(args: argparse.Namespace) -> int:
    """Print the run files side by side (a table or JSON)."""
    runs = [(name, load_run(name)) for name in args.runs]
    headers, _rows, data = compare_runs(runs)
    if args.format == "json":
        print(
            json.dumps(
                {
                    "runs": [
                        {"file": n, "host": r.host, "started": r.started.isoformat(), "suite": r.suite} for n, r in runs
                    ],
                    "columns": headers[4:],
                    "rows": data,
                },
                indent=2,
                allow_nan=False,
            )
        )
        return 0
    print(compare_text(runs))
    return 0
