"""An estimate in words: one row's cells, its memory tip, the inputs sentence and the warnings.

The same words in the window's table, the report and the CLI, in the language in use: the words
are in resources/text/estimate.<language>.toml (core.texts), the numbers from core.wording.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from gpu_tpu_app import i18n
from gpu_tpu_app.core.catalog import Catalog, load_catalog
from gpu_tpu_app.core.estimate import OWN_FAMILIES, Estimate, EstimateRow, bw_share_words, fp32_words
from gpu_tpu_app.core.estimate.layout import layout_name, reasons_text, serving_layout_name, warning_text
from gpu_tpu_app.core.estimate.workload import finetune_words, shape_origin, usable_memory
from gpu_tpu_app.core.localized import InLanguage, sentences
from gpu_tpu_app.core.texts import area_texts, text
from gpu_tpu_app.core.wording import format_bytes, format_duration, format_quantity, format_usd, tflops
from gpu_tpu_app.shared.units import MISSING, _known

_FAMILIES = ("gpu", "tpu", "other", "measured", "compiled")
#: A probed device's row is "measured" everywhere (window, report, CLI): its run may come from another machine.
FAMILY_WORDS: Mapping[str, str] = InLanguage(
    lambda lang: {f: text(f"estimate.family.{f}", language=lang) for f in _FAMILIES}
)
#: whether one copy fits, in the language in use.
FITS_WORDS: Mapping[bool | None, str] = InLanguage(
    lambda lang: {
        True: text("estimate.fits.yes", language=lang),
        False: text("estimate.fits.no", language=lang),
        None: MISSING,
    }
)


def bound_words(bound: str | None) -> str:
    """What limits a step ('compute', 'memory') in the language in use; MISSING when unknown."""
    if not bound:
        return MISSING
    return text(f"estimate.bound.{bound}") if bound in ("compute", "memory") else bound


def memory_header(language: str | None = None) -> str:
    """What the memory column holds, said the same way in the window, the report and the CLI."""
    return text("estimate.memory.header", language=language)


def memory_units_note() -> str:
    """How memory figures are counted, stated wherever they show (window, report, CLI)."""
    return text("estimate.memory.units")


def cost_rule() -> str:
    """How the estimate's costs are priced, said the same way in the window, the report and the CLI."""
    return text("estimate.cost.rule")


def __getattr__(name: str) -> str:
    # the constants' names from before the words moved to resources/text, in the language in use
    if name == "MEMORY_HEADER":
        return memory_header()
    if name == "MEMORY_UNITS_NOTE":
        return memory_units_note()
    if name == "COST_RULE":
        return cost_rule()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def rule_words(rule: str) -> str:
    """One of the estimate's rules (as the Estimate holds it, in English) in the language in use; any other
    text unchanged."""
    english = area_texts("estimate", i18n.DEFAULT_LANGUAGE)
    for ident, words in english.items():
        if ident.startswith("rules.") and words == rule:
            return text(f"estimate.{ident}")
    return rule


def _chips(n: int | str | None, key: str) -> str:
    """'1 chip', '8 chips' (or their words in the language in use); MISSING for an unknown count."""
    return text(f"{key}_one" if n == 1 else key, n=n if n else MISSING)


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
    memory: str = MISSING  # "42.2 GB / 80 GB a chip; 169 GB / 320 GB a copy of 4": per chip, then per copy
    memory_fit: str = MISSING  # "169 GB / 320 GB": needed by one copy / held by its chips, ", does not fit" added
    memory_chip_fit: str = MISSING  # `memory` with ", does not fit" where it does not
    time_why: str = MISSING  # `time`, or where there is none, why: "– (one copy needs 4 chips)"


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


def row_name(row: EstimateRow, language: str | None = None) -> str:
    """The row's chip or device name in `language` (None: the language in use): a measured device and your
    compiled model are named in it; a catalogue chip by its own name."""
    if row.chip_name_text is not None:
        ident, values = row.chip_name_text
        return text(ident, language=language, **values)
    return row.chip_name


def mfu_source_words(row: EstimateRow, language: str | None = None, catalog: Catalog | None = None) -> str:
    """Where the row's MFU comes from, in `language` (None: the language in use): the app's words (your setting,
    a measurement, your compiled model), or the catalogue's line for the row's chip in that language when the
    row holds that line's English (`catalog`: the one the estimate used; None: the packaged one); else the
    row's own words."""
    if row.mfu_source_text is not None:
        ident, values = row.mfu_source_text
        return text(ident, language=language, **values)
    lang = language or i18n.current_language()
    if lang == i18n.DEFAULT_LANGUAGE or row.family in OWN_FAMILIES:
        return row.mfu_source
    catalog = catalog or load_catalog()
    chip = next((c for c in catalog.chips if c.id == row.chip_id), None)
    if chip is None or catalog.mfu_for(chip)[2] != row.mfu_source:
        return row.mfu_source
    return catalog.mfu_for(chip, lang)[2]


def estimate_cells(row: EstimateRow) -> EstimateCells:
    """The words and numbers of one estimate row."""
    peak = tflops(row.peak_flops)
    if row.peak_dtype and row.peak_dtype != "measured" and _known(row.peak_flops):
        peak += f" {row.peak_dtype}"
    low, high = row.mfu_low, row.mfu_high
    memory = memory_cell(row)
    copy = f"{format_bytes(row.memory_needed_bytes)} / {format_bytes(row.memory_available_bytes)}"
    mfu = f"{low:.2f}" if f"{low:.2f}" == f"{high:.2f}" else f"{low:.2f}-{high:.2f}"
    return EstimateCells(
        chip=row_name(row),
        kind=FAMILY_WORDS.get(row.family, row.family),
        peak=peak,
        mfu=mfu,
        time=time_range(row.days_low, row.days, row.days_high),
        time_why=time_range(row.days_low, row.days, row.days_high)
        if row.days is not None or row.no_time_text is None
        else text("estimate.cell.no_time", missing=MISSING, why=text(row.no_time_text[0], **row.no_time_text[1])),
        bound=bound_words(row.bound),
        fits=FITS_WORDS[row.fits],
        needed=format_bytes(row.memory_needed_bytes),
        available=format_bytes(row.memory_available_bytes),
        chips_per_copy=MISSING if row.chips_per_copy is None else str(row.chips_per_copy),
        cost=cost_range(row),
        memory=memory,
        memory_fit=text("estimate.cell.memory_no_fit", memory=copy, no_fit=FITS_WORDS[False])
        if row.fits is False
        else copy,
        memory_chip_fit=text("estimate.cell.memory_no_fit", memory=memory, no_fit=FITS_WORDS[False])
        if row.fits is False
        else memory,
    )


def memory_cell(row: EstimateRow) -> str:
    """A row's memory: per chip (what the fullest chip of a copy keeps / what a chip holds) and, for a copy of
    several chips, per copy; needed / available where the row has no per-chip figure."""
    copy = f"{format_bytes(row.memory_needed_bytes)} / {format_bytes(row.memory_available_bytes)}"
    if row.per_chip_bytes is None or row.chip_memory_bytes is None:
        return copy
    chip = (format_bytes(row.per_chip_bytes), format_bytes(row.chip_memory_bytes))
    if not row.chips_per_copy or row.chips_per_copy <= 1:
        return text("estimate.cell.memory_chip", need=chip[0], have=chip[1])
    return text(
        "estimate.cell.memory_copy",
        need=chip[0],
        have=chip[1],
        copy_need=format_bytes(row.memory_needed_bytes),
        copy_have=format_bytes(row.memory_available_bytes),
        n=row.chips_per_copy,
    )


def memory_tip(row: EstimateRow, training: bool) -> str:
    """One row's memory in words: what is needed, what one chip holds (as published), what is available."""
    chip = format_bytes(row.chip_memory_bytes)
    if row.chip_memory_stated and not row.chip_memory_stated.endswith(" GB"):
        chip = text("estimate.memory.as_published", memory=chip, stated=row.chip_memory_stated)
    n = row.chips_per_copy
    needed, available = format_bytes(row.memory_needed_bytes), format_bytes(row.memory_available_bytes)
    if training:
        acts = (
            text(
                "estimate.memory.activations",
                activations=format_bytes(row.activation_bytes),
                checkpointing=row.checkpointing,
            )
            if row.activation_bytes is not None
            else ""
        )
        tip = text(
            "estimate.memory.tip_training",
            needed=needed,
            activations=acts,
            chips=_chips(n, "estimate.memory.chips"),
            layout=layout_cell(row),
            available=available,
            chip=row_name(row),
            chip_memory=chip,
            usable=format_bytes(usable_memory(row.chip_memory_bytes)) if row.chip_memory_bytes else MISSING,
        )
    else:
        key = "estimate.memory.tip_serving" if n and n > 1 else "estimate.memory.tip_serving_one"
        tip = text(key, needed=needed, n=n, available=available, chip=row_name(row), chip_memory=chip)
    if row.fits is not None:
        tip = sentences(tip, text("estimate.memory.fits" if row.fits else "estimate.memory.no_fit"))
    return sentences(tip, text("estimate.memory.gb"))


def estimate_inputs(result: Estimate) -> str:
    """Every input the estimate used, defaults included and said to be defaults, in one sentence."""
    req = result.request
    parts = [text("estimate.inputs.params", n=format_quantity(req.params))]
    if req.mode == "training":
        default = text("estimate.inputs.tokens_default") if result.tokens_default else ""
        parts.append(text("estimate.inputs.training_tokens", n=format_quantity(result.tokens), default=default))
    else:
        parts.append(text("estimate.inputs.generate", n=format_quantity(result.tokens)))
        parts.append(text("estimate.inputs.prefill", n=format_quantity(result.prompt_tokens or 0)))
        parts.append(text("estimate.inputs.batch", n=result.batch))
        parts.append(text("estimate.inputs.weights", dtype="float32" if req.strict_fp32 else req.dtype))
    if result.context is not None:
        parts.append(text("estimate.inputs.context", n=result.context))
    if req.mode == "training" and result.micro_batch is not None:
        parts.append(text("estimate.inputs.micro_batch", n=result.micro_batch))
        parts.append(text("estimate.inputs.checkpointing", mode=req.checkpointing))
    if result.finetune is not None:
        ft = result.finetune
        if ft.method == "full":
            parts.append(text("estimate.inputs.finetune_full"))
        else:
            method = "LoRA" if ft.method == "lora" else "QLoRA"
            n = format_quantity(ft.adapter_params)
            parts.append(text("estimate.inputs.finetune_adapters", method=method, rank=ft.rank, n=n))
    if result.moe is not None:
        parts.append(text("estimate.inputs.active", n=format_quantity(result.moe.active)))
        if result.moe.experts is not None:
            parts.append(text("estimate.inputs.experts", n=result.moe.experts, k=result.moe.top_k))
    if result.shape is not None:
        sh = result.shape
        parts.append(
            text(
                "estimate.inputs.shape",
                layers=sh.layers,
                width=sh.width,
                heads=sh.heads,
                kv_heads=sh.kv_heads,
                origin=shape_origin(req, sh.aspect_ratio),
            )
        )
    if req.strict_fp32:
        parts.append(text("estimate.inputs.strict_fp32"))
    parts.append(_chips(req.chips, "estimate.inputs.chips"))
    return text("estimate.inputs.list_separator").join(parts)


def layout_cell(row: EstimateRow) -> str:
    """How one training copy is laid out, in the language in use: 'TP 8 x FSDP 2 x DP 4 (no recompute)', or MISSING."""
    if row.tensor_parallel is not None and row.pipeline_stages is not None:  # serving
        return serving_layout_name(row.tensor_parallel, row.pipeline_stages, row.copies)
    if row.tensor_parallel is None or row.shards is None or row.checkpointing is None:
        return MISSING
    return layout_name(row.tensor_parallel, row.shards, row.copies, row.checkpointing)


def layout_why(row: EstimateRow) -> str:
    """Why a training row has its layout, in the language in use ('' for none)."""
    return reasons_text(row.layout_why_texts) if row.layout_why_texts else (row.layout_why or "")


def training_memory_line(result: Estimate) -> str:
    """The training state and one micro-batch's activations, in one sentence."""
    ft = result.finetune
    state = format_bytes(ft.state_bytes if ft is not None else 16.0 * result.request.params)
    acts = sorted({row.activation_bytes for row in result.rows if row.activation_bytes is not None})
    if not acts:
        return text("estimate.memory.training_state", state=state, missing=MISSING)
    shown = (
        format_bytes(acts[0])
        if len(acts) == 1
        else text("estimate.memory.acts_range", low=format_bytes(acts[0]), high=format_bytes(acts[-1]))
    )
    if ft is not None and ft.frozen_bytes_per_param is not None:
        frozen = f"{ft.frozen_bytes_per_param:.3g}"
        return text("estimate.memory.training_state_adapters", state=state, frozen=frozen, activations=shown)
    return text("estimate.memory.training_state_acts", state=state, activations=shown)


def moe_line(result: Estimate) -> str:
    """The mixture-of-experts split the estimate used."""
    moe = result.moe
    assert moe is not None
    line = text("estimate.moe.split", active=format_quantity(moe.active), total=format_quantity(moe.total))
    if moe.shared is not None and moe.per_expert is not None:
        line += text(
            "estimate.moe.experts",
            shared=format_quantity(moe.shared),
            experts=moe.experts,
            per_expert=format_quantity(moe.per_expert),
            top_k=moe.top_k,
        )
    if result.request.mode == "inference":
        line += text("estimate.moe.decode", n=format_quantity(moe.decode_params))
    return line + text("estimate.moe.end")


#: How a row's warning begins when one model copy needs more chips than the request gives (the English
#: words the Estimate holds, core.estimate_layout's "too_few").
TOO_FEW_CHIPS = "one copy needs "


def row_warnings(row: EstimateRow) -> list[str]:
    """A row's warnings in the language in use: its layout warnings from their ids, any other as the row holds it."""
    if len(row.warning_texts) == len(row.warnings):
        return [warning_text(w) for w in row.warning_texts]
    return list(row.warnings)


def estimate_warnings(result: Estimate) -> list[str]:
    """The rows' warnings, each said once: the chips too small for one copy in one note (the Chips per copy
    column has each count, and such rows show no time), every other warning once with the chips it names."""
    short = [row for row in result.rows if any(w.startswith(TOO_FEW_CHIPS) for w in row.warnings)]
    lines = []
    if short:
        given = result.request.chips
        key = "estimate.warning.too_few_one" if given == 1 else "estimate.warning.too_few"
        lines.append(text(key, k=len(short), given=given, names=", ".join(row_name(row) for row in short)))
    others: dict[str, list[str]] = {}
    for row in result.rows:
        for english, w in zip(row.warnings, row_warnings(row), strict=True):
            if not english.startswith(TOO_FEW_CHIPS):
                others.setdefault(w, []).append(row_name(row))
    lines += [text("estimate.warning.chips", chips=", ".join(chips), warning=w) for w, chips in others.items()]
    return lines


# ---------------------------------------------------------------- costs


def cost_lines(row: EstimateRow) -> list[str]:
    """Where one row's cost comes from, in words: the price used, its source and age, spot beside it."""
    lines = []
    if row.price is not None:
        key = "estimate.cost.yours" if row.price.origin == "user" else "estimate.cost.on_demand"
        said = row.price.note_words()
        note = text("estimate.cost.note", note=said) if said else ""
        lines.append(text(key, price=row.price.describe(), note=note, cost=format_usd(row.cost_usd) or MISSING))
    if row.spot_price is not None:
        lines.append(
            text("estimate.cost.spot", price=row.spot_price.describe(), cost=cost_range(row, spot=True) or MISSING)
        )
    if row.usd_per_mtok is not None:
        spot = (
            text("estimate.cost.per_mtok_spot", usd=format_usd(row.spot_usd_per_mtok))
            if row.spot_usd_per_mtok is not None
            else ""
        )
        lines.append(text("estimate.cost.per_mtok", usd=format_usd(row.usd_per_mtok), spot=spot))
    return lines


def price_origins(result: Estimate) -> str:
    """Where the estimate's prices come from, in one clause: 'prices: shipped table, read 2026-12-01; yours
    for NVIDIA H100 (SXM); none known for NVIDIA B300 (HGX)'."""
    rows = [r for r in result.rows if r.family not in OWN_FAMILIES]
    origins = dict.fromkeys(
        q.describe_age() for r in rows for q in (r.price, r.spot_price) if q is not None and q.origin != "user"
    )
    separator = text("estimate.cost.origins_separator")
    parts = [
        text("estimate.cost.prices", origins=separator.join(origins) if origins else text("estimate.cost.no_table"))
    ]
    # chips by the names the table shows them by, never by their catalogue ids ("gb200-nvl72")
    yours = [row_name(r) for r in rows if r.price is not None and r.price.origin == "user"]
    if yours:
        parts.append(text("estimate.cost.yours_for", chips=", ".join(yours)))
    missing = [row_name(r) for r in rows if r.price is None and r.spot_price is None]
    if missing:
        parts.append(text("estimate.cost.none_known", chips=", ".join(missing)))
    return separator.join(parts)


def note_lines(result: Estimate) -> list[str]:
    """The bandwidth and precision notes, in the language in use (the Estimate holds them in English)."""
    lines = []
    if result.bw_share_source:
        english_nominal = bw_share_words(result.request, None, language=i18n.DEFAULT_LANGUAGE)
        own = result.request.bw_share or result.bw_share_source == english_nominal
        words = bw_share_words(result.request, None) if own else decode_words(result.bw_share_source)
        lines.append(text("estimate.line.bandwidth", text=words))
    if result.fp32_note:
        lines.append(text("estimate.line.precision", text=fp32_words()))
    if result.finetune is not None:
        lines.append(finetune_words(result.request, result.shape))
    if result.request.goodput is not None or result.request.spot_goodput is not None:
        lines.append(goodput_words(result))  # the default spot goodput is in the cost rule
    return lines


def goodput_words(result: Estimate) -> str:
    """The goodputs and where they come from, in the language in use."""
    req = result.request
    key = "estimate.goodput.user" if req.goodput is not None else "estimate.goodput.default"
    mine = text(key, g=f"{result.goodput:g}")
    spot = result.spot_goodput / result.goodput
    key = "estimate.goodput.spot_user" if req.spot_goodput is not None else "estimate.goodput.spot_default"
    return mine + " " + text(key, s=f"{spot:.3g}", total=f"{result.spot_goodput:.3g}")


def decode_words(english: str, catalog: Catalog | None = None) -> str:
    """The catalogue's decode share in the language in use, when `english` (what an Estimate keeps) is the
    catalogue's English line for it; else `english` as it is."""
    if i18n.current_language() == i18n.DEFAULT_LANGUAGE:
        return english
    catalog = catalog or load_catalog()
    if catalog.decode_words(i18n.DEFAULT_LANGUAGE) != english:
        return english
    return catalog.decode_words() or english


def estimate_model_lines(result: Estimate) -> list[str]:
    """What the estimate assumed beyond its rules: training memory, experts, bandwidth share, fp32."""
    lines = []
    if result.request.mode == "training" and result.rows:
        lines.append(training_memory_line(result))
    if result.moe is not None:
        lines.append(moe_line(result))
    lines += note_lines(result)
    if result.compiled_rule:
        lines.append(text("estimate.line.compiled", text=rule_words(result.compiled_rule)))
    return lines
