"""plan(): deterministic points per suite, filters, memory caps and the time budget."""

from __future__ import annotations

import subprocess
import sys

import pytest

from gpu_tpu_app.core.runs import CpuInfo, DeviceInfo
from gpu_tpu_app.worker.kernels import (
    COLLECTIVE_MIN_CAP_S,
    KERNELS,
    STREAM_BUDGET_SHARE,
    STREAM_MEMORY_SHARE,
    SUITES,
    Point,
    estimate_total,
    plan,
)
from gpu_tpu_app.worker.kernels.common import MODEL_SHAPES, BlockShape, matmul_flops, stream_elements

GIB = 1024**3


def cpu(backend: str = "torch", count: int = 1, index: int = 0, memory: int = 16 * GIB) -> DeviceInfo:
    return DeviceInfo(
        backend=backend,
        platform="cpu",
        name="Test CPU",
        index=index,
        count=count,
        memory_bytes=memory,
        cpu=CpuInfo(
            model="Test CPU",
            cores=2,
            flags=["avx2", "avx512f"],
            caches={"L1d": 32 * 1024, "L2": 1024**2, "L3": 32 * 1024**2},
        ),
    )


def tpu(memory: int) -> DeviceInfo:
    return DeviceInfo(backend="jax", platform="tpu", name="TPU v5 lite", index=0, count=1, memory_bytes=memory)


def kinds(points: list[Point]) -> set[str]:
    return {p.kernel for p in points}


def test_module_imports_without_torch_or_jax() -> None:
    code = (
        "import sys; import gpu_tpu_app.worker.kernels as k; "
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
        # a JAX point's estimate also counts its data and compile ahead, before its clock (setup_s allows it)
        assert p.est_s >= 0 and (p.cap_s > p.est_s or (p.setup_s > 0 and p.cap_s + p.setup_s > p.est_s))


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
    assert max(p.size or 0 for p in full if p.kernel == "matmul") > max(
        p.size or 0 for p in quick if p.kernel == "matmul"
    )
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


def test_budget_leaves_out_the_largest_points_first_and_says_so() -> None:
    kernels = ["matmul", "dispatch", "model_step"]  # copy/triad sizes also follow the budget: kept out here
    everything = plan("torch", [cpu()], "full", kernels, None, None)
    total = estimate_total(everything)
    budget = total / 3
    fitted = plan("torch", [cpu()], "full", kernels, None, budget)
    assert estimate_total(fitted) <= budget
    assert [p.id for p in fitted] == [p.id for p in everything]  # nothing vanishes, order kept
    left = {p.id for p in fitted if p.skip}
    assert left
    dropped = [p for p in everything if p.id in left]
    kept = [p for p in everything if p.id not in left]
    assert min(p.est_s for p in dropped) >= max(p.est_s for p in kept)
    for p in fitted:
        if p.skip:
            assert p.est_s == 0 and "time budget" in p.skip and "--budget-s" in p.skip
    assert plan("torch", [cpu()], "full", kernels, None, 0) == everything  # 0: no budget


def test_matmul_sizes_are_capped_by_device_memory() -> None:
    pts = plan("jax", [tpu(1 * GIB)], "full", ["matmul"], None, None)
    measured = [p for p in pts if not p.skip]
    assert measured
    for p in measured:
        elem = 4 if p.dtype == "float32" else 2
        assert 3 * (p.size or 0) ** 2 * elem <= 0.4 * GIB
    # what does not fit is said, with the memory it would need
    too_big = [p for p in pts if p.skip and p.size]
    assert too_big and all("more than 40%" in (p.skip or "") for p in too_big)
    assert {p.size for p in measured} | {p.size for p in too_big} >= {256, 16384}
    # TPUs multiply in bf16: fp16 is one skipped point with the reason, never measured
    fp16 = [p for p in pts if p.dtype == "float16"]
    assert len(fp16) == 1 and fp16[0].skip and "bf16" in fp16[0].skip and fp16[0].est_s == 0
    big = plan("jax", [tpu(96 * GIB)], "full", ["matmul"], None, None)
    assert max(p.size or 0 for p in big if not p.skip) == 16384


def test_a_dtype_asked_for_but_not_planned_is_a_skipped_point() -> None:
    pts = plan("torch", [cpu()], "quick", ["matmul"], ["float16"], None)
    assert len(pts) == 1 and pts[0].dtype == "float16" and pts[0].skip and "fp16" in pts[0].skip
    smoke = plan("torch", [cpu()], "smoke", ["matmul"], ["bfloat16"], None)
    assert [(p.dtype, bool(p.skip)) for p in smoke] == [("bfloat16", True)]
    assert "smoke suite" in (smoke[0].skip or "")


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


def vm(l3: int, memory: int = 16 * GIB, backend: str = "torch") -> DeviceInfo:
    """A VM's CPU as its guest OS describes it: the host's whole L3 (hundreds of MiB) may be reported."""
    return DeviceInfo(
        backend=backend,
        platform="cpu",
        name="Virtual CPU",
        index=0,
        count=1,
        memory_bytes=memory,
        cpu=CpuInfo(model="Virtual CPU", cores=2, flags=["avx2"], caches={"L1d": 32 * 1024, "L2": 1024**2, "L3": l3}),
    )


def test_a_vm_reporting_a_huge_l3_gets_capped_stream_arrays_and_no_silent_drop() -> None:
    # `gpu-tpu-probe run --suite quick --kernel triad copy` on a VM reporting a 260 MiB L3
    pts = plan("torch", [vm(260 * 1024**2)], "quick", ["triad", "copy"], None, 27.5)
    assert sorted(p.kernel for p in pts) == ["copy", "triad"]  # both appear: measured or said
    copy, triad = (next(p for p in pts if p.kernel == k) for k in ("copy", "triad"))
    assert not copy.skip and not triad.skip
    assert copy.size == triad.size  # one working set for both, comparable
    per_array = (copy.size or 0) * 4
    assert 3 * per_array <= STREAM_MEMORY_SHARE * 16 * GIB  # a small share of the memory
    assert per_array < 4 * 260 * 1024**2  # the cap won over 4x LLC ...
    for p in (copy, triad):  # ... and every result of the point will say so
        assert p.note and "capped" in p.note and "260 MiB" in p.note and "cache" in p.note
        assert p.est_s <= STREAM_BUDGET_SHARE * 27.5 + 2 * 0.15
    assert estimate_total(pts) <= 27.5


def test_stream_arrays_follow_4x_llc_when_it_fits() -> None:
    pts = plan("torch", [vm(32 * 1024**2)], "quick", ["copy", "triad"], None, 55.0)
    assert all((p.size or 0) * 4 >= 4 * 32 * 1024**2 and p.note is None for p in pts)
    # a small machine: memory caps the arrays, and the note names memory as the reason
    small = plan("torch", [vm(32 * 1024**2, memory=2 * GIB)], "quick", ["triad"], None, None)
    assert 3 * (small[0].size or 0) * 4 <= STREAM_MEMORY_SHARE * 2 * GIB
    assert small[0].note and "memory" in small[0].note


def test_stream_on_an_accelerator_is_sized_past_its_cache_even_in_smoke() -> None:
    mi300x = DeviceInfo(
        backend="torch", platform="rocm", name="AMD Instinct MI300X", memory_bytes=192 * GIB, cache_bytes=256 * 1024**2
    )
    for suite in ("smoke", "quick"):
        pts = plan("torch", [mi300x], suite, ["triad"], ["float32"], None)
        assert pts and all((p.size or 0) * 4 >= 4 * 256 * 1024**2 and not p.skip for p in pts)
    h100 = DeviceInfo(
        backend="jax", platform="gpu", name="NVIDIA H100 80GB HBM3", memory_bytes=80 * GIB, cache_bytes=50 * 1024**2
    )
    smoke = plan("jax", [h100], "smoke", ["triad"], None, None)
    assert smoke and (smoke[0].size or 0) * 4 >= 4 * 50 * 1024**2


def test_collective_cap_is_one_rule_for_both_engines() -> None:
    devices = {
        b: [
            DeviceInfo(
                backend=b,
                platform="cuda" if b == "torch" else "gpu",
                name="NVIDIA H100 80GB HBM3",
                index=i,
                count=8,
                memory_bytes=80 * GIB,
            )
            for i in range(8)
        ]
        for b in ("torch", "jax")
    }
    caps = {}
    for backend, devs in devices.items():
        coll = [p for p in plan(backend, devs, "quick", ["collective"], None, None)]
        assert len(coll) == 1 and not coll[0].skip
        assert coll[0].cap_s >= COLLECTIVE_MIN_CAP_S and coll[0].cap_s >= 3 * coll[0].est_s - 1
        caps[backend] = coll[0].cap_s
    assert min(caps.values()) >= COLLECTIVE_MIN_CAP_S  # JAX no longer gets the generic 2.5-3.4 s cap


def test_a_jax_points_data_and_compile_ahead_count_in_its_estimate_not_in_its_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The cap bounds the measuring loop; a JAX point makes its data and compiles before its clock starts,
    so that time is in its estimate (budget, ETA) but leaves its cap as it would be without it."""
    import dataclasses

    from gpu_tpu_app.worker.kernels import planner

    ahead = [p for p in plan("jax", [cpu("jax")], "quick") if p.est_s > 0]
    real = planner._speed
    monkeypatch.setattr(
        planner, "_speed", lambda *a: dataclasses.replace(real(*a), first_s=0.0, fill_s=0.0, stream_fill_s=0.0)
    )
    none_ahead = [p for p in plan("jax", [cpu("jax")], "quick") if p.est_s > 0]
    checked = {"matmul", "copy", "triad", "dispatch", "model_step"}
    pairs = [(a, b) for a, b in zip(ahead, none_ahead, strict=True) if a.kernel in checked]
    assert {a.kernel for a, _ in pairs} == checked
    for a, b in pairs:
        assert a.id == b.id and a.cap_s == b.cap_s, a.id
        assert a.est_s >= b.est_s  # the set-up is in the estimate
    assert sum(a.est_s for a, _ in pairs) > sum(b.est_s for _, b in pairs)
