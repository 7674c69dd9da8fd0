"""The probe's all-reduce in PyTorch: the ranks (each its own spawned process, gloo on the loopback or NCCL over
the GPUs' links), the choice of transport and world size, and the point that starts them, waits within its
cap and reads rank 0's timings. Imported only inside a worker process, by torch_kernels.py (its kernel table).
"""

from __future__ import annotations

import json
import math
import os
import socket
import sys
import tempfile
import time
from datetime import timedelta
from typing import TYPE_CHECKING

import torch

from gpu_tpu_app.shared.units import format_value
from gpu_tpu_app.worker.kernels import common
from gpu_tpu_app.worker.kernels.stats import CAP_MARGIN, CV_TARGET, Timing, cv
from gpu_tpu_app.worker.notes import join, note

if TYPE_CHECKING:  # pragma: no cover
    from gpu_tpu_app.worker.kernels.point import Context, Point
    from gpu_tpu_app.worker.wire import ProbeResult

# ---------------------------------------------------------------- collective


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _collective_rank(
    rank: int, world: int, port: int, backend: str, nbytes: int, target_s: float, deadline_wall: float, out_path: str
) -> None:
    """One all-reduce rank (run in its own process); rank 0 writes its timings as JSON to out_path.

    deadline_wall is a time.time() value shared by all ranks and the parent, which spawned them.
    """
    import torch.distributed as dist

    if backend == "gloo":
        os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo0" if sys.platform == "darwin" else "lo")
        torch.set_num_threads(1)
    start = time.perf_counter()
    deadline = start + (deadline_wall - time.time())
    dist.init_process_group(
        backend,
        init_method=f"tcp://127.0.0.1:{port}",
        rank=rank,
        world_size=world,
        timeout=timedelta(seconds=max(10.0, deadline - start)),
    )
    try:
        dev = torch.device("cuda", rank) if backend == "nccl" else torch.device("cpu")
        if dev.type == "cuda":
            torch.cuda.set_device(dev)
        sync = (lambda: torch.cuda.synchronize(dev)) if dev.type == "cuda" else (lambda: None)
        n = nbytes // 4
        gen = torch.Generator(device=dev).manual_seed(common.SEED + rank)  # made on the device, not copied over
        x0 = torch.randn(n, generator=gen, device=dev)
        x = x0.clone()
        flag = torch.zeros(2, dtype=torch.float64, device=dev)

        def burst(k: int) -> float:
            x.copy_(x0)  # sums double each call: restart from the seed data so values stay finite
            sync()
            t0 = time.perf_counter()
            for _ in range(k):
                dist.all_reduce(x)
            sync()
            return (time.perf_counter() - t0) / k

        burst(2)  # warm-up: connections, buffers
        flag[0] = burst(1)
        dist.all_reduce(flag, op=dist.ReduceOp.MAX)
        inner = max(1, min(16, math.ceil(2e-3 / max(float(flag[0]), 1e-9))))
        per = max(float(flag[0]), 1e-6) * inner
        times: list[float] = []
        round_end = time.perf_counter() + target_s
        while True:
            times.append(burst(inner))
            now = time.perf_counter()
            stop = 0.0
            if len(times) >= 5 and now >= round_end:
                if cv(times) <= CV_TARGET:
                    stop = 1.0
                round_end = now + target_s
            if now + 2 * per > deadline or len(times) >= 2000:
                stop = 1.0
            flag[0] = stop  # every rank must run the same number of all-reduces: agree on stopping
            dist.all_reduce(flag, op=dist.ReduceOp.MAX)
            if float(flag[0]) > 0:
                break
        if rank == 0:
            with open(out_path, "w", encoding="utf-8") as fh:
                json.dump({"times": times, "seconds": time.perf_counter() - start, "inner": inner}, fh)
    finally:
        dist.destroy_process_group()


def collective_choice(dev_type: str, variant: str | None, count: int, nccl: bool) -> tuple[str, int, str | None]:
    """(process-group backend, ranks, None), or ("", 0, why not) for an all-reduce on `count` devices."""
    if variant == "gloo" or (dev_type == "cpu" and variant is None and count >= 2):
        return "gloo", 2, None
    if count < 2:
        return "", 0, note("common.one_device", platform=dev_type)
    if dev_type == "cuda":
        return ("nccl", count, None) if nccl else ("", 0, note("torch.no_nccl"))
    return "", 0, note("torch.no_collective", count=count, platform=dev_type)


def _collective(point: Point, ctx: Context, dev: torch.device, clock: common.PointClock) -> list[ProbeResult]:
    import multiprocessing as mp

    import torch.distributed as dist

    nbytes = int(point.size or 0)
    count = torch.cuda.device_count() if dev.type == "cuda" else ctx.device.count
    nccl = dist.is_available() and dev.type == "cuda" and dist.is_nccl_available()
    backend, world, reason = collective_choice(dev.type, point.variant, count, nccl)
    if reason:
        return [common.skipped(point, "bytes_per_s", reason)]
    if not dist.is_available():
        return [common.skipped(point, "bytes_per_s", note("torch.no_distributed"))]
    port = _free_port()
    ctx_mp = mp.get_context("spawn")
    start = time.perf_counter()
    budget = CAP_MARGIN * point.cap_s - 1.0
    deadline_wall = time.time() + budget
    with tempfile.TemporaryDirectory(prefix="gpu-tpu-probe-") as tmp:
        out_path = os.path.join(tmp, "rank0.json")
        procs = [
            ctx_mp.Process(
                target=_collective_rank,
                daemon=True,
                args=(r, world, port, backend, nbytes, point.target_s, deadline_wall, out_path),
            )
            for r in range(world)
        ]
        for p in procs:
            p.start()
        stopped = None
        try:
            while any(p.is_alive() for p in procs):
                if ctx.cancelled():
                    stopped = "cancelled"
                    break
                if time.perf_counter() - start > budget + 1.0:
                    stopped = f"ranks did not finish within {budget + 1.0:.0f} s"
                    break
                for p in procs:
                    p.join(timeout=0.05)
        finally:
            for p in procs:
                if p.is_alive():
                    p.terminate()
            for p in procs:
                p.join(timeout=5)
        if stopped == "cancelled":
            return []
        if stopped:
            raise RuntimeError(f"collective ({backend}, {world} ranks): {stopped}")
        failed = [p.exitcode for p in procs if p.exitcode != 0]
        if failed or not os.path.exists(out_path):
            code = failed[0] if failed else "?"
            raise RuntimeError(f"collective ({backend}, {world} ranks): a rank exited with code {code}")
        with open(out_path, encoding="utf-8") as fh:
            data = json.load(fh)
    timing = Timing(times=list(data["times"]), seconds=float(data["seconds"]), inner=int(data["inner"]))
    res = common.result(point, ctx, metric="bytes_per_s", timing=timing, work=float(nbytes), variant=backend)
    bus = common.bus_bandwidth(res.value or 0.0, world)
    where = "loopback" if backend == "gloo" else "links"
    msg = join(
        note(
            f"torch.allreduce_{where}",
            size=common.mib(nbytes),
            ranks=world,
            backend=backend,
            bus=format_value(bus, "bytes_per_s"),
        ),
        res.message,
    )
    return [res.model_copy(update={"message": msg})]
