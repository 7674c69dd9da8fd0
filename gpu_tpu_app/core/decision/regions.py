"""Where each chip family is offered, by area: read from the shipped price table's rows (cloud, region,
chip), so the verdict can say where its chips are and block a family the table lists nowhere in the area
the user's chips must run. Standard library only (`gpu-tpu-app decide` starts without pydantic); the
table itself is validated by core.prices, which the app loads elsewhere.
"""

from __future__ import annotations

import functools
import tomllib
from typing import NamedTuple

#: an area (the `region` answer) -> the prefixes of cloud region names in it (Google Cloud, AWS, Azure style).
AREAS: dict[str, tuple[str, ...]] = {
    "us": ("us-", "us_", "eastus", "westus", "centralus", "northcentralus", "southcentralus"),
    "canada": ("ca-", "northamerica-northeast", "canada"),
    "europe": ("eu-", "europe-", "northeurope", "westeurope", "uk", "france", "germany", "sweden"),
    "asia_pacific": ("asia-", "ap-", "australia-", "japan", "korea", "southeastasia", "eastasia"),
}


#: cloud ids -> the name people read.
CLOUD_NAMES: dict[str, str] = {
    "gcp": "Google Cloud",
    "aws": "AWS",
    "azure": "Azure",
    "lambda": "Lambda",
    "lambdalabs": "Lambda",
    "nebius": "Nebius",
}


def place_name(cloud: str, region: str | None = None) -> str:
    """'Google Cloud europe-west4' for a cloud id and a region (the cloud alone without one)."""
    name = CLOUD_NAMES.get(cloud, cloud)
    return f"{name} {region}" if region else name


class Offer(NamedTuple):
    """One price-table row's place and prices per chip-hour (None: not listed): chip id, cloud, region."""

    chip: str
    cloud: str
    region: str
    on_demand: float | None = None
    spot: float | None = None


def area_of(region: str) -> str | None:
    """The area a cloud region name lies in (None: none of AREAS)."""
    name = region.lower()
    for area, prefixes in AREAS.items():
        if name.startswith(prefixes):
            return area
    return None


def is_tpu(chip: str) -> bool:
    """Whether a catalogue chip id is a TPU."""
    return chip.startswith("tpu-")


@functools.lru_cache(maxsize=1)
def shipped_offers() -> tuple[Offer, ...]:
    """Every row of the shipped price table that names a region, as (chip, cloud, region)."""
    from gpu_tpu_app.assets import resource_path

    with open(resource_path("prices", "prices.toml"), "rb") as handle:
        data = tomllib.load(handle)
    return tuple(
        Offer(
            str(row["chip"]), str(row["cloud"]), str(row["region"]), _usd(row.get("on_demand")), _usd(row.get("spot"))
        )
        for row in data.get("prices", [])
        if isinstance(row, dict) and row.get("region") and row.get("chip") and row.get("cloud")
    )


def _usd(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) and value > 0 else None


#: the `deployment` answer -> the clouds whose offers apply (None: every cloud; () : none, nothing is rented).
DEPLOYMENT_CLOUDS: dict[str, tuple[str, ...] | None] = {
    "google_cloud": ("gcp",),
    "aws": ("aws",),
    "azure": ("azure",),
    "any_cloud": None,
    "on_premises": (),
    "local": (),
}


#: the `deployment` answer -> the one cloud whose prices the verdict's money and the estimator's "Price in" use
#: (any other answer: the cheapest anywhere).
ANSWERED_CLOUDS: dict[str, str] = {"google_cloud": "gcp", "aws": "aws", "azure": "azure"}


def places_in(area: str | None, clouds: tuple[str, ...] | None, chip: str | None = None) -> list[tuple[str, str]]:
    """The (cloud, region) places of the shipped table in `area` (None or "anywhere": every area) and `clouds`
    (None: any), for one chip id when given, cheapest on-demand first (then by name)."""
    rows = [
        row
        for row in shipped_offers()
        if (area in (None, "anywhere") or area_of(row.region) == area)
        and (clouds is None or row.cloud in clouds)
        and chip in (None, row.chip)
    ]
    rows.sort(key=lambda r: (r.on_demand is None, r.on_demand or 0.0, r.cloud, r.region))
    return list(dict.fromkeys((row.cloud, row.region) for row in rows))


def answered_region(cloud: str | None, area: str | None) -> str | None:
    """The one region of `cloud` in `area` (the region answer) the estimator's "Price in" follows: the one
    offering the most chips there (so the most rows are priced), the cheapest on-demand row breaking a tie;
    None without a cloud, an area, or a region of that cloud in it."""
    if cloud is None or area in (None, "anywhere"):
        return None
    rows = [row for row in shipped_offers() if row.cloud == cloud and area_of(row.region) == area]
    chips: dict[str, set[str]] = {}
    cheapest: dict[str, float] = {}
    for row in rows:
        chips.setdefault(row.region, set()).add(row.chip)
        if row.on_demand is not None:
            cheapest[row.region] = min(cheapest.get(row.region, row.on_demand), row.on_demand)
    ranked = sorted(chips, key=lambda r: (-len(chips[r]), cheapest.get(r, float("inf")), r))
    return ranked[0] if ranked else None


def clouds_for(deployment: str | None, offers: tuple[Offer, ...] | None = None) -> tuple[str, ...] | None:
    """The clouds a deployment answer allows (None: any); "other_cloud" is every cloud in the table but gcp."""
    if deployment == "other_cloud":
        rows = shipped_offers() if offers is None else offers
        return tuple(sorted({row.cloud for row in rows if row.cloud != "gcp"}))
    return DEPLOYMENT_CLOUDS.get(deployment or "any_cloud")


class FamilyOffers(NamedTuple):
    """Where one family (GPU or TPU) is offered for the answers: its places ("cloud region") and chips (names)."""

    places: list[str]
    chips: list[str]


@functools.lru_cache(maxsize=1)
def chip_names() -> dict[str, str]:
    """Each catalogue chip id's name as people read it (the shipped catalogue; the id where it has none)."""
    from gpu_tpu_app.assets import resource_path

    with open(resource_path("catalog", "chips.toml"), "rb") as handle:
        data = tomllib.load(handle)
    return {
        str(chip["id"]): str(chip.get("name") or chip["id"])
        for chip in data.get("chips", [])
        if isinstance(chip, dict) and chip.get("id")
    }


@functools.lru_cache(maxsize=1)
def chip_families() -> dict[str, str]:
    """Each catalogue chip id's family ("gpu", "tpu", "other": Trainium, Gaudi and the like)."""
    from gpu_tpu_app.assets import resource_path

    with open(resource_path("catalog", "chips.toml"), "rb") as handle:
        data = tomllib.load(handle)
    return {
        str(chip["id"]): str(chip.get("family") or "")
        for chip in data.get("chips", [])
        if isinstance(chip, dict) and chip.get("id")
    }


def _of_family(chip: str, tpu: bool) -> bool:
    """Whether `chip` belongs to the verdict's family: a TPU, or a GPU (a chip of another family, Trainium
    say, is neither side of the verdict)."""
    if tpu:
        return is_tpu(chip)
    return not is_tpu(chip) and chip_families().get(chip, "gpu") == "gpu"


@functools.lru_cache(maxsize=1)
def without_bf16() -> frozenset[str]:
    """The catalogue's chips with no bf16 arithmetic (the T4): not suggested for the verdict's work."""
    from gpu_tpu_app.assets import resource_path

    with open(resource_path("catalog", "chips.toml"), "rb") as handle:
        data = tomllib.load(handle)
    return frozenset(
        str(chip["id"])
        for chip in data.get("chips", [])
        if isinstance(chip, dict) and chip.get("id") and (chip.get("bf16") or {}).get("value") == "not supported"
    )


def family_offers(area: str | None, deployment: str | None, tpu: bool, names: bool = True) -> FamilyOffers:
    """The places ("cloud region") and chips (names; ids without `names`) of one family in the answered area
    and cloud (deployment); chips without bf16 arithmetic (the T4) are left out."""
    clouds = clouds_for(deployment)
    skip = without_bf16()
    rows = [row for row in offered(area, tpu) if (clouds is None or row.cloud in clouds) and row.chip not in skip]
    said = chip_names() if names else {}
    return FamilyOffers(
        sorted({place_name(row.cloud, row.region) for row in rows}),
        sorted({said.get(row.chip, row.chip) for row in rows}),
    )


def offered(area: str | None, tpu: bool, offers: tuple[Offer, ...] | None = None) -> list[Offer]:
    """The rows of one family (TPU or not) in `area` (None or "anywhere": every area), in table order."""
    rows = shipped_offers() if offers is None else offers
    return [
        row for row in rows if _of_family(row.chip, tpu) and (area in (None, "anywhere") or area_of(row.region) == area)
    ]


def tpu_offered_in(area: str) -> bool:
    """Whether the shipped price table lists a TPU in `area` ("anywhere": always asked of every area)."""
    return bool(offered(area, tpu=True))


def where(area: str | None, tpu: bool, cloud: str | None = None) -> list[str]:
    """The distinct "cloud region" places of one family in `area` (and `cloud`, when given), sorted."""
    return sorted({f"{row.cloud} {row.region}" for row in offered(area, tpu) if cloud in (None, row.cloud)})
