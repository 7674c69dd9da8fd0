"""What the torch and JAX kernels share: work accounting, host facts, model shapes and result building.

No torch or jax here: the formulas are written once so both frameworks count the same work.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gpu_tpu_app.core.runs import ProbeResult
from gpu_tpu_app.core.wording import format_value
from gpu_tpu_app.probe.kernels.stats import Timing, rates, summarize

if TYPE_CHECKING:  # pragma: no cover
    from gpu_tpu_app.probe.kernels import Context, Point

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
    these sizes to the suite's time and memory (kernels.stream_plan).
    """
    if suite == "smoke" and platform == "cpu":
        return [1 << 20]
    if platform == "cpu":
        per_array = 4 * (llc or llc_bytes())
    else:
        per_array = max(DEVICE_STREAM_BYTES, 4 * llc) if llc else DEVICE_STREAM_BYTES
    elements = 1 << max(20, (per_array // 4 - 1).bit_length())
    return [elements, 2 * elements] if suite == "full" else [elements]


def device_llc(device: Any) -> int | None:
    """The last-level cache a DeviceInfo describes: its CPU's highest data cache, or the device's own."""
    cpu = getattr(device, "cpu", None)
    if cpu is not None and cpu.caches:
        levels = {k: v for k, v in cpu.caches.items() if not k.endswith("i")}
        if levels:
            return levels[max(levels, key=lambda name: int(name[1:].rstrip("d")))]
    return getattr(device, "cache_bytes", None)


def stream_note(ctx: Context, arrays: int, elements: int) -> str:
    """'3 arrays × 512 MiB (2.0× LLC, partly in cache: not DRAM bandwidth)' for a copy/triad result."""
    note = f"{arrays} arrays × {mib(elements * 4)}"
    llc = device_llc(ctx.device)
    if llc is None and ctx.device.platform == "cpu":
        llc = llc_bytes()
    if not llc:
        return note
    ratio = elements * 4 / llc
    memory = "DRAM" if ctx.device.platform == "cpu" else "device memory"
    return note + f" ({ratio:.1f}× LLC{'' if ratio >= 4 else f', partly in cache: not {memory} bandwidth'})"


def cpu_bf16_mode(flags: set[str] | None = None) -> str:
    """How oneDNN multiplies bf16 on this CPU: AMX tiles, AVX-512 BF16 or emulation."""
    flags = cpu_flags() if flags is None else flags
    if "amx_bf16" in flags:
        return "bf16 (oneDNN, AMX)"
    if "avx512_bf16" in flags:
        return "bf16 (oneDNN, AVX512-BF16)"
    return "bf16 (emulated through fp32)"


# ---------------------------------------------------------------- results

#: Best matmul FLOP/s seen in this process, per (device key, dtype): model_step's ceiling.
_BEST: dict[tuple[str, str | None], float] = {}


def note_best(device: str, kernel: str, dtype: str | None, value: float) -> None:
    """Remember a measured rate so later points (model_step) can compare against it."""
    key = (device, f"{kernel}/{dtype}")
    if value > _BEST.get(key, 0.0):
        _BEST[key] = value  # type: ignore[index]


def best_measured(ctx: Context, kernel: str, dtype: str | None) -> float | None:
    """Best rate of `kernel`/`dtype` on ctx's device in this run: ctx.best_measured if given, else this process's."""
    given = getattr(ctx, "best_measured", None) or {}
    candidates = [given.get((kernel, dtype)), _BEST.get((ctx.device.key, f"{kernel}/{dtype}"))]  # type: ignore[call-overload]
    values = [float(v) for v in candidates if v]
    return max(values) if values else None


def peak_for(ctx: Context, metric: str, kernel: str, dtype: str | None, math_mode: str | None) -> float | None:
    """The catalogue peak a result is compared against, or None (CPU, unknown chip, or no peak for it)."""
    if metric == "bytes_per_s":
        return ctx.peak_bw if kernel in ("copy", "triad") else None
    if metric != "flops" or not dtype:
        return None
    peaks = ctx.peak_flops or {}
    mode = (math_mode or "").lower()
    if dtype == "float32" and "tf32" in mode:
        return peaks.get("tf32") or peaks.get("float32")
    if dtype == "float32" and "bf16" in mode:
        return peaks.get("bfloat16") or peaks.get("float32")
    return peaks.get(dtype)


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
        samples = rates(work, timing.times) if metric != "seconds" else list(timing.times)  # type: ignore[arg-type]
        seconds = timing.seconds if seconds is None else seconds
        if note := timing.note():
            notes.append(note)
    stats = summarize(samples, seconds or 0.0)
    value = stats.median
    pct_spec = None
    peak = peak_for(ctx, metric, point.kernel, point.dtype, math_mode)
    if peak:
        pct_spec = 100.0 * value / peak
        if value > peak and status == "ok":
            status = "suspect"
            notes.append(
                f"above the catalogue peak of {format_value(peak, metric)} ({pct_spec:.0f}%): the timing or the "
                "catalogue entry is wrong, not a record"
            )
    if status == "ok" and metric == "flops" and point.kernel == "matmul":
        note_best(point.device, point.kernel, point.dtype, value)
    return ProbeResult(
        **_point_fields(point, metric, variant),
        value=value,
        stats=stats,
        math_mode=math_mode,
        status=status,  # type: ignore[arg-type]
        message="; ".join(notes) or None,
        pct_spec=pct_spec,
    )


def _point_fields(point: Point, metric: str, variant: str | None) -> dict[str, Any]:
    """The fields every result takes from the point it measures."""
    return {
        "kernel": point.kernel, "backend": point.backend, "device": point.device, "dtype": point.dtype,
        "size": point.size, "variant": variant if variant is not None else point.variant,
        "metric": metric, "unit": UNITS[metric],
    }


def skipped(point: Point, metric: str, reason: str, *, variant: str | None = None,
            math_mode: str | None = None) -> ProbeResult:  # fmt: skip
    """A result that says why this point was not measured here."""
    return ProbeResult(
        **_point_fields(point, metric, variant),
        value=None,
        math_mode=math_mode,
        status="skipped",
        message=reason,
    )


def mib(nbytes: float) -> str:
    """'128 MiB' style text."""
    return f"{nbytes / 1024**2:.0f} MiB" if nbytes >= 1024**2 else f"{nbytes / 1024:.0f} KiB"


_POINT_START: list[float | None] = [None]


def begin_point() -> None:
    """Mark the start of a point: its set-up time counts against its cap."""
    _POINT_START[0] = time.perf_counter()


def point_elapsed() -> float:
    """Seconds since begin_point()."""
    start = _POINT_START[0]
    return 0.0 if start is None else time.perf_counter() - start


def measure_kwargs(point: Point, ctx: Context, accelerator: bool) -> dict[str, Any]:
    """The measuring loop's settings for a point: target, cap (counted from begin_point), cancel flag, burst."""
    return {
        "start": _POINT_START[0],
        "target_s": point.target_s,
        "cap_s": point.cap_s,
        "cancelled": ctx.cancelled,
        "min_sample_s": 2e-3 if accelerator else 1e-3,
        "min_reps": 3 if point.target_s < 0.1 else 5,
    }
