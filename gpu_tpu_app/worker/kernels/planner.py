"""The planner: `plan()` turns a suite into a deterministic list of `Point`s for a backend's devices.

Sizes per suite, memory and dtype gaps, and the time budget; the rough speeds its estimates start from are in
speeds.py.
Runs inside a worker process; imports neither torch nor jax at import time (one tiny torch
product checks a dtype on an accelerator, inside the function).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gpu_tpu_app.shared.terms import BACKENDS, DTYPES, ELEM_BYTES, KERNELS, SUITE_BUDGET_S, SUITES
from gpu_tpu_app.shared.trust import ONE_THREAD_REF_N
from gpu_tpu_app.worker.kernels import common
from gpu_tpu_app.worker.kernels.common import MODEL_SHAPES
from gpu_tpu_app.worker.kernels.point import Point
from gpu_tpu_app.worker.kernels.speeds import (
    _loop_s,
    _speed,
    collective_cap,
    collective_estimate,
    slow_line,
)
from gpu_tpu_app.worker.kernels.stats import CAP_MARGIN
from gpu_tpu_app.worker.notes import join, note

if TYPE_CHECKING:  # pragma: no cover
    from gpu_tpu_app.worker.wire import DeviceInfo


# ---------------------------------------------------------------- suites

_SUITE_TARGET_S = {"smoke": 0.05, "quick": 0.1, "full": 0.5}

_MATMUL_SIZES: dict[tuple[str, str], dict[str, list[int]]] = {
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
    ("full", "accel"): {dt: [256, 512, 1024, 2048, 3072, 4096, 6144, 8192, 12288, 16384] for dt in DTYPES},
}

_TRANSFER_BYTES = 256 * 1024**2
_COLLECTIVE_BYTES = {"smoke": [4 * 1024**2], "quick": [64 * 1024**2], "full": [16 * 1024**2, 256 * 1024**2]}
_COLLECTIVE_BYTES_CPU = {"smoke": [1024**2], "quick": [4 * 1024**2], "full": [4 * 1024**2, 32 * 1024**2]}
_COMPILE_N = {"smoke": 256, "quick": 1024, "full": 2048}
#: Most seconds one copy/triad point may be estimated at, per suite (the array size is capped to fit).
_STREAM_POINT_S = {"smoke": 1.0, "quick": 5.0, "full": 30.0}
#: ... and at most this share of a given time budget.
STREAM_BUDGET_SHARE = 0.1
#: Share of the device's memory that triad's three arrays may take together.
STREAM_MEMORY_SHARE = 0.125
_STREAM_MIN_ELEMS = 1 << 20
#: Set-up allowed before a JAX point's clock starts (its jit compile, XLA's GEMM autotuning, the
#: collective's communicator): it runs outside the cap and is reported; the worker announces
#: cap + set-up, so a slow first compile is not killed as a hang.
JAX_SETUP_S = {"cpu": 30.0, "accel": 60.0, "collective": 120.0}
#: What the parent's hang timer allows a torch CPU model step beyond its cap. Its warm-up and first timed
#: step run before the loop can look at the cap, and on a busy 2-core machine each of a step's ~100 small
#: ops can wait for a descheduled thread: one step took 1.4 s at load 10 (1.8 GFLOP/s), so the worker was
#: killed as hung and restarted. The loop still stops at the cap; a step that slow is flagged.
TORCH_STEP_SLACK_S = 6.0
#: Most seconds one matmul point of a slow dtype may take: this share of the budget (the suite's
#: budget when none is given), so an emulated dtype never starves the other kernels.
SLOW_POINT_SHARE = 0.04
#: Size of the one calibration product timed before a dtype's sweep (CPU, accelerator).
CALIBRATION_N = {"cpu": 256, "accel": 1024}


def _suite_kernels(suite: str, backend: str) -> tuple[str, ...]:
    if suite == "smoke":
        return ("matmul", "triad", "dispatch") + (("compile",) if backend == "jax" else ())
    return KERNELS


# ---------------------------------------------------------------- rough speeds, for estimates only


def _matmul_fits(n: int, dtype: str, memory: float | None) -> bool:
    return memory is None or 3.0 * n * n * ELEM_BYTES[dtype] <= common.MATMUL_MEMORY_FRACTION * memory


def _torch_dtype_ok(device: DeviceInfo, dtype: str) -> bool:
    """Whether torch can multiply `dtype` matrices on an accelerator (tries a tiny product)."""
    if dtype == "float32":
        return True
    try:
        import torch

        from gpu_tpu_app.worker.kernels.torch_kernels import torch_device

        dev = torch_device(device)
        x = torch.ones(16, 16, dtype=getattr(torch, dtype), device=dev)
        return bool(torch.isfinite((x @ x).float()).all().item())
    except Exception:
        return False


def _dtype_gap(backend: str, device: DeviceInfo, dtype: str) -> str | None:
    """Why `dtype` is not multiplied on this device, or None when it is."""
    plat = device.platform
    if plat == "cpu" and dtype == "float16":
        return note("plan.no_fp16_cpu")
    if plat == "tpu" and dtype == "float16":
        return note("plan.no_fp16_tpu")
    if backend == "torch" and plat != "cpu" and not _torch_dtype_ok(device, dtype):
        return note("plan.torch_dtype_failed", dtype=dtype, platform=plat)
    return None


def _dtypes_for(backend: str, device: DeviceInfo, wanted: list[str]) -> list[str]:
    return [dt for dt in wanted if _dtype_gap(backend, device, dt) is None]


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


@dataclass
class _Planner:
    """What every kernel's planner needs for one device: suite, speeds, memory, filters, budget."""

    backend: str
    device: DeviceInfo
    suite: str
    dtypes: list[str] | None  # as asked; None: all
    budget_s: float | None
    #: calibrated matmul FLOP/s per dtype on this device (the worker times one small product); {}: none
    rates: dict[str, float] = dataclasses.field(default_factory=dict)

    def __post_init__(self) -> None:
        self.speed = _speed(self.backend, self.device)
        #: dtype -> the one line that says it runs far below what the plan expected (and why, when known)
        self.slow: dict[str, str] = {}
        if self.rates:
            measured = {dt: r for dt, r in self.rates.items() if r > 0 and math.isfinite(r)}
            for dt, rate in measured.items():
                line = slow_line(self.device, dt, rate, self.speed.flops.get(dt), measured.get("float32"))
                if line is not None:
                    self.slow[dt] = line
            # a slow dtype is sized from its measured rate; the others keep the plan's rates, so one
            # stalled calibration call on a busy machine does not shrink a whole sweep
            slow_rates = {dt: r for dt, r in measured.items() if dt in self.slow}
            self.speed = dataclasses.replace(self.speed, flops={**self.speed.flops, **slow_rates})
        self.target = _SUITE_TARGET_S[self.suite]
        self.accel = self.device.platform != "cpu"
        self.memory = float(self.device.memory_bytes) if self.device.memory_bytes else None
        self.allowed = list(DTYPES) if self.dtypes is None else [d for d in DTYPES if d in self.dtypes]

    def keep(self, dtype: str | None) -> bool:
        return dtype is None or dtype in self.allowed

    def point(
        self,
        kernel: str,
        dtype: str | None,
        size: int | None,
        variant: str | None,
        est_s: float,
        cap_s: float | None = None,
        note: str | None = None,
        ahead_s: float = 0.0,
    ) -> Point:
        """A point; est_s is the nominal loop (warm-up + one round), the cap leaves room for CV-driven rounds.

        ahead_s: the part of est_s a JAX point spends before its clock starts (its data and compile
        ahead, outside the cap: setup_s): the cap is sized from the loop alone, as torch's is, and the
        estimate still counts both."""
        parts = [self.device.key, kernel] + [str(p) for p in (variant, dtype, size) if p is not None]
        base: dict[str, Any] = {
            "id": "/".join(parts),
            "kernel": kernel,
            "backend": self.backend,
            "device": self.device.key,
            "dtype": dtype,
            "size": size,
            "variant": variant,
            "target_s": self.target,
            "note": note,
            "setup_s": self.setup_s(kernel) if est_s > 0 else 0.0,
        }
        if est_s <= 0:  # answered without measuring (skipped)
            return Point(**base, est_s=0.0, cap_s=cap_s or 5.0)
        ahead = min(ahead_s, est_s) if base["setup_s"] > 0 else 0.0
        cap = cap_s if cap_s is not None else max(2.0 * (est_s - ahead) + 0.5, 6.0 * self.target)
        # expect about two extra rounds on a busy machine, never more than the set-up and the loop may take
        expected = min(est_s + 2.0 * self.target, ahead + CAP_MARGIN * cap)
        return Point(**base, est_s=round(expected, 3), cap_s=round(cap, 1))

    def setup_s(self, kernel: str) -> float:
        """Seconds a point may spend before its clock starts: JAX compiles ahead; torch has no such step,
        but its CPU model step gets TORCH_STEP_SLACK_S on the parent's hang timer (not on its cap)."""
        if self.backend == "torch" and kernel == "model_step" and not self.accel:
            return TORCH_STEP_SLACK_S
        if self.backend != "jax" or kernel == "compile":  # the compile point measures compiling itself
            return 0.0
        if kernel == "collective":
            return JAX_SETUP_S["collective"]
        return JAX_SETUP_S["accel" if self.accel else "cpu"]

    def left_out(self, kernel: str, dtype: str | None, size: int | None, variant: str | None, reason: str) -> Point:
        """A point the plan leaves out: the worker reports it as skipped with `reason`, never measures it."""
        return dataclasses.replace(self.point(kernel, dtype, size, variant, 0.0), skip=reason)

    def stream_llc(self) -> int | None:
        """The device's last-level cache as its description says (CPU caches, or a device's own), or None."""
        return common.device_llc(self.device)


def _matmul_points(pl: _Planner) -> list[Point]:
    table = _MATMUL_SIZES[(pl.suite, "accel" if pl.accel else "cpu")]
    pts: list[Point] = []
    for dt in [d for d in pl.allowed if pl.dtypes is not None or d in table]:
        if (gap := _dtype_gap(pl.backend, pl.device, dt)) is not None or dt not in table:
            gap = gap or note("plan.not_in_suite", dtype=dt, suite=pl.suite)
            pts.append(pl.left_out("matmul", dt, None, None, gap))
            continue
        for n in table[dt]:
            if not _matmul_fits(n, dt, pl.memory):
                need = 3 * n * n * ELEM_BYTES[dt]
                pts.append(
                    pl.left_out(
                        "matmul",
                        dt,
                        n,
                        None,
                        note(
                            "plan.matmul_memory",
                            need=common.mib(need),
                            n=n,
                            share=f"{common.MATMUL_MEMORY_FRACTION:.0%}",
                            memory=common.mib(pl.memory or 0),
                        ),
                    )
                )
                continue
            t = common.matmul_flops(n) / pl.speed.flops[dt] + pl.speed.launch_s
            est = 2 * n * n * pl.speed.fill_s + _loop_s(t, pl.target, pl.speed.first_s)
            if dt in pl.slow and est > (limit := slow_point_limit(pl)):
                pts.append(
                    pl.left_out(
                        "matmul",
                        dt,
                        n,
                        None,
                        join(  # type: ignore[arg-type]  # two parts: never None
                            pl.slow[dt],
                            note(
                                "plan.slow_left_out",
                                n=n,
                                product_s=f"{t:.2g}",
                                point_s=f"{est:.0f}",
                                limit_s=f"{limit:.0f}",
                            ),
                        ),
                    )
                )
                continue
            ahead = 2 * n * n * pl.speed.fill_s + pl.speed.first_s  # JAX: data and compile before the clock
            pt = pl.point("matmul", dt, n, None, est, note=pl.slow.get(dt), ahead_s=ahead)
            if one_thread_reference(pl, n, dt):
                pt = dataclasses.replace(pt, one_thread=True)
            pts.append(pt)
    return pts


#: Largest CPU matmul timed on one thread as a reference; a larger point times this size on one thread
#: (core.trust.ONE_THREAD_REF_N): every size the stall rule trusts has a same-minute reference (issue 35 §5).
ONE_THREAD_MAX_N = ONE_THREAD_REF_N


def one_thread_reference(pl: _Planner, n: int, dtype: str) -> bool:
    """Whether a CPU matmul point also times a product on one thread right after its loop: the floor a
    multi-threaded rate must beat (core.trust's stall rule), at every size (above ONE_THREAD_MAX_N, the
    product of that size). Not in the smoke suite, not for a slow dtype."""
    return (
        not pl.accel
        and pl.suite != "smoke"
        and dtype not in pl.slow
        and common.usable_cores() > 1
        and pl.backend == "torch"
    )


def slow_point_limit(pl: _Planner) -> float:
    """Most seconds one matmul point of a slow dtype may take (SLOW_POINT_SHARE of the budget)."""
    budget = pl.budget_s if pl.budget_s is not None and pl.budget_s > 0 and math.isfinite(pl.budget_s) else None
    if budget is None:
        budget = SUITE_BUDGET_S[pl.suite]
    return max(SLOW_POINT_SHARE * budget, 4.0 * pl.target)


def calibration_dtypes(
    backend: str, device: DeviceInfo, suite: str, kernels: list[str] | None, dtypes: list[str] | None
) -> list[str]:
    """The dtypes whose matmul sweep plan() would measure on `device`: each gets one calibration product first."""
    if suite not in SUITES or (kernels is not None and "matmul" not in kernels):
        return []
    if kernels is None and "matmul" not in _suite_kernels(suite, backend):
        return []
    table = _MATMUL_SIZES[(suite, "cpu" if device.platform == "cpu" else "accel")]
    wanted = [d for d in DTYPES if (dtypes is None and d in table) or (dtypes is not None and d in dtypes)]
    return [d for d in wanted if d in table and _dtype_gap(backend, device, d) is None]


def _stream_fill(pl: _Planner, kernel: str, n: int) -> float:
    """Seconds to make a copy/triad point's arrays."""
    fill = pl.speed.fill_s if pl.speed.stream_fill_s is None else pl.speed.stream_fill_s
    return common.STREAM_ARRAYS[kernel] * n * fill


def _stream_est(pl: _Planner, kernel: str, n: int) -> float:
    t = common.stream_bytes(kernel, n, 4) / pl.speed.mem_bw + pl.speed.launch_s
    return _stream_fill(pl, kernel, n) + _loop_s(t, pl.target, pl.speed.first_s)


def stream_plan(pl: _Planner) -> tuple[list[int], str | None]:
    """Elements per array for copy/triad (the same for both) and, when a cap won over 4× LLC, a note saying so.

    STREAM's rule asks for arrays of at least 4× the last-level cache. A VM may report the host's
    whole L3 (hundreds of MiB), so the size is also capped: triad's three arrays take at most
    STREAM_MEMORY_SHARE of the device's memory (its total, so a plan stays the same when a
    worker restarts), and one point's estimate at most _STREAM_POINT_S of the suite (and a tenth
    of the budget when one is given). The cap keeps the power of two that fits.
    """
    llc = pl.stream_llc()
    wanted = common.stream_elements(pl.device.platform, pl.suite, llc)
    if pl.suite == "smoke" and not pl.accel:
        return wanted, None  # one small in-cache array; the result says so
    limit_s = _STREAM_POINT_S[pl.suite]
    if pl.budget_s is not None and pl.budget_s > 0 and math.isfinite(pl.budget_s):
        limit_s = min(limit_s, STREAM_BUDGET_SHARE * pl.budget_s)
    mem_elems = None if pl.memory is None else int(STREAM_MEMORY_SHARE * pl.memory) // (3 * 4)
    sizes: list[int] = []
    why: set[str] = set()
    for n in wanted:
        while n > _STREAM_MIN_ELEMS:
            over_mem = mem_elems is not None and n > mem_elems
            over_time = _stream_est(pl, "triad", n) > limit_s
            if not (over_mem or over_time):
                break
            why.update(w for w, hit in (("memory", over_mem), ("time", over_time)) if hit)
            n //= 2
        if n not in sizes:
            sizes.append(n)
    if not why:
        return sizes, None
    target = 4 * (llc or common.DEVICE_STREAM_BYTES // 4)
    reasons = {
        "time": note("plan.suite_budget", suite=pl.suite),
        "memory": note("plan.memory_share", share=f"{STREAM_MEMORY_SHARE:.1%}"),
    }
    first, *more = [reasons[w] for w in sorted(why, reverse=True)]
    because = note("plan.both", first=first, second=more[0]) if more else first
    cache = note("plan.llc_times_4", llc=common.mib(llc)) if llc else note("plan.working_set")
    return sizes, note(
        "plan.stream_capped", size=common.mib(sizes[0] * 4), because=because, cache=cache, target=common.mib(target)
    )


def _stream_points(pl: _Planner, kernel: str) -> list[Point]:
    if not pl.keep("float32"):
        return []
    sizes, capped = stream_plan(pl)
    pts = []
    for n in sizes:
        need = common.STREAM_ARRAYS[kernel] * n * 4
        if pl.memory is not None and need > 0.4 * pl.memory:
            pts.append(
                pl.left_out(
                    kernel,
                    "float32",
                    n,
                    None,
                    note("plan.stream_memory", need=common.mib(need), memory=common.mib(pl.memory)),
                )
            )
            continue
        ahead = _stream_fill(pl, kernel, n) + pl.speed.first_s  # JAX: data and compile before the clock
        pts.append(pl.point(kernel, "float32", n, None, _stream_est(pl, kernel, n), note=capped, ahead_s=ahead))
    return pts


def _transfer_points(pl: _Planner) -> list[Point]:
    if not pl.accel:
        return [pl.point("transfer", None, None, None, 0.0, cap_s=5.0)]
    variants = ["h2d", "d2h"] if pl.backend == "jax" else ["h2d-pageable", "h2d-pinned", "d2h-pageable", "d2h-pinned"]
    if pl.backend == "torch" and pl.device.platform == "mps":
        variants = ["h2d-pageable", "d2h-pageable"]
    pts = []
    for v in variants:
        t = _TRANSFER_BYTES / pl.speed.link_bw
        est = _TRANSFER_BYTES / 4 * pl.speed.fill_s + _loop_s(t, pl.target, 0.1) + 0.3
        pts.append(pl.point("transfer", None, _TRANSFER_BYTES, v, est))
    return pts


def _compile_points(pl: _Planner) -> list[Point]:
    n = _COMPILE_N[pl.suite]
    if pl.backend == "torch":
        return [pl.point("compile", None, n, None, 0.0, cap_s=5.0)]
    sp, target = pl.speed, pl.target
    t = common.matmul_flops(n) / sp.flops["float32"] + sp.launch_s
    # each phase takes at least the kernel's minimum of samples (not the loop's default of 5), each a compile
    per_phase = max(target, common.COMPILE_PHASE_MIN_REPS * max(sp.first_s, t))
    est = 2 * n * n * sp.fill_s + 3 * (per_phase + 2 * max(sp.first_s, t)) + _loop_s(t, target, 0.0)
    return [pl.point("compile", None, n, None, est, cap_s=max(2.0 * est + 0.5, 4 * 6.0 * target))]


def _collective_points(pl: _Planner) -> list[Point]:
    sizes = (_COLLECTIVE_BYTES_CPU if not pl.accel else _COLLECTIVE_BYTES)[pl.suite]
    if pl.device.count < 2:  # one "skipped" result says it
        return [pl.point("collective", None, sizes[0], None, 0.0, cap_s=5.0)]
    pts = []
    for nbytes in sizes:
        est = collective_estimate(pl.speed, pl.target, pl.backend, pl.device.count, nbytes)
        pts.append(pl.point("collective", None, nbytes, None, est, cap_s=collective_cap(est)))
    return pts


def _model_step_points(pl: _Planner) -> list[Point]:
    suite = pl.suite
    shapes = [MODEL_SHAPES["quick"], MODEL_SHAPES["full"]] if suite == "full" else [MODEL_SHAPES[suite]]
    if pl.accel and suite != "smoke":
        shapes = [MODEL_SHAPES["full"]]
    step_dtypes = (["bfloat16", "float32"] if suite == "full" else ["bfloat16"]) if pl.accel else ["float32"]
    pts = []
    for dt in _dtypes_for(pl.backend, pl.device, [d for d in step_dtypes if pl.keep(d)]):
        for shape in shapes:
            t = shape.step_flops() / (0.4 * pl.speed.flops[dt]) + 40 * pl.speed.launch_s
            est = _loop_s(t, pl.target, pl.speed.first_s * 5)
            pts.append(pl.point("model_step", dt, shape.d_model, shape.tag, est, ahead_s=pl.speed.first_s * 5))
    return pts


def _device_points(pl: _Planner, kernels: tuple[str, ...]) -> list[Point]:
    pts: list[Point] = []
    for kernel in kernels:
        if kernel == "matmul":
            pts += _matmul_points(pl)
        elif kernel in ("copy", "triad"):
            pts += _stream_points(pl, kernel)
        elif kernel == "transfer":
            pts += _transfer_points(pl)
        elif kernel == "dispatch":
            est = _loop_s(pl.speed.launch_s, pl.target, pl.speed.first_s)
            pts.append(pl.point("dispatch", None, 1, None, est, ahead_s=pl.speed.first_s))
        elif kernel == "compile":
            pts += _compile_points(pl)
        elif kernel == "collective":
            pts += _collective_points(pl)
        elif kernel == "model_step":
            pts += _model_step_points(pl)
    # a slow dtype's matmuls go last, so they never hold up the other kernels
    return [p for p in pts if not _is_slow(pl, p)] + [p for p in pts if _is_slow(pl, p)]


def _is_slow(pl: _Planner, p: Point) -> bool:
    return p.kernel == "matmul" and p.dtype in pl.slow


def estimate_total(points: list[Point]) -> float:
    """Sum of the points' estimated seconds."""
    return sum(p.est_s for p in points)


def _apply_budget(points: list[Point], budget_s: float | None, suite: str = "", backend: str = "") -> list[Point]:
    """Leave out the most expensive points first until the estimate fits the budget; order is kept.

    A point left out stays in the plan as a skipped point that says why and how to include it.
    """
    if budget_s is None or budget_s <= 0 or math.isinf(budget_s):
        return points
    keep = list(points)
    need = estimate_total(points)
    while estimate_total(keep) > budget_s:
        live = [i for i, p in enumerate(keep) if p.est_s > 0]
        if not live:
            break
        worst = max(live, key=lambda i: (keep[i].est_s, i))
        p = keep[worst]
        reason = note(
            "plan.budget_suite" if suite else "plan.budget_run",
            point_s=f"{p.est_s:.1f}",
            backend=backend or "this backend",
            budget_s=f"{budget_s:.0f}",
            suite=suite,
            need_s=f"{need:.0f}",
        )
        keep[worst] = dataclasses.replace(p, est_s=0.0, skip=reason)
    return keep


def plan(
    backend: str,
    devices: list[DeviceInfo],
    suite: str,
    kernels: list[str] | None = None,
    dtypes: list[str] | None = None,
    budget_s: float | None = None,
    rates: dict[str, dict[str, float]] | None = None,
) -> list[Point]:
    """The points to measure for `backend`, in a fixed order, filtered and fitted to `budget_s` seconds.

    rates: device key -> dtype -> calibrated matmul FLOP/s (one small product the worker timed before
    planning; see calibration_dtypes). Measured rates replace the assumed ones for sizing and estimates,
    and a dtype far below its expected rate is said so, measured only at sizes that fit, and last.

    kernels/dtypes: None means all; dtype-free points (transfer, dispatch, compile, collective) stay
    under a dtype filter. Names starting with "test_" are left to the worker's test kernels.
    Points the plan cannot measure (time budget, memory, a dtype the device lacks) stay in the
    list with `skip` set, so the user sees each one as a skipped result with its reason.
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
        pl = _Planner(backend, device, suite, dtypes, budget_s, dict((rates or {}).get(device.key, {})))
        points.extend(_device_points(pl, wanted_kernels))
    return _apply_budget(points, budget_s, suite, backend)


def targets(backend: str, devices: list[DeviceInfo]) -> list[DeviceInfo]:
    """The devices plan() measures for `backend`."""
    return _targets(backend, devices)
