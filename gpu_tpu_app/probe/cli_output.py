"""What `gpu-tpu-probe` prints: result tables that fit 100 columns, the compare table, progress on stderr.

Trust flags (too noisy, in cache, above a roof) come from core.trust and show in a column of their
own, with the reasons in the notes under each row (or in a last column with --wide).
"""

from __future__ import annotations

import textwrap
import time
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from typing import IO, Any

from gpu_tpu_app.core.note_text import result_message, separator, shown_message
from gpu_tpu_app.core.runs import DeviceMsg, Done, ErrorMsg, Message, ProbeResult, Progress, ResultMsg, RunFile
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.core.wording import (
    MISSING,
    format_eta,
    format_pct,
    format_value,
)
from gpu_tpu_app.i18n import current_language
from gpu_tpu_app.shared.cliutil import display_width, pad
from gpu_tpu_app.shared.terms import KERNELS, point_words, size_words
from gpu_tpu_app.shared.trust import (
    FLAG_WORDS,
    LLC_FACTOR,
    MIN_REPS,
    NOISE_CV,
    NOISE_IQR_RATIO,
    Flags,
    is_functional_check,
    point_flags,
    run_flags,
)

#: Printed tables and progress lines fit this many columns (unless --wide).
WIDTH = 100
#: The trust flags, in the order the trust column names them (their words: resources/text/probe.*.toml).
FLAG_KEYS = ("noisy", "in_cache", "above_roof", "stalled")


def trust_legend() -> str:
    """What the trust column's codes mean, in the language in use."""
    return text(
        "probe.legend",
        reps=MIN_REPS,
        iqr=format_pct(100 * NOISE_IQR_RATIO),
        cv=format_pct(100 * NOISE_CV),
        llc=f"{LLC_FACTOR:.0f}",
    )


def suite_words(suite: str) -> str:
    """A suite's name for people ('quick'; in zh-Hans '快速'); an unknown id as it is."""
    return text(f"probe.suites.{suite}") if suite in ("smoke", "quick", "full") else suite


def headers(*ids: str) -> list[str]:
    """Table headers by id (probe.headers.<id>), in the language in use."""
    return [text(f"probe.headers.{i}") for i in ids]


#: terminal columns a cell takes (wide characters two): cliutil's count, the one home of it.
cols = display_width


def _pad(cell: str, width: int, right: bool) -> str:
    return pad(cell, width, right)


def table(headers: list[str], rows: list[list[str]], right: AbstractSet[int] = frozenset()) -> str:
    """Columns padded to their widest cell, two spaces apart; `right` columns right-aligned."""
    widths = [cols(h) for h in headers]
    for row in rows:
        widths = [max(w, cols(c)) for w, c in zip(widths, row)]

    def fmt(row: list[str]) -> str:
        cells = [_pad(c, w, i in right) for i, (c, w) in enumerate(zip(row, widths))]
        return "  ".join(cells).rstrip()

    return "\n".join([fmt(headers), fmt(["-" * w for w in widths]), *(fmt(r) for r in rows)])


def value_cell(r: ProbeResult) -> str:
    """The value of a measured point, or its status when it has none."""
    if r.status in ("ok", "suspect") and r.value is not None:
        return format_value(r.value, r.metric)
    return r.status


def size_cell(r: ProbeResult) -> str:
    """A point's size for the table, worded as everywhere else (core.terms.size_words)."""
    return size_words(r.kernel, r.size) or MISSING


def trust_cell(flags: Flags) -> str:
    """'noisy,cache' style short codes of a point's flags; '' when trusted."""
    return ",".join(text(f"probe.codes.{k}") for k in FLAG_KEYS if getattr(flags, k))


def _notes(r: ProbeResult, flags: Flags) -> str:
    parts = [*flags.shown_notes()]
    if r.message:
        parts.append(result_message(r) or r.message)
    if r.math_mode and (not r.message or r.math_mode not in r.message):
        parts.append(text("probe.math", mode=shown_message(r.math_mode, r.math_mode_notes)))
    return separator(current_language()).join(parts)


def _wrap(text: str, width: int, indent: str) -> list[str]:
    """Wrap at spaces only: a word is never broken, even a long one."""
    if not text.isascii() and any(display_width(ch) == 2 for ch in text):
        return _wrap_wide(text, width, indent)
    # a number and its unit stay on one line: '10 %', '3.5 %' (textwrap breaks at ASCII spaces only)
    kept = text.replace(" %", "\u00a0%")
    lines = textwrap.wrap(
        kept,
        width=width,
        initial_indent=indent,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    )
    return [line.replace("\u00a0", " ") for line in lines]


def _wrap_wide(text: str, width: int, indent: str) -> list[str]:
    """Wrap text with Chinese in it: a line may break after any wide character or at a space, never
    inside a run of Latin letters or digits; columns counted as a terminal shows them."""
    tokens: list[str] = []
    for ch in text:
        wide = display_width(ch) == 2
        if wide or ch == " " or not tokens or tokens[-1] == " " or cols(tokens[-1][-1]) == 2:
            tokens.append(ch)
        else:
            tokens[-1] += ch
    lines: list[str] = []
    line = indent
    for tok in tokens:
        if cols(line) + cols(tok) > width and line.strip():
            lines.append(line.rstrip())
            line = indent
            if tok == " ":
                continue
        line += tok
    if line.strip():
        lines.append(line.rstrip())
    return lines


def _fit(rows: list[list[str]], headers: list[str], shrink: int, width: int) -> None:
    """Shorten column `shrink` (with '…') until the table fits `width` columns."""
    widths = [max(cols(h), *(cols(r[i]) for r in rows)) if rows else cols(h) for i, h in enumerate(headers)]
    over = sum(widths) + 2 * (len(widths) - 1) - width
    if over <= 0:
        return
    keep = max(cols(headers[shrink]), widths[shrink] - over)
    for row in rows:
        if len(row[shrink]) > keep:
            row[shrink] = row[shrink][: keep - 1] + "…"


def results_table(run: RunFile, width: int = WIDTH, wide: bool = False) -> str:
    """The `run` listing: per device a heading, one row per result, and its notes wrapped under the row.

    With `wide`, every row is one line with the notes in full in a last column (no width limit).
    """
    if not run.results:
        return text("probe.no_results")
    flags = run_flags(run)
    lines: list[str] = []
    if is_functional_check(run):
        lines += _wrap(text("probe.smoke_note", suite=suite_words(run.suite)), width, "")
        lines.append("")
    names = headers("kernel", "dtype", "size", "value", "cv", "best", "spec", "trust") + (
        headers("note") if wide else []
    )
    right = {2, 3, 4, 5, 6}
    devices = list(dict.fromkeys(r.device for r in run.results))
    any_flag = False
    for n, key in enumerate(devices):
        dev = run.device(key)
        if n:
            lines.append("")
        heading = f"{key}: {dev.name}" if dev else key
        lines += [heading] if wide else _wrap(heading, width, "")
        rows: list[list[str]] = []
        notes: list[str] = []
        for r, f in zip(run.results, flags):
            if r.device != key:
                continue
            any_flag = any_flag or f.flagged
            cv = MISSING if r.stats is None else f"{100 * r.stats.cv:.1f}%"
            point = " ".join(x for x in (r.kernel, r.variant) if x)
            rows.append(
                [
                    point,
                    r.dtype or MISSING,
                    size_cell(r),
                    value_cell(r),
                    cv,
                    format_pct(r.pct_ceiling),
                    format_pct(r.pct_spec),
                    trust_cell(f),
                ]
                + ([_notes(r, f)] if wide else [])
            )
            notes.append(_notes(r, f))
        if not wide:
            full = [row[0] for row in rows]
            _fit(rows, names, 0, width)
            notes = [n if row[0] == p else "; ".join(x for x in (p, n) if x) for row, p, n in zip(rows, full, notes)]
        body = table(names, rows, right).splitlines()
        lines += body[:2]
        for line, note in zip(body[2:], notes):
            lines.append(line)
            if note and not wide:
                lines += _wrap(note, width, "    ")
    if any_flag:
        lines.append("")
        legend = trust_legend()
        lines += [legend] if wide else _wrap(legend, width, "")
    return "\n".join(lines)


# ---------------------------------------------------------------- streamed rows


#: Fixed column widths of streamed rows (kernel, dtype, size, value, CV, best, spec): a row is printed the
#: moment its point is measured, before the widest cell of the run is known. A longer cell widens its row only.
STREAM_WIDTHS = (20, 8, 16, 12, 6, 6, 6)


class RowStream:
    """`gpu-tpu-probe run`'s table, one row per point printed (and flushed) as the point is measured: a
    device's heading and the column headers before its first row, the point's own flags and notes under it.

    Flags that need the whole run (a matmul above the run's measured roof, a size stalled against one measured
    after it) are only known at the end: finish() lists the rows they change, and the legend.
    """

    def __init__(self, stream: IO[str], suite: str = "", wide: bool = False, width: int = WIDTH) -> None:
        self.stream = stream
        self.wide = wide
        self.width = width
        self.suite = suite
        self.devices: set[str] = set()
        self.info: dict[str, Any] = {}  # device key -> DeviceInfo, from the workers' device messages
        self.shown: list[tuple[tuple[Any, ...], str]] = []  # each streamed point and the trust codes it showed
        self.gone = False
        self.any_flag = False

    def see(self, msg: Message) -> None:
        """Keep what a message says about a device (its name, its caches: the in-cache flag needs them)."""
        if isinstance(msg, DeviceMsg):
            self.info[msg.device.key] = msg.device

    def __call__(self, r: ProbeResult) -> None:
        if self.gone:
            return
        try:
            self.stream.write("\n".join(self._lines(r)) + "\n")
            self.stream.flush()
        except (OSError, ValueError):  # a closed pipe: the run goes on to be saved
            self.gone = True

    def _lines(self, r: ProbeResult) -> list[str]:
        lines: list[str] = []
        if not self.devices and is_functional_check_suite(self.suite):
            lines += [*_wrap(text("probe.smoke_note", suite=suite_words(self.suite)), self.width, ""), ""]
        names = headers("kernel", "dtype", "size", "value", "cv", "best", "spec", "trust")
        widths = [max(w, cols(h)) for w, h in zip(STREAM_WIDTHS, names)]
        if r.device not in self.devices:
            if self.devices:
                lines.append("")
            self.devices.add(r.device)
            dev = self.info.get(r.device)
            heading = f"{r.device}: {dev.name}" if dev else r.device
            lines += [heading] if self.wide else _wrap(heading, self.width, "")
            lines.append(_row(names, widths))
            lines.append(_row(["-" * w for w in widths] + ["-" * cols(names[-1])], widths))
        flags = point_flags(r, self.info.get(r.device))
        self.any_flag = self.any_flag or flags.flagged
        self.shown.append((_point_key(r), trust_cell(flags)))
        cv = MISSING if r.stats is None else f"{100 * r.stats.cv:.1f}%"
        point = " ".join(x for x in (r.kernel, r.variant) if x)
        cells = [
            point,
            r.dtype or MISSING,
            size_cell(r),
            value_cell(r),
            cv,
            format_pct(r.pct_ceiling),
            format_pct(r.pct_spec),
            trust_cell(flags),
        ]
        note = _notes(r, flags)
        if self.wide:
            return [*lines, _row([*cells, note] if note else cells, [*widths, max(cols(names[-1]), 11)])]
        lines.append(_row(cells, widths))
        if note:
            lines += _wrap(note, self.width, "    ")
        return lines

    def finish(self, run: RunFile) -> str:
        """What follows the streamed rows once the run is over: the rows whose trust the whole run changed
        (with their reasons) and the legend when any row is flagged; '' when there is nothing to add."""
        if not self.shown and not run.results:
            return text("probe.no_results")
        shown = dict(self.shown)
        changed: list[str] = []
        any_flag = self.any_flag
        for r, f in zip(run.results, run_flags(run)):
            any_flag = any_flag or f.flagged
            key = _point_key(r)
            if key in shown and shown[key] == trust_cell(f):
                continue
            words = point_words(r.kernel, r.variant, r.dtype, r.size)
            line = f"{r.device} {words}: {trust_cell(f) or text('probe.trusted')}"
            reasons = separator(current_language()).join(f.shown_notes())
            changed += _wrap(line + (f" ({reasons})" if reasons else ""), self.width, "  ")
        lines: list[str] = []
        if changed:
            lines += ["", *_wrap(text("probe.judged_after"), self.width, ""), *changed]
        if any_flag:
            legend = trust_legend()
            lines += ["", *([legend] if self.wide else _wrap(legend, self.width, ""))]
        return "\n".join(lines) if lines else ""


def is_functional_check_suite(suite: str) -> bool:
    """True for the smoke suite (core.trust.is_functional_check, by the suite's name)."""
    return suite == "smoke"


def _point_key(r: ProbeResult) -> tuple[Any, ...]:
    return (r.device, r.kernel, r.variant, r.dtype, r.size)


def _row(cells: list[str], widths: list[int]) -> str:
    right = {2, 3, 4, 5, 6}
    out = [_pad(c, widths[i], i in right) if i < len(widths) else c for i, c in enumerate(cells)]
    return "  ".join(out).rstrip()


def compare_runs(runs: list[tuple[str, RunFile]]) -> tuple[list[str], list[list[str]], list[dict[str, Any]]]:
    """Headers, table rows and JSON rows of matching results: one row per kernel/variant/dtype/size,
    one column per (run, device). A point that is not trusted (core.trust) ends in '*' in the table and
    carries its flags in the JSON."""
    columns: list[tuple[int, str]] = []
    labels: list[str] = []
    for i, (_name, run) in enumerate(runs):
        for key in dict.fromkeys(r.device for r in run.results):
            columns.append((i, key))
            dev = run.device(key)
            # numbered by run, so two runs of one host stay apart (also as JSON keys)
            labels.append(f"[{i + 1}] {run.host} {key.split(':')[0]} {dev.name if dev else key}")
    order = {k: n for n, k in enumerate(KERNELS)}
    cells: dict[tuple, dict[int, tuple[ProbeResult, Flags]]] = {}
    judged = [list(zip(run.results, run_flags(run))) for _name, run in runs]
    for c, (i, key) in enumerate(columns):
        for r, f in judged[i]:
            if r.device == key:
                cells.setdefault((r.kernel, r.variant or "", r.dtype or "", r.size or 0), {})[c] = (r, f)
    keys = sorted(cells, key=lambda k: (order.get(k[0], len(order)), k[0], k[1], k[2], k[3]))
    rows, data = [], []
    for k in keys:
        row = cells[k]
        shown = [
            value_cell(row[c][0]) + ("*" if row[c][1].flagged else "") if c in row else "" for c in range(len(columns))
        ]
        rows.append([k[0], k[1] or MISSING, k[2] or MISSING, size_words(k[0], k[3] or None) or MISSING, *shown])
        data.append(
            {
                "kernel": k[0],
                "variant": k[1] or None,
                "dtype": k[2] or None,
                "size": k[3] or None,
                "values": {
                    labels[c]: (
                        None
                        if c not in row
                        else {
                            "value": row[c][0].value,
                            "metric": row[c][0].metric,
                            "status": row[c][0].status,
                            "flags": [FLAG_WORDS[n] for n in FLAG_WORDS if getattr(row[c][1], n)],
                        }
                    )
                    for c in range(len(columns))
                },
            }
        )
    return [*headers("kernel", "variant", "dtype", "size"), *labels], rows, data


def compare_text(runs: list[tuple[str, RunFile]]) -> str:
    """The `compare` listing: the runs numbered, the table, and what '*' means when a cell has it."""
    names, rows, _data = compare_runs(runs)
    lines = []
    for number, (name, run) in enumerate(runs, 1):
        check = text("probe.compare_check") if is_functional_check(run) else ""
        line = text(
            "probe.compare_run",
            number=number,
            name=name,
            host=run.host,
            suite=suite_words(run.suite),
            check=check,
            started=f"{run.started:%Y-%m-%d %H:%M}",
        )
        lines.append(line + ("" if run.complete else text("probe.compare_incomplete")))
    lines.append("")
    lines.append(table(names, rows, right=set(range(3, len(names)))) if rows else text("probe.no_results_to_compare"))
    if any(c.endswith("*") for row in rows for c in row[4:]):
        lines.append("")
        lines += _wrap(text("probe.compare_star"), WIDTH, "")
    return "\n".join(lines)


# ---------------------------------------------------------------- progress


class ProgressPrinter:
    """Shows progress on stderr: one overall bar across all backends on a terminal, one plain line per
    point otherwise; each result on a line of its own as soon as it is measured (above the bar); points in plain words ('copy float32 512 Mi elements'), the time left in whole seconds.

    Progress is best effort: once the stream is gone (a closed terminal or pipe) it stays quiet,
    and the run goes on to be saved.
    """

    def __init__(
        self,
        stream: IO[str],
        tty: bool | None = None,
        backends: Sequence[str] | None = None,
        budget_s: float | None = None,
        width: int = WIDTH,
        clock: Any = time.monotonic,
        on_result: Any = None,
        echo_results: bool = True,
    ) -> None:
        """on_result: called with each result as it comes (a RowStream printing the table on stdout), the
        bar cleared first and drawn again after; echo_results: also list each result on this stream (off
        when the rows go to the same terminal)."""
        self.stream = stream
        self.on_result = on_result
        self.echo_results = echo_results
        self.tty = stream.isatty() if tty is None else tty
        self.backends = list(backends or [])
        self.budget_s = budget_s
        self.width = width
        self._clock = clock
        self._t0 = clock()
        self._backend_t0: dict[str, float] = {}
        self._bar = False
        self._bar_line = ""
        self.fraction = 0.0
        self.gone = False
        self._last: tuple[str | None, int] | None = None

    def overall(self, msg: Progress) -> tuple[float, float | None]:
        """(fraction of the whole run done, seconds left in the whole run) when point `msg` starts."""
        backend = msg.backend or ""
        now = self._clock()
        self._backend_t0.setdefault(backend, now)
        n = max(1, len(self.backends))
        index = self.backends.index(backend) if backend in self.backends else 0
        frac = (index + msg.done / max(1, msg.total)) / n
        self.fraction = max(self.fraction, min(1.0, frac))
        if msg.eta_s is None:
            return self.fraction, None
        # later backends: as long as this one is taking in all, within what is left of the budget
        later = n - 1 - index
        this_backend = (now - self._backend_t0[backend]) + msg.eta_s
        left = msg.eta_s + later * this_backend
        if self.budget_s is not None:
            left = min(left, max(msg.eta_s, self.budget_s - (now - self._t0)))
        return self.fraction, left

    def __call__(self, msg: Message) -> None:
        if self.gone:
            return
        try:
            self._show(msg)
        except (OSError, ValueError):
            self.gone = True

    def _show(self, msg: Message) -> None:
        if isinstance(msg, Progress):
            label = point_words(msg.kernel, msg.variant, msg.dtype, msg.size)
            if (msg.backend, msg.done) == self._last:  # the worker announces a point again to measure it once more
                label = text("probe_app.progress.again", point=label)
            self._last = (msg.backend, msg.done)
            frac, left = self.overall(msg)
            eta = format_eta(left)
            where = f"{msg.backend or ''} {msg.done + 1}/{msg.total}".strip()
            if self.tty:
                bar_w = 20
                filled = int(bar_w * frac)
                bar = "#" * filled + "." * (bar_w - filled)
                line = f"[{bar}] {100 * frac:3.0f}% {where}: {label}" + (f"  {eta}" if eta else "")
                if len(line) > self.width - 1:
                    line = line[: self.width - 2] + "…"
                self._bar_line = line.ljust(self.width - 1)
                self.stream.write("\r" + self._bar_line)
                self._bar = True
            else:
                self.stream.write(f"{where}: {label}" + (f" ({eta})" if eta else "") + "\n")
        elif isinstance(msg, ResultMsg):
            # every result as it comes, above the bar on a terminal (the bar is drawn again under it)
            r = msg.result
            redraw = self._bar
            self._clear()
            if self.on_result is not None:
                self.stream.flush()
                self.on_result(r)
            if self.echo_results:
                extra = f" ({result_message(r)})" if r.message and r.status != "ok" else ""
                words = point_words(r.kernel, r.variant, r.dtype, r.size)
                self.stream.write(f"  {r.device} {words}: {value_cell(r)}{extra}\n")
            if redraw:
                self.stream.write("\r" + self._bar_line)
                self._bar = True
        elif isinstance(msg, ErrorMsg):
            self._clear()
            self.stream.write(f"{msg.backend or ''}: {result_message(msg)}\n")
        elif isinstance(msg, Done):
            self._clear()
        self.stream.flush()

    def _clear(self) -> None:
        if self._bar:
            self.stream.write("\r" + " " * (self.width - 1) + "\r")
            self._bar = False
