"""Time the model check's TPU compile step: each TPU generation's compile of each shipped example.

Run: .venv/bin/python benchmarks/bench_tpu_compile.py [--chips N] [--only NAME ...] [--test-models]
Each example is one `run_check` as `gpu-tpu-app check-model` runs it (a fresh worker, which starts the
compiling child); the compile times are the child's own, per generation and program, without the TPU
compiler's one-off start-up (reported beside them). Prints each example's per-generation table as the CLI
does. Goal: each generation's compile of a shipped example <= 10 s. Reported, not enforced (exit 1 when
missed): shared machines are noisy; the load average is printed with the figures.

--test-models instead checks the framework check's test models (tests/data/models, one per kind the check must
take: pytree outputs, a compiled module, shard_map, a scanned stack, a Pallas kernel, float64, torch.cond, a
run-time loop) and prints one table: the app's answers, the forward pass's TPU FLOPs per chip on each
generation against the hand count in the model's docstring (HAND_FLOPS below), the check's seconds and the
mean compile seconds per generation.
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
#: FLOPs of one forward pass counted by hand (each model file's docstring works it out); None: no TPU compile.
HAND_FLOPS: dict[str, int | None] = {
    "jax_scanned_stack.py": 92_274_688,
    "jax_pallas_matmul.py": 67_108_864,
    "jax_shard_map_mesh.py": 134_217_728,
    "jax_pytree_output.py": 4_194_304,
    "jax_while_until_converged.py": 1_048_576,
    "torch_pytree_output.py": 7_602_176,
    "torch_compiled_module.py": 5_300_224,
    "torch_float64_mlp.py": 393_216,
    "torch_cond_gate.py": 524_288,
    "hf_llama_kv_cache.py": 6_029_312,  # needs transformers (the test extra)
    "torch_unprintable_error.py": None,
}


def test_models() -> int:
    """The table for the framework check's test models (see the module's docstring)."""
    folder = ROOT / "tests" / "data" / "models"
    print(f"Framework check of its test models, 1 chip per generation, {os.cpu_count()} CPU cores")
    print(
        "| model | level | xla_verified | matmul | precision | TPU FLOPs/chip (range over gens) | hand | "
        "TPU/hand | check s | compile s/gen | load |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, hand in HAND_FLOPS.items():
        load = os.getloadavg()[0]
        result = run_check(folder / name, timeout_s=600)
        if not isinstance(result, ModelCheck):
            print(f"| {name} | exit 2: {result[:90]} | | | | | | | | | {load:.1f} |")
            continue
        a = result.answers
        flops: list[float] = []
        compiles: list[float] = []
        tc = result.tpu_compile
        for g in tc.generations if tc is not None else []:
            fwd = g.program("forward")
            if fwd is not None and fwd.flops is not None:
                flops.append(fwd.flops)
            compiles += [p.compile_seconds for p in g.programs if p.compile_seconds is not None]
        span = f"{min(flops):,.0f} - {max(flops):,.0f}" if flops else (tc.failure_kind() if tc else "-") or "-"
        ratio = f"{min(flops) / hand:.2f} - {max(flops) / hand:.2f}" if flops and hand else "-"
        per_gen = f"{statistics.mean(compiles):.2f}" if compiles else "-"
        print(
            f"| {name} | {result.level} | {a.xla_verified} | {a.matmul_share} | {a.high_precision} | {span} | "
            f"{hand:,} | {ratio} | {result.seconds:.1f} | {per_gen} | {load:.1f} |"
            if hand
            else f"| {name} | {result.level} | {a.xla_verified} | {a.matmul_share} | {a.high_precision} | {span} | "
            f"- | - | {result.seconds:.1f} | {per_gen} | {load:.1f} |"
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chips", type=int, default=1, help="chips per generation (default 1)")
    parser.add_argument("--only", nargs="*", help="example file stems to run (default: all)")
    parser.add_argument("--test-models", action="store_true", help="the framework check's test models' table")
    args = parser.parse_args(argv)
    if args.test_models:
        return test_models()
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
