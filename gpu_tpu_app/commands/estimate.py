"""`gpu-tpu-app estimate`: training or serving time, memory fit and cost per catalogue chip."""

from __future__ import annotations

import argparse
import math

from pydantic import ValidationError

from gpu_tpu_app.core.catalog import Catalog, load_catalog
from gpu_tpu_app.core.estimate import (
    DEFAULT_BATCH,
    DEFAULT_CONTEXT,
    DEFAULT_MICRO_BATCH,
    MAX_PRICE,
    OWN_FAMILIES,
    Estimate,
    EstimateRequest,
    MeasuredDevice,
    estimate,
    measured_from_run,
    parse_quantity,
)
from gpu_tpu_app.core.estimate.rules import RuleError
from gpu_tpu_app.core.estimate.text import (
    cost_lines,
    cost_range,
    cost_rule,
    estimate_cells,
    estimate_inputs,
    layout_cell,
    memory_units_note,
    mfu_source_words,
    moe_line,
    note_lines,
    row_name,
    row_warnings,
    rule_words,
    training_memory_line,
)
from gpu_tpu_app.core.prices import format_rate
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.core.tpu_compile import TpuCompile
from gpu_tpu_app.core.transformer import DEFAULT_ASPECT_RATIO
from gpu_tpu_app.core.wording import format_bytes, format_usd, plain_number
from gpu_tpu_app.shared.cliutil import display_width, fail, pad
from gpu_tpu_app.shared.terms import SERVING_DTYPES
from gpu_tpu_app.shared.units import MISSING as MISSING_CELL


def configure(p: argparse.ArgumentParser) -> None:
    """Add the estimate options to its subparser (their help in the language in use)."""
    p.add_argument("--params", required=True, metavar="N", help=_option("params"))
    p.add_argument(
        "--tokens",
        metavar="D",
        help=_option("tokens"),
    )
    p.add_argument(
        "--inference",
        action="store_true",
        help=_option("inference"),
    )
    p.add_argument("--chips", default="1", metavar="K", help=_option("chips"))
    p.add_argument("--batch", metavar="B", help=_option("batch", default=str(DEFAULT_BATCH)))
    p.add_argument(
        "--context",
        metavar="C",
        help=_option("context", default=str(DEFAULT_CONTEXT)),
    )
    p.add_argument("--prompt-tokens", metavar="P", help=_option("prompt_tokens"))
    p.add_argument("--layers", metavar="L", help=_option("layers"))
    p.add_argument("--width", metavar="D", help=_option("width"))
    p.add_argument("--heads", metavar="H", help=_option("heads"))
    p.add_argument("--kv-heads", metavar="H", help=_option("kv_heads"))
    p.add_argument(
        "--aspect-ratio",
        metavar="R",
        help=_option("aspect_ratio", default=f"{DEFAULT_ASPECT_RATIO:g}"),
    )
    p.add_argument(
        "--active-params",
        metavar="A",
        help=_option("active_params"),
    )
    p.add_argument("--experts", metavar="E", help=_option("experts"))
    p.add_argument("--top-k", metavar="K", help=_option("top_k"))
    p.add_argument(
        "--micro-batch",
        metavar="B",
        help=_option("micro_batch", default=str(DEFAULT_MICRO_BATCH)),
    )
    p.add_argument(
        "--checkpointing",
        choices=["auto", "none", "selective", "full"],
        default="auto",
        help=_option("checkpointing"),
    )
    p.add_argument("--finetune", choices=["full", "lora", "qlora"], help=_option("finetune"))
    p.add_argument("--lora-rank", metavar="R", help=_option("lora_rank", default="16"))
    p.add_argument(
        "--strict-fp32",
        action="store_true",
        help=_option("strict_fp32"),
    )
    p.add_argument(
        "--bw-share",
        metavar="F",
        help=_option("bw_share"),
    )
    p.add_argument("--ttft-ms", metavar="MS", help=_option("ttft_ms"))
    p.add_argument("--tpot-ms", metavar="MS", help=_option("tpot_ms"))
    p.add_argument("--requests-per-s", metavar="R", help=_option("requests_per_s"))
    p.add_argument("--output-len", metavar="T", help=_option("output_len"))
    p.add_argument("--goodput", metavar="F", help=_option("goodput"))
    p.add_argument("--spot-goodput", metavar="F", help=_option("spot_goodput"))
    p.add_argument(
        "--dtype",
        choices=sorted(SERVING_DTYPES),
        default="bfloat16",
        help=_option("dtype"),
    )
    p.add_argument(
        "--mfu",
        metavar="F",
        help=_option("mfu"),
    )
    p.add_argument(
        "--price",
        action="append",
        default=[],
        metavar="CHIP=USD",
        help=_option("price"),
    )
    p.add_argument("--cloud", metavar="ID", help=_option("cloud"))
    p.add_argument("--region", metavar="NAME", help=_option("region"))
    p.add_argument(
        "--prices-from",
        action="append",
        default=[],
        metavar="PATH",
        help=_option("prices_from"),
    )
    p.add_argument(
        "--no-local-prices",
        action="store_true",
        help=_option("no_local_prices"),
    )
    p.add_argument(
        "--results",
        action="append",
        default=[],
        metavar="FILE",
        help=_option("results"),
    )
    p.add_argument(
        "--model-check",
        metavar="FILE",
        help=_option("model_check"),
    )
    p.add_argument(
        "--steps",
        metavar="S",
        help=_option("steps"),
    )
    p.add_argument("--format", choices=["table", "json"], default="table", help=_option("format"))


def _option(key: str, **values: str) -> str:
    """An option's help; argparse formats help with %, so a literal % is doubled."""
    return text(f"estimate.options.{key}", **values).replace("%", "%%")


class FlagError(ValueError):
    """A bad flag value; the message starts with the flag's name."""


def _bad(key: str, **values: str) -> FlagError:
    """The FlagError with text `estimate.error.<key>` in the language in use."""
    return FlagError(text(f"estimate.error.{key}", **values))


def _positive(flag: str, text: str) -> float:
    try:
        value = parse_quantity(text)
    except ValueError as exc:
        raise FlagError(f"{flag}: {exc}") from None
    if value <= 0:
        raise _bad("not_positive", flag=flag, got=repr(text))
    return value


def _whole(flag: str, text: str | None, limit: int) -> int | None:
    if text is None:
        return None
    try:
        value = parse_quantity(text)
    except ValueError as exc:
        raise FlagError(f"{flag}: {exc}") from None
    if value != int(value) or value < 1:
        raise _bad("not_whole", flag=flag, got=repr(text))
    if value > limit:
        raise _bad("too_large", flag=flag, limit=f"{limit:,}", got=repr(text))
    return int(value)


def _fraction(flag: str, text: str | None) -> float | None:
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        raise _bad("not_fraction_number", flag=flag, got=repr(text)) from None
    if not (0 < value <= 1):
        raise _bad("not_fraction", flag=flag, got=repr(text))
    return value


def _moe(args: argparse.Namespace, params: float) -> dict[str, float | int | None]:
    active = _positive("--active-params", args.active_params) if args.active_params is not None else None
    experts = _whole("--experts", args.experts, 100_000)
    top_k = _whole("--top-k", args.top_k, 100_000)
    return {"active_params": active, "experts": experts, "top_k": top_k}


def _prices(items: list[str], catalog: Catalog) -> dict[str, float]:
    ids = {chip.id for chip in catalog.chips}
    prices: dict[str, float] = {}
    for item in items:
        chip_id, sep, usd = item.partition("=")
        chip_id = chip_id.strip().lower()
        if not sep or not chip_id or not usd.strip():
            raise _bad("price_form", got=repr(item))
        if chip_id not in ids:
            raise _bad("price_chip", chip=repr(chip_id), chips=", ".join(c.id for c in catalog.chips))
        try:
            value = float(usd.strip().lstrip("$"))
        except ValueError:
            raise _bad("price_number", usd=repr(usd.strip()), got=repr(item)) from None
        if not math.isfinite(value) or not 0 <= value <= MAX_PRICE:
            raise _bad("price_range", limit=f"{MAX_PRICE:,.0f}", got=repr(item))
        prices[chip_id] = value
    return prices


def request_from_args(args: argparse.Namespace, catalog: Catalog) -> EstimateRequest:
    """Validate the flags into an EstimateRequest; FlagError names the flag at fault."""
    params = _positive("--params", args.params)
    tokens = _positive("--tokens", args.tokens) if args.tokens is not None else None
    try:
        chips = int(str(args.chips).strip())
    except ValueError:
        raise _bad("chips_whole", got=repr(args.chips)) from None
    if chips < 1:
        raise _bad("chips_one", got=repr(args.chips))
    mfu = None
    if args.mfu is not None:
        try:
            mfu = float(args.mfu)
        except ValueError:
            raise _bad("mfu_number", got=repr(args.mfu)) from None
        if not (0 < mfu <= 1):
            raise _bad("mfu_range", got=repr(args.mfu))
    batch = _whole("--batch", args.batch, 1_000_000)
    prompt = None
    if args.prompt_tokens is not None:
        try:
            prompt = parse_quantity(args.prompt_tokens)
        except ValueError as exc:
            raise FlagError(f"--prompt-tokens: {exc}") from None
        if prompt < 0:
            raise _bad("prompt_negative", got=repr(args.prompt_tokens))
    ttft = _positive("--ttft-ms", args.ttft_ms) if getattr(args, "ttft_ms", None) is not None else None
    tpot = _positive("--tpot-ms", args.tpot_ms) if getattr(args, "tpot_ms", None) is not None else None
    rate = _positive("--requests-per-s", args.requests_per_s) if getattr(args, "requests_per_s", None) else None
    output = _whole("--output-len", getattr(args, "output_len", None), 100_000_000)
    latency = (("--ttft-ms", ttft), ("--tpot-ms", tpot), ("--requests-per-s", rate), ("--output-len", output))
    if not args.inference:
        for flag, value in (("--batch", batch), ("--prompt-tokens", prompt), ("--bw-share", args.bw_share), *latency):
            if value is not None:
                raise _bad("inference_only", flag=flag)
    micro = _whole("--micro-batch", args.micro_batch, 100_000)
    finetune = getattr(args, "finetune", None)
    rank = _whole("--lora-rank", getattr(args, "lora_rank", None), 65_536)
    if rank is not None and finetune not in ("lora", "qlora"):
        raise _bad("lora_rank_only")
    if args.inference:
        if micro is not None:
            raise _bad("micro_batch_training")
        if args.checkpointing != "auto":
            raise _bad("checkpointing_training")
    aspect = None
    if args.aspect_ratio is not None:
        try:
            aspect = float(args.aspect_ratio)
        except ValueError:
            raise _bad("aspect_number", got=repr(args.aspect_ratio)) from None
        if not (math.isfinite(aspect) and 1 <= aspect <= 10_000):
            raise _bad("aspect_range", got=repr(args.aspect_ratio))
    shape = {
        "layers": _whole("--layers", args.layers, 100_000),
        "width": _whole("--width", args.width, 10_000_000),
        "heads": _whole("--heads", args.heads, 100_000),
        "kv_heads": _whole("--kv-heads", args.kv_heads, 100_000),
    }
    context = _whole("--context", args.context, 100_000_000)
    try:
        return EstimateRequest(
            params=params,
            tokens=tokens,
            mode="inference" if args.inference else "training",
            chips=chips,
            mfu=mfu,
            prices=_prices(args.price, catalog),
            batch=batch,
            context=context,
            prompt_tokens=prompt,
            dtype=args.dtype,
            aspect_ratio=aspect,
            micro_batch=micro,
            checkpointing=args.checkpointing,
            strict_fp32=args.strict_fp32,
            bw_share=_fraction("--bw-share", args.bw_share),
            steps=_positive("--steps", args.steps) if args.steps is not None else None,
            price_cloud=args.cloud.lower() if args.cloud else None,
            price_region=args.region.lower() if args.region else None,
            finetune=finetune,
            goodput=_fraction("--goodput", getattr(args, "goodput", None)),
            spot_goodput=_fraction("--spot-goodput", getattr(args, "spot_goodput", None)),
            ttft_ms=ttft,
            tpot_ms=tpot,
            requests_per_s=rate,
            output_len=output,
            lora_rank=rank if rank is not None else 16,
            **_moe(args, params),
            **shape,
        )
    except ValidationError as exc:  # the bounds of the model (e.g. --params over 1e15) and its rules
        first = exc.errors(include_url=False)[0]
        rule = (first.get("ctx") or {}).get("error")
        if isinstance(rule, RuleError):
            raise FlagError(f"--{rule.field.replace('_', '-')}: {rule.words()}") from None
        loc = str(first["loc"][0]) if first["loc"] else ""
        flag = "--" + loc.replace("_", "-") if loc in EstimateRequest.model_fields else "--params"
        raise FlagError(f"{flag}: {first['msg']}") from None


#: the table's columns that hold numbers (right-aligned)
_NUMERIC = frozenset(
    {"peak", "mfu", "time", "memory", "chips_per_copy", "rate", "cost", "spot_cost", "per_mtok", "spot_per_mtok"}
)


def format_table(result: Estimate) -> str:
    """The estimate as aligned text, in the language in use: the inputs, one row per chip (fastest first),
    warnings, the rules."""
    req = result.request
    serving = req.mode == "inference"
    mode = text("estimate.table.serving" if serving else "estimate.table.training")
    lines = [
        text("estimate.table.flops", mode=mode, flops=plain_number(result.flops)),
        text("estimate.table.inputs", inputs=estimate_inputs(result)),
    ]
    if serving and result.shape is not None:
        lines.append(
            text(
                "estimate.table.kv_cache",
                per_token=format_bytes(result.shape.kv_bytes_per_token),
                memory=format_bytes(result.rows[0].memory_needed_bytes if result.rows else None),
            )
        )
    elif result.rows:
        lines.append(training_memory_line(result))
    if result.moe is not None:
        lines.append(moe_line(result))
    lines.append("")
    priced = any(row.cost_usd is not None or row.spot_cost_usd is not None for row in result.rows)
    columns = ["chip", "kind", "peak", "mfu", "time", "bound", "memory", "chips_per_copy", "fits"]
    columns.insert(8, "layout")
    if priced:
        columns += ["rate", "cost", "spot_cost"]
        if serving:
            columns += ["per_mtok", "spot_per_mtok"]
    table = [[text(f"estimate.column.{col}") for col in columns]]
    notes: list[str] = []
    for row in result.rows:
        c = estimate_cells(row)
        cells = [c.chip, c.kind, c.peak, c.mfu, c.time_why, c.bound, c.memory, c.chips_per_copy, c.fits]
        cells.insert(8, layout_cell(row))
        if priced:
            cells += [
                "" if row.price is None else format_rate(row.price.usd),
                c.cost,
                cost_range(row, spot=True),
            ]
            if serving:
                cells += [format_usd(row.usd_per_mtok), format_usd(row.spot_usd_per_mtok)]
        table.append(cells)
        notes += [text("estimate.warning.chips", chips=row_name(row), warning=w) for w in row_warnings(row)]
    right = {i for i, col in enumerate(columns) if col in _NUMERIC}
    widths = [max(display_width(r[i]) for r in table) for i in range(len(columns))]
    for n, cells in enumerate(table):
        lines.append("  ".join(pad(c, widths[i], i in right and n > 0) for i, c in enumerate(cells)).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines.append("")
    if notes:
        lines.append(text("estimate.table.warnings"))
        lines += [f"  - {note}" for note in notes]
        lines.append("")
    lines += latency_lines(result)
    lines.append(text("estimate.table.time", rule=rule_words(result.rule)))
    lines.append(text("estimate.table.memory", rule=rule_words(result.memory_rule), note=memory_units_note()))
    lines += note_lines(result)
    if result.compiled_rule:
        lines.append(text("estimate.line.compiled", text=rule_words(result.compiled_rule)))
    if req.mfu is not None:
        lines.append(text("estimate.table.mfu_set", mfu=f"{req.mfu:.2f}"))
    else:
        lines.append(text("estimate.table.mfu_range"))
        for note in dict.fromkeys(mfu_source_words(row) for row in result.rows if row.family != "measured"):
            lines.append("  - " + text("estimate.table.note", note=note))
    lines += price_lines(result)
    lines.append(text("estimate.table.sources", sources=", ".join(result.sources)))
    return "\n".join(lines)


def latency_lines(result: Estimate) -> list[str]:
    """The latency targets' table (serving with --ttft-ms, --tpot-ms or --requests-per-s), or nothing."""
    req = result.request
    rows = [r for r in result.rows if r.latency is not None]
    if not rows:
        return []
    targets = []
    if req.ttft_ms is not None:
        targets.append(text("estimate.latency.targets_ttft", ms=f"{req.ttft_ms:g}"))
    if req.tpot_ms is not None:
        targets.append(text("estimate.latency.targets_tpot", ms=f"{req.tpot_ms:g}"))
    if req.requests_per_s is not None:
        targets.append(text("estimate.latency.targets_rate", rate=f"{req.requests_per_s:g}", out=str(req.output_len)))
    lines = [text("estimate.latency.title", targets=text("estimate.inputs.list_separator").join(targets))]
    columns = ["chip", "copy", "batch", "ttft", "tpot", "rate", "cost"]
    if req.requests_per_s is not None:
        columns.append("chips")
    table = [[text(f"estimate.latency.{col}") for col in columns]]
    missed: list[str] = []
    for row in rows:
        fit = row.latency
        assert fit is not None
        cells = [
            row_name(row),
            str(fit.chips_per_copy),
            str(fit.batch) if fit.batch is not None else MISSING_CELL,
            f"{fit.ttft_ms:.3g} ms",
            f"{fit.tpot_ms:.3g} ms" if fit.tpot_ms is not None else MISSING_CELL,
            f"{fit.tokens_per_s_chip:,.0f}" if fit.tokens_per_s_chip is not None else MISSING_CELL,
            format_usd(fit.usd_per_mtok),
        ]
        if req.requests_per_s is not None:
            cells.append(f"{fit.chips_for_rate:,}" if fit.chips_for_rate is not None else MISSING_CELL)
        table.append(cells)
        if fit.missed_texts:
            why = text("estimate.inputs.list_separator").join(text(i, **v) for i, v in fit.missed_texts)
            missed.append(
                text("estimate.warning.chips", chips=row_name(row), warning=text("estimate.latency.not_met", why=why))
            )
    widths = [max(display_width(r[i]) for r in table) for i in range(len(columns))]
    for n, cells in enumerate(table):
        lines.append("  " + "  ".join(pad(c, widths[i], i > 0 and n > 0) for i, c in enumerate(cells)).rstrip())
    lines += [f"  - {m}" for m in missed]
    lines.append("  " + text("estimate.latency.rule"))
    lines.append("")
    return lines


def price_lines(result: Estimate) -> list[str]:
    """Where each chip's price comes from, its age, and the chips without one."""
    req = result.request
    if req.price_cloud and req.price_region:
        where = text("estimate.table.cloud_region", cloud=req.price_cloud, region=req.price_region)
    else:
        where = req.price_cloud or req.price_region or ""
    rule = cost_rule()
    lines = [
        text("estimate.table.cost_in", rule=rule, where=where) if where else text("estimate.table.cost", rule=rule)
    ]
    rows = [r for r in result.rows if r.family not in OWN_FAMILIES]
    separator = text("estimate.table.price_separator")
    for r in rows:
        if found := cost_lines(r):
            lines.append("  - " + text("estimate.table.price", chip=r.chip_id, lines=separator.join(found)))
    missing = [r.chip_id for r in rows if r.price is None and r.spot_price is None]
    if missing:
        key = "estimate.table.no_price_there" if where else "estimate.table.no_price"
        lines.append("  " + text(key, chips=", ".join(missing)))
    return lines


def _compiled(path: str) -> TpuCompile | str:
    """The TPU compile of a saved model check, or the one-line error naming the file."""
    from gpu_tpu_app.core.modelcheck import ModelCheck
    from gpu_tpu_app.core.modelcheck.contract import FROM_FILE
    from gpu_tpu_app.errors import InputError, from_validation
    from gpu_tpu_app.safe_read import MAX_CONTENT_FILE_BYTES, read_json_object

    try:
        check = ModelCheck.model_validate(
            read_json_object(path, text("errors.what.model_check"), MAX_CONTENT_FILE_BYTES), context=FROM_FILE
        )
    except InputError as exc:
        return f"--model-check: {exc}"
    except ValidationError as exc:
        return f"--model-check: {from_validation(path, exc)}"
    if check.tpu_compile is None or check.tpu_compile.status != "ok":
        why = check.tpu_compile.detail if check.tpu_compile is not None else text("estimate.error.no_compile_why")
        return text("estimate.error.no_compile", path=path, why=why or text("estimate.error.not_run"))
    return check.tpu_compile


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
            return fail(text("estimate.error.no_matmul", path=path))
        measured.extend(found)
    from gpu_tpu_app.core.price_import import load_book
    from gpu_tpu_app.errors import InputError

    try:
        book = load_book(args.prices_from, defaults=not args.no_local_prices)
    except InputError as exc:
        return fail(f"--prices-from: {exc}")
    if req.price_cloud is not None and req.price_cloud not in book.clouds():
        return fail(text("estimate.error.no_cloud", cloud=repr(args.cloud), clouds=", ".join(book.clouds())))
    compiled: TpuCompile | None = None
    if args.model_check is not None:
        check = _compiled(args.model_check)
        if isinstance(check, str):
            return fail(check)
        compiled = check
    elif args.steps is not None:
        return fail(text("estimate.error.steps_only"))
    result = estimate(req, catalog, measured, book, compiled)
    if args.format == "json":
        print(result.model_dump_json(indent=2))
    else:
        print(format_table(result))
    return 0
