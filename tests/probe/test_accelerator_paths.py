"""The CUDA, ROCm, MPS, XPU and TPU paths, checked without a device.

Everything here runs on fake device descriptions (torch device properties, NVML and allocator
stand-ins, DeviceInfo records): they exercise naming, matching, labels, planning and memory
accounting. None of them produces or presents a measurement.
"""

from __future__ import annotations

import io
import subprocess
import sys
import threading
import tomllib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.runs import BackendStatus, DeviceInfo, DeviceMsg, ProbeResult, Progress, parse_message
from gpu_tpu_app.shared.devicematch import is_partition
from gpu_tpu_app.worker import detect, nvml
from gpu_tpu_app.worker.kernels import JAX_SETUP_S, plan
from gpu_tpu_app.worker.kernels.common import jax_math_mode, peak_for, torch_math_mode

GIB = 1024**3
NAMES = tomllib.loads((Path(__file__).resolve().parents[1] / "data" / "device_names.toml").read_text())["name"]


@pytest.fixture(autouse=True)
def _catalogue_digest(monkeypatch: pytest.MonkeyPatch) -> None:
    """Detection reads the catalogue from the digest the app hands every worker (probe.envs.catalog_digest)."""
    from gpu_tpu_app.probe.envs import catalog_digest

    monkeypatch.setenv(detect.CATALOG_ENV, catalog_digest())


# ---------------------------------------------------------------- names and catalogue rows


@pytest.mark.parametrize("entry", NAMES, ids=[n["text"] for n in NAMES])
def test_real_device_names_match_their_row_or_none(entry: dict[str, str]) -> None:
    assert detect.catalog_match(entry["text"]) == (entry["chip"] or None), entry.get("why", "")


def test_mig_slices_are_partitions() -> None:
    assert is_partition("NVIDIA H100 80GB HBM3 MIG 1g.10gb") and is_partition("NVIDIA A100-SXM4-40GB MIG 3g.20gb")
    assert not is_partition("NVIDIA H100 80GB HBM3") and not is_partition("AMD Instinct MI300X")


def props(**kw: Any) -> SimpleNamespace:
    """torch.cuda.get_device_properties(i) as a plain record (a stand-in: no device behind it)."""
    base = {"name": "", "total_memory": 0, "major": 0, "minor": 0, "multi_processor_count": 0}
    return SimpleNamespace(**{**base, **kw})


MI300X_MEMORY = 205_822_885_888  # what torch reports for 192 GB of HBM3 on ROCm 6


@pytest.mark.parametrize("name", ["AMD Radeon Graphics", "", "AMD Instinct MI300X"])
def test_rocm_generic_names_fall_back_to_arch_compute_units_and_memory(name: str) -> None:
    p = props(
        name=name,
        gcnArchName="gfx942:sramecc+:xnack-",
        multi_processor_count=304,
        total_memory=MI300X_MEMORY,
        L2_cache_size=4 * 1024**2,
    )
    dev = detect.gpu_device(p, 0, 8, "rocm", {"torch": "2.5", "hip": "6.2"})
    assert dev.catalog_id == "mi300x"
    assert dev.versions["gcn_arch"] == "gfx942:sramecc+:xnack-" and dev.versions["compute_units"] == "304"
    assert dev.name == (name or "unnamed rocm device")
    assert dev.cache_bytes == 256 * 1024**2  # the Infinity Cache, not the per-XCD L2 torch reports


@pytest.mark.parametrize(
    ("cus", "memory", "why"),
    [(228, 128 * 10**9, "MI300A"), (38, 24 * 10**9, "CPX partition of an MI300X"), (304, 100 * 10**9, "unknown part")],
)
def test_other_gfx942_parts_do_not_borrow_the_mi300x_row(cus: int, memory: int, why: str) -> None:
    dev = detect.gpu_device(
        props(name="AMD Radeon Graphics", gcnArchName="gfx942", multi_processor_count=cus, total_memory=memory),
        0,
        1,
        "rocm",
        {},
    )
    assert dev.catalog_id is None, why


def test_an_mi325x_with_a_generic_name_finds_its_own_row() -> None:
    dev = detect.gpu_device(
        props(
            name="AMD Radeon Graphics", gcnArchName="gfx942", multi_processor_count=304, total_memory=274_877_906_944
        ),
        0,
        1,
        "rocm",
        {},
    )
    assert dev.catalog_id == "mi325x"


def test_cuda_device_records_capability_and_its_l2() -> None:
    dev = detect.gpu_device(
        props(name="NVIDIA H100 80GB HBM3", major=9, minor=0, total_memory=80 * GIB, L2_cache_size=50 * 1024**2),
        0,
        1,
        "cuda",
        {},
    )
    assert (dev.catalog_id, dev.versions["compute_capability"], dev.cache_bytes) == ("h100-sxm", "9.0", 50 * 1024**2)
    mig = detect.gpu_device(
        props(name="NVIDIA H100 80GB HBM3 MIG 1g.10gb", major=9, total_memory=10 * GIB), 0, 1, "cuda", {}
    )
    assert mig.catalog_id is None


def test_mac_names_come_from_the_cpu_brand_string() -> None:
    assert detect.mps_name("Apple M2 Pro", "arm64") == "Apple M2 Pro GPU (MPS)"
    assert detect.mps_name("Apple M4 Max", "arm64") != detect.mps_name("Apple M1", "arm64")
    assert detect.mps_name(None, "arm64") == "Apple arm64 GPU (MPS)"


def test_catalogue_bandwidth_is_read_in_its_own_unit(monkeypatch: pytest.MonkeyPatch) -> None:
    real = load_catalog()
    chips = [
        c.model_copy(update={"mem_bw": c.mem_bw.model_copy(update={"value": 5.3, "unit": "TB/s"})})
        if c.id == "mi300x"
        else c
        for c in real.chips
    ]
    fake = real.model_copy(update={"chips": chips})
    from gpu_tpu_app.probe.envs import catalog_digest

    monkeypatch.setattr("gpu_tpu_app.core.catalog.load_catalog", lambda *a, **k: fake)
    catalog_digest.cache_clear()  # the digest the workers get is built from the catalogue once
    monkeypatch.setenv(detect.CATALOG_ENV, catalog_digest())
    _peaks, bw = detect.catalog_peaks("mi300x")
    assert bw == pytest.approx(5.3e12)
    monkeypatch.undo()
    catalog_digest.cache_clear()
    monkeypatch.setenv(detect.CATALOG_ENV, catalog_digest())
    assert detect.catalog_peaks("mi300x")[1] == pytest.approx(5300e9)  # GB/s in the packaged file


# ---------------------------------------------------------------- math modes and the peak they are held against


@pytest.mark.parametrize(
    ("plat", "dtype", "kw", "first_word", "says"),
    [
        ("cuda", "float32", {"capability": (9, 0)}, "fp32", "full"),
        ("cuda", "float32", {"capability": (9, 0), "allow_tf32": True}, "tf32", "allow_tf32"),
        ("cuda", "float32", {"capability": (8, 0), "precision": "high"}, "tf32", "'high'"),
        (
            "cuda",
            "float32",
            {"capability": (9, 0), "env": {"TORCH_ALLOW_TF32_CUBLAS_OVERRIDE": "1"}},
            "tf32",
            "TORCH_ALLOW_TF32_CUBLAS_OVERRIDE=1",
        ),
        (
            "cuda",
            "float32",
            {"capability": (9, 0), "allow_tf32": True, "env": {"NVIDIA_TF32_OVERRIDE": "0"}},
            "fp32",
            "NVIDIA_TF32_OVERRIDE=0",
        ),
        ("cuda", "float32", {"capability": (7, 5), "allow_tf32": True}, "fp32", "8.0"),  # T4: no TF32
        ("cuda", "bfloat16", {"capability": (7, 5)}, "bf16", "no bf16 tensor cores"),  # T4
        ("cuda", "bfloat16", {"capability": (7, 0)}, "bf16", "no bf16 tensor cores"),  # V100
        ("cuda", "float16", {"capability": (7, 0)}, "fp16", "tensor cores"),
        ("cuda", "bfloat16", {"capability": (9, 0)}, "bf16", "tensor cores"),
        ("rocm", "bfloat16", {}, "bf16", "matrix cores"),
        ("rocm", "float32", {"allow_tf32": True}, "fp32", "ROCm"),
        ("mps", "float16", {}, "fp16", "mps"),
        ("xpu", "bfloat16", {}, "bf16", "xpu"),
    ],
)
def test_torch_math_mode_labels(plat: str, dtype: str, kw: dict, first_word: str, says: str) -> None:
    label = torch_math_mode(plat, dtype, **kw)
    assert label.split()[0] == first_word and says in label
    assert "tensor cores" not in label or plat == "cuda"


@pytest.mark.parametrize(
    ("plat", "setting", "cc", "first_word"),
    [
        ("tpu", None, None, "bf16"),
        ("tpu", "default", None, "bf16"),
        ("tpu", "bfloat16", None, "bf16"),
        ("tpu", "high", None, "bf16x3"),
        ("tpu", "bfloat16_3x", None, "bf16x3"),
        ("tpu", "tensorfloat32", None, "bf16x3"),
        ("tpu", "highest", None, "bf16x6"),
        ("tpu", "float32", None, "bf16x6"),
        ("gpu", None, "9.0", "tf32"),
        ("gpu", "high", "8.0", "tf32"),
        ("gpu", "highest", "9.0", "fp32"),
        ("gpu", None, "7.0", "fp32"),
        ("gpu", "high", "7.5", "fp32"),
        ("gpu", None, "gfx942", "fp32"),
        ("gpu", "BF16_BF16_F32_X3", "9.0", "bf16x3"),
        ("gpu", "TF32_TF32_F32", "9.0", "tf32"),
        ("cpu", "default", None, "fp32"),
    ],
)
def test_jax_precision_settings_map_per_platform(
    plat: str, setting: str | None, cc: str | None, first_word: str
) -> None:
    assert jax_math_mode(plat, "float32", setting, cc).split()[0] == first_word


def test_each_mode_is_held_against_the_peak_of_what_ran() -> None:
    ctx = SimpleNamespace(
        peak_flops={"float32": 67e12, "tf32": 495e12, "bfloat16": 990e12, "float16": 990e12}, peak_bw=None
    )
    peak = lambda mode, dtype="float32": peak_for(ctx, "flops", "matmul", dtype, mode)  # noqa: E731
    assert (
        peak(torch_math_mode("cuda", "float32", capability=(9, 0), env={"TORCH_ALLOW_TF32_CUBLAS_OVERRIDE": "1"}))
        == 495e12
    )
    assert (
        peak(torch_math_mode("cuda", "float32", capability=(9, 0), allow_tf32=True, env={"NVIDIA_TF32_OVERRIDE": "0"}))
        == 67e12
    )
    assert peak(torch_math_mode("cuda", "float32", capability=(7, 5), allow_tf32=True)) == 67e12
    tpu = SimpleNamespace(peak_flops={"bfloat16": 197e12}, peak_bw=None)
    assert peak_for(tpu, "flops", "matmul", "float32", jax_math_mode("tpu", "float32", "bfloat16_3x")) == pytest.approx(
        197e12 / 3
    )
    assert peak_for(tpu, "flops", "matmul", "float32", jax_math_mode("tpu", "float32", None)) == 197e12
    assert peak_for(tpu, "flops", "matmul", "float32", jax_math_mode("tpu", "float32", "highest")) == pytest.approx(
        197e12 / 6
    )


# ---------------------------------------------------------------- memory


def test_jax_gpu_memory_is_labelled_as_the_allocator_limit() -> None:
    stats = {"bytes_limit": 60 * GIB, "bytes_in_use": 0}
    mem, note = detect.jax_memory(stats, "gpu", {})
    assert mem == 60 * GIB and note and "allocator limit" in note and "75%" in note
    _, note = detect.jax_memory(stats, "gpu", {"XLA_PYTHON_CLIENT_MEM_FRACTION": ".9"})
    assert note and "XLA_PYTHON_CLIENT_MEM_FRACTION=.9" in note
    mem, note = detect.jax_memory({"bytes_limit": 16 * GIB}, "tpu", {})
    assert mem == 16 * GIB and note and "TPU" in note
    assert detect.jax_memory({}, "gpu", {}) == (None, None)


class FakeCudaAllocator:
    """torch.cuda's memory calls over made-up numbers: the driver's free bytes and a caching allocator."""

    def __init__(self, free: int, reserved: int, allocated: int) -> None:
        self.driver_free, self.reserved, self.allocated = free, reserved, allocated
        self.emptied = 0

    def mem_get_info(self, dev: Any) -> tuple[int, int]:
        return self.driver_free, 24 * GIB

    def memory_reserved(self, dev: Any) -> int:
        return self.reserved

    def memory_allocated(self, dev: Any) -> int:
        return self.allocated

    def empty_cache(self) -> None:
        self.emptied += 1
        self.driver_free += self.reserved - self.allocated
        self.reserved = self.allocated


def _torch_kernels():  # torch is installed here (CPU build); the memory code never touches a device
    pytest.importorskip("torch")
    from gpu_tpu_app.worker.kernels import torch_kernels

    return torch_kernels


def test_torch_free_memory_counts_the_allocators_cached_blocks() -> None:
    tk = _torch_kernels()
    # a 24 GB card after earlier points: 2 GiB free to the driver, 14 GiB cached by torch, 1 GiB in use
    alloc = FakeCudaAllocator(free=2 * GIB, reserved=15 * GIB, allocated=1 * GIB)
    mem = tk.CudaMemory(alloc, "cuda:0")
    assert mem.free() == 16 * GIB
    fits, free = mem.fits(int(6 * GIB), 0.4)  # 6 GiB <= 40% of 16 GiB
    assert fits and free == 16 * GIB and alloc.emptied == 0


def test_torch_empties_the_cache_before_it_decides_to_skip() -> None:
    tk = _torch_kernels()
    alloc = FakeCudaAllocator(free=2 * GIB, reserved=15 * GIB, allocated=1 * GIB)
    fits, _ = tk.CudaMemory(alloc, "cuda:0").fits(int(7 * GIB), 0.4)  # more than 40% of 16 GiB
    assert alloc.emptied == 1 and not fits
    alloc = FakeCudaAllocator(free=2 * GIB, reserved=15 * GIB, allocated=1 * GIB)

    class Fragmented(FakeCudaAllocator):  # the cache holds blocks the driver gets back with interest
        def empty_cache(self) -> None:
            super().empty_cache()
            self.driver_free += 4 * GIB

    frag = Fragmented(free=2 * GIB, reserved=15 * GIB, allocated=1 * GIB)
    fits, free = tk.CudaMemory(frag, "cuda:0").fits(int(7 * GIB), 0.4)
    assert frag.emptied == 1 and fits and free == 20 * GIB


def test_xpu_pinning_names_the_device_before_torch_2_5() -> None:
    tk = _torch_kernels()
    assert tk.pin_kwargs("2.4.1+xpu", "xpu") == {"device": "xpu"}
    assert tk.pin_kwargs("2.5.0+xpu", "xpu") == {}
    assert tk.pin_kwargs("2.4.1+cu121", "cuda") == {}


def test_collective_reasons_per_device_kind() -> None:
    pytest.importorskip("torch")
    from gpu_tpu_app.worker.kernels import torch_collective as tk

    assert tk.collective_choice("cuda", None, 8, True) == ("nccl", 8, None)
    assert "without NCCL" in (tk.collective_choice("cuda", None, 8, False)[2] or "")
    assert "only one cuda device" in (tk.collective_choice("cuda", None, 1, True)[2] or "")
    two_xpus = tk.collective_choice("xpu", None, 2, False)[2] or ""
    assert "2 xpu devices" in two_xpus and "only one" not in two_xpus
    assert tk.collective_choice("cpu", None, 2, False) == ("gloo", 2, None)


# ---------------------------------------------------------------- planning: caps, set-up, warm-up


def jax_gpu(n: int = 1, memory: int = 80 * GIB) -> list[DeviceInfo]:
    return [
        DeviceInfo(
            backend="jax",
            platform="gpu",
            name="NVIDIA H100 80GB HBM3",
            index=i,
            count=n,
            memory_bytes=memory,
            catalog_id="h100-sxm",
            cache_bytes=50 * 1024**2,
        )
        for i in range(n)
    ]


def test_jax_accelerator_points_get_their_compile_outside_the_cap() -> None:
    pts = plan("jax", jax_gpu(), "quick", ["matmul", "model_step"], ["bfloat16"], None)
    big = next(p for p in pts if p.kernel == "matmul" and p.size == 8192)
    assert big.cap_s < 10 and big.setup_s == JAX_SETUP_S["accel"]  # a short cap, and room to compile before it
    assert all(p.setup_s >= JAX_SETUP_S["accel"] for p in pts)
    coll = plan("jax", jax_gpu(8), "quick", ["collective"], None, None)
    assert coll[0].setup_s == JAX_SETUP_S["collective"]
    tpu = DeviceInfo(backend="jax", platform="tpu", name="TPU v5 lite", memory_bytes=16 * GIB)
    assert all(p.setup_s > 0 for p in plan("jax", [tpu], "smoke", None, None, None) if p.kernel != "compile")
    assert all(
        p.setup_s == 0
        for p in plan(
            "torch",
            [DeviceInfo(backend="torch", platform="cuda", name="x", memory_bytes=80 * GIB)],
            "quick",
            ["copy"],
            None,
            None,
        )
    )


def test_worker_warms_up_before_point_one_and_announces_cap_plus_setup(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker's loop over a fake JAX GPU description; kernels are stubs that measure nothing."""
    from gpu_tpu_app.worker import kernels
    from gpu_tpu_app.worker import main as worker

    order: list[str] = []
    devices = jax_gpu()
    monkeypatch.setattr(detect, "detect", lambda backend: (BackendStatus(backend="jax", available=True), devices))
    monkeypatch.setattr(kernels, "warm_up", lambda backend, dev: order.append(f"warm {dev.key}") or 2.5)
    monkeypatch.setattr(kernels, "run_point", lambda point, ctx: order.append(point.id) or [])
    args = worker._parser().parse_args(
        ["--backend", "jax", "--suite", "quick", "--kernel", "matmul", "--dtype", "bfloat16", "--budget-s", "600"]
    )
    out = io.StringIO()
    stop = SimpleNamespace(is_set=lambda: False, event=threading.Event())
    assert worker.run(args, worker.Emitter(out), stop) == 0  # type: ignore[arg-type]
    msgs = [parse_message(line) for line in out.getvalue().splitlines()]
    assert order[0] == "warm jax:gpu:0" and len(order) > 1
    [dev_msg] = [m for m in msgs if isinstance(m, DeviceMsg)]
    assert dev_msg.device.first_use_s == 2.5
    planned = {p.id: p for p in kernels.plan("jax", devices, "quick", ["matmul"], ["bfloat16"], 600)}
    for m in msgs:
        if isinstance(m, Progress):
            p = planned[m.point]
            assert m.cap_s == pytest.approx(p.cap_s + p.setup_s)


# ---------------------------------------------------------------- NVML provenance


class FakeNvml:
    """The handful of pynvml calls the probe makes, over fixed made-up values."""

    NVML_CLOCK_SM, NVML_CLOCK_MEM, NVML_TEMPERATURE_GPU = 1, 2, 0

    def __init__(self, mask: int = 0, fail_init: bool = False) -> None:
        self.mask, self.fail_init, self.handles = mask, fail_init, []

    def nvmlInit(self) -> None:
        if self.fail_init:
            raise RuntimeError("NVML Shared Library Not Found")

    def nvmlDeviceGetHandleByIndex(self, i: int) -> str:
        self.handles.append(("index", i))
        return f"h{i}"

    def nvmlDeviceGetHandleByUUID(self, uuid: str) -> str:
        self.handles.append(("uuid", uuid))
        return uuid

    def nvmlDeviceGetClockInfo(self, h: str, kind: int) -> int:
        return 1980 if kind == self.NVML_CLOCK_SM else 2619

    def nvmlDeviceGetTemperature(self, h: str, kind: int) -> int:
        return 71

    def nvmlDeviceGetPowerUsage(self, h: str) -> int:
        return 612_000  # mW

    def nvmlDeviceGetCurrentClocksEventReasons(self, h: str) -> int:
        return self.mask


def test_nvml_is_optional_and_imported_only_when_used() -> None:
    code = "import sys; import gpu_tpu_app.worker.nvml, gpu_tpu_app.worker.main; print('pynvml' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "False", out.stderr
    assert nvml.Nvml.open(FakeNvml(fail_init=True)) is None


def test_nvml_sample_follows_cuda_visible_devices() -> None:
    api = FakeNvml(mask=0x1)
    s = nvml.Nvml(api, {"CUDA_VISIBLE_DEVICES": "3,5"}).sample(1)
    assert s == {
        "sm_clock_mhz": 1980.0,
        "mem_clock_mhz": 2619.0,
        "temperature_c": 71.0,
        "power_w": 612.0,
        "throttle": ["gpu_idle"],
    }
    assert api.handles == [("index", 5)]
    nvml.Nvml(api, {"CUDA_VISIBLE_DEVICES": "GPU-8d3c"}).sample(0)
    assert api.handles[-1] == ("uuid", "GPU-8d3c")


def test_a_result_measured_while_throttling_says_so() -> None:
    from gpu_tpu_app.worker.main import with_device_state

    calm = nvml.Nvml(FakeNvml(mask=0x1), {}).sample(0)
    hot = nvml.Nvml(FakeNvml(mask=0x40 | 0x4), {}).sample(0)
    r = ProbeResult(
        kernel="matmul",
        backend="torch",
        device="torch:cuda:0",
        dtype="bfloat16",
        size=8192,
        metric="flops",
        message="a note",
    )  # no value: this is a record, not a measurement
    quiet = with_device_state(r, calm, calm)
    assert quiet.before and quiet.before.temperature_c == 71.0 and quiet.message == "a note"
    throttled = with_device_state(r, calm, hot)
    assert throttled.after and "hw_thermal_slowdown" in throttled.after.throttle
    assert "sw_power_cap" in (throttled.message or "") and "hw_thermal_slowdown" in (throttled.message or "")
    assert with_device_state(r, None, None) is r
    odd = with_device_state(r, {"power_w": -1.0}, calm)  # a driver's odd reading is dropped, not fatal
    assert odd.before is None and odd.after is not None


def test_the_memory_label_reaches_the_devices_table_and_tooltip() -> None:
    from gpu_tpu_app.commands.probe.devices import devices_table
    from gpu_tpu_app.ui.probe.devices_view import device_tooltip

    mem, note = detect.jax_memory({"bytes_limit": 60 * GIB}, "gpu", {})
    dev = jax_gpu()[0].model_copy(update={"memory_bytes": mem, "memory_note": note, "first_use_s": 1.25})
    table = devices_table([dev], [])
    assert "60.0 GiB *" in table and "* jax:gpu:0: memory is the XLA allocator limit" in table
    tip = device_tooltip(dev)
    assert "XLA allocator limit" in tip and "50 MiB" in tip and "1.25 s" in tip


def test_device_sampler_reads_nvml_for_nvidia_devices_of_either_engine() -> None:
    from gpu_tpu_app.worker.main import device_sampler, is_nvidia

    torch_gpu = DeviceInfo(backend="torch", platform="cuda", name="NVIDIA H100 80GB HBM3", index=1, count=2)
    cpu = DeviceInfo(backend="torch", platform="cpu", name="CPU")
    fake = nvml.Nvml(FakeNvml(mask=0x1), {})
    sample = device_sampler("torch", [cpu, torch_gpu], telemetry=fake)
    assert sample(cpu) is None
    state = sample(torch_gpu)
    assert state and state["sm_clock_mhz"] == 1980.0 and fake.api.handles[-1] == ("index", 1)
    assert is_nvidia(jax_gpu()[0])
    assert not is_nvidia(DeviceInfo(backend="jax", platform="gpu", name="AMD Instinct MI300X"))
    assert not is_nvidia(DeviceInfo(backend="jax", platform="tpu", name="TPU v5 lite"))
    # without nvidia-ml-py (absent here) and without an NVIDIA device, nothing is opened or sampled
    assert device_sampler("torch", [cpu])(cpu) is None


def test_the_tpu_runtimes_memory_figures_are_kept() -> None:
    from gpu_tpu_app.worker.main import with_device_state

    r = ProbeResult(kernel="matmul", backend="jax", device="jax:tpu:0", dtype="bfloat16", size=4096, metric="flops")
    kept = with_device_state(
        r,
        {"memory_in_use_bytes": 3 * GIB, "peak_memory_bytes": 4 * GIB},
        {"memory_in_use_bytes": 3 * GIB, "peak_memory_bytes": 5 * GIB},
    )
    assert kept.before and kept.before.memory_in_use_bytes == 3 * GIB
    assert kept.after and kept.after.peak_memory_bytes == 5 * GIB and kept.message is None
