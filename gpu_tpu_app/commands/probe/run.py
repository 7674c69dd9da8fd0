"""`gpu-tpu-probe run`: run the probe kernels on every backend in turn, print one table, save the run."""

from __future__ import annotations

import argparse
import signal
import sys
from typing import Any

from gpu_tpu_app.commands.probe.common import (
    check_outputs,
    check_positive,
    check_python,
    paragraphs,
    save_outputs,
    say,
)
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.probe.cli_output import ProgressPrinter, RowStream
from gpu_tpu_app.probe.protocol import SUITE_BUDGET_S, ProbeRequest
from gpu_tpu_app.probe.runner import CancelEvent, run_probe, stop_on_signals
from gpu_tpu_app.shared.cliutil import EXIT_CANCELLED, EXIT_USAGE, OneLineParser, error_line, positive_number
from gpu_tpu_app.shared.terms import BACKENDS, DTYPES, KERNELS, SUITES, allowed_kernels
from gpu_tpu_app.worker.collective import this_rank as collective_rank


def _end(ident: str, **values: Any) -> str:
    """A line after the table (resources/text/cli.* [probe_commands.end]) in the language in use."""
    return text(f"cli.probe_commands.end.{ident}", **values)


def _same_terminal() -> bool:
    """True when stdout and stderr are one terminal: the streamed rows then list each result, stderr need not."""
    try:
        return sys.stdout.isatty() and sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def configure(sub: argparse._SubParsersAction[OneLineParser]) -> None:
    """Add the `run` subcommand: suite, backends, kernels, dtypes, budget and where the results go."""
    raw = argparse.RawDescriptionHelpFormatter
    p = sub.add_parser(
        "run",
        help=text("probe.help.run"),
        formatter_class=raw,
        description=paragraphs(text("cli.probe_commands.run"), text("cli.probe_commands.run_trust")),
        epilog=text("cli.examples")
        + "\n  gpu-tpu-probe run --suite smoke\n  gpu-tpu-probe run --suite quick --out run.json "
        "--csv run.csv\n  gpu-tpu-probe run --backend torch --kernel matmul --dtype bfloat16 --wide\n"
        "  gpu-tpu-probe run --suite full --budget-s 900 --format json > run.json",
    )
    p.add_argument(
        "--suite",
        choices=SUITES,
        default="quick",
        help=text("probe.options.suite"),
    )
    p.add_argument("--backend", choices=(*BACKENDS, "all"), default="all")
    p.add_argument(
        "--kernel",
        action="extend",
        nargs="+",
        metavar="K",
        choices=allowed_kernels(),
        help=text("probe.options.kernels", kernels=", ".join(KERNELS)),
    )
    p.add_argument(
        "--dtype",
        action="extend",
        nargs="+",
        metavar="D",
        choices=DTYPES,
        help=text("probe.options.dtypes", dtypes=", ".join(DTYPES)),
    )
    p.add_argument(
        "--budget-s",
        type=positive_number,
        metavar="SECONDS",
        help=text("probe.options.budget", budgets=", ".join(f"{k} {v:.0f}" for k, v in SUITE_BUDGET_S.items())),
    )
    p.add_argument("--out", metavar="FILE.json", help=text("probe.options.out"))
    p.add_argument("--csv", metavar="FILE", help=text("probe.options.csv"))
    p.add_argument("--format", choices=("table", "json"), default="table", help=text("probe.options.format"))
    p.add_argument(
        "--wide",
        action="store_true",
        help=text("probe.options.wide"),
    )
    p.add_argument(
        "--python",
        metavar="PATH",
        help=text("probe.options.python_run"),
    )


def run(args: argparse.Namespace) -> int:
    """Run the probe, print the table (table first, files after), save --out / --csv; the exit code says how it ended."""
    check_outputs(args)
    check_positive(args.budget_s, "--budget-s")
    python = check_python(args.python)
    request = ProbeRequest(
        python=python,
        suite=args.suite,
        backends=BACKENDS if args.backend == "all" else (args.backend,),
        kernels=args.kernel,
        dtypes=args.dtype,
        budget_s=args.budget_s,
    )
    if python is None:  # the app's own Python: a framework the base install left out is named with its extra
        from gpu_tpu_app.extras import install_hint, missing_here

        for module in missing_here(request.backends):
            say(install_hint(module))
    cancel = CancelEvent()
    grouped = list(args.kernel or []) == ["collective"]
    rank = collective_rank() if grouped else None
    # Ctrl-C, SIGTERM and SIGHUP stop the measuring and keep what was measured; one that comes while
    # printing or saving waits for the save, then sets the exit code (128 + its number).
    with stop_on_signals(cancel, escalate=False):
        # table output: each point's row on stdout as it is measured (flushed); JSON stays one document
        rows = RowStream(sys.stdout, suite=args.suite, wide=args.wide) if args.format == "table" and not rank else None
        printer = ProgressPrinter(
            sys.stderr,
            backends=request.backends,
            budget_s=request.total_budget_s,
            on_result=rows,
            echo_results=rows is None or not _same_terminal(),
        )

        def on_message(msg: Any) -> None:
            if rows is not None:
                rows.see(msg)
            printer(msg)

        probe_run = run_probe(request, on_message=on_message, cancel_event=cancel)
        if rank:  # one rank of a group under torchrun / jax.distributed: rank 0 writes and prints
            if probe_run.errors or not probe_run.complete:
                return 1  # the problem was printed as it came
            say(_end("rank_done", rank=rank))
            return 0
        # the table first: whatever happens to the files below, the measurements have been shown
        if rows is None:
            say(probe_run.model_dump_json(indent=2), sys.stdout)
        elif rest := rows.finish(probe_run):
            say(rest, sys.stdout)
        errors, written = save_outputs(probe_run, args)
    for line in errors:
        say(error_line(line))
    failed = sum(r.status in ("error", "timeout") for r in probe_run.results)
    if failed:
        say(_end("failed_one") if failed == 1 else _end("failed_other", n=failed))
    if cancel.is_set() and not probe_run.complete:
        how = _end("cancelled")
        if cancel.signum not in (None, signal.SIGINT):
            how = _end("cancelled_by", signal=signal.Signals(cancel.signum).name)
        n = len(probe_run.results)
        if "--out" in written:
            saved = _end("partial_run", n=n, path=written["--out"])
        elif "--csv" in written:
            saved = _end("partial_csv", n=n, path=written["--csv"])
        else:
            saved = _end("nothing_saved" if args.out or args.csv else "nothing_saved_no_out")
        say(_end("stopped", how=how, saved=saved))
    elif args.out and not errors:
        say(_end("saved", path=args.out))
    if cancel.signum is not None:
        return 128 + int(cancel.signum)
    if cancel.is_set():
        return EXIT_CANCELLED
    if errors:
        return EXIT_USAGE
    if grouped and rank is not None and probe_run.errors:
        return 1  # rank 0 of a group that failed
    return 0 if probe_run.complete else 1
