"""Collectives across processes and hosts, measured with the engines people already run.

Worker side: standard library and the frameworks only. A worker asked for the `collective` kernel
runs here when it was started as one rank of a group:

- torch.distributed: the variables torchrun sets (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT,
  LOCAL_RANK); gloo on CPU, NCCL on CUDA.
- jax.distributed: JAX_COORDINATOR_ADDRESS with JAX_NUM_PROCESSES and JAX_PROCESS_ID, or
  GPU_TPU_APP_DISTRIBUTED=1 to let jax.distributed.initialize() find a TPU slice or a SLURM job
  itself. CPU collectives go through gloo (jax_cpu_collectives_implementation).

It measures all-reduce, all-gather and reduce-scatter over message sizes from 4 KiB up to a
memory-sensible maximum, reporting per point the time of one operation (the latency for small
messages), the algorithm bandwidth (size / time) and the bus bandwidth (nccl-tests' convention:
all-reduce x 2(n-1)/n, all-gather and reduce-scatter x (n-1)/n). Every rank times every sample;
the slowest rank's time counts. Rank 0 reports results and the hosts; the others report only
problems. A joining or a collective that makes no progress within the timeout ends with one line.

This module is the rank's main loop (join, introduce, measure every point, leave); the rest lives
beside it in this folder and its public names are re-exported here: common.py (message sizes, bus
factors, launcher variables, watchdog, rendezvous, host merging), torch_group.py and
jax_group.py (the two engines) and report.py (rank 0's results and hosts message).
"""

from __future__ import annotations

import math
import os
import platform
import time
from collections.abc import Callable
from typing import Any

from gpu_tpu_app import __version__
from gpu_tpu_app.shared import portable
from gpu_tpu_app.shared.terms import TEST_KERNELS_ENV
from gpu_tpu_app.worker import detect
from gpu_tpu_app.worker.collective.common import (
    ACCEL_MAX_BYTES,
    CPU_MAX_BYTES,
    DISTRIBUTED_ENV,
    ELEM_BYTES,
    MIN_BYTES,
    OP_LABEL,
    OPS,
    TIMEOUT_S,
    WATCHDOG_MARGIN_S,
    RendezvousError,
    Watchdog,
    _host_info,
    _one_line,
    bus_factor,
    listen_on,
    merge_hosts,
    message_sizes,
    requested,
    split_address,
    this_rank,
)
from gpu_tpu_app.worker.collective.jax_group import _JaxGroup
from gpu_tpu_app.worker.collective.report import _HostsMsg, _measured_result, _result, _skip_rest
from gpu_tpu_app.worker.collective.torch_group import _TorchGroup
from gpu_tpu_app.worker.notes import note
from gpu_tpu_app.worker.wire import DeviceInfo, DeviceMsg, Done, ErrorMsg, Hello, Progress, ResultMsg

__all__ = [
    "ACCEL_MAX_BYTES",
    "CPU_MAX_BYTES",
    "DISTRIBUTED_ENV",
    "ELEM_BYTES",
    "MIN_BYTES",
    "OPS",
    "OP_LABEL",
    "TIMEOUT_S",
    "WATCHDOG_MARGIN_S",
    "RendezvousError",
    "Watchdog",
    "bus_factor",
    "listen_on",
    "merge_hosts",
    "message_sizes",
    "requested",
    "run",
    "split_address",
    "this_rank",
    "worker_main",
]


# ---------------------------------------------------------------- measuring


def _measure(group: Any, call: Callable[[], None], target_s: float, dog: Watchdog) -> tuple[list[float], float]:
    """Per-sample seconds of one operation (the slowest rank's), and the wall time spent.

    Every rank runs the same number of calls: the burst length comes from the slowest rank's
    first timing, so no rank waits for a collective the others never start.
    """
    t_start = time.perf_counter()
    call()  # warm-up: connections, buffers, compilation
    group.sync()
    t0 = time.perf_counter()
    call()
    group.sync()
    first = group.max_floats([time.perf_counter() - t0])[0]
    dog.beat()
    inner = max(1, min(64, math.ceil(2e-3 / max(first, 1e-7))))
    reps = max(3, min(25, int(target_s / max(first * inner, 1e-7))))
    local: list[float] = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(inner):
            call()
        group.sync()
        local.append((time.perf_counter() - t0) / inner)
        dog.beat()
    slowest = group.max_floats(local)
    return slowest, time.perf_counter() - t_start


def _measure_point(
    group: Any,
    point: tuple[int, str, str],
    label: str,
    emit: Callable[[Any], None],
    dog: Watchdog,
    *,
    backend: str,
    key: str,
    ranks: int,
    n_hosts: int,
    target_s: float,
) -> bool:
    """Measure one point (rank 0 reports it). False when the group is no longer whole (this rank said why)."""
    size, op, dtype = point
    rank, lead, transport = group.rank, group.rank == 0, group.transport
    if not group.dtype_ok(dtype):
        if lead:
            emit(
                ResultMsg(
                    result=_result(
                        backend,
                        key,
                        op,
                        dtype,
                        size,
                        status="skipped",
                        message=f"{transport} on {group.platform} does not reduce {dtype}",
                    )
                )
            )
        return True
    try:
        call = group.prepare(op, size, dtype)
        times, seconds = _measure(group, call, target_s, dog)
    except Exception as exc:  # a peer that went away, an op the transport lacks, out of memory
        msg = _one_line(exc)
        if lead:
            emit(ResultMsg(result=_result(backend, key, op, dtype, size, status="error", message=msg)))
        if "not supported" in msg.lower() or "unsupported" in msg.lower():
            return True  # the group is still whole: go on with the next point
        emit(ErrorMsg(backend=backend, kernel="collective", message=f"rank {rank}: {label}: {msg}"))
        return False
    if lead:
        emit(
            ResultMsg(result=_measured_result(backend, key, op, dtype, size, ranks, n_hosts, transport, times, seconds))
        )
    return True


def _run_points(
    group: Any,
    points: list[tuple[int, str, str]],
    emit: Callable[[Any], None],
    cancelled: Callable[[], bool],
    dog: Watchdog,
    *,
    backend: str,
    key: str,
    ranks: int,
    n_hosts: int,
    deadline: float,
    timeout_s: float,
    target_s: float,
) -> int:
    """Measure every point on this rank (rank 0 reports); all ranks stop together. Returns the exit code."""
    rank, lead = group.rank, group.rank == 0
    crash_at = _test_crash_point(rank)
    for i, (size, op, dtype) in enumerate(points):
        if i == crash_at:
            os.kill(os.getpid(), portable.KILL_SIGNAL)  # the tests' stand-in for a rank that dies mid-run
        label = f"{OP_LABEL[op]} {dtype} {size} B"
        try:  # every rank stops at the same point: cancelled or out of time anywhere means everywhere
            stop = group.max_floats([1.0 if cancelled() or time.monotonic() > deadline else 0.0])[0]
        except Exception as exc:  # a peer that went away between points
            emit(
                ErrorMsg(backend=backend, kernel="collective", message=f"rank {rank}: before {label}: {_one_line(exc)}")
            )
            return 1
        if stop:
            if lead:
                _skip_rest(
                    emit,
                    points[i:],
                    backend,
                    key,
                    note("collective.cancelled") if cancelled() else note("collective.budget_used_up"),
                )
            return 0
        dog.beat(f"measuring {label}")
        if lead:
            emit(
                Progress(
                    done=i,
                    total=len(points),
                    kernel="collective",
                    point=f"{key}/collective/{op}/{dtype}/{size}",
                    backend=backend,
                    device=key,
                    dtype=dtype,
                    size=size,
                    variant=op,
                    cap_s=timeout_s,
                )
            )
        if not _measure_point(
            group,
            (size, op, dtype),
            label,
            emit,
            dog,
            backend=backend,
            key=key,
            ranks=ranks,
            n_hosts=n_hosts,
            target_s=target_s,
        ):
            return 1
    return 0


def _join(backend: str, emit: Callable[[Any], None], timeout_s: float) -> Any:
    """This process's place in the torch or JAX group, or None after reporting why it could not join."""
    try:
        return _TorchGroup(timeout_s) if backend == "torch" else _JaxGroup(timeout_s)
    except RendezvousError as exc:
        emit(ErrorMsg(backend=backend, kernel="collective", message=str(exc)))
        emit(Done(ok=False, message=str(exc)))
        return None
    except Exception as exc:
        msg = f"could not join the {backend} group within {timeout_s:.0f} s: {_one_line(exc)}"
        emit(ErrorMsg(backend=backend, kernel="collective", message=msg))
        emit(Done(ok=False, message=msg))
        return None


def _introduce(group: Any, backend: str, ranks: int, emit: Callable[[Any], None]) -> list[dict[str, Any]] | None:
    """Exchange host information and check a sum across the ranks; rank 0 reports the hosts and the device.
    The hosts, or None after reporting what failed."""
    rank = group.rank
    versions = group.versions()
    try:
        hosts = merge_hosts(group.gather_objects(_host_info(rank, group.devices(), versions)))
        wrong = group.check_sum()
    except Exception as exc:  # a peer that went away right after joining
        msg = f"rank {rank}: after joining the {backend} group: {_one_line(exc)}"
        emit(ErrorMsg(backend=backend, kernel="collective", message=msg))
        emit(Done(ok=False, message=msg))
        return None
    lead = rank == 0
    if lead:
        emit(_HostsMsg(hosts=hosts))
        emit(
            DeviceMsg(
                device=DeviceInfo(
                    backend=backend,
                    platform=group.platform,
                    name=group.device_name,
                    index=0,
                    count=ranks,
                    versions=versions,
                )
            )
        )
    if wrong:
        if lead:
            emit(ErrorMsg(backend=backend, kernel="collective", message=f"wrong result: {wrong}"))
        emit(Done(ok=False, message=wrong))
        return None
    return hosts


def _points(group: Any, ranks: int, dtypes: list[str] | None, max_bytes: int | None) -> list[tuple[int, str, str]]:
    """The (size, op, dtype) points to measure: bfloat16 too on an accelerator, and larger messages."""
    accel = group.platform != "cpu"
    limit = max_bytes or (ACCEL_MAX_BYTES if accel else CPU_MAX_BYTES)
    sizes = message_sizes(limit, ranks)
    wanted = [d for d in (dtypes or (["float32", "bfloat16"] if accel else ["float32"])) if d in ELEM_BYTES]
    return [(size, op, dt) for dt in wanted for size in sizes for op in OPS]


def run(
    backend: str,
    emit: Callable[[Any], None],
    cancelled: Callable[[], bool],
    *,
    deadline: float,
    dtypes: list[str] | None,
    timeout_s: float = TIMEOUT_S,
    max_bytes: int | None = None,
    target_s: float = 0.15,
) -> int:
    """Join the group, measure, report (rank 0); the worker's exit code."""
    # the framework's import (seconds on a busy machine) does not count against the joining timeout
    if backend == "torch":
        import torch.distributed  # noqa: F401 (imported for its start-up cost, before the timeout starts)
    else:
        import jax  # noqa: F401 (imported for its start-up cost, before the timeout starts)
    # torch's own timeout errors say more, so they come first; JAX aborts instead, so the watchdog does
    dog = Watchdog(emit, backend, timeout_s + (WATCHDOG_MARGIN_S if backend == "torch" else 0.0))
    group = _join(backend, emit, timeout_s)
    if group is None:
        return 1
    dog.beat("exchanging host information")
    rank, procs = group.rank, group.size
    ranks = getattr(group, "ranks", procs)
    hosts = _introduce(group, backend, ranks, emit)
    if hosts is None:
        return 1
    key = f"{backend}:{group.platform}:0"
    code = _run_points(
        group,
        _points(group, ranks, dtypes, max_bytes),
        emit,
        cancelled,
        dog,
        backend=backend,
        key=key,
        ranks=ranks,
        n_hosts=len(hosts),
        deadline=deadline,
        timeout_s=timeout_s,
        target_s=target_s,
    )
    if code == 0:
        dog.beat("leaving the group")
        group.close()  # with every peer still there; after a failure the process just ends (a shutdown
        #                that waits for a dead peer could take minutes)
        emit(Done(ok=True, message=None if rank == 0 else f"rank {rank}: rank 0 reports the results"))
    else:
        emit(Done(ok=False, message="a rank failed"))
    dog.stop()
    return code


def _test_crash_point(rank: int) -> int | None:
    """With the test kernels switched on, GPU_TPU_APP_TEST_CRASH_RANK=R:I makes rank R die before point I."""
    if os.environ.get(TEST_KERNELS_ENV) != "1":
        return None
    spec = os.environ.get("GPU_TPU_APP_TEST_CRASH_RANK", "")
    who, _, when = spec.partition(":")
    if who.isdigit() and when.isdigit() and int(who) == rank:
        return int(when)
    return None


def worker_main(args: Any, emit: Callable[[Any], None], cancelled: Callable[[], bool], t0: float) -> int:
    """The worker's collective path: Hello, then `run`; args are the worker's parsed arguments."""
    versions = {"app": __version__, "python": platform.python_version()}
    emit(Hello(backend=args.backend, versions=versions, env=detect.kernel_env(), pid=os.getpid()))
    budget = args.budget_s if args.budget_s is not None else 55.0
    time_left = args.time_left_s if args.time_left_s is not None else budget
    timeout = float(os.environ.get("GPU_TPU_APP_COLLECTIVE_TIMEOUT_S", TIMEOUT_S))
    max_bytes = int(os.environ.get("GPU_TPU_APP_COLLECTIVE_MAX_BYTES", "0") or 0) or None
    return run(
        args.backend,
        emit,
        cancelled,
        deadline=t0 + time_left,
        dtypes=args.dtype,
        timeout_s=timeout,
        max_bytes=max_bytes,
    )
