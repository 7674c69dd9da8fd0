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
"""

from __future__ import annotations

import math
import re
from typing import Any, NamedTuple

from gpu_tpu_app.core import transformer
from gpu_tpu_app.core.catalog import Catalog, Chip, load_catalog
from gpu_tpu_app.core.estimate_models import (
    MAX_CHIPS,
    MAX_PARAMS,
    MAX_PRICE,
    MAX_TOKENS,
    ChipEstimate,
    Estimate,
    EstimateRequest,
    EstimateRow,
    MeasuredDevice,
    Moe,
    Shape,
)
from gpu_tpu_app.core.prices import PriceBook, Quote, chip_quotes
from gpu_tpu_app.core.terms import FUNCTIONAL_CHECK, MEMORY_KERNELS
from gpu_tpu_app.core.transformer import Checkpointing
from gpu_tpu_app.core.trust import is_functional_check, trusted_results
from gpu_tpu_app.core.units import SECONDS_PER_DAY, count_words
from gpu_tpu_app.errors import InputError

#: Compute-optimal tokens per parameter (Hoffmann et al. 2022).
TOKENS_PER_PARAM = 20.0
#: Mixed-precision AdamW training state per parameter, before activations.
TRAINING_BYTES_PER_PARAM = 16.0
#: serving: runtime buffers on top of the weights when checking whether a copy fits (research notes:
#: inference memory is about 1.2 x the weight bytes); a decode step still reads weights + KV cache only.
INFERENCE_OVERHEAD = 1.2
#: context length (tokens per sequence) when none is given.
DEFAULT_CONTEXT = 2048
#: sequences decoded together per model copy when none is given.
DEFAULT_BATCH = 1
#: training sequences per micro-step of one copy when none is given (Megatron-LM and Llama 3 run 1).
DEFAULT_MICRO_BATCH = 1
#: strict fp32 on a TPU: the matrix units multiply in bf16, so an fp32 product takes 3 (bf16_3x,
#: precision=HIGH) to 6 (precision=HIGHEST) bf16 passes (JAX matmul precision docs).
TPU_FP32_PASSES = (3, 6)
FP32_SOURCES = ["jax-matmul-precision"]


TRAINING_RULE = (
    "training FLOPs = 6 x N x D + 12 x L x c x d x D: 6ND for the weights each token uses (forward 2ND, "
    "backward 4ND; N = the active parameters of a mixture of experts) plus attention over a context of c "
    "tokens (forward 4 x L x c x d per token, three times with the backward pass); D = 20 x N tokens when "
    "not given (compute-optimal, N the total parameters; modern runs train on 10-100x more); time = FLOPs "
    "x recomputation / (chips in whole copies x peak x MFU), where selective recomputation repeats the "
    "attention's forward pass and full checkpointing the whole forward pass"
)
INFERENCE_RULE = (
    "serving = prefill + decode. Prefill (the prompt tokens) is compute-bound: (2 x N + 4 x L x c x d) FLOPs "
    "per token (N the active parameters) / (chips x peak x MFU). Each decode step of one model copy produces "
    "one token for each of the batch's sequences and takes max(compute time, (weight bytes read + KV-cache "
    "bytes) / (memory bandwidth of the chips the copy is split over x the share of it decode reaches)); a "
    "mixture of experts reads its shared weights and the experts the batch routes to; copies work in parallel"
)
TRAINING_MEMORY_RULE = (
    "training memory per copy = 16 bytes per parameter, all experts counted (mixed-precision AdamW: 2 B bf16 "
    "weights + 2 B gradients + 4 B fp32 master weights + 8 B Adam moments; 16-18 B is the usual range) + the "
    "activations one micro-batch keeps for the backward pass (Korthikanti et al. 2022, with sequence "
    "parallelism: s x b x h x (34 + 5 x a x s / h) bytes per layer without recomputation, 34 with selective "
    "recomputation, 2 with full checkpointing plus one layer's working set). One copy is tensor parallel over "
    "t chips inside a fast-link group (at most 8, dividing the heads) and pipeline stages or sharded data "
    "parallel over p groups, both powers of two: the fullest chip holds state / (t x p) + activations / t; "
    "checkpointing 'auto' takes the least recomputation that reaches the fewest chips"
)
INFERENCE_MEMORY_RULE = (
    "memory per model copy = 1.2 x weight bytes (20% for runtime buffers; all experts of a mixture) + KV cache "
    "(2 x L x KV heads x head size x bytes per value, per token, for batch x context tokens); a copy that does "
    "not fit one chip is split over the fewest chips that hold it"
)
RULE_SOURCES = {
    "training": ["eleuther-transformer-math", "hoffmann-2022", transformer.ACTIVATION_SOURCE],
    "inference": ["eleuther-transformer-math"],
}
MEASURED_MFU_SOURCE = (
    "measured matmul on {where}: the measured throughput is already achieved, so the efficiency "
    "factor is 1.0 (a best case: a full model step reaches less than a pure matmul)"
)

__all__ = [
    "MAX_CHIPS",
    "MAX_PARAMS",
    "MAX_PRICE",
    "MAX_TOKENS",
    "ChipEstimate",
    "Estimate",
    "EstimateRequest",
    "EstimateRow",
    "MeasuredDevice",
    "Moe",
    "Shape",
    "estimate",
    "measured_from_run",
    "model_shape",
    "parse_quantity",
]


def measured_from_run(run: Any) -> list[MeasuredDevice]:
    """One MeasuredDevice per device of a probe run (core.runs.RunFile) with an ok matmul result.

    Its flops is the best median matmul FLOP/s over sizes and dtypes, its bandwidth the best
    bytes-per-second result of the run's memory kernels; suspect, failed, skipped and flagged points
    (core.trust: too noisy, in cache, above a roof) are left out.
    """
    best: dict[str, float] = {}
    bandwidth: dict[str, float] = {}
    for result in trusted_results(run):
        if result.status != "ok" or not result.value or result.value <= 0:
            continue
        if result.kernel == "matmul" and result.metric == "flops":
            best[result.device] = max(best.get(result.device, 0.0), float(result.value))
        elif result.metric == "bytes_per_s" and result.kernel in MEMORY_KERNELS:
            bandwidth[result.device] = max(bandwidth.get(result.device, 0.0), float(result.value))
    devices = []
    for key, flops in best.items():
        info = run.device(key)
        name = info.name if info is not None else key
        if is_functional_check(run):
            name += f" ({FUNCTIONAL_CHECK})"
        devices.append(
            MeasuredDevice(
                name=name,
                flops=flops,
                memory_bytes=getattr(info, "memory_bytes", None),
                key=key,
                host=getattr(run, "host", None),
                bandwidth=bandwidth.get(key),
            )
        )
    return devices


def model_shape(req: EstimateRequest) -> Shape:
    """The shape used for the KV cache, the attention term and the activations: the user's parts, the
    rest from the parameter count (the active ones of a mixture of experts) at the width-to-depth ratio."""
    ratio = req.aspect_ratio or transformer.DEFAULT_ASPECT_RATIO
    dims = transformer.default_dims(req.active, ratio, req.layers, req.width, req.heads, req.kv_heads)
    given = [v is not None for v in (req.layers, req.width, req.heads, req.kv_heads)]
    head_size = dims.width / dims.heads
    kv_per_token = 2.0 * dims.layers * dims.kv_heads * head_size * req.value_bytes
    which = "active parameters" if req.active_params is not None else "parameter count"
    derived = f"from the {which} at width / layers = {ratio:g}"
    origin = "given" if all(given) else f"given, the rest {derived}" if any(given) else derived
    return Shape(
        layers=dims.layers,
        width=dims.width,
        heads=dims.heads,
        kv_heads=dims.kv_heads,
        head_size=head_size,
        kv_bytes_per_token=kv_per_token,
        origin=origin,
        aspect_ratio=ratio,
    )


def _attention_flops_per_token(shape: Shape, context: int) -> float:
    """Forward attention FLOPs per token at `context` tokens: scores and weighted sum, 4 x L x c x d."""
    return 4.0 * shape.layers * context * shape.width


def training_tokens(req: EstimateRequest) -> float:
    """Tokens to train on: given, or 20 per parameter (all experts counted)."""
    return req.tokens if req.tokens is not None else TOKENS_PER_PARAM * req.params


def total_flops(req: EstimateRequest) -> tuple[float, float]:
    """(FLOPs, tokens): training (6A + 12·L·c·d)·D with D = 20·N by default; serving (2A + 4·L·c·d) per
    token served (prompt and generated); A the parameters each token uses."""
    shape = model_shape(req)
    context = req.context or DEFAULT_CONTEXT
    attention = _attention_flops_per_token(shape, context)
    if req.mode == "training":
        tokens = training_tokens(req)
        return (6.0 * req.active + 3.0 * attention) * tokens, tokens
    assert req.tokens is not None
    served = req.tokens + (req.prompt_tokens or 0.0)
    return (2.0 * req.active + attention) * served, req.tokens


def moe_of(req: EstimateRequest) -> Moe | None:
    """The mixture of experts split, or None for a dense model."""
    if req.active_params is None:
        return None
    split = None
    if req.experts is not None and req.top_k is not None:
        split = transformer.moe_split(req.params, req.active_params, req.experts, req.top_k)
    batch = (req.batch or DEFAULT_BATCH) if req.mode == "inference" else 1
    return Moe(
        total=req.params,
        active=req.active_params,
        experts=req.experts,
        top_k=req.top_k,
        shared=split.shared if split else None,
        per_expert=split.per_expert if split else None,
        decode_params=transformer.decode_weights(req.params, req.active_params, split, batch),
    )


def activations(req: EstimateRequest, shape: Shape | None = None) -> dict[Checkpointing, float]:
    """Activation bytes of one training micro-batch over all layers, per checkpointing mode offered."""
    shape = shape or model_shape(req)
    context = req.context or DEFAULT_CONTEXT
    tokens = (req.micro_batch or DEFAULT_MICRO_BATCH) * context
    modes = transformer.CHECKPOINTING_ORDER if req.checkpointing == "auto" else (req.checkpointing,)
    return {
        mode: transformer.activation_bytes(
            mode,
            shape.layers,
            tokens,
            shape.width,
            shape.heads,
            context,
            top_k=req.top_k or 1,
            value_bytes=4.0 if req.strict_fp32 else 2.0,
        )
        for mode in modes
    }


def training_state(req: EstimateRequest) -> float:
    """Bytes of weights, gradients and optimizer state: 16 per parameter, all experts."""
    return TRAINING_BYTES_PER_PARAM * req.params


def memory_needed(req: EstimateRequest) -> float:
    """Bytes per model copy: the training state plus, for the least recomputation offered, one
    micro-batch's activations; weights plus KV cache (batch x context) for serving."""
    if req.mode == "training":
        return training_state(req) + next(iter(activations(req).values()))
    return INFERENCE_OVERHEAD * req.params * req.value_bytes + _kv_bytes(req)


def _kv_bytes(req: EstimateRequest) -> float:
    """KV-cache bytes of one model copy: batch x context tokens."""
    return (req.batch or DEFAULT_BATCH) * (req.context or DEFAULT_CONTEXT) * model_shape(req).kv_bytes_per_token


def step_bytes(req: EstimateRequest) -> float:
    """Bytes one decode step of one copy reads: the weights it uses (all of a dense model; the shared
    weights and the routed experts of a mixture) and the whole KV cache."""
    moe = moe_of(req)
    weights = moe.decode_params if moe is not None else req.params
    return weights * req.value_bytes + _kv_bytes(req)


def recompute_factor(mode: str | None, shape: Shape, req: EstimateRequest) -> float:
    """Hardware FLOPs over model FLOPs: selective recomputation repeats the attention core's forward
    pass, full checkpointing the whole forward pass."""
    if mode not in ("selective", "full"):
        return 1.0
    attention = _attention_flops_per_token(shape, req.context or DEFAULT_CONTEXT)
    model = 6.0 * req.active + 3.0 * attention
    extra = attention if mode == "selective" else 2.0 * req.active + attention
    return (model + extra) / model


class _Device(NamedTuple):
    chip_id: str
    name: str
    family: str
    peak: float | None  # at the middle of the range
    peak_low: float | None
    peak_high: float | None
    peak_dtype: str | None
    mem_bw: float | None
    memory: float | None
    domain: int | None
    domain_note: str | None
    share_low: float
    share_high: float


def _days(seconds: float | None) -> float | None:
    return None if seconds is None else seconds / SECONDS_PER_DAY


class _Workload(NamedTuple):
    """What every row shares, worked out once: the shape, one copy's memory, a decode step's bytes,
    the training state and the activations per checkpointing mode."""

    shape: Shape
    needed: float
    step_bytes: float
    state: float
    activations: dict[Checkpointing, float]


def _workload(req: EstimateRequest) -> _Workload:
    shape = model_shape(req)
    training = req.mode == "training"
    return _Workload(
        shape=shape,
        needed=memory_needed(req),
        step_bytes=0.0 if training else step_bytes(req),
        state=training_state(req),
        activations=activations(req, shape) if training else {},
    )


class _Plan(NamedTuple):
    """How one copy sits on a device: chips per copy, copies, and the training layout."""

    per_copy: int | None
    copies: int | None
    layout: transformer.Layout | None


def _plan(req: EstimateRequest, dev: _Device, work: _Workload) -> _Plan:
    if dev.memory is None or dev.memory <= 0:
        return _Plan(None, None, None)
    needed = work.needed
    if req.mode == "training":
        limit = transformer.tensor_limit(dev.domain, work.shape.heads)
        layout = transformer.best_layout(work.state, work.activations, dev.memory, limit)
        if layout is None:
            return _Plan(None, 0, None)
        return _Plan(layout.chips, req.chips // layout.chips, layout)
    per_copy = max(1, math.ceil(needed / dev.memory))
    return _Plan(per_copy, req.chips // per_copy, None)


def _row_times(
    req: EstimateRequest, dev: _Device, work: _Workload, plan: _Plan, mfu: float, peak: float | None, share: float
) -> dict[str, Any]:
    """Times, bound and copies of one device at one MFU, one peak and one bandwidth share."""
    shape = work.shape
    context = req.context or DEFAULT_CONTEXT
    attention = _attention_flops_per_token(shape, context)
    out: dict[str, Any] = {"seconds": None, "bound": None, "prefill": None, "decode": None, "step": None, "tps": None}
    if peak is None or peak <= 0 or plan.per_copy is None or not plan.copies:
        return out  # no peak, no memory figure, or one copy needs more chips than there are
    used = plan.copies * plan.per_copy
    if req.mode == "training":
        mode = plan.layout.checkpointing if plan.layout is not None else None
        flops = (6.0 * req.active + 3.0 * attention) * training_tokens(req) * recompute_factor(mode, shape, req)
        out.update(seconds=flops / (used * peak * mfu), bound="compute")
        return out
    assert req.tokens is not None
    prefill_flops = (req.prompt_tokens or 0.0) * (2.0 * req.active + attention)
    prefill = prefill_flops / (used * peak * mfu)
    batch = req.batch or DEFAULT_BATCH
    step_compute = batch * (2.0 * req.active + attention) / (plan.per_copy * peak * mfu)
    if dev.mem_bw is None or dev.mem_bw <= 0:
        return out  # no bandwidth figure: the decode bound cannot be told
    step_memory = work.step_bytes / (plan.per_copy * dev.mem_bw * share)
    step = max(step_compute, step_memory)
    tps = plan.copies * batch / step
    decode = req.tokens / tps
    out.update(
        seconds=prefill + decode,
        bound="memory" if step_memory >= step_compute else "compute",
        prefill=prefill,
        decode=decode,
        step=step,
        tps=tps,
    )
    return out


def _warnings(req: EstimateRequest, dev: _Device, plan: _Plan) -> list[str]:
    found = []
    per_copy, copies = plan.per_copy, plan.copies
    if req.mode == "training" and dev.memory is not None and plan.layout is None:
        found.append(
            "one micro-batch's activations do not fit even spread over the largest tensor-parallel group: "
            "shorten the context, use full checkpointing or a smaller micro-batch"
        )
    if per_copy is not None and per_copy > req.chips:
        found.append(f"one copy needs {per_copy} chips, more than the {req.chips} given")
    if dev.domain is not None:
        where = f" ({dev.domain_note})" if dev.domain_note else ""
        if req.mode == "training" and req.chips > dev.domain:
            found.append(
                f"{req.chips} chips exceed the largest fast-link group of {dev.domain}{where}; the "
                "slower network between groups is not modelled"
            )
        elif req.mode == "inference" and per_copy is not None and per_copy > dev.domain:
            found.append(
                f"one copy spans {per_copy} chips, more than the largest fast-link group of "
                f"{dev.domain}{where}; the slower links between them are not modelled"
            )
    if copies is not None and per_copy is not None and copies >= 1 and req.chips % per_copy:
        found.append(
            f"{count_words(req.chips % per_copy, 'chip')} left idle: {req.chips} is not a multiple of {per_copy}"
        )
    return found


def _chip_row(
    req: EstimateRequest,
    dev: _Device,
    low: float,
    high: float,
    mfu_source: str,
    prices: tuple[Quote | None, Quote | None],
    work: _Workload,
    stated: dict[str, str],
) -> ChipEstimate:
    """One device's row: times at the middle and both ends of the range, whether it fits, and the cost."""
    needed_default = work.needed
    plan = _plan(req, dev, work)
    mid = (low + high) / 2.0
    share_mid = (dev.share_low + dev.share_high) / 2.0
    at_mid = _row_times(req, dev, work, plan, mid, dev.peak, share_mid)
    fast = _row_times(req, dev, work, plan, high, dev.peak_high, dev.share_high)
    slow = _row_times(req, dev, work, plan, low, dev.peak_low, dev.share_low)
    days = _days(at_mid["seconds"])
    per_copy, layout = plan.per_copy, plan.layout
    needed = needed_default
    if layout is not None:
        needed = work.state + layout.activations
    fits = (per_copy <= req.chips) if per_copy is not None else (False if dev.memory is not None else None)
    if req.mode == "inference" and dev.memory is not None and per_copy is not None:
        fits = needed <= dev.memory and per_copy <= req.chips
    available = dev.memory * per_copy if (dev.memory is not None and per_copy is not None) else None
    price, spot = prices
    cost, spot_cost = (
        days * 24.0 * req.chips * q.usd if (q is not None and days is not None) else None for q in (price, spot)
    )
    per_mtok = req.mode == "inference" and req.tokens is not None and req.tokens > 0
    return ChipEstimate(
        chip_id=dev.chip_id,
        chip_name=dev.name,
        family=dev.family,
        peak_flops=dev.peak,
        peak_dtype=dev.peak_dtype,
        mfu=round(mid, 4),
        mfu_low=low,
        mfu_high=high,
        mfu_source=mfu_source,
        days=days,
        days_low=_days(fast["seconds"]),
        days_high=_days(slow["seconds"]),
        bound=at_mid["bound"],
        fits=fits,
        memory_needed_bytes=needed,
        memory_available_bytes=available,
        chip_memory_bytes=dev.memory,
        chip_memory_stated=stated.get(dev.chip_id),
        chips_per_copy=per_copy,
        copies=plan.copies,
        mem_bw=dev.mem_bw,
        bw_share_low=dev.share_low if req.mode == "inference" else None,
        bw_share_high=dev.share_high if req.mode == "inference" else None,
        prefill_days=_days(at_mid["prefill"]),
        decode_days=_days(at_mid["decode"]),
        step_seconds=at_mid["step"],
        tokens_per_second=at_mid["tps"],
        tensor_parallel=layout.tensor if layout else None,
        shards=layout.shards if layout else None,
        checkpointing=layout.checkpointing if layout else None,
        activation_bytes=layout.activations if layout else None,
        per_chip_bytes=layout.per_chip if layout else None,
        warnings=_warnings(req, dev, plan),
        cost_usd=cost,
        price=price,
        spot_price=spot,
        spot_cost_usd=spot_cost,
        usd_per_mtok=cost / (req.tokens / 1e6) if (per_mtok and cost is not None and req.tokens) else None,
        spot_usd_per_mtok=spot_cost / (req.tokens / 1e6)
        if (per_mtok and spot_cost is not None and req.tokens)
        else None,
    )


def _peaks(chip: Chip, req: EstimateRequest) -> tuple[float | None, float | None, float | None, str | None]:
    """(middle, low, high) peak FLOP/s the time uses, and which peak it is.

    bf16 dense (fp16 where a chip has no bf16); with strict fp32, the chip's fp32 figure, or on a
    TPU the bf16 peak over 3 to 6 passes."""
    if req.strict_fp32:
        if chip.family == "tpu":
            bf16 = chip.peak_flops("bfloat16")
            if bf16 is None:
                return None, None, None, None
            few, many = TPU_FP32_PASSES
            return bf16 / ((few + many) / 2), bf16 / many, bf16 / few, f"float32 as {few}-{many} bf16 passes"
        fp32 = chip.peak_flops("float32")
        return fp32, fp32, fp32, "float32" if fp32 is not None else None
    peak, dtype = chip.peak_flops("bfloat16"), "bfloat16"
    if peak is None and chip.peak_flops("float16") is not None:
        peak, dtype = chip.peak_flops("float16"), "float16"
    return peak, peak, peak, dtype if peak is not None else None


_Quotes = tuple[Quote | None, Quote | None]


def _catalog_devices(
    req: EstimateRequest, catalog: Catalog, used_sources: list[str], book: PriceBook | None
) -> list[tuple[_Device, float, float, str, _Quotes]]:
    share_low, share_high = (req.bw_share, req.bw_share) if req.bw_share else catalog.decode_share()
    if req.mode == "inference" and req.bw_share is None and catalog.decode is not None:
        used_sources.extend(catalog.decode.sources)
    devices = []
    for chip in catalog.chips:
        peak, peak_low, peak_high, dtype = _peaks(chip, req)
        if req.mfu is not None:
            low = high = req.mfu
            mfu_source = "set by the user"
        else:
            low, high, mfu_source, mfu_sources = catalog.mfu_for(chip)
            used_sources.extend(mfu_sources)
        dev = _Device(
            chip.id,
            chip.name,
            chip.family,
            peak,
            peak_low,
            peak_high,
            dtype,
            chip.mem_bw_bytes_per_s(),
            chip.memory_bytes(),
            chip.domain_chips(),
            chip.domain.note if chip.domain is not None else None,
            share_low,
            share_high,
        )
        quotes = chip_quotes(book, chip.id, req.prices.get(chip.id), req.price_cloud, req.price_region)
        devices.append((dev, low, high, mfu_source, quotes))
    return devices


def estimate(
    req: EstimateRequest,
    catalog: Catalog | None = None,
    measured: list[MeasuredDevice] | None = None,
    book: PriceBook | None = None,
) -> Estimate:
    """Estimate the request on every catalogue chip (and each measured device); rows fastest first.

    A chip's cost uses the user's price (req.prices), else the cheapest on-demand price in `book`
    (in req.price_cloud / req.price_region when given), with the cheapest spot price beside it.
    Raises InputError when a price names a chip id the catalogue does not have.
    """
    catalog = catalog if catalog is not None else load_catalog()
    known = {chip.id for chip in catalog.chips}
    for chip_id in req.prices:
        if chip_id not in known:
            raise InputError(f"prices: unknown chip id {chip_id!r} (known: {', '.join(sorted(known))})")
    flops, tokens = total_flops(req)
    work = _workload(req)
    shape = work.shape
    used_sources = list(RULE_SOURCES[req.mode]) + list(transformer.SHAPE_SOURCES)
    if req.strict_fp32:
        used_sources.extend(FP32_SOURCES)
    devices = _catalog_devices(req, catalog, used_sources, book)
    stated = {
        chip.id: f"{chip.memory.value:g} {chip.memory.unit}" for chip in catalog.chips if chip.memory.value is not None
    }
    for device in measured or []:
        dev = _Device(
            f"measured:{device.key or device.name}",
            f"{device.name} (measured)",
            "measured",
            device.flops,
            device.flops,
            device.flops,
            "measured",
            device.bandwidth,
            device.memory_bytes,
            None,
            None,
            1.0,
            1.0,
        )
        where = MEASURED_MFU_SOURCE.format(where=device.host or "this machine")
        devices.append((dev, 1.0, 1.0, where, (None, None)))
    rows = [
        _chip_row(req, dev, low, high, mfu_source, quotes, work, stated)
        for dev, low, high, mfu_source, quotes in devices
    ]
    rows.sort(key=lambda r: (r.days is None, r.days if r.days is not None else 0.0, r.chip_id))
    share_source = None
    if req.mode == "inference":
        share_source = (
            f"{req.bw_share:g} of nominal bandwidth, set by the user"
            if req.bw_share
            else catalog.decode.describe()
            if catalog.decode is not None
            else "nominal bandwidth (the catalogue gives no measured share)"
        )
    fp32_note = None
    if req.strict_fp32:
        few, many = TPU_FP32_PASSES
        fp32_note = (
            f"strict fp32: GPUs at their FP32 peak (no TF32); TPUs at the bf16 peak / {few}-{many}, the bf16 "
            f"passes of one fp32 product (precision=HIGH to HIGHEST; sources: {', '.join(FP32_SOURCES)})"
        )
    return Estimate(
        request=req,
        tokens=tokens,
        tokens_default=req.mode == "training" and req.tokens is None,
        flops=flops,
        rule=TRAINING_RULE if req.mode == "training" else INFERENCE_RULE,
        memory_rule=TRAINING_MEMORY_RULE if req.mode == "training" else INFERENCE_MEMORY_RULE,
        sources=list(dict.fromkeys(used_sources)),
        shape=shape,
        batch=(req.batch or DEFAULT_BATCH) if req.mode == "inference" else None,
        context=req.context or DEFAULT_CONTEXT,
        prompt_tokens=(req.prompt_tokens or 0.0) if req.mode == "inference" else None,
        micro_batch=(req.micro_batch or DEFAULT_MICRO_BATCH) if req.mode == "training" else None,
        moe=moe_of(req),
        bw_share_source=share_source,
        fp32_note=fp32_note,
        rows=rows,
    )


_SUFFIXES = {"k": 1e3, "m": 1e6, "b": 1e9, "g": 1e9, "t": 1e12, "p": 1e15}
_QUANTITY = re.compile(r"^([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:e[+-]?[0-9]+)?)\s*([kmbgtp]?)$", re.IGNORECASE)


def parse_quantity(text: str) -> float:
    """A count written as 7e9, 7B, 70M, 1.4T, 7_000_000 or 7,000,000; ValueError otherwise."""
    cleaned = text.strip().replace("_", "").replace(",", "")
    found = _QUANTITY.match(cleaned)
    if not found:
        raise ValueError(f"not a number: {text!r} (write e.g. 7e9, 7B or 70M)")
    value = float(found.group(1)) * _SUFFIXES.get(found.group(2).lower(), 1.0)
    if not math.isfinite(value):
        raise ValueError(f"not a finite number: {text!r}")
    return value
