"""The Collectives tab measures across two processes itself: its button runs the real two-rank collective
(as `gpu-tpu-probe collective --processes 2` does), and the run shows on the tab, listed and hoverable."""

from __future__ import annotations

import pytest

from gpu_tpu_app.core.settings import Preferences
from gpu_tpu_app.ui.charts.data import PointInfo
from gpu_tpu_app.ui.probe import collective_run
from gpu_tpu_app.ui.probe.probe_panel import ProbePanel

pytestmark = pytest.mark.slow


def test_the_collectives_tab_runs_two_processes_and_shows_them(qtbot, monkeypatch) -> None:
    monkeypatch.setattr(collective_run, "BUDGET_S", 10)  # a shorter real run: fewer message sizes
    panel = ProbePanel(Preferences())
    qtbot.addWidget(panel)
    panel.resize(1280, 800)
    panel.show()
    panel.set_selection(backends=["torch"])
    chart = panel.charts.collective
    assert not chart.has_data
    with qtbot.waitSignal(panel.sig_runs_changed, timeout=240_000):
        assert panel.run_collective()
        assert not chart.run_button.isEnabled()
        assert "--processes 2" in " ".join(panel._collective.argv)
    assert chart.run_button.isEnabled()
    [run] = panel.runs()
    points = [r for r in run.results if r.kernel == "collective" and r.status == "ok"]
    assert points and all(r.collective is not None and r.collective.ranks == 2 for r in points)
    panel.charts.flush_all()
    assert chart.has_data and chart._series_items
    for items in chart._series_items.values():
        for it in items:
            sc = getattr(it, "scatter", it)
            for p in sc.points():
                assert isinstance(p.data(), PointInfo)
    assert any("Measured collectives across 2 processes" in text for _level, text in panel.messages())
    panel.shutdown()
