"""`gpu-tpu-app catalog`: print the accelerator catalogue as a table (in the interface language: headers and
legend from resources/text/cli.<lang>.toml) or as JSON (English)."""

from __future__ import annotations

import argparse

from gpu_tpu_app.cliutil import align
from gpu_tpu_app.core.catalog import Catalog, Chip, load_catalog
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.core.wording import MISSING


def configure(p: argparse.ArgumentParser) -> None:
    """Add the catalog options to its subparser."""
    p.add_argument(
        "--format",
        choices=["table", "json"],
        default="table",
        help=text("cli.catalog.format"),
    )


def _cell(chip: Chip, field: str) -> str:
    figure = getattr(chip, field)
    if figure is None:
        return MISSING
    return figure.display(short=True).removesuffix(f" {figure.unit}")


def rows(catalog: Catalog) -> list[list[str]]:
    """The table's header and one row of display strings per chip (dense figures only)."""
    h = "cli.catalog.headers."
    table = [
        [
            text(h + "id"),
            text(h + "chip"),
            text(h + "family"),
            "BF16",
            "FP8",
            "FP32",
            "FP64",
            text(h + "fp64_matrix"),
            text(h + "memory"),
            text(h + "mem_bw"),
            text(h + "domain"),
            text(h + "year"),
        ]
    ]
    for chip in catalog.chips:
        bf16 = _cell(chip, "bf16")
        if chip.bf16.value is None and chip.fp16 is not None and chip.fp16.value is not None:
            bf16 = f"{bf16} (FP16 {_cell(chip, 'fp16')})"
        fp8 = _cell(chip, "fp8")
        if chip.fp8 is not None and chip.fp8.value is not None and chip.fp8.value == chip.bf16.value:
            fp8 += " " + text("cli.catalog.same_as_bf16")
        domain = chip.domain_chips()
        table.append(
            [
                chip.id,
                chip.name,
                text(f"catalog.family.{chip.family}"),
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
    lines = align(rows(catalog), right={3, 4, 5, 6, 7, 9, 10, 11})
    lines.append("")
    lines.append(text("cli.catalog.links"))
    lines += [f"  {chip.id}: {catalog.interconnect(chip)}" for chip in catalog.chips]
    lines.append("")
    lines += [text(f"cli.catalog.legend_{part}") for part in ("peaks", "missing", "domain", "memory")]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Print the packaged catalogue."""
    catalog = load_catalog()
    if args.format == "json":
        print(catalog.model_dump_json(indent=2))
    else:
        print(format_table(catalog))
    return 0
