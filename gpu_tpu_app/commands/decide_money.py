"""`decide --params`: the workload's cost on the best GPU and the best TPU in the answered cloud, from the
estimator (core.estimate, its public facade), and the break-even against the porting weeks.

Imported only when --params is given, so a plain `decide` starts without pydantic. The prices are the
shipped table's (core.prices.shipped_book), in the cloud the deployment answer names (Google Cloud:
gcp; any other answer: the cheapest anywhere), on-demand with Spot beside it. A "best" chip is the one
whose run costs least among the chips whose memory holds it.
"""

from __future__ import annotations

from typing import NamedTuple

from gpu_tpu_app.core.texts import text

#: the deployment answer -> the cloud whose prices the costs use (any other answer: the cheapest anywhere).
ANSWERED_CLOUDS: dict[str, str] = {"google_cloud": "gcp"}
#: a stated default for an engineer-week when the user gives no rate (USD; --rate overrides it): a fully
#: loaded ML engineer at about 200,000 USD a year over 50 weeks. An assumption, shown with the result.
DEFAULT_WEEK_USD = 4_000.0


class Best(NamedTuple):
    """The cheapest chip of one family that holds the run: its name, cost on-demand and on Spot (USD)."""

    name: str
    cost: float
    spot_cost: float | None


class Money(NamedTuple):
    gpu: Best | None
    tpu: Best | None
    cloud: str | None


def money(values: dict[str, str | None], params: float, chips: int, tokens: float | None) -> Money:
    """Estimate the run (training, or serving when the workload answer is inference) on every catalogue chip
    with the shipped prices in the answered cloud, and keep the cheapest GPU and TPU that hold it."""
    from gpu_tpu_app.core.estimate import EstimateRequest, estimate
    from gpu_tpu_app.core.prices import shipped_book

    cloud = ANSWERED_CLOUDS.get(values.get("deployment") or "")
    mode = "inference" if values.get("workload") == "inference" else "training"
    req = EstimateRequest(params=params, chips=chips, tokens=tokens, mode=mode, price_cloud=cloud)
    result = estimate(req, book=shipped_book())
    best: dict[str, Best | None] = {}
    # TPUs are rented in Google Cloud only: for another cloud or one's own data centre there is no TPU to price
    no_tpu = values.get("deployment") in ("other_cloud", "on_premises")
    for family in ("gpu", "tpu"):
        if family == "tpu" and no_tpu:
            best[family] = None
            continue
        rows = [r for r in result.rows if r.family == family and r.fits is not False and r.cost_usd is not None]
        row = min(rows, key=lambda r: (r.cost_usd, r.chip_id), default=None)
        best[family] = Best(row.chip_name, row.cost_usd, row.spot_cost_usd) if row and row.cost_usd else None
    return Money(best["gpu"], best["tpu"], cloud)


def _usd(value: float) -> str:
    return f"{value:,.0f}"


def render_money(
    values: dict[str, str | None],
    params: float,
    chips: int,
    tokens: float | None,
    weeks: float | None,
    week_usd: float | None,
) -> str:
    """The money section of `decide`'s text: each family's best chip and cost, and the break-even."""
    found = money(values, params, chips, tokens)
    where = found.cloud or text("decide.money.anywhere")
    lines = [text("decide.money.heading", chips=chips, where=where)]
    for family, best in (("GPU", found.gpu), ("TPU", found.tpu)):
        if best is None:
            lines.append("  - " + text("decide.money.none", family=family))
            continue
        spot = text("decide.money.spot", usd=_usd(best.spot_cost)) if best.spot_cost is not None else ""
        lines.append(
            "  - " + text("decide.money.family", family=family, chip=best.name, usd=_usd(best.cost), spot=spot)
        )
    if found.gpu is None or found.tpu is None:
        return "\n".join(lines)
    saving = found.gpu.cost - found.tpu.cost
    if saving <= 0:
        lines.append("  " + text("decide.money.no_saving"))
    elif weeks is None:
        lines.append("  " + text("decide.money.no_weeks", usd=_usd(saving)))
    else:
        rate = week_usd if week_usd is not None else DEFAULT_WEEK_USD
        port = weeks * rate
        stated = "" if week_usd is not None else text("decide.money.default_rate", usd=_usd(DEFAULT_WEEK_USD))
        lines.append(
            "  "
            + text(
                "decide.money.break_even",
                port=_usd(port),
                weeks=f"{weeks:g}",
                saving=_usd(saving),
                runs=f"{port / saving:.1f}",
                stated=stated,
            )
        )
    return "\n".join(lines)
