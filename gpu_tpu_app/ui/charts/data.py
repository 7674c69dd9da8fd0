"""The data the probe page's charts draw, without Qt: which results form which series, bars, roofs and
compile rows, and what a hover over a point reads out. Kept free of Qt and pyqtgraph (an import-linter
contract in pyproject.toml) so it is tested on its own; the ui/chart_*.py modules draw it. Its words come
from core.texts (resources/text/charts.<language>.toml, the kernels' and collectives' names from terms.*),
not from Qt's tr().
"""

from __future__ import annotations

import math
import re
import textwrap
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from gpu_tpu_app.core.note_text import reason_text, result_message
from gpu_tpu_app.core.runs import ProbeResult, RunFile
from gpu_tpu_app.core.texts import text as _text
from gpu_tpu_app.core.wording import MISSING, format_pct, format_value
from gpu_tpu_app.shared.terms import COMPILE_PHASES, KERNEL_SPECS, MEMORY_KERNELS, functional_check, size_words
from gpu_tpu_app.shared.trust import Flags, is_functional_check, matmul_intensity, run_flags, trusted


def kernel_name(kernel: str) -> str:
    """A kernel as the charts name it in the language in use ('matmul', '矩阵乘法'); its id stays the key.
    A kernel the registry lacks (a test kernel) keeps its id."""
    if kernel not in KERNEL_SPECS:
        return kernel
    return _text(f"terms.kernel.{kernel}")


def category_name(category: str) -> str:
    """A bandwidth category ('copy', 'transfer h2d-pinned') as shown: the kernel's name, then its variant."""
    kernel, sep, variant = category.partition(" ")
    return f"{kernel_name(kernel)}{sep}{variant}"


def collective_name(op: str) -> str:
    """A collective ('all_reduce') as shown ('all-reduce'); an op the chart does not know keeps its id."""
    return _text(f"terms.collective.{op}") if op in COLLECTIVE_OPS else op


@dataclass
class ChartRun:
    """One run as the charts see it: its results, legend label and whether it is shown."""

    run: RunFile
    label: str
    index: int
    imported: bool = False
    visible: bool = True


@dataclass
class ChartData:
    """Everything the charts draw from; the probe panel rebuilds it when results arrive."""

    runs: list[ChartRun] = field(default_factory=list)

    def visible(self) -> list[ChartRun]:
        """Only the runs the user has not hidden."""
        return [r for r in self.runs if r.visible]


def _usable(r: ProbeResult) -> bool:
    return r.status == "ok" and r.value is not None and r.value > 0 and math.isfinite(r.value)


def _judged(run: RunFile) -> list[tuple[ProbeResult, Flags]]:
    """Each result of a run with its trust flags (core.trust): flagged points are drawn hollow, never as ceilings."""
    return list(zip(run.results, run_flags(run)))


def _drawable(r: ProbeResult) -> bool:
    """A point with a value to draw, trusted or not (suspect points too)."""
    return r.status in ("ok", "suspect") and r.value is not None and r.value > 0 and math.isfinite(r.value)


def _good(r: ProbeResult, f: Flags) -> bool:
    return _usable(r) and trusted(r, f)


def matmul_series(data: ChartData) -> dict[tuple[int, str, str, str | None], list[tuple[int, float]]]:
    """(run index, device key, backend, dtype) -> sorted [(size, FLOP/s)] of trusted matmul results."""
    out: dict[tuple[int, str, str, str | None], list[tuple[int, float]]] = defaultdict(list)
    for cr in data.visible():
        for r, f in _judged(cr.run):
            if r.kernel == "matmul" and r.metric == "flops" and r.size and _good(r, f):
                out[(cr.index, r.device, r.backend, r.dtype)].append((r.size, r.measured))
    return {k: sorted(v) for k, v in out.items()}


def matmul_spread(data: ChartData) -> dict[tuple[int, str, str, str | None], list[tuple[int, float, float]]]:
    """(run index, device key, backend, dtype) -> sorted [(size, q1, q3)] of trusted matmul results with statistics:
    the interquartile range of the repetitions, drawn as error bars."""
    out: dict[tuple[int, str, str, str | None], list[tuple[int, float, float]]] = defaultdict(list)
    for cr in data.visible():
        for r, f in _judged(cr.run):
            if r.kernel == "matmul" and r.metric == "flops" and r.size and r.stats and _good(r, f) and r.stats.q1 > 0:
                out[(cr.index, r.device, r.backend, r.dtype)].append((r.size, r.stats.q1, r.stats.q3))
    return {k: sorted(v) for k, v in out.items()}


def matmul_flagged(data: ChartData) -> dict[tuple[int, str, str, str | None], list[tuple[int, float, str]]]:
    """(run index, device key, backend, dtype) -> [(size, FLOP/s, why)] of flagged matmul results (drawn hollow)."""
    out: dict[tuple[int, str, str, str | None], list[tuple[int, float, str]]] = defaultdict(list)
    for cr in data.visible():
        for r, f in _judged(cr.run):
            if r.kernel == "matmul" and r.metric == "flops" and r.size and _drawable(r) and f.flagged:
                out[(cr.index, r.device, r.backend, r.dtype)].append((r.size, r.measured, f.short()))
    return {k: sorted(v) for k, v in out.items()}


def bandwidth_bars(data: ChartData) -> tuple[list[str], dict[tuple[int, str, str], dict[str, float]]]:
    """(categories, series): best B/s per (run, device, backend) and kernel variant ('copy', 'transfer h2d-pinned')."""
    return _bandwidth(data, flagged=False)


def bandwidth_flagged(data: ChartData) -> tuple[list[str], dict[tuple[int, str, str], dict[str, float]]]:
    """Like bandwidth_bars, over the flagged points only (drawn as hollow bars)."""
    return _bandwidth(data, flagged=True)


def _bandwidth(data: ChartData, flagged: bool) -> tuple[list[str], dict[tuple[int, str, str], dict[str, float]]]:
    cats: list[str] = []
    series: dict[tuple[int, str, str], dict[str, float]] = defaultdict(dict)
    for cr in data.visible():
        for r, f in _judged(cr.run):
            if r.metric != "bytes_per_s" or not _drawable(r) or not (f.flagged if flagged else _good(r, f)):
                continue
            cat = f"{r.kernel} {r.variant}" if r.variant else r.kernel
            if cat not in cats:
                cats.append(cat)
            key = (cr.index, r.device, r.backend)
            series[key][cat] = max(series[key].get(cat, 0.0), r.measured)
    return sort_categories(cats), dict(series)


def sort_categories(cats: Iterable[str]) -> list[str]:
    """Bandwidth categories in the chart's order: the bandwidth kernels as the registry lists them (copy, triad,
    transfer, collective), then the rest."""
    order = {k: i for i, k in enumerate(k for k, s in KERNEL_SPECS.items() if s.metric == "bytes_per_s")}
    return sorted(cats, key=lambda c: (order.get(c.split(" ")[0], 9), c))


def bar_point_infos(
    cr: ChartRun, key: tuple[int, str, str], cats: list[str], hs: list[float]
) -> list[PointInfo | None]:
    """The hover data of the bars of one (run, device, backend): the result each bar (category, height) shows."""
    infos: list[PointInfo | None] = []
    for cat, h in zip(cats, hs):
        found = None
        for r, f in _judged(cr.run):
            name = f"{r.kernel} {r.variant}" if r.variant else r.kernel
            if (
                (r.device, r.backend) == key[1:]
                and name == cat
                and r.metric == "bytes_per_s"
                and _drawable(r)
                and r.measured == h
            ):
                found = point_info(cr, r, f)
                break
        infos.append(found)
    return infos


#: The collectives a run across processes measures, in the order the chart offers them.
COLLECTIVE_OPS = {"all_reduce": "all-reduce", "all_gather": "all-gather", "reduce_scatter": "reduce-scatter"}


def collective_infos(
    cr: ChartRun, op: str, key: tuple[int, str, int, int, str, str | None], pts: list[tuple[int, float]]
) -> list[PointInfo | None]:
    """The hover data of one collective series' points (from collective_series), with the bus bandwidth line."""
    _run_i, _engine, ranks, hosts, _transport, _dtype = key
    where = ranks_words(ranks, hosts)
    found = {}
    for r, f in _judged(cr.run):
        c = r.collective
        if (
            r.kernel == "collective"
            and c is not None
            and c.op == op
            and (r.backend, c.ranks, c.hosts, c.transport, r.dtype) == key[1:]
        ):
            found[(r.size, float(c.busbw))] = point_info(cr, r, f)
    return [
        replace(
            found[p], extra=_text("charts.readout.bus_bandwidth", value=format_value(p[1], "bytes_per_s"), where=where)
        )
        if p in found
        else None
        for p in pts
    ]


def ranks_words(ranks: int, hosts: int) -> str:
    """'2 ranks on 1 host', '16 ranks on 2 hosts' in the language in use."""
    key = "charts.readout.ranks_hosts" if hosts > 1 else "charts.readout.ranks_one_host"
    return _text(key, ranks=ranks, hosts=hosts)


def collective_series(
    data: ChartData, op: str, flagged: bool = False
) -> dict[tuple[int, str, int, int, str, str | None], list[tuple[int, float]]]:
    """(run index, engine, ranks, hosts, transport, dtype) -> sorted [(message bytes, bus bandwidth B/s)] for `op`:
    the trusted points, or with `flagged` the measured points the trust rule flags (drawn hollow)."""
    out: dict[tuple[int, str, int, int, str, str | None], list[tuple[int, float]]] = defaultdict(list)
    for cr in data.visible():
        for r, f in _judged(cr.run):
            c = r.collective
            keep = (_drawable(r) and f.flagged) if flagged else _good(r, f)
            if r.kernel == "collective" and c is not None and c.op == op and r.size and keep and c.busbw > 0:
                out[(cr.index, r.backend, c.ranks, c.hosts, c.transport, r.dtype)].append((r.size, float(c.busbw)))
    return {k: sorted(v) for k, v in out.items()}


@dataclass(frozen=True)
class PointInfo:
    """What a hover over one drawn point reads out: the result itself (with its stats), its series and run,
    and why it is not trusted (empty when it is)."""

    series: str
    result: ProbeResult
    why: str = ""
    functional_check: bool = False
    extra: str = ""  # a line of its own, e.g. the bus bandwidth a collective point is drawn at


def point_info(cr: ChartRun, r: ProbeResult, f: Flags) -> PointInfo:
    """The hover data of one result of one run."""
    series = f"{cr.run.device_name(r.device)} · {r.backend} [{cr.label}]"
    return PointInfo(series, r, f.shown_note() if f.flagged else "", is_functional_check(cr.run))


def _cv_text(stats: Any) -> str:
    """The CV of a point's repetitions; with one repetition there is no spread to measure."""
    if stats is None:
        return MISSING
    if stats.reps < 2:
        return _text("charts.readout.cv_one_rep", missing=MISSING)
    return format_pct(100 * stats.cv)


def point_readout(info: PointInfo) -> str:
    """A point's hover text, plain: series, kernel, value, size, dtype, CV and repetitions from the run file's
    stats, and whether it is trusted."""
    r = info.result
    stats = r.stats
    lines = [
        info.series,
        f"{kernel_name(r.kernel)} {r.variant}" if r.variant else kernel_name(r.kernel),
        _text(
            "charts.readout.value_median" if stats is not None else "charts.readout.value",
            value=format_value(r.value, r.metric),
        ),
        _text("charts.readout.size", size=size_words(r.kernel, r.size) or MISSING),
        _text("charts.readout.dtype", dtype=r.dtype or MISSING),
        _text("charts.readout.cv", cv=_cv_text(stats)),
        _text("charts.readout.reps", reps=stats.reps if stats is not None else MISSING),
    ]
    if info.extra:
        lines.insert(3, info.extra)
    if info.why:
        lines.append(_text("charts.readout.not_trusted", why=info.why))
    if info.functional_check:
        lines.append(functional_check())
    return "\n".join(lines)


def point_infos(data: ChartData) -> dict[tuple[int, str, str, str | None, str, int | None, float], PointInfo]:
    """(run index, device, backend, dtype, kernel, size, value) -> PointInfo of every drawable point."""
    out: dict[tuple[int, str, str, str | None, str, int | None, float], PointInfo] = {}
    for cr in data.visible():
        for r, f in _judged(cr.run):
            if _drawable(r):
                out[(cr.index, r.device, r.backend, r.dtype, r.kernel, r.size, r.measured)] = point_info(cr, r, f)
    return out


@dataclass(frozen=True)
class Ceiling:
    """A roofline: compute peak (FLOP/s) and memory bandwidth (B/s); either may be unknown."""

    label: str
    peak_flops: float | None
    mem_bw: float | None
    measured: bool


def measured_ceilings(data: ChartData, dtype: str) -> dict[tuple[int, str, str], Ceiling]:
    """Best measured matmul (this dtype) and best copy/triad bandwidth per (run, device, backend)."""
    best_f: dict[tuple[int, str, str], float] = {}
    best_b: dict[tuple[int, str, str], float] = {}
    labels: dict[tuple[int, str, str], str] = {}
    for cr in data.visible():
        for r, f in _judged(cr.run):
            if not _good(r, f):
                continue
            key = (cr.index, r.device, r.backend)
            labels[key] = f"{cr.run.device_name(r.device)} · {r.backend}"
            if r.kernel == "matmul" and r.metric == "flops" and r.dtype == dtype:
                best_f[key] = max(best_f.get(key, 0.0), r.measured)
            elif r.kernel in MEMORY_KERNELS and r.metric == "bytes_per_s":
                best_b[key] = max(best_b.get(key, 0.0), r.measured)
    keys = [k for k in labels if k in best_f or k in best_b]
    return {k: Ceiling(labels[k], best_f.get(k), best_b.get(k), True) for k in keys}


def roofline_segments(
    c: Ceiling, x_min: float, x_max: float, y_cap: float | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The roofline min(peak, bw·I) between intensities x_min..x_max, as log10 x and log10 y arrays.

    A ceiling without a compute peak is only a bandwidth slope; it stops at `y_cap` (a FLOP/s
    value, e.g. the highest peak drawn) rather than suggesting an unlimited roof.
    """
    lx0, lx1 = math.log10(x_min), math.log10(x_max)
    if not c.peak_flops and c.mem_bw and y_cap:
        lx1 = max(lx0, min(lx1, math.log10(y_cap) - math.log10(c.mem_bw)))
    if c.peak_flops and c.mem_bw:
        ridge = math.log10(c.peak_flops / c.mem_bw)
        xs = [lx0, min(max(ridge, lx0), lx1), lx1]
        ys = [min(math.log10(c.mem_bw) + x, math.log10(c.peak_flops)) for x in xs]
        return np.array(xs), np.array(ys)
    if c.peak_flops:
        return np.array([lx0, lx1]), np.array([math.log10(c.peak_flops)] * 2)
    if c.mem_bw:
        return np.array([lx0, lx1]), np.array([math.log10(c.mem_bw) + lx0, math.log10(c.mem_bw) + lx1])
    return np.array([]), np.array([])


def roofline_points(
    cr: ChartRun, device: str, dtype: str, hollow: bool, backend: str | None = None
) -> list[tuple[float, float, PointInfo]]:
    """(intensity, FLOP/s, hover data) of one run's matmul points of `dtype` on `device` (and `backend`, when
    given): the trusted ones (they build the compute roof), or with `hollow` the flagged ones (never a ceiling)."""
    return [
        (matmul_intensity(r.size, r.dtype), r.measured, point_info(cr, r, f))
        for r, f in _judged(cr.run)
        if r.kernel == "matmul"
        and r.dtype == dtype
        and r.device == device
        and (backend is None or r.backend == backend)
        and r.size
        and (_drawable(r) and f.flagged if hollow else _good(r, f))
    ]


def roofline_untrusted_only(
    data: ChartData, dtype: str, measured: dict[tuple[int, str, str], Ceiling]
) -> dict[tuple[int, str, str], str]:
    """(run, device, backend) -> label of each device with flagged matmul points of `dtype` and no measured
    roof: its points are still drawn (hollow) and listed."""
    out: dict[tuple[int, str, str], str] = {}
    for cr in data.visible():
        for r, f in _judged(cr.run):
            key = (cr.index, r.device, r.backend)
            if (
                r.kernel == "matmul"
                and r.dtype == dtype
                and r.size
                and _drawable(r)
                and f.flagged
                and key not in measured
            ):
                out[key] = _text("charts.readout.no_roof", label=f"{cr.run.device_name(r.device)} · {r.backend}")
    return out


def roofline_has_flagged(data: ChartData, dtype: str) -> bool:
    """True when any shown run has a flagged matmul point of `dtype` (drawn hollow)."""
    return any(
        r.kernel == "matmul" and r.dtype == dtype and r.size and _drawable(r) and f.flagged
        for cr in data.visible()
        for r, f in _judged(cr.run)
    )


def compile_rows(data: ChartData) -> list[tuple[str, dict[str, float]]]:
    """One row per (run, device, dtype, size) of JAX compile results: label -> {phase: seconds}."""
    rows: dict[tuple[int, str, str | None, int | None], dict[str, float]] = {}
    labels: dict[tuple[int, str, str | None, int | None], str] = {}
    for cr in data.visible():
        for r in cr.run.results:
            if r.kernel != "compile" or r.metric != "seconds" or not _usable(r) or not r.variant:
                continue
            key = (cr.index, r.device, r.dtype, r.size)
            rows.setdefault(key, {})[r.variant] = r.measured
            bits = [cr.run.device_name(r.device), r.backend, r.dtype or "", str(r.size) if r.size else ""]
            labels[key] = " · ".join(b for b in bits if b)
            if len(data.visible()) > 1:
                labels[key] += f"  [{cr.label}]"
    return [(labels[k], rows[k]) for k in rows]


def phase_order(phases: Iterable[str]) -> list[str]:
    """Compile phases in the order they happen; unknown ones last, alphabetically."""
    known = [p for p in COMPILE_PHASES if p in phases]
    return known + sorted(p for p in phases if p not in COMPILE_PHASES)


def waterfall_segments(times: dict[str, float]) -> list[tuple[str, float, float]]:
    """(phase, start, duration) laid end to end.

    The first call of a new jitted function includes its trace, lower and compile, which are also
    measured on their own: those are drawn first, then what is left of the first call ("run"),
    then one steady call. Without a first-call figure the measured phases are simply stacked.
    The cold first call (the first in its worker, before XLA's caches were warm) is a figure of
    its own, written in the row's text and not stacked with the warm phases.
    """
    segs: list[tuple[str, float, float]] = []
    t = 0.0
    parts = [p for p in ("trace", "lower", "compile") if p in times]
    for p in parts:
        segs.append((p, t, times[p]))
        t += times[p]
    if "first_call" in times:
        rest = times["first_call"] - t
        if rest > 0:
            segs.append(("run", t, rest))
            t += rest
    for phase in phase_order(times):
        if phase in ("trace", "lower", "compile", "first_call", "first_call_cold"):
            continue
        segs.append((phase, t, times[phase]))
        t += times[phase]
    return segs


def catalogue_ceiling(chip: Any, dtype: str) -> Ceiling:
    """A catalogue chip's published dense peak for `dtype` and its memory bandwidth, in SI units."""
    return Ceiling(chip.name, chip.peak_flops(dtype), chip.mem_bw_bytes_per_s(), False)


def bytes_label(value: float) -> str:
    """4096 -> '4 KiB', 67108864 -> '64 MiB' (axis ticks of the collective chart)."""
    for unit, scale in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if value >= scale * 0.999:
            return f"{value / scale:.3g} {unit}"
    return f"{value:.0f} B"


#: The result statuses an empty chart names (their words: charts.status.<status>).
STATUS_WORDS = ("skipped", "error", "timeout", "suspect")
#: A CJK character or a full-width punctuation mark: text with them wraps between any two characters.
_CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")
#: Marks that never start a line (they stay with the character before them).
_NO_LINE_START = "，。、：；！？）」』》】,.:;!?)…"


def _width(s: str) -> int:
    """Columns a text takes: a CJK character counts two."""
    return sum(2 if _CJK.match(c) else 1 for c in s)


def wrap_text(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` columns: at spaces (never inside a word or at a hyphen), and for
    Chinese text between any two characters too (never before a closing mark)."""
    if not _CJK.search(text):
        return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)
    # tokens: one CJK character with the closing marks after it, a run of other characters, or spaces
    tokens = re.findall(rf"{_CJK.pattern}[{_NO_LINE_START}]*|[^\s\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]+|\s+", text)
    lines: list[str] = []
    line = ""
    for tok in tokens:
        if line and not tok.isspace() and _width(line.rstrip() + tok) > width:
            lines.append(line.rstrip())
            line = ""
        if tok.isspace() and not line:
            continue
        line += tok
    if line.strip():
        lines.append(line.rstrip())
    return lines


def empty_reason(data: ChartData, kernels: tuple[str, ...], what: str, hint: str, backend: str | None = None) -> str:
    """Why a chart of `kernels` has nothing to draw, from the shown runs themselves: no run yet, the backend it
    needs was not available (its reason), or the points were skipped or failed (their own messages); wrapped
    to lines that fit a plot."""
    shown = data.visible()
    if not shown:
        text = _text("charts.empty.nothing_yet", what=what, hint=hint)
    else:
        notes: list[str] = []
        for cr in shown:
            for r in cr.run.results:
                wanted = backend is None or r.backend == backend
                if wanted and r.kernel in kernels and r.status in STATUS_WORDS and r.status != "suspect":
                    status = _text(f"charts.status.{r.status}")
                    if r.message:
                        said = result_message(r)
                        note = _text("charts.empty.note_message", backend=r.backend, status=status, message=said)
                    else:
                        note = _text("charts.empty.note", backend=r.backend, status=status)
                    if note not in notes:
                        notes.append(note)
        statuses = [b for cr in shown for b in cr.run.backends if backend is None or b.backend == backend]
        if notes:
            listed = _text("charts.separator").join(notes[:3]) + (_text("charts.rest") if len(notes) > 3 else "")
            text = _text("charts.empty.failed", what=what, notes=listed)
        elif backend is not None and not any(b.available for b in statuses):
            why = next((reason_text(b) for b in statuses if b.reason), None)
            if why:
                text = _text("charts.empty.no_backend_why", what=what, backend=backend, why=why)
            else:
                text = _text("charts.empty.no_backend", what=what, backend=backend)
        else:
            text = _text("charts.empty.not_included", what=what, hint=hint)
    return "\n".join(wrap_text(text, 72))
