"""Back-of-envelope time, memory and cost of a training run or a serving job, per chip.

Training: 6·A·D FLOPs plus the attention term 12·L·c·d·D for context c (Hoffmann et al. 2022,
appendix F: forward 4·L·c·d per token, times three with the backward pass), A the parameters each
token uses (all of them, or the active ones of a mixture of experts), D = 20·N tokens by default
(compute-optimal; modern runs train on 10-100x more). Memory counts the training state (16 B per
parameter, all experts) and the activations one micro-batch keeps (Korthikanti et al. 2022), laid
out as tensor parallel inside a fast-link group and pipeline or sharded data parallel across
(core/transformer.py). Serving is modelled in two parts: prefill (the prompt) is compute-bound;
each decode step takes max(compute time, (weights read + KV-cache bytes) / (memory bandwidth x the
share decode reaches)) at the user's batch and context, and each row says which bound applies.
The shape follows the parameter count at a standard width-to-depth ratio unless the user gives it.
Efficiency is a low-high MFU range per chip (catalogue). Cost uses the price the user gives for a
chip, else the cheapest known price (the shipped table or a local catalogue, core.prices), with spot
beside it; serving also gets dollars per million tokens.

The work is split by job: core.estimate_workload (shape, FLOPs and bytes, chip-independent),
core.estimate_devices (each chip's or measured device's peaks, MFU range and prices),
core.estimate_layout (how a copy sits on a device's chips), core.estimate_rows (one device's row)
and core.estimate_compiled (rows from a model check's TPU compile); this module holds the rules, puts
the estimate together and re-exports every public name of the estimator.
"""

from __future__ import annotations

import math
import re

from gpu_tpu_app.core import transformer
from gpu_tpu_app.core.catalog import Catalog, load_catalog
from gpu_tpu_app.core.estimate.compiled import compiled_rows
from gpu_tpu_app.core.estimate.devices import (
    FP32_SOURCES,
    TPU_FP32_PASSES,
    catalog_devices,
    measured_devices,
    measured_from_run,
)
from gpu_tpu_app.core.estimate.models import (
    MAX_CHIPS,
    MAX_PARAMS,
    MAX_PRICE,
    MAX_TOKENS,
    OWN_FAMILIES,
    ChipEstimate,
    Estimate,
    EstimateRequest,
    EstimateRow,
    FineTune,
    MeasuredDevice,
    Moe,
    Shape,
)
from gpu_tpu_app.core.estimate.rows import chip_row
from gpu_tpu_app.core.estimate.workload import (
    DEFAULT_BATCH,
    DEFAULT_CONTEXT,
    DEFAULT_MICRO_BATCH,
    FINETUNE_SOURCES,
    INFERENCE_OVERHEAD,
    SPOT_GOODPUT,
    TOKENS_PER_PARAM,
    TRAINING_BYTES_PER_PARAM,
    activations,
    adapter_params,
    finetune_of,
    memory_needed,
    model_shape,
    moe_of,
    recompute_factor,
    step_bytes,
    total_flops,
    training_state,
    training_tokens,
    workload,
)
from gpu_tpu_app.core.prices import PriceBook
from gpu_tpu_app.core.tpu_compile import TpuCompile
from gpu_tpu_app.errors import InputError


def _rule(ident: str) -> str:
    """A rule (resources/text/estimate.en.toml, [rules]) as the Estimate holds it: English in every
    language, since JSON is a contract for tools; people read it through estimate_text.rule_words."""
    from gpu_tpu_app.core.texts import text

    return text(f"estimate.rules.{ident}", language="en")


def bw_share_words(req: EstimateRequest, decode: str | None, language: str | None = None) -> str:
    """Where the decode share of bandwidth comes from: the user's share, the catalogue's measured range
    (`decode`, its own words), or nominal bandwidth; in `language` (None: the language in use)."""
    from gpu_tpu_app.core.texts import text

    if req.bw_share:
        return text("estimate.note.bw_share_user", language=language, share=f"{req.bw_share:g}")
    return decode if decode is not None else text("estimate.note.bw_share_nominal", language=language)


def fp32_words(language: str | None = None) -> str:
    """How strict fp32 is priced, in `language` (None: the language in use)."""
    from gpu_tpu_app.core.texts import text

    few, many = TPU_FP32_PASSES
    return text("estimate.note.strict_fp32", language=language, few=few, many=many, sources=", ".join(FP32_SOURCES))


RULE_SOURCES = {
    "training": ["eleuther-transformer-math", "hoffmann-2022", transformer.ACTIVATION_SOURCE, transformer.FLASH_SOURCE],
    "inference": ["eleuther-transformer-math"],
}

__all__ = [
    "DEFAULT_BATCH",
    "DEFAULT_CONTEXT",
    "DEFAULT_MICRO_BATCH",
    "FP32_SOURCES",
    "INFERENCE_OVERHEAD",
    "MAX_CHIPS",
    "MAX_PARAMS",
    "MAX_PRICE",
    "MAX_TOKENS",
    "OWN_FAMILIES",
    "RULE_SOURCES",
    "SPOT_GOODPUT",
    "TOKENS_PER_PARAM",
    "TPU_FP32_PASSES",
    "TRAINING_BYTES_PER_PARAM",
    "ChipEstimate",
    "Estimate",
    "EstimateRequest",
    "EstimateRow",
    "FineTune",
    "MeasuredDevice",
    "Moe",
    "Shape",
    "activations",
    "adapter_params",
    "estimate",
    "measured_from_run",
    "memory_needed",
    "model_shape",
    "moe_of",
    "parse_quantity",
    "recompute_factor",
    "step_bytes",
    "total_flops",
    "training_state",
    "training_tokens",
]


def estimate(
    req: EstimateRequest,
    catalog: Catalog | None = None,
    measured: list[MeasuredDevice] | None = None,
    book: PriceBook | None = None,
    compiled: TpuCompile | None = None,
) -> Estimate:
    """Estimate the request on every catalogue chip (and each measured device); rows fastest first.

    A chip's cost uses the user's price (req.prices), else the cheapest on-demand price in `book`
    (in req.price_cloud / req.price_region when given), with the cheapest spot price beside it.
    `compiled`, a model check's TPU compile, adds a row per generation from the model's own compiled
    memory, FLOPs and bytes (core.estimate_compiled).
    Raises InputError when a price names a chip id the catalogue does not have.
    """
    catalog = catalog if catalog is not None else load_catalog()
    known = {chip.id for chip in catalog.chips}
    for chip_id in req.prices:
        if chip_id not in known:
            raise InputError(f"prices: unknown chip id {chip_id!r} (known: {', '.join(sorted(known))})")
    flops, tokens = total_flops(req)
    work = workload(req)
    shape = work.shape
    used_sources = list(RULE_SOURCES[req.mode]) + list(transformer.SHAPE_SOURCES)
    used_sources += FINETUNE_SOURCES.get(req.finetune or "", [])
    if req.strict_fp32:
        used_sources.extend(FP32_SOURCES)
    devices = catalog_devices(req, catalog, used_sources, book)
    stated = {
        chip.id: f"{chip.memory.value:g} {chip.memory.unit}" for chip in catalog.chips if chip.memory.value is not None
    }
    devices += measured_devices(measured)
    rows = [
        chip_row(req, dev, low, high, mfu_source, quotes, work, stated)
        for dev, low, high, mfu_source, quotes in devices
    ]
    own = compiled_rows(compiled, catalog, req)
    rows += own
    rows.sort(key=lambda r: (r.days is None, r.days if r.days is not None else 0.0, r.chip_id))
    share_source = None
    if req.mode == "inference":
        decode = catalog.decode.describe() if catalog.decode is not None else None  # the catalogue's own words
        share_source = bw_share_words(req, decode, language="en")
    fp32_note = fp32_words(language="en") if req.strict_fp32 else None
    good = req.goodput or 1.0
    spot_good = req.spot_goodput if req.spot_goodput is not None else SPOT_GOODPUT
    return Estimate(
        request=req,
        tokens=tokens,
        tokens_default=req.mode == "training" and req.tokens is None,
        flops=flops,
        rule=_rule(("training_adapters" if req.adapters else "training") if req.mode == "training" else "inference"),
        memory_rule=_rule(
            ("training_memory_adapters" if req.adapters else "training_memory")
            if req.mode == "training"
            else "inference_memory"
        ),
        sources=list(dict.fromkeys(used_sources)),
        shape=shape,
        batch=(req.batch or DEFAULT_BATCH) if req.mode == "inference" else None,
        context=req.context or DEFAULT_CONTEXT,
        prompt_tokens=(req.prompt_tokens or 0.0) if req.mode == "inference" else None,
        micro_batch=(req.micro_batch or DEFAULT_MICRO_BATCH) if req.mode == "training" else None,
        moe=moe_of(req),
        finetune=finetune_of(req, shape),
        bw_share_source=share_source,
        fp32_note=fp32_note,
        compiled_rule=_rule("compiled") if own else None,
        goodput=good,
        spot_goodput=good * spot_good,
        goodput_note=_goodput_note(req, good, spot_good),
        rows=rows,
    )


def _goodput_note(req: EstimateRequest, good: float, spot: float) -> str:
    """Where the goodputs come from, in English (the Estimate keeps it): the user's, or the spot default's
    arithmetic."""
    from gpu_tpu_app.core.texts import text

    mine = text(
        "estimate.goodput.user" if req.goodput is not None else "estimate.goodput.default", language="en", g=f"{good:g}"
    )
    key = "estimate.goodput.spot_user" if req.spot_goodput is not None else "estimate.goodput.spot_default"
    return mine + " " + text(key, language="en", s=f"{spot:.3g}", total=f"{good * spot:.3g}")


_SUFFIXES = {"k": 1e3, "m": 1e6, "b": 1e9, "g": 1e9, "t": 1e12, "p": 1e15}
_QUANTITY = re.compile(r"^([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:e[+-]?[0-9]+)?)\s*([kmbgtp]?)$", re.IGNORECASE)


def parse_quantity(text: str) -> float:
    """A count written as 7e9, 7B, 70M, 1.4T, 7_000_000 or 7,000,000; ValueError otherwise."""
    cleaned = text.strip().replace("_", "").replace(",", "")
    found = _QUANTITY.match(cleaned)
    if not found:
        from gpu_tpu_app.core.texts import text as _text  # only on the error path: the module starts quickly

        raise ValueError(_text("errors.quantity.not_a_number", value=repr(text)))
    value = float(found.group(1)) * _SUFFIXES.get(found.group(2).lower(), 1.0)
    if not math.isfinite(value):
        from gpu_tpu_app.core.texts import text as _text

        raise ValueError(_text("errors.quantity.not_finite", value=repr(text)))
    return value
