"""A JAX model with 20 GiB of float32 weights: more than a TPU v5e's 16 GiB of HBM, less than a v6e's 32 GiB.

params() builds its weights with jnp.zeros, which the check follows as shapes only (jax.eval_shape), so
nothing is allocated; the TPU compiler sees the shapes and answers whether they fit.
"""

import jax.numpy as jnp

ROWS, COLS = 5 * 1024, 1024 * 1024  # 5 Gi float32 values = 20 GiB


def params() -> dict:
    return {"w": jnp.zeros((ROWS, COLS), jnp.float32)}


def forward(params, x):
    return x @ params["w"]


def example_inputs() -> tuple:
    return (jnp.ones((8, ROWS), jnp.float32),)
