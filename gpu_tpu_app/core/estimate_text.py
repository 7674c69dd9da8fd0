"""An estimate in words: one row's cells, its memory tip, the inputs sentence and the warnings.

The same words in the window's table, the report and the CLI.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from gpu_tpu_app.core.estimate import OWN_FAMILIES, Estimate, EstimateRow
from gpu_tpu_app.core.units import MISSING, _known
from gpu_tpu_app.core.wording import format_bytes, format_duration, format_quantity, format_usd, tflops

#: A probed device's row is "measured" everywhere (window, report, CLI): its run may come from another machine.
FAMILY_WORDS: dict[str, str] = {
    "gpu": "GPU",
    "tpu": "TPU",
    "other": "other",
    "measured": "measured",
    "compiled": "your model",
}
FITS_WORDS: dict[bool | None, str] = {True: "fits", False: "does not fit", None: MISSING}


@dataclass(frozen=True)
class EstimateCells:
    """One estimate row as text, the same in the window's table, the report and the CLI."""

    chip: str
    kind: str  # "GPU", "TPU", "measured"
    peak: str  # "989 TFLOP/s bfloat16"
    mfu: str  # "0.38-0.48", or one number when the range is a point
    time: str  # "2.41 days - 3.05 days", or one time when the range collapses (memory-bound steps)
    bound: str  # "compute", "memory", or MISSING
    fits: str  # "fits", "does not fit", or MISSING
    needed: str  # memory one model copy needs (training: the whole sharded state)
    available: str  # memory on the chips one copy uses
    chips_per_copy: str  # "1", "2", or MISSING
    cost: str  # "$1,234", or "" without a price
    memory: str = MISSING  # "34 GB / 80 GB": needed by one copy / held by the chips it uses
    memory_fit: str = MISSING  # the same, with ", does not fit" where it does not


def cost_range(row: EstimateRow, spot: bool = False) -> str:
    """The cost (or with `spot` the spot cost) over the same range as the time (the MFU's high to low
    end): '$1,210 - $1,530'; one figure when both ends read the same; '' without a price."""
    cost = row.spot_cost_usd if spot else row.cost_usd
    mid, low, high = row.days, row.days_low, row.days_high
    if cost is None:
        return ""
    if not (mid and low and high) or not all(math.isfinite(v) for v in (mid, low, high)):
        return format_usd(cost)
    lo, hi = format_usd(cost * low / mid), format_usd(cost * high / mid)
    return lo if lo == hi else f"{lo} - {hi}"


def time_range(low: float | None, mid: float | None, high: float | None) -> str:
    """A time with its range: '2.41 days - 3.05 days', one time when both ends read the same."""
    if mid is None or not math.isfinite(mid):
        return MISSING
    if low is None or high is None or format_duration(low) == format_duration(high):
        return format_duration(mid)
    return f"{format_duration(low)} - {format_duration(high)}"


def estimate_cells(row: EstimateRow) -> EstimateCells:
    """The words and numbers of one estimate row."""
    peak = tflops(row.peak_flops)
    if row.peak_dtype and row.peak_dtype != "measured" and _known(row.peak_flops):
        peak += f" {row.peak_dtype}"
    low, high = row.mfu_low, row.mfu_high
    memory = f"{format_bytes(row.memory_needed_bytes)} / {format_bytes(row.memory_available_bytes)}"
    mfu = f"{low:.2f}" if f"{low:.2f}" == f"{high:.2f}" else f"{low:.2f}-{high:.2f}"
    return EstimateCells(
        chip=row.chip_name,
        kind=FAMILY_WORDS.get(row.family, row.family),
        peak=peak,
        mfu=mfu,
        time=time_range(row.days_low, row.days, row.days_high),
        bound=row.bound or MISSING,
        fits=FITS_WORDS[row.fits],
        needed=format_bytes(row.memory_needed_bytes),
        available=format_bytes(row.memory_available_bytes),
        chips_per_copy=MISSING if row.chips_per_copy is None else str(row.chips_per_copy),
        cost=cost_range(row),
        memory=memory,
        memory_fit=memory + (f", {FITS_WORDS[False]}" if row.fits is False else ""),
    )


#: What the memory column holds, said the same way in the window, the report and the CLI.
MEMORY_HEADER = "Memory needed / available"
#: How memory figures are counted, stated wherever they show (window, report, CLI).
MEMORY_UNITS_NOTE = (
    "memory in decimal GB (1 GB = 10^9 bytes, as GPU vendors publish it); figures published in GiB "
    "(1 GiB = 2^30 bytes = 1.074 GB, as Google states TPU v4 and TPU7x memory and AWS its Neuron chips') are "
    "converted, so 192 GiB reads 206 GB"
)


def memory_tip(row: EstimateRow, training: bool) -> str:
    """One row's memory in words: what is needed, what one chip holds (as published), what is available."""
    chip = format_bytes(row.chip_memory_bytes)
    if row.chip_memory_stated and not row.chip_memory_stated.endswith(" GB"):
        chip += f" ({row.chip_memory_stated} as published)"
    n = row.chips_per_copy
    if training:
        acts = (
            f" (with {format_bytes(row.activation_bytes)} of activations, {row.checkpointing} recomputation)"
            if row.activation_bytes is not None
            else ""
        )
        text = (
            f"Needed / available: one copy of the training state needs {format_bytes(row.memory_needed_bytes)}"
            f"{acts}, laid out over {n if n else MISSING} chip{'' if n == 1 else 's'} ({layout_cell(row)}); "
            f"they hold {format_bytes(row.memory_available_bytes)}; one {row.chip_name} holds {chip}."
        )
    else:
        where = f"the {n} chips one copy uses hold" if n and n > 1 else "the chip one copy uses holds"
        text = (
            f"Needed / available: one model copy needs {format_bytes(row.memory_needed_bytes)}; {where} "
            f"{format_bytes(row.memory_available_bytes)}; one {row.chip_name} holds {chip}."
        )
    if row.fits is not None:
        text += " It fits." if row.fits else " It does not fit in the chips given."
    return text + " GB = 10^9 bytes."


def estimate_inputs(result: Estimate) -> str:
    """Every input the estimate used, defaults included and said to be defaults, in one sentence."""
    req = result.request
    parts = [f"{format_quantity(req.params)} parameters"]
    if req.mode == "training":
        default = (
            " (default: 20 per parameter, compute-optimal; modern runs train on 10-100x more)"
            if result.tokens_default
            else ""
        )
        parts.append(f"{format_quantity(result.tokens)} training tokens{default}")
    else:
        parts.append(f"{format_quantity(result.tokens)} tokens to generate")
        parts.append(f"{format_quantity(result.prompt_tokens or 0)} prompt tokens to prefill")
        parts.append(f"batch {result.batch} per model copy")
        parts.append(f"{'float32' if req.strict_fp32 else req.dtype} weights and KV cache")
    if result.context is not None:
        parts.append(f"context {result.context}")
    if req.mode == "training" and result.micro_batch is not None:
        parts.append(f"micro-batch {result.micro_batch} per copy")
        parts.append(f"checkpointing {req.checkpointing}")
    if result.moe is not None:
        parts.append(f"{format_quantity(result.moe.active)} active parameters per token")
        if result.moe.experts is not None:
            parts.append(f"{result.moe.experts} experts, top-{result.moe.top_k}")
    if result.shape is not None:
        sh = result.shape
        parts.append(
            f"shape {sh.layers} layers x width {sh.width}, {sh.heads} heads, {sh.kv_heads} KV heads ({sh.origin})"
        )
    if req.strict_fp32:
        parts.append("strict fp32 arithmetic")
    parts.append(f"{req.chips} chip{'s' if req.chips != 1 else ''} of each kind")
    return "; ".join(parts)


def layout_cell(row: EstimateRow) -> str:
    """How one training copy is laid out: 'TP 8 x 16, selective', or MISSING."""
    if row.tensor_parallel is None or row.shards is None:
        return MISSING
    return f"TP {row.tensor_parallel} x {row.shards}, {row.checkpointing}"


def training_memory_line(result: Estimate) -> str:
    """The training state and one micro-batch's activations, in one sentence."""
    state = 16.0 * result.request.params
    acts = sorted({row.activation_bytes for row in result.rows if row.activation_bytes is not None})
    if not acts:
        return f"Training state: {format_bytes(state)} (16 B per parameter); activations: {MISSING}."
    shown = format_bytes(acts[0]) if len(acts) == 1 else f"{format_bytes(acts[0])} to {format_bytes(acts[-1])}"
    return (
        f"Training state: {format_bytes(state)} (16 B per parameter) plus activations of one micro-batch: "
        f"{shown} by the checkpointing each chip needs (layout column: tensor parallel x pipeline or "
        "sharded data parallel)."
    )


def moe_line(result: Estimate) -> str:
    """The mixture-of-experts split the estimate used."""
    moe = result.moe
    assert moe is not None
    text = (
        f"Mixture of experts: FLOPs from {format_quantity(moe.active)} active parameters, memory from all "
        f"{format_quantity(moe.total)}"
    )
    if moe.shared is not None and moe.per_expert is not None:
        text += (
            f"; {format_quantity(moe.shared)} shared + {moe.experts} experts x {format_quantity(moe.per_expert)}, "
            f"{moe.top_k} per token"
        )
    if result.request.mode == "inference":
        text += f"; a decode step of the batch reads {format_quantity(moe.decode_params)} parameters"
    return text + "."


#: How a row's warning begins when one model copy needs more chips than the request gives.
TOO_FEW_CHIPS = "one copy needs "


def estimate_warnings(result: Estimate) -> list[str]:
    """The rows' warnings, each said once: the chips too small for one copy in one note (the Chips per copy
    column has each count, and such rows show no time), every other warning once with the chips it names."""
    short = [row for row in result.rows if any(w.startswith(TOO_FEW_CHIPS) for w in row.warnings)]
    lines = []
    if short:
        names = ", ".join(row.chip_name for row in short)
        given = result.request.chips
        lines.append(
            f"{len(short)} of the chips cannot hold one copy on the {given} chip{'s' if given != 1 else ''} given, "
            f"so they show no time (the Chips per copy column has the count each needs): {names}."
        )
    others: dict[str, list[str]] = {}
    for row in result.rows:
        for w in row.warnings:
            if not w.startswith(TOO_FEW_CHIPS):
                others.setdefault(w, []).append(row.chip_name)
    lines += [f"{', '.join(chips)}: {w}." for w, chips in others.items()]
    return lines


# ---------------------------------------------------------------- costs


def cost_lines(row: EstimateRow) -> list[str]:
    """Where one row's cost comes from, in words: the price used, its source and age, spot beside it."""
    lines = []
    if row.price is not None:
        kind = "" if row.price.origin == "user" else "on-demand "
        note = f" [{row.price.note}]" if row.price.note else ""
        lines.append(f"{kind}{row.price.describe()}{note}: {format_usd(row.cost_usd) or MISSING} in all")
    if row.spot_price is not None:
        lines.append(f"spot {row.spot_price.describe()}: {cost_range(row, spot=True) or MISSING} in all")
    if row.usd_per_mtok is not None:
        spot = f" (spot {format_usd(row.spot_usd_per_mtok)})" if row.spot_usd_per_mtok is not None else ""
        lines.append(f"{format_usd(row.usd_per_mtok)} per million tokens generated{spot}")
    return lines


#: how the estimate's costs are priced, said the same way in the window, the report and the CLI.
COST_RULE = (
    "chips x hours x USD per chip-hour: your own price for a chip wins; else the cheapest on-demand "
    "price known (the price table shipped with the app, or a newer SkyPilot or gpuhunt catalogue on this "
    "machine), with the cheapest spot price beside it"
)


def price_origins(result: Estimate) -> str:
    """Where the estimate's prices come from, in one clause: 'prices: shipped table, read 2026-12-01; yours
    for h100-sxm; none known for b300'."""
    rows = [r for r in result.rows if r.family not in OWN_FAMILIES]
    origins = dict.fromkeys(
        q.describe_age() for r in rows for q in (r.price, r.spot_price) if q is not None and q.origin != "user"
    )
    parts = ["prices: " + ("; ".join(origins) if origins else "none from a table")]
    yours = [r.chip_id for r in rows if r.price is not None and r.price.origin == "user"]
    if yours:
        parts.append(f"yours for {', '.join(yours)}")
    missing = [r.chip_id for r in rows if r.price is None and r.spot_price is None]
    if missing:
        parts.append(f"none known for {', '.join(missing)}")
    return "; ".join(parts)


def estimate_model_lines(result: Estimate) -> list[str]:
    """What the estimate assumed beyond its rules: training memory, experts, bandwidth share, fp32."""
    lines = []
    if result.request.mode == "training" and result.rows:
        lines.append(training_memory_line(result))
    if result.moe is not None:
        lines.append(moe_line(result))
    if result.bw_share_source:
        lines.append(f"Bandwidth: {result.bw_share_source}.")
    if result.fp32_note:
        lines.append(f"Precision: {result.fp32_note}.")
    if result.compiled_rule:
        lines.append(f"Your model, compiled: {result.compiled_rule}.")
    return lines
