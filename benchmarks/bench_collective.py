"""Does the collective probe report what torch.distributed itself achieves? Bus bandwidth, probe vs direct.

For 2 and 4 local processes over loopback (gloo, CPU): the probe's all-reduce bus bandwidth from
`gpu-tpu-probe collective` (run_group), and the same all-reduce timed directly with
torch.distributed in N processes started here: a plain loop of dist.all_reduce on a float32
tensor, warm-up first, each sample the slowest rank's time, median over samples. Bus bandwidth
as nccl-tests: size / time x 2(n-1)/n. The probe also measures all-gather and reduce-scatter,
listed after. Goal: probe / direct >= 0.9 for messages of 1 MiB and more (smaller messages are
latency-bound and noisier on a shared machine). Probe and direct runs alternate over rounds;
the table gives the median and the best round of each (other load can only lower a best).

With --spread: no probe, only the direct loop timed the probe's way (2 ms bursts, the slowest rank's
time per sample, 2 ranks, 1-64 MiB) in several rounds, and the spread of each round's samples (IQR over
the median, CV): core.trust's COLLECTIVE_NOISE_* rule is set from it, so that a quiet machine passes.

Run: .venv/bin/python benchmarks/bench_collective.py [--max-bytes 16M] [--rounds 3] [--json FILE]
     .venv/bin/python benchmarks/bench_collective.py --spread [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time

DIRECT = r"""
import json, os, sys, time
import torch, torch.distributed as dist
rank, size = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
torch.set_num_threads(max(1, (os.cpu_count() or 1) // size))
dist.init_process_group("gloo", init_method="env://")
out = {}
for nbytes in json.loads(sys.argv[1]):
    x = torch.ones(nbytes // 4, dtype=torch.float32)
    for _ in range(3):
        dist.all_reduce(x)
    t0 = time.perf_counter(); dist.all_reduce(x); first = time.perf_counter() - t0
    inner = max(1, min(64, int(2e-3 / max(first, 1e-7)) + 1))
    reps = max(5, min(25, int(0.3 / max(first * inner, 1e-7))))
    flag = torch.tensor([float(inner), float(reps)])
    dist.all_reduce(flag, op=dist.ReduceOp.MAX)
    inner, reps = int(flag[0]), int(flag[1])
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(inner):
            dist.all_reduce(x)
        times.append((time.perf_counter() - t0) / inner)
    t = torch.tensor(times, dtype=torch.float64)
    dist.all_reduce(t, op=dist.ReduceOp.MAX)
    out[str(nbytes)] = sorted(t.tolist())[len(times) // 2]
dist.destroy_process_group()
if rank == 0:
    print(json.dumps(out))
"""


SPREAD = r"""
import json, os, statistics, sys, time
import torch, torch.distributed as dist
rank, size = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
torch.set_num_threads(1)
dist.init_process_group("gloo", init_method="env://")
out = {}
for nbytes in json.loads(sys.argv[1]):
    x = torch.ones(nbytes // 4)
    for _ in range(3):
        dist.all_reduce(x)
    t0 = time.perf_counter(); dist.all_reduce(x); first = time.perf_counter() - t0
    inner = max(1, min(64, int(2e-3 / max(first, 1e-9)) + 1))  # the probe's bursts (worker/collective.py)
    reps = max(7, min(40, int(0.5 / max(first * inner, 1e-7))))
    flag = torch.tensor([float(inner), float(reps)])
    dist.all_reduce(flag, op=dist.ReduceOp.MAX)
    inner, reps = int(flag[0]), int(flag[1])
    rounds = []
    for _ in range(int(sys.argv[2])):
        times = []
        for _ in range(reps):
            t0 = time.perf_counter()
            for _ in range(inner):
                dist.all_reduce(x)
            times.append((time.perf_counter() - t0) / inner)
        t = torch.tensor(times, dtype=torch.float64)
        dist.all_reduce(t, op=dist.ReduceOp.MAX)  # each sample: the slowest rank's
        bw = sorted(nbytes / v for v in t.tolist())
        med, q = statistics.median(bw), statistics.quantiles(bw, n=4)
        rounds.append({"iqr": (q[2] - q[0]) / med, "cv": statistics.pstdev(bw) / statistics.fmean(bw), "n": len(bw)})
    out[str(nbytes)] = rounds
dist.destroy_process_group()
if rank == 0:
    print(json.dumps(out))
"""


def spread(rounds: int) -> int:
    """Print the spread of a direct 2-rank gloo all-reduce loop per size and round (see the module's doc)."""
    sizes = [1024**2, 4 * 1024**2, 16 * 1024**2, 64 * 1024**2]
    load = [f"{x:.2f}" for x in os.getloadavg()] if hasattr(os, "getloadavg") else ["?"]
    result = _ranks(SPREAD, 2, [json.dumps(sizes), str(rounds)])
    print(f"direct gloo all-reduce, 2 ranks, 2 ms bursts, {rounds} rounds; load average at start {' '.join(load)}")
    print(f"{'size':>8}  {'IQR / median per round':<40}  {'CV per round':<34}")
    worst_iqr = worst_cv = 0.0
    for key, per in result.items():
        worst_iqr = max(worst_iqr, *(r["iqr"] for r in per))
        worst_cv = max(worst_cv, *(r["cv"] for r in per))
        iqr = " ".join(f"{100 * r['iqr']:.0f}%" for r in per)
        cvs = " ".join(f"{100 * r['cv']:.0f}%" for r in per)
        print(f"{int(key) // 1024**2:>5} MiB  {iqr:<40}  {cvs:<34}")
    print(f"widest round: IQR {100 * worst_iqr:.0f} % of the median, CV {100 * worst_cv:.0f} %")
    return 0


def _ranks(script: str, ranks: int, argv: list[str]) -> dict:
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "loop.py")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(script)
        procs = []
        for rank in range(ranks):
            env = {
                **os.environ,
                "RANK": str(rank),
                "WORLD_SIZE": str(ranks),
                "MASTER_ADDR": "127.0.0.1",
                "MASTER_PORT": str(port),
                "GLOO_SOCKET_IFNAME": "lo",
            }
            procs.append(
                subprocess.Popen(
                    [sys.executable, path, *argv], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
                )
            )
        outs = [p.communicate(timeout=600)[0] for p in procs]
    return json.loads(outs[0])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def direct(ranks: int, sizes: list[int]) -> dict[int, float]:
    """Median seconds per all-reduce for each size, timed with torch.distributed directly."""
    port = free_port()
    procs = []
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "direct.py")
        with open(script, "w", encoding="utf-8") as fh:
            fh.write(DIRECT)
        for rank in range(ranks):
            env = {
                **os.environ,
                "RANK": str(rank),
                "WORLD_SIZE": str(ranks),
                "MASTER_ADDR": "127.0.0.1",
                "MASTER_PORT": str(port),
                "GLOO_SOCKET_IFNAME": "lo",
            }
            procs.append(
                subprocess.Popen(
                    [sys.executable, script, json.dumps(sizes)],
                    env=env,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                )
            )
        outs = [p.communicate(timeout=600)[0] for p in procs]
    return {int(k): v for k, v in json.loads(outs[0]).items()}


def probe(ranks: int, max_bytes: int) -> list:
    from gpu_tpu_app.probe.group import GroupRequest, run_group

    run = run_group(GroupRequest(processes=ranks, backends=("torch",), max_bytes=max_bytes, budget_s=240, timeout_s=60))
    if run.errors:
        raise SystemExit(f"probe run failed: {run.errors[0]}")
    return [r for r in run.results if r.status == "ok" and r.collective is not None]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-bytes", default="16M", help="largest message (K/M suffixes; default 16M)")
    ap.add_argument("--rounds", type=int, default=3, help="probe and direct alternate this many times (default 3)")
    ap.add_argument("--json", metavar="FILE")
    ap.add_argument("--spread", action="store_true", help="only the direct loop's spread (sets the noise rule)")
    args = ap.parse_args(argv)
    if args.spread:
        return spread(max(1, args.rounds))
    from gpu_tpu_app.commands.probe.collective import parse_bytes

    max_bytes = parse_bytes(args.max_bytes)
    rows = []
    missed = False
    t0 = time.monotonic()
    for ranks in (2, 4):
        factor = 2 * (ranks - 1) / ranks
        probe_bw: dict[int, list[float]] = {}
        direct_bw: dict[int, list[float]] = {}
        others: dict[str, float] = {}
        for _round in range(args.rounds):  # alternate, so drifting load hits both alike
            results = probe(ranks, max_bytes)
            for r in results:
                if r.collective.op == "all_reduce":
                    probe_bw.setdefault(r.size, []).append(r.collective.busbw)
                else:
                    others[r.collective.op] = max(others.get(r.collective.op, 0.0), r.collective.busbw)
            for size, seconds in direct(ranks, sorted(probe_bw)).items():
                direct_bw.setdefault(size, []).append(size / seconds * factor)
        print(
            f"\n{ranks} processes, gloo over loopback, float32 all-reduce, bus bandwidth = size / time x {factor:g}, "
            f"{args.rounds} alternating rounds"
        )
        print(
            f"{'size':>10}  {'probe median':>13}  {'direct median':>13}  {'ratio':>5}  {'probe best':>11}  "
            f"{'direct best':>11}  {'ratio':>5}"
        )
        for size in sorted(probe_bw):
            p_med, d_med = statistics.median(probe_bw[size]), statistics.median(direct_bw[size])
            p_best, d_best = max(probe_bw[size]), max(direct_bw[size])
            if size >= 1024**2 and p_best / d_best < 0.9:
                missed = True
            rows.append({"ranks": ranks, "size": size, "probe_busbw": probe_bw[size], "direct_busbw": direct_bw[size]})
            print(
                f"{size:>10}  {p_med / 1e6:>8.1f} MB/s  {d_med / 1e6:>8.1f} MB/s  {p_med / d_med:5.2f}  "
                f"{p_best / 1e6:>6.1f} MB/s  {d_best / 1e6:>6.1f} MB/s  {p_best / d_best:5.2f}"
            )
        for op, bw in sorted(others.items()):
            print(f"probe {op}: best bus bandwidth {bw / 1e6:.1f} MB/s")
    print(
        f"\n({time.monotonic() - t0:.0f} s; goal best probe / best direct >= 0.9 from 1 MiB: "
        f"{'missed' if missed else 'met'})"
    )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, indent=2, allow_nan=False)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
