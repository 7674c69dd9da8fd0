"""`gpu-tpu-app catalog`: print the accelerator catalogue as a table or as JSON."""

from __future__ import annotations

import argparse

from gpu_tpu_app.core.catalog import Catalog, Chip, load_catalog
from gpu_tpu_app.core.wording import MISSING


def configure(p: argparse.ArgumentParser) -> None:
    """Add the catalog options to its subparser."""
    p.add_argument(
        "--format",
        choices=["table", "json"],
        default="table",
        help="table (default) or json (every figure with unit, source and reason)",
    )


def _cell(chip: Chip, field: str) -> str:
    figure = getattr(chip, field)
    if figure is None:
        return MISSING
    return figure.display(short=True).removesuffix(f" {figure.unit}")


def rows(catalog: Catalog) -> list[list[str]]:
    """The table's header and one row of display strings per chip (dense figures only)."""
    table = [
        [
            "id",
            "chip",
            "family",
            "BF16",
            "FP8",
            "FP32",
            "FP64",
            "FP64 matrix",
            "memory",
            "mem BW GB/s",
            "fast-link group",
            "year",
        ]
    ]
    for chip in catalog.chips:
        bf16 = _cell(chip, "bf16")
        if chip.bf16.value is None and chip.fp16 is not None and chip.fp16.value is not None:
            bf16 = f"{bf16} (FP16 {_cell(chip, 'fp16')})"
        fp8 = _cell(chip, "fp8")
        if chip.fp8 is not None and chip.fp8.value is not None and chip.fp8.value == chip.bf16.value:
            fp8 += " (=BF16)"
        domain = chip.domain_chips()
        table.append(
            [
                chip.id,
                chip.name,
                chip.family,
                bf16,
                fp8,
                _cell(chip, "fp32"),
                _cell(chip, "fp64"),
                _cell(chip, "fp64_matrix"),
                chip.memory.display(short=True),
                _cell(chip, "mem_bw") if chip.mem_bw.unit == "GB/s" else chip.mem_bw.display(short=True),
                MISSING if domain is None else f"{domain:,}",
                str(chip.year),
            ]
        )
    return table


def format_table(catalog: Catalog) -> str:
    """The catalogue as aligned text, the links of each chip, and a legend for the abbreviations."""
    table = rows(catalog)
    numeric = {3, 4, 5, 6, 7, 9, 10, 11}
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    lines = []
    for n, row in enumerate(table):
        cells = [cell.rjust(widths[i]) if (i in numeric and n) else cell.ljust(widths[i]) for i, cell in enumerate(row)]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines.append("")
    lines.append("Links between chips:")
    lines += [f"  {chip.id}: {chip.interconnect}" for chip in catalog.chips]
    lines.append("")
    lines.append("Dense peaks in TFLOP/s (no sparsity); (=BF16): FP8 runs at the BF16 rate on this chip.")
    lines.append("n/p = not published by the vendor, n/s = not supported by the chip. Fast-link group: the most chips")
    lines.append("joined by the chip's fastest link (an NVLink domain, a TPU slice or pod).")
    lines.append(
        "Memory as the vendor states it (GB = 10^9 bytes, GiB = 2^30 bytes). Sources and reasons: --format json."
    )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Print the packaged catalogue."""
    catalog = load_catalog()
    if args.format == "json":
        print(catalog.model_dump_json(indent=2))
    else:
        print(format_table(catalog))
    return 0
