"""Kernels that misbehave on purpose, so tests can show the probe survives a crash, a hang and an OOM.

They exist only when GPU_TPU_APP_TEST_KERNELS=1 and are never part of a suite; a run
asks for them by name (--kernel test_segfault ...). None of them measures anything.
"""

from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass

from gpu_tpu_app.shared.terms import TEST_KERNELS, TEST_KERNELS_ENV, enabled_test_kernels
from gpu_tpu_app.worker.wire import DeviceInfo, ProbeResult

ENV = TEST_KERNELS_ENV
#: The time cap of a test point; test_sleep sleeps far past it.
CAP_S = 1.0
SLEEP_S = 600.0
#: test_oom may grow the address space by this much before the allocation fails.
OOM_HEADROOM = 512 * 1024**2


def enabled() -> bool:
    """True when the test kernels are switched on for this process."""
    return bool(enabled_test_kernels())


@dataclass(frozen=True)
class TestPoint:
    """One test kernel to run; the same fields as the probe kernels' Point."""

    __test__ = False  # not a pytest test class

    id: str
    kernel: str
    backend: str
    device: str
    dtype: str | None = None
    size: int | None = None
    variant: str | None = None
    est_s: float = 0.1
    cap_s: float = CAP_S


def plan(backend: str, devices: list[DeviceInfo], kernels: list[str]) -> list[TestPoint]:
    """Points for the requested test kernels, on the backend's first device, in the order asked."""
    if not enabled() or not devices:
        return []
    device = devices[0].key
    return [
        TestPoint(id=f"{device}/{k}", kernel=k, backend=backend, device=device) for k in kernels if k in TEST_KERNELS
    ]


def _vm_size() -> int:
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("VmSize not found in /proc/self/status")


def _oom() -> None:
    """Ask for twice the physical memory under an address-space limit, so it fails with MemoryError."""
    try:
        import resource
    except ImportError as exc:
        raise RuntimeError("test_oom needs resource.setrlimit (Linux)") from exc
    physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = _vm_size() + OOM_HEADROOM
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        block = bytearray(2 * physical)
        del block
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    raise RuntimeError("test_oom: the allocation unexpectedly succeeded")


def run_point(point: TestPoint, ctx: object) -> list[ProbeResult]:
    """Misbehave as the kernel's name says; never returns a result."""
    if point.kernel == "test_segfault":
        os.kill(os.getpid(), signal.SIGSEGV)
        time.sleep(5)  # the signal is delivered asynchronously
        raise RuntimeError("test_segfault: SIGSEGV did not end the process")
    if point.kernel == "test_sleep":
        time.sleep(SLEEP_S)
        raise RuntimeError("test_sleep: woke up")
    if point.kernel == "test_oom":
        _oom()
    raise ValueError(f"unknown test kernel {point.kernel!r}")
