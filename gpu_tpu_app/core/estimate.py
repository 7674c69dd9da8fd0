"""Back-of-envelope time, memory and cost of a training run or a serving job, per chip.

Rules (sources in the catalogue's source list): training compute 6·N·D FLOPs with
D = 20·N by default (eleuther-transformer-math, hoffmann-2022); inference 2·N FLOPs per
token; time = FLOPs / (chips × dense peak × MFU) with a per-family default MFU taken from
reported training runs. Prices are never shipped: cost appears only for chips the user
prices.
"""

from __future__ import annotations

import math
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from gpu_tpu_app.core.catalog import Catalog, load_catalog
from gpu_tpu_app.core.wording import SECONDS_PER_DAY
from gpu_tpu_app.errors import InputError

#: Compute-optimal tokens per parameter (Hoffmann et al. 2022).
TOKENS_PER_PARAM = 20.0
#: Mixed-precision AdamW training state per parameter, before activations.
TRAINING_BYTES_PER_PARAM = 16.0
#: Serving: bf16 weights, plus 20% for runtime buffers.
INFERENCE_BYTES_PER_PARAM = 2.0
INFERENCE_OVERHEAD = 1.2

TRAINING_RULE = (
    "training FLOPs = 6 x N x D (forward 2ND + backward 4ND); D = 20 x N tokens when not given "
    "(compute-optimal); time = FLOPs / (chips x dense BF16 peak x MFU)"
)
INFERENCE_RULE = (
    "inference FLOPs = 2 x N per token x tokens to serve; time = FLOPs / (chips x dense BF16 peak x MFU), "
    "a compute-bound best case: token-by-token decoding is often limited by memory bandwidth instead"
)
TRAINING_MEMORY_RULE = (
    "training memory = 16 bytes per parameter (mixed-precision AdamW: 2 B bf16 weights + 2 B gradients "
    "+ 4 B fp32 master weights + 8 B Adam moments; 16-18 B is the usual range), activations not counted; "
    "fits when it is at most chips x memory per chip"
)
INFERENCE_MEMORY_RULE = (
    "inference memory = 1.2 x weight bytes at 2 bytes per parameter (bf16); KV cache for long contexts "
    "or large batches not counted; fits when it is at most chips x memory per chip"
)
RULE_SOURCES = {
    "training": ["eleuther-transformer-math", "hoffmann-2022"],
    "inference": ["eleuther-transformer-math"],
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


class EstimateRequest(BaseModel):
    """What to estimate: model size, tokens, mode, chip count, optional MFU and prices."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, str_max_length=1_000)

    params: float = Field(gt=0, le=MAX_PARAMS)
    tokens: float | None = Field(default=None, gt=0, le=MAX_TOKENS)
    mode: Literal["training", "inference"] = "training"
    chips: int = Field(default=1, ge=1, le=MAX_CHIPS)
    mfu: float | None = Field(default=None, gt=0, le=1)
    prices: dict[str, float] = Field(default_factory=dict)  # chip id -> USD per chip-hour

    @model_validator(mode="after")
    def _check(self) -> EstimateRequest:
        if self.mode == "inference" and self.tokens is None:
            raise ValueError("inference needs tokens: the number of tokens to serve")
        for chip_id, price in self.prices.items():
            if not (math.isfinite(price) and price >= 0):
                raise ValueError(f"price for {chip_id!r} must be a non-negative number of USD per chip-hour")
        return self


class MeasuredDevice(BaseModel):
    """A device probed on this machine: its best measured matmul throughput, shown as an extra row."""

    model_config = _FROZEN

    name: str = Field(min_length=1)
    flops: float = Field(gt=0, allow_inf_nan=False)  # FLOP/s
    memory_bytes: float | None = Field(default=None, ge=0)
    key: str | None = None  # DeviceInfo.key, e.g. "torch:cuda:0"
    host: str | None = None  # where it was measured; None means this machine


class ChipEstimate(BaseModel):
    """One row: time, fit and cost of the request on one kind of chip."""

    model_config = _FROZEN

    chip_id: str
    chip_name: str
    family: str  # "gpu", "tpu", or "measured" for a probed device
    peak_flops: float | None  # FLOP/s per chip used for the time
    peak_dtype: str | None  # which peak: "bfloat16", "float16" where a chip has no bf16, "measured"
    mfu: float
    mfu_source: str
    days: float | None
    fits: bool | None
    memory_needed_bytes: float
    memory_available_bytes: float | None
    cost_usd: float | None


class Estimate(BaseModel):
    """The result: total FLOPs, the rules used (with source ids) and one row per chip, fastest first."""

    model_config = _FROZEN

    request: EstimateRequest
    tokens: float  # tokens used: given, or 20 x params for training
    flops: float
    rule: str
    memory_rule: str
    sources: list[str]
    rows: list[ChipEstimate]


def measured_from_run(run: Any) -> list[MeasuredDevice]:
    """One MeasuredDevice per device of a probe run (core.runs.RunFile) with an ok matmul result.

    Its flops is the best median matmul FLOP/s over sizes and dtypes; suspect, failed and
    skipped points are left out.
    """
    best: dict[str, float] = {}
    for result in run.results:
        if result.kernel == "matmul" and result.metric == "flops" and result.status == "ok" and result.value:
            best[result.device] = max(best.get(result.device, 0.0), float(result.value))
    devices = []
    for key, flops in best.items():
        info = run.device(key)
        devices.append(
            MeasuredDevice(
                name=info.name if info is not None else key,
                flops=flops,
                memory_bytes=getattr(info, "memory_bytes", None),
                key=key,
                host=getattr(run, "host", None),
            )
        )
    return devices


def total_flops(req: EstimateRequest) -> tuple[float, float]:
    """(FLOPs, tokens) for the request: 6·N·D for training (D defaults to 20·N), 2·N·tokens for inference."""
    if req.mode == "training":
        tokens = req.tokens if req.tokens is not None else TOKENS_PER_PARAM * req.params
        return 6.0 * req.params * tokens, tokens
    assert req.tokens is not None
    return 2.0 * req.params * req.tokens, req.tokens


def memory_needed(req: EstimateRequest) -> float:
    """Bytes the model needs across all chips (16 B/param training; 1.2 x 2 B/param inference)."""
    if req.mode == "training":
        return TRAINING_BYTES_PER_PARAM * req.params
    return INFERENCE_OVERHEAD * INFERENCE_BYTES_PER_PARAM * req.params


def _days(flops: float, chips: int, peak: float | None, mfu: float) -> float | None:
    if peak is None or peak <= 0:
        return None
    return flops / (chips * peak * mfu) / SECONDS_PER_DAY


def estimate(
    req: EstimateRequest,
    catalog: Catalog | None = None,
    measured: list[MeasuredDevice] | None = None,
) -> Estimate:
    """Estimate the request on every catalogue chip (and each measured device); rows fastest first.

    Raises InputError when a price names a chip id the catalogue does not have.
    """
    catalog = catalog if catalog is not None else load_catalog()
    known = {chip.id for chip in catalog.chips}
    for chip_id in req.prices:
        if chip_id not in known:
            raise InputError(f"prices: unknown chip id {chip_id!r} (known: {', '.join(sorted(known))})")
    flops, tokens = total_flops(req)
    needed = memory_needed(req)
    rows: list[ChipEstimate] = []
    used_sources = list(RULE_SOURCES[req.mode])
    for chip in catalog.chips:
        peak, dtype = chip.peak_flops("bfloat16"), "bfloat16"
        if peak is None and chip.peak_flops("float16") is not None:
            peak, dtype = chip.peak_flops("float16"), "float16"
        if req.mfu is not None:
            mfu, mfu_source = req.mfu, "set by the user"
        else:
            default = catalog.mfu[chip.family]
            mfu, mfu_source = default.value, default.describe(chip.family)
            used_sources.extend(default.sources)
        days = _days(flops, req.chips, peak, mfu)
        per_chip = chip.memory_bytes()
        available = per_chip * req.chips if per_chip is not None else None
        price = req.prices.get(chip.id)
        cost = days * 24.0 * req.chips * price if (price is not None and days is not None) else None
        rows.append(
            ChipEstimate(
                chip_id=chip.id,
                chip_name=chip.name,
                family=chip.family,
                peak_flops=peak,
                peak_dtype=dtype if peak is not None else None,
                mfu=mfu,
                mfu_source=mfu_source,
                days=days,
                fits=(needed <= available) if available is not None else None,
                memory_needed_bytes=needed,
                memory_available_bytes=available,
                cost_usd=cost,
            )
        )
    for device in measured or []:
        available = device.memory_bytes * req.chips if device.memory_bytes is not None else None
        rows.append(
            ChipEstimate(
                chip_id=f"measured:{device.key or device.name}",
                chip_name=f"{device.name} (measured)",
                family="measured",
                peak_flops=device.flops,
                peak_dtype="measured",
                mfu=1.0,
                mfu_source=MEASURED_MFU_SOURCE.format(where=device.host or "this machine"),
                days=_days(flops, req.chips, device.flops, 1.0),
                fits=(needed <= available) if available is not None else None,
                memory_needed_bytes=needed,
                memory_available_bytes=available,
                cost_usd=None,
            )
        )
    rows.sort(key=lambda r: (r.days is None, r.days if r.days is not None else 0.0, r.chip_id))
    return Estimate(
        request=req,
        tokens=tokens,
        flops=flops,
        rule=TRAINING_RULE if req.mode == "training" else INFERENCE_RULE,
        memory_rule=TRAINING_MEMORY_RULE if req.mode == "training" else INFERENCE_MEMORY_RULE,
        sources=list(dict.fromkeys(used_sources)),
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


