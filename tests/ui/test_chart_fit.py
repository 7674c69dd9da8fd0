"""Every probe chart fits its widget: the plot (title, axes, data) lies inside the chart's widget, and the legend,
when shown, lies inside it too and over no data. The Compile (JAX) chart was cut on its right (its long title and
the device name on its axis made the plot wider than the widget), at 1024x640 and 1280x800 alike."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QApplication

from gpu_tpu_app.core.runs import RunFile
from gpu_tpu_app.core.session import load_session
from gpu_tpu_app.ui.shell.app import _run_timers, _settle
from gpu_tpu_app.ui.shell.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[2]
LONG_NAME = "NVIDIA GeForce RTX 4090 Laptop GPU with a long vendor suffix"


def _long_named(run: RunFile) -> RunFile:
    devices = [d.model_copy(update={"name": LONG_NAME}) for d in run.devices]
    return run.model_copy(update={"devices": devices, "host": "other-host"})


@pytest.mark.parametrize("size", [(1024, 640), (1280, 800)])
def test_each_chart_lies_inside_its_widget_with_the_legend_over_no_data(
    qtbot, size: tuple[int, int], compile_and_matmul_run: RunFile
) -> None:
    app = QApplication.instance()
    w = MainWindow(persist=False)
    qtbot.addWidget(w, before_close_func=lambda win: win.session_controller.mark_clean())
    session = load_session(ROOT / "docs" / "screenshots" / "example-session.json")
    w.set_session(session)
    w.resize(*size)
    w.show()
    w.show_page("probe")
    panel = w.probe_panel
    panel.set_runs([*session.runs, _long_named(compile_and_matmul_run)])
    checked = []
    for i in range(panel.charts.count()):
        panel.charts.setCurrentIndex(i)
        chart = panel.charts.widget(i)
        _settle(app)
        panel.charts.flush_all()
        _run_timers(app, 50)
        if not hasattr(chart, "item") or not chart.has_data:
            continue
        box = QRectF(0, 0, chart.plot.width(), chart.plot.height())
        plot = chart.item.sceneBoundingRect()
        assert box.contains(plot), f"{type(chart).__name__} at {size}: plot {plot.getRect()} outside {box.getRect()}"
        if chart.legend.isVisible() and chart.legend.items:
            legend = chart.legend.sceneBoundingRect()
            data = chart.item.getViewBox().sceneBoundingRect()
            assert box.contains(legend), type(chart).__name__
            assert not legend.intersects(data), f"{type(chart).__name__}: the legend covers the data"
        checked.append(type(chart).__name__)
    assert "CompileWaterfall" in checked and "ThroughputChart" in checked, checked
    w.shutdown()
