"""Does the probe report what the libraries themselves achieve? Probe vs direct timing, per backend.

Measures the probe's float32 matmul at 2048² and 4096² and its STREAM triad (the quick suite's
array size) with run_point(), then the same operation timed directly: torch with
torch.utils.benchmark.Timer (threads set to the probe's count), JAX with a plain loop of jitted
calls and block_until_ready(). Rounds alternate probe and direct so drifting machine load hits
both alike; each figure is the median over rounds. Goal: probe / direct >= 0.95.

Run: .venv/bin/python benchmarks/bench_probe.py [--rounds 3] [--json FILE]
Each backend runs in its own process, as in the probe. On a shared machine other work slows
probe and direct alike but not evenly; the table therefore also gives the ratio of the best
round of each, which other load can only lower.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Any

MATMUL_SIZES = (2048, 4096)


@dataclass
class Ctx:
    """The worker's context, reduced to what run_point reads."""

    device: Any
    peak_flops: dict[str, float] = field(default_factory=dict)
    peak_bw: float | None = None

    def cancelled(self) -> bool:
        return False


def _cases() -> list[tuple[str, int]]:
    from gpu_tpu_app.worker.kernels.common import stream_elements

    return [("matmul", n) for n in MATMUL_SIZES] + [("triad", stream_elements("cpu", "quick")[0])]


def _probe(backend: str, device: Any, kernel: str, size: int) -> tuple[float, str]:
    from gpu_tpu_app.worker.kernels import Point, run_point

    p = Point(
        id=f"bench/{kernel}/{size}",
        kernel=kernel,
        backend=backend,
        device=device.key,
        dtype="float32",
        size=size,
        variant=None,
        est_s=1.0,
        cap_s=8.0,
        target_s=1.0,
    )
    [res] = run_point(p, Ctx(device))
    assert res.status == "ok" and res.value, res.message
    return float(
        res.value
    ), f"reps={res.stats.reps if res.stats else 0} cv={100 * (res.stats.cv if res.stats else 0):.1f}%"


def _direct_torch(kernel: str, size: int, threads: int) -> dict[str, float]:
    import torch
    import torch.utils.benchmark as tb

    g = torch.Generator().manual_seed(1)
    if kernel == "matmul":
        a, b = torch.randn(size, size, generator=g), torch.randn(size, size, generator=g)
        c = torch.empty(size, size)
        t = tb.Timer(
            "torch.matmul(a, b, out=c)", globals={"torch": torch, "a": a, "b": b, "c": c}, num_threads=threads
        ).blocked_autorange(min_run_time=2.0)
        return {"timer": 2.0 * size**3 / t.median}
    b, c = torch.randn(size, generator=g), torch.randn(size, generator=g)
    a = torch.empty(size)
    t = tb.Timer(
        "torch.add(b, c, alpha=3.0, out=a)", globals={"torch": torch, "a": a, "b": b, "c": c}, num_threads=threads
    ).blocked_autorange(min_run_time=1.0)
    return {"timer": 12.0 * size / t.median}


def _loop(fn: Any, seconds: float) -> float:
    """Median seconds per call of fn() (which blocks until done) over `seconds` of calls."""
    fn()
    times: list[float] = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end or len(times) < 3:
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _direct_jax(kernel: str, size: int) -> dict[str, float]:
    import jax
    import jax.numpy as jnp
    import numpy as np

    rng = np.random.default_rng(1)
    if kernel == "matmul":
        a = jnp.asarray(rng.standard_normal((size, size), dtype=np.float32))
        b = jnp.asarray(rng.standard_normal((size, size), dtype=np.float32))
        f = jax.jit(lambda x, y: x @ y)
        plain = _loop(lambda: f(a, b).block_until_ready(), 2.0)
        g = jax.jit(lambda out, x, y: x @ y, donate_argnums=0, keep_unused=True)
        box = [jnp.empty((size, size), jnp.float32)]

        def donated() -> None:
            box[0] = g(box[0], a, b)
            box[0].block_until_ready()

        work = 2.0 * size**3
        return {"jit loop": work / plain, "jit loop, donated out": work / _loop(donated, 2.0)}
    b = jnp.asarray(rng.standard_normal(size, dtype=np.float32))
    c = jnp.asarray(rng.standard_normal(size, dtype=np.float32))
    f = jax.jit(lambda x, y: x + 3.0 * y)
    plain = _loop(lambda: f(b, c).block_until_ready(), 1.0)
    g = jax.jit(lambda out, x, y: x + 3.0 * y, donate_argnums=0, keep_unused=True)
    box = [jnp.empty((size,), jnp.float32)]

    def donated() -> None:
        box[0] = g(box[0], b, c)
        box[0].block_until_ready()

    work = 12.0 * size
    return {"jit loop": work / plain, "jit loop, donated out": work / _loop(donated, 1.0)}


def _numpy(kernel: str, size: int, seconds: float = 1.0) -> float:
    import numpy as np

    rng = np.random.default_rng(1)
    if kernel == "matmul":
        a = rng.standard_normal((size, size), dtype=np.float32)
        b = rng.standard_normal((size, size), dtype=np.float32)
        c = np.empty_like(a)
        return 2.0 * size**3 / _loop(lambda: np.matmul(a, b, out=c), seconds)
    b = rng.standard_normal(size, dtype=np.float32)
    c = rng.standard_normal(size, dtype=np.float32)
    a = np.empty_like(b)

    def triad() -> None:  # numpy needs two passes (no fused multiply-add ufunc)
        np.multiply(c, 3.0, out=a)
        np.add(a, b, out=a)

    return 12.0 * size / _loop(triad, seconds)


def run_backend(backend: str, rounds: int) -> dict[str, Any]:
    """All cases for one backend, in this process."""
    from gpu_tpu_app.worker.kernels.common import usable_cores

    threads = usable_cores()
    if backend == "torch":
        from gpu_tpu_app.worker.detect import detect_torch
        from gpu_tpu_app.worker.kernels.torch_kernels import configure_threads

        threads = configure_threads()
        _status, devices = detect_torch()
    else:
        from gpu_tpu_app.worker.detect import detect_jax

        _status, devices = detect_jax()
    device = next(d for d in devices if d.platform == "cpu")
    rows = []
    for kernel, size in _cases():
        probe: list[float] = []
        direct: dict[str, list[float]] = {}
        notes = ""
        for _ in range(rounds):
            value, notes = _probe(backend, device, kernel, size)
            probe.append(value)
            got = _direct_torch(kernel, size, threads) if backend == "torch" else _direct_jax(kernel, size)
            for name, v in got.items():
                direct.setdefault(name, []).append(v)
        row = {
            "backend": backend,
            "kernel": kernel,
            "size": size,
            "probe": statistics.median(probe),
            "probe_rounds": probe,
            "notes": notes,
            "direct": {k: statistics.median(v) for k, v in direct.items()},
            "direct_best": {k: max(v) for k, v in direct.items()},
            "paired": {k: statistics.median(p / d for p, d in zip(probe, v)) for k, v in direct.items()},
            "direct_rounds": direct,
            "threads": threads,
        }
        if backend == "torch":
            row["numpy"] = _numpy(kernel, size)
        rows.append(row)
    return {"rows": rows}


def _fmt(kernel: str, value: float) -> str:
    return f"{value / 1e9:8.1f} GFLOP/s" if kernel == "matmul" else f"{value / 1e9:8.2f} GB/s   "


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--backend", choices=["torch", "jax"], help=argparse.SUPPRESS)  # child process
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args(argv)
    if args.backend:
        print(json.dumps(run_backend(args.backend, args.rounds)))
        return 0
    rows = []
    load0 = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    for backend in ("torch", "jax"):
        proc = subprocess.run(
            [sys.executable, __file__, "--backend", backend, "--rounds", str(args.rounds)],
            capture_output=True,
            text=True,
            env=dict(os.environ),
        )
        if proc.returncode != 0:
            print(f"{backend}: failed\n{proc.stderr[-3000:]}", file=sys.stderr)
            return 1
        rows += json.loads(proc.stdout.strip().splitlines()[-1])["rows"]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"probe vs direct, float32, {rows[0]['threads']} threads, {args.rounds} alternating rounds; figures are "
        f"medians of rounds; ratio = probe/direct of those medians, paired = median of each round's own "
        f"ratio, best = ratio of the best rounds (load average: {load0:.2f} at start, {load:.2f} at end)"
    )
    head = (
        f"{'backend':7} {'kernel':7} {'size':>9}  {'probe':>16}  {'direct':>16}  {'ratio':>6}  {'paired':>6}  "
        f"{'best':>6}  direct method"
    )
    print(head)
    print("-" * len(head))
    worst = float("inf")
    for r in rows:
        direct = r["direct"]
        main_key = "timer" if r["backend"] == "torch" else "jit loop, donated out"
        ratio = r["probe"] / direct[main_key]
        best = max(r["probe_rounds"]) / r["direct_best"][main_key]
        worst = min(worst, ratio)
        print(
            f"{r['backend']:7} {r['kernel']:7} {r['size']:>9}  {_fmt(r['kernel'], r['probe'])}  "
            f"{_fmt(r['kernel'], direct[main_key])}  {ratio:6.3f}  {r['paired'][main_key]:6.3f}  {best:6.3f}  "
            f"{'torch.utils.benchmark.Timer' if main_key == 'timer' else main_key}"
        )
        for other, v in direct.items():
            if other != main_key:
                b = max(r["probe_rounds"]) / r["direct_best"][other]
                print(
                    f"{'':7} {'':7} {'':>9}  {'':>16}  {_fmt(r['kernel'], v)}  {r['probe'] / v:6.3f}  "
                    f"{r['paired'][other]:6.3f}  {b:6.3f}  {other}"
                )
        if "numpy" in r:
            print(
                f"{'':7} {'':7} {'':>9}  {'':>16}  {_fmt(r['kernel'], r['numpy'])}  {r['probe'] / r['numpy']:6.3f}"
                f"  {'':>6}  {'':>6}  numpy loop, one round (reference only)"
            )
    worst_paired = min(r["paired"]["timer" if r["backend"] == "torch" else "jit loop, donated out"] for r in rows)
    print(f"worst probe/direct ratio: {worst:.3f} of medians, {worst_paired:.3f} paired (goal >= 0.95)")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
