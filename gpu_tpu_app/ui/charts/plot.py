"""The machinery every probe chart shares: the titled plot (`_Chart`), log axes, series colours, the
legend or side list of series, hover readouts and PNG / SVG export. The charts themselves live in
`chart_throughput`, `chart_bandwidth`, `chart_roofline`, `chart_compile` and `chart_collectives`;
`charts.ChartsView` holds them in tabs.

Words: each chart's `title` is marked with QT_TRANSLATE_NOOP under its class's name and translated when
the chart is made; the rest goes through tr() (resources/i18n/gpu_tpu_app_probe.*.ts).
"""

from __future__ import annotations

import functools
import html
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pyqtgraph as pg
import pyqtgraph.exporters
from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QBuffer,
    QByteArray,
    QCoreApplication,
    QIODevice,
    QRectF,
    QSize,
    QSizeF,
    Qt,
    QTimer,
)
from PySide6.QtGui import (
    QAction,
    QColor,
    QFont,
    QFontMetrics,
    QIcon,
    QKeySequence,
    QPainter,
    QPen,
    QPixmap,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gpu_tpu_app.atomic import write_bytes
from gpu_tpu_app.core.wording import compact
from gpu_tpu_app.ui.charts.data import (
    ChartData,
    PointInfo,
    point_readout,
)
from gpu_tpu_app.ui.shell.theme import theme_manager
from gpu_tpu_app.ui.shell.widgets import plain_tip

#: Colour-blind-safe series colours (Okabe & Ito), after the theme's accent.
SERIES_COLORS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#8C6D31", "#7F7F7F")


def hover_readout(scatter: pg.ScatterPlotItem, points: Any, _event: Any = None) -> None:
    """sigHovered: the readout of the points under the pointer (at most three) as the plot's tooltip,
    plain text whatever a device name holds; no tooltip once the pointer leaves them."""
    infos = [p.data() for p in list(points)[:3] if isinstance(p.data(), PointInfo)]
    text = "\n\n".join(point_readout(i) for i in infos)
    if len(points) > 3:
        text += "\n\n" + QCoreApplication.translate("_Chart", "(and {n} more)").format(n=len(points) - 3)
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
UNTRUSTED_KEY = str(QT_TRANSLATE_NOOP("_Chart", "hollow: not trusted (hover a point for why)"))
#: The plot (title, axes and data) never gets shorter than this.
MIN_PLOT_HEIGHT = 250


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
                # a series' colour follows its run (host and start), not the run's place in this session
                self._run_identity = {cr.index: (cr.run.host, cr.run.started) for cr in data.runs}
                draw(self, data)
                self._sync_series()

            cls.redraw = redraw  # type: ignore[method-assign]  # wraps each subclass's redraw, see the class docstring

    def __init__(self, axis_items: dict[str, pg.AxisItem] | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # the class's title (marked under the class's name) in the language in use
        self.title = QCoreApplication.translate(type(self).__name__, type(self).title) if type(self).title else ""
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
        self.plot.setAccessibleName(self.title or self.tr("Chart"))
        # the left axis grows with its longest label (a device name): the title gives it the room
        self.item.getAxis("left").geometryChanged.connect(self._set_title)
        # many series: a side list whose check boxes show and hide each one
        self.series_list = QListWidget()
        self.series_list.setAccessibleName(self.tr("Series shown"))
        self.series_list.setToolTip(self.tr("Untick a series to hide it"))
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
        self._run_identity: dict[int, Any] = {}
        self._items: list[Any] = []
        self.has_data = False
        self.apply_theme(self._colors)
        # the chart's data as a table: its context menu, and Ctrl+T while the chart has the focus
        self.act_table = QAction(self.tr("Show as table…"), self)
        self.act_table.setShortcut(QKeySequence("Ctrl+T"))
        self.act_table.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.act_table.triggered.connect(self.show_table)
        self.addAction(self.act_table)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)

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

    def _set_title(self, *_args: Any) -> None:
        """The title, elided to the width of the data area beside the axes (the full title is the chart's
        tooltip): a title wider than that made the plot wider than its widget and cut its right side."""
        font = QFont(self.font().family())
        font.setPointSize(11)
        axes = sum(self.item.getAxis(name).width() for name in ("left", "right") if self.item.getAxis(name).isVisible())
        room = max(80, self.plot.width() - int(axes) - 40)
        text = QFontMetrics(font).elidedText(self.title, Qt.TextElideMode.ElideRight, room)
        key = (text, self._colors["foreground"])
        if key == getattr(self, "_title_key", None):
            return  # unchanged: no new layout pass (the axis' resize calls this again)
        self._title_key = key
        self.item.setTitle(html.escape(text), color=self._colors["foreground"], size="11pt")
        self.shown_title = text
        QTimer.singleShot(0, self.plot, self._fit_scene)  # no call once the plot is gone

    def _fit_scene(self) -> None:
        """The scene's layout back to the widget's size: Qt grows a top-level layout to a longer title or axis
        label, and never shrinks it back when they get shorter (the plot stayed wider than its widget)."""
        view = self.plot.viewport()
        if view is not None and self.plot.ci.geometry().size() != QSizeF(view.size()):
            self.plot.ci.setGeometry(QRectF(view.rect()))

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
        if isinstance(key, tuple) and key and isinstance(key[0], int) and key[0] in self._run_identity:
            key = (self._run_identity[key[0]], *key[1:])  # the same run keeps its colour between loads
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
        name = None if has_line else self.tr("{series} (not trusted)").format(series=series)
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

    def untrusted_key(self) -> str:
        """The legend entry for a hollow marker (UNTRUSTED_KEY) in the language in use."""
        return QCoreApplication.translate("_Chart", UNTRUSTED_KEY)

    def add_key(self, text: str, bar: bool = False) -> None:
        """One legend entry (already translated) that says what a hollow marker (or a dashed bar) means."""
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

    # -- the chart as a table (what a screen reader or a copy-paste needs)
    def _axis_text(self, name: str, value: float) -> str:
        """A value as the axis `name` labels it (real values on a log axis; a category's name)."""
        axis = self.item.getAxis(name)
        levels = getattr(axis, "_tickLevels", None)
        ticks = [(v, label) for level in levels or [] for v, label in level]
        if ticks:  # categories at whole numbers: the label of the nearest (a bar beside its category's tick)
            v, label = min(ticks, key=lambda t: abs(t[0] - value))
            if abs(v - value) <= 0.5:
                return str(label)
        if isinstance(axis, LogAxis):
            return axis.tickStrings([value], 1.0, 1.0)[0]
        return compact(value)

    def table_rows(self) -> tuple[list[str], list[list[str]]]:
        """The chart's drawn data as (header, rows): one row per point (series, x, y) or per bar (series, row,
        start, length), with the axes' own units. Empty rows when nothing is drawn."""
        bottom = self.item.getAxis("bottom").labelText or self.tr("Category")
        left = self.item.getAxis("left").labelText or self.tr("Value")
        rows: list[list[str]] = []
        bars = False
        for it in self._items:
            if isinstance(it, pg.BarGraphItem):
                name = html.unescape(str(it.opts.get("name") or ""))
                if not name or name in self._keys:
                    continue
                o = it.opts
                if o.get("x0") is not None and o.get("y") is not None:  # horizontal bars: a row each
                    bars = True
                    x0s, widths, ys = np.broadcast_arrays(*(np.atleast_1d(o[k]) for k in ("x0", "width", "y")))
                    for x0, w, y in zip(x0s, widths, ys):
                        start, length = self._axis_text("bottom", float(x0)), self._axis_text("bottom", float(w))
                        rows.append([name, self._axis_text("left", float(y)), start, length])
                elif o.get("x") is not None and o.get("height") is not None:  # upright bars: x and height
                    xs, hs = np.broadcast_arrays(np.atleast_1d(o["x"]), np.atleast_1d(o["height"]))
                    base = np.broadcast_to(np.atleast_1d(o.get("y0") if o.get("y0") is not None else 0.0), xs.shape)
                    for x, h, y0 in zip(xs, hs, base):
                        rows.append([name, self._axis_text("bottom", float(x)), self._axis_text("left", float(y0 + h))])
                continue
            if isinstance(it, (pg.PlotDataItem, pg.ScatterPlotItem)):
                name = html.unescape(it.name() or "")
                xs, ys = it.getData()
            else:
                continue
            if not name or name in self._keys or xs is None:  # no name: a helper line (error bar, guide)
                continue
            for x, y in zip(xs, ys):
                if math.isfinite(float(x)) and math.isfinite(float(y)):
                    rows.append([name, self._axis_text("bottom", float(x)), self._axis_text("left", float(y))])
        if bars:
            header = [self.tr("Series"), self.tr("Row"), self.tr("Starts at"), self.tr("Takes")]
            rows = [r for r in rows if len(r) == 4]
        else:
            header = [self.tr("Series"), bottom, left]
        return header, rows

    def show_table(self) -> QDialog:
        """Open the chart's data as a read-only table in a dialog (not modal); returns the dialog."""
        self.setFocus()
        header, rows = self.table_rows()
        dialog = QDialog(self)
        dialog.setWindowTitle(self.title or self.tr("Chart"))
        table = QTableWidget(len(rows), len(header), dialog)
        table.setAccessibleName(self.tr("Chart data"))
        table.setHorizontalHeaderLabels(header)
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.verticalHeader().hide()
        for r, row in enumerate(rows):
            for c, cell in enumerate(row):
                table.setItem(r, c, QTableWidgetItem(cell))
        table.resizeColumnsToContents()
        empty = QLabel(self.tr("Nothing drawn yet."), dialog)
        empty.setVisible(not rows)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dialog)
        buttons.rejected.connect(dialog.reject)
        layout = QVBoxLayout(dialog)
        layout.addWidget(empty)
        layout.addWidget(table)
        layout.addWidget(buttons)
        dialog.resize(640, 420)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        return dialog

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
            raise OSError(self.tr("{path}: could not encode the PNG image").format(path=path))
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
        gen.setDescription(self.tr("gpu-tpu-app probe chart"))
        painter = QPainter(gen)
        try:
            painter.fillRect(QRectF(0, 0, w, h), QColor(self._colors.get("surface", self._colors["background"])))
            self.plot.scene().render(painter, QRectF(0, 0, w, h), source)
        finally:
            painter.end()
        device.close()
        write_bytes(path, bytes(buf.data()))
