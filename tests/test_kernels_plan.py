"""plan(): deterministic points per suite, filters, memory caps and the time budget."""

from __future__ import annotations

import subprocess
import sys

import pytest

from gpu_tpu_app.core.runs import CpuInfo, DeviceInfo
from gpu_tpu_app.probe.kernels import KERNELS, SUITES, Point, estimate_total, plan
from gpu_tpu_app.probe.kernels.common import MODEL_SHAPES, BlockShape, matmul_flops, stream_elements

GIB = 1024**3


def cpu(backend: str = "torch", count: int = 1, index: int = 0, memory: int = 16 * GIB) -> DeviceInfo:
    return DeviceInfo(
        backend=backend, platform="cpu", name="Test CPU", index=index, count=count, memory_bytes=memory,
        cpu=CpuInfo(model="Test CPU", cores=2, flags=["avx2", "avx512f"], caches={"L1d": 32 * 1024, "L2": 1024**2,
                                                                                  "L3": 32 * 1024**2}),
    )  # fmt: skip


def tpu(memory: int) -> DeviceInfo:
    return DeviceInfo(backend="jax", platform="tpu", name="TPU v5 lite", index=0, count=1, memory_bytes=memory)


def kinds(points: list[Point]) -> set[str]:
    return {p.kernel for p in points}


def test_module_imports_without_torch_or_jax() -> None:
    code = (
        "import sys; import gpu_tpu_app.probe.kernels as k; "
        "assert k.KERNELS and k.SUITES; "
        "bad = [m for m in ('torch', 'jax') if m in sys.modules]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_names() -> None:
    assert KERNELS == ("matmul", "copy", "triad", "transfer", "dispatch", "compile", "collective", "model_step")
    assert SUITES == ("smoke", "quick", "full")


@pytest.mark.parametrize("backend", ["torch", "jax"])
@pytest.mark.parametrize("suite", SUITES)
def test_plan_is_deterministic_with_unique_ids(backend: str, suite: str) -> None:
    a = plan(backend, [cpu(backend)], suite, None, None, None)
    b = plan(backend, [cpu(backend)], suite, None, None, None)
    assert a == b
    assert len({p.id for p in a}) == len(a)
    for p in a:
        assert p.backend == backend and p.device == f"{backend}:cpu:0"
        assert p.id.startswith(f"{backend}:cpu:0/{p.kernel}")
        assert p.est_s >= 0 and p.cap_s > p.est_s


def test_smoke_is_small() -> None:
    torch_pts = plan("torch", [cpu("torch")], "smoke", None, None, None)
    jax_pts = plan("jax", [cpu("jax")], "smoke", None, None, None)
    assert kinds(torch_pts) == {"matmul", "triad", "dispatch"}
    assert kinds(jax_pts) == {"matmul", "triad", "dispatch", "compile"}
    assert sum(p.kernel == "matmul" for p in torch_pts) <= 2
    assert all((p.size or 0) <= 512 for p in torch_pts if p.kernel == "matmul")
    assert estimate_total(torch_pts) < 5 and estimate_total(jax_pts) < 10


def test_quick_cpu_contents() -> None:
    pts = plan("torch", [cpu()], "quick", None, None, None)
    assert kinds(pts) == set(KERNELS)
    fp32 = [p.size for p in pts if p.kernel == "matmul" and p.dtype == "float32"]
    assert fp32 == [256, 512, 1024, 1536, 2048]
    assert all(n % 256 == 0 for n in fp32)
    assert [p.size for p in pts if p.kernel == "matmul" and p.dtype == "bfloat16"]
    assert not [p for p in pts if p.dtype == "float16"]  # no native fp16 matmul on CPUs
    # STREAM: each array at least 4x the 32 MiB last-level cache
    for p in pts:
        if p.kernel in ("copy", "triad"):
            assert p.dtype == "float32" and (p.size or 0) * 4 >= 4 * 32 * 1024**2
    # one transfer point (reported as not applicable) and one collective point (one device)
    assert [p.variant for p in pts if p.kernel == "transfer"] == [None]
    coll = [p for p in pts if p.kernel == "collective"]
    assert len(coll) == 1 and coll[0].est_s == 0.0
    step = [p for p in pts if p.kernel == "model_step"]
    assert [BlockShape.parse(p.variant or "") for p in step] == [MODEL_SHAPES["quick"]]


def test_full_sweeps_further_than_quick() -> None:
    quick = plan("jax", [cpu("jax")], "quick", None, None, None)
    full = plan("jax", [cpu("jax")], "full", None, None, None)
    assert max(p.size or 0 for p in full if p.kernel == "matmul") > max(p.size or 0 for p in quick
                                                                        if p.kernel == "matmul")  # fmt: skip
    assert len([p for p in full if p.kernel == "triad"]) == 2
    assert estimate_total(full) > estimate_total(quick)


def test_kernel_and_dtype_filters() -> None:
    only = plan("torch", [cpu()], "quick", ["matmul", "dispatch"], None, None)
    assert kinds(only) == {"matmul", "dispatch"}
    bf16 = plan("torch", [cpu()], "quick", None, ["bfloat16"], None)
    assert {p.dtype for p in bf16 if p.kernel == "matmul"} == {"bfloat16"}
    assert not [p for p in bf16 if p.kernel in ("copy", "triad")]  # float32 arrays
    assert {"dispatch", "transfer", "collective"} <= kinds(bf16)  # dtype-free points stay
    with pytest.raises(ValueError, match="unknown kernel"):
        plan("torch", [cpu()], "quick", ["matmull"], None, None)
    with pytest.raises(ValueError, match="unknown dtype"):
        plan("torch", [cpu()], "quick", None, ["fp8"], None)
    with pytest.raises(ValueError, match="suite"):
        plan("torch", [cpu()], "huge", None, None, None)
    # the worker's test kernels are not this module's business, and not an error
    assert plan("torch", [cpu()], "quick", ["test_sleep"], None, None) == []


def test_budget_drops_the_largest_points_first() -> None:
    everything = plan("torch", [cpu()], "full", None, None, None)
    total = estimate_total(everything)
    budget = total / 3
    fitted = plan("torch", [cpu()], "full", None, None, budget)
    assert estimate_total(fitted) <= budget
    kept = {p.id for p in fitted}
    dropped = [p for p in everything if p.id not in kept]
    assert dropped
    assert min(p.est_s for p in dropped) >= max(p.est_s for p in fitted)
    assert [p.id for p in everything if p.id in kept] == [p.id for p in fitted]  # order kept
    assert plan("torch", [cpu()], "full", None, None, 0) == everything  # 0: no budget


def test_matmul_sizes_are_capped_by_device_memory() -> None:
    pts = plan("jax", [tpu(1 * GIB)], "full", ["matmul"], None, None)
    assert pts
    for p in pts:
        elem = 4 if p.dtype == "float32" else 2
        assert 3 * (p.size or 0) ** 2 * elem <= 0.4 * GIB
    assert "float16" not in {p.dtype for p in pts}  # TPUs multiply in bf16
    big = plan("jax", [tpu(96 * GIB)], "full", ["matmul"], None, None)
    assert max(p.size or 0 for p in big) == 16384


def test_accelerator_is_preferred_and_collective_spans_devices() -> None:
    devices = [cpu("jax", count=4, index=i) for i in range(4)]
    pts = plan("jax", devices, "quick", ["matmul", "collective"], ["float32"], None)
    assert {p.device for p in pts} == {"jax:cpu:0"}
    coll = [p for p in pts if p.kernel == "collective"]
    assert len(coll) == 1 and coll[0].est_s > 0  # measured, not skipped, with 4 devices
    mixed = plan("jax", [cpu("jax"), tpu(16 * GIB)], "smoke", None, None, None)
    assert {p.device for p in mixed} == {"jax:tpu:0"}


def test_estimates_follow_the_work() -> None:
    pts = plan("torch", [cpu()], "full", ["matmul"], ["float32"], None)
    ests = [p.est_s for p in pts]
    assert ests == sorted(ests)  # bigger matrices, longer points
    assert pts[-1].est_s > matmul_flops(pts[-1].size or 0) / 1e12  # never faster than 1 TFLOP/s on a CPU


def test_stream_sizes_follow_the_cache() -> None:
    assert stream_elements("cpu", "quick", llc=32 * 1024**2) == [1 << 25]
    assert stream_elements("cpu", "quick", llc=48 * 1024**2) == [1 << 26]
    assert stream_elements("cpu", "full", llc=8 * 1024**2) == [1 << 23, 1 << 24]
    assert stream_elements("cuda", "quick") == [1 << 26]  # 256 MiB per array on accelerators
