"""What the torch and JAX kernels share: work accounting, host facts, model shapes and result building.

No torch or jax here: the formulas are written once so both frameworks count the same work.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gpu_tpu_app.shared.trust import device_llc
from gpu_tpu_app.shared.units import format_value
from gpu_tpu_app.worker.kernels.stats import Timing, rates, summarize
from gpu_tpu_app.worker.notes import join, note
from gpu_tpu_app.worker.wire import ProbeResult

if TYPE_CHECKING:  # pragma: no cover
    from gpu_tpu_app.worker.kernels.point import Context, Point

SEED = 20240611
UNITS = {"flops": "FLOP/s", "bytes_per_s": "B/s", "seconds": "s"}
#: Last-level cache assumed when the OS does not say.
LLC_FALLBACK = 32 * 1024**2
#: Working sets on accelerators: at least this per array (caches there are tens of MiB).
DEVICE_STREAM_BYTES = 256 * 1024**2
#: Fraction of free memory a matmul's three N×N matrices may take.
MATMUL_MEMORY_FRACTION = 0.4

# ---------------------------------------------------------------- work accounting


def matmul_flops(n: int) -> float:
    """FLOPs of an N×N by N×N matrix product: 2·N³ (one multiply and one add per term)."""
    return 2.0 * float(n) ** 3


STREAM_ARRAYS = {"copy": 2, "triad": 3}
#: Elements of seeded normal data that a copy/triad array repeats: the values do not change the bytes
#: moved, and drawing 32M normals takes 0.3-2 s per array on a CPU core against ~0.1 s to repeat a block.
STREAM_BLOCK = 1 << 20


def stream_bytes(kernel: str, elements: int, elem_bytes: int) -> float:
    """Bytes STREAM counts per call: copy reads one array and writes one (2), triad a = b + s·c (3)."""
    return float(STREAM_ARRAYS[kernel] * elements * elem_bytes)


def bus_bandwidth(alg_bw: float, ranks: int) -> float:
    """All-reduce bus bandwidth from algorithm bandwidth: algbw · 2(n-1)/n (the nccl-tests convention)."""
    return alg_bw * 2.0 * (ranks - 1) / ranks if ranks > 1 else 0.0


@dataclass(frozen=True)
class BlockShape:
    """Shapes of the transformer block used by model_step, identical in torch and JAX."""

    batch: int
    seq: int
    d_model: int
    heads: int
    mlp: int = 4

    @property
    def tag(self) -> str:
        """Stable text form, used as the point's variant: 'b8-s256-d512-h8'."""
        return f"b{self.batch}-s{self.seq}-d{self.d_model}-h{self.heads}"

    @classmethod
    def parse(cls, tag: str) -> BlockShape:
        """Inverse of `tag`."""
        m = re.fullmatch(r"b(\d+)-s(\d+)-d(\d+)-h(\d+)", tag or "")
        if not m:
            raise ValueError(f"not a block shape: {tag!r} (expected like 'b8-s256-d512-h8')")
        b, s, d, h = (int(g) for g in m.groups())
        if d % h:
            raise ValueError(f"d_model {d} is not a multiple of heads {h}")
        return cls(b, s, d, h)

    def forward_flops(self) -> float:
        """Matmul FLOPs of one forward pass, T = batch·seq tokens, d = d_model.

        QKV projection 6·T·d², attention scores and weighted sum 4·batch·seq²·d, output
        projection 2·T·d², MLP 2·2·T·d·(mlp·d) = 16·T·d² for mlp = 4. Layer norms, softmax and
        GELU are left out (a few percent at these sizes), as MFU accounting usually does.
        """
        t = self.batch * self.seq
        d = self.d_model
        return 6.0 * t * d * d + 4.0 * self.batch * self.seq**2 * d + 2.0 * t * d * d + 4.0 * self.mlp * t * d * d

    def step_flops(self) -> float:
        """Forward + backward: the backward pass costs twice the forward (gradients for inputs and weights)."""
        return 3.0 * self.forward_flops()


MODEL_SHAPES = {
    "smoke": BlockShape(2, 64, 128, 2),
    "quick": BlockShape(4, 128, 256, 4),
    "full": BlockShape(8, 256, 512, 8),
}

# ---------------------------------------------------------------- host facts


def usable_cores() -> int:
    """CPUs this process may run on (its affinity mask), else the CPU count."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def parse_size(text: str) -> int | None:
    """Bytes in a sysfs cache size such as "32K" or "1024K"; None when it cannot be read."""
    text = text.strip().upper()
    mult = {"K": 1024, "M": 1024**2, "G": 1024**3}
    try:
        if text and text[-1] in mult:
            return int(float(text[:-1]) * mult[text[-1]])
        return int(text)
    except ValueError:
        return None


CACHE_DIR = "/sys/devices/system/cpu/cpu0/cache"


def cache_sizes(base: str | Path = CACHE_DIR) -> dict[str, int]:
    """The CPU caches the OS lists, by name ("L1d", "L1i", "L2", "L3") in bytes."""
    caches: dict[str, int] = {}
    for index in sorted(Path(base).glob("index*")):
        try:
            level = int((index / "level").read_text().strip())
            kind = (index / "type").read_text().strip()
            size = parse_size((index / "size").read_text())
        except (OSError, ValueError):
            continue
        if size:
            caches[f"L{level}" + {"Data": "d", "Instruction": "i"}.get(kind, "")] = size
    return caches


def llc_bytes(base: str | Path = CACHE_DIR) -> int:
    """Size of the last-level cache (the highest-level data or unified cache the OS lists), else 32 MiB."""
    data = {name: size for name, size in cache_sizes(base).items() if not name.endswith("i")}
    if not data:
        return LLC_FALLBACK
    return data[max(data, key=lambda name: int(name[1:].rstrip("d")))]


def cpu_flags() -> set[str]:
    """ISA flags of the first CPU in /proc/cpuinfo (empty where the OS does not say)."""
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return set()
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("flags", "Features"):
            return set(value.split())
    return set()


def host_available_bytes() -> int | None:
    """Memory the OS could give this process now (MemAvailable), or None."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_AVPHYS_PAGES"))
    except (ValueError, OSError, AttributeError):
        return None


def stream_elements(platform: str, suite: str, llc: int | None = None) -> list[int]:
    """Elements per float32 array for copy/triad: each array at least 4× the LLC (STREAM's rule).

    Powers of two; `full` adds a second, larger size to show that the bandwidth has saturated.
    Smoke on a CPU uses one small in-cache array and says so in the result; on an accelerator
    even smoke uses arrays well past the device's cache (milliseconds there). The planner caps
    these sizes to the suite's time and memory (planner.stream_plan).
    """
    if suite == "smoke" and platform == "cpu":
        return [1 << 20]
    if platform == "cpu":
        per_array = 4 * (llc or llc_bytes())
    else:
        per_array = max(DEVICE_STREAM_BYTES, 4 * llc) if llc else DEVICE_STREAM_BYTES
    elements = 1 << max(20, (per_array // 4 - 1).bit_length())
    return [elements, 2 * elements] if suite == "full" else [elements]


def stream_note(ctx: Context, arrays: int, elements: int) -> str:
    """'3 arrays × 512 MiB (2.0× LLC, partly in cache: not DRAM bandwidth)' for a copy/triad result."""
    size = mib(elements * 4)
    llc = device_llc(ctx.device)
    if llc is None and ctx.device.platform == "cpu":
        llc = llc_bytes()
    if not llc:
        return note("common.arrays", arrays=arrays, size=size)
    ratio = elements * 4 / llc
    if ratio >= 4:
        return note("common.arrays_llc", arrays=arrays, size=size, ratio=f"{ratio:.1f}")
    key = "common.arrays_in_cache_dram" if ctx.device.platform == "cpu" else "common.arrays_in_cache_device"
    return note(key, arrays=arrays, size=size, ratio=f"{ratio:.1f}")


def cpu_bf16_mode(flags: set[str] | None = None) -> str:
    """How oneDNN multiplies bf16 on this CPU: AMX tiles, AVX-512 BF16 or emulation."""
    flags = cpu_flags() if flags is None else flags
    if "amx_bf16" in flags:
        return "bf16 (oneDNN, AMX)"
    if "avx512_bf16" in flags:
        return "bf16 (oneDNN, AVX512-BF16)"
    return note("mode.bf16_emulated")


# ---------------------------------------------------------------- results


def best_measured(ctx: Context, kernel: str, dtype: str | None) -> float | None:
    """Best rate of `kernel`/`dtype` on ctx's device in this run (ctx.best_measured, kept by the worker), or None."""
    given = getattr(ctx, "best_measured", None) or {}
    value = given.get((kernel, dtype))
    return float(value) if value else None


#: A math-mode label's first word -> (the catalogue peak it is held against, passes per product).
MODE_PEAKS = {
    "fp32": ("float32", 1),
    "tf32": ("tf32", 1),
    "tf32x3": ("tf32", 3),
    "bf16": ("bfloat16", 1),
    "bf16x3": ("bfloat16", 3),
    "bf16x6": ("bfloat16", 6),
    "bf16x9": ("bfloat16", 9),
    "fp16": ("float16", 1),
}


def peak_for(ctx: Context, metric: str, kernel: str, dtype: str | None, math_mode: str | None) -> float | None:
    """The catalogue peak a result is compared against, or None (CPU, unknown chip, or no peak for it).

    A math mode names what really ran by its first word ("tf32 ...", "bf16x3 ...", "fp32 ..."):
    fp32 that ran as TF32 is held against the TF32 peak, 3-pass bf16 against a third of the bf16 peak.
    """
    if metric == "bytes_per_s":
        return ctx.peak_bw if kernel in ("copy", "triad") else None
    if metric != "flops" or not dtype:
        return None
    peaks = ctx.peak_flops or {}
    word = (math_mode or "").split(" ", 1)[0].lower()
    if word in MODE_PEAKS:
        key, passes = MODE_PEAKS[word]
        peak = peaks.get(key)
        return peak / passes if peak else None
    return peaks.get(dtype)


# ---------------------------------------------------------------- math modes, per platform and setting


def torch_math_mode(
    platform: str,
    dtype: str,
    *,
    allow_tf32: bool = False,
    precision: str = "highest",
    capability: tuple[int, int] | None = None,
    env: dict[str, str] | None = None,
) -> str:
    """How torch multiplies `dtype` on a CUDA, ROCm, MPS or XPU device, from its settings and the environment.

    CUDA fp32 runs as TF32 when allow_tf32 is on, the float32 matmul precision is 'high' or 'medium',
    or TORCH_ALLOW_TF32_CUBLAS_OVERRIDE=1; NVIDIA_TF32_OVERRIDE=0 turns TF32 off in cuBLAS whatever
    torch says. TF32 and bf16 tensor cores need compute capability 8.0 (T4 is 7.5, V100 7.0).
    """
    env = env or {}
    short = {"float32": "fp32", "bfloat16": "bf16", "float16": "fp16"}[dtype]
    if platform == "cuda":
        ampere = capability is not None and capability >= (8, 0)
        if dtype == "float32":
            if env.get("NVIDIA_TF32_OVERRIDE") == "0":
                return note("mode.fp32_override_off")
            why = (
                "TORCH_ALLOW_TF32_CUBLAS_OVERRIDE=1"
                if env.get("TORCH_ALLOW_TF32_CUBLAS_OVERRIDE") == "1"
                else note("mode.torch_precision", precision=precision)
                if precision in ("high", "medium")
                else "torch.backends.cuda.matmul.allow_tf32"
                if allow_tf32
                else None
            )
            if why is None:
                return note("mode.fp32_full")
            if not ampere:
                return note("mode.fp32_tf32_needs_sm80", why=why)
            return note("mode.tf32_tensor_cores", why=why)
        if dtype == "bfloat16" and not ampere:
            return note("mode.bf16_before_sm80")
        if dtype == "float16" and capability is not None and capability < (7, 0):
            return note("mode.fp16_before_sm70")
        return note("mode.tensor_cores", short=short)
    if platform == "rocm":
        if dtype == "float32":
            return note("mode.rocm_fp32")
        return note("mode.matrix_cores", short=short)
    return f"{short} ({platform})"


#: JAX's precision names, grouped as lax.Precision groups them (jax/_src/lax/lax.py).
JAX_PRECISION = {
    None: "DEFAULT",
    "": "DEFAULT",
    "default": "DEFAULT",
    "fastest": "DEFAULT",
    "bfloat16": "DEFAULT",
    "high": "HIGH",
    "bfloat16_3x": "HIGH",
    "tensorfloat32": "HIGH",
    "highest": "HIGHEST",
    "float32": "HIGHEST",
}
#: Explicit dot algorithms (jax_default_matmul_precision accepts them too) -> the label's first word.
JAX_ALGORITHMS = {
    "BF16_BF16_F32": "bf16",
    "BF16_BF16_F32_X3": "bf16x3",
    "BF16_BF16_F32_X6": "bf16x6",
    "BF16_BF16_F32_X9": "bf16x9",
    "TF32_TF32_F32": "tf32",
    "TF32_TF32_F32_X3": "tf32x3",
    "F32_F32_F32": "fp32",
}


def jax_math_mode(platform: str, dtype: str, setting: str | None, capability: str | None = None) -> str:
    """How XLA multiplies `dtype` on this platform under jax_default_matmul_precision = `setting`.

    float32 only: TPU does 1, 3 or 6 bf16 passes for DEFAULT, HIGH, HIGHEST; GPU uses TF32 for
    DEFAULT and HIGH where the chip has it (compute capability 8.0+) and full fp32 for HIGHEST;
    the CPU always multiplies in fp32.
    """
    short = {"float32": "fp32", "bfloat16": "bf16", "float16": "fp16"}[dtype]
    named = note("mode.jax_precision", setting=setting or "default")
    if platform == "cpu":
        return f"{short} (XLA CPU)"
    if dtype != "float32":
        return note("mode.accumulate", short=short)
    if setting in JAX_ALGORITHMS:
        return note("mode.dot_algorithm", short=JAX_ALGORITHMS[setting], setting=setting)
    group = JAX_PRECISION.get(setting.lower() if setting else setting)
    if group is None:
        return note("mode.unmapped", named=named)
    if platform == "tpu":
        return {
            "DEFAULT": note("mode.tpu_one_pass", named=named),
            "HIGH": note("mode.tpu_three_passes", named=named),
            "HIGHEST": note("mode.tpu_six_passes", named=named),
        }[group]
    try:
        major = int(str(capability).split(".")[0])
    except (TypeError, ValueError):
        major = 0  # ROCm reports a gfx name: no TF32 in XLA there
    if group != "HIGHEST" and major >= 8:
        return note("mode.gpu_tf32", named=named)
    return note("mode.gpu_fp32", named=named)


def result(
    point: Point,
    ctx: Context,
    *,
    metric: str,
    timing: Timing | None = None,
    work: float | None = None,
    samples: Sequence[float] | None = None,
    seconds: float | None = None,
    variant: str | None = None,
    math_mode: str | None = None,
    message: str | None = None,
    status: str = "ok",
) -> ProbeResult:
    """A ProbeResult for a point: value = median, stats in the result's SI unit, % of spec, suspect flag.

    Rates come from `timing` and `work` (work per call / seconds per call, per sample); times from
    `timing` alone, or explicit `samples` in the metric's unit.
    """
    notes = [m for m in (message, getattr(point, "note", None)) if m]
    if samples is None:
        if timing is None or not timing.times:
            raise ValueError("a result needs timing samples")
        samples = rates(work, timing.times) if metric != "seconds" else list(timing.times)  # type: ignore[arg-type]  # times are floats; Timing types them as a sequence of numbers
        seconds = timing.seconds if seconds is None else seconds
        if ended := timing.note():
            notes.append(ended)
    stats = summarize(samples, seconds or 0.0)
    value = stats.median
    pct_spec = None
    peak = peak_for(ctx, metric, point.kernel, point.dtype, math_mode)
    if peak:
        pct_spec = 100.0 * value / peak
        if value > peak and status == "ok":
            status = "suspect"
            notes.append(note("common.above_peak", peak=format_value(peak, metric), pct=f"{pct_spec:.0f}"))
    return ProbeResult(
        **_point_fields(point, metric, variant),
        value=value,
        stats=stats,
        math_mode=math_mode,
        status=status,
        message=join(*notes),
        pct_spec=pct_spec,
    )


def _point_fields(point: Point, metric: str, variant: str | None) -> dict[str, Any]:
    """The fields every result takes from the point it measures."""
    return {
        "kernel": point.kernel,
        "backend": point.backend,
        "device": point.device,
        "dtype": point.dtype,
        "size": point.size,
        "variant": variant if variant is not None else point.variant,
        "metric": metric,
        "unit": UNITS[metric],
    }


def skipped(
    point: Point, metric: str, reason: str, *, variant: str | None = None, math_mode: str | None = None
) -> ProbeResult:
    """A result that says why this point was not measured here."""
    return ProbeResult(
        **_point_fields(point, metric, variant),
        value=None,
        math_mode=math_mode,
        status="skipped",
        message=reason,
    )


def matmul_memory_skip(
    point: Point, need: int, free: int | None, math_mode: str, fits: bool | None = None
) -> list[ProbeResult] | None:
    """The skipped result of a matmul point whose three N×N arrays (`need` bytes) do not fit, or None.

    `fits` is the backend's own answer where it has one (CUDA's allocator); otherwise the point fits
    when `free` is unknown or `need` is at most MATMUL_MEMORY_FRACTION of it.
    """
    if fits is None:
        fits = free is None or need <= MATMUL_MEMORY_FRACTION * free
    if fits:
        return None
    reason = note("common.matmul_memory", need=mib(need), share=f"{MATMUL_MEMORY_FRACTION:.0%}", free=mib(free or 0))
    return [skipped(point, "flops", reason, math_mode=math_mode)]


def mib(nbytes: float) -> str:
    """'128 MiB' style text."""
    return f"{nbytes / 1024**2:.0f} MiB" if nbytes >= 1024**2 else f"{nbytes / 1024:.0f} KiB"


@dataclass
class PointClock:
    """When the point's measuring clock started: its set-up counts against its cap, a compile before it does not."""

    start: float = field(default_factory=time.perf_counter)
    #: seconds spent before restart(): compile, autotune, data on the device (reported, outside the cap)
    before_s: float = 0.0

    def restart(self) -> float:
        """Start the cap's clock now; returns (and keeps) the seconds spent since the point began."""
        now = time.perf_counter()
        self.before_s += now - self.start
        self.start = now
        return self.before_s

    def elapsed(self) -> float:
        """Seconds on the cap's clock."""
        return time.perf_counter() - self.start


def measure_kwargs(point: Point, ctx: Context, accelerator: bool, clock: PointClock) -> dict[str, Any]:
    """The measuring loop's settings for a point: target, cap (counted from clock.start), cancel flag, burst."""
    return {
        "start": clock.start,
        "target_s": point.target_s,
        "cap_s": point.cap_s,
        "cancelled": ctx.cancelled,
        "min_sample_s": 2e-3 if accelerator else 1e-3,
        "min_reps": 3 if point.target_s < 0.1 else 5,
    }


#: Samples each phase of the JAX compile point takes at least (jax_kernels._compile; the planner's estimate).
COMPILE_PHASE_MIN_REPS = 3

#: Most seconds the calibration of one dtype may take (its first call may run past it, then it stops).
CALIBRATION_S = 0.3


def calibrated_rate(call: Any, sync: Any, work: float, limit_s: float = CALIBRATION_S) -> float | None:
    """Work per second of `call` (one small product): a first call (a compile, a cold cache) that does not
    count, then at least one more and up to 9 while `limit_s` lasts; the fastest counts. None when the
    time is not positive."""
    started = time.perf_counter()
    call()
    sync()
    times: list[float] = []
    while not times or (len(times) < 9 and time.perf_counter() - started < limit_s):
        t0 = time.perf_counter()
        call()
        sync()
        times.append(time.perf_counter() - t0)
    fastest = min(times)  # what the dtype can do: a call stalled by a busy machine does not count
    return work / fastest if fastest > 0 else None
