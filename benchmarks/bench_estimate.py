"""Time one `estimate` over the whole catalogue (goal: median under 50 ms) for the workloads issues 19 and 32 name.

Run: .venv/bin/python benchmarks/bench_estimate.py [--runs N]
Each timed call is estimate(request) without a price book: the model, the training layout search per
chip (checkpointing modes x tensor degrees x the shard counts that fit and divide the chips), the serving
layout and latency search (a bisection over the batch) and the rows.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.estimate import EstimateRequest, estimate

GOAL_S = 0.050

REQUESTS = {
    "7B training, 64 chips": EstimateRequest(params=7e9, chips=64),
    "100M training": EstimateRequest(params=1e8),
    "405B training, 16,384 chips": EstimateRequest(params=405e9, tokens=15.6e12, chips=16_384),
    "MoE 46.7B/12.9B serving, batch 32": EstimateRequest(
        params=46.7e9, active_params=12.9e9, experts=8, top_k=2, mode="inference", tokens=1e9, batch=32, chips=8
    ),
    "strict fp32 training": EstimateRequest(params=1e9, chips=8, strict_fp32=True),
    "8B LoRA, 1 chip": EstimateRequest(params=8e9, tokens=1e8, finetune="lora"),
    "8B full fine-tune, 8 chips, FP8": EstimateRequest(
        params=8e9, tokens=1e9, finetune="full", chips=8, dtype="float8"
    ),
    "70B serving, 8 chips, latency targets": EstimateRequest(
        params=70e9, mode="inference", tokens=1e9, chips=8, tpot_ms=50, ttft_ms=500, output_len=256, requests_per_s=100
    ),
    "405B training, 9,999,991 chips (prime)": EstimateRequest(params=405e9, tokens=15.6e12, chips=9_999_991),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="timed calls per workload (default 200)")
    args = parser.parse_args(argv)
    catalog = load_catalog()
    worst = 0.0
    print(f"estimate over {len(catalog.chips)} catalogue chips, {args.runs} runs per workload")
    for name, req in REQUESTS.items():
        estimate(req, catalog)  # warm-up
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            estimate(req, catalog)
            times.append(time.perf_counter() - start)
        median = statistics.median(times)
        worst = max(worst, median)
        print(f"  {name:36s} median {median * 1e3:7.2f} ms   max {max(times) * 1e3:7.2f} ms")
    print(f"  goal: every median under {GOAL_S * 1e3:.0f} ms -> {'met' if worst < GOAL_S else 'NOT met'}")
    return 0 if worst < GOAL_S else 1


if __name__ == "__main__":
    sys.exit(main())
