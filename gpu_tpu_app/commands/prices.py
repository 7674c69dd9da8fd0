"""`gpu-tpu-app prices`: the cheapest place for each chip and the spread across regions (the table in the
interface language, from resources/text/cli.<lang>.toml; --format json in English)."""

from __future__ import annotations

import argparse
import json

from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.price_import import load_book
from gpu_tpu_app.core.prices import STALE_DAYS, Kind, PriceBook, Quote, format_rate, spreads
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.errors import InputError
from gpu_tpu_app.shared.cliutil import align, fail


def configure(p: argparse.ArgumentParser) -> None:
    """Add the prices options to its subparser."""
    p.add_argument("--chip", metavar="ID", help=text("prices.options.chip"))
    p.add_argument("--cloud", metavar="ID", help=text("prices.options.cloud"))
    p.add_argument("--region", metavar="NAME", help=text("prices.options.region"))
    p.add_argument("--spot", action="store_true", help=text("prices.options.spot"))
    p.add_argument(
        "--from",
        dest="sources",
        action="append",
        default=[],
        metavar="PATH",
        help=text("prices.options.sources"),
    )
    p.add_argument(
        "--no-local",
        action="store_true",
        help=text("prices.options.no_local"),
    )
    p.add_argument("--all", action="store_true", help=text("prices.options.all"))
    p.add_argument("--format", choices=["table", "json"], default="table", help=text("prices.options.format"))


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


def format_table(book: PriceBook, kind: Kind, cloud: str | None, region: str | None, chip: str | None, every: bool):
    """Cheapest place per chip with the spread, then (with every) each region, then the sources."""
    names = {c.id: c.name for c in load_catalog().chips}
    found = [s for s in spreads(book, kind, cloud, region) if chip is None or s.chip_id == chip]
    spot = kind == "spot"
    h = "cli.prices.headers."
    lines = [text("cli.prices.title_spot" if spot else "cli.prices.title_on_demand"), ""]
    table = [
        [
            text(h + "chip"),
            text(h + "cheapest"),
            text(h + "where"),
            text(h + "dearest"),
            text(h + "where"),
            text(h + "places"),
            text(h + "source_of_cheapest"),
        ]
    ]
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
        lines.append(text("cli.prices.no_match"))
    else:
        lines += align(table, {1, 3, 5})
    if every and found:
        lines += ["", text("cli.prices.every_region")]
        rows = [[text(h + "chip"), text(h + "rate"), text(h + "where"), text(h + "source"), text(h + "note")]]
        for s in found:
            for q in book.select(s.chip_id, kind, cloud, region):
                rows.append([s.chip_id, format_rate(q.usd), q.place(), q.describe_age(), q.note_words() or ""])
        lines += align(rows, {1})
    priced = {s.chip_id for s in found}
    missing = [c for c in names if c not in priced and chip is None]
    lines.append("")
    if missing:
        lines.append(
            text("cli.prices.unpriced_spot" if spot else "cli.prices.unpriced_on_demand", chips=", ".join(missing))
        )
    lines.append(text("cli.prices.rule", days=STALE_DAYS))
    lines += [text("cli.prices.read", note=note) for note in book.note_words()]
    sources = sorted({q.where for s in found for q in (s.cheapest, s.dearest)})
    if sources:
        lines.append(text("cli.prices.sources"))
        lines += [f"  - {where}" for where in sources]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Read the shipped table and the local catalogues, print the cheapest places."""
    chip_ids = {c.id for c in load_catalog().chips}
    if args.chip is not None and args.chip.lower() not in chip_ids:
        return fail(text("cli.prices.unknown_chip", chip=repr(args.chip), chips=", ".join(sorted(chip_ids))))
    chip = args.chip.lower() if args.chip else None
    try:
        book = load_book(args.sources, defaults=not args.no_local)
    except InputError as exc:
        return fail(text("cli.prices.bad_from", problem=exc))
    kind: Kind = "spot" if args.spot else "on-demand"
    cloud = args.cloud.lower() if args.cloud else None
    region = args.region.lower() if args.region else None
    if cloud is not None and cloud not in book.clouds():
        return fail(text("cli.prices.unknown_cloud", cloud=repr(args.cloud), clouds=", ".join(book.clouds())))
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
