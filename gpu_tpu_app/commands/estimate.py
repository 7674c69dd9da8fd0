"""`gpu-tpu-app estimate`: training or serving time, memory fit and cost per catalogue chip."""

from __future__ import annotations

import argparse
import math

from pydantic import ValidationError

from gpu_tpu_app.cliutil import fail
from gpu_tpu_app.core.catalog import Catalog, load_catalog
from gpu_tpu_app.core.estimate import (
    Estimate,
    EstimateRequest,
    MeasuredDevice,
    estimate,
    measured_from_run,
    parse_quantity,
)
from gpu_tpu_app.core.wording import estimate_cells, format_bytes, format_quantity


def configure(p: argparse.ArgumentParser) -> None:
    """Add the estimate options to its subparser."""
    p.add_argument("--params", required=True, metavar="N", help="model parameters, e.g. 7e9, 7B or 70M")
    p.add_argument("--tokens", metavar="D", help="training tokens (default 20 x params), or tokens to serve with --inference")
    p.add_argument("--inference", action="store_true", help="estimate serving (2 x N FLOPs per token) instead of training")
    p.add_argument("--chips", default="1", metavar="K", help="number of chips working together (default 1)")
    p.add_argument("--mfu", metavar="F", help="model FLOPs utilisation in (0, 1]; default per family, from reported runs")
    p.add_argument(
        "--price",
        action="append",
        default=[],
        metavar="CHIP=USD",
        help="your price per chip-hour for a catalogue chip id, e.g. h100-sxm=2.5 (repeatable; the app ships no prices)",
    )
    p.add_argument(
        "--results",
        action="append",
        default=[],
        metavar="FILE",
        help="a saved probe run file: adds a row per device at its best measured matmul (repeatable)",
    )
    p.add_argument("--format", choices=["table", "json"], default="table", help="table (default) or json")


class FlagError(ValueError):
    """A bad flag value; the message starts with the flag's name."""


def _positive(flag: str, text: str) -> float:
    try:
        value = parse_quantity(text)
    except ValueError as exc:
        raise FlagError(f"{flag}: {exc}") from None
    if value <= 0:
        raise FlagError(f"{flag}: must be greater than 0, got {text!r}")
    return value


def _prices(items: list[str], catalog: Catalog) -> dict[str, float]:
    ids = {chip.id for chip in catalog.chips}
    prices: dict[str, float] = {}
    for item in items:
        chip_id, sep, usd = item.partition("=")
        chip_id = chip_id.strip().lower()
        if not sep or not chip_id or not usd.strip():
            raise FlagError(f"--price: expected CHIP=USD (e.g. h100-sxm=2.5), got {item!r}")
        if chip_id not in ids:
            raise FlagError(f"--price: unknown chip {chip_id!r} (choose from {', '.join(c.id for c in catalog.chips)})")
        try:
            value = float(usd.strip().lstrip("$"))
        except ValueError:
            raise FlagError(f"--price: {usd.strip()!r} is not a number of USD per chip-hour in {item!r}") from None
        if not math.isfinite(value) or value < 0:
            raise FlagError(f"--price: USD per chip-hour must be 0 or more, got {item!r}")
        prices[chip_id] = value
    return prices


def request_from_args(args: argparse.Namespace, catalog: Catalog) -> EstimateRequest:
    """Validate the flags into an EstimateRequest; FlagError names the flag at fault."""
    params = _positive("--params", args.params)
    tokens = _positive("--tokens", args.tokens) if args.tokens is not None else None
    if args.inference and tokens is None:
        raise FlagError("--tokens: required with --inference (the number of tokens to serve)")
    try:
        chips = int(str(args.chips).strip())
    except ValueError:
        raise FlagError(f"--chips: must be a whole number of chips, got {args.chips!r}") from None
    if chips < 1:
        raise FlagError(f"--chips: must be 1 or more, got {args.chips!r}")
    mfu = None
    if args.mfu is not None:
        try:
            mfu = float(args.mfu)
        except ValueError:
            raise FlagError(f"--mfu: must be a number in (0, 1], got {args.mfu!r}") from None
        if not (0 < mfu <= 1):
            raise FlagError(f"--mfu: must be in (0, 1] (a fraction of peak, e.g. 0.4), got {args.mfu!r}")
    try:
        return EstimateRequest(
            params=params,
            tokens=tokens,
            mode="inference" if args.inference else "training",
            chips=chips,
            mfu=mfu,
            prices=_prices(args.price, catalog),
        )
    except ValidationError as exc:  # the bounds of the model (e.g. --params over 1e15)
        first = exc.errors(include_url=False)[0]
        flag = {"params": "--params", "tokens": "--tokens", "chips": "--chips", "mfu": "--mfu"}.get(
            str(first["loc"][0]) if first["loc"] else "", "--params")
        raise FlagError(f"{flag}: {first['msg']}") from None


def format_table(result: Estimate) -> str:
    """The estimate as aligned text: a summary, one row per chip (fastest first), the rules."""
    req = result.request
    chips = f"{req.chips} chip{'s' if req.chips > 1 else ''}"
    if req.mode == "training":
        default = " (20 per parameter)" if req.tokens is None else ""
        head = f"Training {format_quantity(req.params)} parameters on {format_quantity(result.tokens)} tokens{default}"
    else:
        head = f"Serving {format_quantity(result.tokens)} tokens with a {format_quantity(req.params)}-parameter model"
    lines = [
        f"{head}: {result.flops:.3g} FLOPs on {chips} of each kind; memory needed {format_bytes(result.rows[0].memory_needed_bytes if result.rows else None)}.",
        "",
    ]
    priced = any(row.cost_usd is not None for row in result.rows)
    header = ["chip", "kind", "peak used", "MFU", "time", "fits", f"memory on {chips}"]
    if priced:
        header.append("cost")
    table = [header]
    for row in result.rows:
        c = estimate_cells(row)
        cells = [c.chip, c.kind, c.peak, c.mfu, c.time, c.fits, c.available]
        if priced:
            cells.append(c.cost)
        table.append(cells)
    right = {2, 3, 4, 6, 7}
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    for n, cells in enumerate(table):
        lines.append("  ".join(c.rjust(widths[i]) if (i in right and n) else c.ljust(widths[i]) for i, c in enumerate(cells)).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines.append("")
    lines.append(f"Time: {result.rule}.")
    lines.append(f"Memory: {result.memory_rule}.")
    if req.mfu is not None:
        lines.append(f"MFU: {req.mfu:.2f} for every catalogue chip (set by you).")
    else:
        for note in dict.fromkeys(row.mfu_source for row in result.rows if row.family != "measured"):
            lines.append(f"MFU: {note}.")
    if not priced:
        lines.append("Cost: give your own price per chip-hour with --price CHIP=USD (the app ships no prices).")
    lines.append(f"Sources: {', '.join(result.sources)} (see `gpu-tpu-app catalog --format json`).")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Validate the flags, estimate on every catalogue chip, print a table or JSON."""
    catalog = load_catalog()
    try:
        req = request_from_args(args, catalog)
    except FlagError as exc:
        return fail(str(exc))
    measured: list[MeasuredDevice] = []
    for path in args.results:
        from gpu_tpu_app.core.runs import load_run

        found = measured_from_run(load_run(path))
        if not found:
            return fail(f"--results: {path}: no successful matmul result to estimate from")
        measured.extend(found)
    result = estimate(req, catalog, measured)
    if args.format == "json":
        print(result.model_dump_json(indent=2))
    else:
        print(format_table(result))
    return 0
