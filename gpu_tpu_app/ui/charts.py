"""The probe page's charts: matmul throughput, bandwidth, roofline, the JAX compile waterfall and collectives.

Drawn with pyqtgraph. Log axes are computed here (log10 of the data plus an axis that labels
10**v), because pyqtgraph's own log mode mishandles bars and infinite lines. Charts never
redraw on every result: `ChartsView.schedule()` coalesces requests into at most one redraw
per ~33 ms, and only the visible chart is redrawn.
"""

from __future__ import annotations

import functools
import html
import math
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pyqtgraph as pg
import pyqtgraph.exporters
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QColor, QFont, QFontMetrics, QIcon, QPainter, QPen, QPixmap, QResizeEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gpu_tpu_app.atomic import write_bytes
from gpu_tpu_app.core.terms import DTYPES
from gpu_tpu_app.core.wording import compact, format_seconds, format_value
from gpu_tpu_app.ui.chart_data import (
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
from gpu_tpu_app.ui.collective_run import PROCESSES as TWO_RANKS
from gpu_tpu_app.ui.theme import theme_manager
from gpu_tpu_app.ui.widgets import plain_tip

REDRAW_INTERVAL_MS = 33  # at most ~30 redraws a second

#: Colour-blind-safe series colours (Okabe & Ito), after the theme's accent.
SERIES_COLORS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#8C6D31", "#7F7F7F")

#: one hue per compile phase, none of them shared with a neighbour in the waterfall
PHASE_COLORS = {
    "first_call_cold": "#7F7F7F",
    "trace": "#56B4E9",
    "lower": "#CC79A7",
    "compile": "#D55E00",
    "first_call": "#8C6D31",
    "run": "#E69F00",
    "steady": "#009E73",
}

PHASE_LABELS = {
    "first_call_cold": "cold first call",
    "trace": "trace",
    "lower": "trace + lower",
    "compile": "compile",
    "first_call": "first call",
    "run": "rest of the first call (run)",
    "steady": "steady call",
}


def hover_readout(scatter: pg.ScatterPlotItem, points: Any, _event: Any = None) -> None:
    """sigHovered: the readout of the points under the pointer (at most three) as the plot's tooltip,
    plain text whatever a device name holds; no tooltip once the pointer leaves them."""
    infos = [p.data() for p in list(points)[:3] if isinstance(p.data(), PointInfo)]
    text = "\n\n".join(point_readout(i) for i in infos)
    if len(points) > 3:
        text += f"\n\n(and {len(points) - 3} more)"
    view = scatter.getViewBox()
    if view is not None:
        view.setToolTip(plain_tip(text) if infos else "")


def make_hoverable(scatter: pg.ScatterPlotItem) -> pg.ScatterPlotItem:
    """Let the points of `scatter` (their data: PointInfo) answer a hover with their readout."""
    scatter.opts["hoverable"] = True
    scatter.opts["tip"] = None  # the readout comes from hover_readout, as plain text
    scatter.setAcceptHoverEvents(True)
    scatter.sigHovered.connect(hover_readout)
    return scatter


# ---------------------------------------------------------------- axes and styling


class LogAxis(pg.AxisItem):
    """An axis over log10(data) that labels ticks with the real values (decades, plus 2 and 5 between)."""

    def __init__(
        self, orientation: str, fmt: Callable[[float], str] = compact, pow2: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(orientation, **kwargs)
        self._fmt = fmt
        self.log = True
        self.pow2 = pow2  # ticks at powers of two (matrix sizes) instead of decades
        self.enableAutoSIPrefix(False)

    def tickValues(self, minVal: float, maxVal: float, size: float) -> list[tuple[float, list[float]]]:
        if not self.log:
            return super().tickValues(minVal, maxVal, size)
        if not (math.isfinite(minVal) and math.isfinite(maxVal)) or maxVal <= minVal:
            return []
        if self.pow2:
            l2 = math.log2(10.0)
            ticks = [k / l2 for k in range(math.ceil(minVal * l2), math.floor(maxVal * l2) + 1)]
            if 0 < len(ticks) <= 12:
                return [(1.0, ticks)]
        lo, hi = math.floor(minVal), math.ceil(maxVal)
        if hi - lo > 40:
            return super().tickValues(minVal, maxVal, size)
        major = [float(d) for d in range(lo, hi + 1) if minVal <= d <= maxVal]
        subs = (2, 5) if hi - lo <= 6 else ()
        minor = [d + math.log10(m) for d in range(lo, hi + 1) for m in subs if minVal <= d + math.log10(m) <= maxVal]
        if len(major) < 2:
            return [(1.0, sorted(major + minor))]
        return [(1.0, major), (0.5, minor)]

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:
        if not self.log:
            return [self._fmt(v) for v in values]
        return [self._fmt(10.0**v) for v in values]


def _item_color(item: Any, fallback: str) -> str:
    """The colour a plot item is drawn in (its pen, else its brush), for its entry in the side list."""
    opts = getattr(item, "opts", {}) or {}
    for key, make in (("pen", pg.mkPen), ("brush", pg.mkBrush)):
        value = opts.get(key)
        if value is not None:
            try:
                return str(make(value).color().name())
            except (TypeError, ValueError):
                continue
    return fallback


def _swatch(color: str, size: int = 12) -> QIcon:
    """A small square of `color`: a series' mark in the side list."""
    pix = QPixmap(size, size)
    pix.fill(QColor(color))
    return QIcon(pix)


def _pen(color: str, width: float = 2.0, dashed: bool = False) -> QPen:
    pen = pg.mkPen(color=color, width=width)
    if dashed:
        pen.setStyle(Qt.PenStyle.DashLine)
    return pen


#: With more series than this, the legend moves from under the plot to a side list with toggles.
MAX_LEGEND_ENTRIES = 2
#: The legend entry that says what a hollow marker means (each series keeps its own entry).
UNTRUSTED_KEY = "hollow: not trusted (hover a point for why)"
#: The plot (title, axes and data) never gets shorter than this.
MIN_PLOT_HEIGHT = 280


class _Chart(QWidget):
    """A titled pyqtgraph plot with theme colours and PNG / SVG export.

    Every subclass's `redraw` is followed by `_sync_series` (wrapped in `__init_subclass__`), so the
    legend / side list always matches what was just drawn, whichever chart drew it.
    """

    title = ""
    slug = "chart"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        draw = cls.__dict__.get("redraw")
        if draw is not None:

            @functools.wraps(draw)
            def redraw(self: _Chart, data: ChartData) -> None:
                draw(self, data)
                self._sync_series()

            cls.redraw = redraw  # type: ignore[method-assign]  # wraps each subclass's redraw, see the class docstring

    def __init__(self, axis_items: dict[str, pg.AxisItem] | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # The legend sits under the plot, in the same scene, so it never hides data and is exported too.
        self.plot = pg.GraphicsLayoutWidget()
        self.item: pg.PlotItem = self.plot.addPlot(row=0, col=0, axisItems=axis_items or {})
        self.item.setMenuEnabled(False)
        self.item.showGrid(x=True, y=True, alpha=0.35)
        self.legend = pg.LegendItem(labelTextSize="8pt", colCount=2)
        self.plot.addItem(self.legend, row=1, col=0)
        self.item.legend = self.legend  # PlotItem.addItem registers named items here
        self.item.getViewBox().setDefaultPadding(0.06)  # room for the first and last tick labels
        for name in ("bottom", "left"):
            self.item.getAxis(name).setStyle(hideOverlappingLabels=False)
        self.plot.setMinimumHeight(MIN_PLOT_HEIGHT)
        # many series: a side list whose check boxes show and hide each one
        self.series_list = QListWidget()
        self.series_list.setAccessibleName("Series shown")
        self.series_list.setToolTip("Untick a series to hide it")
        self.series_list.setMaximumWidth(190)
        self.series_list.setMinimumWidth(120)
        self.series_list.setWordWrap(True)
        self.series_list.hide()
        self.series_list.itemChanged.connect(self._series_toggled)
        self._hidden_series: set[str] = set()
        self._series_items: dict[str, list[Any]] = {}
        # items of a named series with no legend entry of their own (its untrusted points), and the names of
        # legend entries that explain a marker rather than name a series (no check box in the side list)
        self._members: dict[str, list[Any]] = {}
        self._keys: set[str] = set()
        self.controls = QHBoxLayout()
        self.controls.setContentsMargins(0, 0, 0, 0)
        self.empty = QLabel("", self)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(self.controls)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.plot, 1)
        row.addWidget(self.series_list)
        layout.addLayout(row, 1)
        self._colors = theme_manager().colors()
        self._series_colors: dict[Any, str] = {}
        self._items: list[Any] = []
        self.has_data = False
        self.apply_theme(self._colors)

    # -- styling
    def apply_theme(self, colors: dict[str, str]) -> None:
        """Colours from the theme: background, axes, text, grid."""
        self._colors = dict(colors)
        self.plot.setBackground(colors["surface"] if "surface" in colors else colors["background"])
        fg = QColor(colors["foreground"])
        for name in ("left", "bottom", "right", "top"):
            axis = self.item.getAxis(name)
            axis.setPen(pg.mkPen(colors["muted"]))
            axis.setTextPen(pg.mkPen(fg))
            axis.setStyle(tickFont=QFont(self.font().family(), 8))
        self._set_title()
        self.legend.setLabelTextColor(fg)
        self.legend.setBrush(pg.mkBrush(None))
        self.legend.setPen(pg.mkPen(None))
        self.empty.setStyleSheet(f"color: {colors['muted']};")
        self._series_colors.clear()

    def _set_title(self) -> None:
        """The title, elided to the plot's width (the full title is the chart's tooltip)."""
        font = QFont(self.font().family())
        font.setPointSize(11)
        room = max(80, self.plot.width() - 60)
        text = QFontMetrics(font).elidedText(self.title, Qt.TextElideMode.ElideRight, room)
        self.item.setTitle(html.escape(text), color=self._colors["foreground"], size="11pt")
        self.shown_title = text

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._set_title()

    # -- series shown
    def _sync_series(self) -> None:
        """After a redraw: legend under the plot for a few series, a side list with toggles for more."""
        self._series_items = {}
        for sample, lab in self.legend.items:
            self._series_items.setdefault(html.unescape(lab.text), []).append(sample.item)
        for name, items in self._members.items():
            self._series_items.setdefault(name, []).extend(items)
        many = len(self._series_items) > MAX_LEGEND_ENTRIES
        self._show_legend(not many)
        self.series_list.setVisible(many)
        self.series_list.blockSignals(True)
        self.series_list.clear()
        if many:
            for name, items in self._series_items.items():
                entry = QListWidgetItem(name)
                if name in self._keys:  # what a marker means: nothing to show or hide
                    entry.setFlags(Qt.ItemFlag.ItemIsEnabled)
                else:
                    entry.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
                    hidden = name in self._hidden_series
                    entry.setCheckState(Qt.CheckState.Unchecked if hidden else Qt.CheckState.Checked)
                # the series' colour as a swatch, the name in the text colour: a line colour on the list's
                # background is often under 4.5:1 (the blue of a series on the dark theme is 2.5:1)
                if name not in self._keys:  # a key explains a hollow marker: no filled swatch for it
                    entry.setIcon(_swatch(_item_color(items[0], self._colors["foreground"])))
                entry.setToolTip(name)
                self.series_list.addItem(entry)
        self.series_list.blockSignals(False)
        for name, items in self._series_items.items():
            for it in items:
                it.setVisible(not (many and name in self._hidden_series))

    def _show_legend(self, shown: bool) -> None:
        """The legend under the plot, in the layout only while shown (a hidden item still takes room)."""
        in_layout = self.legend in self.plot.ci.items
        if shown and not in_layout:
            self.plot.addItem(self.legend, row=1, col=0)
        elif not shown and in_layout:
            self.plot.ci.removeItem(self.legend)
        self.legend.setVisible(shown)

    def _series_toggled(self, entry: QListWidgetItem) -> None:
        name = entry.text()
        if entry.checkState() == Qt.CheckState.Checked:
            self._hidden_series.discard(name)
        else:
            self._hidden_series.add(name)
        for it in self._series_items.get(name, []):
            it.setVisible(name not in self._hidden_series)

    def series_color(self, key: Any) -> str:
        """A stable colour for one series: the theme accent first, then the fixed palette."""
        if key not in self._series_colors:
            palette = (self._colors["accent"], *SERIES_COLORS)
            self._series_colors[key] = palette[len(self._series_colors) % len(palette)]
        return self._series_colors[key]

    def clear_items(self) -> None:
        """Remove every item drawn by the last redraw (and its legend entries)."""
        for it in self._items:
            self.item.removeItem(it)
        self._items.clear()
        self._members = {}
        self._keys = set()
        self.legend.clear()
        self._set_axes_visible(True)

    def _set_axes_visible(self, visible: bool) -> None:
        for name in ("left", "bottom"):
            self.item.showAxis(name, visible)
        self.item.showGrid(x=visible, y=visible, alpha=0.35)

    def add_series(self, x: Any, y: Any, data: list[Any], name: str, color: str, dashed: bool) -> Any:
        """One measured series: a line with a marker per point whose hover shows that point's readout."""
        curve = pg.PlotDataItem(
            x=x,
            y=y,
            data=data,
            name=html.escape(name, quote=False),  # the legend reads names as HTML
            pen=_pen(color, 2, dashed=dashed),
            symbol="o",
            symbolSize=6,
            symbolBrush=color,
            symbolPen=None,
            skipFiniteCheck=True,
        )
        make_hoverable(curve.scatter)
        return self.add(curve)

    def add_untrusted(self, x: Any, y: Any, data: list[Any], series: str, color: str, has_line: bool) -> Any:
        """The untrusted points of one series as hollow markers, hoverable. They belong to the series' legend
        entry (shown and hidden with it); a series with no trusted point gets an entry of its own."""
        name = None if has_line else f"{series} (not trusted)"
        sc = pg.ScatterPlotItem(
            x=x,
            y=y,
            size=9,
            symbol="o",
            brush=pg.mkBrush(None),
            pen=pg.mkPen(color, width=1.6),
            name=html.escape(name, quote=False) if name else None,
            data=data,
        )
        make_hoverable(sc)
        if has_line:
            self._members.setdefault(series, []).append(sc)
        return self.add(sc)

    def add_key(self, text: str, bar: bool = False) -> None:
        """One legend entry that says what a hollow marker (or a dashed bar) means."""
        if bar:
            pen = pg.mkPen(self._colors["muted"], width=1.6)
            pen.setStyle(Qt.PenStyle.DashLine)
            it: Any = pg.BarGraphItem(x=[], height=[], width=0.1, brush=pg.mkBrush(None), pen=pen, name=text)
        else:
            it = pg.ScatterPlotItem(
                x=[], y=[], size=9, brush=pg.mkBrush(None), pen=pg.mkPen(self._colors["muted"], width=1.6), name=text
            )
        self._keys.add(text)
        self.add(it)

    def add(self, it: Any) -> Any:
        """Add a plot item that the next redraw removes."""
        self.item.addItem(it)
        self._items.append(it)
        return it

    def show_empty(self, text: str) -> None:
        """Say in the plot why it is empty: a placeholder, no made-up axes or ticks."""
        self._set_axes_visible(False)
        t = pg.TextItem(text, color=self._colors["muted"], anchor=(0.5, 0.5))
        self.add(t)
        t.setPos(0.5, 0.5)
        self.item.setRange(xRange=(0, 1), yRange=(0, 1), padding=0)

    def redraw(self, data: ChartData) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    # -- export
    def export_png(self, path: str | Path, width: int = 1600) -> None:
        """Write the chart as a PNG image (atomic write); the legend is always in the file."""
        self._show_legend(True)
        try:
            self._export_png(path, width)
        finally:
            self._show_legend(not self.series_list.isVisible())

    def _export_png(self, path: str | Path, width: int) -> None:
        exporter = pg.exporters.ImageExporter(self.plot.ci)
        exporter.parameters()["width"] = int(width)
        image = exporter.export(toBytes=True)
        buf = QByteArray()
        device = QBuffer(buf)
        device.open(QIODevice.OpenModeFlag.WriteOnly)
        if not image.save(device, "PNG"):
            raise OSError(f"{path}: could not encode the PNG image")
        device.close()
        write_bytes(path, bytes(buf.data()))

    def export_svg(self, path: str | Path) -> None:
        """Write the chart as an SVG drawing (atomic write); the legend is always in the file.

        Drawn with Qt's own QSvgGenerator: pyqtgraph's SVGExporter cannot parse the path data
        that Qt 6.12 writes and fails on every item.
        """
        self._show_legend(True)
        try:
            self._export_svg(path)
        finally:
            self._show_legend(not self.series_list.isVisible())

    def _export_svg(self, path: str | Path) -> None:
        from PySide6.QtSvg import QSvgGenerator

        source = self.plot.ci.sceneBoundingRect()
        w, h = max(1, round(source.width())), max(1, round(source.height()))
        buf = QByteArray()
        device = QBuffer(buf)
        device.open(QIODevice.OpenModeFlag.WriteOnly)
        gen = QSvgGenerator()
        gen.setOutputDevice(device)
        gen.setSize(QSize(w, h))
        gen.setViewBox(QRectF(0, 0, w, h))
        gen.setTitle(self.title)
        gen.setDescription("gpu-tpu-app probe chart")
        painter = QPainter(gen)
        try:
            painter.fillRect(QRectF(0, 0, w, h), QColor(self._colors.get("surface", self._colors["background"])))
            self.plot.scene().render(painter, QRectF(0, 0, w, h), source)
        finally:
            painter.end()
        device.close()
        write_bytes(path, bytes(buf.data()))


class ThroughputChart(_Chart):
    """Matmul FLOP/s against matrix size, one line per device / backend / dtype (and per run)."""

    title = "Matmul throughput"
    slug = "matmul"

    def __init__(self, parent: QWidget | None = None) -> None:
        y_axis = LogAxis("left", fmt=compact)
        super().__init__({"bottom": LogAxis("bottom", fmt=lambda v: f"{v:.0f}", pow2=True), "left": y_axis}, parent)
        self.y_axis = y_axis
        self.log_y = QCheckBox("Log scale (throughput)")
        self.log_y.setToolTip("Compare runs whose speeds differ by orders of magnitude, e.g. a laptop CPU and a TPU")
        self.log_y.toggled.connect(self._relayout)
        self.controls.addStretch(1)
        self.controls.addWidget(self.log_y)
        self._last: ChartData | None = None
        self.item.setLabel("bottom", "matrix size N (N×N, log scale)")
        self._relayout()

    def _relayout(self) -> None:
        log_y = self.log_y.isChecked()
        self.y_axis.log = log_y
        self.item.setLabel("left", "FLOP/s (log scale)" if log_y else "FLOP/s")
        self.y_axis.picture = None
        self.y_axis.update()
        if self._last is not None:
            self.redraw(self._last)

    def redraw(self, data: ChartData) -> None:
        """Draw one line per series; x is log10(N) labelled with N."""
        self._last = data
        self.clear_items()
        series = matmul_series(data)
        flagged = matmul_flagged(data)
        self.has_data = bool(series or flagged)
        if not self.has_data:
            self.show_empty(empty_reason(data, ("matmul",), "matmul results", "run a probe or import a run file."))
            return
        log_y = self.log_y.isChecked()
        multi = len(data.visible()) > 1
        runs = {cr.index: cr for cr in data.runs}
        infos = point_infos(data)
        xs_all: list[float] = []
        ys_all: list[float] = []
        for key in dict.fromkeys([*series, *flagged]):  # every series, trusted points or not, in one entry
            run_i, dev, backend, dtype = key
            cr = runs[run_i]
            name = f"{cr.run.device_name(dev)} · {backend} · {dtype or '?'}"
            if multi:
                name += f"  [{cr.label}]"
            color = self.series_color(key)
            for hollow, pts in ((False, series.get(key, [])), (True, flagged.get(key, []))):
                if not pts:
                    continue
                x = np.log10(np.array([p[0] for p in pts], dtype=float))
                vals = np.array([p[1] for p in pts], dtype=float)
                y = np.log10(vals) if log_y else vals
                point_data = [infos.get((run_i, dev, backend, dtype, "matmul", p[0], p[1])) for p in pts]
                if hollow:
                    self.add_untrusted(x, y, point_data, name, color, has_line=key in series)
                else:
                    self.add_series(x, y, point_data, name, color, dashed=cr.imported)
                xs_all.extend(x)
                ys_all.extend(y)
        if flagged:
            self.add_key(UNTRUSTED_KEY)
        for key, spread in matmul_spread(data).items():  # the middle half of the repetitions, as error bars
            x = np.log10(np.array([p[0] for p in spread], dtype=float))
            med = dict(series.get(key, []))
            mid = np.array([med.get(p[0], p[1]) for p in spread], dtype=float)
            q1 = np.array([p[1] for p in spread], dtype=float)
            q3 = np.array([p[2] for p in spread], dtype=float)
            y, lo, hi = (np.log10(mid), np.log10(q1), np.log10(q3)) if log_y else (mid, q1, q3)
            bars = pg.ErrorBarItem(
                x=x,
                y=y,
                top=np.maximum(hi - y, 0),
                bottom=np.maximum(y - lo, 0),
                beam=0.02,
                pen=pg.mkPen(self.series_color(key), width=1),
            )
            self.add(bars)
        x_pad = 0.08
        y_range = (min(ys_all) - 0.15, max(ys_all) + 0.15) if log_y else (0.0, max(ys_all) * 1.18)
        self.item.setRange(xRange=(min(xs_all) - x_pad, max(xs_all) + x_pad), yRange=y_range, padding=0)


class BandwidthChart(_Chart):
    """Bars: best bytes per second of copy, triad, transfers and collectives, per device / run."""

    title = "Memory and transfer bandwidth (best of each kernel)"
    slug = "bandwidth"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(None, parent)
        self.item.setLabel("left", "bandwidth", units="B/s")
        self.item.getAxis("left").enableAutoSIPrefix(True)

    def redraw(self, data: ChartData) -> None:
        """Grouped bars: one group per kernel, one bar per device / backend / run; flagged points as hollow bars."""
        self.clear_items()
        cats, series = bandwidth_bars(data)
        flagged_cats, flagged = bandwidth_flagged(data)
        cats = sort_categories([*cats, *(c for c in flagged_cats if c not in cats)])
        keys = list(dict.fromkeys([*series, *flagged]))
        self.has_data = bool(keys)
        bottom = self.item.getAxis("bottom")
        if not keys:
            bottom.setTicks([[]])
            self.show_empty(
                empty_reason(
                    data, ("copy", "triad", "transfer"), "bandwidth results", "copy, triad and transfer appear here."
                )
            )
            return
        runs = {cr.index: cr for cr in data.runs}
        multi = len(data.visible()) > 1
        n = len(keys)
        width = min(0.8 / n, 0.3)
        top = 0.0
        labels: list[tuple[float, float, str]] = []
        any_bad = False
        for j, key in enumerate(keys):
            cr = runs[key[0]]
            values = series.get(key, {})
            # a flagged point is drawn hollow where nothing trusted was measured, or where it reads higher
            bad = {c: v for c, v in flagged.get(key, {}).items() if v > values.get(c, 0.0)}
            xs_of = {c: i + width * (j - (n - 1) / 2) for i, c in enumerate(cats)}
            group_top, group_labels = self._draw_group(cr, key, values, bad, xs_of, width, multi)
            top = max(top, group_top)
            labels.extend(group_labels)
            any_bad = any_bad or bool(bad)
        if any_bad:
            self.add_key("dashed, hollow: not trusted (hover a bar for why)", bar=True)
        for x, h, text in labels:
            t = pg.TextItem(text, color=self._colors["foreground"], anchor=(0.5, 1.0))
            self.add(t)
            t.setPos(x, h)
        bottom.setTicks([[(i, c) for i, c in enumerate(cats)]])
        self.item.setRange(xRange=(-0.6, len(cats) - 0.4), yRange=(0, top * 1.2), padding=0)

    def _draw_group(
        self,
        cr: ChartRun,
        key: tuple[int, str, str],
        values: dict[str, float],
        bad: dict[str, float],
        xs_of: dict[str, float],
        width: float,
        multi: bool,
    ) -> tuple[float, list[tuple[float, float, str]]]:
        """The bars of one device / backend / run at x positions `xs_of` (by category): trusted bests filled,
        flagged ones (`bad`) dashed and hollow. Returns the highest bar and the value labels (x, height, text)."""
        color = QColor(self.series_color(key))
        name = f"{cr.run.device_name(key[1])} · {key[2]}"
        if multi:
            name += f"  [{cr.label}]"
        top = 0.0
        labels: list[tuple[float, float, str]] = []
        if values:
            xs = [xs_of[c] for c in values]
            hs = list(values.values())
            top = max(top, *hs)
            brush = QColor(color)
            if cr.imported:
                brush.setAlpha(150)
            bars = pg.BarGraphItem(
                x=xs,
                height=hs,
                width=width * 0.92,
                brush=brush,
                pen=pg.mkPen(color),
                name=html.escape(name, quote=False),
            )  # the legend reads names as HTML
            self.add(bars)
            self._hover_marks(bars, cr, key, list(values), xs, hs, color)
            labels.extend((x, h, f"{key[2]}\n{format_value(h, 'bytes_per_s')}") for x, h in zip(xs, hs))
        if bad:
            xs = [xs_of[c] for c in bad]
            hs = list(bad.values())
            top = max(top, *hs)
            pen = pg.mkPen(color, width=1.6)
            pen.setStyle(Qt.PenStyle.DashLine)
            hollow = pg.BarGraphItem(
                x=xs,
                height=hs,
                width=width * 0.92,
                brush=pg.mkBrush(None),
                pen=pen,
                # a series with no trusted bar is listed on its own; else its hollow bars go with its entry
                name=None if values else html.escape(f"{name} (not trusted)", quote=False),
            )
            self.add(hollow)
            if values:
                self._members.setdefault(name, []).append(hollow)
            self._hover_marks(hollow, cr, key, list(bad), xs, hs, color)
            labels.extend(
                (x, h, f"{key[2]}\n{format_value(h, 'bytes_per_s')} (not trusted)")
                for c, x, h in zip(bad, xs, hs)
                if c not in values
            )
        return top, labels

    def _hover_marks(
        self,
        bars: pg.BarGraphItem,
        cr: ChartRun,
        key: tuple[int, str, str],
        cats: list[str],
        xs: list[float],
        hs: list[float],
        color: QColor,
    ) -> None:
        """A small marker on top of each bar that reads out the point the bar shows when hovered; a child of
        the bars, so it hides and goes with them."""
        infos = bar_point_infos(cr, key, cats, hs)
        marks = pg.ScatterPlotItem(
            x=xs,
            y=hs,
            size=7,
            symbol="o",
            brush=pg.mkBrush(self._colors.get("surface", self._colors["background"])),
            pen=pg.mkPen(color, width=1.4),
            data=infos,
        )
        make_hoverable(marks)
        marks.setParentItem(bars)


class RooflineChart(_Chart):
    """Log–log roofline: measured ceilings of each device next to catalogue chips the user picks."""

    title = "Roofline"
    slug = "roofline"
    sig_chips_changed = Signal(list)

    #: intensity range shown (FLOP per byte)
    X_MIN, X_MAX = 1.0 / 16.0, 4096.0

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            {"bottom": LogAxis("bottom", fmt=lambda v: compact(v)), "left": LogAxis("left", fmt=lambda v: compact(v))},
            parent,
        )
        self.item.setLabel("bottom", "arithmetic intensity (FLOP per byte, log scale)")
        self.item.setLabel("left", "FLOP/s (log scale)")
        self.dtype = QComboBox()
        self.dtype.addItems(list(DTYPES))
        self.dtype.setToolTip("Compute ceiling for this dtype (measured matmul and catalogue peak)")
        self.chip_button = QToolButton()
        self.chip_button.setText("Compare with chips")
        self.chip_button.setToolTip("Draw the published ceilings of catalogue GPUs and TPUs (dashed)")
        self.chip_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.chip_menu = QMenu(self.chip_button)
        self.chip_button.setMenu(self.chip_menu)
        self.controls.addWidget(QLabel("dtype"))
        self.controls.addWidget(self.dtype)
        self.controls.addWidget(self.chip_button)
        self.controls.addStretch(1)
        self._chips: dict[str, Any] = {}
        self._actions: dict[str, QAction] = {}
        self._last: ChartData | None = None
        self._load_catalog()
        self.dtype.currentTextChanged.connect(lambda _t: self._again())

    def _load_catalog(self) -> None:
        from gpu_tpu_app.core.catalog import load_catalog

        catalog = load_catalog()
        for family, heading in (
            ("gpu", "GPUs (the workshop)"),
            ("tpu", "TPUs (the factory line)"),
            ("other", "Other accelerators (AWS Trainium and Inferentia, Intel Gaudi)"),
        ):
            self.chip_menu.addSection(heading)
            for chip in (c for c in catalog.chips if c.family == family):
                act = QAction(chip.name, self.chip_menu, checkable=True)
                act.toggled.connect(self._on_chip_toggled)
                self.chip_menu.addAction(act)
                self._chips[chip.id] = chip
                self._actions[chip.id] = act

    def chip_ids(self) -> list[str]:
        """All catalogue chip ids offered."""
        return list(self._chips)

    def selected_chips(self) -> list[str]:
        """Ids of the catalogue chips drawn."""
        return [cid for cid, act in self._actions.items() if act.isChecked()]

    def selected_chip_models(self) -> list[Any]:
        """The catalogue chips drawn (core.catalog.Chip), in menu order."""
        return [self._chips[cid] for cid in self.selected_chips()]

    def _on_chip_toggled(self, *_args: Any) -> None:
        n = len(self.selected_chips())
        self.chip_button.setText(f"Compare with chips ({n})" if n else "Compare with chips")
        self.sig_chips_changed.emit(self.selected_chips())
        self._again()

    def _again(self) -> None:
        if self._last is not None:
            self.redraw(self._last)

    def redraw(self, data: ChartData) -> None:
        """Measured roofs (solid), catalogue roofs (dashed, GPU / TPU colours), matmul points."""
        self._last = data
        self.clear_items()
        dtype = self.dtype.currentText()
        measured = measured_ceilings(data, dtype)
        untrusted_only = roofline_untrusted_only(data, dtype, measured)
        flagged_any = roofline_has_flagged(data, dtype)
        chips = [self._chips[c] for c in self.selected_chips()]
        self.has_data = bool(measured or untrusted_only)
        if not measured and not untrusted_only and not chips:
            self.show_empty(
                f"No {dtype} matmul or memory bandwidth measured yet. Run a probe, import a run file, "
                "or pick catalogue chips to compare."
            )
            return
        y_vals: list[float] = []
        runs = {cr.index: cr for cr in data.runs}
        multi = len(data.visible()) > 1
        peaks = [c.peak_flops for c in measured.values() if c.peak_flops]
        peaks += [p for chip in chips if (p := chip.peak_flops(dtype))]
        y_cap = max(peaks) if peaks else None
        for key, c in measured.items():
            y_vals.extend(self._draw_measured(key, c, runs[key[0]], dtype, multi, y_cap))
        for key, label in untrusted_only.items():  # devices measured, yet with no trusted point: no roof
            cr = runs[key[0]]
            name = f"measured: {label}" + (f"  [{cr.label}]" if multi else "")
            pts = roofline_points(cr, key[1], dtype, hollow=True, backend=key[2])
            x, y = np.log10([p[0] for p in pts]), np.log10([p[1] for p in pts])
            self.add_untrusted(x, y, [p[2] for p in pts], name, self.series_color(key), has_line=False)
            y_vals.extend(y)
        if flagged_any:
            self.add_key("hollow: not trusted, never a ceiling (hover a point for why)")
        y_vals.extend(self._draw_catalogue(chips, dtype, y_cap))
        lx0, lx1 = math.log10(self.X_MIN), math.log10(self.X_MAX)
        if y_vals:
            self.item.setRange(xRange=(lx0, lx1), yRange=(min(y_vals) - 0.3, max(y_vals) + 0.4), padding=0)

    def _draw_measured(
        self, key: tuple[int, str, str], c: Ceiling, cr: ChartRun, dtype: str, multi: bool, y_cap: float | None
    ) -> list[float]:
        """One measured roof (solid; dashed for an imported run) and its matmul points; returns the y drawn."""
        y_vals: list[float] = []
        color = self.series_color(key)
        x, y = roofline_segments(c, self.X_MIN, self.X_MAX, y_cap)
        if not len(x):
            return y_vals
        parts = []
        if c.peak_flops:
            parts.append(format_value(c.peak_flops, "flops"))
        if c.mem_bw:
            parts.append(format_value(c.mem_bw, "bytes_per_s"))
        name = f"measured: {c.label} ({', '.join(parts)})"
        if multi:
            name += f"  [{cr.label}]"
        line = pg.PlotDataItem(name=html.escape(name, quote=False), pen=_pen(color, 2.5, dashed=cr.imported))
        line.setData(x, y, skipFiniteCheck=True)
        self.add(line)
        y_vals.extend(y)
        # The matmul points at their own intensity: trusted ones filled (they built the compute roof),
        # flagged ones hollow (never a ceiling).
        for hollow in (False, True):
            pts = roofline_points(cr, key[1], dtype, hollow, backend=key[2])
            if not pts:
                continue
            x, y = np.log10([p[0] for p in pts]), np.log10([p[1] for p in pts])
            if hollow:
                self.add_untrusted(x, y, [p[2] for p in pts], name, color, has_line=True)
            else:
                sc = pg.ScatterPlotItem(
                    x=x,
                    y=y,
                    size=7,
                    brush=pg.mkBrush(color),
                    pen=pg.mkPen(self._colors["foreground"], width=0.5),
                    data=[p[2] for p in pts],
                )
                make_hoverable(sc)
                self.add(sc)
                self._members.setdefault(name, []).append(sc)
            y_vals.extend(y)
        return y_vals

    def _draw_catalogue(self, chips: list[Any], dtype: str, y_cap: float | None) -> list[float]:
        """The published roofs of the catalogue chips picked (dashed, GPU / TPU colours); returns the y drawn."""
        y_vals: list[float] = []
        fam_count: dict[str, int] = defaultdict(int)
        styles = (Qt.PenStyle.DashLine, Qt.PenStyle.DotLine, Qt.PenStyle.DashDotLine, Qt.PenStyle.DashDotDotLine)
        for chip in chips:
            c = catalogue_ceiling(chip, dtype)
            x, y = roofline_segments(c, self.X_MIN, self.X_MAX, y_cap)
            if not len(x):
                continue
            pen = pg.mkPen(self._colors.get(chip.family, self._colors["muted"]), width=2)
            pen.setStyle(styles[fam_count[chip.family] % len(styles)])
            fam_count[chip.family] += 1
            peak = format_value(c.peak_flops, "flops") if c.peak_flops else f"no published {dtype} peak"
            bw = format_value(c.mem_bw, "bytes_per_s") if c.mem_bw else "no published bandwidth"
            line = pg.PlotDataItem(name=f"spec: {chip.name} ({peak}, {bw})", pen=pen)
            line.setData(x, y, skipFiniteCheck=True)
            self.add(line)
            y_vals.extend(y)
        return y_vals


class CompileWaterfall(_Chart):
    """JAX's compile step measured: trace / lower, compile, first call and a steady call, end to end."""

    title = "JAX compile waterfall: the first call of a new jitted function, then a steady call"
    slug = "compile"

    def __init__(self, parent: QWidget | None = None) -> None:
        bottom = LogAxis("bottom", fmt=lambda v: format_seconds(v) if v else "0")
        bottom.log = False
        super().__init__({"bottom": bottom}, parent)
        self.item.setLabel("bottom", "elapsed time (linear)")
        self.item.invertY(True)

    def phase_color(self, phase: str) -> str:
        """Colour of one phase: each phase a clearly different hue (Okabe-Ito palette), so adjacent
        segments never look alike."""
        return PHASE_COLORS.get(phase, SERIES_COLORS[7])

    def redraw(self, data: ChartData) -> None:
        """One horizontal bar per phase, laid end to end, one row per run / device / size."""
        self.clear_items()
        rows = compile_rows(data)
        self.has_data = bool(rows)
        left = self.item.getAxis("left")
        if not rows:
            left.setTicks([[]])
            self.show_empty(
                empty_reason(data, ("compile",), "JAX compile results", "the quick or full suite with jax", "jax")
            )
            return
        starts: dict[str, list[tuple[int, float, float]]] = {}
        end = 0.0
        for i, (_label, times) in enumerate(rows):
            t = 0.0
            for phase, x0, width in waterfall_segments(times):
                starts.setdefault(phase, []).append((i, x0, width))
                t = x0 + width
            end = max(end, t)
            total = pg.TextItem(
                " · ".join(f"{PHASE_LABELS.get(p, p)} {format_seconds(times[p])}" for p in phase_order(times)),
                color=self._colors["foreground"],
                anchor=(0, 0),
            )
            self.add(total)
            total.setPos(0, i + 0.3)
        first = ("trace", "lower", "compile", "run")
        for p in (*first, *sorted(k for k in starts if k not in first)):
            if p not in starts:
                continue
            ys = [s[0] for s in starts[p]]
            lefts = [s[1] for s in starts[p]]
            widths = [s[2] for s in starts[p]]
            color = QColor(self.phase_color(p))
            bar = pg.BarGraphItem(
                x0=lefts,
                y=ys,
                width=widths,
                height=0.5,
                brush=color,
                pen=pg.mkPen(color),
                name=html.escape(PHASE_LABELS.get(p, p), quote=False),
            )
            self.add(bar)
        left.setTicks([[(i, label) for i, (label, _t) in enumerate(rows)]])
        # Each row: its bar, and the measured figures written under it.
        self.item.setRange(xRange=(0, end * 1.08), yRange=(-0.6, len(rows) - 0.1), padding=0)


# ---------------------------------------------------------------- the tabbed view


class CollectiveChart(_Chart):
    """Bus bandwidth against message size for one collective, one line per (engine, ranks, hosts) and run."""

    title = "Collectives across processes: bus bandwidth"
    slug = "collective"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__({"bottom": _BytesAxis("bottom", fmt=bytes_label), "left": LogAxis("left")}, parent)
        self.op = QComboBox()
        for op, label in COLLECTIVE_OPS.items():
            self.op.addItem(label, op)
        self.op.setToolTip("Which collective to draw")
        self.op.currentIndexChanged.connect(self._again)
        self.controls.addWidget(QLabel("Operation"))
        self.controls.addWidget(self.op)
        # the probe page connects it: two ranks on this machine, their run shown here when done
        self.run_button = QPushButton(f"Measure across {TWO_RANKS} processes")
        self.run_button.setToolTip(
            f"Start {TWO_RANKS} processes on this machine and measure all-reduce, all-gather and reduce-scatter "
            "between them (about a minute per backend)"
        )
        self.controls.addWidget(self.run_button)
        self.controls.addStretch(1)
        note = QLabel("bus bandwidth = message size ÷ time × 2(n−1)/n (all-reduce) or (n−1)/n, as nccl-tests")
        note.setProperty("role", "muted")
        self.controls.addWidget(note)
        self.item.setLabel("bottom", "message size (log scale)")
        self.item.setLabel("left", "bus bandwidth, B/s (log scale)")
        self._last: ChartData | None = None

    def _again(self, *_args: Any) -> None:
        if self._last is not None:
            self.redraw(self._last)

    def redraw(self, data: ChartData) -> None:
        """One line per series; x is log10(bytes) labelled in KiB/MiB, y is log10(bus bandwidth)."""
        self._last = data
        self.clear_items()
        op = self.op.currentData() or "all_reduce"
        series = collective_series(data, op)
        flagged = collective_series(data, op, flagged=True)
        self.has_data = bool(series or flagged)
        if not self.has_data:
            self.show_empty(
                f"No collectives across processes yet: press “Measure across {TWO_RANKS} processes” above,\n"
                "or import a run measured across machines."
            )
            return
        runs = {cr.index: cr for cr in data.runs}
        multi = len(data.visible()) > 1
        xs_all: list[float] = []
        ys_all: list[float] = []
        for key in dict.fromkeys([*series, *flagged]):  # trusted points on the line, the rest hollow
            run_i, engine, ranks, hosts, transport, dtype = key
            cr = runs[run_i]
            name = f"{engine} {transport} · {ranks} ranks on {hosts} host{'s' if hosts > 1 else ''} · {dtype or '?'}"
            if multi:
                name += f"  [{cr.label}]"
            color = self.series_color(key)
            for hollow, pts in ((False, series.get(key, [])), (True, flagged.get(key, []))):
                if not pts:
                    continue
                x = np.log10(np.array([p[0] for p in pts], dtype=float))
                y = np.log10(np.array([p[1] for p in pts], dtype=float))
                infos = collective_infos(cr, op, key, pts)
                if hollow:
                    self.add_untrusted(x, y, infos, name, color, has_line=key in series)
                else:
                    self.add_series(x, y, infos, name, color, dashed=cr.imported)
                xs_all.extend(x)
                ys_all.extend(y)
        if flagged:
            self.add_key(UNTRUSTED_KEY)
        self.item.setRange(
            xRange=(min(xs_all) - 0.1, max(xs_all) + 0.1), yRange=(min(ys_all) - 0.2, max(ys_all) + 0.2), padding=0
        )


class _BytesAxis(LogAxis):
    """Message sizes over log10(bytes): ticks at powers of two, every second or fourth one when crowded."""

    def tickValues(self, minVal: float, maxVal: float, size: float) -> list[tuple[float, list[float]]]:
        if not (math.isfinite(minVal) and math.isfinite(maxVal)) or maxVal <= minVal:
            return []
        l2 = math.log2(10.0)
        lo, hi = math.ceil(minVal * l2), math.floor(maxVal * l2)
        step = 1
        while (hi - lo) // step > 10:
            step *= 2
        return [(1.0, [k / l2 for k in range(lo, hi + 1) if k % step == 0])]


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
            (self.throughput, "Matmul"),
            (self.bandwidth, "Bandwidth"),
            (self.roofline, "Roofline"),
            (self.compile, "Compile (JAX)"),
            (self.collective, "Collectives"),
        ):
            self.addTab(chart, label)
            chart.setToolTip(chart.title)
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
            raise ValueError(f"{path}: choose a .png or .svg file name")
