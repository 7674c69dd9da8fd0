"""Test data several test files build the same way: a run of one matmul point, and answers that lean to TPUs.

Hand-made test input, never a measurement: each builder takes the fields a test cares about as arguments, so
a test still says the numbers it asserts on.
"""

from __future__ import annotations

from datetime import UTC, datetime

from gpu_tpu_app.core.decision import Answers
from gpu_tpu_app.core.runs import DeviceInfo, ProbeResult, RunFile

#: the answers of a clear TPU case: JAX verified on XLA, in production on Google Cloud, matmul-dominated, large
TPU_LEANING: dict[str, str] = {
    "framework": "jax",
    "xla_verified": "yes",
    "stage": "production",
    "deployment": "google_cloud",
    "matmul_share": "dominant",
    "scale": "large",
}
#: the rest of the wizard answered the TPU way too (no custom ops, locked architecture, large steady batches)
TPU_LEANING_REST: dict[str, str] = {
    "custom_ops": "none",
    "architecture_changes": "locked",
    "batch": "large",
    "duration": "weeks",
    "utilization": "steady",
}


def tpu_answers(*, every: bool = False, **changes: str | None) -> Answers:
    """TPU-leaning answers (`every`: every question answered so); a change of None leaves that question open."""
    fields: dict[str, str | None] = {**TPU_LEANING, **(TPU_LEANING_REST if every else {}), **changes}
    return Answers.model_validate({k: v for k, v in fields.items() if v is not None})


def matmul_run(
    *,
    value: float = 2e11,
    size: int = 1024,
    backend: str = "torch",
    platform: str = "cpu",
    name: str = "Example CPU",
    memory_bytes: int | None = None,
    dtype: str = "float32",
    unit: str = "FLOP/s",
    host: str = "box",
    suite: str = "smoke",
    started: datetime | None = None,
    complete: bool = True,
) -> RunFile:
    """A run file of one device and one matmul point (FLOP/s), as written by hand for a test."""
    dev = DeviceInfo(backend=backend, platform=platform, name=name)
    if memory_bytes is not None:
        dev = DeviceInfo(backend=backend, platform=platform, name=name, memory_bytes=memory_bytes)
    res = ProbeResult(
        kernel="matmul",
        backend=backend,
        device=dev.key,
        dtype=dtype,
        size=size,
        metric="flops",
        value=value,
        unit=unit,
    )
    return RunFile(
        app_version="0.1.0",
        host=host,
        os="Linux",
        python="3.11",
        devices=[dev],
        suite=suite,
        started=started or datetime(2025, 1, 1, tzinfo=UTC),
        complete=complete,
        results=[res],
    )
