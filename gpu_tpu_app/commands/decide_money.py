"""`decide --params`: the money beside the verdict; computed and worded in core.decision.money (shared with
the window's Result page). Imported only when --params is given, so a plain `decide` starts without pydantic."""

from __future__ import annotations

from gpu_tpu_app.core.decision.money import (
    ANSWERED_CLOUDS,
    DEFAULT_WEEK_USD,
    DEFAULT_WEEKS,
    Best,
    Money,
    money,
    money_json,
    port_weeks,
    render_money,
)

__all__ = [
    "ANSWERED_CLOUDS",
    "DEFAULT_WEEKS",
    "DEFAULT_WEEK_USD",
    "Best",
    "Money",
    "money",
    "money_json",
    "port_weeks",
    "render_money",
]
