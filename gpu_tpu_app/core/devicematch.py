"""How a framework's device name (or an AMD part's gfx target) finds its catalogue row.

Standard library only: the catalogue (core/catalog.py) and the probe worker's detection use the
same rules, and the worker may run in the user's own interpreter, which has no pydantic; it gets
each row's id and match patterns from the app (probe.envs.catalog_digest).
"""

from __future__ import annotations

import re
from collections.abc import Iterable


def normalize_device_name(name: str) -> str:
    """Lower case, underscores as spaces, runs of whitespace collapsed: what match patterns see."""
    return " ".join(name.replace("_", " ").lower().split())


#: A partition of a chip, not the chip: NVIDIA MIG slices name themselves so.
_PARTITION = re.compile(r"\bmig\b|\b\d+g\.\d+gb\b")

#: AMD parts that some ROCm stacks report without a product name: (gfx target, compute units,
#: memory range in bytes as torch reports it, chip id). gfx targets: LLVM AMDGPU processor table
#: (https://llvm.org/docs/AMDGPUUsage.html). MI300X: 304 compute units, 192 GB HBM3 (AMD Instinct
#: MI300X data sheet, https://www.amd.com/en/products/accelerators/instinct/mi300/mi300x.html);
#: MI325X: 304 CUs, 256 GB HBM3E (https://www.amd.com/en/products/accelerators/instinct/mi300/mi325x.html);
#: MI355X: gfx950, 256 CUs, 288 GB HBM3E (https://www.amd.com/en/products/accelerators/instinct/mi350/mi355x.html).
#: An MI300A (228 CUs) or a partitioned GPU (fewer CUs, less memory) fits no row.
ROCM_PARTS: tuple[tuple[str, int, float, float, str], ...] = (
    ("gfx942", 304, 180e9, 215e9, "mi300x"),
    ("gfx942", 304, 240e9, 290e9, "mi325x"),
    ("gfx950", 256, 270e9, 330e9, "mi355x"),
)


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


def match_rocm_part(arch: str | None, compute_units: int | None, memory_bytes: int | None) -> str | None:
    """The chip id an AMD device is by its gfx target, compute units and memory (ROCM_PARTS), or None."""
    target = (arch or "").split(":")[0].strip().lower()
    for part_arch, cus, low, high, chip_id in ROCM_PARTS:
        if target == part_arch and compute_units == cus and memory_bytes and low <= memory_bytes <= high:
            return chip_id
    return None
