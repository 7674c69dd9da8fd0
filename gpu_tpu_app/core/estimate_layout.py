"""How one model copy sits on a device's chips, and what the layout leaves unmodelled.

Training: the layout that finishes soonest on the chips given with every chip within its memory:
tensor parallel inside a fast-link group, the state sharded (FSDP / ZeRO-3) or not, and the least
recomputation that fits (core.transformer.fastest_layout); when none fits, the fewest chips one copy
would need (core.transformer.best_layout). Serving: the fewest chips whose memory holds one copy. The copies are
the chips given over the chips per copy; the warnings say when a copy does not fit, spans more than a
fast-link group, or leaves chips idle.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from gpu_tpu_app.core import transformer
from gpu_tpu_app.core.estimate_devices import Device
from gpu_tpu_app.core.estimate_models import EstimateRequest
from gpu_tpu_app.core.estimate_workload import Workload


class Plan(NamedTuple):
    """How one copy sits on a device: chips per copy, copies, and the training layout."""

    per_copy: int | None
    copies: int | None
    layout: transformer.Layout | None


def copy_plan(req: EstimateRequest, dev: Device, work: Workload) -> Plan:
    """The chips per copy and the copies on `dev`; (None, None, None) without a memory figure, 0 copies
    when no training layout fits."""
    if dev.memory is None or dev.memory <= 0:
        return Plan(None, None, None)
    needed = work.needed
    if req.mode == "training":
        limit = transformer.tensor_limit(dev.domain, work.shape.heads)
        layout = transformer.fastest_layout(
            work.state, work.activations, dev.memory, limit, req.chips, work.recompute
        ) or transformer.best_layout(work.state, work.activations, dev.memory, limit)
        if layout is None:
            return Plan(None, 0, None)
        return Plan(layout.chips, req.chips // layout.chips, layout)
    per_copy = max(1, math.ceil(needed / dev.memory))
    return Plan(per_copy, req.chips // per_copy, None)


#: one warning as an id in resources/text/estimate.*.toml ([layout]) and the values of its placeholders.
Warning = tuple[str, dict[str, str]]


def layout_name(tensor: int, shards: int, copies: int | None, checkpointing: str, language: str | None = None) -> str:
    """A training layout in words: 'TP 8 x FSDP 2 x DP 4, no recompute'; in `language` (None: the one in use)."""
    from gpu_tpu_app.core.texts import text

    parts = [
        text(f"estimate.layout_name.{kind}", language=language, n=n)
        for kind, n in (("tensor", tensor), ("fsdp", shards), ("data", copies or 1))
        if n > 1
    ]
    joined = " x ".join(parts) or text("estimate.layout_name.one", language=language)
    recompute = text(f"estimate.layout_name.{checkpointing}", language=language)
    return text("estimate.layout_name.joined", language=language, parts=joined, recompute=recompute)


def layout_reasons(req: EstimateRequest, dev: Device, work: Workload, plan: Plan) -> list[Warning]:
    """Why a training row has its layout, as text ids ([why]) and values (bytes already in words)."""
    from gpu_tpu_app.core.wording import format_bytes

    layout = plan.layout
    if req.mode != "training" or layout is None or dev.memory is None:
        return []
    if layout.chips > req.chips:
        return [("needs_more", {"chips": str(req.chips)})]
    found: list[Warning] = [
        (
            "fastest",
            {"chips": str(req.chips), "per_chip": format_bytes(layout.per_chip), "memory": format_bytes(dev.memory)},
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
