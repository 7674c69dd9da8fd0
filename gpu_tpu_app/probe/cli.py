"""`gpu-tpu-probe` (also `gpu-tpu-app probe`): list devices, run probes, compare run files, headless.

Each backend is measured in its own worker process; this process never imports torch or jax.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import stat
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import IO

from gpu_tpu_app import APP_NAME, __version__
from gpu_tpu_app.atomic import resolve_target, write_text
from gpu_tpu_app.cliutil import EXIT_CANCELLED, EXIT_USAGE, OneLineParser
from gpu_tpu_app.core.runs import CSV_COLUMNS, RunFile, load_run, to_csv
from gpu_tpu_app.core.terms import BACKENDS, DTYPES, KERNELS, SUITES, allowed_kernels
from gpu_tpu_app.core.trust import run_flags
from gpu_tpu_app.core.wording import MISSING, format_pct, format_value
from gpu_tpu_app.errors import InputError
from gpu_tpu_app.probe import envs
from gpu_tpu_app.probe.cli_output import (  # results_table and compare_runs: this module's API too
    ProgressPrinter,
    compare_runs,
    compare_text,
    results_table,
    table,
    trust_cell,
)
from gpu_tpu_app.probe.protocol import SUITE_BUDGET_S, ProbeRequest
from gpu_tpu_app.probe.runner import CancelEvent, list_devices, run_probe, stop_on_signals
from gpu_tpu_app.worker.collective import this_rank as collective_rank

CSV_HEADER = ",".join(CSV_COLUMNS).encode()


def paragraphs(text: str, width: int = 78) -> str:
    """Help text wrapped to `width`, paragraphs (split at blank lines) kept apart: for RawDescriptionHelpFormatter."""
    return "\n\n".join(textwrap.fill(" ".join(p.split()), width) for p in text.split("\n\n"))


def build_parser() -> OneLineParser:
    """The gpu-tpu-probe argument parser; every subcommand's --help has a description and examples."""
    raw = argparse.RawDescriptionHelpFormatter
    parser = OneLineParser(
        prog="gpu-tpu-probe",
        description="Measure this machine's accelerators with torch and JAX, save the run, compare runs.",
        epilog="examples:\n  gpu-tpu-probe devices\n  gpu-tpu-probe run --suite quick --out run.json\n"
        "  gpu-tpu-probe compare laptop.json tpu-vm.json",
        formatter_class=raw,
    )
    parser.add_argument("--version", action="version", version=f"gpu-tpu-probe {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    sub.required = True

    dev = sub.add_parser(
        "devices",
        help="list the devices torch and JAX can measure here",
        formatter_class=raw,
        description=paragraphs(
            "List the devices torch and JAX can measure on this machine, with memory, the "
            "catalogue chip each matches and library versions. Each backend is asked in its own "
            "worker process."
        ),
        epilog="examples:\n  gpu-tpu-probe devices\n  gpu-tpu-probe devices --backend jax --format json",
    )
    dev.add_argument("--format", choices=("table", "json"), default="table")
    dev.add_argument("--backend", choices=(*BACKENDS, "all"), default="all")
    dev.add_argument("--python", metavar="PATH", help="detect in this Python interpreter (a venv or conda env)")

    _add_run_command(sub, raw)

    env = sub.add_parser("envs", help="list the Python environments found here and what each can measure")
    env.add_argument("extra", nargs="*", metavar="PYTHON", help="also look at these interpreters")
    env.add_argument("--format", choices=("table", "json"), default="table")
    env.add_argument("--refresh", action="store_true", help="ask every interpreter again instead of using the cache")
    env.add_argument(
        "--timeout-s",
        type=float,
        default=envs.QUERY_TIMEOUT_S,
        metavar="SECONDS",
        help=f"how long one interpreter may take to answer (default {envs.QUERY_TIMEOUT_S:.0f})",
    )

    _add_collective_command(sub)

    cmp_ = sub.add_parser(
        "compare",
        help="print several run files side by side",
        formatter_class=raw,
        description=paragraphs(
            "Print several run files side by side: one row per kernel, dtype and size, one "
            "column per run and device. A value that is not trusted ends in '*'."
        ),
        epilog="examples:\n  gpu-tpu-probe compare laptop.json tpu-vm.json\n"
        "  gpu-tpu-probe compare before.json after.json --format json",
    )
    cmp_.add_argument("runs", nargs="+", metavar="RUN.json")
    cmp_.add_argument("--format", choices=("table", "json"), default="table")
    return parser


def _add_run_command(sub: argparse._SubParsersAction[OneLineParser], raw: type[argparse.HelpFormatter]) -> None:
    """The `run` subcommand: suite, backends, kernels, dtypes, budget and where the results go."""
    run = sub.add_parser(
        "run",
        help="run the probe kernels and print (and save) the results",
        formatter_class=raw,
        description=paragraphs(
            "Run the probe kernels (matmul, memory bandwidth, transfers, dispatch, JAX "
            "compile, ...) on every backend in turn and print one table, 100 columns wide.\n\n"
            "Points too noisy to trust, bandwidth measured in the cache and points above a roof "
            "are flagged in the trust column and never count as best values. The smoke suite is "
            "a functional check, not a benchmark."
        ),
        epilog="examples:\n  gpu-tpu-probe run --suite smoke\n  gpu-tpu-probe run --suite quick --out run.json "
        "--csv run.csv\n  gpu-tpu-probe run --backend torch --kernel matmul --dtype bfloat16 --wide\n"
        "  gpu-tpu-probe run --suite full --budget-s 900 --format json > run.json",
    )
    run.add_argument(
        "--suite",
        choices=SUITES,
        default="quick",
        help="smoke: seconds, a functional check; quick: about a minute; full: up to 10 minutes",
    )
    run.add_argument("--backend", choices=(*BACKENDS, "all"), default="all")
    run.add_argument(
        "--kernel",
        action="extend",
        nargs="+",
        metavar="K",
        choices=allowed_kernels(),
        help=f"only these kernels ({', '.join(KERNELS)})",
    )
    run.add_argument(
        "--dtype",
        action="extend",
        nargs="+",
        metavar="D",
        choices=DTYPES,
        help=f"only these dtypes ({', '.join(DTYPES)})",
    )
    run.add_argument(
        "--budget-s",
        type=float,
        metavar="SECONDS",
        help="whole-run time budget (default: the suite's: "
        + ", ".join(f"{k} {v:.0f}" for k, v in SUITE_BUDGET_S.items())
        + ")",
    )
    run.add_argument("--out", metavar="FILE.json", help="save the run file here")
    run.add_argument("--csv", metavar="FILE", help="also write the results as CSV")
    run.add_argument("--format", choices=("table", "json"), default="table", help="what to print on stdout")
    run.add_argument(
        "--wide",
        action="store_true",
        help="one line per result with its notes in full (the table is 100 columns wide otherwise, "
        "notes wrapped under their row)",
    )
    run.add_argument(
        "--python",
        metavar="PATH",
        help="run the workers in this Python interpreter (a venv or conda env with its own torch/JAX)",
    )


def _add_collective_command(sub: argparse._SubParsersAction[OneLineParser]) -> None:
    """The `collective` subcommand: N local ranks, engines, sizes, dtypes and time limits."""
    col = sub.add_parser(
        "collective",
        help="all-reduce, all-gather and reduce-scatter across N local processes",
        description="Start N local processes through torch.distributed and/or jax.distributed and "
        "measure collectives between them (rank 0 writes the run). Across hosts, run "
        "`gpu-tpu-probe run --kernel collective` under torchrun or on every host of a TPU slice.",
    )
    col.add_argument("--processes", type=int, required=True, metavar="N", help="ranks to start (2 to 64)")
    col.add_argument("--backend", choices=(*BACKENDS, "all"), default="all")
    col.add_argument("--out", metavar="FILE.json", help="save the run file here")
    col.add_argument("--csv", metavar="FILE", help="also write the results as CSV")
    col.add_argument(
        "--timeout-s",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="how long to wait for the ranks to join, and for any collective to progress (default 60)",
    )
    col.add_argument(
        "--budget-s",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="measuring time per engine (default 60); sizes not reached are reported as skipped",
    )
    col.add_argument(
        "--max-bytes",
        metavar="SIZE",
        help="largest message, e.g. 256K, 64M, 1G (default: 64M on CPU, 1G on accelerators)",
    )
    col.add_argument(
        "--dtype",
        action="extend",
        nargs="+",
        metavar="D",
        choices=DTYPES,
        help="dtypes (default: float32 on CPU, float32 and bfloat16 on accelerators)",
    )
    col.add_argument(
        "--accelerator",
        action="store_true",
        help="one accelerator per rank (NCCL / JAX GPU) instead of the CPU over gloo",
    )
    col.add_argument("--python", metavar="PATH", help="run the ranks in this Python interpreter")
    col.add_argument("--format", choices=("table", "json"), default="table")


# ---------------------------------------------------------------- tables


def _gib(n: int | None) -> str:
    return MISSING if n is None else f"{n / 1024**3:.1f} GiB"


def devices_table(devices: list, backends: list) -> str:
    """The `devices` listing: one row per device, then the backends that are missing."""
    rows = []
    for d in devices:
        versions = " ".join(f"{k} {v}" for k, v in d.versions.items())
        memory = _gib(d.memory_bytes) + (" *" if d.memory_note and d.memory_bytes else "")
        rows.append([d.key, d.name, str(d.count), memory, d.catalog_id or MISSING, versions])
    lines = [table(["device", "name", "count", "memory", "catalogue", "versions"], rows)] if rows else ["no devices"]
    cpu = next((d.cpu for d in devices if d.cpu), None)
    if cpu:
        caches = ", ".join(f"{k} {v // 1024} KiB" for k, v in cpu.caches.items())
        lines.append(
            f"\nCPU: {cpu.model}; {cpu.cores} cores, {cpu.threads_used} threads used; "
            f"ISA: {' '.join(cpu.flags) or MISSING}; caches: {caches or MISSING}"
        )
    for d in devices:
        if d.memory_note:
            lines.append(f"* {d.key}: memory is the {d.memory_note}")
    for b in backends:
        if not b.available:
            lines.append(f"{b.backend}: not available: {b.reason}")
        elif b.reason:
            lines.append(f"{b.backend}: note: {b.reason}")
    return "\n".join(lines)


# ---------------------------------------------------------------- commands


def _check_output(path: str, flag: str) -> Path:
    """Refuse, before measuring anything, an output path that cannot be written or would overwrite a
    foreign file; returns the file a save will write (symlinks followed)."""
    p = Path(path)
    try:
        target = resolve_target(p)
        st: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise InputError(f"{p}: {flag}: cannot write there ({exc.strerror or exc})") from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise InputError(f"{p}: {flag}: is a folder")
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise InputError(f"{p}: {flag}: not a regular file (to see the run on stdout, use --format json)")
    if st is not None and st.st_size and flag == "--out":
        try:
            load_run(target)
        except InputError:
            raise InputError(f"{p}: {flag}: exists and is not a probe run file; not overwriting it") from None
    if st is not None and st.st_size and flag == "--csv":
        try:
            with open(target, "rb") as fh:
                head = fh.read(len(CSV_HEADER) + 1)
        except OSError as exc:
            raise InputError(f"{p}: {flag}: cannot read it ({exc.strerror or exc})") from None
        if head.rstrip(b"\r\n") != CSV_HEADER:
            raise InputError(f"{p}: {flag}: exists and is not a probe CSV file; not overwriting it")
    parent = target.parent if str(target.parent) else Path(".")
    while not os.path.lexists(parent) and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise InputError(f"{p}: {flag}: {parent} is not a folder")
    if not os.access(parent, os.W_OK):
        raise InputError(f"{p}: {flag}: folder {parent} is not writable")
    return target


def fallback_dirs() -> list[Path]:
    """Where a run is kept when the file asked for cannot be written: the user's state folder, then a
    private folder in the temp folder."""
    import platformdirs

    return [Path(platformdirs.user_state_dir(APP_NAME, appauthor=False)) / "unsaved-runs", Path(tempfile.gettempdir())]


def save_fallback(data: str, wanted: str, dirs: list[Path] | None = None) -> tuple[Path | None, str]:
    """Save `data` (what could not be written to `wanted`) in the first fallback folder that takes it.

    Returns (the path written, "") or (None, why the last folder refused too).
    """
    name = Path(wanted).name
    stem = "".join(c for c in Path(name).stem if c.isalnum() or c in "._-")[:40].strip(".") or "run"
    suffix = Path(name).suffix if Path(name).suffix in (".json", ".csv") else ".json"
    stamp = time.strftime("%Y%m%d-%H%M%S")
    why = "no fallback folder"
    for folder in fallback_dirs() if dirs is None else dirs:
        try:
            if folder == Path(tempfile.gettempdir()):
                # shared and world-writable: a private folder, so no one can plant a link at a guessed name
                folder = Path(tempfile.mkdtemp(prefix=f"{APP_NAME}-unsaved-", dir=folder))
            path = folder / f"{stem}-{stamp}-{os.getpid()}{suffix}"
            count = 1
            while os.path.lexists(path):
                count += 1
                path = folder / f"{stem}-{stamp}-{os.getpid()}-{count}{suffix}"
            write_text(path, data)
            return path, ""
        except OSError as exc:
            why = f"{exc.filename or folder}: {exc.strerror or exc}"
    return None, why


def _say(text: str, stream: IO[str] | None = None) -> bool:
    """Print a line; False when the stream is gone (a closed pipe or terminal), which never stops a save."""
    stream = stream or sys.stderr
    try:
        print(text, file=stream, flush=True)
        return True
    except (OSError, ValueError):
        if stream is sys.stdout:  # keep the interpreter's last flush of a dead stdout quiet
            with contextlib.suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return False


def _save_outputs(run: RunFile, args: argparse.Namespace) -> tuple[list[str], dict[str, str]]:
    """Write --out and --csv; a file that cannot be written goes to a fallback file instead.

    Returns one error line per file that could not be written where asked, and where each
    flag's file went (the path asked for, or its fallback).
    """
    errors: list[str] = []
    written: dict[str, str] = {}
    for flag, wanted, render in (("--out", args.out, _run_json), ("--csv", args.csv, to_csv)):
        if not wanted:
            continue
        data = render(run)
        try:
            write_text(wanted, data)
            written[flag] = wanted
            continue
        except OSError as exc:
            problem = exc.strerror or str(exc)
        kept, why = save_fallback(data, wanted)
        if kept is not None:
            written[flag] = str(kept)
            errors.append(f"{wanted}: {flag}: cannot write ({problem}); the results are saved in {kept} instead")
        else:
            errors.append(
                f"{wanted}: {flag}: cannot write ({problem}); no fallback file could be written either "
                f"({why}); the table printed above is all that is kept"
            )
    return errors, written


def _run_json(run: RunFile) -> str:
    return run.model_dump_json(indent=2) + "\n"


def _check_python(path: str | None) -> str | None:
    """The interpreter --python names, after asking it what it has; InputError (one line) when it cannot run a probe."""
    if not path or envs.is_own(path):
        return None
    found = envs.lookup(path)
    if not found.usable:
        raise InputError(f"--python: {found.problem or f'{path}: not usable'}")
    return found.interpreter


def _added_envs() -> list[str]:
    from gpu_tpu_app.core.settings import load_preferences

    try:
        return list(load_preferences().python_envs)
    except InputError as exc:
        print(f"note: environments added in the window not listed: {exc}", file=sys.stderr)
        return []


def envs_table(found: list) -> str:
    """The `envs` listing: one row per interpreter, with what each framework sees."""
    rows = []
    for e in found:
        mark = "yes" if e.usable and not e.problem else ("partly" if e.usable else "no")
        versions = " ".join(f"{k} {e.versions[k]}" for k in ("torch", "jax", "jaxlib", "torch_xla") if k in e.versions)
        sees = e.summary().removeprefix(f"{e.interpreter}: ")  # the path has its own column
        rows.append([e.name, e.kind, e.python or "-", mark, versions or "-", e.flavour or "-", sees, e.interpreter])
    return table(["name", "kind", "python", "usable", "versions", "build", "sees", "interpreter"], rows)


def cmd_envs(args: argparse.Namespace) -> int:
    if args.timeout_s <= 0:
        raise InputError("--timeout-s: must be more than 0")
    found = envs.list_envs([*_added_envs(), *args.extra], refresh=args.refresh, timeout_s=args.timeout_s)
    if args.format == "json":
        print(json.dumps({"environments": [e.model_dump(mode="json") for e in found]}, indent=2, allow_nan=False))
    else:
        print(envs_table(found))
    for e in found:
        if e.problem and e.kind == "added":
            print(e.problem, file=sys.stderr)
    return 0


def cmd_devices(args: argparse.Namespace) -> int:
    backends = BACKENDS if args.backend == "all" else (args.backend,)
    devices, statuses = list_devices(backends, python=_check_python(args.python))
    if args.format == "json":
        print(
            json.dumps(
                {
                    "devices": [d.model_dump(mode="json") | {"key": d.key} for d in devices],
                    "backends": [b.model_dump(mode="json") for b in statuses],
                },
                indent=2,
                allow_nan=False,
            )
        )
    else:
        print(devices_table(devices, statuses))
    return 0 if devices else 1


def cmd_run(args: argparse.Namespace) -> int:
    if args.out:
        out_target = _check_output(args.out, "--out")
    if args.csv:
        csv_target = _check_output(args.csv, "--csv")
        if args.out and os.path.abspath(csv_target) == os.path.abspath(out_target):
            raise InputError(f"{args.csv}: --csv: the same file as --out")
    if args.budget_s is not None and args.budget_s <= 0:
        raise InputError("--budget-s: must be more than 0")
    python = _check_python(args.python)
    request = ProbeRequest(
        python=python,
        suite=args.suite,
        backends=BACKENDS if args.backend == "all" else (args.backend,),
        kernels=args.kernel,
        dtypes=args.dtype,
        budget_s=args.budget_s,
    )
    cancel = CancelEvent()
    grouped = list(args.kernel or []) == ["collective"]
    rank = collective_rank() if grouped else None
    # Ctrl-C, SIGTERM and SIGHUP stop the measuring and keep what was measured; one that comes while
    # printing or saving waits for the save, then sets the exit code (128 + its number).
    with stop_on_signals(cancel, escalate=False):
        printer = ProgressPrinter(sys.stderr, backends=request.backends, budget_s=request.total_budget_s)
        run = run_probe(request, on_message=printer, cancel_event=cancel)
        if rank:  # one rank of a group under torchrun / jax.distributed: rank 0 writes and prints
            if run.errors or not run.complete:
                return 1  # the problem was printed as it came
            _say(f"rank {rank}: done; rank 0 writes the run file and prints the results")
            return 0
        # the table first: whatever happens to the files below, the measurements have been shown
        text = run.model_dump_json(indent=2) if args.format == "json" else results_table(run, wide=args.wide)
        _say(text, sys.stdout)
        errors, written = _save_outputs(run, args)
    for line in errors:
        _say(f"error: {line}")
    failed = sum(r.status in ("error", "timeout") for r in run.results)
    if failed:
        _say(f"{failed} point{'s' if failed > 1 else ''} failed or timed out (see the note column)")
    if cancel.is_set() and not run.complete:
        how = "cancelled"
        if cancel.signum not in (None, signal.SIGINT):
            how += f" ({signal.Signals(cancel.signum).name})"
        if "--out" in written:
            saved = f"partial run ({len(run.results)} results) saved to {written['--out']}"
        elif "--csv" in written:
            saved = f"partial results ({len(run.results)}) saved as CSV to {written['--csv']}"
        else:
            saved = "nothing saved" + ("" if args.out or args.csv else " (no --out given)")
        _say(f"{how}: {saved}")
    elif args.out and not errors:
        _say(f"saved {args.out}")
    if cancel.signum is not None:
        return 128 + int(cancel.signum)
    if cancel.is_set():
        return EXIT_CANCELLED
    if errors:
        return EXIT_USAGE
    if grouped and rank is not None and run.errors:
        return 1  # rank 0 of a group that failed
    return 0 if run.complete else 1


def parse_bytes(text: str) -> int:
    """'64M' -> 67108864 (K, M, G are powers of 1024); InputError naming --max-bytes otherwise."""
    scale = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3}
    raw = text.strip().upper().removesuffix("IB").removesuffix("B")
    unit = raw[-1:] if raw[-1:] in scale else ""
    number = raw[: len(raw) - len(unit)]
    try:
        value = int(float(number) * scale[unit])
    except ValueError:
        raise InputError(f"--max-bytes: {text!r} is not a size (examples: 256K, 64M, 1G)") from None
    if not 4096 <= value <= 64 * 1024**3:
        raise InputError(f"--max-bytes: {text!r} must be between 4K and 64G")
    return value


def collective_table(run: RunFile) -> str:
    """One row per collective point: engine, op, dtype, size, time per op, algorithm and bus bandwidth, the CV
    of its repetitions and the trust rule's verdict (a flagged point is listed, marked, never a best value)."""
    rows = []
    notes = []
    for r, flags in zip(run.results, run_flags(run)):
        if r.kernel != "collective":
            continue
        c = r.collective
        size = "-" if r.size is None else (f"{r.size // 1024**2} MiB" if r.size >= 1024**2 else f"{r.size // 1024} KiB")
        if c is None:
            rows.append([r.backend, r.variant or "-", r.dtype or "-", size, "-", "-", r.status, "-", "-", "-", "-", ""])
            if r.message:
                notes.append(f"  {r.backend} {r.variant or ''} {size}: {r.message}")
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
                trust_cell(flags) or "ok",
            ]
        )
        if flags.flagged:
            notes.append(f"  {r.backend} {c.op} {size}: not trusted: {flags.note()}")
    headers = [
        "engine",
        "op",
        "dtype",
        "size",
        "time/op",
        "algbw",
        "busbw",
        "CV",
        "ranks",
        "hosts",
        "transport",
        "trust",
    ]
    if not rows:
        return "no results"
    text = table(headers, rows, right={3, 4, 5, 6, 7, 8, 9})
    if notes:
        text += "\n" + "\n".join(["not trusted (listed, never a best value):", *notes])
    return text


def cmd_collective(args: argparse.Namespace) -> int:
    from gpu_tpu_app.probe.group import GroupRequest, run_group

    if args.out:
        out_target = _check_output(args.out, "--out")
    if args.csv:
        csv_target = _check_output(args.csv, "--csv")
        if args.out and os.path.abspath(csv_target) == os.path.abspath(out_target):
            raise InputError(f"{args.csv}: --csv: the same file as --out")
    if args.budget_s <= 0:
        raise InputError("--budget-s: must be more than 0")
    try:
        request = GroupRequest(
            processes=args.processes,
            backends=BACKENDS if args.backend == "all" else (args.backend,),
            timeout_s=args.timeout_s,
            budget_s=args.budget_s,
            dtypes=args.dtype,
            max_bytes=parse_bytes(args.max_bytes) if args.max_bytes else None,
            python=_check_python(args.python),
            accelerator=args.accelerator,
        )
    except ValueError as exc:
        raise InputError(str(exc)) from None
    cancel = CancelEvent()
    with stop_on_signals(cancel, escalate=False):
        printer = ProgressPrinter(
            sys.stderr, backends=request.backends, budget_s=request.budget_s * len(request.backends)
        )
        run = run_group(request, on_message=printer, cancel_event=cancel)
        if args.format == "json":
            _say(run.model_dump_json(indent=2), sys.stdout)
        else:
            lines = [collective_table(run)]
            for host in run.hosts:
                lines.append(
                    f"host {host.host}: ranks {', '.join(map(str, host.ranks))}; {host.cpu or '?'}; "
                    f"{host.os or '?'}; Python {host.python or '?'}; "
                    + " ".join(f"{k} {v}" for k, v in host.versions.items())
                )
            _say("\n".join(lines), sys.stdout)
        errors, written = _save_outputs(run, args)
    for line in [*run.errors, *errors]:
        _say(f"error: {line}")
    if cancel.is_set():
        _say("cancelled" + (f": partial run saved to {written['--out']}" if "--out" in written else ""))
        return 128 + int(cancel.signum) if cancel.signum not in (None, signal.SIGINT) else EXIT_CANCELLED
    if "--out" in written and not errors:
        _say(f"saved {written['--out']}")
    if errors:
        return EXIT_USAGE
    ok = any(r.status == "ok" for r in run.results)
    return 0 if run.complete and ok and not run.errors else 1


def cmd_compare(args: argparse.Namespace) -> int:
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


def main(argv: list[str] | None = None) -> int:
    """Entry point of gpu-tpu-probe; returns the exit code."""
    args = build_parser().parse_args(sys.argv[1:] if argv is None else argv)
    try:
        commands = {
            "devices": cmd_devices,
            "run": cmd_run,
            "compare": cmd_compare,
            "envs": cmd_envs,
            "collective": cmd_collective,
        }
        return commands[args.command](args)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return EXIT_CANCELLED
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
