"""The probe kernels in PyTorch (eager): CPU, CUDA/ROCm, MPS and XPU.

Imported only inside a worker process. Every timing waits for the device (synchronize) at
the end of a burst of calls; outputs are written in place (out=) so no temporaries are timed.
"""

from __future__ import annotations

import functools
import math
import os
import time
from typing import TYPE_CHECKING, Any

import torch

from gpu_tpu_app.shared.terms import DTYPES, ELEM_BYTES, ONE_THREAD
from gpu_tpu_app.shared.trust import ONE_THREAD_REF_N as ONE_THREAD_MAX_N
from gpu_tpu_app.shared.units import format_value
from gpu_tpu_app.worker.kernels import common
from gpu_tpu_app.worker.kernels.common import BlockShape
from gpu_tpu_app.worker.kernels.stats import CAP_MARGIN, Timing, measure
from gpu_tpu_app.worker.kernels.torch_collective import _collective
from gpu_tpu_app.worker.notes import join, note

if TYPE_CHECKING:  # pragma: no cover
    from gpu_tpu_app.worker.kernels.point import Context, Point
    from gpu_tpu_app.worker.wire import DeviceInfo, ProbeResult

_THREADS: int | None = None


def configure_threads() -> int:
    """Let torch's CPU kernels use every core this process may run on; returns the thread count."""
    global _THREADS
    if _THREADS is None:
        _THREADS = common.usable_cores()
        torch.set_num_threads(_THREADS)
    return _THREADS


def torch_device(info: DeviceInfo) -> torch.device:
    """The torch.device for a DeviceInfo."""
    plat = info.platform
    if plat == "cpu":
        return torch.device("cpu")
    if plat in ("cuda", "rocm", "gpu"):
        return torch.device("cuda", info.index)
    if plat == "mps":
        return torch.device("mps")
    if plat == "xpu":
        return torch.device("xpu", info.index)
    raise ValueError(f"torch cannot measure platform {plat!r}")


def synchronizer(dev: torch.device) -> Any:
    """A callable that waits until `dev` has finished its queued work (None on the CPU)."""
    if dev.type == "cuda":
        return lambda: torch.cuda.synchronize(dev)
    if dev.type == "mps":
        return torch.mps.synchronize
    if dev.type == "xpu":
        return lambda: torch.xpu.synchronize(dev)
    return None


def _dtype(name: str) -> torch.dtype:
    return {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}[name]


def _randn(shape: tuple[int, ...], dtype: str, dev: torch.device, seed: int) -> torch.Tensor:
    """Seeded normal random data (never zeros: zeros draw less power and flatter the figures)."""
    gen = torch.Generator(device="cpu").manual_seed(seed)
    if dev.type == "cuda":
        gen = torch.Generator(device=dev).manual_seed(seed)
        return torch.randn(shape, generator=gen, device=dev, dtype=torch.float32).to(_dtype(dtype))
    return torch.randn(shape, generator=gen, dtype=torch.float32).to(device=dev, dtype=_dtype(dtype))


#: Elements of seeded normal data that copy/triad arrays repeat (one home for both backends: common.py).
STREAM_BLOCK = common.STREAM_BLOCK


def stream_array(n: int, dev: torch.device, seed: int) -> torch.Tensor:
    """n float32 elements for copy/triad: a seeded normal block of STREAM_BLOCK, repeated (never zeros)."""
    block = _randn((min(n, STREAM_BLOCK),), "float32", dev, seed)
    if n <= STREAM_BLOCK:
        return block
    out = torch.empty(n, dtype=torch.float32, device=dev)
    whole = n // STREAM_BLOCK
    out[: whole * STREAM_BLOCK].view(whole, STREAM_BLOCK).copy_(block)  # broadcast: one pass, no index math
    out[whole * STREAM_BLOCK :].copy_(block[: n - whole * STREAM_BLOCK])
    return out


def math_mode(dev: torch.device, dtype: str) -> str:
    """How torch multiplies this dtype on this device, from its settings and the environment."""
    if dev.type == "cpu":
        if dtype == "float32":
            return "fp32 (MKL)" if torch.backends.mkl.is_available() else "fp32"
        if dtype == "bfloat16":
            return common.cpu_bf16_mode()
        return "fp16 (CPU)"
    if dev.type == "cuda":
        hip = bool(getattr(torch.version, "hip", None))
        capability = None if hip else tuple(torch.cuda.get_device_capability(dev))
        return common.torch_math_mode(
            "rocm" if hip else "cuda",
            dtype,
            allow_tf32=bool(torch.backends.cuda.matmul.allow_tf32),
            precision=torch.get_float32_matmul_precision(),
            capability=capability,  # type: ignore[arg-type]  # CUDA capabilities are (major, minor) pairs
            env=dict(os.environ),
        )
    return common.torch_math_mode(dev.type, dtype)


class CudaMemory:
    """Free memory on a CUDA/ROCm device as torch can use it: the driver's free bytes plus the blocks
    torch's caching allocator holds but does not use. `api` is torch.cuda (a fake in tests)."""

    def __init__(self, api: Any, dev: Any) -> None:
        self.api, self.dev = api, dev

    def free(self) -> int:
        free, _total = self.api.mem_get_info(self.dev)
        cached = int(self.api.memory_reserved(self.dev)) - int(self.api.memory_allocated(self.dev))
        return int(free) + max(0, cached)

    def fits(self, need: int, fraction: float) -> tuple[bool, int]:
        """Whether `need` bytes fit in `fraction` of the free memory; empties the cache before saying no."""
        free = self.free()
        if need <= fraction * free:
            return True, free
        self.api.empty_cache()  # hand cached blocks back, then look again
        free = self.free()
        return need <= fraction * free, free


def _fits(dev: torch.device, need: int, fraction: float) -> tuple[bool, int | None]:
    """Whether a point's `need` bytes fit in `fraction` of what is free on `dev` (None: cannot tell)."""
    if dev.type == "cuda":
        return CudaMemory(torch.cuda, dev).fits(need, fraction)
    if dev.type == "cpu":
        free = common.host_available_bytes()
        return (free is None or need <= fraction * free), free
    return True, None


def pin_kwargs(version: str, dev_type: str) -> dict[str, Any]:
    """Arguments to Tensor.pin_memory() for `dev_type`: before torch 2.5 it pins for CUDA unless told the device."""
    try:
        major, minor = (int(p) for p in version.split("+")[0].split(".")[:2])
    except ValueError:
        major, minor = 0, 0
    return {"device": dev_type} if dev_type == "xpu" and (major, minor) < (2, 5) else {}


def _threads_note(dev: torch.device) -> str | None:
    return note("common.threads", threads=torch.get_num_threads()) if dev.type == "cpu" else None


def _join(*parts: str | None) -> str | None:
    return join(*parts)


# ---------------------------------------------------------------- kernels


def _matmul(point: Point, ctx: Context, dev: torch.device, clock: common.PointClock) -> list[ProbeResult]:
    n, dtype = int(point.size or 0), point.dtype or "float32"
    mode = math_mode(dev, dtype)
    need = 3 * n * n * ELEM_BYTES[dtype]
    fits, free = _fits(dev, need, common.MATMUL_MEMORY_FRACTION)
    skip = common.matmul_memory_skip(point, need, free, mode, fits=fits)
    if skip is not None:
        return skip
    a = _randn((n, n), dtype, dev, common.SEED)
    b = _randn((n, n), dtype, dev, common.SEED + 1)
    c = torch.empty((n, n), dtype=_dtype(dtype), device=dev)

    def product() -> Any:
        return torch.matmul(a, b, out=c)

    kwargs = common.measure_kwargs(point, ctx, dev.type != "cpu", clock)
    wants_single = _wants_one_thread(point, ctx, dev)
    if wants_single:  # the reference's share of the cap is kept for it, after the loop
        kwargs["cap_s"] = point.cap_s * (1.0 - ONE_THREAD_CAP_SHARE)
    timing = measure(product, sync=synchronizer(dev), **kwargs)
    if not timing.times:
        return []
    single = None
    if wants_single:
        ref_n = min(n, ONE_THREAD_MAX_N)
        if ref_n == n:
            single = _one_thread(point, ctx, dev, product, mode, timing, clock)
        else:  # a larger point: the reference size's product on one thread, its own arrays (views of these)
            ra, rb = a[:ref_n, :ref_n].contiguous(), b[:ref_n, :ref_n].contiguous()
            rc = torch.empty((ref_n, ref_n), dtype=_dtype(dtype), device=dev)
            per_call = min(timing.times) * (ref_n / n) ** 3  # the loop's fastest call, scaled to the smaller product
            single = _one_thread(
                point,
                ctx,
                dev,
                lambda: torch.matmul(ra, rb, out=rc),
                mode,
                timing,
                clock,
                size=ref_n,
                call_s=per_call,
            )
    main = common.result(
        point,
        ctx,
        metric="flops",
        timing=timing,
        work=common.matmul_flops(n),
        math_mode=mode,
        message=_threads_note(dev),
    )
    return [main] if single is None else [main, single]


#: The share of a point's cap kept for its one-thread reference (its own loop: short rounds, 3 samples),
#: timed after the multi-threaded loop; the reference may run past that share up to ONE_THREAD_MAX_S,
#: when the loop's per-call time shows that 3 samples on one thread need longer.
ONE_THREAD_CAP_SHARE = 0.25
ONE_THREAD_MAX_S = 0.4
_ONE_THREAD_REPS = 3


def _wants_one_thread(point: Point, ctx: Context, dev: torch.device) -> bool:
    return bool(getattr(point, "one_thread", False)) and dev.type == "cpu" and torch.get_num_threads() >= 2


def _one_thread(
    point: Point,
    ctx: Context,
    dev: torch.device,
    product: Any,
    mode: str,
    multi: Timing,
    clock: common.PointClock,
    size: int | None = None,
    call_s: float | None = None,
) -> ProbeResult | None:
    """The same product on one thread, timed after the multi-threaded loop (`multi`) and within the point's
    cap, where the plan asks for it (Point.one_thread): a multi-threaded rate below it is stalled.

    Its cap is what the point's cap has left, and at least what a warm-up and _ONE_THREAD_REPS samples
    take on one thread by the loop's own per-call time (threads x the fastest call bounds one thread's
    call), up to ONE_THREAD_MAX_S: before, a 1024 product on one thread got 2 samples in its fixed share
    and was no reference.

    `size`: the product's size when it is not the point's (a point above ONE_THREAD_MAX_N times the product
    of that size); `call_s`: its fastest call on all threads (by default the loop's)."""
    n = int(size or point.size or 0)
    threads = torch.get_num_threads()
    if ctx.cancelled():
        return None
    left = point.cap_s * CAP_MARGIN - (time.perf_counter() - clock.start)
    fastest = min(multi.times) if call_s is None else call_s
    needed = (_ONE_THREAD_REPS + 2) * threads * fastest / CAP_MARGIN
    cap = min(ONE_THREAD_MAX_S, max(left / CAP_MARGIN, needed, 0.0))
    if cap <= 0:
        return None
    torch.set_num_threads(1)
    try:
        timing = measure(
            product, target_s=min(0.05, point.target_s), cap_s=cap, cancelled=ctx.cancelled, min_reps=_ONE_THREAD_REPS
        )
    finally:
        torch.set_num_threads(threads)
    if not timing.times:
        return None
    result = common.result(
        point,
        ctx,
        metric="flops",
        timing=timing,
        work=common.matmul_flops(n),
        variant=ONE_THREAD,
        math_mode=mode,
        message=note("torch.one_thread", threads=threads)
        if n == point.size
        else note("torch.one_thread_for", threads=threads, n=n),
    )
    # a smaller product's rate is filed under the point's own size: the run keeps one reference per point
    # (a second 1024 one-thread result would read as a second try of the 1024 point's and replace it)
    return result


def _stream(point: Point, ctx: Context, dev: torch.device, clock: common.PointClock) -> list[ProbeResult]:
    n = int(point.size or 0)
    arrays = common.STREAM_ARRAYS[point.kernel]
    need = arrays * n * 4
    fits, free = _fits(dev, need, 0.5)
    if not fits:
        reason = note("common.stream_memory", need=common.mib(need), free=common.mib(free or 0))
        return [common.skipped(point, "bytes_per_s", reason)]
    b = stream_array(n, dev, common.SEED)
    c = stream_array(n, dev, common.SEED + 1) if point.kernel == "triad" else b
    a = torch.empty_like(b)
    scalar = 3.0
    if point.kernel == "copy":

        def fn() -> Any:
            return a.copy_(b)
    else:

        def fn() -> Any:
            return torch.add(b, c, alpha=scalar, out=a)  # a = b + s*c, one pass, no temporary

    timing = measure(fn, sync=synchronizer(dev), **common.measure_kwargs(point, ctx, dev.type != "cpu", clock))
    if not timing.times:
        return []
    work = common.stream_bytes(point.kernel, n, 4)
    arrays_note = common.stream_note(ctx, arrays, n)
    return [
        common.result(
            point, ctx, metric="bytes_per_s", timing=timing, work=work, message=_join(arrays_note, _threads_note(dev))
        )
    ]


def _transfer(point: Point, ctx: Context, dev: torch.device, clock: common.PointClock) -> list[ProbeResult]:
    if dev.type == "cpu":
        return [common.skipped(point, "bytes_per_s", note("common.not_on_cpu"))]
    nbytes = int(point.size or 0)
    n = nbytes // 4
    variant = point.variant or "h2d-pageable"
    pinned = variant.endswith("pinned")
    host = torch.randn(n, generator=torch.Generator().manual_seed(common.SEED))
    if pinned:
        host = host.pin_memory(**pin_kwargs(str(torch.__version__), dev.type))
    on_dev = torch.empty(n, device=dev)
    sync = synchronizer(dev)
    if variant.startswith("h2d"):

        def fn() -> Any:
            return on_dev.copy_(host, non_blocking=pinned)
    else:
        on_dev.copy_(host)

        def fn() -> Any:
            return host.copy_(on_dev, non_blocking=pinned)

    timing = measure(fn, sync=sync, **common.measure_kwargs(point, ctx, True, clock))
    if not timing.times:
        return []
    way = "from" if variant.startswith("h2d") else "into"
    return [
        common.result(
            point,
            ctx,
            metric="bytes_per_s",
            timing=timing,
            work=float(n * 4),
            message=note(f"torch.{way}_{'pinned' if pinned else 'pageable'}", size=common.mib(n * 4)),
        )
    ]


def _dispatch(point: Point, ctx: Context, dev: torch.device, clock: common.PointClock) -> list[ProbeResult]:
    x = _randn((1,), "float32", dev, common.SEED)
    timing = measure(
        lambda: x + 1, sync=synchronizer(dev), **common.measure_kwargs(point, ctx, dev.type != "cpu", clock)
    )
    if not timing.times:
        return []
    return [
        common.result(
            point,
            ctx,
            metric="seconds",
            timing=timing,
            message=note("torch.dispatch", calls=timing.inner),
        )
    ]


def _compile(point: Point, ctx: Context, dev: torch.device, clock: common.PointClock) -> list[ProbeResult]:
    return [
        common.skipped(
            point,
            "seconds",
            note("torch.no_compile"),
        )
    ]


def _block_params(shape: BlockShape, dtype: str, dev: torch.device) -> dict[str, torch.Tensor]:
    d, f = shape.d_model, shape.mlp * shape.d_model
    gen = torch.Generator().manual_seed(common.SEED)

    def w(rows: int, cols: int) -> torch.Tensor:
        t = torch.randn(rows, cols, generator=gen) / math.sqrt(rows)
        return t.to(device=dev, dtype=_dtype(dtype)).requires_grad_(True)

    def vec(val: float) -> torch.Tensor:
        return torch.full((d,), val, device=dev, dtype=_dtype(dtype)).requires_grad_(True)

    return {
        "ln1_w": vec(1.0),
        "ln1_b": vec(0.0),
        "w_qkv": w(d, 3 * d),
        "w_o": w(d, d),
        "ln2_w": vec(1.0),
        "ln2_b": vec(0.0),
        "w_1": w(d, f),
        "w_2": w(f, d),
    }


def block_forward(x: torch.Tensor, p: dict[str, torch.Tensor], heads: int) -> torch.Tensor:
    """Pre-norm transformer block: x + attn(ln(x)), then + mlp(ln(x)); no biases in the projections."""
    fn = torch.nn.functional
    bsz, seq, d = x.shape
    dh = d // heads
    h = fn.layer_norm(x, (d,), p["ln1_w"], p["ln1_b"])
    q, k, v = (h @ p["w_qkv"]).split(d, dim=-1)
    q, k, v = (t.reshape(bsz, seq, heads, dh).transpose(1, 2) for t in (q, k, v))
    att = torch.softmax((q @ k.transpose(-2, -1)) * (dh**-0.5), dim=-1)
    o = (att @ v).transpose(1, 2).reshape(bsz, seq, d)
    x = x + o @ p["w_o"]
    h = fn.layer_norm(x, (d,), p["ln2_w"], p["ln2_b"])
    return x + fn.gelu(h @ p["w_1"]) @ p["w_2"]


def _model_step(point: Point, ctx: Context, dev: torch.device, clock: common.PointClock) -> list[ProbeResult]:
    shape = BlockShape.parse(point.variant or "")
    dtype = point.dtype or "float32"
    params = _block_params(shape, dtype, dev)
    x = _randn((shape.batch, shape.seq, shape.d_model), dtype, dev, common.SEED + 7)

    def step() -> None:
        for t in params.values():
            t.grad = None
        out = block_forward(x, params, shape.heads)
        out.float().square().mean().backward()

    timing = measure(step, sync=synchronizer(dev), **common.measure_kwargs(point, ctx, dev.type != "cpu", clock))
    if not timing.times:
        return []
    work = shape.step_flops()
    return [
        _model_result(point, ctx, timing, work, math_mode(dev, dtype), note("torch.model_step"), _threads_note(dev))
    ]


def _model_result(point: Point, ctx: Context, timing: Any, work: float, mode: str, *notes: str | None) -> ProbeResult:
    res = common.result(point, ctx, metric="flops", timing=timing, work=work, math_mode=mode)
    best = common.best_measured(ctx, "matmul", point.dtype)
    parts = [note("common.step_flops", gflop=f"{work / 1e9:.2f}"), *notes]
    if best and res.value:
        parts.append(
            note(
                "common.share_of_best",
                pct=f"{100 * res.value / best:.0f}",
                dtype=point.dtype,
                best=format_value(best, "flops"),
            )
        )
    else:
        parts.append(note("common.no_best", dtype=point.dtype))
    if res.message:
        parts.append(res.message)
    return res.model_copy(update={"message": _join(*parts)})


# ---------------------------------------------------------------- dispatch

_KERNELS = {
    "matmul": _matmul,
    "copy": _stream,
    "triad": _stream,
    "transfer": _transfer,
    "dispatch": _dispatch,
    "compile": _compile,
    "collective": _collective,
    "model_step": _model_step,
}


def warm_up(info: DeviceInfo, dtypes: tuple[str, ...] = DTYPES) -> float:
    """Create the device's context and BLAS handles with a first small product per dtype; returns seconds.

    The worker calls this once before point 1, outside every point's cap: CUDA/HIP context creation,
    cuBLAS / hipBLAS initialisation (and PTX JIT for an architecture the wheel lacks) land here.
    """
    t0 = time.perf_counter()
    configure_threads()
    dev = torch_device(info)
    sync = synchronizer(dev) or (lambda: None)
    if dev.type == "cpu":
        dtypes = ("float32",)  # nothing to create on a CPU beyond the BLAS threads
    with torch.no_grad():
        for name in dtypes:
            try:
                x = torch.ones(256, 256, dtype=_dtype(name), device=dev)
                torch.matmul(x, x)
                sync()
            except Exception:  # a dtype the device lacks: the plan says so per point
                continue
    return time.perf_counter() - t0


def run(point: Point, ctx: Context) -> list[ProbeResult]:
    """Measure one point with torch on ctx.device."""
    clock = common.PointClock()
    configure_threads()
    dev = torch_device(ctx.device)
    with torch.no_grad() if point.kernel != "model_step" else torch.enable_grad():
        return _KERNELS[point.kernel](point, ctx, dev, clock)


def calibrate(info: DeviceInfo, dtypes: list[str], n: int, mm: Any = None) -> dict[str, float]:
    """Measured FLOP/s of one small n×n product per dtype, timed before the plan is made (`mm`: the
    product, torch.matmul unless a test slows it on purpose). A dtype that fails is left out."""
    dev = torch_device(info)
    sync = synchronizer(dev) or (lambda: None)
    product = mm or torch.matmul
    rates: dict[str, float] = {}
    with torch.no_grad():
        for name in dtypes:
            try:
                a = _randn((n, n), name, dev, common.SEED)
                b = _randn((n, n), name, dev, common.SEED + 1)
                rate = common.calibrated_rate(functools.partial(product, a, b), sync, common.matmul_flops(n))
            except Exception:  # the dtype's own points meet the problem and report it
                continue
            if rate is not None:
                rates[name] = rate
    return rates
