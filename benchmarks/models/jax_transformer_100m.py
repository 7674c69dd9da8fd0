"""A ~100M-parameter decoder-only transformer in plain JAX (12 blocks, width 768, vocabulary 8,192),
for the model-check benchmark. One batch of 2 x 256 tokens."""

import jax
import jax.numpy as jnp

VOCAB, WIDTH, HEADS, LAYERS, LENGTH, BATCH = 8_192, 768, 12, 12, 256, 2


def _dense(key, n_in, n_out):
    return {"w": jax.random.normal(key, (n_in, n_out), jnp.float32) / jnp.sqrt(n_in),
            "b": jnp.zeros((n_out,), jnp.float32)}


def params() -> dict:
    keys = iter(jax.random.split(jax.random.PRNGKey(0), 4 + 4 * LAYERS))
    blocks = [{"qkv": _dense(next(keys), WIDTH, 3 * WIDTH), "proj": _dense(next(keys), WIDTH, WIDTH),
               "up": _dense(next(keys), WIDTH, 4 * WIDTH), "down": _dense(next(keys), 4 * WIDTH, WIDTH),
               "ln1": jnp.ones((WIDTH,)), "ln2": jnp.ones((WIDTH,))} for _ in range(LAYERS)]
    return {"embed": jax.random.normal(next(keys), (VOCAB, WIDTH)) * 0.02, "pos": jnp.zeros((LENGTH, WIDTH)),
            "blocks": blocks, "ln": jnp.ones((WIDTH,)),
            "head": jax.random.normal(next(keys), (WIDTH, VOCAB)) / jnp.sqrt(WIDTH)}


def _norm(x, scale):
    mean = x.mean(-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(((x - mean) ** 2).mean(-1, keepdims=True) + 1e-5) * scale


def _block(p, x):
    b, t, c = x.shape
    q, k, v = jnp.split(_norm(x, p["ln1"]) @ p["qkv"]["w"] + p["qkv"]["b"], 3, axis=-1)
    q, k, v = (z.reshape(b, t, HEADS, c // HEADS).transpose(0, 2, 1, 3) for z in (q, k, v))
    scores = jnp.einsum("bhqd,bhkd->bhqk", q, k) / jnp.sqrt(c // HEADS)
    weights = jax.nn.softmax(jnp.where(jnp.tril(jnp.ones((t, t), bool)), scores, -1e9), axis=-1)
    attn = jnp.einsum("bhqk,bhkd->bhqd", weights, v).transpose(0, 2, 1, 3).reshape(b, t, c)
    x = x + attn @ p["proj"]["w"] + p["proj"]["b"]
    h = jax.nn.gelu(_norm(x, p["ln2"]) @ p["up"]["w"] + p["up"]["b"])
    return x + h @ p["down"]["w"] + p["down"]["b"]


def forward(params, tokens):
    x = params["embed"][tokens] + params["pos"][: tokens.shape[1]]
    for p in params["blocks"]:
        x = _block(p, x)
    return _norm(x, params["ln"]) @ params["head"]


def example_inputs() -> tuple:
    return (jax.random.randint(jax.random.PRNGKey(1), (BATCH, LENGTH), 0, VOCAB),)
