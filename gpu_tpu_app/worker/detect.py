"""Find the devices torch and JAX can measure on this machine, and describe the host CPU.

Runs inside a worker process: torch and jax are imported only by `detect(backend)`.
`cpu_info()` reads /proc and /sys only, so the parent process may call it too.

Diagnostic switch: GPU_TPU_APP_DISABLE_BACKENDS=jax (or "torch", or "torch,jax") makes
the named backends report "not installed", as if their package were missing. The tests
use it to check that a missing backend is reported and the others go on; users can use
it to leave a backend out of every run.
"""

from __future__ import annotations

import ctypes
import json
import math
import os
import platform
import re
from pathlib import Path

from gpu_tpu_app.shared.devicematch import match_device_name, match_rocm_part
from gpu_tpu_app.shared.machine import cpu_model, cpuinfo_fields
from gpu_tpu_app.shared.terms import BACKENDS, CATALOG_ENV
from gpu_tpu_app.worker.kernels.common import cache_sizes, usable_cores
from gpu_tpu_app.worker.notes import join, note
from gpu_tpu_app.worker.wire import BackendStatus, CpuInfo, DeviceInfo

DISABLE_ENV = "GPU_TPU_APP_DISABLE_BACKENDS"

#: ISA flags worth recording, in display order (x86 names from /proc/cpuinfo, ARM from "Features").
INTERESTING_FLAGS = (
    "sse4_2",
    "avx",
    "avx2",
    "fma",
    "f16c",
    "avx512f",
    "avx512bw",
    "avx512vl",
    "avx512_vnni",
    "avx512_bf16",
    "avx512_fp16",
    "amx_tile",
    "amx_bf16",
    "amx_int8",
    "amx_fp16",
    "asimd",
    "asimdhp",
    "sve",
    "sve2",
    "bf16",
    "i8mm",
)

#: Environment variables that change which kernels the libraries pick; recorded with every run.
KERNEL_ENV = (
    "OPENBLAS_CORETYPE",
    "OPENBLAS_L2_SIZE",
    "OPENBLAS_NUM_THREADS",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "MKL_ENABLE_INSTRUCTIONS",
    "ONEDNN_MAX_CPU_ISA",
    "DNNL_MAX_CPU_ISA",
    "XLA_FLAGS",
    "JAX_PLATFORMS",
    "JAX_ENABLE_X64",
    "JAX_DEFAULT_MATMUL_PRECISION",
    "XLA_PYTHON_CLIENT_PREALLOCATE",
    "XLA_PYTHON_CLIENT_MEM_FRACTION",
    "CUDA_VISIBLE_DEVICES",
    "HIP_VISIBLE_DEVICES",
    "ROCR_VISIBLE_DEVICES",
    "TPU_VISIBLE_CHIPS",
    "TPU_PROCESS_BOUNDS",
    "NVIDIA_TF32_OVERRIDE",
    "TORCH_ALLOW_TF32_CUBLAS_OVERRIDE",
    "TF_CPP_MIN_LOG_LEVEL",
    "TF_CPP_MAX_VLOG_LEVEL",
    "PYTORCH_CUDA_ALLOC_CONF",
    "PYTORCH_ENABLE_MPS_FALLBACK",
    DISABLE_ENV,
)


def kernel_env(environ: dict[str, str] | None = None) -> dict[str, str]:
    """The kernel-changing variables that are set, with their values."""
    environ = dict(os.environ if environ is None else environ)
    return {k: environ[k] for k in KERNEL_ENV if k in environ}


def disabled_backends() -> set[str]:
    """Backends switched off with GPU_TPU_APP_DISABLE_BACKENDS."""
    return {b.strip() for b in os.environ.get(DISABLE_ENV, "").split(",") if b.strip()}


# ---------------------------------------------------------------- CPU


def cpu_info(threads_used: int | None = None) -> CpuInfo:
    """Model, logical cores, threads the backend uses, ISA flags and cache sizes of the host CPU."""
    fields = cpuinfo_fields()
    present = set((fields.get("flags") or fields.get("Features") or "").split())
    flags = [f for f in INTERESTING_FLAGS if f in present]
    return CpuInfo(
        model=cpu_model(),
        cores=os.cpu_count(),
        threads_used=threads_used if threads_used is not None else usable_cores(),
        flags=flags,
        caches=cache_sizes(),
    )


def host_memory_bytes() -> int | None:
    """Physical memory of the host, or None where the OS does not say."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):
        return None


# ---------------------------------------------------------------- catalogue


# CATALOG_ENV (core.terms): the catalogue digest the app hands every worker (probe.envs.catalog_digest).


def _catalog_digest() -> list[dict]:
    """The chips of CATALOG_ENV; none when it is unset or not a list of chips."""
    try:
        chips = json.loads(os.environ.get(CATALOG_ENV) or "[]")
    except ValueError:
        return []
    return [c for c in chips if isinstance(c, dict) and isinstance(c.get("id"), str)] if isinstance(chips, list) else []


def catalog_match(name: str) -> str | None:
    """The catalogue chip id for a device name ('NVIDIA H100 80GB HBM3' -> 'h100-sxm'), or None.

    The catalogue's own rule (core.devicematch), over the rows of the digest the app handed over.
    """
    return match_device_name(name, ((c["id"], [str(p) for p in c.get("match") or []]) for c in _catalog_digest()))


def catalog_peaks(catalog_id: str | None) -> tuple[dict[str, float], float | None]:
    """Dense peak FLOP/s per dtype and memory bandwidth in B/s for a catalogue chip ({} and None if unknown)."""
    chip = next((c for c in _catalog_digest() if c["id"] == catalog_id), None) if catalog_id else None
    if chip is None:
        return {}, None
    peaks_raw = chip.get("peaks")
    raw = peaks_raw if isinstance(peaks_raw, dict) else {}
    peaks = {str(k): float(v) for k, v in raw.items() if isinstance(v, (int, float)) and math.isfinite(v) and v > 0}
    bw = chip.get("bw")
    return peaks, (float(bw) if isinstance(bw, (int, float)) and math.isfinite(bw) and bw > 0 else None)


def device_llc(reported: int | None, catalog_id: str | None) -> int | None:
    """The larger of the runtime's L2 figure and the catalogue chip's last-level cache (its `llc`)."""
    chip = next((c for c in _catalog_digest() if c["id"] == catalog_id), None) if catalog_id else None
    known = chip.get("llc") if chip is not None else None
    values = [v for v in (reported, known) if isinstance(v, int) and not isinstance(v, bool) and v > 0]
    return max(values) if values else None


# ---------------------------------------------------------------- torch


def _cuda_driver_version() -> str | None:
    """The NVIDIA driver's CUDA API version from libcuda, e.g. '12.4'."""
    for lib in ("libcuda.so.1", "libcuda.so", "nvcuda.dll"):
        try:
            cuda = ctypes.CDLL(lib)
        except OSError:
            continue
        version = ctypes.c_int(0)
        try:
            if cuda.cuDriverGetVersion(ctypes.byref(version)) == 0 and version.value:
                return f"{version.value // 1000}.{(version.value % 1000) // 10}"
        except AttributeError:
            return None
    return None


def _nvidia_driver() -> str | None:
    try:
        return Path("/sys/module/nvidia/version").read_text().strip() or None
    except OSError:
        return None


def _torch_cpu_libs(torch) -> dict[str, str]:
    """oneDNN and BLAS versions and the SIMD level torch's CPU kernels use."""
    out: dict[str, str] = {}
    try:
        out["cpu_capability"] = str(torch.backends.cpu.get_cpu_capability())
    except Exception:
        pass
    try:
        config = torch.__config__.show()
    except Exception:
        return out
    if m := re.search(r"MKL-DNN v([0-9][0-9.]*)", config):
        out["onednn"] = m.group(1)
    if m := re.search(r"Math Kernel Library Version ([0-9][0-9.]*)", config):
        out["mkl"] = m.group(1)
    if m := re.search(r"BLAS_INFO=([A-Za-z0-9_]+)", config):
        out["blas"] = m.group(1)
    return out


def _torch_cpu_device(torch, versions: dict[str, str]) -> DeviceInfo:
    cpu_versions = {**versions, **_torch_cpu_libs(torch)}
    return DeviceInfo(
        backend="torch",
        platform="cpu",
        name=cpu_model(),
        index=0,
        count=1,
        memory_bytes=host_memory_bytes(),
        versions=cpu_versions,
        catalog_id=catalog_match(cpu_model()),
        cpu=cpu_info(int(torch.get_num_threads())),
    )


def gpu_device(props, index: int, count: int, platform_name: str, versions: dict[str, str]) -> DeviceInfo:
    """A CUDA or ROCm device from torch's device properties (`props` may be a stand-in in tests).

    ROCm: some stacks name an MI300X 'AMD Radeon Graphics' or nothing; then the gfx target,
    compute-unit count and memory find its catalogue row, and all three are recorded.
    """
    name = str(getattr(props, "name", "") or "").strip()
    memory = int(getattr(props, "total_memory", 0) or 0) or None
    v = dict(versions)
    catalog_id = catalog_match(name) if name else None
    if platform_name == "rocm":
        arch = str(getattr(props, "gcnArchName", "") or "")
        cus = getattr(props, "multi_processor_count", None)
        if arch:
            v["gcn_arch"] = arch
        if cus:
            v["compute_units"] = str(cus)
        if catalog_id is None:
            catalog_id = _rocm_match(arch, cus, memory)
    else:
        v["compute_capability"] = f"{props.major}.{props.minor}"
    return DeviceInfo(
        backend="torch",
        platform=platform_name,
        name=name or f"unnamed {platform_name} device",
        index=index,
        count=count,
        memory_bytes=memory,
        versions=v,
        catalog_id=catalog_id,
        cache_bytes=device_llc(getattr(props, "L2_cache_size", None), catalog_id),
    )


def _rocm_match(arch: str, compute_units: int | None, memory: int | None) -> str | None:
    """The chip an AMD device is by gfx target, compute units and memory, when the catalogue has that row."""
    parts = []
    for c in _catalog_digest():
        rocm = c.get("rocm")
        if isinstance(rocm, list) and len(rocm) == 3 and isinstance(rocm[0], str) and isinstance(rocm[1], int):
            published = rocm[2] if isinstance(rocm[2], (int, float)) and math.isfinite(rocm[2]) else None
            parts.append((c["id"], rocm[0], rocm[1], published))
    return match_rocm_part(arch, compute_units, memory, parts)


def _torch_gpu_devices(torch, versions: dict[str, str]) -> list[DeviceInfo]:
    if not torch.cuda.is_available():
        return []
    hip = getattr(torch.version, "hip", None)
    dev_versions = dict(versions)
    if hip:
        dev_versions["hip"] = str(hip)
    else:
        dev_versions["cuda_runtime"] = str(torch.version.cuda)
        if driver := _cuda_driver_version():
            dev_versions["cuda_driver"] = driver
        if nv := _nvidia_driver():
            dev_versions["nvidia_driver"] = nv
    try:
        if (cudnn := torch.backends.cudnn.version()) is not None:
            dev_versions["cudnn"] = str(cudnn)
    except Exception:
        pass
    count = torch.cuda.device_count()
    return [
        gpu_device(torch.cuda.get_device_properties(i), i, count, "rocm" if hip else "cuda", dev_versions)
        for i in range(count)
    ]


def mps_name(brand: str | None, machine: str) -> str:
    """'Apple M2 Pro GPU (MPS)' from the CPU brand string; 'Apple arm64 GPU (MPS)' without one."""
    brand = (brand or "").strip()
    return f"{brand if brand.startswith('Apple') else 'Apple ' + machine} GPU (MPS)"


def _mac_brand() -> str | None:
    """The Mac's chip name (sysctl machdep.cpu.brand_string, e.g. 'Apple M2 Pro'), or None."""
    import subprocess

    try:
        out = subprocess.run(["sysctl", "-n", "machdep.cpu.brand_string"], capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip()[:200] or None


def _torch_mps_device(torch, versions: dict[str, str]) -> list[DeviceInfo]:
    mps = getattr(torch.backends, "mps", None)
    if mps is None or not mps.is_available():
        return []
    mem = None
    try:
        mem = int(torch.mps.recommended_max_memory())
    except Exception:
        pass
    name = mps_name(_mac_brand(), platform.machine())
    return [
        DeviceInfo(
            backend="torch",
            platform="mps",
            name=name,
            index=0,
            count=1,
            memory_bytes=mem,
            memory_note=note("detect.metal_limit"),
            versions={**versions, "macos": platform.mac_ver()[0]},
            catalog_id=catalog_match(name),
        )
    ]


def _torch_xpu_devices(torch, versions: dict[str, str]) -> list[DeviceInfo]:
    xpu = getattr(torch, "xpu", None)
    if xpu is None or not xpu.is_available():
        return []
    count = xpu.device_count()
    out = []
    for i in range(count):
        props = xpu.get_device_properties(i)
        name = str(getattr(props, "name", None) or xpu.get_device_name(i))
        out.append(
            DeviceInfo(
                backend="torch",
                platform="xpu",
                name=name,
                index=i,
                count=count,
                memory_bytes=int(getattr(props, "total_memory", 0)) or None,
                versions={**versions, "xpu_driver": str(getattr(props, "driver_version", "") or "")},
                catalog_id=catalog_match(name),
            )
        )
    return out


def detect_torch() -> tuple[BackendStatus, list[DeviceInfo]]:
    """torch's CPU plus any CUDA / ROCm / MPS / XPU devices."""
    try:
        import torch
    except Exception as exc:
        return BackendStatus(
            backend="torch", available=False, reason=note("detect.not_installed", backend="torch", error=str(exc))
        ), []
    versions = {"torch": str(torch.__version__)}
    devices = [_torch_cpu_device(torch, versions)]
    problems: list[str] = []
    for label, find in (("CUDA/ROCm", _torch_gpu_devices), ("MPS", _torch_mps_device), ("XPU", _torch_xpu_devices)):
        try:
            devices += find(torch, versions)
        except Exception as exc:
            problems.append(f"{label}: {exc}")
    reason = join(*problems)
    return BackendStatus(backend="torch", available=True, reason=reason, versions=versions), devices


# ---------------------------------------------------------------- JAX


def jax_memory(
    stats: dict | None, platform_name: str, environ: dict[str, str] | None = None
) -> tuple[int | None, str | None]:
    """Memory JAX reports for a device, and what it is: on GPUs the XLA allocator's limit, not the total."""
    if not stats or not stats.get("bytes_limit"):
        return None, None
    limit = int(stats["bytes_limit"])
    if platform_name != "gpu":
        return limit, note("detect.runtime_limit", platform=platform_name.upper())
    env = os.environ if environ is None else environ
    fraction = env.get("XLA_PYTHON_CLIENT_MEM_FRACTION")
    if env.get("XLA_PYTHON_CLIENT_ALLOCATOR") == "platform":
        return limit, note("detect.platform_allocator")
    if fraction:
        return limit, note("detect.allocator_fraction", fraction=fraction)
    return limit, note("detect.allocator_default")


def _jax_memory(dev) -> tuple[int | None, str | None]:
    try:
        stats = dev.memory_stats()
    except Exception:
        return None, None
    return jax_memory(stats, str(dev.platform))


def detect_jax() -> tuple[BackendStatus, list[DeviceInfo]]:
    """JAX's CPU, GPU and TPU devices."""
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    try:
        import jax
    except Exception as exc:
        return BackendStatus(
            backend="jax", available=False, reason=note("detect.not_installed", backend="jax", error=str(exc))
        ), []
    versions = {"jax": str(jax.__version__)}
    try:
        import jaxlib

        versions["jaxlib"] = str(jaxlib.__version__)
    except Exception:
        pass
    devices: list[DeviceInfo] = []
    problems: list[str] = []
    try:
        default = jax.default_backend()
    except Exception as exc:
        return BackendStatus(
            backend="jax",
            available=False,
            reason=note("detect.failed_to_start", backend="jax", error=str(exc)),
            versions=versions,
        ), []
    for plat in ("cpu", "gpu", "tpu"):
        try:
            found = jax.devices(plat)
        except Exception as exc:  # "Unknown backend" when the plugin is absent: not a problem
            if plat == default:
                problems.append(f"{plat}: {exc}")
            continue
        if not found:
            continue
        dev_versions = dict(versions)
        try:
            pv = str(found[0].client.platform_version).strip().splitlines()
            if pv and plat != "cpu":
                dev_versions[f"{plat}_runtime"] = pv[0].strip()
        except Exception:
            pass
        if plat == "gpu" and (nv := _nvidia_driver()):
            dev_versions["nvidia_driver"] = nv
        for i, dev in enumerate(found):
            memory_note = None
            if plat == "cpu":
                name, memory, cpu = cpu_model(), host_memory_bytes(), cpu_info(usable_cores())
            else:
                name, cpu = str(dev.device_kind), None
                memory, memory_note = _jax_memory(dev)
            catalog_id = catalog_match(name)
            devices.append(
                DeviceInfo(
                    backend="jax",
                    platform=plat,
                    name=name,
                    index=i,
                    count=len(found),
                    memory_bytes=memory,
                    memory_note=memory_note,
                    versions=dev_versions,
                    catalog_id=catalog_id,
                    cpu=cpu,
                    cache_bytes=None if plat == "cpu" else device_llc(None, catalog_id),
                )
            )
    if not devices:
        reason = join(*problems) or note("detect.no_devices", backend="jax")
        return BackendStatus(backend="jax", available=False, reason=reason, versions=versions), []
    versions["default_backend"] = str(default)
    return BackendStatus(backend="jax", available=True, reason=join(*problems), versions=versions), devices


def detect(backend: str) -> tuple[BackendStatus, list[DeviceInfo]]:
    """Status and devices of one backend; never raises for a missing or broken backend."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}")
    if backend in disabled_backends():
        return BackendStatus(
            backend=backend, available=False, reason=note("detect.switched_off", backend=backend, variable=DISABLE_ENV)
        ), []
    try:
        return detect_torch() if backend == "torch" else detect_jax()
    except Exception as exc:
        return BackendStatus(
            backend=backend, available=False, reason=note("detect.failed_to_start", backend=backend, error=str(exc))
        ), []
