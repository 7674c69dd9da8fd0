"""The transformer behind an estimate: its shape, its mixture-of-experts split, its activations, its layout.

Pure arithmetic, no catalogue: the estimator (core/estimate.py) asks this module what shape a
parameter count implies, which weights a decode step reads, how many bytes of activations one
micro-batch keeps for the backward pass, and over how many chips one copy of a training run must
be laid out.

- Shape: N ≈ 12·L·d² (Kaplan et al. 2020, the non-embedding count) at a width-to-depth ratio
  d/L (128 by default: GPT-3 from 6.7B up and Llama 3 8B/405B use 128; Llama 3 70B 102).
- Mixture of experts: with E experts of which k serve each token, total P and active A split into
  shared weights s and per-expert weights e: P = s + E·e, A = s + k·e.
- Activations (Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer
  Models", with sequence parallelism): per layer and micro-batch of b sequences of s tokens at
  width h and a heads, s·b·h·(34 + 5·a·s/h) bytes without recomputation, s·b·h·34 with selective
  recomputation (the attention core is recomputed), 2·s·b·h (the layer input) with full
  checkpointing, plus one layer's working set while it is recomputed. A fused (flash) attention
  kernel keeps no score matrices (Dao et al. 2022), so without recomputation it keeps s·b·h·34 too;
  the estimator assumes one.
- Layout: tensor parallel t inside a fast-link group (at most 8, a power of two dividing the
  heads), and across groups pipeline stages or sharded data parallel (FSDP / ZeRO-3), also in
  powers of two. Either way one chip holds 1/(t·p) of the training state and, at the first
  pipeline stage (or its own micro-batch under FSDP), the activations of all L layers over t.
"""

from __future__ import annotations

import bisect
import functools
import math
from typing import Literal, NamedTuple

#: width / layers when the user gives neither (GPT-3 6.7B-175B and Llama 3 8B and 405B use 128).
DEFAULT_ASPECT_RATIO = 128.0
#: attention head size of the default shape (64 below a width of 1,024, as in GPT-3's small models).
HEAD_SIZE = 128
SMALL_HEAD_SIZE = 64
#: key/value heads of the default shape: grouped-query attention with 8 KV heads, as Llama 3 uses
#: at every size (models with fewer heads keep one KV head per head).
DEFAULT_KV_HEADS = 8
#: tensor parallel stays inside 8 chips (Megatron-LM and Llama 3 run TP 8 within a node; its
#: per-layer all-reduces outgrow the links beyond that).
MAX_TENSOR_PARALLEL = 8
#: Korthikanti et al. 2022: activation bytes per token and unit of width, per layer, with
#: selective recomputation (attention 11, MLP 19, layer norms 4); the MLP part scales with top-k.
ATTENTION_ACT = 11.0
MLP_ACT = 19.0
NORM_ACT = 4.0
#: the attention scores and softmax: 5 x heads x context / width more without recomputation.
SCORES_ACT = 5.0

Checkpointing = Literal["none", "selective", "full"]
CHECKPOINTING_ORDER: tuple[Checkpointing, ...] = ("none", "selective", "full")

SHAPE_SOURCES = ["kaplan-2020", "llama3-2024", "gpt3-2020"]
ACTIVATION_SOURCE = "korthikanti-2022"
FLASH_SOURCE = "dao-2022-flashattention"


class Dims(NamedTuple):
    layers: int
    width: int
    heads: int
    kv_heads: int


def _round_to(value: float, step: int) -> int:
    return max(step, round(value / step) * step)


def _head_size(width: int) -> int:
    return HEAD_SIZE if width >= 1024 else SMALL_HEAD_SIZE


def default_dims(
    params: float,
    aspect_ratio: float = DEFAULT_ASPECT_RATIO,
    layers: int | None = None,
    width: int | None = None,
    heads: int | None = None,
    kv_heads: int | None = None,
) -> Dims:
    """The shape a parameter count implies at width/layers = aspect_ratio; given parts are kept.

    N ≈ 12·L·d² with d = r·L gives L = (N / (12·r²))^(1/3); the width follows from the rounded
    depth, to a multiple of eight heads (of 128, or 64 below a width of 1,024).
    """
    if layers is None and width is None:
        layers = max(1, round((params / (12.0 * aspect_ratio**2)) ** (1.0 / 3.0)))
    if width is None:
        assert layers is not None
        raw = math.sqrt(params / (12.0 * layers))
        size = _head_size(int(raw))
        # a multiple of 8 heads where the width allows, so tensor parallel up to 8 divides the heads
        width = _round_to(raw, 8 * size if raw >= 8 * size else size)
    if layers is None:
        layers = max(1, round(params / (12.0 * width * width)))
    if heads is None:
        size = next((h for h in (_head_size(width), 64, 32, 16, 8) if h <= width and width % h == 0), width)
        heads = max(1, width // size)
    if kv_heads is None:
        kv_heads = min(DEFAULT_KV_HEADS, heads)
    return Dims(layers, width, heads, min(kv_heads, heads))


class MoeSplit(NamedTuple):
    """Shared weights and weights per expert, from total and active parameters."""

    shared: float
    per_expert: float
    experts: int
    top_k: int


def moe_split(total: float, active: float, experts: int, top_k: int) -> MoeSplit:
    """P = s + E·e and A = s + k·e solved for e = (P - A) / (E - k) and s = P - E·e."""
    per_expert = (total - active) / (experts - top_k)
    shared = max(0.0, total - experts * per_expert)
    return MoeSplit(shared, per_expert, experts, top_k)


def decode_weights(total: float, active: float | None, split: MoeSplit | None, batch: int) -> float:
    """Parameters one decode step of `batch` sequences reads.

    Dense: all of them. Mixture of experts: the shared weights and the experts any sequence of the
    batch routes to, E·(1 - (1 - k/E)^B) of them on average when routing is uniform; with only the
    active count known, min(total, batch x active), which assumes no two sequences share an expert.
    """
    if active is None or active >= total:
        return total
    if split is None:
        return min(total, batch * active)
    touched = split.experts * (1.0 - (1.0 - split.top_k / split.experts) ** batch)
    return min(total, split.shared + touched * split.per_expert)


def activation_bytes_per_layer(
    mode: Checkpointing,
    tokens: int,
    width: int,
    heads: int,
    context: int,
    top_k: int = 1,
    value_bytes: float = 2.0,
    attention_scores: bool = False,
) -> float:
    """Bytes one layer keeps for the backward pass for `tokens` = micro-batch x context tokens.

    Korthikanti et al. 2022 count 2-byte values; `value_bytes` scales them (4 for fp32 training). Their
    5·a·s/h term is the attention's score and softmax matrices, which a fused (flash) attention kernel never
    keeps (Dao et al. 2022): it recomputes them in the backward pass, as selective recomputation does. The
    estimator assumes such a kernel (PyTorch's scaled_dot_product_attention, JAX's splash attention), so
    `attention_scores` is False unless the scores are materialised.
    """
    selective = ATTENTION_ACT + NORM_ACT + MLP_ACT * top_k
    scale = value_bytes / 2.0
    if mode == "none":
        scores = SCORES_ACT * heads * context / width if attention_scores else 0.0
        return tokens * width * (selective + scores) * scale
    if mode == "selective":
        return tokens * width * selective * scale
    return tokens * width * 2.0 * scale  # full: the layer's input, in 2-byte values


def activation_bytes(
    mode: Checkpointing,
    layers: int,
    tokens: int,
    width: int,
    heads: int,
    context: int,
    top_k: int = 1,
    value_bytes: float = 2.0,
    attention_scores: bool = False,
) -> float:
    """Activation bytes of one micro-batch over all layers; full checkpointing adds one layer's working set."""
    per_layer = activation_bytes_per_layer(mode, tokens, width, heads, context, top_k, value_bytes, attention_scores)
    total = layers * per_layer
    if mode == "full":
        total += activation_bytes_per_layer("none", tokens, width, heads, context, top_k, value_bytes, attention_scores)
    return total


class Layout(NamedTuple):
    """One copy of a training run: tensor parallel x (pipeline or sharded data parallel) chips."""

    tensor: int
    shards: int
    checkpointing: Checkpointing
    activations: float  # bytes of one micro-batch over all layers (what the first stage keeps, over t chips)
    per_chip: float  # bytes on the fullest chip: state / (t x p) + activations / t

    @property
    def chips(self) -> int:
        return self.tensor * self.shards


def _powers_of_two(limit: int) -> list[int]:
    out, n = [], 1
    while n <= limit:
        out.append(n)
        n *= 2
    return out


def tensor_limit(domain: int | None, heads: int) -> int:
    """The largest tensor-parallel group: within the fast-link group, at most 8, dividing the heads."""
    limit = min(MAX_TENSOR_PARALLEL, domain or 1)
    best = 1
    for t in _powers_of_two(limit):
        if heads % t == 0:
            best = t
    return best


def best_layout(
    state_bytes: float,
    activations: dict[Checkpointing, float],
    chip_memory: float,
    max_tensor: int,
    max_shards: int = 1 << 24,
) -> Layout | None:
    """The fewest chips that hold one copy: for each checkpointing mode offered and each tensor
    degree t (powers of two up to max_tensor), the smallest power-of-two p with
    state/(t·p) + activations/t <= chip memory. Ties go to less recomputation, then to more tensor
    parallel (fewer pipeline stages or shards). None when nothing fits."""
    best: Layout | None = None
    for mode in CHECKPOINTING_ORDER:
        if mode not in activations:
            continue
        act = activations[mode]
        for t in reversed(_powers_of_two(max_tensor)):
            room = chip_memory - act / t
            if room <= 0:
                continue
            need = state_bytes / (t * room)
            p = 1
            while p < need and p < max_shards:
                p *= 2
            if p < need:
                continue
            layout = Layout(t, p, mode, act, state_bytes / (t * p) + act / t)
            if best is None or layout.chips < best.chips:
                best = layout
    return best


@functools.lru_cache(maxsize=64)
def _divisors(n: int) -> tuple[int, ...]:
    """The divisors of n, smallest first (kept: every chip of an estimate asks for the same few n)."""
    small = [d for d in range(1, math.isqrt(n) + 1) if n % d == 0]
    return tuple(sorted(set(small + [n // d for d in small])))


def _smallest_divisor_from(n: int, low: int) -> int | None:
    """The smallest divisor of n that is at least `low`, or None when low > n."""
    found = _divisors(n)
    i = bisect.bisect_left(found, low)
    return found[i] if i < len(found) else None


def fastest_layout(
    state_bytes: float,
    activations: dict[Checkpointing, float],
    chip_memory: float,
    max_tensor: int,
    chips: int,
    recompute: dict[Checkpointing, float],
) -> Layout | None:
    """The layout of one copy that finishes soonest on `chips` chips, each chip within its memory.

    For each checkpointing mode offered and each tensor degree t (powers of two up to max_tensor and
    the chips), the state is sharded over p chips (FSDP / ZeRO-3; p = 1 is plain data parallel), with
    state/(t·p) + activations/t within the chip. The time is the recomputation factor over the chips
    working (whole copies of t·p chips); of the p that fit, the smallest one that divides the chips / t
    (no chip idle), else the smallest that fits. Ties go to less recomputation, then to less tensor parallel
    (its all-reduces sit on every layer's critical path, where FSDP's gathers overlap the compute), then to
    fewer chips per copy. Pipeline stages are not searched: with the
    same memory per chip as FSDP (the first stage keeps one micro-batch's activations of every layer
    under 1F1B) they add a bubble and no speed. None when nothing fits on the chips given."""
    best: tuple[tuple[float, int, int, int], Layout] | None = None
    for order, mode in enumerate(CHECKPOINTING_ORDER):
        if mode not in activations:
            continue
        act = activations[mode]
        for t in _powers_of_two(min(max_tensor, chips)):
            room = chip_memory - act / t
            if room <= 0:
                continue
            least = max(1, math.ceil(state_bytes / (t * room) - 1e-9))
            groups = chips // t
            if least > groups:
                continue
            for p in dict.fromkeys(p for p in (_smallest_divisor_from(groups, least), least) if p is not None):
                used = (chips // (t * p)) * t * p
                key = (recompute.get(mode, 1.0) / used, order, t, t * p)
                if best is None or key < best[0]:
                    best = (key, Layout(t, p, mode, act, state_bytes / (t * p) + act / t))
    return best[1] if best is not None else None
