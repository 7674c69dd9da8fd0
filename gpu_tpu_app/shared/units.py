"""How a probe number reads: rates, times, percentages and sizes in SI units.

Standard library only, so the probe worker (which may run in the user's own interpreter) words
its messages the same way as the CLI, the window and the report; core.wording re-exports these.
"""

from __future__ import annotations

import math

#: What every front end shows where a value is unknown or was not measured.
MISSING = "–"

SECONDS_PER_DAY = 86_400.0
DAYS_PER_YEAR = 365.25


_SI = ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"))
_METRIC_UNIT = {"flops": "FLOP/s", "bytes_per_s": "B/s"}


def _known(value: float | None) -> bool:
    return value is not None and math.isfinite(value)


# ---------------------------------------------------------------- numbers


def format_seconds(value: float | None) -> str:
    """Seconds with a readable unit: '1.74 s', '12.3 ms', '38.2 µs', '410 ns'."""
    if value is None or not math.isfinite(value):
        return MISSING
    v = abs(value)
    if v >= 1000.0:
        return f"{plain_number(value)} s"
    if v >= 1.0:
        return f"{value:.3g} s"
    if v >= 1e-3:
        return f"{value * 1e3:.3g} ms"
    if v >= 1e-6:
        return f"{value * 1e6:.3g} µs"
    return f"{value * 1e9:.3g} ns"


def format_value(value: float | None, metric: str) -> str:
    """A probe value in SI units as people read it: '312 GFLOP/s', '27.9 GB/s', '1.74 s', '38.2 µs'."""
    if value is None or not math.isfinite(value):
        return MISSING
    if metric == "seconds":
        return format_seconds(value)
    unit = _METRIC_UNIT.get(metric)
    if unit is None:
        return plain_number(value, 4)
    for factor, prefix in _SI:
        if abs(value) >= factor:
            return f"{value / factor:.3g} {prefix}{unit}"
    return f"{value:.3g} {unit}"


def format_pct(value: float | None) -> str:
    """A percentage with sensible precision: '87 %', '4.2 %'."""
    if value is None or not math.isfinite(value):
        return MISSING
    return f"{value:.0f} %" if value >= 10 else f"{value:.1f} %"


def compact(value: float, unit: str = "") -> str:
    """Compact SI label, e.g. for axis ticks: 312G, 1.5T, 0.25 (from 10^18 on: '6.33 × 10²¹')."""
    if abs(value) >= 1e18:
        return f"{plain_number(value)}{unit}"
    for factor, prefix in _SI:
        if abs(value) >= factor:
            return f"{value / factor:.3g}{prefix}{unit}"
    if abs(value) >= 1 or value == 0:
        return f"{value:g}{unit}"
    return f"{value:.3g}{unit}"


def format_size(size: int | None) -> str:
    """A probe point's size: matrix sizes as they are (4096), element or byte counts compactly (1.05M)."""
    if size is None:
        return MISSING
    if size < 100_000:
        return str(size)
    for factor, prefix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if size >= factor:
            return f"{size / factor:.3g}{prefix}"
    return str(size)


def binary_count(n: int) -> str:
    """A power-of-two-ish count with a binary prefix: 536870912 -> '512 Mi', 1536 -> '1.5 Ki', 1000 -> '1000'."""
    for factor, prefix in ((1 << 40, "Ti"), (1 << 30, "Gi"), (1 << 20, "Mi"), (1 << 10, "Ki")):
        if n >= factor and (n * 4) % factor == 0:
            return f"{n / factor:g} {prefix}"
    return str(n)


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def plain_number(value: float | None, digits: int = 3) -> str:
    """A number as people write it, never in e-notation: 12,400 and 0.00123 (to `digits` significant
    digits, thousands separated); from 10^15 on, as a power of ten: '6.33 × 10²¹'."""
    if value is None or not math.isfinite(value):
        return MISSING
    if value == 0:
        return "0"
    exp = math.floor(math.log10(abs(value)))
    if exp >= 15:
        mantissa = f"{value / 10**exp:.{digits - 1}f}".rstrip("0").rstrip(".")
        if mantissa in ("10", "-10"):
            mantissa, exp = mantissa[:-1], exp + 1
        return f"{mantissa} × 10{str(exp).translate(_SUPERSCRIPT)}"
    rounded = round(value, digits - 1 - exp)
    if exp >= digits - 1:
        return f"{rounded:,.0f}"
    return f"{rounded:,.{digits - 1 - exp}f}".rstrip("0").rstrip(".")


def count_words(n: int, singular: str, plural: str | None = None) -> str:
    """'1 operator', '3 operators' (never 'operator(s)')."""
    return f"{n} {singular if n == 1 else plural or singular + 's'}"


def clip_words(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters at a space, never inside a word, with '…' where it was cut."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:") + "…"
