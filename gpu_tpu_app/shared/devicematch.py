"""How a framework's device name (or an AMD part's gfx target) finds its catalogue row.

Standard library only: the probe worker's detection uses these rules over the rows of the
catalogue (resources/catalog/chips.toml), which it gets from the app as a digest
(probe.envs.catalog_digest), since it may run in the user's own interpreter, which has no pydantic.
The facts (patterns, gfx targets, compute units, memory) live in the catalogue, not here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable


def normalize_device_name(name: str) -> str:
    """Lower case, underscores as spaces, runs of whitespace collapsed: what match patterns see."""
    return " ".join(name.replace("_", " ").lower().split())


#: A partition of a chip, not the chip: NVIDIA MIG slices name themselves so.
_PARTITION = re.compile(r"\bmig\b|\b\d+g\.\d+gb\b")

#: A ROCm device's reported memory must lie within these multiples of its row's published memory: torch
#: reports the usable bytes of a figure published in GB that is really GiB (an MI300X's "192 GB" reads
#: 205.8e9), never far off, so a partitioned GPU (a fraction of the memory) fits no row.
ROCM_MEMORY_RANGE = (0.9, 1.15)


def is_partition(name: str) -> bool:
    """True for the name of a slice of a chip (MIG), which no whole-chip row describes."""
    return _PARTITION.search(normalize_device_name(name)) is not None


def match_device_name(name: str, rows: Iterable[tuple[str, Iterable[str]]]) -> str | None:
    """The id of the row whose patterns match `name` best, or None.

    Patterns are case-insensitive regular expressions; the longest matched text over all rows
    wins, so 'NVIDIA A100-SXM4-80GB' picks the 80 GB row and an unlisted variant matches nothing
    rather than a near neighbour. A MIG slice ('NVIDIA H100 80GB HBM3 MIG 1g.10gb') is a
    fraction of the chip: it matches no row, so it is never judged against whole-chip peaks.
    """
    text = normalize_device_name(name)
    if not text or is_partition(text):
        return None
    best: tuple[int, int, str] | None = None
    for row_id, patterns in rows:
        for pattern in patterns:
            try:
                found = re.search(pattern, text, re.IGNORECASE)
            except re.error:
                continue
            if found is None:
                continue
            score = (found.end() - found.start(), len(pattern))
            if best is None or score > best[:2]:
                best = (*score, row_id)
    return best[2] if best else None


def match_rocm_part(
    arch: str | None,
    compute_units: int | None,
    memory_bytes: int | None,
    parts: Iterable[tuple[str, str, int, float | None]],
) -> str | None:
    """The id of the row an AMD device is by gfx target, compute units and memory, or None.

    `parts` are (row id, gfx target, compute units, published memory in bytes), from the catalogue's
    `rocm` entries; all three must fit one row (ROCM_MEMORY_RANGE for the memory).
    """
    target = (arch or "").split(":")[0].strip().lower()
    low, high = ROCM_MEMORY_RANGE
    for row_id, part_arch, cus, published in parts:
        if target != part_arch or compute_units != cus or not memory_bytes or not published:
            continue
        if low * published <= memory_bytes <= high * published:
            return row_id
    return None
