"""Time the model check's TPU compile step: each TPU generation's compile of each shipped example.

Run: .venv/bin/python benchmarks/bench_tpu_compile.py [--chips N] [--only NAME ...]
Each example is one `run_check` as `gpu-tpu-app check-model` runs it (a fresh worker, which starts the
compiling child); the compile times are the child's own, per generation and program, without the TPU
compiler's one-off start-up (reported beside them). Prints each example's per-generation table as the CLI
does. Goal: each generation's compile of a shipped example <= 10 s. Reported, not enforced (exit 1 when
missed): shared machines are noisy; the load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.modelcheck import HIGH_PRECISION_FP64, ModelCheck
from gpu_tpu_app.core.tpu_compile import render_table
from gpu_tpu_app.probe.modelcheck_launch import run_check

ROOT = Path(__file__).resolve().parent.parent
GOAL_S = 10.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chips", type=int, default=1, help="chips per generation (default 1)")
    parser.add_argument("--only", nargs="*", help="example file stems to run (default: all)")
    args = parser.parse_args(argv)
    files = sorted((ROOT / "examples" / "models").glob("*.py"))
    if args.only:
        files = [p for p in files if p.stem in args.only]
    catalog = load_catalog()
    times: list[float] = []
    missed: list[str] = []
    chips = "1 chip" if args.chips == 1 else f"{args.chips} chips"
    print(f"TPU compile of the shipped examples, {chips} per generation, on {os.cpu_count()} CPU cores")
    for path in files:
        load = os.getloadavg()[0]
        result = run_check(path, timeout_s=600, tpu_chips=args.chips)
        if not isinstance(result, ModelCheck):
            print(f"\n{path.name}: check failed: {result}")
            missed.append(path.stem)
            continue
        print(f"\n{path.name} (check {result.seconds:.1f} s in all, load average {load:.1f})")
        tc = result.tpu_compile
        if tc is None:
            print("  no compile step")
            continue
        float64 = result.answers.high_precision == HIGH_PRECISION_FP64
        for line in render_table(tc, catalog, float64):
            print(line)
        for g in tc.generations:
            for p in g.programs:
                if p.compile_seconds is None:
                    continue
                times.append(p.compile_seconds)
                if p.compile_seconds > GOAL_S:
                    missed.append(f"{path.stem} {g.topology} {p.program} ({p.compile_seconds:.1f} s)")
    if times:
        print(
            f"\nper-generation compile: median {statistics.median(times):.2f} s, max {max(times):.2f} s over "
            f"{len(times)} compiles (goal <= {GOAL_S:g} s each); load average now {os.getloadavg()[0]:.1f}"
        )
    if missed:
        print("goal missed: " + ", ".join(missed))
        return 1
    print("all goals met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
