"""`gpu-tpu-app prices`: the cheapest place for each chip and the spread across regions."""

from __future__ import annotations

import argparse
import json

from gpu_tpu_app.cliutil import fail
from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.price_import import load_book
from gpu_tpu_app.core.prices import STALE_DAYS, Kind, PriceBook, Quote, format_rate, spreads
from gpu_tpu_app.errors import InputError


def configure(p: argparse.ArgumentParser) -> None:
    """Add the prices options to its subparser."""
    p.add_argument("--chip", metavar="ID", help="one catalogue chip id, e.g. tpu-v6e or h100-sxm")
    p.add_argument(
        "--cloud", metavar="ID", help="one cloud: gcp, aws, lambda, nebius, or any cloud a local catalogue names"
    )
    p.add_argument("--region", metavar="NAME", help="one region, e.g. us-central1")
    p.add_argument("--spot", action="store_true", help="spot (preemptible) prices instead of on-demand")
    p.add_argument(
        "--from",
        dest="sources",
        action="append",
        default=[],
        metavar="PATH",
        help="a SkyPilot catalogue folder (~/.sky/catalogs/v8) or vms.csv, or a gpuhunt CSV or folder (repeatable)",
    )
    p.add_argument(
        "--no-local",
        action="store_true",
        help="ignore catalogues in their default places (~/.sky/catalogs, $GPUHUNT_CATALOG_DIR)",
    )
    p.add_argument("--all", action="store_true", help="every region, not only the cheapest and dearest per chip")
    p.add_argument("--format", choices=["table", "json"], default="table", help="table (default) or json")


def _quote_json(q: Quote) -> dict[str, object]:
    return {
        "chip": q.chip_id,
        "cloud": q.cloud,
        "region": q.region,
        "kind": q.kind,
        "usd_per_chip_hour": q.usd,
        "source": q.describe_age(language="en"),  # JSON is for tools: English in every language
        "origin": q.origin,
        "where": q.where,
        "as_of": q.as_of.isoformat(),
        "stale": q.stale(),
        "note": q.note,
    }


def _align(table: list[list[str]], right: set[int]) -> list[str]:
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
    lines = []
    for n, row in enumerate(table):
        cells = [c.rjust(widths[i]) if (i in right and n) else c.ljust(widths[i]) for i, c in enumerate(row)]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return lines


def format_table(book: PriceBook, kind: Kind, cloud: str | None, region: str | None, chip: str | None, every: bool):
    """Cheapest place per chip with the spread, then (with every) each region, then the sources."""
    names = {c.id: c.name for c in load_catalog().chips}
    found = [s for s in spreads(book, kind, cloud, region) if chip is None or s.chip_id == chip]
    lines = [f"{'Spot' if kind == 'spot' else 'On-demand'} USD per chip-hour, cheapest place first.", ""]
    table = [["chip", "cheapest", "where", "dearest", "where", "places", "source of the cheapest"]]
    for s in found:
        table.append(
            [
                names.get(s.chip_id, s.chip_id),
                format_rate(s.cheapest.usd),
                s.cheapest.place(),
                format_rate(s.dearest.usd),
                s.dearest.place(),
                str(s.places),
                s.cheapest.describe_age(),
            ]
        )
    if len(table) == 1:
        lines.append("No price matches (see `gpu-tpu-app prices` without filters for what is known).")
    else:
        lines += _align(table, {1, 3, 5})
    if every and found:
        lines += ["", "Every region:"]
        rows = [["chip", "USD/chip-h", "where", "source", "note"]]
        for s in found:
            for q in book.select(s.chip_id, kind, cloud, region):
                rows.append([s.chip_id, format_rate(q.usd), q.place(), q.describe_age(), q.note or ""])
        lines += _align(rows, {1})
    priced = {s.chip_id for s in found}
    missing = [c for c in names if c not in priced and chip is None]
    lines.append("")
    if missing:
        lines.append(f"No {'spot' if kind == 'spot' else 'on-demand'} price for: " + ", ".join(missing) + ".")
    lines.append(
        f"The newest source wins for each chip, cloud, region and kind; older than {STALE_DAYS} days is "
        "marked stale. Your own --price in `estimate` wins over all."
    )
    lines += [f"Read: {note}" for note in book.notes]
    sources = sorted({q.where for s in found for q in (s.cheapest, s.dearest)})
    if sources:
        lines.append("Sources:")
        lines += [f"  - {where}" for where in sources]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Read the shipped table and the local catalogues, print the cheapest places."""
    chip_ids = {c.id for c in load_catalog().chips}
    if args.chip is not None and args.chip.lower() not in chip_ids:
        return fail(f"--chip: unknown chip {args.chip!r} (choose from {', '.join(sorted(chip_ids))})")
    chip = args.chip.lower() if args.chip else None
    try:
        book = load_book(args.sources, defaults=not args.no_local)
    except InputError as exc:
        return fail(f"--from: {exc}")
    kind: Kind = "spot" if args.spot else "on-demand"
    cloud = args.cloud.lower() if args.cloud else None
    region = args.region.lower() if args.region else None
    if cloud is not None and cloud not in book.clouds():
        return fail(f"--cloud: no prices for {args.cloud!r} (known: {', '.join(book.clouds())})")
    if args.format == "json":
        found = [s for s in spreads(book, kind, cloud, region) if chip is None or s.chip_id == chip]
        out = {
            "kind": kind,
            "chips": [
                {
                    "chip": s.chip_id,
                    "cheapest": _quote_json(s.cheapest),
                    "dearest": _quote_json(s.dearest),
                    "places": s.places,
                    "regions": [_quote_json(q) for q in book.select(s.chip_id, kind, cloud, region)],
                }
                for s in found
            ],
            "read": book.notes,
        }
        print(json.dumps(out, indent=2, allow_nan=False))
    else:
        print(format_table(book, kind, cloud, region, chip, args.all))
    return 0
