"""The memory bandwidth chart."""

from __future__ import annotations

import html

import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QWidget,
)

from gpu_tpu_app.core.wording import format_value
from gpu_tpu_app.ui.charts.data import (
    ChartData,
    ChartRun,
    bandwidth_bars,
    bandwidth_flagged,
    bar_point_infos,
    category_name,
    empty_reason,
    sort_categories,
)
from gpu_tpu_app.ui.charts.plot import (
    _Chart,
    make_hoverable,
)


class BandwidthChart(_Chart):
    """Bars: best bytes per second of copy, triad, transfers and collectives, per device / run."""

    title = str(QT_TRANSLATE_NOOP("BandwidthChart", "Memory and transfer bandwidth (best of each kernel)"))
    slug = "bandwidth"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(None, parent)
        self.item.setLabel("left", self.tr("bandwidth"), units="B/s")
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
                    data,
                    ("copy", "triad", "transfer"),
                    self.tr("bandwidth results"),
                    self.tr("copy, triad and transfer appear here."),
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
            self.add_key(self.tr("dashed, hollow: not trusted (hover a bar for why)"), bar=True)
        for x, h, text in labels:
            t = pg.TextItem(text, color=self._colors["foreground"], anchor=(0.5, 1.0))
            self.add(t)
            t.setPos(x, h)
        bottom.setTicks([[(i, category_name(c)) for i, c in enumerate(cats)]])
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
                name=None
                if values
                else html.escape(self.tr("{series} (not trusted)").format(series=name), quote=False),
            )
            self.add(hollow)
            if values:
                self._members.setdefault(name, []).append(hollow)
            self._hover_marks(hollow, cr, key, list(bad), xs, hs, color)
            labels.extend(
                (x, h, f"{key[2]}\n" + self.tr("{value} (not trusted)").format(value=format_value(h, "bytes_per_s")))
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
