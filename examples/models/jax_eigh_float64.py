"""A JAX model that needs float64: the spectrum of a covariance matrix with eigh, in double precision.

It lowers for TPU (XLA has its own Eigh there), but the float64 values would run emulated on a TPU,
which has no float64 arithmetic."""

import jax

jax.config.update("jax_enable_x64", True)  # without it JAX silently computes in float32

import jax.numpy as jnp  # noqa: E402


def params() -> dict:
    return {"shrink": jnp.asarray(1e-9, jnp.float64)}


def forward(params, samples):
    centred = samples - samples.mean(axis=0)
    cov = centred.T @ centred / (samples.shape[0] - 1) + params["shrink"] * jnp.eye(samples.shape[1])
    return jnp.linalg.eigh(cov)[0]


def example_inputs() -> tuple:
    return (jax.random.normal(jax.random.PRNGKey(0), (512, 64), jnp.float64),)
