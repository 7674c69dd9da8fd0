"""The roofline chart."""

from __future__ import annotations

import html
import math
from collections import defaultdict
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QMenu,
    QWidget,
)

from gpu_tpu_app.core.wording import compact, format_value
from gpu_tpu_app.shared.terms import DTYPES
from gpu_tpu_app.ui.charts.data import (
    Ceiling,
    ChartData,
    ChartRun,
    catalogue_ceiling,
    measured_ceilings,
    roofline_has_flagged,
    roofline_points,
    roofline_segments,
    roofline_untrusted_only,
)
from gpu_tpu_app.ui.charts.plot import (
    LogAxis,
    _Chart,
    _pen,
    make_hoverable,
)
from gpu_tpu_app.ui.shell.widgets import MenuButton


class RooflineChart(_Chart):
    """Log–log roofline: measured ceilings of each device next to catalogue chips the user picks."""

    title = str(QT_TRANSLATE_NOOP("RooflineChart", "Roofline"))
    slug = "roofline"
    sig_chips_changed = Signal(list)

    #: intensity range shown (FLOP per byte)
    X_MIN, X_MAX = 1.0 / 16.0, 4096.0

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            {"bottom": LogAxis("bottom", fmt=lambda v: compact(v)), "left": LogAxis("left", fmt=lambda v: compact(v))},
            parent,
        )
        self.item.setLabel("bottom", self.tr("arithmetic intensity (FLOP per byte, log scale)"))
        self.item.setLabel("left", self.tr("FLOP/s (log scale)"))
        self.dtype = QComboBox()
        for dtype in DTYPES:
            self.dtype.addItem(dtype, dtype)  # the id rides in the item data, whatever the item shows
        self.dtype.setToolTip(self.tr("Compute ceiling for this dtype (measured matmul and catalogue peak)"))
        self.chip_button = MenuButton(self.tr("Compare with chips"))
        self.chip_button.setToolTip(self.tr("Draw the published ceilings of catalogue GPUs and TPUs (dashed)"))
        self.chip_menu = QMenu(self.chip_button)
        self.chip_button.setMenu(self.chip_menu)
        self.controls.addWidget(QLabel(self.tr("dtype")))
        self.controls.addWidget(self.dtype)
        self.controls.addWidget(self.chip_button)
        self.controls.addStretch(1)
        self._chips: dict[str, Any] = {}
        self._actions: dict[str, QAction] = {}
        self._last: ChartData | None = None
        self._load_catalog()
        self.dtype.currentIndexChanged.connect(lambda _i: self._again())

    def _load_catalog(self) -> None:
        from gpu_tpu_app.core.catalog import load_catalog

        catalog = load_catalog()
        for family, heading in (
            ("gpu", self.tr("GPUs (the workshop)")),
            ("tpu", self.tr("TPUs (the factory line)")),
            ("other", self.tr("Other accelerators (AWS Trainium and Inferentia, Intel Gaudi)")),
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
        self.chip_button.setText(
            self.tr("Compare with chips ({n})").format(n=n) if n else self.tr("Compare with chips")
        )
        self.sig_chips_changed.emit(self.selected_chips())
        self._again()

    def _again(self) -> None:
        if self._last is not None:
            self.redraw(self._last)

    def redraw(self, data: ChartData) -> None:
        """Measured roofs (solid), catalogue roofs (dashed, GPU / TPU colours), matmul points."""
        self._last = data
        self.clear_items()
        dtype = str(self.dtype.currentData())
        measured = measured_ceilings(data, dtype)
        untrusted_only = roofline_untrusted_only(data, dtype, measured)
        flagged_any = roofline_has_flagged(data, dtype)
        chips = [self._chips[c] for c in self.selected_chips()]
        self.has_data = bool(measured or untrusted_only)
        if not measured and not untrusted_only and not chips:
            self.show_empty(
                self.tr(
                    "No {dtype} matmul or memory bandwidth measured yet. Run a probe, import a run file, "
                    "or pick catalogue chips to compare."
                ).format(dtype=dtype)
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
            name = self.tr("measured: {label}").format(label=label) + (f"  [{cr.label}]" if multi else "")
            pts = roofline_points(cr, key[1], dtype, hollow=True, backend=key[2])
            x, y = np.log10([p[0] for p in pts]), np.log10([p[1] for p in pts])
            self.add_untrusted(x, y, [p[2] for p in pts], name, self.series_color(key), has_line=False)
            y_vals.extend(y)
        if flagged_any:
            self.add_key(self.tr("hollow: not trusted, never a ceiling (hover a point for why)"))
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
        name = self.tr("measured: {label} ({figures})").format(label=c.label, figures=", ".join(parts))
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
            if c.peak_flops:
                peak = format_value(c.peak_flops, "flops")
            else:
                peak = self.tr("no published {dtype} peak").format(dtype=dtype)
            bw = format_value(c.mem_bw, "bytes_per_s") if c.mem_bw else self.tr("no published bandwidth")
            line = pg.PlotDataItem(
                name=self.tr("spec: {chip} ({peak}, {bw})").format(chip=chip.name, peak=peak, bw=bw), pen=pen
            )
            line.setData(x, y, skipFiniteCheck=True)
            self.add(line)
            y_vals.extend(y)
        return y_vals
