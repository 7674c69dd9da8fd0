"""The workload's arithmetic, worked out once per estimate and shared by every chip's row.

The model shape (the user's parts, the rest from the parameter count at a width-to-depth ratio),
the FLOPs of a training run (6·A·D plus the attention term 12·L·c·d·D, Hoffmann et al. 2022) or of
serving ((2·A + 4·L·c·d) per token), the mixture of experts split, and the bytes: the training state
(16 B per parameter, all experts), one micro-batch's activations per checkpointing mode (Korthikanti
et al. 2022, core/transformer.py), a serving copy's weights and KV cache, and what one decode step
reads. Nothing here depends on a chip.
"""

from __future__ import annotations

from typing import NamedTuple

from gpu_tpu_app.core import transformer
from gpu_tpu_app.core.estimate.models import EstimateRequest, FineTune, Moe, Shape
from gpu_tpu_app.core.transformer import Checkpointing

#: Compute-optimal tokens per parameter (Hoffmann et al. 2022).
TOKENS_PER_PARAM = 20.0
#: Mixed-precision AdamW training state per parameter, before activations.
TRAINING_BYTES_PER_PARAM = 16.0
#: LoRA / QLoRA: frozen weights kept at 2 B (bf16; 4 under strict fp32), or for QLoRA as 4-bit NormalFloat
#: with double-quantised constants, 4.127 bits a weight (Dettmers et al. 2023, section 3: the constants
#: cost 0.127 bits per parameter after double quantisation).
QLORA_BITS_PER_PARAM = 4.127
#: LoRA adapters on each of the block's linear layers (Hu et al. 2021), in the 12·L·d² block the shape
#: assumes (four d x d attention projections, two d x 4d MLP matrices): r x (in + out) each,
#: r x (4 x 2d + 2 x 5d) = 18 x r x d per layer.
LORA_PARAMS_PER_RANK_WIDTH = 18.0
#: spot capacity is taken back at short notice; with a checkpoint every 30 minutes, each preemption loses half
#: an interval (15 min) of work on average plus about 10 minutes to get capacity back and restart. At one
#: preemption every 6 hours that is 25 / 360 min lost: goodput 1 - 25/360 = 0.93. These are the app's stated
#: assumptions, not a measurement; --spot-goodput sets your own.
SPOT_GOODPUT = 1.0 - (15.0 + 10.0) / 360.0
FINETUNE_SOURCES = {"lora": ["hu-2021-lora"], "qlora": ["hu-2021-lora", "dettmers-2023-qlora"]}
#: serving: runtime buffers on top of the weights when checking whether a copy fits (research notes:
#: inference memory is about 1.2 x the weight bytes); a decode step still reads weights + KV cache only.
INFERENCE_OVERHEAD = 1.2
#: training: the output layer's logits, kept for the loss: a bf16 copy (2 B) and the fp32 copy the softmax
#: cross-entropy works in (4 B), 6 B per token and vocabulary entry, over the vocabulary of Llama 3's tokenizer
#: (128,256 entries; the request has no vocabulary input). 8B at a context of 2,048: 2,048 x 128,256 x 6 B = 1.58 GB
#: a sequence. With tensor parallel the output layer is split over the vocabulary, so it divides like the rest.
VOCAB = 128_256
LOGIT_BYTES = 6.0
#: training: memory a chip cannot give to the layout: 1 GB for the runtime (the CUDA context, the math and
#: collective libraries' workspaces; XLA's on a TPU) and 5 % of the chip for the allocator's fragmentation. The
#: app's stated assumption, not a measurement: an 80 GB H100 gives 80 x 0.95 - 1 = 75 GB to the layout.
RUNTIME_RESERVE_BYTES = 1e9
FRAGMENTATION_SHARE = 0.05
#: context length (tokens per sequence) when none is given.
DEFAULT_CONTEXT = 2048
#: sequences decoded together per model copy when none is given.
DEFAULT_BATCH = 1
#: training sequences per micro-step of one copy when none is given (Megatron-LM and Llama 3 run 1).
DEFAULT_MICRO_BATCH = 1


def shape_origin(req: EstimateRequest, ratio: float, language: str | None = None) -> str:
    """Where the shape comes from: given, derived from the parameter count (or the active parameters) at the
    width-to-depth ratio, or partly each; in `language` (None: the language in use)."""
    from gpu_tpu_app.core.texts import text

    given = [v is not None for v in (req.layers, req.width, req.heads, req.kv_heads)]
    if all(given):
        return text("estimate.inputs.shape_given", language=language)
    which = "active" if req.active_params is not None else "params"
    part = "partly" if any(given) else "from"
    return text(f"estimate.inputs.shape_{part}_{which}", language=language, ratio=f"{ratio:g}")


def model_shape(req: EstimateRequest) -> Shape:
    """The shape used for the KV cache, the attention term and the activations: the user's parts, the
    rest from the parameter count (the active ones of a mixture of experts) at the width-to-depth ratio."""
    ratio = req.aspect_ratio or transformer.DEFAULT_ASPECT_RATIO
    dims = transformer.default_dims(req.active, ratio, req.layers, req.width, req.heads, req.kv_heads)
    head_size = dims.width / dims.heads
    kv_per_token = 2.0 * dims.layers * dims.kv_heads * head_size * req.value_bytes
    origin = shape_origin(req, ratio, language="en")  # the Estimate (and its JSON) keeps English
    return Shape(
        layers=dims.layers,
        width=dims.width,
        heads=dims.heads,
        kv_heads=dims.kv_heads,
        head_size=head_size,
        kv_bytes_per_token=kv_per_token,
        origin=origin,
        aspect_ratio=ratio,
    )


def attention_flops_per_token(shape: Shape, context: int) -> float:
    """Forward attention FLOPs per token at `context` tokens: scores and weighted sum, 4 x L x c x d."""
    return 4.0 * shape.layers * context * shape.width


def adapter_params(req: EstimateRequest, shape: Shape | None = None) -> float:
    """Trained LoRA / QLoRA adapter parameters: 18 x r x d per layer (0 for a full fine-tune or pre-training)."""
    if not req.adapters:
        return 0.0
    shape = shape or model_shape(req)
    return LORA_PARAMS_PER_RANK_WIDTH * req.lora_rank * shape.width * shape.layers


def frozen_bytes_per_param(req: EstimateRequest) -> float:
    """Bytes a frozen weight takes under LoRA (2, 4 under strict fp32) or QLoRA (4.127 bits)."""
    if req.finetune == "qlora":
        return QLORA_BITS_PER_PARAM / 8.0
    return 4.0 if req.strict_fp32 else 2.0


def weight_flops_per_token(req: EstimateRequest, shape: Shape | None = None) -> float:
    """Training FLOPs per token of the weights: 6·A (forward 2, backward 4); with frozen weights (LoRA,
    QLoRA) 4·A (forward 2, the activations' gradients 2, no weight gradients) plus 6 per adapter parameter."""
    if req.adapters:
        return 4.0 * req.active + 6.0 * adapter_params(req, shape)
    return 6.0 * req.active


def finetune_of(req: EstimateRequest, shape: Shape | None = None) -> FineTune | None:
    """The fine-tune's adapters, state and FLOPs per token with their arithmetic; None for pre-training."""
    if req.finetune is None:
        return None
    shape = shape or model_shape(req)
    adapters = adapter_params(req, shape)
    state = training_state(req, shape)
    flops = weight_flops_per_token(req, shape)
    frozen = frozen_bytes_per_param(req) if req.adapters else None
    how = finetune_words(req, shape, language="en")
    return FineTune(
        method=req.finetune,
        rank=req.lora_rank if req.adapters else None,
        adapter_params=adapters,
        frozen_bytes_per_param=frozen,
        state_bytes=state,
        weight_flops_per_token=flops,
        arithmetic=how,
        sources=FINETUNE_SOURCES.get(req.finetune, []),
    )


def finetune_words(req: EstimateRequest, shape: Shape | None = None, language: str | None = None) -> str:
    """How a fine-tune's state and FLOPs per token were worked out, in `language` (None: the one in use)."""
    from gpu_tpu_app.core.texts import text

    shape = shape or model_shape(req)
    adapters = adapter_params(req, shape)
    values = {
        "n": f"{req.params:.4g}",
        "a": f"{req.active:.4g}",
        "state": f"{training_state(req, shape):.4g}",
        "flops": f"{weight_flops_per_token(req, shape):.4g}",
    }
    if not req.adapters:
        return text("estimate.finetune.arith_full", language=language, **values)
    return text(
        "estimate.finetune.arith_adapters",
        language=language,
        r=str(req.lora_rank),
        d=str(shape.width),
        layers=str(shape.layers),
        adapters=f"{adapters:.4g}",
        frozen=f"{frozen_bytes_per_param(req):.4g}",
        **values,
    )


def training_tokens(req: EstimateRequest) -> float:
    """Tokens to train on: given, or 20 per parameter (all experts counted)."""
    return req.tokens if req.tokens is not None else TOKENS_PER_PARAM * req.params


def total_flops(req: EstimateRequest) -> tuple[float, float]:
    """(FLOPs, tokens): training (6A + 12·L·c·d)·D with D = 20·N by default; serving (2A + 4·L·c·d) per
    token served (prompt and generated); A the parameters each token uses."""
    shape = model_shape(req)
    context = req.context or DEFAULT_CONTEXT
    attention = attention_flops_per_token(shape, context)
    if req.mode == "training":
        tokens = training_tokens(req)
        return (weight_flops_per_token(req, shape) + 3.0 * attention) * tokens, tokens
    assert req.tokens is not None
    served = req.tokens + (req.prompt_tokens or 0.0)
    return (2.0 * req.active + attention) * served, req.tokens


def moe_of(req: EstimateRequest) -> Moe | None:
    """The mixture of experts split, or None for a dense model."""
    if req.active_params is None:
        return None
    split = None
    if req.experts is not None and req.top_k is not None:
        split = transformer.moe_split(req.params, req.active_params, req.experts, req.top_k)
    batch = (req.batch or DEFAULT_BATCH) if req.mode == "inference" else 1
    return Moe(
        total=req.params,
        active=req.active_params,
        experts=req.experts,
        top_k=req.top_k,
        shared=split.shared if split else None,
        per_expert=split.per_expert if split else None,
        decode_params=transformer.decode_weights(req.params, req.active_params, split, batch),
    )


def usable_memory(chip_memory: float) -> float:
    """What a chip gives a training layout: its memory less 5 % for fragmentation and 1 GB for the runtime."""
    return chip_memory * (1.0 - FRAGMENTATION_SHARE) - RUNTIME_RESERVE_BYTES


def logits_bytes(req: EstimateRequest) -> float:
    """The logits one training micro-batch keeps for its loss: micro-batch x context x vocabulary x 6 B."""
    return (req.micro_batch or DEFAULT_MICRO_BATCH) * (req.context or DEFAULT_CONTEXT) * VOCAB * LOGIT_BYTES


def activations(req: EstimateRequest, shape: Shape | None = None) -> dict[Checkpointing, float]:
    """Bytes one training micro-batch keeps for the backward pass, per checkpointing mode offered: the layers'
    activations (core/transformer.py) plus the output layer's logits (no checkpointing mode drops them)."""
    shape = shape or model_shape(req)
    context = req.context or DEFAULT_CONTEXT
    tokens = (req.micro_batch or DEFAULT_MICRO_BATCH) * context
    modes = transformer.CHECKPOINTING_ORDER if req.checkpointing == "auto" else (req.checkpointing,)
    logits = logits_bytes(req)
    return {
        mode: logits
        + transformer.activation_bytes(
            mode,
            shape.layers,
            tokens,
            shape.width,
            shape.heads,
            context,
            top_k=req.top_k or 1,
            value_bytes=4.0 if req.strict_fp32 else 2.0,
        )
        for mode in modes
    }


def training_state(req: EstimateRequest, shape: Shape | None = None) -> float:
    """Bytes of weights, gradients and optimizer state: 16 per parameter, all experts; with LoRA / QLoRA the
    frozen weights at their bytes plus 16 per adapter parameter."""
    if req.adapters:
        return frozen_bytes_per_param(req) * req.params + TRAINING_BYTES_PER_PARAM * adapter_params(req, shape)
    return TRAINING_BYTES_PER_PARAM * req.params


def memory_needed(req: EstimateRequest) -> float:
    """Bytes per model copy: the training state plus, for the least recomputation offered, one
    micro-batch's activations; weights plus KV cache (batch x context) for serving."""
    if req.mode == "training":
        return training_state(req) + next(iter(activations(req).values()))
    return INFERENCE_OVERHEAD * req.params * req.value_bytes + kv_bytes(req)


def kv_bytes(req: EstimateRequest) -> float:
    """KV-cache bytes of one model copy: batch x context tokens."""
    return (req.batch or DEFAULT_BATCH) * (req.context or DEFAULT_CONTEXT) * model_shape(req).kv_bytes_per_token


def step_bytes(req: EstimateRequest) -> float:
    """Bytes one decode step of one copy reads: the weights it uses (all of a dense model; the shared
    weights and the routed experts of a mixture) and the whole KV cache."""
    moe = moe_of(req)
    weights = moe.decode_params if moe is not None else req.params
    return weights * req.value_bytes + kv_bytes(req)


def recompute_factor(mode: str | None, shape: Shape, req: EstimateRequest) -> float:
    """Hardware FLOPs over model FLOPs: selective recomputation repeats the attention core's forward
    pass, full checkpointing the whole forward pass."""
    if mode not in ("selective", "full"):
        return 1.0
    attention = attention_flops_per_token(shape, req.context or DEFAULT_CONTEXT)
    model = weight_flops_per_token(req, shape) + 3.0 * attention
    extra = attention if mode == "selective" else 2.0 * req.active + attention
    return (model + extra) / model


class Workload(NamedTuple):
    """What every row shares, worked out once: the shape, one copy's memory, a decode step's bytes,
    the training state and the activations per checkpointing mode."""

    shape: Shape
    needed: float
    step_bytes: float
    state: float
    activations: dict[Checkpointing, float]
    recompute: dict[Checkpointing, float]  # hardware over model FLOPs, per checkpointing mode offered


def workload(req: EstimateRequest) -> Workload:
    """The request's shape and bytes, once for all rows (a serving copy's step bytes, a training run's activations)."""
    shape = model_shape(req)
    training = req.mode == "training"
    acts = activations(req, shape) if training else {}
    return Workload(
        shape=shape,
        needed=memory_needed(req),
        step_bytes=0.0 if training else step_bytes(req),
        state=training_state(req, shape),
        activations=acts,
        recompute={mode: recompute_factor(mode, shape, req) for mode in acts},
    )
