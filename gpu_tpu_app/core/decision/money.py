"""The verdict's money (`decide --params`, the window's Result page): the workload's cost on the best GPU and the best TPU in the answered cloud and region,
from the estimator (core.estimate, its public facade), and the break-even against the porting weeks.

Imported only when the money is asked for (the estimator and pydantic come with it), so a plain `decide`
starts without pydantic. The prices are the
shipped table's (core.prices.shipped_book), in the cloud the deployment answer names (Google Cloud: gcp,
AWS: aws, Azure: azure; any other answer: every cloud) and, when the region answer names an area, in the
cheapest region of that area offering each chip; on-demand with Spot beside it. A "best" chip is the one
whose run costs least among the chips whose memory holds it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from gpu_tpu_app.core.decision.regions import ANSWERED_CLOUDS, area_of, clouds_for, place_name, places_in
from gpu_tpu_app.core.texts import text

#: a stated default for an engineer-week when the user gives no rate (USD; --week-usd overrides it): a fully
#: loaded ML engineer at about 200,000 USD a year over 50 weeks. An assumption, shown with the result.
DEFAULT_WEEK_USD = 4_000.0
#: the porting_budget answer -> the engineer-weeks assumed for the port when --porting-weeks is not given,
#: read from the answer's own words ("some: days to a few weeks" -> 3; "ample: a dedicated porting effort"
#: -> 8). "none" budgets no port, so no break-even is drawn. A stated default, said with the result.
DEFAULT_WEEKS: dict[str, float] = {"some": 3.0, "ample": 8.0}

__all__ = ["ANSWERED_CLOUDS", "DEFAULT_WEEKS", "DEFAULT_WEEK_USD", "Best", "Money", "money", "money_json"]


class Best(NamedTuple):
    """The cheapest chip of one family that holds the run: its name and id, cost on-demand and on Spot
    (USD), and the place of the on-demand price ("cloud region")."""

    name: str
    cost: float
    spot_cost: float | None
    chip_id: str = ""
    place: str = ""


class Money(NamedTuple):
    gpu: Best | None
    tpu: Best | None
    cloud: str | None
    area: str | None = None


def _area(values: dict[str, str | None]) -> str | None:
    area = values.get("region")
    return None if area in (None, "anywhere") else area


def money(values: dict[str, str | None], params: float, chips: int, tokens: float | None) -> Money:
    """Estimate the run (training, or serving when the workload answer is inference) on every catalogue chip
    with the shipped prices in the answered cloud and area, and keep the cheapest GPU and TPU that hold it."""
    from gpu_tpu_app.core.estimate import EstimateRequest, estimate
    from gpu_tpu_app.core.prices import shipped_book

    deployment = values.get("deployment") or ""
    cloud = ANSWERED_CLOUDS.get(deployment)
    area = _area(values)
    mode = "inference" if values.get("workload") == "inference" else "training"
    book = shipped_book()
    base = EstimateRequest(params=params, chips=chips, tokens=tokens, mode=mode, price_cloud=cloud)
    # an area: one estimate per (cloud, region) of the area, so each chip is priced at its cheapest region there
    clouds = (cloud,) if cloud else clouds_for(deployment) or None
    if area is None:
        requests = [base]
    else:
        requests = [base.model_copy(update={"price_cloud": c, "price_region": r}) for c, r in places_in(area, clouds)]
    rows = [row for req in requests for row in estimate(req, book=book).rows]
    best: dict[str, Best | None] = {}
    # TPUs are rented in Google Cloud only: for another cloud or one's own data centre there is no TPU to price
    no_tpu = deployment in ("other_cloud", "aws", "azure", "on_premises", "local")
    for family in ("gpu", "tpu"):
        held = [
            r
            for r in rows
            if r.family == family
            and r.fits is not False
            and r.cost_usd
            and (area is None or (r.price is not None and area_of(r.price.region) == area))
        ]
        row = min(held, key=lambda r: (r.cost_usd or 0.0, r.chip_id), default=None)
        if row is None or row.cost_usd is None or (family == "tpu" and no_tpu):
            best[family] = None
            continue
        place = f"{row.price.cloud} {row.price.region}" if row.price is not None else ""  # ids (the JSON's)
        best[family] = Best(row.chip_name, row.cost_usd, row.spot_cost_usd, row.chip_id, place)
    return Money(best["gpu"], best["tpu"], cloud, area)


def saving_of(values: dict[str, str | None], found: Money) -> tuple[float | None, bool]:
    """What the TPU saves a run against the GPU, and whether at Spot prices: a Spot renter (the rental
    answer) is compared at Spot prices where both families have one; anyone else on-demand."""
    if found.gpu is None or found.tpu is None:
        return None, False
    if values.get("rental") == "spot" and found.gpu.spot_cost is not None and found.tpu.spot_cost is not None:
        return found.gpu.spot_cost - found.tpu.spot_cost, True
    return found.gpu.cost - found.tpu.cost, False


def port_weeks(values: dict[str, str | None], weeks: float | None) -> tuple[float | None, bool]:
    """The engineer-weeks of the port: the user's, else the default the porting_budget answer gives
    (DEFAULT_WEEKS); and whether it is that default."""
    if weeks is not None:
        return weeks, False
    default = DEFAULT_WEEKS.get(values.get("porting_budget") or "")
    return default, default is not None


def money_json(
    values: dict[str, str | None],
    params: float,
    chips: int,
    tokens: float | None,
    weeks: float | None,
    week_usd: float | None,
) -> dict[str, Any]:
    """The money as the JSON output's `money` key: the request, each family's best chip, and the break-even."""
    found = money(values, params, chips, tokens)
    used_weeks, weeks_default = port_weeks(values, weeks)
    rate = week_usd if week_usd is not None else DEFAULT_WEEK_USD

    def family(best: Best | None) -> dict[str, Any] | None:
        if best is None:
            return None
        return {
            "chip_id": best.chip_id,
            "chip": best.name,
            "place": best.place,
            "on_demand_usd": round(best.cost, 2),
            "spot_usd": None if best.spot_cost is None else round(best.spot_cost, 2),
        }

    saving, at_spot = saving_of(values, found)
    port = used_weeks * rate if used_weeks is not None else None
    return {
        "params": params,
        "chips": chips,
        "tokens": tokens,
        "cloud": found.cloud,
        "area": found.area,
        "gpu": family(found.gpu),
        "tpu": family(found.tpu),
        "saving_usd": None if saving is None else round(saving, 2),
        "saving_at": "spot" if at_spot else "on_demand",
        "porting_weeks": used_weeks,
        "porting_weeks_default": weeks_default,
        "week_usd": rate,
        "week_usd_default": week_usd is None,
        "port_usd": None if port is None else round(port, 2),
        "break_even_runs": round(port / saving, 2) if port is not None and saving and saving > 0 else None,
    }


def _usd(value: float) -> str:
    return f"{value:,.0f}"


def render_money(
    values: dict[str, str | None],
    params: float,
    chips: int,
    tokens: float | None,
    weeks: float | None,
    week_usd: float | None,
    window: bool = False,
) -> str:
    """The money section of `decide`'s text (`window`: the Result page's card, which names no CLI flags):
    each family's best chip and cost, and the break-even."""
    hint = "_window" if window else ""
    found = money(values, params, chips, tokens)
    where = place_name(found.cloud) if found.cloud else text("decide.money.anywhere")
    if found.area is not None:
        where = text("decide.money.in_area", cloud=where, area=text(f"decide.money.areas.{found.area}"))
    lines = [text("decide.money.heading", chips=chips, where=where)]
    for family, best in (("GPU", found.gpu), ("TPU", found.tpu)):
        if best is None:
            lines.append("  - " + text("decide.money.none", family=family))
            continue
        spot = text("decide.money.spot", usd=_usd(best.spot_cost)) if best.spot_cost is not None else ""
        lines.append(
            "  - "
            + text("decide.money.family", family=family, chip=best.name, usd=_usd(best.cost), spot=spot)
            + (text("decide.money.place", place=place_name(*best.place.split(" ", 1))) if best.place else "")
        )
    if found.gpu is None or found.tpu is None:
        return "\n".join(lines)
    saving, at_spot = saving_of(values, found)
    assert saving is not None  # both families are priced here
    if at_spot:
        lines.append("  " + text("decide.money.at_spot"))
    used_weeks, weeks_default = port_weeks(values, weeks)
    if saving <= 0:
        lines.append("  " + text("decide.money.no_saving"))
    elif used_weeks is None:
        lines.append("  " + text(f"decide.money.no_weeks{hint}", usd=_usd(saving)))
    else:
        rate = week_usd if week_usd is not None else DEFAULT_WEEK_USD
        port = used_weeks * rate
        stated = "" if week_usd is not None else text(f"decide.money.default_rate{hint}", usd=_usd(DEFAULT_WEEK_USD))
        lines.append(
            "  "
            + text(
                "decide.money.break_even",
                port=_usd(port),
                weeks=f"{used_weeks:g}",
                saving=_usd(saving),
                runs=f"{port / saving:.1f}",
                stated=stated,
            )
        )
        if weeks_default:
            lines.append("  " + text(f"decide.money.default_weeks{hint}", weeks=f"{used_weeks:g}"))
    return "\n".join(lines)
