"""The JAX compile waterfall: each phase of a first call, one bar per run."""

from __future__ import annotations

import html

import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtGui import QColor, QFontMetrics
from PySide6.QtWidgets import (
    QWidget,
)

from gpu_tpu_app.core.wording import format_seconds
from gpu_tpu_app.ui.charts.data import (
    ChartData,
    compile_rows,
    empty_reason,
    phase_order,
    waterfall_segments,
)
from gpu_tpu_app.ui.charts.plot import (
    SERIES_COLORS,
    LogAxis,
    _Chart,
)

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

#: each phase's name (English; phase_label gives it in the language in use)
PHASE_LABELS = {
    "first_call_cold": str(QT_TRANSLATE_NOOP("CompileWaterfall", "cold first call")),
    "trace": str(QT_TRANSLATE_NOOP("CompileWaterfall", "trace")),
    "lower": str(QT_TRANSLATE_NOOP("CompileWaterfall", "trace + lower")),
    "compile": str(QT_TRANSLATE_NOOP("CompileWaterfall", "compile")),
    "first_call": str(QT_TRANSLATE_NOOP("CompileWaterfall", "first call")),
    "run": str(QT_TRANSLATE_NOOP("CompileWaterfall", "rest of the first call (run)")),
    "steady": str(QT_TRANSLATE_NOOP("CompileWaterfall", "steady call")),
}


def phase_label(phase: str) -> str:
    """A compile phase as the waterfall names it, in the language in use; an unknown phase keeps its id."""
    return QCoreApplication.translate("CompileWaterfall", PHASE_LABELS[phase]) if phase in PHASE_LABELS else phase


class CompileWaterfall(_Chart):
    """JAX's compile step measured: trace / lower, compile, first call and a steady call, end to end."""

    title = str(
        QT_TRANSLATE_NOOP(
            "CompileWaterfall", "JAX compile waterfall: the first call of a new jitted function, then a steady call"
        )
    )
    slug = "compile"

    def __init__(self, parent: QWidget | None = None) -> None:
        bottom = LogAxis("bottom", fmt=lambda v: format_seconds(v) if v else "0")
        bottom.log = False
        super().__init__({"bottom": bottom}, parent)
        self.item.setLabel("bottom", self.tr("elapsed time (linear)"))
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
                empty_reason(
                    data,
                    ("compile",),
                    self.tr("JAX compile results"),
                    self.tr("the quick or full suite with jax"),
                    "jax",
                )
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
            figures = [f"{phase_label(p)} {format_seconds(times[p])}" for p in phase_order(times)]
            total = pg.TextItem(
                # two figures a line: one line of four ran past the plot's right edge at 1024x640
                "\n".join(" · ".join(figures[k : k + 2]) for k in range(0, len(figures), 2)),
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
                name=html.escape(phase_label(p), quote=False),
            )
            self.add(bar)
        # a long device name is cut in its middle (backend and size stay) so the axis leaves the bars their room
        room = max(140, int(self.plot.width() * 0.3))
        metrics = QFontMetrics(left.style.get("tickFont") or self.font())
        elide = Qt.TextElideMode.ElideMiddle
        left.setTicks([[(i, metrics.elidedText(label, elide, room)) for i, (label, _t) in enumerate(rows)]])
        # Each row: its bar, and the measured figures written under it.
        self.item.setRange(xRange=(0, end * 1.08), yRange=(-0.6, len(rows) - 0.1), padding=0)
