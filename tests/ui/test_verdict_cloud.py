"""Issue 33/34: the answered cloud preselects where the estimator prices the costs, until the user picks one."""

from __future__ import annotations

import pytest

from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.decision import Answers, decide
from gpu_tpu_app.core.lesson import load_lesson
from gpu_tpu_app.core.prices import shipped_book
from gpu_tpu_app.ui.estimator_table import place_key, place_of
from gpu_tpu_app.ui.result_page import ResultPage


@pytest.fixture
def page(qtbot):
    p = ResultPage(load_lesson(), load_catalog())
    qtbot.addWidget(p)
    return p


def _place(page: ResultPage) -> tuple[str | None, str | None]:
    return place_of(page.estimator.place_combo.currentData())


def test_google_cloud_answer_prices_the_estimate_in_google_cloud(page: ResultPage) -> None:
    page.set_recommendation(decide(Answers(deployment="google_cloud")))  # before the prices arrive
    assert _place(page) == (None, None)
    page.set_price_book(shipped_book())
    assert _place(page) == ("gcp", None)
    page.set_recommendation(decide(Answers(deployment="any_cloud")))
    assert _place(page) == (None, None)  # the answer changed: the filter follows it back


def test_the_users_own_pick_wins_over_the_answer(page: ResultPage) -> None:
    page.set_price_book(shipped_book())
    combo = page.estimator.place_combo
    aws = combo.findData(place_key("aws", None))
    assert aws >= 0
    combo.setCurrentIndex(aws)
    combo.activated.emit(aws)  # as a click does
    page.set_recommendation(decide(Answers(deployment="google_cloud")))
    assert _place(page) == ("aws", None)
