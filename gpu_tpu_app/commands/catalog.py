"""`gpu-tpu-app catalog`: print the accelerator catalogue as a table (in the interface language: headers and
legend from resources/text/cli.<lang>.toml, the catalogue's own words from resources/catalog/chips.<lang>.toml)
or as JSON (English); `--chip ID`: one chip's every figure with its source and note or reason."""

from __future__ import annotations

import argparse

from gpu_tpu_app import i18n
from gpu_tpu_app.core.catalog import Catalog, Chip, Figure, load_catalog
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.core.wording import MISSING
from gpu_tpu_app.shared.cliutil import align, fail


def configure(p: argparse.ArgumentParser) -> None:
    """Add the catalog options to its subparser."""
    p.add_argument(
        "--format",
        choices=["table", "json"],
        default="table",
        help=text("cli.catalog.format"),
    )
    p.add_argument("--chip", metavar="ID", help=text("catalog.chip_help"))


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


def _value(figure: Figure) -> str:
    """A figure as its detail shows it: '989 TFLOP/s', '8 chips', or why there is none, in the language in use."""
    if figure.value is None:
        return text(f"catalog.missing.{(figure.missing or 'not published').replace(' ', '_')}")
    if figure.unit == "chips":
        return text("catalog.detail.chips", n=figure.display().removesuffix(" chips"))
    return figure.display()


def format_chip(catalog: Catalog, chip: Chip) -> str:
    """One chip in words: every figure with its source and its note or reason, its links, its MFU range and
    the sources it cites, in the language in use (the figures and source titles as the catalogue has them)."""
    d = "catalog.detail."
    lines = [
        text(d + "title", name=chip.name, id=chip.id, family=text(f"catalog.family.{chip.family}"), year=chip.year)
    ]
    table = [[text(d + "headers." + h) for h in ("figure", "value", "source", "note")]]
    for field, figure in chip.figures().items():
        said = next(
            (catalog.say(f"chips.{chip.id}.{field}.{part}") for part in ("reason", "note") if getattr(figure, part)),
            "",
        )
        table.append([text(f"catalog.field.{field}"), _value(figure), figure.source, said])
    lines += align(table, right=set())
    lines.append("")
    lines.append(text(d + "memory_type", type=chip.memory_type))
    lines.append(text(d + "links", links=catalog.interconnect(chip)))
    lines.append(text(d + "mfu", mfu=catalog.mfu_for(chip, i18n.current_language())[2]))
    lines.append(text(d + "sources"))
    for sid in chip.sources():
        source = catalog.source(sid)
        lines.append(f"  {sid}: {source.title} <{source.url}>")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Print the packaged catalogue, or one chip of it."""
    catalog = load_catalog()
    if args.chip is not None:
        known = [c.id for c in catalog.chips]
        if args.chip.lower() not in known:
            return fail(text("cli.prices.unknown_chip", chip=repr(args.chip), chips=", ".join(sorted(known))))
        chip = catalog.chip(args.chip.lower())
        print(chip.model_dump_json(indent=2) if args.format == "json" else format_chip(catalog, chip))
        return 0
    if args.format == "json":
        print(catalog.model_dump_json(indent=2))
    else:
        print(format_table(catalog))
    return 0
