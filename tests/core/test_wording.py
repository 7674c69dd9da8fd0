"""Numbers (core.wording): one format per kind of value, one mark for a missing one."""

from __future__ import annotations

import math

import pytest

from gpu_tpu_app.core.wording import (
    MISSING,
    compact,
    format_bytes,
    format_duration,
    format_pct,
    format_quantity,
    format_size,
    format_value,
    tflops,
)


def test_format_value_uses_decimal_prefixes() -> None:
    assert format_value(2.51e11, "flops") == "251 GFLOP/s"
    assert format_value(1.43e12, "flops") == "1.43 TFLOP/s"
    assert format_value(2.81e10, "bytes_per_s") == "28.1 GB/s"
    assert format_value(0.5, "bytes_per_s") == "0.5 B/s"
    assert format_value(1.23e-5, "seconds") == "12.3 µs"
    assert format_value(1.7, "seconds") == "1.7 s"
    assert format_value(4.1e-7, "seconds") == "410 ns"


@pytest.mark.parametrize("value", [None, math.nan, math.inf])
def test_every_format_shows_a_missing_value_the_same_way(value: float | None) -> None:
    for text in (
        format_value(value, "flops"),
        format_value(value, "seconds"),
        format_pct(value),
        tflops(value),
        format_duration(value),
        format_bytes(value),
    ):
        assert text == MISSING
    assert format_size(None) == MISSING


def test_compact_labels_and_sizes() -> None:
    assert [compact(v) for v in (3.12e11, 1.5e12, 0.25, 0, 7)] == ["312G", "1.5T", "0.25", "0", "7"]
    assert compact(2e9, "B/s") == "2GB/s"
    assert [format_size(s) for s in (4096, 1_048_576, 268_435_456)] == ["4096", "1.05M", "268M"]
    assert [format_pct(v) for v in (87.4, 4.23)] == ["87 %", "4.2 %"]
    assert [tflops(v) for v in (2.3071e15, 9.19e13, 2.79e11)] == ["2,307 TFLOP/s", "91.9 TFLOP/s", "0.279 TFLOP/s"]
    assert [format_quantity(v) for v in (7e9, 1.4e11, 2.5e12, 512)] == ["7B", "140B", "2.5T", "512"]
    assert [format_bytes(v) for v in (1.12e11, 5.1e12, 12)] == ["112 GB", "5.1 TB", "12 B"]


@pytest.mark.parametrize(
    ("days", "text"),
    [
        (30 / 86_400, "30 s"),
        (0.01, "14.4 min"),
        (0.5, "12 hours"),
        (1.0, "1 day"),
        (2.6879880069655093, "2.69 days"),
        (730.5, "2 years"),
        (1e12, "2,740,000,000 years"),
    ],
)
def test_format_duration(days: float, text: str) -> None:
    assert format_duration(days) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (6.33e21, "6.33 × 10²¹"),
        (12_400, "12,400"),
        (9_999, "10,000"),
        (0.00123, "0.00123"),
        (2.5, "2.5"),
        (1.0, "1"),
        (9.996e15, "1 × 10¹⁶"),
    ],
)
def test_plain_number_never_writes_e_notation(value: float, text: str) -> None:
    from gpu_tpu_app.shared.units import plain_number

    assert plain_number(value) == text and "e+" not in plain_number(value * 1.37)


def test_versions_and_counts_read_as_words() -> None:
    from gpu_tpu_app.core.wording import version_words
    from gpu_tpu_app.shared.units import count_words

    assert version_words("2.13.0+cpu") == "2.13.0 (CPU-only build)"
    assert version_words("2.5.1+cu124") == "2.5.1 (CUDA 12.4 build)"
    assert version_words("0.10.2") == "0.10.2"
    assert [count_words(n, "shape") for n in (1, 2)] == ["1 shape", "2 shapes"]


def test_clip_words_never_cuts_inside_a_word() -> None:
    from gpu_tpu_app.shared.units import clip_words

    text = "graph break at model.py:12: data-dependent control flow in forward, then another at line 40"
    clipped = clip_words(text, 50)
    assert len(clipped) <= 50 and clipped.endswith("…") and text.startswith(clipped[:-1])
    assert text[len(clipped) - 1] in " ,;:"  # it stopped where a word ended
    assert clip_words("short", 50) == "short"
