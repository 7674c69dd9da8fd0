"""Prices in the window: the estimator filled from the price book (source and age in the tooltips, a typed
price wins), spot and per-token columns, and File > Import Prices… with good and hostile files."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog

from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.estimate import EstimateRequest
from gpu_tpu_app.core.lesson import load_lesson
from gpu_tpu_app.core.prices import shipped_book
from gpu_tpu_app.ui.result.result_page import COST_COLUMN, EST_COLUMNS, PRICE_COLUMN, ResultPage
from gpu_tpu_app.ui.shell.main_window import MainWindow
from tests.builders import tpu_answers
from tests.core.test_prices import AWS_VMS, _write
from tests.ui.test_app import Dialogs, add_window

SPOT_COLUMN = EST_COLUMNS.index("Spot cost")
MTOK_COLUMN = EST_COLUMNS.index("$/M tokens")


@pytest.fixture
def page(qtbot):
    p = ResultPage(load_lesson(), load_catalog())
    qtbot.addWidget(p)
    p.resize(1200, 800)
    p.show()
    return p


def _row_of(table, name: str) -> int:
    return next(r for r in range(table.rowCount()) if table.item(r, 0).text() == name)


def test_costs_are_filled_from_the_book_with_source_and_age(page: ResultPage) -> None:
    card = page.estimator
    card.set_price_book(shipped_book())
    page.set_estimate_request(EstimateRequest(params=7e9, chips=64))
    row = _row_of(card.table, "Google TPU v6e (Trillium)")
    price = card.table.item(row, PRICE_COLUMN)
    assert price.text() == "$2.70"
    assert price.font().italic()  # a known price, not a typed one
    assert "shipped table, read 20" in price.toolTip()
    cost = card.table.item(row, COST_COLUMN)
    assert cost.text().startswith("$")
    assert "on-demand $2.70/chip-hour, Google Cloud us-central1" in cost.toolTip()
    assert card.table.item(row, SPOT_COLUMN).text().startswith("$")
    assert card.table.item(row, MTOK_COLUMN).text() == ""  # training: no per-token cost
    assert "shipped table, read 20" in card.rules.text()
    unpriced = _row_of(card.table, "NVIDIA B300 (HGX)")
    assert card.table.item(unpriced, PRICE_COLUMN).text() == ""  # the ✎ placeholder: type one
    assert card.table.item(unpriced, COST_COLUMN).text() == ""


def test_a_typed_price_wins_over_the_book(qtbot, page: ResultPage) -> None:
    card = page.estimator
    card.set_price_book(shipped_book())
    page.set_estimate_request(EstimateRequest(params=7e9, chips=8))
    row = _row_of(card.table, "Google TPU v6e (Trillium)")
    before = card.result
    assert before is not None
    with qtbot.waitSignal(card.sig_request_changed, timeout=3000) as blocker:
        card.table.item(row, PRICE_COLUMN).setText("9")
    assert blocker.args[0].prices == {"tpu-v6e": 9.0}
    row = _row_of(card.table, "Google TPU v6e (Trillium)")
    qtbot.waitUntil(
        lambda: card.table.item(_row_of(card.table, "Google TPU v6e (Trillium)"), PRICE_COLUMN).text() == "9"
    )
    item = card.table.item(_row_of(card.table, "Google TPU v6e (Trillium)"), PRICE_COLUMN)
    assert not item.font().italic()
    assert card.result is not None
    v6e = next(r for r in card.result.rows if r.chip_id == "tpu-v6e")
    assert v6e.price is not None and v6e.price.origin == "user"
    assert "your price" in card.table.item(_row_of(card.table, "Google TPU v6e (Trillium)"), COST_COLUMN).toolTip()


def test_serving_shows_dollars_per_million_tokens(page: ResultPage) -> None:
    card = page.estimator
    card.set_price_book(shipped_book())
    page.set_estimate_request(EstimateRequest(params=8e9, mode="inference", tokens=1e9, chips=8, batch=8))
    row = _row_of(card.table, "NVIDIA H100 SXM")
    assert card.table.item(row, MTOK_COLUMN).text().startswith("$")
    assert "per million tokens generated" in card.table.item(row, MTOK_COLUMN).toolTip()


def test_file_import_prices_adds_a_catalogue_and_refuses_a_hostile_one(
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dialogs = Dialogs(monkeypatch)
    w = add_window(qtbot, MainWindow(persist=False))
    assert "Import &Prices…" in [a.text() for a in w.menuBar().actions()[0].menu().actions()]
    request = EstimateRequest(params=7e9, chips=8, price_cloud="aws")
    w.result_page.estimator.set_request(request)
    w.result_page.estimator.sig_request_changed.emit(request)  # as typing the inputs does
    assert w.session().estimate == request
    good = _write(tmp_path / "aws" / "vms.csv", AWS_VMS, age_hours=2)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(good), ""))
    assert w.menus.act_import_prices.isEnabled()
    w.menus.act_import_prices.trigger()
    result = w.result_page.estimator.result
    assert result is not None
    h100 = next(r for r in result.rows if r.chip_id == "h100-sxm")
    assert h100.price is not None and h100.price.describe_age() == "SkyPilot catalogue, 2 h old"
    assert "SkyPilot catalogue, 2 h old" in w.report_texts()[0]  # the report costs with the same prices
    book = w.prices.book
    bad = tmp_path / "evil.csv"
    bad.write_bytes(b"\x00\x01\x02binary")
    assert not w.prices.import_prices(bad)
    assert dialogs.errors and dialogs.errors[-1][0] == "Cannot import prices"
    assert str(bad) in dialogs.errors[-1][1] and "\n" not in dialogs.errors[-1][1]
    assert w.prices.book is book  # nothing changed


def test_next_steps_name_the_cheapest_place_for_the_verdicts_chips(page: ResultPage) -> None:
    from gpu_tpu_app.core.decision import decide

    rec = decide(tpu_answers(every=True))
    assert rec.verdict == "tpu"
    page.set_recommendation(rec)
    assert "Cheapest places" not in page.steps_label.text()  # no prices yet
    page.set_price_book(shipped_book())
    text = page.steps_label.text()
    assert "Cheapest places to rent TPUs now: Google TPU v5e $1.20/chip-hour in Google Cloud" in text
    assert "action:estimate" in text


def test_price_in_one_cloud_or_region(qtbot, page: ResultPage) -> None:
    card = page.estimator
    card.set_price_book(shipped_book())
    page.set_estimate_request(EstimateRequest(params=7e9, chips=8))
    choices = [card.place_combo.itemText(i) for i in range(card.place_combo.count())]
    assert choices[0] == "Cheapest anywhere"
    assert "AWS (any region)" in choices and "Google Cloud europe-west4" in choices
    with qtbot.waitSignal(card.sig_request_changed, timeout=3000) as blocker:
        card.place_combo.setCurrentIndex(choices.index("Google Cloud europe-west4"))
    request = blocker.args[0]
    assert (request.price_cloud, request.price_region) == ("gcp", "europe-west4")
    assert card.result is not None
    v6e = next(r for r in card.result.rows if r.chip_id == "tpu-v6e")
    assert v6e.price is not None and v6e.price.region == "europe-west4"
    h100 = next(r for r in card.result.rows if r.chip_id == "h100-sxm")
    assert h100.price is not None and h100.price.region == "europe-west4"
    # a saved session's place is shown again, even one no table prices now
    page.set_estimate_request(EstimateRequest(params=7e9, price_cloud="azure", price_region="eastus"))
    assert card.place_combo.currentText() == "Azure eastus"
    assert card.result is not None and all(r.cost_usd is None for r in card.result.rows)


def test_imported_catalogues_are_remembered_and_read_again(
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sandbox_home: str
) -> None:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    QApplication.setOrganizationName("gpu-tpu-app")
    QApplication.setApplicationName("gpu-tpu-app")
    QSettings().clear()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # no ~/.sky of this machine
    Dialogs(monkeypatch)
    good = _write(tmp_path / "aws" / "vms.csv", AWS_VMS, age_hours=2)
    w = add_window(qtbot, MainWindow(persist=True))
    assert w.prices.import_prices(good)
    w.close()
    assert QSettings().fileName().startswith(sandbox_home)
    _write(good, AWS_VMS, age_hours=1)  # refreshed since: read again, with its new age
    again = add_window(qtbot, MainWindow(persist=True))
    assert again.prices.imported == [good]
    h100 = again.prices.book.cheapest("h100-sxm", "on-demand", "aws", "us-east-1")
    assert h100 is not None and h100.describe_age() == "SkyPilot catalogue, 1 h old"
    good.write_bytes(b"\x00broken")  # broken since: left out, named, nothing lost
    third = add_window(qtbot, MainWindow(persist=True))
    assert any(str(good) in note for note in third.prices.problems())
    assert third.prices.book.cheapest("h100-sxm", "on-demand") is not None  # the shipped table still prices
    QSettings().clear()
