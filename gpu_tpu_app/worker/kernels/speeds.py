"""What the planner expects of a device before measuring it: rough speeds per backend and platform (FLOP/s per
dtype, memory and host-link bandwidth, launch, compile and fill costs), a point's loop time, the collective
points' estimate and cap, and the line that says a dtype runs far below fp32 (emulated on a CPU without its
units). Runs inside a worker process, like planner.py, which uses these; standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from gpu_tpu_app.worker.kernels import common
from gpu_tpu_app.worker.notes import note

if TYPE_CHECKING:  # pragma: no cover
    from gpu_tpu_app.worker.wire import DeviceInfo

#: A dtype whose calibrated matmul rate is under this share of what the plan expects of it (or of
#: the measured fp32 rate, when it is not fp32) is "slow": said in one line, sized down, measured last.
SLOW_SHARE = 0.1


#: Collective points of both engines get at least this cap: communicator start-up varies widely.
COLLECTIVE_MIN_CAP_S = 20.0


@dataclass(frozen=True)
class _Speed:
    flops: dict[str, float]  # FLOP/s per dtype
    mem_bw: float  # B/s
    link_bw: float  # host<->device B/s
    launch_s: float  # one tiny call
    first_s: float  # one-off cost of a new shape (jit compile, autotune)
    fill_s: float  # seconds per element to create random inputs
    spawn_s: float  # starting collective ranks
    #: seconds per element to create a copy/triad array (None: fill_s); both backends tile a seeded block
    #: (torch_kernels.stream_array, jax_data.stream_array), bound by first-touching fresh memory rather
    #: than by drawing normals
    stream_fill_s: float | None = None


#: A CPU's first touch of fresh memory, per float32 element (measured here: 128 MiB in ~0.08 s).
_FIRST_TOUCH_S_PER_ELEM = 4.0 / 1.6e9


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
        return _Speed(
            {"float32": fp32, "bfloat16": bf16, "float16": fp32 * 0.05},
            bw,
            bw,
            5e-6 if backend == "torch" else 2e-5,
            0.0 if backend == "torch" else 0.12,
            1e-8,
            4.0 + 1.5 * cores,
            # torch tiles in place; JAX tiles on the host, then copies to its device (a second first touch)
            _FIRST_TOUCH_S_PER_ELEM * (1 if backend == "torch" else 2),
        )
    if plat == "tpu":
        return _Speed({"float32": 50e12, "bfloat16": 150e12, "float16": 150e12}, 800e9, 5e9, 3e-5, 1.0, 1e-10, 0.0)
    if plat == "mps":
        return _Speed({"float32": 3e12, "bfloat16": 5e12, "float16": 6e12}, 100e9, 50e9, 2e-5, 0.1, 1e-9, 0.0)
    # cuda, rocm, xpu, jax "gpu"
    return _Speed(
        {"float32": 15e12, "bfloat16": 150e12, "float16": 150e12},
        1e12,
        10e9,
        1e-5,
        0.4 if backend == "jax" else 0.1,
        1e-10,
        15.0,
    )


def _loop_s(t_call: float, target_s: float, first_s: float) -> float:
    """Warm-up call + calibration call + a measuring round of at least 5 calls."""
    reps = 3 if target_s < 0.1 else 5
    return (t_call + first_s) + t_call + max(target_s, reps * t_call) + 0.01


def _rate_words(flops: float) -> str:
    """1.3e9 -> '1.3 GFLOP/s'; 2.5e12 -> '2.5 TFLOP/s'."""
    if flops >= 1e12:
        return f"{flops / 1e12:.3g} TFLOP/s"
    return f"{flops / 1e9:.2g} GFLOP/s" if flops >= 1e9 else f"{flops / 1e6:.3g} MFLOP/s"


def slow_line(device: DeviceInfo, dtype: str, rate: float, expected: float | None, fp32: float | None) -> str | None:
    """One line when `dtype` multiplies far below fp32 measured the same way (or, on an accelerator, for
    fp32 or without an fp32 rate, far below what the plan expected of it), else None.

    'bfloat16 is emulated on this CPU: 1.3 GFLOP/s, 70x below fp32' when the CPU's flags show no
    bf16 or fp16 unit; 'far below' otherwise.
    """
    if dtype == "float32" or fp32 is None or fp32 <= 0:
        # no fp32 to compare with (or fp32 itself): against what the plan expected, on an accelerator
        # only; a CPU's assumed rate is too rough, and a busy machine's stalls would move fp32 itself
        known = expected is not None and expected > 0 and device.platform != "cpu"
        below_fp32, below_expected = False, known and rate < SLOW_SHARE * (expected or 0.0)
    else:
        # against fp32 measured the same way in the same minute: a busy machine slows both alike
        below_fp32, below_expected = rate < SLOW_SHARE * fp32, False
    if not (below_expected or below_fp32):
        return None
    shown = _rate_words(rate)
    if below_fp32 and fp32:
        versus = note("plan.below_fp32", times=f"{fp32 / rate:.0f}")
    else:
        versus = note(
            "plan.below_expected", times=f"{(expected or rate) / rate:.0f}", expected=_rate_words(expected or rate)
        )
    if device.platform == "cpu" and dtype in ("bfloat16", "float16"):
        flags = set((device.cpu.flags if device.cpu else []) or common.cpu_flags())
        units = {"bfloat16": ("avx512_bf16", "amx_bf16"), "float16": ("avx512_fp16", "amx_fp16")}[dtype]
        if not flags & set(units):
            return note("plan.emulated_cpu", dtype=dtype, rate=shown, versus=versus)
    which = "fp32" if below_fp32 else "expected"
    if device.platform == "cpu":
        return note(f"plan.far_below_{which}_cpu", dtype=dtype, rate=shown, versus=versus)
    return note(f"plan.far_below_{which}_device", dtype=dtype, platform=device.platform, rate=shown, versus=versus)


def collective_estimate(sp: _Speed, target: float, backend: str, ranks: int, nbytes: int) -> float:
    """Seconds for one all-reduce point: start-up (ranks, communicator), data made on the device, the loop."""
    t = 2.0 * nbytes / max(sp.link_bw, 1e9) + sp.launch_s
    spawn = sp.spawn_s if backend == "torch" else sp.first_s
    return spawn + ranks * nbytes / 4 * sp.fill_s + _loop_s(t, target, sp.first_s)


def collective_cap(est: float) -> float:
    """One cap rule for both engines: communicator set-up (NCCL, gloo, XLA) varies far more than the loop."""
    return max(COLLECTIVE_MIN_CAP_S, 3.0 * est)
