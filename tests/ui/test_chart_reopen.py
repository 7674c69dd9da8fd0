"""Opening a session: the Probe page's chart in view is drawn by the time the page shows (it stayed blank for
about a second after the page was built, 3.6 s after the click at load 7, while the page's workers started),
and when a session is opened while the Probe page is shown."""

from __future__ import annotations

from pathlib import Path

from gpu_tpu_app.core.session import load_session, new_session
from gpu_tpu_app.ui.shell.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "screenshots" / "example-session.json"


def test_the_chart_is_drawn_when_the_probe_page_shows_and_when_a_session_opens_on_it(qtbot) -> None:
    w = MainWindow(persist=False)
    qtbot.addWidget(w, before_close_func=lambda win: win.session_controller.mark_clean())
    w.resize(1280, 800)
    w.show()
    w.set_session(load_session(EXAMPLE))
    w.show_page("probe")  # builds the page: no event loop turn before the check below
    charts = w.probe_panel.charts
    assert charts.currentWidget() is charts.throughput and charts.throughput.has_data
    w.set_session(new_session())
    assert not charts.throughput.has_data  # the blank session's chart, at once too
    w.set_session(load_session(EXAMPLE))
    assert charts.throughput.has_data
    w.shutdown()


def test_a_run_keeps_its_series_colours_from_one_load_to_the_next(qtbot, compile_and_matmul_run) -> None:
    from gpu_tpu_app.ui.charts.plot import _item_color

    def colours(chart) -> dict[str, str]:
        return {n: _item_color(items[0], "") for n, items in chart._series_items.items() if n not in chart._keys}

    w = MainWindow(persist=False)
    qtbot.addWidget(w, before_close_func=lambda win: win.session_controller.mark_clean())
    w.resize(1280, 800)
    w.show()
    example = load_session(EXAMPLE)
    w.set_session(example)
    w.show_page("probe")
    chart = w.probe_panel.charts.throughput
    first = colours(chart)
    assert len(first) >= 2
    # the same run, now second in a session that opens with another run
    other = new_session().model_copy(update={"runs": [compile_and_matmul_run, *example.runs]})
    w.set_session(other)
    w.probe_panel.charts.flush_all()
    again = colours(chart)
    same_run = {n.split("  [")[0]: c for n, c in again.items() if "Test CPU" not in n}
    assert same_run == first
    w.shutdown()
