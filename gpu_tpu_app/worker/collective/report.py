"""What rank 0 of a collective run reports: one result per (size, op, dtype) point, measured, skipped
or failed, and the 'hosts' message.

Worker side: standard library only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gpu_tpu_app.worker.collective.common import OP_LABEL, bus_factor
from gpu_tpu_app.worker.kernels.stats import summarize
from gpu_tpu_app.worker.notes import join, note
from gpu_tpu_app.worker.wire import CollectiveInfo, ProbeResult, ResultMsg


def _measured_result(
    backend: str,
    key: str,
    op: str,
    dtype: str,
    size: int,
    ranks: int,
    n_hosts: int,
    transport: str,
    times: list[float],
    seconds: float,
) -> ProbeResult:
    """One collective point's result: bus bandwidth (median of the slowest rank's times), algorithm bandwidth, time."""
    stats = summarize([size / t * bus_factor(op, ranks) for t in times], seconds)
    busbw = stats.median
    algbw = busbw / bus_factor(op, ranks)
    med = size / algbw
    info = CollectiveInfo(op=op, ranks=ranks, hosts=n_hosts, transport=transport, time_s=med, algbw=algbw, busbw=busbw)
    msg: str | None = note(
        "collective.measured_hosts" if n_hosts > 1 else "collective.measured_one_host",
        op=OP_LABEL[op],
        size=_size(size),
        ranks=ranks,
        hosts=n_hosts,
        backend=backend,
        transport=transport,
        us=f"{med * 1e6:.1f}",
        algbw=f"{algbw / 1e9:.3g}",
        factor=f"{bus_factor(op, ranks):.3g}",
    )
    if (stalls := stall_note(backend, transport, times)) is not None:
        msg = join(msg, stalls)
    return ProbeResult(
        kernel="collective",
        backend=backend,
        device=key,
        dtype=dtype,
        size=size,
        variant=op,
        metric="bytes_per_s",
        value=busbw,
        unit="B/s",
        stats=stats,
        message=msg,
        collective=info,
    )


#: An operation slower than this many times the fastest of its point, and than STALL_MIN_S, stalled ...
STALL_FACTOR = 10.0
STALL_MIN_S = 0.01
#: ... and a point with at least this many such operations says so.
STALL_COUNT = 2


def stall_note(backend: str, transport: str, times: list[float]) -> str | None:
    """'6 of 25 operations stalled ...' when several samples took over STALL_FACTOR x the fastest (and over
    STALL_MIN_S), else None. For JAX over gloo the words say whose the stalls are: a plain jax.distributed
    loop of the same operations stalls the same way on loopback (about 40-90 ms per operation at 64-256
    KiB on the 2-core development machine, while torch's gloo takes under 1 ms; issue 24,
    benchmarks/bench_side_by_side.py), so the figure is JAX's transport, not the probe's loop."""
    if not times:
        return None
    fastest = min(times)
    slow = [t for t in times if t > STALL_FACTOR * fastest and t > STALL_MIN_S]
    if len(slow) < STALL_COUNT:
        return None
    key = "collective.stalled_jax_gloo" if backend == "jax" and transport == "gloo" else "collective.stalled"
    return note(
        key, n=len(slow), total=len(times), slowest_ms=f"{max(slow) * 1e3:.0f}", fastest_ms=f"{fastest * 1e3:.2f}"
    )


def _skip_rest(
    emit: Callable[[Any], None], points: list[tuple[int, str, str]], backend: str, key: str, why: str
) -> None:
    """Report every point not run as skipped, with the reason."""
    for size2, op2, dt2 in points:
        emit(
            ResultMsg(
                result=_result(
                    backend, key, op2, dt2, size2, status="skipped", message=note("collective.not_run", why=why)
                )
            )
        )


def _size(nbytes: int) -> str:
    for unit, scale in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if nbytes >= scale:
            return f"{nbytes / scale:.3g} {unit}"
    return f"{nbytes} B"


def _result(backend: str, key: str, op: str, dtype: str, size: int, *, status: str, message: str) -> ProbeResult:
    return ProbeResult(
        kernel="collective",
        backend=backend,
        device=key,
        dtype=dtype,
        size=size,
        variant=op,
        metric="bytes_per_s",
        unit="B/s",
        status=status,
        message=message if len(message) <= 500 else message[:500],  # a Note keeps its id when it fits
    )


class _HostsMsg:
    """The 'hosts' message: each host of the group with its ranks and provenance (rank 0 sends it)."""

    def __init__(self, hosts: list[dict[str, Any]]) -> None:
        self.hosts = hosts

    def to_dict(self) -> dict[str, Any]:
        return {"type": "hosts", "hosts": self.hosts}
