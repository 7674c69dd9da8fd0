"""A small decoder-only transformer in plain JAX (2 blocks, width 128), checked as the app's model contract.

params() returns the weights as a dict; forward(params, tokens) the logits; other_inputs() more
batches of the same padded length; loss(params, tokens) the next-token loss, so the TPU compile step also
compiles a training step.
"""

import jax
import jax.numpy as jnp

VOCAB, WIDTH, HEADS, LAYERS, LENGTH, BATCH = 1000, 128, 4, 2, 64, 8


def _dense(key, n_in, n_out):
    return {"w": jax.random.normal(key, (n_in, n_out), jnp.float32) / jnp.sqrt(n_in),
            "b": jnp.zeros((n_out,), jnp.float32)}


def params() -> dict:
    keys = iter(jax.random.split(jax.random.PRNGKey(0), 4 + 4 * LAYERS))
    blocks = []
    for _ in range(LAYERS):
        blocks.append({"qkv": _dense(next(keys), WIDTH, 3 * WIDTH), "proj": _dense(next(keys), WIDTH, WIDTH),
                       "up": _dense(next(keys), WIDTH, 4 * WIDTH), "down": _dense(next(keys), 4 * WIDTH, WIDTH),
                       "ln1": jnp.ones((WIDTH,)), "ln2": jnp.ones((WIDTH,))})
    return {"embed": jax.random.normal(next(keys), (VOCAB, WIDTH)) * 0.02,
            "pos": jnp.zeros((LENGTH, WIDTH)), "blocks": blocks, "ln": jnp.ones((WIDTH,)),
            "head": jax.random.normal(next(keys), (WIDTH, VOCAB)) / jnp.sqrt(WIDTH)}


def _norm(x, scale):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(var + 1e-5) * scale


def _apply(p, x):
    return x @ p["w"] + p["b"]


def _block(p, x):
    b, t, c = x.shape
    q, k, v = jnp.split(_apply(p["qkv"], _norm(x, p["ln1"])), 3, axis=-1)
    q, k, v = (z.reshape(b, t, HEADS, c // HEADS).transpose(0, 2, 1, 3) for z in (q, k, v))
    scores = jnp.einsum("bhqd,bhkd->bhqk", q, k) / jnp.sqrt(c // HEADS)
    mask = jnp.tril(jnp.ones((t, t), bool))
    weights = jax.nn.softmax(jnp.where(mask, scores, -1e9), axis=-1)
    attn = jnp.einsum("bhqk,bhkd->bhqd", weights, v).transpose(0, 2, 1, 3).reshape(b, t, c)
    x = x + _apply(p["proj"], attn)
    return x + _apply(p["down"], jax.nn.gelu(_apply(p["up"], _norm(x, p["ln2"]))))


def forward(params, tokens):
    x = params["embed"][tokens] + params["pos"][: tokens.shape[1]]
    for p in params["blocks"]:
        x = _block(p, x)
    return _norm(x, params["ln"]) @ params["head"]


def example_inputs() -> tuple:
    return (jax.random.randint(jax.random.PRNGKey(1), (BATCH, LENGTH), 0, VOCAB),)


def other_inputs() -> list:
    return [(jax.random.randint(jax.random.PRNGKey(i), (BATCH, LENGTH), 0, VOCAB),) for i in (2, 3)]


def loss(params, tokens):
    logits = forward(params, tokens[:, :-1])
    picked = jnp.take_along_axis(jax.nn.log_softmax(logits), tokens[:, 1:, None], axis=-1)
    return -picked.mean()
