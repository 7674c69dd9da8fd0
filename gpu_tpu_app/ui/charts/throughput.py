"""The matmul throughput chart."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtWidgets import (
    QCheckBox,
    QWidget,
)

from gpu_tpu_app.core.wording import compact
from gpu_tpu_app.ui.charts.data import (
    ChartData,
    empty_reason,
    matmul_flagged,
    matmul_series,
    matmul_spread,
    point_infos,
)
from gpu_tpu_app.ui.charts.plot import (
    LogAxis,
    _Chart,
)


class ThroughputChart(_Chart):
    """Matmul FLOP/s against matrix size, one line per device / backend / dtype (and per run)."""

    title = str(QT_TRANSLATE_NOOP("ThroughputChart", "Matmul throughput"))
    slug = "matmul"

    def __init__(self, parent: QWidget | None = None) -> None:
        y_axis = LogAxis("left", fmt=compact)
        super().__init__({"bottom": LogAxis("bottom", fmt=lambda v: f"{v:.0f}", pow2=True), "left": y_axis}, parent)
        self.y_axis = y_axis
        self.log_y = QCheckBox(self.tr("Log scale (throughput)"))
        self.log_y.setToolTip(
            self.tr("Compare runs whose speeds differ by orders of magnitude, e.g. a laptop CPU and a TPU")
        )
        self.log_y.toggled.connect(self._relayout)
        self.controls.addStretch(1)
        self.controls.addWidget(self.log_y)
        self._last: ChartData | None = None
        self.item.setLabel("bottom", self.tr("matrix size N (N×N, log scale)"))
        self._relayout()

    def _relayout(self) -> None:
        log_y = self.log_y.isChecked()
        self.y_axis.log = log_y
        self.item.setLabel("left", self.tr("FLOP/s (log scale)") if log_y else "FLOP/s")
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
            self.show_empty(
                empty_reason(data, ("matmul",), self.tr("matmul results"), self.tr("run a probe or import a run file."))
            )
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
            self.add_key(self.untrusted_key())
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
