"""A data-parallel MLP written with shard_map over a mesh built when the file is imported, from the devices jax
finds then (on a CPU host, its CPU devices). Each device computes its slice of the batch; the loss is averaged
with a psum across the "data" axis.

Work per call (batch 32, 512 -> 2048 -> 512): 2 x 32 x (512*2048 + 2048*512) = 134,217,728 FLOPs in matrix
multiplies, split over the mesh's devices.
"""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh
from jax.sharding import PartitionSpec as P

try:
    from jax import shard_map
except ImportError:  # jax before shard_map moved out of experimental
    from jax.experimental.shard_map import shard_map

MESH = Mesh(np.array(jax.devices()), ("data",))


def params():
    k1, k2 = jax.random.split(jax.random.PRNGKey(0))
    return {"w1": jax.random.normal(k1, (512, 2048)) * 0.02, "w2": jax.random.normal(k2, (2048, 512)) * 0.02}


@partial(shard_map, mesh=MESH, in_specs=(P(), P("data")), out_specs=(P("data"), P()))
def _step(p, x):
    y = jax.nn.gelu(x @ p["w1"]) @ p["w2"]
    return y, jax.lax.pmean(jnp.mean(y * y), "data")


def forward(p, x):
    return _step(p, x)


def example_inputs():
    return (jnp.ones((32, 512), jnp.float32),)
