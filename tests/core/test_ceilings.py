"""Percent of the measured ceiling: per kernel, device and dtype, as results stream in and for a whole list."""

from __future__ import annotations

from gpu_tpu_app.core.ceilings import CeilingTracker, with_ceilings
from tests.core.test_runs import result


def test_ceilings_are_per_kernel_device_and_dtype() -> None:
    results = [
        result(1e11, 256),
        result(2e11, 512),
        result(5e10, 1024, dtype="bfloat16"),
        result(None, 2048, status="error"),
        result(9e11, 4096, status="suspect"),
        result(3e-6, 1, kernel="dispatch", metric="seconds", dtype=None),
    ]
    tracker = CeilingTracker()
    streamed = [tracker.add(r).pct_ceiling for r in results]
    assert streamed == [100.0, 100.0, 100.0, None, None, None]  # best so far, as they arrive
    final = [r.pct_ceiling for r in with_ceilings(results)]
    assert final == [50.0, 100.0, 100.0, None, None, None]
