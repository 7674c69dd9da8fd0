"""Probe kernels: what is measured, in which order, and how one point is measured.

`plan()` (in `planner`) turns a suite into a deterministic list of `Point`s; `run_point()`
measures one of them with the backend the point names and returns `ProbeResult`s. Both run
inside a worker process. This package imports neither torch nor jax at import time, so the
GUI can read KERNELS and SUITES without them; the backends are imported inside the functions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gpu_tpu_app.shared.terms import BACKENDS, DTYPES, KERNELS, SUITES
from gpu_tpu_app.worker.kernels.planner import (
    CALIBRATION_N,
    JAX_SETUP_S,
    STREAM_BUDGET_SHARE,
    STREAM_MEMORY_SHARE,
    calibration_dtypes,
    estimate_total,
    plan,
    stream_plan,
    targets,
)
from gpu_tpu_app.worker.kernels.point import Context, Point
from gpu_tpu_app.worker.kernels.speeds import (
    COLLECTIVE_MIN_CAP_S,
    _speed,
    collective_cap,
    collective_estimate,
    slow_line,
)

if TYPE_CHECKING:  # pragma: no cover
    from gpu_tpu_app.worker.wire import DeviceInfo, ProbeResult

__all__ = [
    "BACKENDS",
    "COLLECTIVE_MIN_CAP_S",
    "DTYPES",
    "JAX_SETUP_S",
    "KERNELS",
    "STREAM_BUDGET_SHARE",
    "STREAM_MEMORY_SHARE",
    "SUITES",
    "Context",
    "Point",
    "calibrate",
    "collective_cap",
    "collective_estimate",
    "estimate_total",
    "plan",
    "run_point",
    "stream_plan",
    "targets",
    "warm_up",
]


def warm_up(backend: str, device: DeviceInfo) -> float:
    """Warm `device` up once before point 1 (context, BLAS handles, first compile); returns the seconds it took."""
    if backend == "torch":
        from gpu_tpu_app.worker.kernels import torch_kernels as impl
    elif backend == "jax":
        from gpu_tpu_app.worker.kernels import jax_kernels as impl  # type: ignore[no-redef]  # one of the two backends' modules, same interface
    else:
        raise ValueError(f"unknown backend {backend!r}")
    return float(impl.warm_up(device))


def calibrate(
    backend: str,
    devices: list[DeviceInfo],
    suite: str,
    kernels: list[str] | None = None,
    dtypes: list[str] | None = None,
    mm: Any = None,
) -> dict[str, dict[str, float]]:
    """Device key -> dtype -> FLOP/s of one small product, for each dtype whose matmul sweep plan() would
    make; plan(rates=...) sizes and orders the points from it. `mm`: the product (a test slows it)."""
    impl = _impl(backend)
    out: dict[str, dict[str, float]] = {}
    for device in targets(backend, devices):
        wanted = calibration_dtypes(backend, device, suite, kernels, dtypes)
        if wanted:
            n = CALIBRATION_N["cpu" if device.platform == "cpu" else "accel"]
            out[device.key] = recheck_slow(device, impl.calibrate(device, wanted, n, mm), impl, n, mm)
    return out


#: How many more times a dtype that calibrated slow is checked again (with fp32 beside it) before the plan
#: may cut its sweep: one stalled check on a busy machine must not cost a dtype its sizes (issue 35 §5).
CALIBRATION_RECHECKS = 2


def slow_dtypes(device: DeviceInfo, rates: dict[str, float]) -> list[str]:
    """The dtypes whose calibrated rate the planner would call slow (speeds.slow_line), in `rates`' order."""
    expected = _speed(device.backend, device).flops
    fp32 = rates.get("float32")
    return [dt for dt, r in rates.items() if slow_line(device, dt, r, expected.get(dt), fp32) is not None]


def recheck_slow(
    device: DeviceInfo, rates: dict[str, float], impl: Any, n: int, mm: Any = None, rechecks: int = CALIBRATION_RECHECKS
) -> dict[str, float]:
    """`rates`, with every dtype that calibrated slow checked again in the same minute, fp32 beside it, up to
    `rechecks` more times while it still looks slow; each dtype keeps its best rate over the checks (a stall
    only ever lowers a rate). A dtype stays slow only when every check found it slow."""
    best = dict(rates)
    for _ in range(rechecks):
        slow = slow_dtypes(device, best)
        if not slow:
            break
        again = impl.calibrate(device, [*(["float32"] if "float32" in best else []), *slow], n, mm)
        for dt, rate in again.items():
            best[dt] = max(best.get(dt, 0.0), rate)
    return best


def _impl(backend: str) -> Any:
    if backend == "torch":
        from gpu_tpu_app.worker.kernels import torch_kernels as impl
    elif backend == "jax":
        from gpu_tpu_app.worker.kernels import jax_kernels as impl  # type: ignore[no-redef]  # one of the two backends' modules, same interface
    else:
        raise ValueError(f"unknown backend {backend!r}")
    return impl


def run_point(point: Point, ctx: Context) -> list[ProbeResult]:
    """Measure one point on ctx.device with the point's backend.

    Returns [] only when cancelled before anything was measured. May raise (driver errors,
    out of memory): the worker turns that into an error result.
    """
    if point.kernel not in KERNELS:
        raise ValueError(f"unknown kernel {point.kernel!r}")
    if point.backend == "torch":
        from gpu_tpu_app.worker.kernels import torch_kernels as impl
    elif point.backend == "jax":
        from gpu_tpu_app.worker.kernels import jax_kernels as impl  # type: ignore[no-redef]  # one of the two backends' modules, same interface
    else:
        raise ValueError(f"unknown backend {point.backend!r}")
    return impl.run(point, ctx)
