"""Back-of-envelope time, memory and cost of a training run or a serving job, per chip.

Training: 6·N·D FLOPs plus the attention term 12·L·c·d·D for context c (Hoffmann et al. 2022,
appendix F: forward 4·L·c·d per token, times three with the backward pass), D = 20·N tokens by
default (compute-optimal; modern runs train on 10-100x more). Serving is modelled in two parts:
prefill (the prompt) is compute-bound; each decode step takes max(compute time, (weight bytes +
KV-cache bytes) / memory bandwidth) at the user's batch and context, and each row says which bound
applies. The KV cache follows from the model's shape (layers, width, KV heads, dtype), with
defaults from the nearest published Llama 3 shape. Memory is checked per model copy against one
chip, or against the chips the copy is split over. Efficiency is a low-high MFU range per chip
(catalogue). Cost uses the price the user gives for a chip, else the cheapest known price (the
shipped table or a local catalogue, core.prices), with spot beside it; serving also gets dollars per
million tokens.
"""

from __future__ import annotations

import math
import re
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, model_validator

from gpu_tpu_app.core.catalog import Catalog, load_catalog
from gpu_tpu_app.core.prices import PriceBook, Quote, chip_quotes
from gpu_tpu_app.core.trust import is_functional_check, trusted_results
from gpu_tpu_app.core.wording import FUNCTIONAL_CHECK, SECONDS_PER_DAY
from gpu_tpu_app.errors import InputError

#: Compute-optimal tokens per parameter (Hoffmann et al. 2022).
TOKENS_PER_PARAM = 20.0
#: Mixed-precision AdamW training state per parameter, before activations.
TRAINING_BYTES_PER_PARAM = 16.0
#: bytes per element of weights and KV cache, per serving dtype.
DTYPE_BYTES: dict[str, float] = {"bfloat16": 2.0, "float8": 1.0, "int8": 1.0}
#: serving: runtime buffers on top of the weights when checking whether a copy fits (research notes:
#: inference memory is about 1.2 x the weight bytes); a decode step still reads weights + KV cache only.
INFERENCE_OVERHEAD = 1.2
#: context length (tokens per sequence) when none is given.
DEFAULT_CONTEXT = 2048
#: sequences decoded together per model copy when none is given.
DEFAULT_BATCH = 1


class ModelShape(NamedTuple):
    """A published transformer shape: what the KV cache and the attention term need."""

    name: str
    params: float
    layers: int
    width: int
    heads: int
    kv_heads: int


#: Llama 3 shapes (The Llama 3 Herd of Models, arXiv:2407.21783, Table 3): grouped-query attention
#: with 8 KV heads. A parameter count takes the nearest one (on a log scale) unless the user gives
#: the shape.
REFERENCE_SHAPES: tuple[ModelShape, ...] = (
    ModelShape("Llama 3 8B", 8e9, 32, 4096, 32, 8),
    ModelShape("Llama 3 70B", 70e9, 80, 8192, 64, 8),
    ModelShape("Llama 3 405B", 405e9, 126, 16384, 128, 8),
)
SHAPE_SOURCE = "llama3-2024"

TRAINING_RULE = (
    "training FLOPs = 6 x N x D + 12 x L x c x d x D: 6ND for the weights (forward 2ND, backward 4ND) plus "
    "attention over a context of c tokens (forward 4 x L x c x d per token, three times with the backward "
    "pass); D = 20 x N tokens when not given (compute-optimal; modern runs train on 10-100x more); "
    "time = FLOPs / (chips x dense BF16 peak x MFU)"
)
INFERENCE_RULE = (
    "serving = prefill + decode. Prefill (the prompt tokens) is compute-bound: (2 x N + 4 x L x c x d) FLOPs "
    "per token / (chips x peak x MFU). Each decode step of one model copy produces one token for each of the "
    "batch's sequences and takes max(compute time, (weight bytes + KV-cache bytes) / memory bandwidth of the "
    "chips the copy is split over), at the nominal bandwidth (a best case); copies work in parallel"
)
TRAINING_MEMORY_RULE = (
    "training memory = 16 bytes per parameter (mixed-precision AdamW: 2 B bf16 weights + 2 B gradients "
    "+ 4 B fp32 master weights + 8 B Adam moments; 16-18 B is the usual range), activations not counted; "
    "the state is sharded over as many chips as it needs"
)
INFERENCE_MEMORY_RULE = (
    "memory per model copy = 1.2 x weight bytes (20% for runtime buffers) + KV cache (2 x L x KV heads x "
    "head size x bytes per value, per token, for batch x context tokens); a copy that does not fit one chip "
    "is split over the fewest chips that hold it; a decode step reads the weight bytes and the KV cache once"
)
RULE_SOURCES = {
    "training": ["eleuther-transformer-math", "hoffmann-2022"],
    "inference": ["eleuther-transformer-math", SHAPE_SOURCE],
}
MEASURED_MFU_SOURCE = (
    "measured matmul on {where}: the measured throughput is already achieved, so the efficiency "
    "factor is 1.0 (a best case: a full model step reaches less than a pure matmul)"
)

_FROZEN = ConfigDict(extra="forbid", frozen=True)


#: upper bounds that keep every product of the estimate finite (6 x N x D stays far below 1e308)
#: and are far beyond any real model: the largest published models have about 2e12 parameters
#: and were trained on about 4e13 tokens.
MAX_PARAMS = 1e15
MAX_TOKENS = 1e18
MAX_CHIPS = 10_000_000
#: USD per chip-hour; rented accelerators cost a few dollars an hour.
MAX_PRICE = 1_000_000.0


class EstimateRequest(BaseModel):
    """What to estimate: model size and shape, tokens, mode, chips, serving batch and context, MFU, prices.

    Fields added after the first version all have defaults, so estimator inputs saved in older
    sessions still load.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, str_max_length=1_000)

    params: float = Field(gt=0, le=MAX_PARAMS)
    tokens: float | None = Field(default=None, gt=0, le=MAX_TOKENS)
    mode: Literal["training", "inference"] = "training"
    chips: int = Field(default=1, ge=1, le=MAX_CHIPS)
    mfu: float | None = Field(default=None, gt=0, le=1)
    prices: dict[str, float] = Field(default_factory=dict)  # chip id -> USD per chip-hour
    batch: int | None = Field(default=None, ge=1, le=1_000_000)  # sequences decoded together per copy
    context: int | None = Field(default=None, ge=1, le=100_000_000)  # tokens per sequence (KV length)
    prompt_tokens: float | None = Field(default=None, ge=0, le=MAX_TOKENS)  # total tokens to prefill
    layers: int | None = Field(default=None, ge=1, le=100_000)
    width: int | None = Field(default=None, ge=1, le=10_000_000)
    heads: int | None = Field(default=None, ge=1, le=100_000)
    kv_heads: int | None = Field(default=None, ge=1, le=100_000)
    dtype: Literal["bfloat16", "float8", "int8"] = "bfloat16"
    price_cloud: str | None = Field(default=None, max_length=100)  # price in this cloud only (default: any)
    price_region: str | None = Field(default=None, max_length=100)  # price in this region only (default: any)

    @model_validator(mode="after")
    def _check(self) -> EstimateRequest:
        if self.mode == "inference" and self.tokens is None:
            raise ValueError("inference needs tokens: the number of tokens to serve")
        for chip_id, price in self.prices.items():
            if not (math.isfinite(price) and 0 <= price <= MAX_PRICE):
                raise ValueError(f"price for {chip_id!r} must be 0 to {MAX_PRICE:,.0f} USD per chip-hour")
        heads = self.heads
        if self.kv_heads is not None and heads is not None and self.kv_heads > heads:
            raise ValueError("kv_heads cannot exceed heads")
        if self.width is not None and heads is not None and self.width % heads:
            raise ValueError("width must be a multiple of heads")
        return self


class MeasuredDevice(BaseModel):
    """A device probed on this machine: its best measured matmul throughput, shown as an extra row."""

    model_config = _FROZEN

    name: str = Field(min_length=1)
    flops: float = Field(gt=0, allow_inf_nan=False)  # FLOP/s
    memory_bytes: float | None = Field(default=None, ge=0)
    key: str | None = None  # DeviceInfo.key, e.g. "torch:cuda:0"
    host: str | None = None  # where it was measured; None means this machine
    bandwidth: float | None = Field(default=None, gt=0, allow_inf_nan=False)  # best measured B/s, if any


class Shape(BaseModel):
    """The model shape the estimate used, and where each part came from."""

    model_config = _FROZEN

    layers: int
    width: int
    heads: int
    kv_heads: int
    head_size: float
    kv_bytes_per_token: float
    origin: str  # "given" or the reference shape's name


class ChipEstimate(BaseModel):
    """One row: time (with a range), bound, memory per copy and fit, and cost on one kind of chip."""

    model_config = _FROZEN

    chip_id: str
    chip_name: str
    family: str  # "gpu", "tpu", or "measured" for a probed device
    peak_flops: float | None  # FLOP/s per chip used for the time
    peak_dtype: str | None  # which peak: "bfloat16", "float16" where a chip has no bf16, "measured"
    mfu: float  # midpoint of the range, orders the rows
    mfu_low: float
    mfu_high: float
    mfu_source: str
    days: float | None  # at the midpoint MFU
    days_low: float | None  # at the high MFU
    days_high: float | None  # at the low MFU
    bound: Literal["compute", "memory"] | None  # what limits the (decode) step; None when unknown
    fits: bool | None
    memory_needed_bytes: float  # per model copy (training: the whole sharded state)
    memory_available_bytes: float | None  # on the chips one copy uses
    chip_memory_bytes: float | None = None
    chip_memory_stated: str | None = None  # per chip as the vendor publishes it: "80 GB", "16 GiB"
    chips_per_copy: int | None = None
    copies: int | None = None
    mem_bw: float | None = None  # B/s per chip used for the decode step
    prefill_days: float | None = None
    decode_days: float | None = None
    step_seconds: float | None = None  # one decode step of one copy
    tokens_per_second: float | None = None  # all copies together
    warnings: list[str] = Field(default_factory=list)
    cost_usd: float | None
    price: Quote | None = None  # the on-demand price the cost uses: the user's, else the cheapest known
    spot_price: Quote | None = None  # the cheapest spot price known, shown beside
    spot_cost_usd: float | None = None
    usd_per_mtok: float | None = None  # serving: cost per million tokens generated
    spot_usd_per_mtok: float | None = None


#: the row type the shared wording module formats.
EstimateRow = ChipEstimate


class Estimate(BaseModel):
    """The result: total FLOPs, the rules used (with source ids) and one row per chip, fastest first."""

    model_config = _FROZEN

    request: EstimateRequest
    tokens: float  # tokens used: given, or 20 x params for training
    tokens_default: bool = False  # True when tokens is the compute-optimal 20 x N default
    flops: float
    rule: str
    memory_rule: str
    sources: list[str]
    shape: Shape | None = None
    batch: int | None = None
    context: int | None = None
    prompt_tokens: float | None = None
    rows: list[ChipEstimate]


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
        elif result.metric == "bytes_per_s" and result.kernel in ("copy", "triad"):
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
    """The shape used for the KV cache and the attention term: the user's, else the nearest Llama 3 shape."""
    ref = min(REFERENCE_SHAPES, key=lambda s: abs(math.log(req.params / s.params)))
    given = any(v is not None for v in (req.layers, req.width, req.heads, req.kv_heads))
    layers = req.layers or ref.layers
    width = req.width or ref.width
    heads = req.heads or (ref.heads if width == ref.width else max(1, width // 128))
    kv_heads = min(req.kv_heads or ref.kv_heads, heads)
    head_size = width / heads
    kv_per_token = 2.0 * layers * kv_heads * head_size * DTYPE_BYTES[req.dtype]
    origin = "given" if given else ref.name
    if given and not all(v is not None for v in (req.layers, req.width, req.kv_heads)):
        origin = f"given, the rest from {ref.name}"
    return Shape(
        layers=layers,
        width=width,
        heads=heads,
        kv_heads=kv_heads,
        head_size=head_size,
        kv_bytes_per_token=kv_per_token,
        origin=origin,
    )


def _attention_flops_per_token(shape: Shape, context: int) -> float:
    """Forward attention FLOPs per token at `context` tokens: scores and weighted sum, 4 x L x c x d."""
    return 4.0 * shape.layers * context * shape.width


def total_flops(req: EstimateRequest) -> tuple[float, float]:
    """(FLOPs, tokens): training (6N + 12·L·c·d)·D with D = 20·N by default; serving (2N + 4·L·c·d) per
    token served (prompt and generated)."""
    shape = model_shape(req)
    context = req.context or DEFAULT_CONTEXT
    attention = _attention_flops_per_token(shape, context)
    if req.mode == "training":
        tokens = req.tokens if req.tokens is not None else TOKENS_PER_PARAM * req.params
        return (6.0 * req.params + 3.0 * attention) * tokens, tokens
    assert req.tokens is not None
    served = req.tokens + (req.prompt_tokens or 0.0)
    return (2.0 * req.params + attention) * served, req.tokens


def memory_needed(req: EstimateRequest) -> float:
    """Bytes per model copy: 16 B/param for training; weights plus KV cache (batch x context) for serving."""
    if req.mode == "training":
        return TRAINING_BYTES_PER_PARAM * req.params
    return INFERENCE_OVERHEAD * req.params * DTYPE_BYTES[req.dtype] + _kv_bytes(req)


def _kv_bytes(req: EstimateRequest) -> float:
    """KV-cache bytes of one model copy: batch x context tokens."""
    return (req.batch or DEFAULT_BATCH) * (req.context or DEFAULT_CONTEXT) * model_shape(req).kv_bytes_per_token


def step_bytes(req: EstimateRequest) -> float:
    """Bytes one decode step of one copy reads: every weight once and the whole KV cache."""
    return req.params * DTYPE_BYTES[req.dtype] + _kv_bytes(req)


class _Device(NamedTuple):
    chip_id: str
    name: str
    family: str
    peak: float | None
    peak_dtype: str | None
    mem_bw: float | None
    memory: float | None
    domain: int | None
    domain_note: str | None


def _days(seconds: float | None) -> float | None:
    return None if seconds is None else seconds / SECONDS_PER_DAY


def _row_times(req: EstimateRequest, dev: _Device, shape: Shape, needed: float, mfu: float) -> dict[str, Any]:
    """Times, bound and copies of one device at one MFU."""
    chips = req.chips
    context = req.context or DEFAULT_CONTEXT
    attention = _attention_flops_per_token(shape, context)
    out: dict[str, Any] = {
        "seconds": None,
        "bound": None,
        "prefill": None,
        "decode": None,
        "step": None,
        "tps": None,
        "per_copy": None,
        "copies": None,
    }
    if dev.memory is not None and dev.memory > 0:
        out["per_copy"] = max(1, math.ceil(needed / dev.memory))
    if dev.peak is None or dev.peak <= 0:
        return out
    if req.mode == "training":
        tokens = req.tokens if req.tokens is not None else TOKENS_PER_PARAM * req.params
        flops = (6.0 * req.params + 3.0 * attention) * tokens
        out["seconds"] = flops / (chips * dev.peak * mfu)
        out["bound"] = "compute"
        return out
    assert req.tokens is not None
    per_copy = out["per_copy"] or 1
    copies = chips // per_copy
    out["copies"] = copies
    if copies < 1:
        return out  # one copy needs more chips than there are
    prefill_flops = (req.prompt_tokens or 0.0) * (2.0 * req.params + attention)
    prefill = prefill_flops / (copies * per_copy * dev.peak * mfu)
    batch = req.batch or DEFAULT_BATCH
    step_compute = batch * (2.0 * req.params + attention) / (per_copy * dev.peak * mfu)
    if dev.mem_bw is None or dev.mem_bw <= 0:
        return out  # no bandwidth figure: the decode bound cannot be told
    step_memory = step_bytes(req) / (per_copy * dev.mem_bw)
    step = max(step_compute, step_memory)
    tps = copies * batch / step
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


def _warnings(req: EstimateRequest, dev: _Device, per_copy: int | None, copies: int | None) -> list[str]:
    found = []
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
    if req.mode == "inference" and copies is not None and per_copy is not None and copies >= 1 and req.chips % per_copy:
        found.append(f"{req.chips % per_copy} chip(s) left idle: {req.chips} is not a multiple of {per_copy}")
    return found


def _chip_row(
    req: EstimateRequest,
    dev: _Device,
    low: float,
    high: float,
    mfu_source: str,
    prices: tuple[Quote | None, Quote | None],
    shape: Shape,
    needed: float,
    stated: dict[str, str],
) -> ChipEstimate:
    """One device's row: times at the middle, high and low MFU, whether it fits, and the cost."""
    mid = (low + high) / 2.0
    at_mid = _row_times(req, dev, shape, needed, mid)
    at_high = _row_times(req, dev, shape, needed, high)
    at_low = _row_times(req, dev, shape, needed, low)
    days = _days(at_mid["seconds"])
    per_copy = at_mid["per_copy"]
    if req.mode == "training":
        fits = (per_copy <= req.chips) if per_copy is not None else None
        available = dev.memory * req.chips if dev.memory is not None else None
    else:
        fits = (needed <= dev.memory) if dev.memory is not None else None
        available = dev.memory * per_copy if (dev.memory is not None and per_copy is not None) else None
        if per_copy is not None and per_copy > req.chips:
            fits = False
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
        days_low=_days(at_high["seconds"]),
        days_high=_days(at_low["seconds"]),
        bound=at_mid["bound"],
        fits=fits,
        memory_needed_bytes=needed,
        memory_available_bytes=available,
        chip_memory_bytes=dev.memory,
        chip_memory_stated=stated.get(dev.chip_id),
        chips_per_copy=per_copy,
        copies=at_mid["copies"] if req.mode == "inference" else (1 if fits else None),
        mem_bw=dev.mem_bw,
        prefill_days=_days(at_mid["prefill"]),
        decode_days=_days(at_mid["decode"]),
        step_seconds=at_mid["step"],
        tokens_per_second=at_mid["tps"],
        warnings=_warnings(req, dev, per_copy, at_mid["copies"]),
        cost_usd=cost,
        price=price,
        spot_price=spot,
        spot_cost_usd=spot_cost,
        usd_per_mtok=cost / (req.tokens / 1e6) if (per_mtok and cost is not None and req.tokens) else None,
        spot_usd_per_mtok=spot_cost / (req.tokens / 1e6)
        if (per_mtok and spot_cost is not None and req.tokens)
        else None,
    )


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
    shape = model_shape(req)
    needed = memory_needed(req)
    used_sources = list(RULE_SOURCES[req.mode])
    if req.mode == "training":
        used_sources.append(SHAPE_SOURCE)  # the attention term uses the model's shape
    devices: list[tuple[_Device, float, float, str, tuple[Quote | None, Quote | None]]] = []
    for chip in catalog.chips:
        peak, dtype = chip.peak_flops("bfloat16"), "bfloat16"
        if peak is None and chip.peak_flops("float16") is not None:
            peak, dtype = chip.peak_flops("float16"), "float16"
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
            dtype if peak is not None else None,
            chip.mem_bw_bytes_per_s(),
            chip.memory_bytes(),
            chip.domain_chips(),
            chip.domain.note if chip.domain is not None else None,
        )
        quotes = chip_quotes(book, chip.id, req.prices.get(chip.id), req.price_cloud, req.price_region)
        devices.append((dev, low, high, mfu_source, quotes))
    stated = {
        chip.id: f"{chip.memory.value:g} {chip.memory.unit}" for chip in catalog.chips if chip.memory.value is not None
    }
    for device in measured or []:
        dev = _Device(
            f"measured:{device.key or device.name}",
            f"{device.name} (measured)",
            "measured",
            device.flops,
            "measured",
            device.bandwidth,
            device.memory_bytes,
            None,
            None,
        )
        where = MEASURED_MFU_SOURCE.format(where=device.host or "this machine")
        devices.append((dev, 1.0, 1.0, where, (None, None)))
    rows = [
        _chip_row(req, dev, low, high, mfu_source, quotes, shape, needed, stated)
        for dev, low, high, mfu_source, quotes in devices
    ]
    rows.sort(key=lambda r: (r.days is None, r.days if r.days is not None else 0.0, r.chip_id))
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
