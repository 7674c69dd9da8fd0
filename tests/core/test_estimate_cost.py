"""The estimate's cost path: prices filled from the book, spot beside, a chosen cloud or region,
the user's price winning, dollars per million tokens, and the CLI on a fresh machine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpu_tpu_app.core.catalog import Catalog, load_catalog
from gpu_tpu_app.core.estimate import EstimateRequest, estimate
from gpu_tpu_app.core.price_import import load_book
from gpu_tpu_app.core.prices import PriceBook, load_price_table, shipped_book
from tests.builders import tpu_answers
from tests.core.test_prices import AWS_VMS, _write


@pytest.fixture(autouse=True)
def _fresh_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("GPUHUNT_CATALOG_DIR", raising=False)
    return home


@pytest.fixture
def catalog() -> Catalog:
    return load_catalog()


def _row(result, chip_id):
    return next(r for r in result.rows if r.chip_id == chip_id)


def test_cost_is_filled_from_the_cheapest_shipped_price_with_spot_beside(catalog: Catalog) -> None:
    book = shipped_book()
    result = estimate(EstimateRequest(params=7e9, chips=64), catalog, book=book)
    row = _row(result, "tpu-v6e")
    cheapest = book.cheapest("tpu-v6e", "on-demand")
    spot = book.cheapest("tpu-v6e", "spot")
    assert cheapest is not None and spot is not None
    assert row.price == cheapest and row.spot_price == spot
    assert row.days is not None
    assert row.cost_usd == pytest.approx(row.days * 24 * 64 * cheapest.usd)
    # spot capacity makes progress 1 - 25/360 = 0.931 of the time (the documented default): its run is longer
    assert row.spot_cost_usd == pytest.approx(row.days / (1 - 25 / 360) * 24 * 64 * spot.usd)
    assert row.usd_per_mtok is None  # training has no per-token cost


def test_every_chip_with_a_shipped_price_gets_a_cost(catalog: Catalog) -> None:
    rows = load_price_table().prices
    shipped = {r.chip for r in rows}
    on_demand = {r.chip for r in rows if r.on_demand is not None}
    spot_only = shipped - on_demand  # a row with a spot price only (the catalogue has no on-demand one)
    result = estimate(EstimateRequest(params=7e9, chips=64), catalog, book=shipped_book())
    costed = {r.chip_id for r in result.rows if r.cost_usd is not None}
    assert costed == {c for c in on_demand if _row(result, c).days is not None}
    assert all(_row(result, c).spot_cost_usd is not None for c in spot_only if _row(result, c).days is not None)
    assert all(r.price is None and r.spot_price is None for r in result.rows if r.chip_id not in shipped)


def test_a_chosen_cloud_or_region_limits_the_price(catalog: Catalog) -> None:
    book = shipped_book()
    req = EstimateRequest(params=7e9, chips=8, price_region="europe-west4")
    row = _row(estimate(req, catalog, book=book), "tpu-v6e")
    assert row.price is not None and row.price.region == "europe-west4"
    nowhere = EstimateRequest(params=7e9, chips=8, price_cloud="azure")
    assert _row(estimate(nowhere, catalog, book=book), "tpu-v6e").cost_usd is None


def test_the_users_price_wins_and_says_so(catalog: Catalog) -> None:
    req = EstimateRequest(params=7e9, chips=8, prices={"tpu-v6e": 9.0})
    row = _row(estimate(req, catalog, book=shipped_book()), "tpu-v6e")
    assert row.price is not None and row.price.origin == "user" and row.price.usd == 9.0
    assert "your price" in row.price.describe()
    assert row.days is not None and row.cost_usd == pytest.approx(row.days * 24 * 8 * 9.0)
    assert row.spot_price is not None and row.spot_price.origin == "shipped"  # spot still shown beside


def test_serving_gives_dollars_per_million_tokens(catalog: Catalog) -> None:
    req = EstimateRequest(params=8e9, mode="inference", tokens=2e9, chips=8, batch=16)
    row = _row(estimate(req, catalog, book=shipped_book()), "h100-sxm")
    assert row.cost_usd is not None and row.usd_per_mtok == pytest.approx(row.cost_usd / 2000)
    assert row.spot_cost_usd is not None and row.spot_usd_per_mtok == pytest.approx(row.spot_cost_usd / 2000)


def test_without_a_book_only_typed_prices_cost(catalog: Catalog) -> None:
    result = estimate(EstimateRequest(params=7e9, chips=8, prices={"h100-sxm": 2.0}), catalog)
    assert [r.chip_id for r in result.rows if r.cost_usd is not None] == ["h100-sxm"]
    assert estimate(EstimateRequest(params=7e9), catalog, book=PriceBook()).rows[0].cost_usd is None


def test_cli_on_a_fresh_machine_costs_every_chip_with_a_shipped_price(run_cli) -> None:
    code, out, err = run_cli("estimate", "--params", "7e9", "--chips", "64")
    assert code == 0, err
    lines = out.splitlines()
    catalog = load_catalog()
    names = {c.id: c.name for c in catalog.chips}
    for row in load_price_table().prices:
        chip = row.chip
        line = next(x for x in lines if x.startswith(names[chip] + "  "))
        assert "$" in line, chip
        kind = "on-demand" if row.on_demand is not None else "spot"
        assert any(x.startswith(f"  - {chip}: ") and f"{kind} $" in x and "shipped table, read 20" in x for x in lines)


def test_cli_uses_a_local_skypilot_catalogue_and_cloud_flag(run_cli, _fresh_home: Path) -> None:
    _write(_fresh_home / ".sky" / "catalogs" / "v8" / "aws" / "vms.csv", AWS_VMS, age_hours=3)
    code, out, err = run_cli("estimate", "--params", "7e9", "--chips", "8", "--cloud", "aws", "--format", "json")
    assert code == 0, err
    row = next(r for r in json.loads(out)["rows"] if r["chip_id"] == "h100-sxm")
    assert row["price"]["usd"] == pytest.approx(55.04 / 8)
    assert row["price"]["origin"] == "skypilot"
    code, _, err = run_cli("estimate", "--params", "7e9", "--cloud", "mars")
    assert code == 2 and "--cloud: no prices for 'mars'" in err
    bad = _write(_fresh_home / "bad.csv", "a,b\n1,2\n")
    code, _, err = run_cli("estimate", "--params", "7e9", "--prices-from", str(bad))
    assert code == 2 and str(bad) in err and err.count("\n") == 1


def test_local_book_newer_than_the_table_moves_the_cost(catalog: Catalog, _fresh_home: Path) -> None:
    _write(_fresh_home / ".sky" / "catalogs" / "v8" / "aws" / "vms.csv", AWS_VMS, age_hours=1)
    book = load_book(home=_fresh_home)
    row = _row(estimate(EstimateRequest(params=7e9, chips=8, price_cloud="aws"), catalog, book=book), "h100-sxm")
    assert row.price is not None and row.price.describe_age() == "SkyPilot catalogue, 1 h old"


def test_the_report_names_the_cheapest_places_for_the_verdicts_chips(catalog: Catalog) -> None:
    from gpu_tpu_app.core.report import build_markdown, session_estimate
    from gpu_tpu_app.core.session import new_session

    answers = tpu_answers(every=True)
    session = new_session().with_answers(answers).with_estimate(EstimateRequest(params=7e9, chips=64))
    assert session.recommendation().verdict == "tpu"
    est = session_estimate(session, catalog, shipped_book())
    md = build_markdown(session, None, catalog, est)
    line = next(x for x in md.splitlines() if "Cheapest places to rent TPUs now:" in x)
    assert "Google TPU v5e $1.20/chip-hour in Google Cloud us-central1" in line
    assert "NVIDIA" not in line and "(gpu-tpu-app prices lists every region.)" in line
    # without an estimate there are no prices to name
    assert "Cheapest places" not in build_markdown(session.with_estimate(None), None, catalog, None)


def test_the_reports_cheapest_places_hold_the_run_in_the_answered_cloud_and_region(catalog: Catalog) -> None:
    """Issue 34 item 4 in the report: no T4 (no bf16), no chip too small for one copy, only AWS in Europe."""
    from gpu_tpu_app.core.decision import Answers
    from gpu_tpu_app.core.decision.regions import answered_region
    from gpu_tpu_app.core.report import build_markdown, session_estimate
    from gpu_tpu_app.core.session import new_session

    answers = Answers(framework="pytorch", custom_ops="essential", deployment="aws", region="europe")
    # the estimate as the window's Price in leaves it after these answers: AWS, its European region
    region = answered_region("aws", "europe")
    request = EstimateRequest(params=13e9, chips=8, price_cloud="aws", price_region=region)
    session = new_session().with_answers(answers).with_estimate(request)
    assert session.recommendation().verdict == "gpu"
    est = session_estimate(session, catalog, shipped_book())
    assert est is not None
    small = {r.chip_name for r in est.rows if r.fits is False and r.family == "gpu"}
    assert "NVIDIA L4" in small
    line = next(x for x in build_markdown(session, None, catalog, est).splitlines() if "Cheapest places" in x)
    named = line.split(": ", 1)[1].split(" (shipped table")[0]
    assert "NVIDIA T4" not in named and not any(name in named for name in small), named
    places = [part.split(" in ", 1)[1] for part in named.split("; ")]
    assert places and all(p.startswith("AWS eu-") for p in places), places
