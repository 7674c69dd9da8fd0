"""A JAX model that selects entries with a boolean mask: the output's size depends on the data, which
XLA cannot compile (jax.export fails with NonConcreteBooleanIndexError). jnp.where with a fixed size works."""

import jax
import jax.numpy as jnp


def params() -> dict:
    return {"w": jax.random.normal(jax.random.PRNGKey(0), (64, 64)) / 8.0}


def forward(params, x):
    h = jnp.tanh(x @ params["w"])
    return h[h > 0].sum()  # boolean-mask selection: a data-dependent shape


def example_inputs() -> tuple:
    return (jax.random.normal(jax.random.PRNGKey(1), (16, 64)),)
