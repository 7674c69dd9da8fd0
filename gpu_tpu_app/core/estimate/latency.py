"""Serving to latency targets: per chip, the largest batch whose time per output token meets --tpot-ms, the
time to the first token against --ttft-ms, tokens/s and $/1M tokens at that batch, and the chips a request rate
needs.

A request fills the context: its prompt is the context less the tokens it generates (--output-len, else the
whole context is prompt). Prefill is compute-bound: TTFT = prompt x (2 x N + 4 x L x c x d) / (chips of a copy
x peak x MFU), the request alone. A decode step of batch B takes max(B x (2 x N + 4 x L x c x d) / (chips x
peak x MFU), (weight bytes the batch reads + B x c x KV bytes per token) / (chips x bandwidth x the share
decode reaches)): it grows with B, so the largest B that meets the target is found by bisection, up to the
batch whose KV cache still fits the copy's memory beside 1.2 x the weights. A copy serves B requests at once;
each takes its prefill plus its output's steps, so a copy completes 1 / (TTFT + output x step / B) requests a
second, and the rate needs ceil(rate / that) copies. Every figure uses the middle of the chip's MFU and
bandwidth-share ranges.
"""

from __future__ import annotations

import math

from gpu_tpu_app.core import transformer
from gpu_tpu_app.core.estimate.devices import Device
from gpu_tpu_app.core.estimate.models import EstimateRequest, LatencyFit
from gpu_tpu_app.core.estimate.workload import (
    DEFAULT_CONTEXT,
    INFERENCE_OVERHEAD,
    Workload,
    attention_flops_per_token,
    moe_of,
)
from gpu_tpu_app.core.prices import Quote

#: the largest batch searched (the request model's own bound on --batch)
MAX_BATCH = 1_000_000


def latency_fit(
    req: EstimateRequest, dev: Device, work: Workload, per_copy: int | None, mfu: float, price: Quote | None
) -> LatencyFit | None:
    """The latency targets on `dev` with one copy on `per_copy` chips; None without the figures it needs."""
    from gpu_tpu_app.core.texts import text

    if (
        req.mode != "inference"
        or not per_copy
        or dev.peak is None
        or dev.peak <= 0
        or dev.mem_bw is None
        or dev.memory is None
        or (req.ttft_ms is None and req.tpot_ms is None and req.requests_per_s is None)
    ):
        return None
    shape = work.shape
    context = req.context or DEFAULT_CONTEXT
    share = (dev.share_low + dev.share_high) / 2.0
    per_token = 2.0 * req.active + attention_flops_per_token(shape, context)
    compute = per_copy * dev.peak * mfu
    bandwidth = per_copy * dev.mem_bw * share
    kv_sequence = context * shape.kv_bytes_per_token
    moe = moe_of(req)

    def weights_read(batch: int) -> float:
        if moe is None:
            return req.params * req.value_bytes
        split = (
            transformer.moe_split(req.params, moe.active, moe.experts, moe.top_k)
            if moe.experts is not None and moe.top_k is not None
            else None
        )
        return transformer.decode_weights(req.params, moe.active, split, batch) * req.value_bytes

    def step(batch: int) -> float:
        return max(batch * per_token / compute, (weights_read(batch) + batch * kv_sequence) / bandwidth)

    output = req.output_len or 0
    prompt = max(1, context - output)
    ttft = prompt * per_token / compute
    room = per_copy * dev.memory - INFERENCE_OVERHEAD * req.params * req.value_bytes
    max_batch = max(0, min(MAX_BATCH, math.floor(room / kv_sequence))) if kv_sequence > 0 else MAX_BATCH
    missed: list[tuple[str, dict[str, str]]] = []
    if req.ttft_ms is not None and ttft * 1e3 > req.ttft_ms:
        over = f"{ttft * 1e3 - req.ttft_ms:.3g}"
        missed.append(
            ("estimate.latency.ttft_missed", {"ms": f"{ttft * 1e3:.3g}", "target": f"{req.ttft_ms:g}", "over": over})
        )
    batch: int | None = None
    if max_batch < 1:
        missed.append(("estimate.latency.no_room", {}))
    elif req.tpot_ms is None:
        batch = max_batch
    elif step(1) * 1e3 > req.tpot_ms:
        at_one = step(1) * 1e3
        missed.append(
            (
                "estimate.latency.tpot_missed",
                {"ms": f"{at_one:.3g}", "target": f"{req.tpot_ms:g}", "over": f"{at_one - req.tpot_ms:.3g}"},
            )
        )
    else:
        low, high = 1, max_batch  # step(low) meets the target; find the largest that does
        while low < high:
            mid = (low + high + 1) // 2
            if step(mid) * 1e3 <= req.tpot_ms:
                low = mid
            else:
                high = mid - 1
        batch = low
    met = not missed and batch is not None
    shown = batch if batch is not None else 1
    tpot = step(shown) if max_batch >= 1 else None
    tps_copy = shown / tpot if (tpot and met) else None
    tps_chip = tps_copy / per_copy if tps_copy is not None else None
    usd = price.usd * per_copy / 3600.0 / tps_copy * 1e6 if (price is not None and tps_copy) else None
    rate_copy = 1.0 / (ttft + output * tpot / shown) if (met and tpot is not None and output > 0) else None
    chips = (
        math.ceil(req.requests_per_s / rate_copy) * per_copy
        if (req.requests_per_s is not None and rate_copy is not None)
        else None
    )
    how = (
        f"TTFT = {prompt} prompt tokens x {per_token:.4g} FLOPs / ({per_copy} x {dev.peak:.4g} FLOP/s x {mfu:.3g}) "
        f"= {ttft * 1e3:.4g} ms; step(B) = max(B x {per_token:.4g} / ({per_copy} x {dev.peak:.4g} x {mfu:.3g}), "
        f"(weights {weights_read(1):.4g} B + B x {kv_sequence:.4g} B of KV) / ({per_copy} x {dev.mem_bw:.4g} B/s x "
        f"{share:.3g})); largest B within memory = ({per_copy} x {dev.memory:.4g} - {INFERENCE_OVERHEAD:g} x "
        f"{req.params * req.value_bytes:.4g}) / {kv_sequence:.4g} = {max_batch}"
    )
    if batch is not None and tpot is not None:
        how += f"; at B = {batch}: step {tpot * 1e3:.4g} ms, {batch / tpot:.4g} tokens/s a copy"
    if rate_copy is not None and req.requests_per_s is not None:
        how += (
            f"; a copy completes 1 / ({ttft:.4g} s + {output} x {tpot:.4g} s / {shown}) = {rate_copy:.4g} requests/s, "
            f"so {req.requests_per_s:g} requests/s need ceil({req.requests_per_s:g} / {rate_copy:.4g}) copies"
        )
    return LatencyFit(
        chips_per_copy=per_copy,
        batch=batch if met else None,
        max_batch_memory=max_batch,
        ttft_ms=ttft * 1e3,
        tpot_ms=tpot * 1e3 if tpot is not None else None,
        tokens_per_s_chip=tps_chip,
        usd_per_mtok=usd,
        requests_per_s_copy=rate_copy,
        chips_for_rate=chips,
        met=met,
        missed=[text(ident, language="en", **values) for ident, values in missed],
        missed_texts=missed,
        arithmetic=how,
    )
