"""Time the model check of every shipped example and of ~100M-parameter transformers, with peak memory.

Run: .venv/bin/python benchmarks/bench_modelcheck.py [--only NAME ...]
Each check is one `run_check` as `gpu-tpu-app check-model --tpu-chips 0` runs it (the TPU compile step is timed
by bench_tpu_compile.py): a fresh worker process (framework
import included), wall time measured in this process. Peak memory is the worker's own peak resident
set (ru_maxrss). Goals: a shipped example <= 15 s, a 100M model <= 60 s, and worker peak memory
<= 2 x the model's weights + the framework's own peak (a 4x4 model of the same framework).
Goals are reported, not enforced (exit 1 when one is missed): shared machines are noisy.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from gpu_tpu_app.core.modelcheck import ModelCheck
from gpu_tpu_app.probe.modelcheck_launch import run_check_detailed

ROOT = Path(__file__).resolve().parent.parent
SMALL_GOAL_S = 15.0
LARGE_GOAL_S = 60.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="file stems to run (default: all)")
    args = parser.parse_args(argv)
    here = ROOT / "benchmarks" / "models"
    files = [(here / "torch_baseline.py", "base"), (here / "jax_baseline.py", "base")]
    files += [(p, "small") for p in sorted((ROOT / "examples" / "models").glob("*.py"))]
    files += [(p, "large") for p in sorted(here.glob("*_100m.py"))]
    if args.only:
        files = [(p, k) for p, k in files if p.stem in args.only or k == "base"]
    print(f"model check on {os.cpu_count()} CPU cores, one worker process per file")
    print(f"{'file':<28} {'params':>10} {'weights':>9} {'seconds':>8} {'peak MiB':>9} {'mem goal':>9}  level / result")
    base_mb: dict[str, float] = {}
    missed = []
    for path, kind in files:
        result, findings = run_check_detailed(path, timeout_s=600, tpu_chips=0)  # the TPU compile: bench_tpu_compile
        if not isinstance(result, ModelCheck) or findings is None:
            print(f"{path.stem:<28} failed: {result}")
            missed.append(path.stem)
            continue
        weights_mb = findings.parameter_bytes / 2**20
        peak = findings.peak_rss_mb or 0.0
        if kind == "base":
            base_mb[findings.framework] = peak
        mem_goal = 2 * weights_mb + base_mb.get(findings.framework, 0.0)
        goal_s = {"small": SMALL_GOAL_S, "large": LARGE_GOAL_S}.get(kind)
        ok_time = goal_s is None or result.seconds <= goal_s
        ok_mem = kind == "base" or peak <= mem_goal
        if not (ok_time and ok_mem):
            missed.append(path.stem)
        flags = ("" if ok_time else f" (over {goal_s:g} s)") + ("" if ok_mem else " (over the memory goal)")
        print(
            f"{path.stem:<28} {findings.parameters:>10,} {weights_mb:>7.1f}M {result.seconds:>8.1f} {peak:>9.0f} "
            f"{mem_goal if kind != 'base' else float('nan'):>9.0f}  {result.level}{flags}",
            flush=True,
        )
    if missed:
        print("goal missed: " + ", ".join(missed))
        return 1
    print("all goals met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
