"""How every number reads: rates, times, sizes, counts, durations, bytes and prices.

One place decides how a number or a missing value reads, so the CLI, the window and the report
never disagree; the words around them (units spelled out, plurals, build names) are in
resources/text/wording.<language>.toml, in the language in use. The worker-safe part lives in core.units (re-exported here); the verdict's words
are core.verdict_text, an estimate row's core.estimate_text, a point's size core.terms.size_words.
Pure Python: no Qt.
"""

from __future__ import annotations

import math

from gpu_tpu_app.core.texts import text
from gpu_tpu_app.shared.terms import FUNCTIONAL_CHECK  # noqa: F401  (re-exported)
from gpu_tpu_app.shared.units import (  # noqa: F401  (the numbers live there, for the worker too; re-exported)
    DAYS_PER_YEAR,
    MISSING,
    SECONDS_PER_DAY,
    _known,
    binary_count,
    compact,
    format_pct,
    format_seconds,
    format_size,
    format_value,
    plain_number,
)


def format_eta(seconds: float | None) -> str:
    """Time left in whole seconds: 'ETA 42 s'; '' when unknown."""
    if seconds is None or not math.isfinite(seconds):
        return ""
    return text("wording.eta", n=max(0, round(seconds)))


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
    shown = plain_number(value)
    return text(f"wording.duration.{unit}_one" if shown == "1" else f"wording.duration.{unit}s", n=shown)


def format_duration(days: float | None) -> str:
    """A time for people: seconds, minutes or hours under a day, days under a year, then years."""
    if days is None or not math.isfinite(days):
        return MISSING
    seconds = days * SECONDS_PER_DAY
    if seconds < 60:
        return text("wording.duration.seconds", n=f"{seconds:.3g}")
    if seconds < 3600:
        return text("wording.duration.minutes", n=f"{seconds / 60:.3g}")
    if days < 1:
        return _plural(seconds / 3600, "hour")
    if days < DAYS_PER_YEAR:
        return _plural(days, "day")
    years = days / DAYS_PER_YEAR
    return _plural(years, "year")


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


def version_words(version: str) -> str:
    """A framework version as people read it: '2.13.0+cpu' -> '2.13.0 (CPU-only build)', '2.5.1+cu124' ->
    '2.5.1 (CUDA 12.4 build)', '2.4.0+rocm6.1' -> '2.4.0 (ROCm 6.1 build)'; others unchanged."""
    base, plus, local = version.partition("+")
    if not plus:
        return version
    if local == "cpu":
        return text("wording.build.cpu", version=base)
    if local.startswith("cu") and local[2:].isdigit() and len(local) >= 4:
        digits = local[2:]
        return text("wording.build.cuda", version=base, cuda=f"{digits[:-1]}.{digits[-1]}")
    if local.startswith("rocm"):
        return text("wording.build.rocm", version=base, rocm=local[4:])
    return text("wording.build.other", version=base, local=local)
