"""Issue 33/34: the answered cloud preselects where the estimator prices the costs, until the user picks one."""

from __future__ import annotations

import pytest

from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.decision import Answers, decide
from gpu_tpu_app.core.lesson import load_lesson
from gpu_tpu_app.core.prices import shipped_book
from gpu_tpu_app.ui.probe.estimator_table import place_key, place_of
from gpu_tpu_app.ui.result.result_page import ResultPage


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


def test_the_aws_answer_prices_the_estimate_in_aws(page: ResultPage) -> None:
    page.set_price_book(shipped_book())
    page.set_recommendation(decide(Answers(deployment="aws")), Answers(deployment="aws"))
    assert _place(page) == ("aws", None)


def test_next_steps_name_only_chips_that_hold_the_run_in_the_answered_cloud_and_region(page: ResultPage) -> None:
    """Issue 34 item 4: no T4 (no bf16 arithmetic), no chip whose memory cannot hold one copy of the run, and
    only places in the answered cloud and region."""
    from gpu_tpu_app.core.estimate import EstimateRequest

    page.set_price_book(shipped_book())
    answers = Answers(framework="pytorch", custom_ops="essential", deployment="aws", region="europe")
    rec = decide(answers)
    assert rec.verdict == "gpu"
    page.set_recommendation(rec)
    anywhere = page._cheapest_step(rec)
    assert anywhere is not None and "NVIDIA T4" not in anywhere  # the T4 is the cheapest GPU in the table
    assert "NVIDIA A10G" in anywhere  # its bf16 peak is unpublished, not missing: it is still suggested
    page.set_recommendation(rec, answers)
    # a 13B model to train on 8 chips: a copy needs more than eight 24 GB L4s hold
    page.estimator.set_request(EstimateRequest(params=13e9, chips=8))
    assert page.estimator.result is not None
    small = {r.chip_name for r in page.estimator.result.rows if r.fits is False and r.family == "gpu"}
    assert "NVIDIA L4" in small
    step = page._cheapest_step(rec)
    assert step is not None and step.startswith("Cheapest places to rent GPUs now: ")
    named = step.split(": ", 1)[1]
    assert not any(name in named for name in small) and "NVIDIA T4" not in named
    places = [part.split(" in ", 1)[1].split(" (")[0] for part in named.split(" ( ")[0].split("; ")]
    assert places and all(p.startswith("AWS eu-") for p in places), places


@pytest.mark.parametrize("language", ["en", "zh-Hans"])
def test_the_money_card_shows_the_runs_cost_or_what_to_enter(page: ResultPage, language: str) -> None:
    """Issue 33 item 5: the Result page shows the same money as `decide --params` (the best GPU and TPU in the
    answered cloud and region, on-demand and Spot, the break-even at the porting-time default), in the
    language in use; without a parameter count it says what to enter."""
    from gpu_tpu_app import i18n
    from gpu_tpu_app.core.decision.fields import values_of
    from gpu_tpu_app.core.decision.money import money, render_money
    from gpu_tpu_app.core.estimate import EstimateRequest
    from gpu_tpu_app.core.texts import text

    previous = i18n.current_language()
    i18n.set_language(language)
    try:
        answers = Answers(framework="jax", workload="training", deployment="google_cloud", region="europe")
        answers = answers.model_copy(update={"porting_budget": "some"})
        page.set_price_book(shipped_book())
        page.set_recommendation(decide(answers), answers)
        assert page.money_label.text() == text("decide.money.enter")
        page.estimator.set_request(EstimateRequest(params=7e9, chips=64))
        page.set_estimate_request(EstimateRequest(params=7e9, chips=64))
        shown = page.money_label.text()
        found = money(values_of(answers), 7e9, 64, None)
        assert found.gpu is not None and found.tpu is not None
        assert found.gpu.name in shown and found.tpu.name in shown and f"{found.tpu.cost:,.0f}" in shown
        assert shown.count("\n• ") == 2 and "--" not in shown  # no CLI flags in the window
        words = render_money(values_of(answers), 7e9, 64, None, None, None, window=True)
        assert words.splitlines()[-1].strip() in shown  # the porting-time default, said to be one
        assert text("decide.money.default_weeks_window", weeks="3") in shown
    finally:
        i18n.set_language(previous)


def test_the_region_answer_narrows_the_estimators_price_filter(page: ResultPage) -> None:
    from gpu_tpu_app.core.decision.regions import answered_region, area_of, shipped_offers

    page.set_price_book(shipped_book())
    answers = Answers(deployment="google_cloud", region="europe")
    page.set_recommendation(decide(answers), answers)
    cloud, region = _place(page)
    assert cloud == "gcp" and region is not None and area_of(region) == "europe"
    # the region of that area offering the most chips in that cloud
    counts = {
        r: len({o.chip for o in shipped_offers() if o.cloud == "gcp" and o.region == r})
        for r in {o.region for o in shipped_offers() if o.cloud == "gcp" and area_of(o.region) == "europe"}
    }
    assert counts[region] == max(counts.values()) and region == answered_region("gcp", "europe")
    # an area without a region of that cloud, or no area: the whole cloud
    assert answered_region("gcp", "canada") is None and answered_region("gcp", "anywhere") is None
    page.set_recommendation(decide(Answers(deployment="google_cloud")), Answers(deployment="google_cloud"))
    assert _place(page) == ("gcp", None)


def test_typing_the_parameters_updates_the_money_and_the_chips_suggested(qtbot, page: ResultPage) -> None:
    from gpu_tpu_app.core.texts import text

    page.set_price_book(shipped_book())
    answers = Answers(framework="pytorch", custom_ops="essential", deployment="aws", region="europe")
    page.set_recommendation(decide(answers), answers)
    assert page.money_label.text() == text("decide.money.enter")
    page.estimator.params_edit.setText("13e9")
    page.estimator.params_edit.editingFinished.emit()
    assert "NVIDIA L4 $" in page.steps_label.text()  # before: the cheapest GPU in AWS Europe
    # 13B to train: a copy needs more than the L4s the estimator's chips hold
    qtbot.waitUntil(lambda: "NVIDIA L4 $" not in page.steps_label.text())
    assert "Money (" in page.money_label.text()
    result = page.estimator.result
    assert result is not None and any(r.chip_id == "l4" and r.fits is False for r in result.rows)
