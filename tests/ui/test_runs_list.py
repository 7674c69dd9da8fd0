"""The runs shown on the Probe page: one way in, one duplicate rule, a live run kept apart."""

from __future__ import annotations

from datetime import UTC, datetime

from gpu_tpu_app.ui.probe.runs_list import RunsList
from tests.ui.test_probe_panel import _hand_made_run


def test_a_run_already_shown_is_not_added_twice_by_either_way_in(qtbot) -> None:
    runs = RunsList()
    qtbot.addWidget(runs)
    a, b = _hand_made_run("host-a"), _hand_made_run("host-b")
    later_a = a.model_copy(update={"started": datetime(2026, 2, 4, tzinfo=UTC)})
    runs.set_runs([a, b, a.model_copy()])  # a session that lists a run twice
    assert runs.runs() == [a, b]
    assert runs.add(a.model_copy()) is None and runs.runs() == [a, b]
    assert runs.add(later_a) == 2 and runs.runs() == [a, b, later_a]


def test_a_live_run_stays_last_cannot_be_removed_and_becomes_its_final_form(qtbot) -> None:
    runs = RunsList()
    qtbot.addWidget(runs)
    a, b, live, final = (_hand_made_run(h) for h in ("host-a", "host-b", "here-live", "here-final"))
    runs.set_runs([a])
    runs.add_live(live)
    runs.set_runs([b])
    assert runs.all_runs() == [b, live] and runs.runs() == [b] and runs.live_index() == 1
    assert runs.labels()[1] == "this machine · running"
    assert not runs.remove(1) and runs.all_runs() == [b, live]
    runs.finish_live(final)
    assert runs.live_index() is None and runs.runs() == [b, final]
    runs.refresh()
    assert runs.count() == 2 and runs.selected_run() == final
    assert runs.remove(0) and runs.runs() == [final]


def test_the_time_control_sets_the_runs_budget(qtbot) -> None:
    """The window has the time budget its messages point to: chosen on the page, carried by the request."""
    from PySide6.QtWidgets import QApplication

    from gpu_tpu_app.shared.terms import SUITE_BUDGET_S
    from gpu_tpu_app.ui.probe.run_controls import RunControls

    controls = RunControls("quick", QApplication.style())
    for w in (controls.suite, controls.budget, controls.kernels, controls.dtypes, controls.run_button):
        qtbot.addWidget(w)
    for w in (controls.cancel_button, *controls.backend_boxes.values()):
        qtbot.addWidget(w)
    assert controls.budget.currentText() == f"suite's ({SUITE_BUDGET_S['quick']:.0f} s)"
    request = controls.request(None)
    assert request is not None and request.budget_s is None
    assert request.total_budget_s == SUITE_BUDGET_S["quick"]
    controls.budget.setCurrentIndex(controls.budget.findText("5 min"))
    request = controls.request(None)
    assert request is not None and request.budget_s == 300.0 and request.total_budget_s == 300.0
    controls.suite.setCurrentText("full")  # another suite: the chosen budget stays
    assert controls.budget.currentText() == "5 min"
    assert controls.budget.itemText(0) == f"suite's ({SUITE_BUDGET_S['full'] / 60:.0f} min)"
    controls.set_running(True)
    assert not controls.budget.isEnabled()
