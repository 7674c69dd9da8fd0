"""The smallest JAX model: the framework's own memory and time in the model-check benchmark."""

import jax.numpy as jnp


def params():
    return {"w": jnp.ones((4, 4))}


def forward(params, x):
    return x @ params["w"]


def example_inputs():
    return (jnp.ones((1, 4)),)
