"""Probe kernels: what is measured, in which order, and how one point is measured.

`plan()` turns a suite into a deterministic list of `Point`s; `run_point()` measures one of
them with the backend the point names and returns `ProbeResult`s. Both run inside a worker
process. This module imports neither torch nor jax at import time, so the GUI can read
KERNELS and SUITES without them; the backends are imported inside the functions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from gpu_tpu_app.probe.kernels import common
from gpu_tpu_app.probe.kernels.common import DTYPES, MODEL_SHAPES
from gpu_tpu_app.probe.kernels.stats import CAP_MARGIN

if TYPE_CHECKING:  # pragma: no cover
    from gpu_tpu_app.core.runs import DeviceInfo, ProbeResult

KERNELS = ("matmul", "copy", "triad", "transfer", "dispatch", "compile", "collective", "model_step")
SUITES = ("smoke", "quick", "full")
BACKENDS = ("torch", "jax")

__all__ = ["BACKENDS", "DTYPES", "KERNELS", "SUITES", "Context", "Point", "plan", "run_point", "estimate_total"]


@dataclass
class Point:
    """One measurement to make. `id` is stable across runs of the same plan (the worker skips by position)."""

    id: str
    kernel: str
    backend: str
    device: str  # DeviceInfo.key, e.g. "torch:cpu:0"
    dtype: str | None
    size: int | None  # matmul/compile: N; copy/triad: elements per array; transfer/collective: bytes; model_step: d_model
    variant: str | None
    est_s: float  # rough expected seconds, for the ETA and the budget
    cap_s: float  # the measuring loop stops before this; the runner kills at cap_s + grace
    target_s: float = 0.25  # measuring time per round; rounds repeat while CV > 3.5 %, up to cap_s


@runtime_checkable
class Context(Protocol):
    """State the worker hands to run_point (the Orange-style job state object)."""

    device: DeviceInfo  # the device being measured
    peak_flops: dict[str, float]  # dense catalogue peak per dtype ("float32", "tf32", "bfloat16", "float16"); {} if none
    peak_bw: float | None  # catalogue memory bandwidth in B/s

    def cancelled(self) -> bool:
        """True once the user asked to stop; kernels check it between repetitions."""
        ...


# Optional Context attribute, read with getattr: `best_measured: dict[tuple[str, str | None], float]`,
# the best rate so far in this run on ctx.device keyed by (kernel, dtype), e.g. ("matmul", "float32").
# model_step compares against it; without it, the best matmul measured in this process is used.

# ---------------------------------------------------------------- suites

_SUITE_TARGET_S = {"smoke": 0.05, "quick": 0.15, "full": 0.5}

_MATMUL_SIZES = {
    # (suite, "cpu" | "accel") -> dtype -> sizes; multiples of 256, launch-bound to saturated
    ("smoke", "cpu"): {"float32": [256, 512]},
    ("smoke", "accel"): {"float32": [256, 1024], "bfloat16": [1024]},
    ("quick", "cpu"): {"float32": [256, 512, 1024, 1536, 2048], "bfloat16": [256, 512, 1024]},
    ("quick", "accel"): {
        "float32": [256, 1024, 2048, 4096, 8192],
        "bfloat16": [256, 1024, 2048, 4096, 8192],
        "float16": [256, 1024, 2048, 4096, 8192],
    },
    ("full", "cpu"): {
        "float32": [256, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144],
        "bfloat16": [256, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144],
    },
    ("full", "accel"): {
        dt: [256, 512, 1024, 2048, 3072, 4096, 6144, 8192, 12288, 16384] for dt in ("float32", "bfloat16", "float16")
    },
}

_TRANSFER_BYTES = 256 * 1024**2
_COLLECTIVE_BYTES = {"smoke": [4 * 1024**2], "quick": [64 * 1024**2], "full": [16 * 1024**2, 256 * 1024**2]}
_COLLECTIVE_BYTES_CPU = {"smoke": [1024**2], "quick": [4 * 1024**2], "full": [4 * 1024**2, 32 * 1024**2]}
_COMPILE_N = {"smoke": 256, "quick": 1024, "full": 2048}


def _suite_kernels(suite: str, backend: str) -> tuple[str, ...]:
    if suite == "smoke":
        return ("matmul", "triad", "dispatch") + (("compile",) if backend == "jax" else ())
    return KERNELS


# ---------------------------------------------------------------- rough speeds, for estimates only


@dataclass(frozen=True)
class _Speed:
    flops: dict[str, float]  # FLOP/s per dtype
    mem_bw: float  # B/s
    link_bw: float  # host<->device B/s
    launch_s: float  # one tiny call
    first_s: float  # one-off cost of a new shape (jit compile, autotune)
    fill_s: float  # seconds per element to create random inputs
    spawn_s: float  # starting collective ranks


def _speed(backend: str, device: DeviceInfo) -> _Speed:
    plat = device.platform
    if plat == "cpu":
        cores = common.usable_cores()
        fp32 = 90e9 * cores
        flags = set((device.cpu.flags if device.cpu else []) or common.cpu_flags())
        if backend == "torch":
            bf16 = fp32 * (8 if "amx_bf16" in flags else 2 if "avx512_bf16" in flags else 0.3)
            bw = min(12e9 * cores, 40e9)
        else:
            bf16, bw = fp32 * 0.6, 6e9
        return _Speed({"float32": fp32, "bfloat16": bf16, "float16": fp32 * 0.05}, bw, bw, 5e-6 if backend == "torch"
                      else 2e-5, 0.0 if backend == "torch" else 0.12, 1e-8, 4.0 + 1.5 * cores)  # fmt: skip
    if plat == "tpu":
        return _Speed({"float32": 50e12, "bfloat16": 150e12, "float16": 150e12}, 800e9, 5e9, 3e-5, 1.0, 1e-10, 0.0)
    if plat == "mps":
        return _Speed({"float32": 3e12, "bfloat16": 5e12, "float16": 6e12}, 100e9, 50e9, 2e-5, 0.1, 1e-9, 0.0)
    # cuda, rocm, xpu, jax "gpu"
    return _Speed({"float32": 15e12, "bfloat16": 150e12, "float16": 150e12}, 1e12, 10e9, 1e-5,
                  0.4 if backend == "jax" else 0.1, 1e-10, 15.0)  # fmt: skip


def _loop_s(t_call: float, target_s: float, first_s: float) -> float:
    """Warm-up call + calibration call + a measuring round of at least 5 calls."""
    reps = 3 if target_s < 0.1 else 5
    return (t_call + first_s) + t_call + max(target_s, reps * t_call) + 0.01


def _matmul_fits(n: int, dtype: str, memory: float | None) -> bool:
    return memory is None or 3.0 * n * n * common.ELEM_BYTES[dtype] <= common.MATMUL_MEMORY_FRACTION * memory


def _torch_dtype_ok(device: DeviceInfo, dtype: str) -> bool:
    """Whether torch can multiply `dtype` matrices on an accelerator (tries a tiny product)."""
    if dtype == "float32":
        return True
    try:
        import torch

        from gpu_tpu_app.probe.kernels.torch_kernels import torch_device

        dev = torch_device(device)
        x = torch.ones(16, 16, dtype=getattr(torch, dtype), device=dev)
        return bool(torch.isfinite((x @ x).float()).all().item())
    except Exception:
        return False


def _dtypes_for(backend: str, device: DeviceInfo, wanted: list[str]) -> list[str]:
    plat = device.platform
    out = []
    for dt in wanted:
        if plat == "cpu" and dt == "float16":
            continue  # no native fp16 matmul on CPUs: hundreds of times slower than fp32
        if plat == "tpu" and dt == "float16":
            continue  # TPUs multiply in bf16; fp16 is converted, not a native format
        if backend == "torch" and plat != "cpu" and not _torch_dtype_ok(device, dt):
            continue
        out.append(dt)
    return out


def _targets(backend: str, devices: list[DeviceInfo]) -> list[DeviceInfo]:
    """The first device of each accelerator platform; the CPU only when the backend has no accelerator."""
    mine = sorted((d for d in devices if d.backend == backend), key=lambda d: (d.platform, d.index))
    accel: dict[str, DeviceInfo] = {}
    for d in mine:
        if d.platform != "cpu":
            accel.setdefault(d.platform, d)
    if accel:
        return list(accel.values())
    return [d for d in mine if d.platform == "cpu"][:1]


def _point(device: DeviceInfo, backend: str, kernel: str, dtype: str | None, size: int | None,
           variant: str | None, est_s: float, target_s: float, cap_s: float | None = None) -> Point:  # fmt: skip
    """A point; est_s is the nominal loop (warm-up + one round), the cap leaves room for CV-driven rounds."""
    parts = [device.key, kernel] + [str(p) for p in (variant, dtype, size) if p is not None]
    if est_s <= 0:  # answered without measuring (skipped)
        return Point(id="/".join(parts), kernel=kernel, backend=backend, device=device.key, dtype=dtype, size=size,
                     variant=variant, est_s=0.0, cap_s=cap_s or 5.0, target_s=target_s)  # fmt: skip
    cap = cap_s if cap_s is not None else max(2.0 * est_s + 0.5, 6.0 * target_s)
    # expect about two extra rounds on a busy machine, never more than the loop may take
    expected = min(est_s + 2.0 * target_s, CAP_MARGIN * cap)
    return Point(id="/".join(parts), kernel=kernel, backend=backend, device=device.key, dtype=dtype, size=size,
                 variant=variant, est_s=round(expected, 3), cap_s=round(cap, 1), target_s=target_s)  # fmt: skip


def _device_points(backend: str, device: DeviceInfo, suite: str, kernels: tuple[str, ...],
                   dtypes: list[str] | None) -> list[Point]:  # fmt: skip
    sp = _speed(backend, device)
    target = _SUITE_TARGET_S[suite]
    accel = device.platform != "cpu"
    memory = float(device.memory_bytes) if device.memory_bytes else None
    pts: list[Point] = []
    allowed = list(DTYPES) if dtypes is None else [d for d in DTYPES if d in dtypes]

    def keep(dtype: str | None) -> bool:
        return dtype is None or dtype in allowed

    for kernel in kernels:
        if kernel == "matmul":
            table = _MATMUL_SIZES[(suite, "accel" if accel else "cpu")]
            for dt in _dtypes_for(backend, device, [d for d in table if keep(d)]):
                for n in table[dt]:
                    if not _matmul_fits(n, dt, memory):
                        continue
                    t = common.matmul_flops(n) / sp.flops[dt] + sp.launch_s
                    est = 2 * n * n * sp.fill_s + _loop_s(t, target, sp.first_s)
                    pts.append(_point(device, backend, "matmul", dt, n, None, est, target))
        elif kernel in ("copy", "triad"):
            if not keep("float32"):
                continue
            llc = None
            if device.cpu and device.cpu.caches:
                levels = {k: v for k, v in device.cpu.caches.items() if not k.endswith("i")}
                llc = levels[max(levels)] if levels else None
            for n in common.stream_elements(device.platform, suite, llc):
                arrays = common.STREAM_ARRAYS[kernel]
                if memory is not None and arrays * n * 4 > 0.4 * memory:
                    continue
                t = common.stream_bytes(kernel, n, 4) / sp.mem_bw + sp.launch_s
                est = arrays * n * sp.fill_s + _loop_s(t, target, sp.first_s)
                pts.append(_point(device, backend, kernel, "float32", n, None, est, target))
        elif kernel == "transfer":
            if not accel:
                pts.append(_point(device, backend, "transfer", None, None, None, 0.0, target, cap_s=5.0))
                continue
            variants = ["h2d", "d2h"] if backend == "jax" else ["h2d-pageable", "h2d-pinned", "d2h-pageable",
                                                                  "d2h-pinned"]  # fmt: skip
            if backend == "torch" and device.platform == "mps":
                variants = ["h2d-pageable", "d2h-pageable"]
            for v in variants:
                t = _TRANSFER_BYTES / sp.link_bw
                est = _TRANSFER_BYTES / 4 * sp.fill_s + _loop_s(t, target, 0.1) + 0.3
                pts.append(_point(device, backend, "transfer", None, _TRANSFER_BYTES, v, est, target))
        elif kernel == "dispatch":
            est = _loop_s(sp.launch_s, target, sp.first_s)
            pts.append(_point(device, backend, "dispatch", None, 1, None, est, target))
        elif kernel == "compile":
            n = _COMPILE_N[suite]
            if backend == "torch":
                pts.append(_point(device, backend, "compile", None, n, None, 0.0, target, cap_s=5.0))
                continue
            t = common.matmul_flops(n) / sp.flops["float32"] + sp.launch_s
            reps = 3 if target < 0.1 else 5
            per_phase = max(target, reps * max(sp.first_s, t))
            est = 2 * n * n * sp.fill_s + 3 * (per_phase + 2 * max(sp.first_s, t)) + _loop_s(t, target, 0.0)
            pts.append(_point(device, backend, "compile", None, n, None, est, target,
                              cap_s=max(2.0 * est + 0.5, 4 * 6.0 * target)))  # fmt: skip
        elif kernel == "collective":
            sizes = (_COLLECTIVE_BYTES_CPU if not accel else _COLLECTIVE_BYTES)[suite]
            multi = device.count >= 2
            for nbytes in sizes:
                if not multi:
                    pts.append(_point(device, backend, "collective", None, nbytes, None, 0.0, target, cap_s=5.0))
                    break  # one "skipped" result says it
                ranks = device.count
                t = 2.0 * nbytes / max(sp.link_bw, 1e9) + sp.launch_s
                spawn = sp.spawn_s if backend == "torch" else sp.first_s
                est = spawn + ranks * nbytes / 4 * sp.fill_s + _loop_s(t, target, sp.first_s)
                cap = max(20.0, 3 * est) if backend == "torch" else None  # torch starts one process per rank
                pts.append(_point(device, backend, "collective", None, nbytes, None, est, target, cap_s=cap))
        elif kernel == "model_step":
            shapes = [MODEL_SHAPES["quick"], MODEL_SHAPES["full"]] if suite == "full" else [MODEL_SHAPES[suite]]
            if accel and suite != "smoke":
                shapes = [MODEL_SHAPES["full"]]
            step_dtypes = (["bfloat16", "float32"] if suite == "full" else ["bfloat16"]) if accel else ["float32"]
            for dt in _dtypes_for(backend, device, [d for d in step_dtypes if keep(d)]):
                for shape in shapes:
                    t = shape.step_flops() / (0.4 * sp.flops[dt]) + 40 * sp.launch_s
                    first = sp.first_s * 5
                    est = _loop_s(t, target, first)
                    pts.append(_point(device, backend, "model_step", dt, shape.d_model, shape.tag, est, target))
    return pts


def estimate_total(points: list[Point]) -> float:
    """Sum of the points' estimated seconds."""
    return sum(p.est_s for p in points)


def _apply_budget(points: list[Point], budget_s: float | None) -> list[Point]:
    """Drop the most expensive points first until the estimate fits the budget; order is kept."""
    if budget_s is None or budget_s <= 0 or math.isinf(budget_s):
        return points
    keep = list(points)
    while keep and estimate_total(keep) > budget_s:
        worst = max(range(len(keep)), key=lambda i: (keep[i].est_s, i))
        if keep[worst].est_s <= 0:
            break
        del keep[worst]
    return keep


def plan(backend: str, devices: list[DeviceInfo], suite: str, kernels: list[str] | None = None,
         dtypes: list[str] | None = None, budget_s: float | None = None) -> list[Point]:  # fmt: skip
    """The points to measure for `backend`, in a fixed order, filtered and fitted to `budget_s` seconds.

    kernels/dtypes: None means all; dtype-free points (transfer, dispatch, compile, collective) stay
    under a dtype filter. Names starting with "test_" are left to the worker's test kernels.
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if suite not in SUITES:
        raise ValueError(f"suite must be one of {', '.join(SUITES)}, not {suite!r}")
    wanted_kernels: tuple[str, ...] = _suite_kernels(suite, backend)
    if kernels is not None:
        unknown = [k for k in kernels if k not in KERNELS and not k.startswith("test_")]
        if unknown:
            raise ValueError(f"unknown kernel {unknown[0]!r}; choose from {', '.join(KERNELS)}")
        wanted_kernels = tuple(k for k in KERNELS if k in kernels)
    if dtypes is not None:
        unknown = [d for d in dtypes if d not in DTYPES]
        if unknown:
            raise ValueError(f"unknown dtype {unknown[0]!r}; choose from {', '.join(DTYPES)}")
    points: list[Point] = []
    for device in _targets(backend, devices):
        points.extend(_device_points(backend, device, suite, wanted_kernels, dtypes))
    return _apply_budget(points, budget_s)


def run_point(point: Point, ctx: Context) -> list[ProbeResult]:
    """Measure one point on ctx.device with the point's backend.

    Returns [] only when cancelled before anything was measured. May raise (driver errors,
    out of memory): the worker turns that into an error result.
    """
    if point.kernel not in KERNELS:
        raise ValueError(f"unknown kernel {point.kernel!r}")
    if point.backend == "torch":
        from gpu_tpu_app.probe.kernels import torch_kernels as impl
    elif point.backend == "jax":
        from gpu_tpu_app.probe.kernels import jax_kernels as impl  # type: ignore[no-redef]
    else:
        raise ValueError(f"unknown backend {point.backend!r}")
    return impl.run(point, ctx)
