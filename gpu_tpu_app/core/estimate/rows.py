"""One device's row of an estimate: times at the middle and both ends of its range, fit and cost.

Training time is the FLOPs (times the recomputation the layout's checkpointing adds) over the chips
in whole copies x peak x MFU. Serving time is a compute-bound prefill plus decode steps, each
max(compute time, bytes read / (bandwidth x the share decode reaches)), and the row says which bound
applies. Cost is the days x 24 x chips x the price per chip-hour, on demand and spot; serving also
gets dollars per million tokens.
"""

from __future__ import annotations

from typing import Any

from gpu_tpu_app.core.estimate.devices import Device, Quotes, Words
from gpu_tpu_app.core.estimate.latency import latency_fit
from gpu_tpu_app.core.estimate.layout import (
    Plan,
    copy_plan,
    layout_name,
    layout_reasons,
    layout_warnings,
    reasons_text,
    serving_layout_name,
    warning_text,
)
from gpu_tpu_app.core.estimate.models import ChipEstimate, EstimateRequest
from gpu_tpu_app.core.estimate.workload import (
    DEFAULT_BATCH,
    DEFAULT_CONTEXT,
    SPOT_GOODPUT,
    Workload,
    attention_flops_per_token,
    recompute_factor,
    training_tokens,
    weight_flops_per_token,
)
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.shared.units import SECONDS_PER_DAY


def days_of(seconds: float | None) -> float | None:
    return None if seconds is None else seconds / SECONDS_PER_DAY


def row_times(
    req: EstimateRequest, dev: Device, work: Workload, plan: Plan, mfu: float, peak: float | None, share: float
) -> dict[str, Any]:
    """Times, bound and copies of one device at one MFU, one peak and one bandwidth share."""
    shape = work.shape
    context = req.context or DEFAULT_CONTEXT
    attention = attention_flops_per_token(shape, context)
    out: dict[str, Any] = {"seconds": None, "bound": None, "prefill": None, "decode": None, "step": None, "tps": None}
    if peak is None or peak <= 0 or plan.per_copy is None or not plan.copies:
        return out  # no peak, no memory figure, or one copy needs more chips than there are
    used = plan.copies * plan.per_copy
    if req.mode == "training":
        mode = plan.layout.checkpointing if plan.layout is not None else None
        model = weight_flops_per_token(req, shape) + 3.0 * attention
        flops = model * training_tokens(req) * recompute_factor(mode, shape, req)
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


def no_time_reason(req: EstimateRequest, dev: Device, plan: Plan) -> tuple[str, dict[str, str]]:
    """Why a row has no time, as a text id ([no_time]) and its values."""
    if dev.peak is None or dev.peak <= 0:
        return ("estimate.no_time.fp32" if req.strict_fp32 else "estimate.no_time.peak", {})
    if dev.memory is None or dev.memory <= 0:
        return ("estimate.no_time.memory", {})
    if plan.per_copy is None:
        return ("estimate.no_time.layout", {})
    if plan.per_copy > req.chips:
        return ("estimate.no_time.chips", {"n": str(plan.per_copy)})
    return ("estimate.no_time.bandwidth", {})


def chip_row(
    req: EstimateRequest,
    dev: Device,
    low: float,
    high: float,
    mfu_source: str | Words,
    prices: Quotes,
    work: Workload,
    stated: dict[str, str],
) -> ChipEstimate:
    """One device's row: times at the middle and both ends of the range, whether it fits, and the cost."""
    needed_default = work.needed
    plan = copy_plan(req, dev, work)
    mid = (low + high) / 2.0
    share_mid = (dev.share_low + dev.share_high) / 2.0
    at_mid = row_times(req, dev, work, plan, mid, dev.peak, share_mid)
    fast = row_times(req, dev, work, plan, high, dev.peak_high, dev.share_high)
    slow = row_times(req, dev, work, plan, low, dev.peak_low, dev.share_low)
    good = req.goodput or 1.0
    spot_good = good * (req.spot_goodput if req.spot_goodput is not None else SPOT_GOODPUT)
    for times in (at_mid, fast, slow):  # the wall clock: progress over the share of time that makes it
        for key in ("seconds", "prefill", "decode"):
            if times[key] is not None:
                times[key] = times[key] / good
    days = days_of(at_mid["seconds"])
    spot_days = days * good / spot_good if days is not None else None
    why_none = None if days is not None else no_time_reason(req, dev, plan)
    per_copy, layout = plan.per_copy, plan.layout
    warnings = layout_warnings(req, dev, plan)
    reasons = layout_reasons(req, dev, work, plan)
    needed = needed_default
    if layout is not None:
        needed = work.state + layout.activations
    fits = (per_copy <= req.chips) if per_copy is not None else (False if dev.memory is not None else None)
    if req.mode == "inference" and dev.memory is not None and plan.per_chip is not None and per_copy is not None:
        fits = plan.per_chip <= dev.memory and per_copy <= req.chips  # judged per chip of the copy
    available = dev.memory * per_copy if (dev.memory is not None and per_copy is not None) else None
    price, spot = prices
    cost = days * 24.0 * req.chips * price.usd if (price is not None and days is not None) else None
    spot_cost = spot_days * 24.0 * req.chips * spot.usd if (spot is not None and spot_days is not None) else None
    per_mtok = req.mode == "inference" and req.tokens is not None and req.tokens > 0
    return ChipEstimate(
        chip_id=dev.chip_id,
        chip_name=dev.name,
        chip_name_text=dev.name_text,
        family=dev.family,
        peak_flops=dev.peak,
        peak_dtype=dev.peak_dtype,
        mfu=round(mid, 4),
        mfu_low=low,
        mfu_high=high,
        mfu_source=mfu_source if isinstance(mfu_source, str) else text(mfu_source[0], language="en", **mfu_source[1]),
        mfu_source_text=None if isinstance(mfu_source, str) else mfu_source,
        days=days,
        days_low=days_of(fast["seconds"]),
        days_high=days_of(slow["seconds"]),
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
        prefill_days=days_of(at_mid["prefill"]),
        decode_days=days_of(at_mid["decode"]),
        step_seconds=at_mid["step"],
        tokens_per_second=at_mid["tps"],
        tensor_parallel=layout.tensor if layout else plan.tensor,
        pipeline_stages=plan.stages,
        shards=layout.shards if layout else None,
        checkpointing=layout.checkpointing if layout else None,
        activation_bytes=layout.activations if layout else None,
        per_chip_bytes=layout.per_chip if layout else plan.per_chip,
        layout=layout_name(layout.tensor, layout.shards, plan.copies, layout.checkpointing, language="en")
        if layout
        else (
            serving_layout_name(plan.tensor, plan.stages, plan.copies, language="en")
            if plan.tensor is not None and plan.stages is not None
            else None
        ),
        layout_why=reasons_text(reasons, language="en") if reasons else None,
        layout_why_texts=reasons,
        warnings=[warning_text(w, language="en") for w in warnings],
        warning_texts=warnings,
        no_time=text(why_none[0], language="en", **why_none[1]) if why_none else None,
        no_time_text=why_none,
        cost_usd=cost,
        price=price,
        spot_price=spot,
        spot_cost_usd=spot_cost,
        spot_days=spot_days,
        usd_per_mtok=cost / (req.tokens / 1e6) if (per_mtok and cost is not None and req.tokens) else None,
        latency=latency_fit(req, dev, work, plan.per_copy, mid, price),
        spot_usd_per_mtok=spot_cost / (req.tokens / 1e6)
        if (per_mtok and spot_cost is not None and req.tokens)
        else None,
    )
