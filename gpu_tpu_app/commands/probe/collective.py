"""`gpu-tpu-probe collective`: all-reduce, all-gather and reduce-scatter across N local ranks (rank 0's run)."""

from __future__ import annotations

import argparse
import signal
import sys
from typing import Any

from gpu_tpu_app.commands.probe.common import check_outputs, check_positive, check_python, paragraphs, save_outputs, say
from gpu_tpu_app.core import note_text
from gpu_tpu_app.core.note_text import result_message
from gpu_tpu_app.core.runs import ProbeResult, RunFile
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.core.texts import text as _text  # parse_bytes's argument is named text
from gpu_tpu_app.core.wording import MISSING, format_pct, format_value
from gpu_tpu_app.errors import InputError
from gpu_tpu_app.i18n import current_language
from gpu_tpu_app.probe.cli_output import ProgressPrinter, table, trust_cell
from gpu_tpu_app.probe.protocol import is_dropped_note
from gpu_tpu_app.probe.runner import CancelEvent, stop_on_signals
from gpu_tpu_app.shared.cliutil import EXIT_CANCELLED, EXIT_USAGE, OneLineParser, error_line, positive_number
from gpu_tpu_app.shared.terms import BACKENDS, DTYPES, size_words
from gpu_tpu_app.shared.trust import run_flags


def configure(sub: argparse._SubParsersAction[OneLineParser]) -> None:
    """Add the `collective` subcommand: N local ranks, engines, sizes, dtypes and time limits."""
    col = sub.add_parser(
        "collective",
        help=text("probe.help.collective"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=paragraphs(text("cli.probe_commands.collective")),
    )
    col.add_argument("--processes", type=int, required=True, metavar="N", help=text("probe.options.processes"))
    col.add_argument("--backend", choices=(*BACKENDS, "all"), default="all")
    col.add_argument("--out", metavar="FILE.json", help=text("probe.options.out"))
    col.add_argument("--csv", metavar="FILE", help=text("probe.options.csv"))
    col.add_argument(
        "--timeout-s",
        type=positive_number,
        default=60.0,
        metavar="SECONDS",
        help=text("probe.options.timeout_collective"),
    )
    col.add_argument(
        "--budget-s",
        type=positive_number,
        default=60.0,
        metavar="SECONDS",
        help=text("probe.options.budget_collective"),
    )
    col.add_argument(
        "--max-bytes",
        metavar="SIZE",
        help=text("probe.options.max_bytes"),
    )
    col.add_argument(
        "--dtype",
        action="extend",
        nargs="+",
        metavar="D",
        choices=DTYPES,
        help=text("probe.options.dtypes_collective"),
    )
    col.add_argument(
        "--accelerator",
        action="store_true",
        help=text("probe.options.accelerator"),
    )
    col.add_argument("--python", metavar="PATH", help=text("probe.options.python_ranks"))
    col.add_argument("--format", choices=("table", "json"), default="table")


def parse_bytes(text: str) -> int:
    """'64M' -> 67108864 (K, M, G are powers of 1024); InputError naming --max-bytes otherwise."""
    scale = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3}
    raw = text.strip().upper().removesuffix("IB").removesuffix("B")
    unit = raw[-1:] if raw[-1:] in scale else ""
    number = raw[: len(raw) - len(unit)]
    try:
        value = int(float(number) * scale[unit])
    except (ValueError, OverflowError):  # not a number, NaN, Infinity
        raise InputError(_text("cli.probe_commands.errors.not_a_size", value=repr(text))) from None
    if not 4096 <= value <= 64 * 1024**3:
        raise InputError(_text("cli.probe_commands.errors.size_range", value=repr(text)))
    return value


def _words(ident: str, **values: Any) -> str:
    """A word of the collective table (resources/text/cli.* [probe_commands.collective_table])."""
    return _text(f"cli.probe_commands.collective_table.{ident}", **values)


def _end(ident: str, **values: Any) -> str:
    """A line after the table (resources/text/cli.* [probe_commands.end])."""
    return _text(f"cli.probe_commands.end.{ident}", **values)


def _stall_parts(r: ProbeResult) -> list[str]:
    """The worker's notes on stalled operations of a point, in the language in use: by their ids where the
    run file has them, else the parts of its English message that say so (files from before notes had ids)."""
    if note_text.notes_hold(r.message, r.notes):
        stalled = [n for n in r.notes if n.id.startswith("worker.collective.stalled")]
        return [note_text.render(n, current_language()) or "" for n in stalled]
    return [part for part in (r.message or "").split("; ") if " operations stalled (" in part]


def collective_table(run: RunFile) -> str:
    """One row per collective point: engine, op, dtype, size, time per op, algorithm and bus bandwidth, the CV
    of its repetitions and the trust rule's verdict (a flagged point is listed, marked, never a best value)."""
    rows = []
    notes: list[str] = []
    not_run: list[str] = []
    stalled: list[str] = []  # the worker's note on operations far slower than the fastest (collective_report)
    for r, flags in zip(run.results, run_flags(run)):
        if r.kernel != "collective":
            continue
        c = r.collective
        size = size_words(r.kernel, r.size) or "-"
        if c is None:
            rows.append([r.backend, r.variant or "-", r.dtype or "-", size, "-", "-", r.status, "-", "-", "-", "-", ""])
            if r.message:
                not_run.append(f"  {r.backend} {r.variant or ''} {size}: {result_message(r)}")
            continue
        cv = MISSING if r.stats is None else format_pct(100 * r.stats.cv) if r.stats.reps > 1 else MISSING
        rows.append(
            [
                r.backend,
                c.op,
                r.dtype or "-",
                size,
                format_value(c.time_s, "seconds"),
                format_value(c.algbw, "bytes_per_s"),
                format_value(c.busbw, "bytes_per_s"),
                cv,
                str(c.ranks),
                str(c.hosts),
                c.transport,
                trust_cell(flags) or _words("ok"),
            ]
        )
        if flags.flagged:
            notes.append("  " + _words("not_trusted", point=f"{r.backend} {c.op} {size}", why=flags.shown_note()))
        stalls = _stall_parts(r)
        stalled += [f"  {r.backend} {c.op} {size}: {part}" for part in stalls]
    headers = [
        _words("engine"),
        _words("op"),
        _text("probe.headers.dtype"),
        _text("probe.headers.size"),
        _words("time"),
        _words("algbw"),
        _words("busbw"),
        _words("cv"),
        _words("ranks"),
        _words("hosts"),
        _words("transport"),
        _text("probe.headers.trust"),
    ]
    if not rows:
        return _words("no_results")
    text = table(headers, rows, right={3, 4, 5, 6, 7, 8, 9})
    if notes:
        text += "\n" + "\n".join([_words("not_trusted_heading"), *notes])
    if stalled:
        text += "\n" + "\n".join([_words("stalled_heading"), *stalled])
    if not_run:
        text += "\n" + "\n".join([_words("not_measured_heading"), *not_run])
    return text


def run(args: argparse.Namespace) -> int:
    """Start the ranks, print rank 0's run and the hosts, save --out / --csv."""
    from gpu_tpu_app.probe.group import GroupRequest, run_group

    check_outputs(args)
    check_positive(args.budget_s, "--budget-s")
    try:
        request = GroupRequest(
            processes=args.processes,
            backends=BACKENDS if args.backend == "all" else (args.backend,),
            timeout_s=args.timeout_s,
            budget_s=args.budget_s,
            dtypes=args.dtype,
            max_bytes=parse_bytes(args.max_bytes) if args.max_bytes else None,
            python=check_python(args.python),
            accelerator=args.accelerator,
        )
    except ValueError as exc:
        raise InputError(str(exc)) from None
    cancel = CancelEvent()
    with stop_on_signals(cancel, escalate=False):
        printer = ProgressPrinter(
            sys.stderr, backends=request.backends, budget_s=request.budget_s * len(request.backends)
        )
        probe_run = run_group(request, on_message=printer, cancel_event=cancel)
        if args.format == "json":
            say(probe_run.model_dump_json(indent=2), sys.stdout)
        else:
            lines = [collective_table(probe_run)]
            for host in probe_run.hosts:
                versions = " ".join(f"{k} {v}" for k, v in host.versions.items())
                lines.append(
                    _end(
                        "host",
                        host=host.host,
                        ranks=", ".join(map(str, host.ranks)),
                        cpu=host.cpu or "?",
                        os=host.os or "?",
                        python=host.python or "?",
                        versions=versions,
                    ).rstrip()
                )
            say("\n".join(lines), sys.stdout)
        errors, written = save_outputs(probe_run, args)
    for line in [*probe_run.errors, *errors]:
        say(_end("note", line=line) if is_dropped_note(line) else error_line(line))
    if cancel.is_set():
        if "--out" in written:
            say(_end("stopped", how=_end("cancelled"), saved=_end("partial_saved", path=written["--out"])))
        else:
            say(_end("cancelled"))
        return 128 + int(cancel.signum) if cancel.signum not in (None, signal.SIGINT) else EXIT_CANCELLED
    if "--out" in written and not errors:
        say(_end("saved", path=written["--out"]))
    if errors:
        return EXIT_USAGE
    ok = any(r.status == "ok" for r in probe_run.results)
    failed = [e for e in probe_run.errors if not is_dropped_note(e)]
    return 0 if probe_run.complete and ok and not failed else 1
