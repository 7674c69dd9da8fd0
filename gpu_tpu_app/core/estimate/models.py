"""The estimator's inputs and results: what to estimate, and one row per chip.

Kept apart from the arithmetic (core/estimate.py, which re-exports every name here) so each file
stays readable; saved sessions store EstimateRequest, and `estimate --format json` prints Estimate.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from gpu_tpu_app.core import transformer
from gpu_tpu_app.core.prices import MAX_CHIP_HOUR_USD, Quote
from gpu_tpu_app.shared.terms import DTYPE_BYTES, ServingDtype

_FROZEN = ConfigDict(extra="forbid", frozen=True)

#: row families that come from the user's own devices or model rather than the catalogue: no price, no cost.
OWN_FAMILIES = frozenset({"measured", "compiled"})


#: upper bounds that keep every product of the estimate finite (6 x N x D stays far below 1e308)
#: and are far beyond any real model: the largest published models have about 2e12 parameters
#: and were trained on about 4e13 tokens.
MAX_PARAMS = 1e15
MAX_TOKENS = 1e18
MAX_CHIPS = 10_000_000
#: USD per chip-hour; rented accelerators cost a few dollars an hour.
MAX_PRICE = MAX_CHIP_HOUR_USD  # the price table and local catalogues hold to it too


class EstimateRequest(BaseModel):
    """What to estimate: model size and shape, tokens, mode, chips, serving batch and context, MFU, prices.

    Fields added after the first version all have defaults, so estimator inputs saved in older
    sessions still load.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, str_max_length=1_000)

    params: float = Field(gt=0, le=MAX_PARAMS)
    tokens: float | None = Field(default=None, gt=0, le=MAX_TOKENS)
    mode: Literal["training", "inference"] = "training"
    chips: int = Field(default=1, ge=1, le=MAX_CHIPS)
    mfu: float | None = Field(default=None, gt=0, le=1)
    prices: dict[str, float] = Field(default_factory=dict)  # chip id -> USD per chip-hour
    batch: int | None = Field(default=None, ge=1, le=1_000_000)  # sequences decoded together per copy
    context: int | None = Field(default=None, ge=1, le=100_000_000)  # tokens per sequence (KV length)
    prompt_tokens: float | None = Field(default=None, ge=0, le=MAX_TOKENS)  # total tokens to prefill
    layers: int | None = Field(default=None, ge=1, le=100_000)
    width: int | None = Field(default=None, ge=1, le=10_000_000)
    heads: int | None = Field(default=None, ge=1, le=100_000)
    kv_heads: int | None = Field(default=None, ge=1, le=100_000)
    dtype: ServingDtype = "bfloat16"
    # mixture of experts: the parameters each token uses, the experts and how many serve a token
    active_params: float | None = Field(default=None, gt=0, le=MAX_PARAMS)
    experts: int | None = Field(default=None, ge=2, le=100_000)
    top_k: int | None = Field(default=None, ge=1, le=100_000)
    #: width / layers of the default shape (None: 128)
    aspect_ratio: float | None = Field(default=None, ge=1, le=10_000)
    micro_batch: int | None = Field(default=None, ge=1, le=100_000)  # training sequences per micro-step
    checkpointing: Literal["auto", "none", "selective", "full"] = "auto"
    strict_fp32: bool = False  # the workload needs full fp32 matmuls (no bf16 or TF32)
    bw_share: float | None = Field(default=None, gt=0, le=1)  # share of peak bandwidth decode reaches
    steps: float | None = Field(default=None, gt=0, le=MAX_TOKENS)  # steps of your compiled model to run
    price_cloud: str | None = Field(default=None, max_length=100)  # price in this cloud only (default: any)
    price_region: str | None = Field(default=None, max_length=100)  # price in this region only (default: any)
    #: training: a fine-tune of every weight, or LoRA / QLoRA adapters on frozen weights (None: pre-training)
    finetune: Literal["full", "lora", "qlora"] | None = None
    lora_rank: int = Field(default=16, ge=1, le=65_536)  # LoRA / QLoRA adapter rank
    #: serving to latency targets: time to the first token and per output token (ms), a request rate, and
    #: the tokens each request generates (its prompt is the context less these)
    ttft_ms: float | None = Field(default=None, gt=0, le=1e7)
    tpot_ms: float | None = Field(default=None, gt=0, le=1e7)
    requests_per_s: float | None = Field(default=None, gt=0, le=1e9)
    output_len: int | None = Field(default=None, ge=1, le=100_000_000)
    #: the share of wall-clock time that makes progress (preemptions, restarts, checkpoints): time and cost are
    #: divided by it; None: 1 on demand, and spot_goodput (None: SPOT_GOODPUT) on top of it for the spot cost
    goodput: float | None = Field(default=None, gt=0, le=1)
    spot_goodput: float | None = Field(default=None, gt=0, le=1)

    @model_validator(mode="after")
    def _check(self) -> EstimateRequest:
        from gpu_tpu_app.core.estimate.rules import check

        check(self, MAX_PRICE)  # a RuleError: the field, and the rule in every language
        return self

    @property
    def active(self) -> float:
        """Parameters each token uses: the active ones of a mixture of experts, else all."""
        return self.active_params if self.active_params is not None else self.params

    @property
    def adapters(self) -> bool:
        """LoRA or QLoRA: frozen weights with trained low-rank adapters."""
        return self.finetune in ("lora", "qlora")

    @property
    def value_bytes(self) -> float:
        """Bytes per weight and KV value when serving (4 under strict fp32)."""
        return 4.0 if self.strict_fp32 else DTYPE_BYTES[self.dtype]


class MeasuredDevice(BaseModel):
    """A device probed on this machine: its best measured matmul throughput, shown as an extra row."""

    model_config = _FROZEN

    name: str = Field(min_length=1)
    #: the name in the language in use where the app adds words to it (a smoke run's); None: `name`
    shown_name: str | None = Field(default=None, exclude=True)
    flops: float = Field(gt=0, allow_inf_nan=False)  # FLOP/s
    memory_bytes: float | None = Field(default=None, ge=0)
    key: str | None = None  # DeviceInfo.key, e.g. "torch:cuda:0"
    host: str | None = None  # where it was measured; None means this machine
    bandwidth: float | None = Field(default=None, gt=0, allow_inf_nan=False)  # best measured B/s, if any


class Shape(BaseModel):
    """The model shape the estimate used, and where each part came from."""

    model_config = _FROZEN

    layers: int
    width: int
    heads: int
    kv_heads: int
    head_size: float
    kv_bytes_per_token: float
    origin: str  # "given", or how the defaults were found
    aspect_ratio: float = transformer.DEFAULT_ASPECT_RATIO


class Moe(BaseModel):
    """A mixture of experts as the estimate split it."""

    model_config = _FROZEN

    total: float
    active: float
    experts: int | None = None
    top_k: int | None = None
    shared: float | None = None  # weights every token uses
    per_expert: float | None = None
    decode_params: float  # parameters one decode step of the batch reads


class FineTune(BaseModel):
    """A fine-tune as the estimate counted it, with its arithmetic in English (JSON is a contract for tools)."""

    model_config = _FROZEN

    method: Literal["full", "lora", "qlora"]
    rank: int | None  # LoRA / QLoRA adapter rank
    adapter_params: float  # trained adapter parameters (0 for a full fine-tune)
    frozen_bytes_per_param: float | None  # bytes a frozen weight takes (None: every weight is trained)
    state_bytes: float  # weights, gradients and optimizer state before activations
    weight_flops_per_token: float  # training FLOPs per token of the weights (without attention)
    arithmetic: str  # how state_bytes and weight_flops_per_token were worked out
    sources: list[str]


class LatencyFit(BaseModel):
    """One chip's serving at the latency targets; None figures where the target cannot be met."""

    model_config = _FROZEN

    chips_per_copy: int
    batch: int | None  # the largest batch per copy that meets the targets and fits
    max_batch_memory: int  # the largest batch whose KV cache fits the copy
    ttft_ms: float  # the first token of a request alone
    tpot_ms: float | None  # per output token at `batch` (at batch 1 when no batch meets the target)
    tokens_per_s_chip: float | None
    usd_per_mtok: float | None
    requests_per_s_copy: float | None
    chips_for_rate: int | None  # for --requests-per-s
    met: bool
    #: what misses and by how much, as text ids and values (English in `missed`)
    missed: list[str]
    missed_texts: list[tuple[str, dict[str, str]]] = Field(default_factory=list, exclude=True)
    arithmetic: str


class ChipEstimate(BaseModel):
    """One row: time (with a range), bound, memory per copy and fit, and cost on one kind of chip."""

    model_config = _FROZEN

    chip_id: str
    chip_name: str
    #: the name as a text id and values, for a row the app names (a measured device, your compiled model)
    chip_name_text: tuple[str, dict[str, str]] | None = Field(default=None, exclude=True)
    family: str  # "gpu", "tpu", "other", or "measured" for a probed device
    peak_flops: float | None  # FLOP/s per chip used for the time
    peak_dtype: str | None  # which peak: "bfloat16", "float16" where a chip has no bf16, "measured"
    mfu: float  # midpoint of the range, orders the rows
    mfu_low: float
    mfu_high: float
    mfu_source: str
    #: where the MFU comes from as a text id and values, where the app words it (not the catalogue's note)
    mfu_source_text: tuple[str, dict[str, str]] | None = Field(default=None, exclude=True)
    days: float | None  # at the midpoint MFU
    days_low: float | None  # at the high MFU
    days_high: float | None  # at the low MFU
    bound: Literal["compute", "memory"] | None  # what limits the (decode) step; None when unknown
    fits: bool | None
    memory_needed_bytes: float | None  # per model copy (training: state + activations); None: not known
    memory_available_bytes: float | None  # on the chips one copy uses
    chip_memory_bytes: float | None = None
    chip_memory_stated: str | None = None  # per chip as the vendor publishes it: "80 GB", "16 GiB"
    chips_per_copy: int | None = None
    copies: int | None = None
    mem_bw: float | None = None  # B/s per chip, nominal, used for the decode step
    bw_share_low: float | None = None  # share of mem_bw decode reaches (range)
    bw_share_high: float | None = None
    prefill_days: float | None = None
    decode_days: float | None = None
    step_seconds: float | None = None  # one decode step of one copy
    tokens_per_second: float | None = None  # all copies together
    # training layout: tensor parallel x (pipeline stages or sharded data parallel), recomputation
    tensor_parallel: int | None = None
    shards: int | None = None
    checkpointing: str | None = None
    activation_bytes: float | None = None  # one micro-batch over all layers
    per_chip_bytes: float | None = None  # on the fullest chip of a copy (serving: the copy over its chips)
    pipeline_stages: int | None = None  # serving: pipeline stages of a copy past its tensor-parallel group
    #: the layout in words ("FSDP 8 (no recompute)", serving "TP 4 x DP 2") and, training, why, in English
    layout: str | None = None
    layout_why: str | None = None
    #: the reasons as (text id, values) for other languages; not in the JSON form
    layout_why_texts: list[tuple[str, dict[str, str]]] = Field(default_factory=list, exclude=True)
    warnings: list[str] = Field(default_factory=list)
    #: the layout warnings as (id, values) for other languages (core.estimate_layout); not in the JSON form
    warning_texts: list[tuple[str, dict[str, str]]] = Field(default_factory=list, exclude=True)
    #: why the row has no time, in English (None: it has one); the id and values for other languages
    no_time: str | None = None
    no_time_text: tuple[str, dict[str, str]] | None = Field(default=None, exclude=True)
    cost_usd: float | None
    price: Quote | None = None  # the on-demand price the cost uses: the user's, else the cheapest known
    spot_price: Quote | None = None  # the cheapest spot price known, shown beside
    spot_cost_usd: float | None = None
    spot_days: float | None = None  # the time at spot goodput (more restarts), at the middle of the range
    usd_per_mtok: float | None = None  # serving: cost per million tokens generated
    latency: LatencyFit | None = None  # serving with --ttft-ms / --tpot-ms / --requests-per-s
    spot_usd_per_mtok: float | None = None


#: the row type the shared wording module formats.
EstimateRow = ChipEstimate


class Estimate(BaseModel):
    """The result: total FLOPs, the rules used (with source ids) and one row per chip, fastest first."""

    model_config = _FROZEN

    request: EstimateRequest
    tokens: float  # tokens used: given, or 20 x params for training
    tokens_default: bool = False  # True when tokens is the compute-optimal 20 x N default
    flops: float
    rule: str
    memory_rule: str
    sources: list[str]
    shape: Shape | None = None
    batch: int | None = None
    context: int | None = None
    prompt_tokens: float | None = None
    micro_batch: int | None = None
    moe: Moe | None = None
    finetune: FineTune | None = None
    bw_share_source: str | None = None  # where the decode share of bandwidth comes from
    fp32_note: str | None = None  # how strict fp32 was priced, when asked for
    compiled_rule: str | None = None  # how the rows from your compiled model are worked out, when there are any
    goodput: float = 1.0  # the share of time making progress the times and on-demand costs use
    spot_goodput: float = 1.0  # the same for the spot cost (times goodput)
    goodput_note: str | None = None  # where both come from, with the arithmetic of the spot default
    rows: list[ChipEstimate]
