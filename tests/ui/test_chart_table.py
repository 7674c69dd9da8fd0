"""Each chart has a text equivalent: "Show as table" (the chart's context menu, Ctrl+T, and the Probe page's
Export menu) lists every drawn point or bar with the axes' units, categories and row names by name."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication, QTableWidget

from gpu_tpu_app.core.runs import RunFile
from gpu_tpu_app.core.session import load_session
from gpu_tpu_app.ui.shell.app import _settle
from gpu_tpu_app.ui.shell.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[2]


def test_every_chart_with_data_shows_as_a_table(qtbot, compile_and_matmul_run: RunFile) -> None:
    app = QApplication.instance()
    w = MainWindow(persist=False)
    qtbot.addWidget(w, before_close_func=lambda win: win.session_controller.mark_clean())
    w.set_session(load_session(ROOT / "docs" / "screenshots" / "example-session.json"))
    w.resize(1280, 800)
    w.show()
    w.show_page("probe")
    _settle(app)
    panel = w.probe_panel
    panel.charts.flush_all()
    tables = {}
    for chart in panel.charts.charts():
        assert chart.act_table in chart.actions() and chart.act_table.shortcut().toString() == "Ctrl+T"
        header, rows = chart.table_rows()
        if chart.has_data:
            assert rows, type(chart).__name__
            assert all(len(r) == len(header) and all(cell for cell in r) for r in rows)
        tables[type(chart).__name__] = (header, rows)
    header, rows = tables["ThroughputChart"]
    assert header[2] == "FLOP/s" and any(r[1] == "1024" and r[2].endswith("G") for r in rows)
    header, rows = tables["BandwidthChart"]
    assert "triad" in {r[1] for r in rows}  # a bar is named by its category, not by where it is drawn
    header, rows = tables["CompileWaterfall"]
    assert header == ["Series", "Row", "Starts at", "Takes"]
    assert ["compile", rows[0][1]] == [rows[1][0], rows[1][1]] and rows[1][3].endswith("ms")
    # the Export menu opens the table of the chart shown
    panel.charts.setCurrentWidget(panel.charts.compile)
    panel.act_table.trigger()
    dialog = panel.charts.compile.findChild(QTableWidget, "")
    assert dialog is not None and dialog.rowCount() == len(rows)
    w.shutdown()
