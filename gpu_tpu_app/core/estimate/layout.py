"""How one model copy sits on a device's chips, and what the layout leaves unmodelled.

Training: the fewest chips per copy that hold the training state and one micro-batch's activations,
tensor parallel inside a fast-link group and pipeline or sharded data parallel across
(core.transformer.best_layout). Serving: the fewest chips whose memory holds one copy. The copies are
the chips given over the chips per copy; the warnings say when a copy does not fit, spans more than a
fast-link group, or leaves chips idle.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from gpu_tpu_app.core import transformer
from gpu_tpu_app.core.estimate.devices import Device
from gpu_tpu_app.core.estimate.models import EstimateRequest
from gpu_tpu_app.core.estimate.workload import Workload


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
        layout = transformer.best_layout(work.state, work.activations, dev.memory, limit)
        if layout is None:
            return Plan(None, 0, None)
        return Plan(layout.chips, req.chips // layout.chips, layout)
    per_copy = max(1, math.ceil(needed / dev.memory))
    return Plan(per_copy, req.chips // per_copy, None)


#: one warning as an id in resources/text/estimate.*.toml ([layout]) and the values of its placeholders.
Warning = tuple[str, dict[str, str]]


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
