"""The estimator's rules across inputs, in one place: the request model (core.estimate_models) runs them, the
`estimate` command and the window read a broken rule's field and its words in the language in use.

Each rule raises RuleError: the input it is about (an EstimateRequest field), a text id of
resources/text/estimate.*.toml ([rule]) and its values. Its str() is the English words, so pydantic's message
(and a saved session's error) stays English; `words()` says it in the language in use.
"""

from __future__ import annotations

import math
from typing import Any

#: an EstimateRequest (core.estimate_models runs these rules, so this module does not import it back)
EstimateRequest = Any


class RuleError(ValueError):
    """A broken rule: the field it is about, its text id ([rule]) and the values of its placeholders."""

    def __init__(self, field: str, ident: str, **values: str) -> None:
        self.field = field
        self.ident = ident
        self.values = values
        super().__init__(self.words("en"))

    def words(self, language: str | None = None) -> str:
        """The rule in `language` (None: the language in use)."""
        from gpu_tpu_app.core.texts import text

        return text(f"estimate.rule.{self.ident}", language=language, **self.values)


def check(req: EstimateRequest, max_price: float) -> None:
    """Raise RuleError for the first rule `req` breaks."""
    if req.mode == "inference" and req.tokens is None:
        raise RuleError("tokens", "inference_tokens")
    if req.finetune is not None and req.mode != "training":
        raise RuleError("finetune", "finetune_training")
    latency = {"ttft_ms": req.ttft_ms, "tpot_ms": req.tpot_ms, "requests_per_s": req.requests_per_s}
    latency["output_len"] = req.output_len
    if req.mode != "inference":
        for field, value in latency.items():
            if value is not None:
                raise RuleError(field, "latency_serving")
    if req.requests_per_s is not None and req.output_len is None:
        raise RuleError("output_len", "rate_output")
    if req.output_len is not None and req.output_len >= (req.context or 2048):
        raise RuleError("output_len", "output_context", context=str(req.context or 2048))
    if req.finetune is not None and req.tokens is None:
        raise RuleError("tokens", "finetune_tokens")
    for chip_id, price in req.prices.items():
        if not (math.isfinite(price) and 0 <= price <= max_price):
            raise RuleError("prices", "price_range", chip=repr(chip_id), limit=f"{max_price:,.0f}")
    if req.kv_heads is not None and req.heads is not None and req.kv_heads > req.heads:
        raise RuleError("kv_heads", "kv_heads_over")
    if req.width is not None and req.heads is not None and req.width % req.heads:
        raise RuleError("width", "width_heads")
    _check_moe(req)
    if req.strict_fp32 and req.dtype in ("float8", "int8"):
        raise RuleError("dtype", "dtype_fp32", dtype=req.dtype)
    if req.mode == "training" and req.dtype not in ("bfloat16", "float8"):
        raise RuleError("dtype", "dtype_training", dtype=req.dtype)


def _check_moe(req: EstimateRequest) -> None:
    if (req.experts is None) != (req.top_k is None):
        raise RuleError("top_k" if req.top_k is None else "experts", "experts_together")
    if req.active_params is not None and req.active_params > req.params:
        raise RuleError("active_params", "active_over_params")
    if req.experts is None or req.top_k is None:
        return
    if req.active_params is None:
        raise RuleError("active_params", "active_required")
    if req.top_k >= req.experts:
        raise RuleError("top_k", "top_k_over_experts")
    if req.active_params * req.experts < req.top_k * req.params * (1 - 1e-9):
        raise RuleError("active_params", "active_too_few")
