"""The probe page's charts: matmul throughput, bandwidth, roofline, the JAX compile waterfall and collectives.

Drawn with pyqtgraph. Log axes are computed here (log10 of the data plus an axis that labels
10**v), because pyqtgraph's own log mode mishandles bars and infinite lines. Charts never
redraw on every result: `ChartsView.schedule()` coalesces requests into at most one redraw
per ~33 ms, and only the visible chart is redrawn.

The charts live in one module each (`chart_throughput`, `chart_bandwidth`, `chart_roofline`, `chart_compile`,
`chart_collectives`) over the shared machinery in `chart_plot`; this module holds the tabs and re-exports
their names, so `from gpu_tpu_app.ui.charts.view import ...` keeps working.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import (
    QTabWidget,
    QWidget,
)

from gpu_tpu_app.ui.charts.bandwidth import BandwidthChart
from gpu_tpu_app.ui.charts.collectives import CollectiveChart
from gpu_tpu_app.ui.charts.compile import PHASE_COLORS, PHASE_LABELS, CompileWaterfall
from gpu_tpu_app.ui.charts.data import (
    COLLECTIVE_OPS,
    Ceiling,
    ChartData,
    ChartRun,
    PointInfo,
    bandwidth_bars,
    bandwidth_flagged,
    bar_point_infos,
    bytes_label,
    catalogue_ceiling,
    collective_infos,
    collective_series,
    compile_rows,
    empty_reason,
    matmul_flagged,
    matmul_series,
    matmul_spread,
    measured_ceilings,
    phase_order,
    point_infos,
    point_readout,
    roofline_has_flagged,
    roofline_points,
    roofline_segments,
    roofline_untrusted_only,
    sort_categories,
    waterfall_segments,
)
from gpu_tpu_app.ui.charts.plot import (
    MAX_LEGEND_ENTRIES,
    MIN_PLOT_HEIGHT,
    SERIES_COLORS,
    UNTRUSTED_KEY,
    LogAxis,
    _Chart,
    hover_readout,
    make_hoverable,
)
from gpu_tpu_app.ui.charts.roofline import RooflineChart
from gpu_tpu_app.ui.charts.throughput import ThroughputChart
from gpu_tpu_app.ui.shell.theme import theme_manager

__all__ = [
    "COLLECTIVE_OPS",
    "MAX_LEGEND_ENTRIES",
    "MIN_PLOT_HEIGHT",
    "PHASE_COLORS",
    "PHASE_LABELS",
    "REDRAW_INTERVAL_MS",
    "SERIES_COLORS",
    "UNTRUSTED_KEY",
    "BandwidthChart",
    "Ceiling",
    "ChartData",
    "ChartRun",
    "ChartsView",
    "CollectiveChart",
    "CompileWaterfall",
    "LogAxis",
    "PointInfo",
    "RooflineChart",
    "ThroughputChart",
    "bandwidth_bars",
    "bandwidth_flagged",
    "bar_point_infos",
    "bytes_label",
    "catalogue_ceiling",
    "collective_infos",
    "collective_series",
    "compile_rows",
    "empty_reason",
    "hover_readout",
    "make_hoverable",
    "matmul_flagged",
    "matmul_series",
    "matmul_spread",
    "measured_ceilings",
    "phase_order",
    "point_infos",
    "point_readout",
    "roofline_has_flagged",
    "roofline_points",
    "roofline_segments",
    "roofline_untrusted_only",
    "sort_categories",
    "waterfall_segments",
]

REDRAW_INTERVAL_MS = 33  # at most ~30 redraws a second


# ---------------------------------------------------------------- the tabbed view


class ChartsView(QTabWidget):
    """The charts in tabs, redrawn at most ~30 times a second from a data callback."""

    sig_redrawn = Signal()

    def __init__(self, source: Callable[[], ChartData], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._source = source
        self.throughput = ThroughputChart()
        self.bandwidth = BandwidthChart()
        self.roofline = RooflineChart()
        self.compile = CompileWaterfall()
        self.collective = CollectiveChart()
        for chart, label in (
            (self.throughput, self.tr("Matmul")),
            (self.bandwidth, self.tr("Bandwidth")),
            (self.roofline, self.tr("Roofline")),
            (self.compile, self.tr("Compile (JAX)")),
            (self.collective, self.tr("Collectives")),
        ):
            self.addTab(chart, label)
            chart.setToolTip(chart.title)
        self.setAccessibleName(self.tr("Charts"))
        self._dirty: set[int] = set(range(self.count()))
        self.redraws = 0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(REDRAW_INTERVAL_MS)
        self._timer.timeout.connect(self.flush)
        self.currentChanged.connect(self._on_tab)
        self.roofline.sig_chips_changed.connect(lambda _ids: None)
        tm = theme_manager()
        tm.sig_theme_changed.connect(self._on_theme)

    def charts(self) -> list[_Chart]:
        """The charts, in tab order."""
        return [self.widget(i) for i in range(self.count())]  # type: ignore[misc]  # every tab is one of the charts

    def schedule(self) -> None:
        """Ask for a redraw; requests within ~33 ms collapse into one."""
        self._dirty = set(range(self.count()))
        if not self._timer.isActive():
            self._timer.start()

    def flush(self) -> None:
        """Redraw the visible chart now if it is out of date (the others when they are shown)."""
        self._timer.stop()
        i = self.currentIndex()
        if i in self._dirty:
            self._dirty.discard(i)
            self.charts()[i].redraw(self._source())
            self.redraws += 1
            self.sig_redrawn.emit()

    def flush_all(self) -> None:
        """Bring every chart up to date (before exporting them)."""
        self._timer.stop()
        data = self._source()
        for i in sorted(self._dirty):
            self.charts()[i].redraw(data)
        self._dirty.clear()

    def _on_tab(self, _i: int) -> None:
        self.flush()

    def _on_theme(self, _name: str) -> None:
        colors = theme_manager().colors()
        for chart in self.charts():
            chart.apply_theme(colors)
        self.schedule()

    def export_chart(self, chart: _Chart, path: str | Path) -> None:
        """Export one chart by the file's suffix: .png or .svg."""
        self.flush_all()
        suffix = Path(path).suffix.lower()
        if suffix == ".svg":
            chart.export_svg(path)
        elif suffix == ".png":
            chart.export_png(path)
        else:
            raise ValueError(self.tr("{path}: choose a .png or .svg file name").format(path=path))
