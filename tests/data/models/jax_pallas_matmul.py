"""A tiled matrix multiply written as a Pallas kernel, run in the interpreter (interpret=True) as a file must be
to run on a CPU host. For a TPU the check compiles the kernel through Mosaic, not the interpreter's emulation.

Work per call: (256 x 512) @ (512 x 256) in a 2 x 2 grid of 128 x 128 output blocks, each block
2*128*128*512 = 16,777,216 FLOPs; 4 blocks = 67,108,864 FLOPs = 2*256*256*512.
"""

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

BLOCK = 128


def _matmul_kernel(x_ref, w_ref, o_ref):
    o_ref[...] = jnp.dot(x_ref[...], w_ref[...], preferred_element_type=jnp.float32)


@functools.partial(jax.jit, static_argnames=("interpret",))
def tiled_matmul(x, w, interpret=True):
    m, k = x.shape
    _, n = w.shape
    return pl.pallas_call(
        _matmul_kernel,
        out_shape=jax.ShapeDtypeStruct((m, n), jnp.float32),
        grid=(m // BLOCK, n // BLOCK),
        in_specs=[
            pl.BlockSpec((BLOCK, k), lambda i, j: (i, 0)),
            pl.BlockSpec((k, BLOCK), lambda i, j: (0, j)),
        ],
        out_specs=pl.BlockSpec((BLOCK, BLOCK), lambda i, j: (i, j)),
        interpret=interpret,
    )(x, w)


def params():
    return {"w": jax.random.normal(jax.random.PRNGKey(0), (512, 256)) * 0.02}


def forward(p, x):
    return tiled_matmul(x, p["w"])


def example_inputs():
    return (jnp.ones((256, 512), jnp.float32),)
