"""The probe's figures side by side with direct timings of the same operations, A/B interleaved.

For each backend (torch, JAX; each in its own process, as in the probe) and each round, one case
after another is measured by the probe (run_point, the worker's own code) and directly, with the
order flipped every round (probe first, then direct first), so drifting load hits both alike:

- matmul: float32 N x N product (FLOP/s);
- copy and triad: the quick suite's STREAM arrays (bytes per second, STREAM's counting);
- dispatch: one-element x + 1, seconds per call (ratio = direct time / probe time, so above 1
  means the probe reports a faster call, as for the rates);
- all-reduce: 2 local processes over gloo, float32, at 256 KiB and 4 MiB, seconds per operation:
  the probe's group run (`gpu-tpu-probe collective --processes 2`) against a torch.distributed
  loop and a jax.distributed loop (jit(shard_map(psum)), block_until_ready per call) written here,
  which run the probe's sequence (sizes from 4 KiB up, all-reduce, all-gather and reduce-scatter
  at each) so that the loop, not the history of the communicator, is what differs;
- STREAM: when a C compiler is present, a small triad/copy program written and compiled here
  (OpenMP when the compiler has it, float32 like the probe), against both backends' probe figures.

The direct loops are plain: warm-up, then a median over at least a second of calls. The table
gives medians over rounds and the median of the per-round ratios, with the load average at the
start and end of the run: on a shared machine a ratio far from 1 in one round is load, not code.

Run: .venv/bin/python benchmarks/bench_side_by_side.py [--rounds 3] [--matmul-n 1024] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ALLREDUCE_BYTES = (256 * 1024, 4 * 1024**2)

STREAM_C = r"""
/* triad a = b + s*c and copy a = b on float32 arrays, the probe's counting (STREAM's rule). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 1L << 25;
    int reps = argc > 2 ? atoi(argv[2]) : 20;
    float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float)), *c = malloc(n * sizeof(float));
    if (!a || !b || !c) return 1;
    #pragma omp parallel for
    for (long i = 0; i < n; i++) { a[i] = 0.0f; b[i] = 1.0f; c[i] = 2.0f; }
    double best_triad = 1e30, best_copy = 1e30, times_t[1000], times_c[1000];
    for (int r = 0; r < reps && r < 1000; r++) {
        double t0 = now();
        #pragma omp parallel for
        for (long i = 0; i < n; i++) a[i] = b[i] + 3.0f * c[i];
        double t1 = now();
        #pragma omp parallel for
        for (long i = 0; i < n; i++) c[i] = a[i];
        double t2 = now();
        times_t[r] = t1 - t0; times_c[r] = t2 - t1;
    }
    /* median of the repetitions after the first */
    int m = reps - 1;
    for (int i = 1; i < reps; i++) for (int j = i + 1; j < reps; j++) {
        if (times_t[j] < times_t[i]) { double x = times_t[i]; times_t[i] = times_t[j]; times_t[j] = x; }
        if (times_c[j] < times_c[i]) { double x = times_c[i]; times_c[i] = times_c[j]; times_c[j] = x; }
    }
    best_triad = times_t[1 + m / 2]; best_copy = times_c[1 + m / 2];
    printf("{\"triad\": %.6e, \"copy\": %.6e, \"check\": %.1f}\n", 12.0 * n / best_triad, 8.0 * n / best_copy, a[n / 2]);
    return 0;
}
"""


# ---------------------------------------------------------------- one backend, in a child process


@dataclass
class _Ctx:
    device: Any
    peak_flops: dict[str, float] = field(default_factory=dict)
    peak_bw: float | None = None

    def cancelled(self) -> bool:
        return False


def _median_call(fn: Any, seconds: float, burst: int = 1) -> float:
    """Median seconds per call of fn (which waits for its result at the end of each burst)."""
    fn()
    times: list[float] = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end or len(times) < 5:
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) / burst)
    return statistics.median(times)


def _probe_case(backend: str, device: Any, kernel: str, size: int) -> float:
    from gpu_tpu_app.worker.kernels import Point, run_point

    dtype = "float32" if kernel != "dispatch" else None
    p = Point(
        id=f"side/{kernel}/{size}",
        kernel=kernel,
        backend=backend,
        device=device.key,
        dtype=dtype,
        size=size,
        variant=None,
        est_s=1.0,
        cap_s=8.0,
        target_s=0.5,
    )
    res = run_point(p, _Ctx(device))[0]
    if res.status not in ("ok", "suspect") or not res.value:
        raise SystemExit(f"probe {backend} {kernel}: {res.status} {res.message}")
    return float(res.value)


def _direct_torch(kernel: str, size: int) -> float:
    import torch

    g = torch.Generator().manual_seed(1)
    if kernel == "matmul":
        a, b = torch.randn(size, size, generator=g), torch.randn(size, size, generator=g)
        c = torch.empty(size, size)
        return 2.0 * size**3 / _median_call(lambda: torch.matmul(a, b, out=c), 1.5)
    if kernel == "dispatch":
        x = torch.zeros(1)

        def burst() -> None:
            for _ in range(200):
                x + 1

        return _median_call(burst, 1.0, burst=200)
    b, c = torch.randn(size, generator=g), torch.randn(size, generator=g)
    a = torch.empty(size)
    if kernel == "copy":
        return 8.0 * size / _median_call(lambda: a.copy_(b), 1.5)
    return 12.0 * size / _median_call(lambda: torch.add(b, c, alpha=3.0, out=a), 1.5)


def _direct_jax(kernel: str, size: int) -> float:
    import jax
    import jax.numpy as jnp
    import numpy as np

    rng = np.random.default_rng(1)
    if kernel == "matmul":
        a = jnp.asarray(rng.standard_normal((size, size), dtype=np.float32))
        b = jnp.asarray(rng.standard_normal((size, size), dtype=np.float32))
        f = jax.jit(lambda x, y: x @ y)
        return 2.0 * size**3 / _median_call(lambda: f(a, b).block_until_ready(), 1.5)
    if kernel == "dispatch":
        x = jnp.zeros((1,), jnp.float32)
        g = jax.jit(lambda v: v + 1)
        g(x).block_until_ready()

        def burst() -> None:
            last = None
            for _ in range(200):
                last = g(x)
            last.block_until_ready()  # type: ignore[union-attr]

        return _median_call(burst, 1.0, burst=200)
    b = jnp.asarray(rng.standard_normal(size, dtype=np.float32))
    c = jnp.asarray(rng.standard_normal(size, dtype=np.float32))
    # the output buffer is donated back each call, as the probe does: a fresh 128 MiB output per call
    # would time the allocator's page faults, not the memory bandwidth
    box = [jnp.empty((size,), jnp.float32)]
    if kernel == "copy":
        h = jax.jit(lambda out, x: jnp.copy(x), donate_argnums=0, keep_unused=True)

        def copy() -> None:
            box[0] = h(box[0], b)
            box[0].block_until_ready()

        return 8.0 * size / _median_call(copy, 1.5)
    t = jax.jit(lambda out, x, y: x + 3.0 * y, donate_argnums=0, keep_unused=True)

    def triad() -> None:
        box[0] = t(box[0], b, c)
        box[0].block_until_ready()

    return 12.0 * size / _median_call(triad, 1.5)


def child(backend: str, order: str, matmul_n: int) -> dict[str, Any]:
    from gpu_tpu_app.worker.kernels.common import stream_elements

    if backend == "torch":
        from gpu_tpu_app.worker.detect import detect_torch
        from gpu_tpu_app.worker.kernels.torch_kernels import configure_threads

        configure_threads()
        _status, devices = detect_torch()
        direct = _direct_torch
    else:
        from gpu_tpu_app.worker.detect import detect_jax

        _status, devices = detect_jax()
        direct = _direct_jax
    device = next(d for d in devices if d.platform == "cpu")
    n_stream = stream_elements("cpu", "quick")[0]
    out: dict[str, Any] = {}
    for kernel, size in (("matmul", matmul_n), ("copy", n_stream), ("triad", n_stream), ("dispatch", 1)):
        steps = ("probe", "direct") if order == "ab" else ("direct", "probe")
        got = {}
        for step in steps:
            got[step] = _probe_case(backend, device, kernel, size) if step == "probe" else direct(kernel, size)
        out[kernel] = {"size": size, **got}
    return out


# ---------------------------------------------------------------- all-reduce, direct loops

TORCH_ALLREDUCE = r"""
import json, os, statistics, sys, time
import torch, torch.distributed as dist
torch.set_num_threads(1)
dist.init_process_group("gloo", init_method="env://")
world = dist.get_world_size()
wanted = set(json.loads(sys.argv[1]))
out = {}
# the probe's order: sizes ascending from 4 KiB, at each size all-reduce, all-gather, reduce-scatter
for nbytes in [4096 << (2 * i) for i in range(6)]:
    for op in ("all_reduce", "all_gather", "reduce_scatter"):
        x = torch.ones(nbytes // 4)
        if op == "all_reduce":
            call = lambda: dist.all_reduce(x)
        elif op == "all_gather":
            part = torch.ones(nbytes // 4 // world)
            call = lambda: dist.all_gather_into_tensor(x, part)
        else:
            part = torch.empty(nbytes // 4 // world)
            call = lambda: dist.reduce_scatter_tensor(part, x)
        for _ in range(3):
            call()
        t0 = time.perf_counter(); call(); first = time.perf_counter() - t0
        reps = torch.tensor([max(10, min(200, int(0.5 / max(first, 1e-6))))])
        dist.all_reduce(reps, op=dist.ReduceOp.MAX)  # every rank runs the same number of operations
        times = []
        for _ in range(int(reps)):
            t0 = time.perf_counter(); call(); times.append(time.perf_counter() - t0)
        t = torch.tensor([statistics.median(times)], dtype=torch.float64)
        dist.all_reduce(t, op=dist.ReduceOp.MAX)
        if op == "all_reduce" and nbytes in wanted:
            out[nbytes] = float(t)
if dist.get_rank() == 0:
    print(json.dumps(out))
dist.destroy_process_group()
"""

JAX_ALLREDUCE = r"""
import json, os, statistics, sys, time
import jax
jax.config.update("jax_cpu_collectives_implementation", "gloo")
rank = int(os.environ["RANK"])
jax.distributed.initialize(coordinator_address=os.environ["COORD"], num_processes=2, process_id=rank, local_device_ids=[0])
import numpy as np
from jax.experimental import multihost_utils
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
shard_map = getattr(jax, "shard_map", None)
if shard_map is None:
    from jax.experimental.shard_map import shard_map
mesh = Mesh(np.array(jax.devices()), ("i",))
ops = {
    "all_reduce": (lambda s: jax.lax.psum(s, "i"), 1),
    "all_gather": (lambda s: jax.lax.all_gather(s, "i", tiled=True), 2),
    "reduce_scatter": (lambda s: jax.lax.psum_scatter(s, "i", scatter_dimension=0, tiled=True), 1),
}
wanted = set(json.loads(sys.argv[1]))
out = {}
# the probe's order: sizes ascending from 4 KiB, at each size all-reduce, all-gather, reduce-scatter
for nbytes in [4096 << (2 * i) for i in range(6)]:
    for op, (body, parts) in ops.items():
        f = jax.jit(shard_map(body, mesh=mesh, in_specs=P("i"), out_specs=P("i")))
        local = np.ones(nbytes // 4 // parts, dtype=np.float32)
        x = jax.make_array_from_process_local_data(NamedSharding(mesh, P("i")), local)
        for _ in range(3):
            f(x).block_until_ready()
        t0 = time.perf_counter(); f(x).block_until_ready(); first = time.perf_counter() - t0
        reps = int(np.max(multihost_utils.process_allgather(np.array([max(10, min(200, int(0.5 / max(first, 1e-6))))]))))
        times = []
        for _ in range(reps):  # every process runs the same number of operations
            t0 = time.perf_counter(); f(x).block_until_ready(); times.append(time.perf_counter() - t0)
        both = multihost_utils.process_allgather(np.array([statistics.median(times)]))
        if op == "all_reduce" and nbytes in wanted:
            out[nbytes] = float(np.max(both))
if rank == 0:
    print(json.dumps(out))
jax.distributed.shutdown()
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def direct_allreduce(engine: str) -> dict[int, float]:
    """Seconds per all-reduce (the slower rank's median) for each size, timed by a loop written here."""
    port = _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp, f"direct_{engine}_allreduce.py")
        script.write_text(TORCH_ALLREDUCE if engine == "torch" else JAX_ALLREDUCE, encoding="utf-8")
        procs = []
        for rank in range(2):
            env = {
                **os.environ,
                "RANK": str(rank),
                "WORLD_SIZE": "2",
                "MASTER_ADDR": "127.0.0.1",
                "MASTER_PORT": str(port),
                "COORD": f"127.0.0.1:{port}",
                "GLOO_SOCKET_IFNAME": "lo",
                "JAX_PLATFORMS": "cpu",
            }
            procs.append(
                subprocess.Popen(
                    [sys.executable, str(script), json.dumps(list(ALLREDUCE_BYTES))],
                    env=env,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                )
            )
        outs = [p.communicate(timeout=300) for p in procs]
    if not outs[0][0].strip():
        raise SystemExit(f"direct {engine} all-reduce failed: {outs[0][1].decode(errors='replace')[-2000:]}")
    last = outs[0][0].decode(errors="replace").strip().splitlines()[-1]  # libraries may print before it
    return {int(k): v for k, v in json.loads(last).items()}


def probe_allreduce() -> dict[str, dict[int, float]]:
    """Seconds per all-reduce from the probe's own group run (2 processes, both engines)."""
    from gpu_tpu_app.probe.group import GroupRequest, run_group

    run = run_group(GroupRequest(processes=2, backends=("torch", "jax"), max_bytes=max(ALLREDUCE_BYTES), budget_s=120))
    out: dict[str, dict[int, float]] = {}
    for r in run.results:
        if (
            r.status == "ok"
            and r.collective is not None
            and r.collective.op == "all_reduce"
            and r.size in ALLREDUCE_BYTES
        ):
            out.setdefault(r.backend, {})[int(r.size)] = r.collective.time_s
    return out


# ---------------------------------------------------------------- STREAM in C


def build_stream(tmp: str) -> str | None:
    """The compiled STREAM program's path, or None without a C compiler."""
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        return None
    src = Path(tmp, "triad.c")
    src.write_text(STREAM_C, encoding="utf-8")
    exe = str(Path(tmp, "triad"))
    for flags in (["-O3", "-fopenmp"], ["-O3"]):
        if subprocess.run([cc, *flags, str(src), "-o", exe], capture_output=True).returncode == 0:
            return exe
    return None


def run_stream(exe: str, n: int, threads: int) -> dict[str, float]:
    env = {**os.environ, "OMP_NUM_THREADS": str(threads)}
    out = subprocess.run([exe, str(n), "20"], capture_output=True, text=True, check=True, env=env).stdout
    return json.loads(out)


# ---------------------------------------------------------------- table


def _load() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--matmul-n", type=int, default=1024)
    ap.add_argument("--no-allreduce", action="store_true")
    ap.add_argument("--json", metavar="FILE")
    ap.add_argument("--child", choices=("torch", "jax"), help=argparse.SUPPRESS)
    ap.add_argument("--order", choices=("ab", "ba"), default="ab", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.order, args.matmul_n)))
        return 0
    from gpu_tpu_app.worker.kernels.common import stream_elements, usable_cores

    started_load = _load()
    rows: dict[tuple[str, str], dict[str, list[float]]] = {}

    def add(case: str, backend: str, probe: float, direct: float, time_metric: bool = False) -> None:
        row = rows.setdefault((case, backend), {"probe": [], "direct": [], "ratio": []})
        row["probe"].append(probe)
        row["direct"].append(direct)
        row["ratio"].append(direct / probe if time_metric else probe / direct)

    loads = []
    with tempfile.TemporaryDirectory() as tmp:
        exe = build_stream(tmp)
        n_stream = stream_elements("cpu", "quick")[0]
        for rnd in range(args.rounds):
            loads.append(_load())
            order = "ab" if rnd % 2 == 0 else "ba"
            probe_stream: dict[str, dict[str, float]] = {}
            for backend in ("torch", "jax"):
                out = subprocess.run(
                    [sys.executable, __file__, "--child", backend, "--order", order, "--matmul-n", str(args.matmul_n)],
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
                got = json.loads(out.strip().splitlines()[-1])
                for kernel, v in got.items():
                    add(f"{kernel} {v['size']}", backend, v["probe"], v["direct"], time_metric=kernel == "dispatch")
                probe_stream[backend] = {k: got[k]["probe"] for k in ("copy", "triad")}
            if exe is not None:
                c = run_stream(exe, n_stream, usable_cores())
                for backend, figs in probe_stream.items():
                    for k in ("copy", "triad"):
                        add(f"{k} vs STREAM (C)", backend, figs[k], c[k])
            if not args.no_allreduce:
                steps = ("probe", "direct") if order == "ab" else ("direct", "probe")
                probe_t: dict[str, dict[int, float]] = {}
                direct_t: dict[str, dict[int, float]] = {}
                for step in steps:
                    if step == "probe":
                        probe_t = probe_allreduce()
                    else:
                        direct_t = {e: direct_allreduce(e) for e in ("torch", "jax")}
                for engine in ("torch", "jax"):
                    for nbytes in ALLREDUCE_BYTES:
                        p, d = probe_t.get(engine, {}).get(nbytes), direct_t.get(engine, {}).get(nbytes)
                        if p and d:
                            add(f"all-reduce {nbytes // 1024} KiB (s/op)", engine, p, d, time_metric=True)
                # JAX's gloo against torch's gloo, each timed directly: whose the gap is
                for nbytes in ALLREDUCE_BYTES:
                    t, j = direct_t.get("torch", {}).get(nbytes), direct_t.get("jax", {}).get(nbytes)
                    if t and j:
                        add(f"all-reduce {nbytes // 1024} KiB, direct JAX vs torch", "JAX|torch", j, t, True)
            print(f"round {rnd + 1} done (load {_load()})", file=sys.stderr)
    print(f"load average at start {started_load}; per round {'; '.join(loads)}; at end {_load()}")
    print(f"{args.rounds} rounds, probe and direct interleaved (order flipped every round)")
    print(f"{'case':<40} {'backend':<9} {'probe':>11} {'direct':>11} {'ratio':>6} {'min':>6} {'max':>6}")
    for (case, backend), r in rows.items():
        unit_s = "(s/op)" in case or case.startswith("dispatch") or "direct JAX vs torch" in case

        def shown(v: float, unit_s: bool = unit_s) -> str:
            return f"{v * 1e6:.1f} us" if unit_s and v < 1e-3 else (f"{v * 1e3:.2f} ms" if unit_s else f"{v:.3g}")

        print(
            f"{case:<40} {backend:<9} {shown(statistics.median(r['probe'])):>11} "
            f"{shown(statistics.median(r['direct'])):>11} {statistics.median(r['ratio']):6.2f} "
            f"{min(r['ratio']):6.2f} {max(r['ratio']):6.2f}"
        )
    print(
        "ratio: probe rate / direct rate; for times (dispatch, all-reduce) direct time / probe time, so above 1 "
        "the probe reports faster; 'direct JAX vs torch': JAX's time, torch's time and torch's / JAX's (JAX's speed "
        "relative to torch), both timed directly"
    )
    if args.json:
        Path(args.json).write_text(
            json.dumps({f"{c} | {b}": r for (c, b), r in rows.items()}, indent=2), encoding="utf-8"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
