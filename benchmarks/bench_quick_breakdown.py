"""Where one backend's quick suite spends its time: start-up, warm-up, plan, each kernel's tries, set-up and loop.

Issue 24 §3 (quick suite <= 25 s for both backends). One probe worker is started as the CLI starts it
(`python -m gpu_tpu_app.worker.main --backend B --suite quick`) and every line it writes is stamped on
arrival. From the stream:

- start-up: process start to the worker's Hello (interpreter, app and framework import, device detection);
- warm-up: the device's first use (DeviceMsg.first_use_s), and the rest up to the first point (calibration
  products and the plan);
- per kernel: its points, how many tries (a Progress for a point already announced is a second try), the
  wall seconds from each point's first Progress to its last result, of which set-up outside the cap
  (the "set up and compiled ahead in X s" notes, every try) and measuring loops (Stats.seconds of the
  kept results);
- the worker's CPU seconds (user + system, its children included) beside its wall time.

A/B interleaved: `--tree DIR` (repeatable) names source trees (e.g. `git archive main | tar -x -C /tmp/a`)
to compare with this checkout ("."); each round runs every tree once, the order flipped every other
round, so both see the same load. Prints one table per tree (medians over rounds) and the load average.

Run: .venv/bin/python benchmarks/bench_quick_breakdown.py [--backend jax] [--rounds 2] [--tree /tmp/a]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
_SETUP = re.compile(r"set up (?:and compiled )?ahead in ([0-9.]+) s")


def one_worker(tree: Path, backend: str, suite: str, extra: list[str]) -> dict[str, Any]:
    """Run one worker from source tree `tree` and take its stream apart."""
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONUNBUFFERED="1")
    env.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    argv = [sys.executable, "-m", "gpu_tpu_app.worker.main", "--backend", backend, "--suite", suite, *extra]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load = os.getloadavg()
    t0 = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=tree)
    assert proc.stdout is not None
    stamped = []
    for line in proc.stdout:
        try:
            stamped.append((time.monotonic() - t0, json.loads(line)))
        except ValueError:
            continue
    proc.wait()
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall_s": wall, "cpu_s": cpu, "load": load, "rc": proc.returncode, **breakdown(stamped, wall)}


def breakdown(stamped: list[tuple[float, dict[str, Any]]], wall: float) -> dict[str, Any]:
    """Rows of seconds from a stamped message stream (see the module docstring)."""
    hello = next((t for t, m in stamped if m.get("type") == "hello"), wall)
    first_use = sum(float(m["device"].get("first_use_s") or 0.0) for _, m in stamped if m.get("type") == "device")
    first_point = next((t for t, m in stamped if m.get("type") == "progress"), wall)
    kernels: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    announced: set[str] = set()
    current: tuple[str, float] | None = None  # kernel, time of the point's first Progress
    last_end = first_point
    for t, m in stamped:
        kind = m.get("type")
        if kind == "progress":
            k = kernels[m["kernel"]]
            if m["point"] in announced:
                k["tries"] += 1
            else:
                announced.add(m["point"])
                k["points"] += 1
                k["tries"] += 1
                if current is not None:
                    kernels[current[0]]["wall_s"] += last_end - current[1]
                current = (m["kernel"], last_end)
        elif kind == "result":
            r = m["result"]
            k = kernels[r["kernel"]]
            last_end = t
            stats = r.get("stats") or {}
            k["loop_s"] += float(stats.get("seconds") or 0.0)
            text = r.get("message") or ""
            k["setup_s"] += sum(float(x) for x in _SETUP.findall(text))
            if r.get("status") == "skipped":
                k["skipped"] += 1
        elif kind == "done" and current is not None:
            kernels[current[0]]["wall_s"] += t - current[1]
            current = None
            last_end = t
    done = next((t for t, m in stamped if m.get("type") == "done"), wall)
    return {
        "start_s": hello,
        "first_use_s": first_use,
        "plan_s": max(0.0, first_point - hello - first_use),
        "kernels": {name: dict(v) for name, v in kernels.items()},
        "exit_s": wall - done,
    }


def _median(rows: list[dict[str, Any]], *path: str) -> float:
    values = []
    for r in rows:
        v: Any = r
        for p in path:
            v = v.get(p, {}) if isinstance(v, dict) else 0.0
        values.append(float(v) if isinstance(v, (int, float)) else 0.0)
    return statistics.median(values) if values else 0.0


def report(name: str, rows: list[dict[str, Any]]) -> None:
    kernels = list(dict.fromkeys(k for r in rows for k in r["kernels"]))
    loads = ", ".join(f"{r['load'][0]:.1f}" for r in rows)
    print(f"\n{name}: {len(rows)} runs, 1-min load at their start {loads}")
    print(f"{'part':<22}{'wall s':>8}{'tries':>7}{'set-up s':>10}{'loops s':>9}")
    print(f"{'start-up to Hello':<22}{_median(rows, 'start_s'):>8.2f}")
    print(f"{'first use (warm-up)':<22}{_median(rows, 'first_use_s'):>8.2f}")
    print(f"{'calibration + plan':<22}{_median(rows, 'plan_s'):>8.2f}")
    for k in kernels:
        points = _median(rows, "kernels", k, "points")
        tries = _median(rows, "kernels", k, "tries")
        print(
            f"{k + f' ({points:.0f} pts)':<22}{_median(rows, 'kernels', k, 'wall_s'):>8.2f}{tries:>7.0f}"
            f"{_median(rows, 'kernels', k, 'setup_s'):>10.2f}{_median(rows, 'kernels', k, 'loop_s'):>9.2f}"
        )
    print(f"{'exit after Done':<22}{_median(rows, 'exit_s'):>8.2f}")
    print(f"{'total (wall)':<22}{_median(rows, 'wall_s'):>8.2f}   worker CPU {_median(rows, 'cpu_s'):.2f} s")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default="jax", choices=["torch", "jax"])
    ap.add_argument("--suite", default="quick")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--tree", action="append", default=[], help="another source tree to compare (A/B interleaved)")
    ap.add_argument("--json", metavar="FILE")
    ap.add_argument("extra", nargs="*", help="more worker arguments after --, e.g. -- --kernel matmul")
    args = ap.parse_args(argv)
    trees = [ROOT, *(Path(t).resolve() for t in args.tree)]
    runs: dict[str, list[dict[str, Any]]] = {str(t): [] for t in trees}
    for i in range(args.rounds):
        order = trees if i % 2 == 0 else list(reversed(trees))
        for tree in order:
            row = one_worker(tree, args.backend, args.suite, args.extra)
            runs[str(tree)].append(row)
            print(
                f"round {i + 1} {tree}: {row['wall_s']:.1f} s wall, {row['cpu_s']:.1f} s CPU, "
                f"load {row['load'][0]:.2f}, exit {row['rc']}",
                flush=True,
            )
    for tree, rows in runs.items():
        report(tree, rows)
    print(f"\nload average now: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    if args.json:
        Path(args.json).write_text(json.dumps(runs, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
