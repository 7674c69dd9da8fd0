"""How long the worker's points take: the pace learned from the points measured so far, the ETA it gives
the parent, and the budget's slack beyond the points still to come (the worker loop in worker/main.py uses
them; standard library only, like the rest of the worker package)."""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gpu_tpu_app.worker.wire import DeviceInfo


def _slack(deadline: float, rest_est: float) -> float:
    """Seconds the budget has beyond the estimates of the points still to come."""
    return deadline - time.monotonic() - rest_est


#: How far the pace learned from the points measured so far may stretch or shrink the plan's estimates.
ETA_SCALE = (0.5, 10.0)


def load_scale(devices: list[DeviceInfo]) -> float:
    """The pace to expect before any point is measured: on a CPU device, the host's 1-minute load over
    its usable cores (a busy machine runs every point to its cap); 1 on accelerators or an idle host."""
    if not any(d.platform == "cpu" for d in devices) or any(d.platform != "cpu" for d in devices):
        return 1.0
    try:
        load = os.getloadavg()[0]
    except OSError:
        return 1.0
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return min(ETA_SCALE[1], max(1.0, (load + 1.0) / max(1, cores)))


def pace(spent: float, estimated: float, prior: float = 1.0) -> float:
    """Seconds spent over seconds estimated so far (retries included; `prior` before the first point),
    within ETA_SCALE."""
    lo, hi = ETA_SCALE
    return min(hi, max(lo, spent / estimated if estimated > 0 else prior))


def eta_s(
    remaining_est: float,
    spent: float,
    estimated: float,
    time_left: float,
    prior: float = 1.0,
    longest: float | None = None,
) -> float:
    """Seconds left: the estimates of the points still to come at the pace measured so far (seconds spent
    over seconds estimated, retries included; `prior` before the first point), never past the deadline,
    nor past `longest` (the caps of the points still to come: a busy machine runs each to its cap, no further)."""
    eta = min(remaining_est * pace(spent, estimated, prior), time_left)
    if longest is not None:
        eta = min(eta, longest)
    return max(0.0, eta)
