"""The data a JAX probe point measures with, made once and held (jax_held.Held): seeded inputs, output
buffers, copy/triad arrays and the transformer block's weights.

On a CPU everything is made in numpy and put on the device: jnp.empty and jnp.asarray(x, bfloat16)
compile a fill or a convert for every new shape. Keys name what an array holds (kind, shape, dtype,
seed, device), so a second try of a point, or the next point, finds the arrays it needs; `wanted()`
lists a point's keys for Held.keep, which lets the others go. Imported only inside a worker process.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import jax
import jax.numpy as jnp
import numpy as np

from gpu_tpu_app.worker.kernels import common
from gpu_tpu_app.worker.kernels.common import BlockShape
from gpu_tpu_app.worker.kernels.jax_held import Held

if TYPE_CHECKING:  # pragma: no cover
    from gpu_tpu_app.worker.kernels.point import Point


def dtype_of(name: str) -> Any:
    """JAX's dtype for a dtype name of the plan."""
    return {"float32": jnp.float32, "bfloat16": jnp.bfloat16, "float16": jnp.float16}[name]


def randn(shape: tuple[int, ...], dtype: str, dev: Any, seed: int) -> jax.Array:
    """Seeded normal random data on `dev` (never zeros): numpy on the CPU, jax.random on accelerators."""
    if dev.platform == "cpu":
        return jax.device_put(host_randn(shape, dtype, seed), dev).block_until_ready()
    with jax.default_device(dev):
        x = jax.random.normal(jax.random.key(seed), shape, jnp.float32).astype(dtype_of(dtype))
    return jax.device_put(x, dev).block_until_ready()


def host_randn(shape: tuple[int, ...], dtype: str, seed: int) -> np.ndarray:
    """Seeded float32 normals, cast in numpy (ml_dtypes rounds to nearest even as XLA's convert does, bit
    for bit): jnp.asarray(x, bfloat16) would compile a convert for every new shape (0.1-0.2 s)."""
    host = np.random.default_rng(seed).standard_normal(shape, dtype=np.float32)
    return host if dtype == "float32" else host.astype(dtype_of(dtype))


#: This worker's compiled functions and the current point's arrays (jax_held): a second try of a point,
#: or a later point of the same shape, reuses them instead of compiling and drawing its data again.
HELD = Held()


def where(dev: Any) -> tuple[str, int]:
    """The device part of a held array's key."""
    return (dev.platform, int(dev.id))


def randn_key(shape: tuple[int, ...], dtype: str, dev: Any, seed: int) -> tuple[Any, ...]:
    """The key of randn's array for these arguments."""
    return ("randn", shape, dtype, seed, where(dev))


def out_key(shape: tuple[int, ...], dtype: str, dev: Any) -> tuple[Any, ...]:
    """The key of an output buffer of this shape and dtype."""
    return ("out", shape, dtype, where(dev))


def held_input(shape: tuple[int, ...], dtype: str, dev: Any, seed: int) -> jax.Array:
    """randn's array, held: the same seed, shape, dtype and device give the array made before, if still held."""
    return HELD.array(randn_key(shape, dtype, dev, seed), lambda: randn(shape, dtype, dev, seed))


def stream_array(n: int, dev: Any, seed: int, on_host: bool | None = None) -> jax.Array:
    """n float32 elements for copy/triad on `dev`: a seeded normal block of common.STREAM_BLOCK, repeated
    (never zeros). Repeated on the host for a CPU, on the device for an accelerator (nothing large
    crosses); `on_host` chooses (tests run the device's way on a CPU)."""
    block_n = min(n, common.STREAM_BLOCK)
    whole, rest = divmod(n, block_n)
    if dev.platform == "cpu" if on_host is None else on_host:
        drawn = np.random.default_rng(seed).standard_normal(block_n, dtype=np.float32)
        host = np.empty(n, np.float32)
        host[: whole * block_n].reshape(whole, block_n)[:] = drawn  # broadcast: one pass
        host[whole * block_n :] = drawn[:rest]
        return jax.device_put(host, dev).block_until_ready()
    block = randn((block_n,), "float32", dev, seed)
    tile = jax.jit(lambda b: jnp.concatenate([jnp.broadcast_to(b, (whole, block_n)).reshape(-1), b[:rest]]))
    return tile(block).block_until_ready()


def held_stream(n: int, dev: Any, seed: int) -> jax.Array:
    """stream_array, held like held_input's arrays."""
    return HELD.array(("stream", n, seed, where(dev)), lambda: stream_array(n, dev, seed))


def held_output(shape: tuple[int, ...], dtype: str, dev: Any) -> jax.Array:
    """A buffer a donating loop writes into (its contents are overwritten), held like the inputs. On a CPU
    it comes from numpy: jnp.empty compiles a fill for every new shape (0.1-0.2 s), for a value never read."""

    def make() -> jax.Array:
        if dev.platform == "cpu":
            return jax.device_put(np.empty(shape, dtype_of(dtype)), dev).block_until_ready()
        return jax.device_put(jnp.empty(shape, dtype_of(dtype)), dev)

    return HELD.array(out_key(shape, dtype, dev), make)


def where_args(args: tuple[Any, ...]) -> tuple[Any, ...]:
    """The shapes, dtypes and shardings an executable was compiled for (part of its key)."""
    leaves = jax.tree_util.tree_leaves(args)
    return tuple((tuple(a.shape), str(a.dtype), str(getattr(a, "sharding", ""))) for a in leaves)


def wanted(point: Point, dev: Any) -> list[tuple[Any, ...]]:
    """The held arrays `point` uses (HELD.keep lets every other one go before it starts)."""
    n, dtype = int(point.size or 0), point.dtype or "float32"
    if point.kernel == "matmul":
        return [randn_key((n, n), dtype, dev, common.SEED + i) for i in (0, 1)] + [out_key((n, n), dtype, dev)]
    if point.kernel in common.STREAM_ARRAYS:
        seeds = (0,) if point.kernel == "copy" else (0, 1)
        return [("stream", n, common.SEED + i, where(dev)) for i in seeds] + [out_key((n,), "float32", dev)]
    if point.kernel == "dispatch":
        return [randn_key((1,), "float32", dev, common.SEED)]
    if point.kernel == "model_step":
        return [("model_step", point.variant, dtype, where(dev))]
    if point.kernel == "transfer":
        return [("host", n), ("d2h", n, where(dev))]
    if point.kernel == "collective":
        return [("collective", n, dev.platform)]
    return []


def block_inputs(shape: BlockShape, dtype: str, dev: Any) -> tuple[dict[str, jax.Array], jax.Array]:
    """The block's weights (seeded, scaled by 1/sqrt(fan-in); layer norms at 1 and 0) and its input."""
    d, ff = shape.d_model, shape.mlp * shape.d_model
    rng = np.random.default_rng(common.SEED)

    # made and cast in numpy, then put on the device: jnp.asarray(x, dtype) and jnp.full compile per shape
    def w(rows: int, cols: int) -> jax.Array:
        arr = rng.standard_normal((rows, cols), dtype=np.float32) / np.float32(math.sqrt(rows))
        return jax.device_put(arr if dtype == "float32" else arr.astype(dtype_of(dtype)), dev)

    def vec(val: float) -> jax.Array:
        return jax.device_put(np.full((d,), val, dtype_of(dtype)), dev)

    params = {
        "ln1_w": vec(1.0),
        "ln1_b": vec(0.0),
        "w_qkv": w(d, 3 * d),
        "w_o": w(d, d),
        "ln2_w": vec(1.0),
        "ln2_b": vec(0.0),
        "w_1": w(d, ff),
        "w_2": w(ff, d),
    }
    return params, randn((shape.batch, shape.seq, d), dtype, dev, common.SEED + 7)
