"""An 18-layer residual stack run with lax.scan over stacked weights, then 4 refinement steps in a fori_loop
with static bounds (which jax lowers as a scan too). XLA's cost_analysis() counts a loop body once; the check
multiplies it by the trip count.

Work per call (batch 8, width 512), matrix multiplies only (2 FLOPs per multiply-add):
  scan:      18 layers x 2*8*512*512 = 75,497,472
  fori_loop:  4 steps  x 2*8*512*512 = 16,777,216
  total                              = 92,274,688 FLOPs (tanh and adds, 8*512 each per step, left out)
"""

import jax
import jax.numpy as jnp

LAYERS, WIDTH, BATCH, STEPS = 18, 512, 8, 4


def params():
    k1, k2 = jax.random.split(jax.random.PRNGKey(0))
    return {
        "stack": jax.random.normal(k1, (LAYERS, WIDTH, WIDTH)) * 0.02,
        "refine": jax.random.normal(k2, (WIDTH, WIDTH)) * 0.02,
    }


def forward(p, x):
    def layer(h, w):
        return h + jnp.tanh(h @ w), None

    h, _ = jax.lax.scan(layer, x, p["stack"])
    return jax.lax.fori_loop(0, STEPS, lambda i, h: h + jnp.tanh(h @ p["refine"]), h)


def example_inputs():
    return (jnp.ones((BATCH, WIDTH), jnp.float32),)
