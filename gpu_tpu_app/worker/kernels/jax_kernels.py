"""The probe kernels in JAX (jitted): CPU, GPU and TPU.

Imported only inside a worker process. JAX dispatches asynchronously, so every timed burst
ends with block_until_ready(). Outputs reuse a donated buffer where the op allows it, the
counterpart of torch's out=: a fresh output per call would time page faults, not the op.
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Any

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

import jax
import jax.numpy as jnp
import numpy as np

from gpu_tpu_app.shared.terms import ELEM_BYTES
from gpu_tpu_app.shared.units import format_value
from gpu_tpu_app.worker.kernels import common
from gpu_tpu_app.worker.kernels.common import BlockShape
from gpu_tpu_app.worker.kernels.jax_data import (
    HELD,
    block_inputs,
    held_input,
    held_output,
    held_stream,
    out_key,
    randn,
    wanted,
    where,
    where_args,
)
from gpu_tpu_app.worker.kernels.stats import CAP_MARGIN, measure
from gpu_tpu_app.worker.notes import join, note

if TYPE_CHECKING:  # pragma: no cover
    from gpu_tpu_app.worker.kernels.point import Context, Point
    from gpu_tpu_app.worker.wire import DeviceInfo, ProbeResult


def jax_platform(info: DeviceInfo) -> str:
    """JAX's platform name for a DeviceInfo platform ('cuda'/'rocm' are JAX's 'gpu')."""
    return "gpu" if info.platform in ("cuda", "rocm", "gpu") else info.platform


def jax_device(info: DeviceInfo) -> Any:
    """The jax.Device a DeviceInfo names."""
    devices = jax.devices(jax_platform(info))
    if info.index >= len(devices):
        raise ValueError(f"jax has no {info.platform} device {info.index} (it sees {len(devices)})")
    return devices[info.index]


def _block(x: Any) -> Any:
    return jax.block_until_ready(x)


def _ahead(key: tuple[Any, ...], fn: Any, *args: Any) -> Any:
    """The executable of fn for args (compile_ahead), compiled once per key in this worker."""
    return HELD.compiled((*key, where_args(args)), lambda: compile_ahead(fn, *args)[0])


def _precision_setting() -> str | None:
    value = getattr(jax.config, "jax_default_matmul_precision", None)
    return str(value) if value else None


def math_mode(dev: Any, dtype: str) -> str:
    """How XLA multiplies this dtype on this device under JAX's default matmul precision setting."""
    return common.jax_math_mode(dev.platform, dtype, _precision_setting(), getattr(dev, "compute_capability", None))


def compile_ahead(fn: Any, *args: Any) -> tuple[Any, float]:
    """fn.lower(*args).compile(): the executable and the seconds it took (trace, XLA compile, GPU autotuning)."""
    t0 = time.perf_counter()
    compiled = fn.lower(*args).compile()
    return compiled, time.perf_counter() - t0


def _ahead_note(clock: common.PointClock) -> str:
    reused_all = HELD.reuse.compiled > 0 and HELD.reuse.compiled_reused == HELD.reuse.compiled
    done = "jax.set_up_ahead" if reused_all else "jax.ahead"
    seconds = f"{clock.before_s:.3f}"
    reused = HELD.reuse.words()
    return note(f"{done}_reused", seconds=seconds, reused=reused) if reused else note(done, seconds=seconds)


def _free_bytes(dev: Any) -> int | None:
    """Bytes free for the point's arrays: what the device (or host) has free, plus what HELD keeps for the point."""
    if dev.platform == "cpu":
        free = common.host_available_bytes()
    else:
        try:
            stats = dev.memory_stats() or {}
        except Exception:
            return None
        limit, used = stats.get("bytes_limit"), stats.get("bytes_in_use", 0)
        free = int(limit - used) if limit else None
    return None if free is None else free + HELD.held_bytes()


def _accel(dev: Any) -> bool:
    return dev.platform != "cpu"


def _join(*parts: str | None) -> str | None:
    return join(*parts)


class _Donating:
    """Calls a jitted fn(out, *args) whose first argument is donated; keeps the returned buffer for the next call."""

    def __init__(self, fn: Any, out: jax.Array, *args: jax.Array) -> None:
        self.fn, self.out, self.args = fn, out, args

    def __call__(self) -> jax.Array:
        self.out = self.fn(self.out, *self.args)
        return self.out

    def sync(self) -> None:
        self.out.block_until_ready()


# ---------------------------------------------------------------- kernels


_MATMUL = jax.jit(lambda out, x, y: x @ y, donate_argnums=0, keep_unused=True)
_COPY = jax.jit(lambda out, src: jnp.copy(src), donate_argnums=0, keep_unused=True)
_PLUS_ONE = jax.jit(lambda v: v + 1)


def _triad(scalar: float) -> Any:
    return jax.jit(lambda out, x, y: x + scalar * y, donate_argnums=0, keep_unused=True)


def _matmul(point: Point, ctx: Context, dev: Any, clock: common.PointClock) -> list[ProbeResult]:
    n, dtype = int(point.size or 0), point.dtype or "float32"
    mode = math_mode(dev, dtype)
    need = 3 * n * n * ELEM_BYTES[dtype]
    skip = common.matmul_memory_skip(point, need, _free_bytes(dev), mode)
    if skip is not None:
        return skip
    a = held_input((n, n), dtype, dev, common.SEED)
    b = held_input((n, n), dtype, dev, common.SEED + 1)
    c = held_output((n, n), dtype, dev)
    f = _ahead(("matmul",), _MATMUL, c, a, b)
    clock.restart()
    call = _Donating(f, c, a, b)
    timing = measure(call, sync=call.sync, **common.measure_kwargs(point, ctx, _accel(dev), clock))
    HELD.put(out_key((n, n), dtype, dev), call.out)
    if not timing.times:
        return []
    first = note("jax.first_call", seconds=f"{timing.first_call_s:.3f}") if timing.first_call_s is not None else None
    return [
        common.result(
            point,
            ctx,
            metric="flops",
            timing=timing,
            work=common.matmul_flops(n),
            math_mode=mode,
            message=join(note("jax.jit_default"), _ahead_note(clock), first),
        )
    ]


def _stream(point: Point, ctx: Context, dev: Any, clock: common.PointClock) -> list[ProbeResult]:
    n = int(point.size or 0)
    arrays = common.STREAM_ARRAYS[point.kernel]
    need = arrays * n * 4
    free = _free_bytes(dev)
    if free is not None and need > 0.5 * free:
        reason = note("common.stream_memory", need=common.mib(need), free=common.mib(free))
        return [common.skipped(point, "bytes_per_s", reason)]
    b = held_stream(n, dev, common.SEED)
    a = held_output((n,), "float32", dev)
    scalar = 3.0
    if point.kernel == "copy":  # copy reads one array: no second one is drawn
        call = _Donating(_ahead(("copy",), _COPY, a, b), a, b)
    else:  # one fused pass
        c = held_stream(n, dev, common.SEED + 1)
        call = _Donating(_ahead(("triad", scalar), _triad(scalar), a, b, c), a, b, c)
    clock.restart()
    timing = measure(call, sync=call.sync, **common.measure_kwargs(point, ctx, _accel(dev), clock))
    HELD.put(out_key((n,), "float32", dev), call.out)
    if not timing.times:
        return []
    work = common.stream_bytes(point.kernel, n, 4)
    said = join(common.stream_note(ctx, arrays, n), note("jax.donated"), _ahead_note(clock))
    return [common.result(point, ctx, metric="bytes_per_s", timing=timing, work=work, message=said)]


def _transfer(point: Point, ctx: Context, dev: Any, clock: common.PointClock) -> list[ProbeResult]:
    if dev.platform == "cpu":
        return [common.skipped(point, "bytes_per_s", note("common.not_on_cpu"))]
    nbytes = int(point.size or 0)
    n = nbytes // 4
    host = HELD.array(("host", nbytes), lambda: np.random.default_rng(common.SEED).standard_normal(n, dtype=np.float32))
    if (point.variant or "h2d").startswith("h2d"):
        kw = common.measure_kwargs(point, ctx, True, clock)
        # device_put returns before the copy lands: wait for each one
        timing = measure(lambda: jax.device_put(host, dev).block_until_ready(), **{**kw, "min_sample_s": 0.0})
        msg = note("jax.h2d", size=common.mib(nbytes))
    else:
        on_dev = HELD.array(("d2h", nbytes, where(dev)), lambda: jax.device_put(host, dev).block_until_ready())
        bump = _ahead(("bump",), _PLUS_ONE, on_dev)
        clock.restart()
        kw = common.measure_kwargs(point, ctx, True, clock)
        # a new device array per sample: np.asarray caches the host copy of an array it has seen
        timing = measure(lambda x: np.asarray(x), prepare=lambda: bump(on_dev).block_until_ready(), **kw)
        msg = note("jax.d2h", size=common.mib(nbytes))
    if not timing.times:
        return []
    return [common.result(point, ctx, metric="bytes_per_s", timing=timing, work=float(nbytes), message=msg)]


def _dispatch(point: Point, ctx: Context, dev: Any, clock: common.PointClock) -> list[ProbeResult]:
    x = held_input((1,), "float32", dev, common.SEED)
    f = _ahead(("dispatch",), _PLUS_ONE, x)
    clock.restart()
    last: list[Any] = [None]

    def call() -> None:
        last[0] = f(x)

    def sync() -> None:
        _block(last[0])

    timing = measure(call, sync=sync, **common.measure_kwargs(point, ctx, _accel(dev), clock))
    if not timing.times:
        return []
    return [
        common.result(
            point,
            ctx,
            metric="seconds",
            timing=timing,
            message=note("jax.dispatch", calls=timing.inner),
        )
    ]


def _step_fn() -> Any:
    """A new Python function each time, so jit's caches never serve an earlier trace or executable."""

    def step(x: jax.Array, w: jax.Array) -> jax.Array:
        return jax.nn.gelu(x @ w)

    return step


def _cost_flops(compiled: Any) -> float | None:
    try:
        cost = compiled.cost_analysis()
    except Exception:
        return None
    if isinstance(cost, (list, tuple)):
        cost = cost[0] if cost else None
    if not isinstance(cost, dict):
        return None
    value = cost.get("flops")
    return float(value) if value else None


def _compile(point: Point, ctx: Context, dev: Any, clock: common.PointClock) -> list[ProbeResult]:
    n = int(point.size or 0)
    x = randn((n, n), "float32", dev, common.SEED)
    w = randn((n, n), "float32", dev, common.SEED + 1)
    base = common.measure_kwargs(point, ctx, _accel(dev), clock)

    def kw(phases_left: int) -> dict[str, Any]:
        # the four phases share what is left of the cap
        left = CAP_MARGIN * point.cap_s - clock.elapsed()
        return {
            **base,
            "start": None,
            "min_reps": common.COMPILE_PHASE_MIN_REPS,
            "cap_s": max(0.2, left / phases_left / CAP_MARGIN),
        }

    # The very first call of the step in this worker: later phases hit XLA's process-wide caches
    # (GPU GEMM autotuning, kernel cache), so this one sample is the cold figure.
    t0 = time.perf_counter()
    jax.jit(_step_fn())(x, w).block_until_ready()
    cold = time.perf_counter() - t0
    phases: list[tuple[str, Any]] = []
    lower = measure(lambda _: jax.jit(_step_fn()).lower(x, w), prepare=lambda: None, **kw(4))
    phases.append(("lower", lower))
    if lower.cancelled:
        return []
    comp = measure(lambda lowered: lowered.compile(), prepare=lambda: jax.jit(_step_fn()).lower(x, w), **kw(3))
    phases.append(("compile", comp))
    if comp.cancelled:
        return []
    first = measure(lambda f: f(x, w).block_until_ready(), prepare=lambda: jax.jit(_step_fn()), **kw(2))
    phases.append(("first_call", first))
    if first.cancelled:
        return []
    compiled = jax.jit(_step_fn()).lower(x, w).compile()
    last: list[Any] = [None]

    def call() -> None:
        last[0] = compiled(x, w)

    steady = measure(call, sync=lambda: _block(last[0]), **kw(1))
    phases.append(("steady", steady))
    analytic = common.matmul_flops(n)
    cost = _cost_flops(compiled)
    check = (
        note("jax.cost", cost=f"{cost / 1e9:.3f}", analytic=f"{analytic / 1e9:.3f}") if cost else note("jax.no_cost")
    )
    out = [
        common.result(
            point,
            ctx,
            metric="seconds",
            samples=[cold],
            seconds=cold,
            variant="first_call_cold",
            message=note("jax.compile_cold", n=n),
        )
    ]
    for variant, timing in phases:
        if not timing.times:
            continue
        out.append(
            common.result(
                point,
                ctx,
                metric="seconds",
                timing=timing,
                variant=variant,
                message=_join(
                    note(f"jax.compile_{variant}", n=n),
                    check if variant in ("compile", "steady") else None,
                ),
            )
        )
    return out


def _collective(point: Point, ctx: Context, dev: Any, clock: common.PointClock) -> list[ProbeResult]:
    from jax.sharding import Mesh, NamedSharding
    from jax.sharding import PartitionSpec as P

    devices = jax.devices(dev.platform)
    ranks = len(devices)
    if ranks < 2:
        return [
            common.skipped(
                point,
                "bytes_per_s",
                note("jax.one_device_hint", platform=dev.platform),
            )
        ]
    nbytes = int(point.size or 0)
    per = nbytes // 4
    mesh = Mesh(np.array(devices), ("i",))
    sharding = NamedSharding(mesh, P("i"))
    # the data is made on the devices, already sharded: nothing crosses the host
    make = jax.jit(lambda key: jax.random.normal(key, (ranks * per,), jnp.float32), out_shardings=sharding)
    x = HELD.array(("collective", nbytes, dev.platform), lambda: make(jax.random.key(common.SEED)).block_until_ready())
    shard_map: Any = getattr(jax, "shard_map", None)
    if shard_map is None:  # older JAX
        from jax.experimental.shard_map import shard_map as experimental_shard_map

        shard_map = experimental_shard_map
    psum = jax.jit(shard_map(lambda s: jax.lax.psum(s, "i"), mesh=mesh, in_specs=P("i"), out_specs=P("i")))
    f = _ahead(("psum", ranks), psum, x)
    f(x).block_until_ready()  # one all-reduce before the clock: the communicator (NCCL, ICI) is built here
    clock.restart()
    last: list[Any] = [None]

    def call() -> None:
        last[0] = f(x)

    timing = measure(call, sync=lambda: _block(last[0]), **common.measure_kwargs(point, ctx, _accel(dev), clock))
    if not timing.times:
        return []
    res = common.result(point, ctx, metric="bytes_per_s", timing=timing, work=float(nbytes), variant="psum")
    bus = common.bus_bandwidth(res.value or 0.0, ranks)
    msg = _join(
        note(
            "jax.psum",
            size=common.mib(nbytes),
            ranks=ranks,
            platform=dev.platform,
            bus=format_value(bus, "bytes_per_s"),
        ),
        _ahead_note(clock),
        res.message,
    )
    return [res.model_copy(update={"message": msg})]


def _layer_norm(x: jax.Array, w: jax.Array, b: jax.Array, eps: float = 1e-5) -> jax.Array:
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(var + eps) * w + b


def block_forward(x: jax.Array, p: dict[str, jax.Array], heads: int) -> jax.Array:
    """Pre-norm transformer block, the same computation as the torch kernel's block_forward."""
    bsz, seq, d = x.shape
    dh = d // heads
    h = _layer_norm(x, p["ln1_w"], p["ln1_b"])
    q, k, v = jnp.split(h @ p["w_qkv"], 3, axis=-1)
    q, k, v = (t.reshape(bsz, seq, heads, dh).transpose(0, 2, 1, 3) for t in (q, k, v))
    att = jax.nn.softmax((q @ k.transpose(0, 1, 3, 2)) * (dh**-0.5), axis=-1)
    o = (att @ v).transpose(0, 2, 1, 3).reshape(bsz, seq, d)
    x = x + o @ p["w_o"]
    h = _layer_norm(x, p["ln2_w"], p["ln2_b"])
    return x + jax.nn.gelu(h @ p["w_1"], approximate=False) @ p["w_2"]


def _model_step(point: Point, ctx: Context, dev: Any, clock: common.PointClock) -> list[ProbeResult]:
    shape = BlockShape.parse(point.variant or "")
    dtype = point.dtype or "float32"
    params, x = HELD.array(("model_step", point.variant, dtype, where(dev)), lambda: block_inputs(shape, dtype, dev))

    def loss(p: dict[str, jax.Array], inp: jax.Array) -> jax.Array:
        return jnp.mean(jnp.square(block_forward(inp, p, shape.heads).astype(jnp.float32)))

    grad = _ahead(("model_step", shape.tag), jax.jit(jax.grad(loss)), params, x)
    clock.restart()
    last: list[Any] = [None]

    def step() -> None:
        last[0] = grad(params, x)

    timing = measure(step, sync=lambda: _block(last[0]), **common.measure_kwargs(point, ctx, _accel(dev), clock))
    if not timing.times:
        return []
    work = shape.step_flops()
    res = common.result(point, ctx, metric="flops", timing=timing, work=work, math_mode=math_mode(dev, dtype))
    best = common.best_measured(ctx, "matmul", dtype)
    parts = [
        note("common.step_flops", gflop=f"{work / 1e9:.2f}"),
        note("jax.model_step"),
        _ahead_note(clock),
    ]
    if best and res.value:
        parts.append(
            note(
                "common.share_of_best",
                pct=f"{100 * res.value / best:.0f}",
                dtype=dtype,
                best=format_value(best, "flops"),
            )
        )
    else:
        parts.append(note("common.no_best", dtype=dtype))
    if res.message:
        parts.append(res.message)
    return [res.model_copy(update={"message": _join(*parts)})]


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


def memory_state(info: DeviceInfo) -> dict[str, int] | None:
    """What the runtime exposes of a TPU's or GPU's memory now: bytes in use and the peak so far."""
    try:
        stats = jax_device(info).memory_stats() or {}
    except Exception:
        return None
    out = {
        key: int(stats[name])
        for key, name in (("memory_in_use_bytes", "bytes_in_use"), ("peak_memory_bytes", "peak_bytes_in_use"))
        if stats.get(name) is not None
    }
    return out or None


def warm_up(info: DeviceInfo) -> float:
    """Start the device's runtime with a first transfer, random draw and jitted product; returns seconds.

    The worker calls this once before point 1, outside every point's cap (client start-up, the RNG's
    and a matmul's first compile). The product is the one the first matmul point and the float32
    calibration time, held (HELD), so neither compiles it again.
    """
    t0 = time.perf_counter()
    dev = jax_device(info)
    n = 256
    call = _held_matmul(n, "float32", dev)
    call()
    call.sync()
    HELD.put(out_key((n, n), "float32", dev), call.out)
    return time.perf_counter() - t0


def _held_matmul(n: int, dtype: str, dev: Any) -> _Donating:
    """The matmul point's product of n×n `dtype` matrices, with its held inputs, output and executable."""
    a = held_input((n, n), dtype, dev, common.SEED)
    b = held_input((n, n), dtype, dev, common.SEED + 1)
    c = held_output((n, n), dtype, dev)
    return _Donating(_ahead(("matmul",), _MATMUL, c, a, b), c, a, b)


def run(point: Point, ctx: Context) -> list[ProbeResult]:
    """Measure one point with JAX on ctx.device."""
    clock = common.PointClock()
    dev = jax_device(ctx.device)
    HELD.keep(wanted(point, dev))  # the arrays of earlier points that this one does not use are let go
    return _KERNELS[point.kernel](point, ctx, dev, clock)


def calibrate(info: DeviceInfo, dtypes: list[str], n: int, mm: Any = None) -> dict[str, float]:
    """Measured FLOP/s of one small jitted n×n product per dtype, timed before the plan is made (a first
    call, which does not count, then the timed ones). The product is the matmul point's own, compiled
    ahead and held, so the point of that size reuses it; `mm` replaces it (a test slows it). A dtype
    that fails is left out."""
    dev = jax_device(info)
    rates: dict[str, float] = {}
    for name in dtypes:
        try:
            if mm is None:
                held = _held_matmul(n, name, dev)
                rate = common.calibrated_rate(held, held.sync, common.matmul_flops(n))
                HELD.put(out_key((n, n), name, dev), held.out)
            else:
                call = _Calibration(jax.jit(mm), name, n, dev)
                rate = common.calibrated_rate(call, call.sync, common.matmul_flops(n))
        except Exception:  # the dtype's own points meet the problem and report it
            continue
        if rate is not None:
            rates[name] = rate
    return rates


class _Calibration:
    """One jitted n×n product of `dtype` to time; sync() waits for the last result."""

    def __init__(self, f: Any, dtype: str, n: int, dev: Any) -> None:
        self.f, self.out = f, None
        self.a = held_input((n, n), dtype, dev, common.SEED)
        self.b = held_input((n, n), dtype, dev, common.SEED + 1)

    def __call__(self) -> None:
        self.out = self.f(self.a, self.b)

    def sync(self) -> None:
        if self.out is not None:
            self.out.block_until_ready()
