"""Units, number formatting and the words the CLI, the window and the report share.

One place decides how a rate, a time, a size or a missing value reads, and what an estimate
row or the verdict says, so the three front ends never disagree. Pure Python: no Qt.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gpu_tpu_app.core.decision import QUESTIONS, Recommendation, has_verdict
from gpu_tpu_app.core.terms import FUNCTIONAL_CHECK  # noqa: F401  (re-exported)
from gpu_tpu_app.core.units import (  # noqa: F401  (the numbers live there, for the worker too; re-exported)
    MISSING,
    _known,
    compact,
    format_pct,
    format_seconds,
    format_size,
    format_value,
)

if TYPE_CHECKING:  # pragma: no cover
    from gpu_tpu_app.core.estimate import Estimate, EstimateRow  # estimate imports this module


SECONDS_PER_DAY = 86_400.0
DAYS_PER_YEAR = 365.25


def binary_count(n: int) -> str:
    """A power-of-two-ish count with a binary prefix: 536870912 -> '512 Mi', 1536 -> '1.5 Ki', 1000 -> '1000'."""
    for factor, prefix in ((1 << 40, "Ti"), (1 << 30, "Gi"), (1 << 20, "Mi"), (1 << 10, "Ki")):
        if n >= factor and (n * 4) % factor == 0:
            return f"{n / factor:g} {prefix}"
    return str(n)


def point_words(kernel: str, variant: str | None = None, dtype: str | None = None, size: int | None = None) -> str:
    """A probe point as people read it: 'copy float32 512 Mi elements', 'matmul bfloat16 4096×4096',
    'transfer h2d-pinned 256 MiB', 'model_step b8-s256-d512-h8'."""
    parts = [kernel, variant, dtype]
    if size is not None:
        if kernel in ("matmul", "compile"):
            parts.append(f"{size}×{size}")
        elif kernel in ("copy", "triad", "dispatch"):
            parts.append(f"{binary_count(size)} element{'' if size == 1 else 's'}")
        elif kernel in ("transfer", "collective"):
            parts.append(f"{binary_count(size)}B" if binary_count(size) != str(size) else f"{size} B")
        elif kernel == "model_step" and variant:
            pass  # the variant already names the block's shape, d_model included
        else:
            parts.append(str(size))
    return " ".join(p for p in parts if p)


def format_eta(seconds: float | None) -> str:
    """Time left in whole seconds: 'ETA 42 s'; '' when unknown."""
    if seconds is None or not math.isfinite(seconds):
        return ""
    return f"ETA {max(0, round(seconds))} s"


def tflops(flops: float | None) -> str:
    """FLOP/s as TFLOP/s for tables: '2,307 TFLOP/s', '91.9 TFLOP/s', '0.279 TFLOP/s'."""
    if flops is None or not _known(flops):
        return MISSING
    t = float(flops) / 1e12
    return f"{t:,.0f} TFLOP/s" if t >= 100 else f"{t:.3g} TFLOP/s"


def format_quantity(value: float) -> str:
    """A count of parameters or tokens: 7e9 -> '7B', 1.4e11 -> '140B', 2.5e12 -> '2.5T'; plain below a thousand."""
    for suffix, scale in (("P", 1e15), ("T", 1e12), ("B", 1e9), ("M", 1e6), ("K", 1e3)):
        if abs(value) >= scale:
            return f"{value / scale:.4g}{suffix}"
    return f"{value:.4g}"


def _plural(value: float, unit: str) -> str:
    text = f"{value:.3g}"
    return f"{text} {unit}" if text == "1" else f"{text} {unit}s"


def format_duration(days: float | None) -> str:
    """A time for people: seconds, minutes or hours under a day, days under a year, then years."""
    if days is None or not math.isfinite(days):
        return MISSING
    seconds = days * SECONDS_PER_DAY
    if seconds < 60:
        return f"{seconds:.3g} s"
    if seconds < 3600:
        return f"{seconds / 60:.3g} min"
    if days < 1:
        return _plural(seconds / 3600, "hour")
    if days < DAYS_PER_YEAR:
        return _plural(days, "day")
    years = days / DAYS_PER_YEAR
    return _plural(years, "year") if years < 1e6 else f"{years:.2e} years"


def format_bytes(value: float | None) -> str:
    """Bytes in decimal units: '112 GB', '5.1 TB'."""
    if value is None or not math.isfinite(value):
        return MISSING
    for suffix, scale in (("PB", 1e15), ("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if value >= scale:
            return f"{value / scale:.3g} {suffix}"
    return f"{value:.0f} B"


def format_usd(value: float | None) -> str:
    """A cost in US dollars: '$1,234', '$0.42'; empty when there is none."""
    if value is None:
        return ""
    return f"${value:,.0f}" if value >= 100 else f"${value:,.2f}"


# ---------------------------------------------------------------- the verdict

HEADLINES: dict[str, str] = {
    "gpu": "The workshop: GPUs fit this work better",
    "tpu": "The factory line: TPUs fit this work better",
    "either": "Either can work: the answers do not lean clearly",
}
VERDICT_WORDS: dict[str, str] = {"gpu": "GPU", "tpu": "TPU", "either": "Either"}


def verdict_summary(rec: Recommendation) -> str:
    """The verdict's score, confidence and answered questions in one sentence (window and report)."""
    answered = len(QUESTIONS) - len(rec.unanswered)
    summary = (
        f"Score {rec.score:+.2f} on a scale from −1 (workshop) to +1 (factory line); "
        f"confidence {rec.confidence}; "
        f"{answered} of {len(QUESTIONS)} questions answered."
    )
    if rec.blockers:
        summary = "A hard constraint decides this on its own. " + summary
    return summary


def verdict_words(rec: Recommendation) -> str:
    """The verdict and its confidence in a few words: 'GPU, high confidence', or 'no verdict yet'."""
    if not has_verdict(rec):
        return "no verdict yet"
    return f"{VERDICT_WORDS[rec.verdict]}, {rec.confidence} confidence"


def verdict_change(before: Recommendation, after: Recommendation) -> str:
    """What a change of answers did to the verdict, in one sentence."""
    old, new = verdict_words(before), verdict_words(after)
    if old == new:
        return f"Verdict unchanged: {new}."
    return f"Verdict changed: {old} → {new}."


# ---------------------------------------------------------------- estimate rows

#: A probed device's row is "measured" everywhere (window, report, CLI): its run may come from another machine.
FAMILY_WORDS: dict[str, str] = {"gpu": "GPU", "tpu": "TPU", "measured": "measured"}
FITS_WORDS: dict[bool | None, str] = {True: "fits", False: "does not fit", None: MISSING}


@dataclass(frozen=True)
class EstimateCells:
    """One estimate row as text, the same in the window's table, the report and the CLI."""

    chip: str
    kind: str  # "GPU", "TPU", "measured"
    peak: str  # "989 TFLOP/s bfloat16"
    mfu: str  # "0.38-0.48", or one number when the range is a point
    time: str  # "2.41 days - 3.05 days", or one time when the range collapses (memory-bound steps)
    bound: str  # "compute", "memory", or MISSING
    fits: str  # "fits", "does not fit", or MISSING
    needed: str  # memory one model copy needs (training: the whole sharded state)
    available: str  # memory on the chips one copy uses
    chips_per_copy: str  # "1", "2", or MISSING
    cost: str  # "$1,234", or "" without a price
    memory: str = MISSING  # "34 GB / 80 GB": needed by one copy / held by the chips it uses
    memory_fit: str = MISSING  # the same, with ", does not fit" where it does not


def time_range(low: float | None, mid: float | None, high: float | None) -> str:
    """A time with its range: '2.41 days - 3.05 days', one time when both ends read the same."""
    if mid is None or not math.isfinite(mid):
        return MISSING
    if low is None or high is None or format_duration(low) == format_duration(high):
        return format_duration(mid)
    return f"{format_duration(low)} - {format_duration(high)}"


def estimate_cells(row: EstimateRow) -> EstimateCells:
    """The words and numbers of one estimate row."""
    peak = tflops(row.peak_flops)
    if row.peak_dtype and row.peak_dtype != "measured" and _known(row.peak_flops):
        peak += f" {row.peak_dtype}"
    low, high = row.mfu_low, row.mfu_high
    memory = f"{format_bytes(row.memory_needed_bytes)} / {format_bytes(row.memory_available_bytes)}"
    mfu = f"{low:.2f}" if f"{low:.2f}" == f"{high:.2f}" else f"{low:.2f}-{high:.2f}"
    return EstimateCells(
        chip=row.chip_name,
        kind=FAMILY_WORDS.get(row.family, row.family),
        peak=peak,
        mfu=mfu,
        time=time_range(row.days_low, row.days, row.days_high),
        bound=row.bound or MISSING,
        fits=FITS_WORDS[row.fits],
        needed=format_bytes(row.memory_needed_bytes),
        available=format_bytes(row.memory_available_bytes),
        chips_per_copy=MISSING if row.chips_per_copy is None else str(row.chips_per_copy),
        cost=format_usd(row.cost_usd),
        memory=memory,
        memory_fit=memory + (f", {FITS_WORDS[False]}" if row.fits is False else ""),
    )


#: What the memory column holds, said the same way in the window, the report and the CLI.
MEMORY_HEADER = "Memory needed / available"
#: How memory figures are counted, stated wherever they show (window, report, CLI).
MEMORY_UNITS_NOTE = (
    "memory in decimal GB (1 GB = 10^9 bytes, as GPU vendors publish it); figures published in GiB "
    "(1 GiB = 2^30 bytes = 1.074 GB, as Google does for TPUs) are converted, so 16 GiB reads 17.2 GB"
)


def memory_tip(row: EstimateRow, training: bool) -> str:
    """One row's memory in words: what is needed, what one chip holds (as published), what is available."""
    chip = format_bytes(row.chip_memory_bytes)
    if row.chip_memory_stated and not row.chip_memory_stated.endswith(" GB"):
        chip += f" ({row.chip_memory_stated} as published)"
    n = row.chips_per_copy
    if training:
        text = (
            f"Needed / available: the training state needs {format_bytes(row.memory_needed_bytes)}, sharded "
            f"over {n if n else MISSING} chip{'' if n == 1 else 's'}; the chips given hold "
            f"{format_bytes(row.memory_available_bytes)}; one {row.chip_name} holds {chip}."
        )
    else:
        where = f"the {n} chips one copy uses hold" if n and n > 1 else "the chip one copy uses holds"
        text = (
            f"Needed / available: one model copy needs {format_bytes(row.memory_needed_bytes)}; {where} "
            f"{format_bytes(row.memory_available_bytes)}; one {row.chip_name} holds {chip}."
        )
    if row.fits is not None:
        text += " It fits." if row.fits else " It does not fit in the chips given."
    return text + " GB = 10^9 bytes."


def estimate_inputs(result: Estimate) -> str:
    """Every input the estimate used, defaults included and said to be defaults, in one sentence."""
    req = result.request
    parts = [f"{format_quantity(req.params)} parameters"]
    if req.mode == "training":
        default = (
            " (default: 20 per parameter, compute-optimal; modern runs train on 10-100x more)"
            if result.tokens_default
            else ""
        )
        parts.append(f"{format_quantity(result.tokens)} training tokens{default}")
    else:
        parts.append(f"{format_quantity(result.tokens)} tokens to generate")
        parts.append(f"{format_quantity(result.prompt_tokens or 0)} prompt tokens to prefill")
        parts.append(f"batch {result.batch} per model copy")
        parts.append(f"{req.dtype} weights and KV cache")
    if result.context is not None:
        parts.append(f"context {result.context}")
    if result.shape is not None:
        sh = result.shape
        parts.append(
            f"shape {sh.layers} layers x width {sh.width}, {sh.heads} heads, {sh.kv_heads} KV heads ({sh.origin})"
        )
    parts.append(f"{req.chips} chip{'s' if req.chips != 1 else ''} of each kind")
    return "; ".join(parts)


def estimate_warnings(result: Estimate) -> list[str]:
    """Each row's warnings as one line naming the chip."""
    return [f"{row.chip_name}: {w}." for row in result.rows for w in row.warnings]
