"""A JAX model with 49 GiB of bfloat16 weights in two layers: it fits a TPU v5p's 95 GiB of HBM, not a v6e's 32 GiB.

Weights are built with jnp.zeros (followed as shapes only: nothing is allocated). loss() makes the check
also compile a training step: gradients of 49 GiB on top of the weights.
"""

import jax.numpy as jnp

WIDTH = 112 * 1024  # two WIDTH x WIDTH bfloat16 matrices: 2 x 24.5 GiB = 49 GiB


def params() -> dict:
    return {"a": jnp.zeros((WIDTH, WIDTH), jnp.bfloat16), "b": jnp.zeros((WIDTH, WIDTH), jnp.bfloat16)}


def forward(params, x):
    return jnp.tanh(x @ params["a"]) @ params["b"]


def loss(params, x):
    return jnp.mean(forward(params, x).astype(jnp.float32) ** 2)


def example_inputs() -> tuple:
    return (jnp.ones((16, WIDTH), jnp.bfloat16),)
