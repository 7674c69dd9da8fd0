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
import time
from pathlib import Path
from typing import IO, Any

from gpu_tpu_app import APP_NAME, __version__
from gpu_tpu_app.atomic import resolve_target, write_text
from gpu_tpu_app.cliutil import EXIT_USAGE, OneLineParser
from gpu_tpu_app.core.runs import (
    CSV_COLUMNS,
    Done,
    ErrorMsg,
    Message,
    ProbeResult,
    Progress,
    ResultMsg,
    RunFile,
    load_run,
    to_csv,
)
from gpu_tpu_app.core.terms import BACKENDS, DTYPES, KERNELS, SUITES, allowed_kernels
from gpu_tpu_app.core.wording import MISSING, format_pct, format_size, format_value
from gpu_tpu_app.errors import InputError
from gpu_tpu_app.probe.protocol import SUITE_BUDGET_S, ProbeRequest, point_label
from gpu_tpu_app.probe.runner import CancelEvent, list_devices, run_probe, stop_on_signals

EXIT_CANCELLED = 130
CSV_HEADER = ",".join(CSV_COLUMNS).encode()


def build_parser() -> OneLineParser:
    """The gpu-tpu-probe argument parser."""
    parser = OneLineParser(
        prog="gpu-tpu-probe",
        description="Measure this machine's accelerators with torch and JAX, save the run, compare runs.",
    )
    parser.add_argument("--version", action="version", version=f"gpu-tpu-probe {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    sub.required = True

    dev = sub.add_parser("devices", help="list the devices torch and JAX can measure here")
    dev.add_argument("--format", choices=("table", "json"), default="table")
    dev.add_argument("--backend", choices=(*BACKENDS, "all"), default="all")

    run = sub.add_parser("run", help="run the probe kernels and print (and save) the results")
    run.add_argument("--suite", choices=SUITES, default="quick",
                     help="smoke: seconds; quick: about a minute; full: up to 10 minutes")  # fmt: skip
    run.add_argument("--backend", choices=(*BACKENDS, "all"), default="all")
    run.add_argument("--kernel", action="extend", nargs="+", metavar="K", choices=allowed_kernels(),
                     help=f"only these kernels ({', '.join(KERNELS)})")  # fmt: skip
    run.add_argument("--dtype", action="extend", nargs="+", metavar="D", choices=DTYPES,
                     help=f"only these dtypes ({', '.join(DTYPES)})")  # fmt: skip
    run.add_argument("--budget-s", type=float, metavar="SECONDS",
                     help="whole-run time budget (default: the suite's: "
                     + ", ".join(f"{k} {v:.0f}" for k, v in SUITE_BUDGET_S.items()) + ")")  # fmt: skip
    run.add_argument("--out", metavar="FILE.json", help="save the run file here")
    run.add_argument("--csv", metavar="FILE", help="also write the results as CSV")
    run.add_argument("--format", choices=("table", "json"), default="table", help="what to print on stdout")

    cmp_ = sub.add_parser("compare", help="print several run files side by side")
    cmp_.add_argument("runs", nargs="+", metavar="RUN.json")
    cmp_.add_argument("--format", choices=("table", "json"), default="table")
    return parser


# ---------------------------------------------------------------- tables


def _table(headers: list[str], rows: list[list[str]], right: set[int] = frozenset()) -> str:  # type: ignore[assignment]
    widths = [len(h) for h in headers]
    for row in rows:
        widths = [max(w, len(c)) for w, c in zip(widths, row)]

    def fmt(row: list[str]) -> str:
        cells = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))]
        return "  ".join(cells).rstrip()

    return "\n".join([fmt(headers), fmt(["-" * w for w in widths]), *(fmt(r) for r in rows)])


def _gib(n: int | None) -> str:
    return MISSING if n is None else f"{n / 1024**3:.1f} GiB"


def _cell(r: ProbeResult) -> str:
    if r.status in ("ok", "suspect") and r.value is not None:
        text = format_value(r.value, r.metric)
        return text + " (suspect)" if r.status == "suspect" else text
    return r.status


def devices_table(devices: list, backends: list) -> str:
    """The `devices` listing: one row per device, then the backends that are missing."""
    rows = []
    for d in devices:
        versions = " ".join(f"{k} {v}" for k, v in d.versions.items())
        memory = _gib(d.memory_bytes) + (" *" if d.memory_note and d.memory_bytes else "")
        rows.append([d.key, d.name, str(d.count), memory, d.catalog_id or MISSING, versions])
    lines = [_table(["device", "name", "count", "memory", "catalogue", "versions"], rows)] if rows else ["no devices"]
    cpu = next((d.cpu for d in devices if d.cpu), None)
    if cpu:
        caches = ", ".join(f"{k} {v // 1024} KiB" for k, v in cpu.caches.items())
        lines.append(f"\nCPU: {cpu.model}; {cpu.cores} cores, {cpu.threads_used} threads used; "
                     f"ISA: {' '.join(cpu.flags) or MISSING}; caches: {caches or MISSING}")  # fmt: skip
    for d in devices:
        if d.memory_note:
            lines.append(f"* {d.key}: memory is the {d.memory_note}")
    for b in backends:
        if not b.available:
            lines.append(f"{b.backend}: not available: {b.reason}")
        elif b.reason:
            lines.append(f"{b.backend}: note: {b.reason}")
    return "\n".join(lines)


def results_table(run: RunFile) -> str:
    """The `run` result listing: one row per result with its spread and percentages."""
    rows = []
    for r in run.results:
        cv = MISSING if r.stats is None else f"{100 * r.stats.cv:.1f}%"
        note = r.message or r.math_mode or ""
        rows.append([r.device, r.kernel, r.variant or MISSING, r.dtype or MISSING, format_size(r.size),
                     _cell(r), cv, format_pct(r.pct_ceiling), format_pct(r.pct_spec), note])  # fmt: skip
    headers = ["device", "kernel", "variant", "dtype", "size", "value", "cv", "%best", "%spec", "note"]
    return _table(headers, rows, right={4, 5, 6, 7, 8}) if rows else "no results"


def compare_runs(runs: list[tuple[str, RunFile]]) -> tuple[list[str], list[list[str]], list[dict[str, Any]]]:
    """Headers, table rows and JSON rows of matching results: one row per kernel/variant/dtype/size,
    one column per (run, device)."""
    columns: list[tuple[int, str]] = []
    labels: list[str] = []
    for i, (_name, run) in enumerate(runs):
        for key in dict.fromkeys(r.device for r in run.results):
            columns.append((i, key))
            dev = run.device(key)
            # numbered by run, so two runs of one host stay apart (also as JSON keys)
            labels.append(f"[{i + 1}] {run.host} {key.split(':')[0]} {dev.name if dev else key}")
    order = {k: n for n, k in enumerate(KERNELS)}
    cells: dict[tuple, dict[int, ProbeResult]] = {}
    for c, (i, key) in enumerate(columns):
        for r in runs[i][1].results:
            if r.device == key:
                cells.setdefault((r.kernel, r.variant or "", r.dtype or "", r.size or 0), {})[c] = r
    keys = sorted(cells, key=lambda k: (order.get(k[0], len(order)), k[0], k[1], k[2], k[3]))
    table, data = [], []
    for k in keys:
        row = cells[k]
        table.append([k[0], k[1] or MISSING, k[2] or MISSING, str(k[3]) if k[3] else MISSING,
                      *(_cell(row[c]) if c in row else "" for c in range(len(columns)))])  # fmt: skip
        data.append({
            "kernel": k[0], "variant": k[1] or None, "dtype": k[2] or None, "size": k[3] or None,
            "values": {labels[c]: (None if c not in row else {"value": row[c].value, "metric": row[c].metric,
                                                             "status": row[c].status}) for c in range(len(columns))},
        })  # fmt: skip
    return ["kernel", "variant", "dtype", "size", *labels], table, data


# ---------------------------------------------------------------- progress


class ProgressPrinter:
    """Shows progress on stderr: a redrawn bar on a terminal, one plain line per event otherwise.

    Progress is best effort: once the stream is gone (a closed terminal or pipe) it stays quiet,
    and the run goes on to be saved.
    """

    def __init__(self, stream: IO[str], tty: bool | None = None) -> None:
        self.stream = stream
        self.tty = stream.isatty() if tty is None else tty
        self._bar = False
        self.gone = False

    def __call__(self, msg: Message) -> None:
        if self.gone:
            return
        try:
            self._show(msg)
        except (OSError, ValueError):
            self.gone = True

    def _show(self, msg: Message) -> None:
        if isinstance(msg, Progress):
            label = point_label(msg)
            eta = "" if msg.eta_s is None else f"  eta {msg.eta_s:.0f} s"
            if self.tty:
                width = 24
                filled = int(width * msg.done / max(1, msg.total))
                bar = "#" * filled + "." * (width - filled)
                line = f"\r{msg.backend or ''} [{bar}] {msg.done}/{msg.total} {label}{eta}"
                self.stream.write(line[:120].ljust(100))
                self._bar = True
            else:
                self.stream.write(f"{msg.backend or ''} {msg.done + 1}/{msg.total}: {label}\n")
        elif isinstance(msg, ResultMsg):
            r = msg.result
            if not self.tty or r.status not in ("ok",):
                self._clear()
                extra = f" ({r.message})" if r.message and r.status != "ok" else ""
                self.stream.write(f"  {r.device} {r.label()}: {_cell(r)}{extra}\n")
        elif isinstance(msg, ErrorMsg):
            self._clear()
            self.stream.write(f"{msg.backend or ''}: {msg.message}\n")
        elif isinstance(msg, Done):
            self._clear()
        self.stream.flush()

    def _clear(self) -> None:
        if self._bar:
            self.stream.write("\r" + " " * 100 + "\r")
            self._bar = False


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
    for n, folder in enumerate(fallback_dirs() if dirs is None else dirs):
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
            errors.append(f"{wanted}: {flag}: cannot write ({problem}); no fallback file could be written either "
                          f"({why}); the table printed above is all that is kept")  # fmt: skip
    return errors, written


def _run_json(run: RunFile) -> str:
    return run.model_dump_json(indent=2) + "\n"


def cmd_devices(args: argparse.Namespace) -> int:
    backends = BACKENDS if args.backend == "all" else (args.backend,)
    devices, statuses = list_devices(backends)
    if args.format == "json":
        print(json.dumps({"devices": [d.model_dump(mode="json") | {"key": d.key} for d in devices],
                          "backends": [b.model_dump(mode="json") for b in statuses]}, indent=2, allow_nan=False))  # fmt: skip
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
    request = ProbeRequest(
        suite=args.suite,
        backends=BACKENDS if args.backend == "all" else (args.backend,),
        kernels=args.kernel,
        dtypes=args.dtype,
        budget_s=args.budget_s,
    )
    cancel = CancelEvent()
    # Ctrl-C, SIGTERM and SIGHUP stop the measuring and keep what was measured; one that comes while
    # printing or saving waits for the save, then sets the exit code (128 + its number).
    with stop_on_signals(cancel, escalate=False):
        run = run_probe(request, on_message=ProgressPrinter(sys.stderr), cancel_event=cancel)
        # the table first: whatever happens to the files below, the measurements have been shown
        _say(run.model_dump_json(indent=2) if args.format == "json" else results_table(run), sys.stdout)
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
    return 0 if run.complete else 1


def cmd_compare(args: argparse.Namespace) -> int:
    runs = [(name, load_run(name)) for name in args.runs]
    headers, rows, data = compare_runs(runs)
    if args.format == "json":
        print(json.dumps({"runs": [{"file": n, "host": r.host, "started": r.started.isoformat(), "suite": r.suite}
                                   for n, r in runs], "columns": headers[4:], "rows": data}, indent=2, allow_nan=False))  # fmt: skip
        return 0
    for number, (name, run) in enumerate(runs, 1):
        print(f"[{number}] {name}: {run.host}, {run.suite} suite, {run.started:%Y-%m-%d %H:%M}"
              + ("" if run.complete else " (incomplete)"))  # fmt: skip
    print()
    print(_table(headers, rows, right=set(range(3, len(headers)))) if rows else "no results to compare")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of gpu-tpu-probe; returns the exit code."""
    args = build_parser().parse_args(sys.argv[1:] if argv is None else argv)
    try:
        return {"devices": cmd_devices, "run": cmd_run, "compare": cmd_compare}[args.command](args)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return EXIT_CANCELLED
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
