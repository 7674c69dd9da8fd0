"""Time the model check of every shipped example and of ~100M-parameter transformers, with peak memory.

Run: .venv/bin/python benchmarks/bench_modelcheck.py [--only NAME ...] [--repeat N] [--classes]
Each check is one `run_check` as `gpu-tpu-app check-model --tpu-chips 0` runs it (the TPU compile step is
timed by bench_tpu_compile.py): a fresh worker process (framework import included), wall time measured in
this process; with --repeat the median of N checks is shown. --classes adds the model files of each class
in tests/data/models. Peak memory is the worker's own peak resident set (ru_maxrss). Goals: a shipped
PyTorch example <= 15 s, a JAX one <= 5 s, a 100M model <= 60 s, and worker peak memory <= 2 x the model's
weights + the framework's own peak (a 4x4 model of the same framework). The load average is printed before
and after: on a shared machine it moves the figures more than anything in the check.
Goals are reported, not enforced (exit 1 when one is missed): shared machines are noisy.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

from gpu_tpu_app.core.modelcheck import ModelCheck
from gpu_tpu_app.probe.modelcheck_launch import run_check_detailed

ROOT = Path(__file__).resolve().parent.parent
SMALL_GOAL_S = 15.0
JAX_GOAL_S = 5.0
LARGE_GOAL_S = 60.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="file stems to run (default: all)")
    parser.add_argument("--repeat", type=int, default=1, help="checks per file; the median is shown")
    parser.add_argument("--classes", action="store_true", help="also the class models in tests/data/models")
    args = parser.parse_args(argv)
    here = ROOT / "benchmarks" / "models"
    files = [(here / "torch_baseline.py", "base"), (here / "jax_baseline.py", "base")]
    files += [(p, "small") for p in sorted((ROOT / "examples" / "models").glob("*.py"))]
    if args.classes:
        files += [(p, "class") for p in sorted((ROOT / "tests" / "data" / "models").glob("*.py"))]
    files += [(p, "large") for p in sorted(here.glob("*_100m.py"))]
    if args.only:
        files = [(p, k) for p, k in files if p.stem in args.only or k == "base"]
    print(f"model check on {os.cpu_count()} CPU cores, one worker process per file; load average {_load()}")
    print(f"{'file':<28} {'params':>10} {'weights':>9} {'seconds':>8} {'peak MiB':>9} {'mem goal':>9}  level / result")
    base_mb: dict[str, float] = {}
    missed = []
    for path, kind in files:
        times = []
        for _ in range(max(1, args.repeat)):
            result, findings = run_check_detailed(
                path, timeout_s=600, tpu_chips=0
            )  # the TPU compile: bench_tpu_compile
            if isinstance(result, ModelCheck):
                times.append(result.seconds)
        if not isinstance(result, ModelCheck) or findings is None:
            print(f"{path.stem:<28} failed: {result}")
            missed.append(path.stem)
            continue
        weights_mb = findings.parameter_bytes / 2**20
        peak = findings.peak_rss_mb or 0.0
        if kind == "base":
            base_mb[findings.framework] = peak
        mem_goal = 2 * weights_mb + base_mb.get(findings.framework, 0.0)
        seconds = statistics.median(times)
        small = JAX_GOAL_S if findings.framework == "jax" else SMALL_GOAL_S
        goal_s = {"small": small, "large": LARGE_GOAL_S}.get(kind)
        ok_time = goal_s is None or seconds <= goal_s
        ok_mem = kind == "base" or peak <= mem_goal
        if not (ok_time and ok_mem):
            missed.append(path.stem)
        flags = ("" if ok_time else f" (over {goal_s:g} s)") + ("" if ok_mem else " (over the memory goal)")
        print(
            f"{path.stem:<28} {findings.parameters:>10,} {weights_mb:>7.1f}M {seconds:>8.1f} {peak:>9.0f} "
            f"{mem_goal if kind != 'base' else float('nan'):>9.0f}  {result.level}{flags}",
            flush=True,
        )
    print(f"load average {_load()}")
    if missed:
        print("goal missed: " + ", ".join(missed))
        return 1
    print("all goals met")
    return 0


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


if __name__ == "__main__":
    sys.exit(main())
