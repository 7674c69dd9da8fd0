"""Time one `decide` with flip analysis (goal: median under 5 ms) over a spread of answer sets.

Run: .venv/bin/python benchmarks/bench_decide.py [--runs N]
Each timed call is a full decide(answers) (flips=True) measured with time.perf_counter.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from gpu_tpu_app.core.decision import FACTORS, Answers, choices, decide, read_answers

GOAL_S = 0.005
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def answer_sets(count: int, seed: int = 2) -> list[Answers]:
    """The example files, no answers, and random answer sets (fixed seed, so runs compare)."""
    rng = random.Random(seed)
    sets = [read_answers(p) for p in sorted(EXAMPLES.glob("answers-*.json"))] + [Answers()]
    while len(sets) < count:
        sets.append(Answers(**{f: rng.choice((None, *choices(f))) for f in FACTORS}))
    return sets


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5000, help="timed decide calls (default 5000)")
    args = parser.parse_args(argv)

    sets = answer_sets(200)
    for answers in sets:  # warm-up: imports, pydantic schema caches
        decide(answers)
    times = []
    for i in range(args.runs):
        answers = sets[i % len(sets)]
        start = time.perf_counter()
        decide(answers)
        times.append(time.perf_counter() - start)
    times.sort()
    median = statistics.median(times)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    print(f"decide with flip analysis: {args.runs} runs over {len(sets)} answer sets")
    print(
        f"  median {median * 1e3:.3f} ms   p95 {p95 * 1e3:.3f} ms   min {times[0] * 1e3:.3f} ms   "
        f"max {times[-1] * 1e3:.3f} ms"
    )
    print(f"  goal: median under {GOAL_S * 1e3:.0f} ms -> {'met' if median < GOAL_S else 'NOT met'}")
    return 0 if median < GOAL_S else 1


if __name__ == "__main__":
    sys.exit(main())
