"""How long the quick suite takes, how honest its first ETA is, and how many points it measures twice.

Goal (issue 24 §3): the quick suite of both backends in at most 25 s on the 2-core development
machine, at the same CV as before, with the second try going only to points that need it and an
ETA that learns from the pace of the points measured so far.

Run: .venv/bin/python benchmarks/bench_quick_suite.py [--runs 2] [--backend torch jax] [--budget-s S]
[--json FILE]. Each run is one in-process run_probe() (workers in their own processes, as the CLI
starts them). Per run and backend it prints: the wall time from the first message to the last, the
first ETA the worker announced against the time that backend then took, the points measured, how
many of them twice (said in their note), how many carry a trust flag, how many the time budget left
out (said in their note), and the median CV of the trusted matmul points; per run, the CPU seconds
the workers used (user + system, which moves less with load). The load average is printed before
and after each run: on a shared machine every figure moves with it, and the CV column shows whether
a faster run measured less well.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import time
from typing import Any


def one_run(backends: list[str], budget_s: float | None = None) -> dict[str, Any]:
    from gpu_tpu_app.core.runs import Progress
    from gpu_tpu_app.probe.protocol import ProbeRequest
    from gpu_tpu_app.probe.runner import run_probe
    from gpu_tpu_app.shared import trust

    seen: dict[str, dict[str, Any]] = {}
    t0 = time.monotonic()

    def on_message(msg: Any) -> None:
        now = time.monotonic() - t0
        backend = msg.result.backend if getattr(msg, "type", "") == "result" else getattr(msg, "backend", None)
        if not backend:
            return
        row = seen.setdefault(backend, {"first_s": now, "first_eta_s": None})
        if isinstance(msg, Progress) and row["first_eta_s"] is None:
            row["first_eta_s"] = msg.eta_s
        row["last_s"] = now

    load_before = os.getloadavg()
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = run_probe(ProbeRequest(suite="quick", backends=tuple(backends), budget_s=budget_s), on_message)
    wall = time.monotonic() - t0
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    load_after = os.getloadavg()
    flags = trust.run_flags(run)
    out: dict[str, Any] = {
        "wall_s": wall,
        "cpu_s": cpu,
        "load_before": load_before,
        "load_after": load_after,
        "backends": {},
    }
    for backend in backends:
        mine = [(r, f) for r, f in zip(run.results, flags) if r.backend == backend]
        measured = [(r, f) for r, f in mine if r.stats is not None]
        twice = sum("measured twice" in (r.message or "") or "measured again" in (r.message or "") for r, _ in mine)
        cvs = [r.stats.cv for r, f in measured if r.kernel == "matmul" and not f.flagged and r.stats is not None]
        row = seen.get(backend, {})
        took = row.get("last_s", 0.0) - row.get("first_s", 0.0)
        out["backends"][backend] = {
            "took_s": took,
            "first_eta_s": row.get("first_eta_s"),
            "measured": len(measured),
            "twice": twice,
            "flagged": sum(f.flagged for _, f in measured),
            "left_out": sum(r.status == "skipped" and "budget" in (r.message or "") for r, _ in mine),
            "matmul_cv_median": statistics.median(cvs) if cvs else None,
        }
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--backend", nargs="+", default=["torch", "jax"])
    ap.add_argument("--json", metavar="FILE")
    ap.add_argument("--budget-s", type=float, default=None, help="the run's time budget (default: the suite's)")
    args = ap.parse_args(argv)
    runs = []
    print(
        f"{'run':>3}  {'wall':>6}  {'CPU':>6}  {'load before':>16}  {'backend':>7}  {'took':>6}  {'1st ETA':>7}  "
        f"{'points':>6}  {'twice':>5}  {'flagged':>7}  {'left out':>8}  {'matmul CV':>9}"
    )
    for i in range(args.runs):
        r = one_run(args.backend, args.budget_s)
        runs.append(r)
        load = " ".join(f"{v:.2f}" for v in r["load_before"])
        for backend, b in r["backends"].items():
            eta = f"{b['first_eta_s']:.1f} s" if b["first_eta_s"] is not None else "-"
            cv = f"{100 * b['matmul_cv_median']:.1f}%" if b["matmul_cv_median"] is not None else "-"
            print(
                f"{i + 1:>3}  {r['wall_s']:5.1f}s  {r['cpu_s']:5.1f}s  {load:>16}  {backend:>7}  {b['took_s']:5.1f}s  {eta:>7}  "
                f"{b['measured']:>6}  {b['twice']:>5}  {b['flagged']:>7}  {b['left_out']:>8}  {cv:>9}"
            )
        print(f"     load after: {' '.join(f'{v:.2f}' for v in r['load_after'])}")
    walls = [r["wall_s"] for r in runs]
    cpus = [r["cpu_s"] for r in runs]
    print(
        f"median wall {statistics.median(walls):.1f} s, CPU {statistics.median(cpus):.1f} s (the workers', user + "
        f"system) over {len(walls)} runs (goal: at most 25 s for both backends)"
    )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(runs, fh, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
