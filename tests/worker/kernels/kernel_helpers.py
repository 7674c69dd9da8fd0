"""Shared set-up for the kernel tests that measure a backend for real on this machine's CPU."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import pytest

from gpu_tpu_app.core.runs import DeviceInfo, ProbeResult
from gpu_tpu_app.worker.kernels import Point
from gpu_tpu_app.worker.kernels.stats import Timing


def cpu_device(backend: str) -> DeviceInfo:
    """This machine's CPU as `backend` sees it."""
    return DeviceInfo(backend=backend, platform="cpu", name="this CPU", index=0, count=1)  # type: ignore[arg-type]


def make_ctx_class(device: DeviceInfo) -> type[Any]:
    """A measuring context for `device`: no catalogue peaks unless given, cancelled when `stop` is set."""
    default_device = device

    @dataclass
    class Ctx:
        device: DeviceInfo = default_device
        peak_flops: dict[str, float] = field(default_factory=dict)
        peak_bw: float | None = None
        stop: bool = False

        def cancelled(self) -> bool:
            return self.stop

    return Ctx


def make_point(
    backend: str,
    kernel: str,
    dtype: str | None = "float32",
    size: int | None = None,
    variant: str | None = None,
    cap_s: float = 1.0,
) -> Point:
    """A point of `kernel` on `backend`'s CPU device, with a short target time."""
    return Point(
        id=f"{backend}:cpu:0/{kernel}",
        kernel=kernel,
        backend=backend,
        device=f"{backend}:cpu:0",
        dtype=dtype,
        size=size,
        variant=variant,
        est_s=0.1,
        cap_s=cap_s,
        target_s=0.03,
    )


def spy_measure(monkeypatch: pytest.MonkeyPatch, module: ModuleType) -> list[Timing]:
    """Wraps `module.measure` so each Timing it returns is also appended to the list returned here."""
    seen: list[Timing] = []
    real = module.measure

    def spy(*args: Any, **kwargs: Any) -> Timing:
        t = real(*args, **kwargs)
        seen.append(t)
        return t

    monkeypatch.setattr(module, "measure", spy)
    return seen


def check_rate(res: ProbeResult, timing: Timing, work: float) -> None:
    """value is the median of per-sample rates, i.e. about work / median time."""
    assert res.status == "ok", res.message
    assert res.stats is not None and res.value is not None
    assert res.value == pytest.approx(statistics.median([work / t for t in timing.times]), rel=1e-9)
    # and it is work / median time: exactly for an odd number of samples (the rate falls as the time grows),
    # between the two middle samples' rates for an even number; no tolerance that a busy machine can break
    times = sorted(timing.times)
    middle = [work / times[(len(times) - 1) // 2], work / times[len(times) // 2]]
    assert min(middle) * (1 - 1e-9) <= res.value <= max(middle) * (1 + 1e-9)
    assert res.stats.median == res.value and res.stats.reps == len(timing.times)
    assert res.stats.min <= res.stats.q1 <= res.value <= res.stats.q3 <= res.stats.max
