"""How one model copy sits on a device's chips, and what the layout leaves unmodelled.

Training: the layout that finishes soonest on the chips given with every chip within its memory:
tensor parallel inside a fast-link group, the state sharded (FSDP / ZeRO-3) or not, and the least
recomputation that fits (core.transformer.fastest_layout); when none fits, the fewest chips one copy
would need (core.transformer.best_layout). Serving: tensor parallel in powers of two that divide the heads and
the KV heads within the fast-link group, pipeline stages only past it (serving_plan). The copies are
the chips given over the chips per copy; the warnings say when a copy does not fit, spans more than a
fast-link group, or leaves chips idle.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from gpu_tpu_app.core import transformer
from gpu_tpu_app.core.estimate.devices import Device
from gpu_tpu_app.core.estimate.models import EstimateRequest
from gpu_tpu_app.core.estimate.workload import Workload, usable_memory


class Plan(NamedTuple):
    """How one copy sits on a device: chips per copy, copies, the training layout, and a serving copy's
    tensor parallel degree, pipeline stages and bytes on each of its chips."""

    per_copy: int | None
    copies: int | None
    layout: transformer.Layout | None
    tensor: int | None = None  # serving
    stages: int | None = None  # serving: pipeline stages of tensor-parallel groups
    per_chip: float | None = None  # serving: one copy's memory over its chips


def serving_tensor_limit(domain: int | None, heads: int, kv_heads: int) -> int:
    """The largest tensor-parallel degree a serving copy can use: a power of two within the fast-link group
    that divides the heads and the KV heads (each chip keeps whole heads of the KV cache)."""
    best, t = 1, 1
    while t <= (domain or 1):
        if heads % t == 0 and kv_heads % t == 0:
            best = t
        t *= 2
    return best


def serving_plan(req: EstimateRequest, dev: Device, work: Workload) -> Plan:
    """A serving copy's layout on `dev` (its memory known): the tensor-parallel degrees t that hold the copy
    (1.2 x weights + KV cache, split evenly over t) are tried up to serving_tensor_limit; of those within the
    chips given, the one that leaves the fewest chips idle (then the smallest) is taken, copies = chips // t.
    When even the largest t does not hold it, pipeline stages of that group are added (the fewest that hold
    it). A copy larger than the chips given gets 0 copies."""
    assert dev.memory is not None
    needed, memory, chips = work.needed, dev.memory, req.chips
    limit = serving_tensor_limit(dev.domain, work.shape.heads, work.shape.kv_heads)
    fitting = [t for t in (2**k for k in range(limit.bit_length())) if t <= limit and needed / t <= memory]
    if fitting:
        usable = [t for t in fitting if t <= chips]
        if not usable:
            t = fitting[0]
            return Plan(t, 0, None, t, 1, needed / t)
        t = min(usable, key=lambda t: (chips % t, t))
        return Plan(t, chips // t, None, t, 1, needed / t)
    stages = math.ceil(needed / (limit * memory))
    per_copy = limit * stages
    return Plan(per_copy, chips // per_copy, None, limit, stages, needed / per_copy)


def copy_plan(req: EstimateRequest, dev: Device, work: Workload) -> Plan:
    """The chips per copy and the copies on `dev`; (None, None, None) without a memory figure, 0 copies
    when no training layout fits."""
    if dev.memory is None or dev.memory <= 0:
        return Plan(None, None, None)
    if req.mode == "training":
        limit = transformer.tensor_limit(dev.domain, work.shape.heads)
        usable = usable_memory(dev.memory)
        if usable <= 0:
            return Plan(None, 0, None)
        layout = transformer.fastest_layout(
            work.state, work.activations, usable, limit, req.chips, work.recompute
        ) or transformer.best_layout(work.state, work.activations, usable, limit)
        if layout is None:
            return Plan(None, 0, None)
        return Plan(layout.chips, req.chips // layout.chips, layout)
    return serving_plan(req, dev, work)


#: one warning as an id in resources/text/estimate.*.toml ([layout]) and the values of its placeholders.
Warning = tuple[str, dict[str, str]]


def layout_name(tensor: int, shards: int, copies: int | None, checkpointing: str, language: str | None = None) -> str:
    """A training layout in words: 'TP 8 x FSDP 2 x DP 4 (no recompute)'; in `language` (None: the one in use)."""
    from gpu_tpu_app.core.texts import text

    parts = [
        text(f"estimate.layout_name.{kind}", language=language, n=n)
        for kind, n in (("tensor", tensor), ("fsdp", shards), ("data", copies or 1))
        if n > 1
    ]
    joined = " x ".join(parts) or text("estimate.layout_name.one", language=language)
    recompute = text(f"estimate.layout_name.{checkpointing}", language=language)
    return text("estimate.layout_name.joined", language=language, parts=joined, recompute=recompute)


def serving_layout_name(tensor: int, stages: int, copies: int | None, language: str | None = None) -> str:
    """A serving layout in words: 'TP 4 x DP 2', 'TP 8 x PP 2'; in `language` (None: the language in use)."""
    from gpu_tpu_app.core.texts import text

    parts = [
        text(f"estimate.layout_name.{kind}", language=language, n=n)
        for kind, n in (("tensor", tensor), ("pipeline", stages), ("data", copies or 1))
        if n > 1
    ]
    return " x ".join(parts) or text("estimate.layout_name.one", language=language)


def layout_reasons(req: EstimateRequest, dev: Device, work: Workload, plan: Plan) -> list[Warning]:
    """Why a training row has its layout, as text ids ([why]) and values (bytes already in words)."""
    from gpu_tpu_app.core.wording import format_bytes

    layout = plan.layout
    if req.mode == "inference" and plan.tensor is not None and plan.per_chip is not None and dev.memory is not None:
        key = "serving_pipeline" if (plan.stages or 1) > 1 else "serving"
        values = {
            "tensor": str(plan.tensor),
            "per_chip": format_bytes(plan.per_chip),
            "memory": format_bytes(dev.memory),
        }
        return [(key, values)]
    if req.mode != "training" or layout is None or dev.memory is None:
        return []
    if layout.chips > req.chips:
        return [("needs_more", {"chips": str(req.chips)})]
    found: list[Warning] = [
        (
            "fastest_one" if req.chips == 1 else "fastest",
            {
                "chips": str(req.chips),
                "per_chip": format_bytes(layout.per_chip),
                "memory": format_bytes(dev.memory),
                "usable": format_bytes(usable_memory(dev.memory)),
            },
        )
    ]
    if layout.chips > 1:
        found.append(("sharded", {"single": format_bytes(work.state + layout.activations)}))
    if req.checkpointing != "auto":
        found.append(("asked", {"mode": layout.checkpointing}))
    elif layout.checkpointing != "none":
        found.append(("recompute", {}))
    return found


def reason_text(reason: Warning, language: str | None = None) -> str:
    """One reason for a layout in `language` (None: the language in use)."""
    from gpu_tpu_app.core.texts import text

    ident, values = reason
    if ident == "asked":
        values = {"mode": text(f"estimate.layout_name.{values['mode']}", language=language)}
    return text(f"estimate.why.{ident}", language=language, **values)


def reasons_text(reasons: list[Warning], language: str | None = None) -> str:
    """The reasons joined into one line."""
    return "; ".join(reason_text(r, language) for r in reasons)


def layout_warnings(req: EstimateRequest, dev: Device, plan: Plan) -> list[Warning]:
    """What a row should warn about its layout: no fit, more chips than given, beyond a fast-link group, idle chips."""
    found: list[Warning] = []
    per_copy, copies = plan.per_copy, plan.copies
    if req.mode == "training" and dev.memory is not None and plan.layout is None:
        found.append(("no_layout", {}))
    if per_copy is not None and per_copy > req.chips:
        found.append(("too_few", {"per_copy": str(per_copy), "chips": str(req.chips)}))
    if dev.domain is not None:
        # the chip id lets other languages say the catalogue's note in their words (warning_text)
        note = {"note": dev.domain_note or "", "chip": dev.chip_id}
        if req.mode == "training" and req.chips > dev.domain:
            found.append(("beyond_group", {"chips": str(req.chips), "domain": str(dev.domain), **note}))
        elif req.mode == "inference" and per_copy is not None and per_copy > dev.domain:
            found.append(("spans_group", {"per_copy": str(per_copy), "domain": str(dev.domain), **note}))
    if dev.fp8 is not None:
        found.append((f"no_fp8_{dev.fp8}", {}))
    if copies is not None and per_copy is not None and copies >= 1 and req.chips % per_copy:
        idle = req.chips % per_copy
        found.append(
            (
                "idle_one" if idle == 1 else "idle",
                {"idle": str(idle), "chips": str(req.chips), "per_copy": str(per_copy)},
            )
        )
    return found


def warning_text(warning: Warning, language: str | None = None) -> str:
    """One layout warning in `language` (None: the language in use; the Estimate holds English)."""
    from gpu_tpu_app.core.texts import text

    ident, values = warning
    if "." in ident:  # a full text id (a compiled row's warning)
        return text(ident, language=language, **values)
    if "note" in values:
        note = _domain_note(values.get("chip"), values["note"], language)
        values = {**values, "note": text("estimate.layout.note", language=language, note=note) if note else ""}
    return text(f"estimate.layout.{ident}", language=language, **values)


def _domain_note(chip_id: str | None, note: str, language: str | None) -> str:
    """A fast-link group's note in `language`: the packaged catalogue's words for `chip_id`'s group when `note`
    is that catalogue's English one, else `note` as the estimate holds it."""
    from gpu_tpu_app import i18n
    from gpu_tpu_app.core.catalog import load_catalog

    lang = language or i18n.current_language()
    if not note or not chip_id or lang == i18n.DEFAULT_LANGUAGE:
        return note
    key = f"chips.{chip_id}.domain.note"
    catalog = load_catalog()
    if catalog.words(i18n.DEFAULT_LANGUAGE).get(key) != note:
        return note
    return catalog.say(key, lang)
