"""The Probe page's summary card: this machine's best trusted matmul and bandwidth, as ratios to catalogue chips.

One figure per kind against known devices, in the way benchmark suites give a score against a
reference machine. The figures come from core.trust (flagged points never count); the chips are the
ones the user picks under "Compare with chips".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtGui import QFont, QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QMenu, QVBoxLayout, QWidget

from gpu_tpu_app.core.runs import RunFile
from gpu_tpu_app.core.wording import format_value
from gpu_tpu_app.shared.terms import functional_check
from gpu_tpu_app.shared.trust import Best, Ratio, flagged_summary, format_ratio, machine_best, ratios
from gpu_tpu_app.ui.shell.widgets import MenuButton, plain_tip

# the two kinds in English; shown through kind_word()
KIND_WORDS = {
    "matmul": str(QT_TRANSLATE_NOOP("SummaryCard", "Matmul")),
    "bandwidth": str(QT_TRANSLATE_NOOP("SummaryCard", "Memory bandwidth")),
}


def _tr(text: str) -> str:
    return QCoreApplication.translate("SummaryCard", text)


def kind_word(kind: str) -> str:
    """'Matmul' or 'Memory bandwidth', in the interface language."""
    return _tr(KIND_WORDS[kind])


def best_text(b: Best) -> str:
    """'33.6 GFLOP/s float32 (Test CPU · torch)'."""
    dtype = f" {b.dtype}" if b.kind == "matmul" and b.dtype else ""
    return f"{format_value(b.value, b.metric)}{dtype} ({b.device_name} · {b.backend})"


def compare_note(best: dict[str, Best], shown: list[Ratio]) -> str:
    """What the ratios mean, read from the card's own first figure (not a fixed example)."""
    first = next((r for r in shown if r.ratio is not None and r.ratio > 0 and r.kind in best), None)
    if first is None or first.ratio is None:
        return QCoreApplication.translate(
            "SummaryCard", "Each figure is this machine's best over the chip's published one."
        )
    b = best[first.kind]
    mine = format_value(b.value, b.metric)
    cell = format_ratio(first.ratio)
    if first.ratio < 1:
        times = 1 / first.ratio
        return QCoreApplication.translate(
            "SummaryCard",
            "Each figure is this machine's best over the chip's published one: {cell} means the {chip}'s {basis} "
            "is {times} times this machine's {mine}.",
        ).format(
            cell=cell,
            chip=first.chip_name,
            basis=first.basis,
            times=f"{times:,.0f}" if times >= 10 else f"{times:.1f}",
            mine=mine,
        )
    return QCoreApplication.translate(
        "SummaryCard",
        "Each figure is this machine's best over the chip's published one: {cell} means this machine's {mine} is "
        "{times} times the {chip}'s {basis}.",
    ).format(cell=cell, mine=mine, times=f"{first.ratio:.2g}", chip=first.chip_name, basis=first.basis)


class SummaryCard(QFrame):
    """Best trusted figures of this machine's runs and their ratio to each picked catalogue chip."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("summaryCard")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._runs: list[RunFile] = []
        self._partial_only = False
        self._chips: list[Any] = []
        self.best: dict[str, Best] = {}
        self.ratios: list[Ratio] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(4)
        title = QLabel(self.tr("This machine at a glance"))
        font = QFont(title.font())
        font.setBold(True)
        title.setFont(font)
        self.chip_button = MenuButton(self.tr("Compare with chips"))
        self.chip_button.setToolTip(
            self.tr("Pick the catalogue GPUs and TPUs to compare with (the roofline draws them too)")
        )
        head = QGridLayout()
        head.addWidget(title, 0, 0)
        head.addWidget(self.chip_button, 0, 1, Qt.AlignmentFlag.AlignRight)
        layout.addLayout(head)
        self.figures = QLabel()
        self.figures.setWordWrap(True)
        self.figures.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(self.figures)
        self.grid = QGridLayout()
        self.grid.setHorizontalSpacing(10)
        self.grid.setVerticalSpacing(4)
        layout.addLayout(self.grid)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setProperty("role", "muted")
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(self.note)
        self._refresh()

    def set_chip_menu(self, menu: QMenu) -> None:
        """Share the chip menu of the roofline, so both show the same picks."""
        self.chip_button.setMenu(menu)

    def set_runs(self, runs: Iterable[RunFile]) -> None:
        """The runs measured on this machine (imported runs from other machines are not its figures). The
        headline comes from the complete runs: a run cancelled before its end (or still going) counts only while
        no run has finished, and the card then says so."""
        runs = list(runs)
        complete = [run for run in runs if run.complete]
        self._partial_only = bool(runs) and not complete
        self._runs = complete or runs
        self._refresh()

    def set_chips(self, chips: Sequence[Any]) -> None:
        """The catalogue chips (core.catalog.Chip) to compare with."""
        self._chips = list(chips)
        self._refresh()

    def cells(self) -> list[list[str]]:
        """The ratio grid as text: a header row, then one row per chip (for tests and accessibility)."""
        rows = [["", *[kind_word(k) for k in ("matmul", "bandwidth") if k in self.best]]]
        by_chip: dict[str, dict[str, Ratio]] = {}
        names: dict[str, str] = {}
        for r in self.ratios:
            by_chip.setdefault(r.chip_id, {})[r.kind] = r
            names[r.chip_id] = r.chip_name
        for chip_id, kinds in by_chip.items():
            rows.append(
                [names[chip_id], *[format_ratio(kinds[k].ratio) for k in ("matmul", "bandwidth") if k in kinds]]
            )
        return rows

    def _refresh(self) -> None:
        self.best = machine_best(self._runs)
        self.ratios = ratios(self.best, self._chips)
        while self.grid.count():
            item = self.grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        if not self.best:
            self.figures.setText(
                self.tr(
                    "No trusted matmul or memory bandwidth measured on this machine yet: run the quick or full suite."
                )
            )
            self.note.setText("")
            self.setToolTip("")
            return
        self.figures.setText(
            "\n".join(
                self.tr("{kind}: {best}").format(kind=kind_word(k), best=best_text(b)) for k, b in self.best.items()
            )
        )
        left_out = [text for run in self._runs if (text := flagged_summary(run))]
        self.figures.setToolTip(
            plain_tip(
                self.tr("Each figure is the best trusted point of this machine's runs: {left_out}.").format(
                    left_out="; ".join(left_out)
                )
                if left_out
                else self.tr("Each figure is the best trusted point of this machine's runs; no point was left out.")
            )
        )
        by_chip: dict[str, dict[str, Ratio]] = {}
        for r in self.ratios:
            by_chip.setdefault(r.chip_id, {})[r.kind] = r
        big = QFont(self.font())
        big.setPointSizeF(big.pointSizeF() * 1.15)
        big.setBold(True)
        kinds = [k for k in ("matmul", "bandwidth") if k in self.best]
        for col, kind in enumerate(kinds, 1):
            head = QLabel(kind_word(kind))
            head.setProperty("role", "muted")
            self.grid.addWidget(head, 0, col, Qt.AlignmentFlag.AlignRight)
        for row, (_chip_id, cells) in enumerate(by_chip.items(), 1):
            name = QLabel(next(iter(cells.values())).chip_name)
            self.grid.addWidget(name, row, 0)
            for col, kind in enumerate(kinds, 1):
                cell = cells.get(kind)
                label = QLabel(format_ratio(cell.ratio) if cell else "")
                label.setMinimumHeight(QFontMetrics(big).height())
                label.setFont(big)
                label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if cell is not None:
                    label.setToolTip(
                        plain_tip(
                            (
                                self.tr("{best} over {chip}'s {basis}")
                                if cell.ratio is not None
                                else self.tr("{best} over {chip}'s {basis}: no ratio")
                            ).format(best=best_text(self.best[kind]), chip=cell.chip_name, basis=cell.basis)
                        )
                    )
                self.grid.addWidget(label, row, col)
        notes = []
        if not self._chips:
            notes.append(self.tr("Pick chips under Compare with chips to see ratios."))
        else:
            notes.append(compare_note(self.best, self.ratios))
        suites = {b.suite for b in self.best.values()}
        if suites == {"smoke"}:
            notes.append(
                self.tr("From the {check}: run the quick or full suite for figures to compare.").format(
                    check=functional_check()
                )
            )
        if self._partial_only:
            notes.append(self.tr("From a run that did not finish: a complete run replaces these figures."))
        self.note.setText(" ".join(notes))
        self._fit_height()

    def _fit_height(self) -> None:
        """At least the height its wrapped lines need at the width it has now: the side panel's splitter does
        not ask a widget's height for its width, and a height taken at another width cut the last lines."""
        layout = self.layout()
        width = self.width()
        hfw = layout is not None and layout.hasHeightForWidth() and width > 0
        need = layout.totalHeightForWidth(width) if layout is not None and hfw else -1
        need = max(need, self.sizeHint().height())
        if need != self.minimumHeight():
            self.setMinimumHeight(need)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_height()
