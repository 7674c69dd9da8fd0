"""The collectives chart: bus bandwidth against message size across processes."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from PySide6.QtCore import QT_TRANSLATE_NOOP, QSize
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QPushButton,
    QWidget,
)

from gpu_tpu_app.ui.charts.data import (
    COLLECTIVE_OPS,
    ChartData,
    bytes_label,
    collective_infos,
    collective_name,
    collective_series,
    ranks_words,
)
from gpu_tpu_app.ui.charts.plot import (
    LogAxis,
    _Chart,
)
from gpu_tpu_app.ui.probe.collective_run import PROCESSES as TWO_RANKS


class CollectiveChart(_Chart):
    """Bus bandwidth against message size for one collective, one line per (engine, ranks, hosts) and run."""

    title = str(QT_TRANSLATE_NOOP("CollectiveChart", "Collectives across processes: bus bandwidth"))
    slug = "collective"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__({"bottom": _BytesAxis("bottom", fmt=bytes_label), "left": LogAxis("left")}, parent)
        self.op = QComboBox()
        for op in COLLECTIVE_OPS:
            self.op.addItem(collective_name(op), op)
        self.op.setToolTip(self.tr("Which collective to draw"))
        self.op.currentIndexChanged.connect(self._again)
        self.controls.addWidget(QLabel(self.tr("Operation")))
        self.controls.addWidget(self.op)
        # the probe page connects it: two ranks on this machine, their run shown here when done
        self.run_button = QPushButton(self.tr("Measure across {n} processes").format(n=TWO_RANKS))
        self.run_button.setToolTip(
            self.tr(
                "Start {n} processes on this machine and measure all-reduce, all-gather and reduce-scatter "
                "between them (about a minute per backend)"
            ).format(n=TWO_RANKS)
        )
        self.controls.addWidget(self.run_button)
        note = QLabel(self.tr("bus bandwidth = message size ÷ time × 2(n−1)/n (all-reduce) or (n−1)/n, as nccl-tests"))
        note.setProperty("role", "muted")
        note.setWordWrap(True)  # the room beside the button: it wraps there rather than being cut
        self.controls.addWidget(note, 1)
        self._note = note
        self.item.setLabel("bottom", self.tr("message size (log scale)"))
        self.item.setLabel("left", self.tr("bus bandwidth, B/s (log scale)"))
        self._last: ChartData | None = None

    def minimumSizeHint(self) -> QSize:
        """Room for the note as wrapped at the width it has (a layout counts a wrapping label as one line),
        so the chart is never given less height than its plot and axis labels need."""
        hint = super().minimumSizeHint()
        extra = self._note.heightForWidth(max(1, self._note.width())) - self._note.minimumSizeHint().height()
        return QSize(hint.width(), hint.height() + max(0, extra))

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self.updateGeometry()  # the note wraps differently at another width

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
                self.tr(
                    "No collectives across processes yet: press “Measure across {n} processes” above,\n"
                    "or import a run measured across machines."
                ).format(n=TWO_RANKS)
            )
            return
        runs = {cr.index: cr for cr in data.runs}
        multi = len(data.visible()) > 1
        xs_all: list[float] = []
        ys_all: list[float] = []
        for key in dict.fromkeys([*series, *flagged]):  # trusted points on the line, the rest hollow
            run_i, engine, ranks, hosts, transport, dtype = key
            cr = runs[run_i]
            name = f"{engine} {transport} · {ranks_words(ranks, hosts)} · {dtype or '?'}"
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
            self.add_key(self.untrusted_key())
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
