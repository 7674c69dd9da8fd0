"""A JAX model whose forward returns a dataclass that is not registered as a pytree, holding a namedtuple and a
dict: jax cannot take it as a program's output as it is; the check flattens it to its arrays.

Work per call (batch 4, 256 -> 1024 -> 256): 2 x 4 x (256*1024 + 1024*256) = 4,194,304 FLOPs in matrix
multiplies (tanh and the sum left out).
"""

from dataclasses import dataclass
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Stats(NamedTuple):
    norm: jax.Array
    hidden: jax.Array


@dataclass
class Output:
    y: jax.Array
    stats: Stats
    extra: dict


def params():
    k1, k2 = jax.random.split(jax.random.PRNGKey(0))
    return {"w1": jax.random.normal(k1, (256, 1024)) * 0.02, "w2": jax.random.normal(k2, (1024, 256)) * 0.02}


def forward(p, x):
    h = jnp.tanh(x @ p["w1"])
    y = h @ p["w2"]
    return Output(y=y, stats=Stats(norm=jnp.sum(y * y), hidden=h), extra={"step": 3, "h_mean": h.mean()})


def example_inputs():
    return (jnp.ones((4, 256), jnp.float32),)
