"""Probe results as a sortable Qt table model, plus the labels the probe pages share.

One row per ProbeResult of every run shown (the live one and any imported ones). Sorting uses
the raw numbers (Qt.UserRole), display uses readable units; failed and suspect rows carry an
icon, a tint and a tooltip that says what went wrong. Words: Qt's translate() under the context
"ResultsModel"; the column names, statuses and suites keep their English ids (COLUMNS, r.status,
run.suite) and are translated where shown. A flag's own words (core.trust) are core's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QApplication, QStyle

from gpu_tpu_app.core.note_text import result_message, shown_message
from gpu_tpu_app.core.runs import ProbeResult, RunFile
from gpu_tpu_app.core.wording import MISSING, format_pct, format_size, format_value
from gpu_tpu_app.shared.terms import variant_words
from gpu_tpu_app.shared.trust import NO_FLAGS, Flags, is_functional_check, noise_rule_text, run_flags
from gpu_tpu_app.ui.charts.data import kernel_name
from gpu_tpu_app.ui.shell.widgets import plain_tip

_Index = QModelIndex | QPersistentModelIndex

# ---------------------------------------------------------------- labels


#: a result's status and a run's suite as shown (English here; words() gives the language in use)
STATUS_WORDS = {
    "ok": str(QT_TRANSLATE_NOOP("ResultsModel", "ok")),
    "suspect": str(QT_TRANSLATE_NOOP("ResultsModel", "suspect")),
    "timeout": str(QT_TRANSLATE_NOOP("ResultsModel", "timeout")),
    "error": str(QT_TRANSLATE_NOOP("ResultsModel", "error")),
    "skipped": str(QT_TRANSLATE_NOOP("ResultsModel", "skipped")),
}
SUITE_WORDS = {
    "smoke": str(QT_TRANSLATE_NOOP("ResultsModel", "smoke")),
    "quick": str(QT_TRANSLATE_NOOP("ResultsModel", "quick")),
    "full": str(QT_TRANSLATE_NOOP("ResultsModel", "full")),
}


def words(table: dict[str, str], key: str) -> str:
    """A status or suite id as shown in the language in use; an id the table lacks as it is."""
    return QCoreApplication.translate("ResultsModel", table[key]) if key in table else key


def kernel_label(r: ProbeResult) -> str:
    """Kernel plus variant: 'transfer h2d-pinned', 'compile first_call', 'matmul' (the kernel as the charts
    name it in the language in use)."""
    return f"{kernel_name(r.kernel)} {variant_words(r.variant)}" if r.variant else kernel_name(r.kernel)


def spread_text(r: ProbeResult) -> str:
    """Coefficient of variation and IQR (as % of the median) of one result, or a dash without statistics."""
    s = r.stats
    if s is None:
        return MISSING
    iqr = f"{100 * s.iqr / abs(s.median):.1f}" if s.median else MISSING
    return f"{s.cv * 100:.1f} / {iqr} %"


def stats_tooltip(r: ProbeResult) -> str:
    """Every statistic of a point, one per line, for tooltips."""
    s = r.stats
    if s is None:
        return ""

    def f(v: float) -> str:
        return format_value(v, r.metric)

    return QCoreApplication.translate(
        "ResultsModel",
        "median {median}\nmin {min}   max {max}\nq1 {q1}   q3 {q3}   IQR {iqr}\n"
        "CV {cv} %   {reps} repetitions in {seconds} s",
    ).format(
        median=f(s.median),
        min=f(s.min),
        max=f(s.max),
        q1=f(s.q1),
        q3=f(s.q3),
        iqr=f(s.iqr),
        cv=f"{s.cv * 100:.2f}",
        reps=s.reps,
        seconds=f"{s.seconds:.2f}",
    )


def run_label(run: RunFile, index: int | None = None) -> str:
    """How a run is named in legends and tables: 'host · quick · 14:02' (+ '(partial)')."""
    when = run.started.strftime("%Y-%m-%d %H:%M")
    suite = words(SUITE_WORDS, run.suite)
    if is_functional_check(run):
        suite = QCoreApplication.translate("ResultsModel", "{suite} (functional check, not a benchmark)").format(
            suite=suite
        )
    label = f"{run.host} · {suite} · {when}"
    if not run.complete:
        label = QCoreApplication.translate("ResultsModel", "{label} (partial)").format(label=label)
    return label


def run_number_label(run: RunFile, index: int) -> str:
    """The table's Run cell: what tells runs apart first ('#2 · 11-29 17:52'), the full name in its tooltip.
    The full name ('vm · quick · 2026-11-29 17:52') was cut to the same 'vm · quick · …' on every run."""
    label = f"#{index + 1} · {run.started.strftime('%m-%d %H:%M')}"
    if not run.complete:
        label = QCoreApplication.translate("ResultsModel", "{label} (partial)").format(label=label)
    return label


# ---------------------------------------------------------------- model

#: the columns' English names (their keys); headers are translated where shown
COLUMNS = (
    str(QT_TRANSLATE_NOOP("ResultsModel", "Run")),
    str(QT_TRANSLATE_NOOP("ResultsModel", "Kernel")),
    str(QT_TRANSLATE_NOOP("ResultsModel", "Backend")),
    str(QT_TRANSLATE_NOOP("ResultsModel", "Device")),
    str(QT_TRANSLATE_NOOP("ResultsModel", "Dtype")),
    str(QT_TRANSLATE_NOOP("ResultsModel", "Size")),
    str(QT_TRANSLATE_NOOP("ResultsModel", "Median")),
    str(QT_TRANSLATE_NOOP("ResultsModel", "CV / IQR")),
    str(QT_TRANSLATE_NOOP("ResultsModel", "% ceiling")),
    str(QT_TRANSLATE_NOOP("ResultsModel", "% spec")),
    str(QT_TRANSLATE_NOOP("ResultsModel", "Status")),
)


def column_header(name: str) -> str:
    """A column's header (a name of COLUMNS) in the language in use."""
    return QCoreApplication.translate("ResultsModel", name)


COL = {name: i for i, name in enumerate(COLUMNS)}

FLAGGED = ("suspect", "timeout", "error")


@dataclass(frozen=True)
class Row:
    """One table row: which run it belongs to, the result itself and its trust flags (core.trust)."""

    run_index: int
    result: ProbeResult
    flags: Flags = NO_FLAGS


def status_text(r: ProbeResult, flags: Flags = NO_FLAGS) -> str:
    """The Status cell: the status, or for a measured point that is not trusted, why in short words
    ('noisy', 'in cache', 'above roof'; the tooltip says it in full)."""
    if flags.flagged and r.status in ("ok", "suspect"):
        return flags.short()
    return words(STATUS_WORDS, r.status)


def status_tooltip(r: ProbeResult, flags: Flags = NO_FLAGS) -> str:
    """Why a row is flagged, in plain words."""
    base = {
        "suspect": QCoreApplication.translate(
            "ResultsModel",
            "Suspect: faster than the chip's published peak, so the timing is probably wrong. "
            "Not counted as a ceiling.",
        ),
        "timeout": QCoreApplication.translate(
            "ResultsModel", "Timed out: the point ran past its time cap and was stopped."
        ),
        "error": QCoreApplication.translate("ResultsModel", "Failed: the point raised an error or the worker stopped."),
        "skipped": QCoreApplication.translate(
            "ResultsModel", "Skipped: not applicable on this device or left out to stay within the time budget."
        ),
        "ok": "",
    }.get(r.status, r.status)
    if flags.flagged:
        why = QCoreApplication.translate(
            "ResultsModel", "Not trusted, so never a best value, a ceiling, an estimator row or evidence:"
        )
        why += "\n" + "\n".join(f"• {n}" for n in flags.shown_notes())
        base = f"{base}\n{why}" if base else why
    if r.message:
        said = result_message(r) or r.message
        base = f"{base}\n{said}" if base else said
    return base


class ResultsModel(QAbstractTableModel):
    """Flat table of the results of several runs; rows are appended live as results stream in."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._runs: list[RunFile] = []
        self._labels: list[str] = []
        self._rows: list[Row] = []
        self._warn_color = QColor("#c98a00")
        self._error_color = QColor("#c62828")

    # -- data in
    def set_runs(self, runs: list[RunFile], labels: list[str] | None = None) -> None:
        """Replace everything shown by these runs' results."""
        self.beginResetModel()
        self._runs = list(runs)
        self._labels = list(labels) if labels is not None else [run_label(r) for r in runs]
        self._rows = [Row(i, res, f) for i, run in enumerate(self._runs) for res, f in zip(run.results, run_flags(run))]
        self.endResetModel()

    def update_run(self, run_index: int, run: RunFile, label: str | None = None) -> None:
        """A run grew (live results) or changed: append its new rows, refresh the rest of it."""
        if run_index == len(self._runs):
            self._runs.append(run)
            self._labels.append(label or run_label(run))
        else:
            self._runs[run_index] = run
            if label is not None:
                self._labels[run_index] = label
        existing = [i for i, row in enumerate(self._rows) if row.run_index == run_index]
        old_n = len(existing)
        new = run.results
        flags = run_flags(run)  # a later result may change an earlier one's (the measured roof)
        # Results stream in order, and the ceiling column of earlier rows may change: refresh them in place.
        for j, row_i in enumerate(existing[: len(new)]):
            self._rows[row_i] = Row(run_index, new[j], flags[j])
        if existing and len(new) >= old_n:
            self.dataChanged.emit(self.index(existing[0], 0), self.index(existing[-1], len(COLUMNS) - 1))
        if len(new) > old_n:
            first = len(self._rows)
            self.beginInsertRows(QModelIndex(), first, first + len(new) - old_n - 1)
            self._rows.extend(Row(run_index, r, f) for r, f in zip(new[old_n:], flags[old_n:]))
            self.endInsertRows()
        elif len(new) < old_n:
            self.set_runs(self._runs, self._labels)

    def set_colors(self, warning: str, error: str) -> None:
        """Theme colours for flagged rows."""
        self._warn_color = QColor(warning)
        self._error_color = QColor(error)
        if self._rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._rows) - 1, len(COLUMNS) - 1))

    # -- access
    def row(self, i: int) -> Row:
        """The row at source index i."""
        return self._rows[i]

    def runs(self) -> list[RunFile]:
        """The runs shown, in order."""
        return list(self._runs)

    # -- Qt model API
    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt's own default argument)
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt's own default argument)
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return column_header(COLUMNS[section])
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole:
            return {
                "Median": self.tr("Median of the repetitions (rates in FLOP/s or B/s; times in seconds)"),
                "CV / IQR": self.tr(
                    "Spread: coefficient of variation and interquartile range of the repetitions, as % of the median; "
                    "hover a cell for the values, min and max"
                ),
                "% ceiling": self.tr(
                    "Percent of the best trusted result of the same kernel, device and dtype in this run"
                ),
                "Status": self.tr("ok, a failure, or why a measured point is not trusted: {rule}").format(
                    rule=noise_rule_text()
                ),
                "% spec": self.tr("Percent of the published dense peak of the matched catalogue chip"),
            }.get(COLUMNS[section])
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self._rows[index.row()]
        r = row.result
        col = COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(row, col)
        if role == Qt.ItemDataRole.UserRole:
            return self._sort_key(row, col)
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == "Run":
                run = self._runs[row.run_index]
                return plain_tip(f"{self._labels[row.run_index]}\n{run.os} · Python {run.python}")
            parts = [status_tooltip(r, row.flags)] if r.status != "ok" or row.flags.flagged else []
            if col in ("CV / IQR", "Median"):
                parts.append(stats_tooltip(r))
            elif col == "Device":
                parts.append(r.device)
            elif col == "Size" and r.size is not None:
                parts.append(f"{r.size:,}")
            elif r.status == "ok":
                parts.append(result_message(r) or "")
            if r.math_mode and col in ("Kernel", "Dtype", "Median"):
                mode = shown_message(r.math_mode, r.math_mode_notes)
                parts.append(self.tr("math mode: {mode}").format(mode=mode))
            text = "\n".join(p for p in parts if p)
            return plain_tip(text) if text else None
        untrusted = row.flags.flagged and r.status == "ok"
        if role == Qt.ItemDataRole.DecorationRole and col == "Status" and untrusted:
            return QApplication.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
        if role == Qt.ItemDataRole.DecorationRole and col == "Status" and r.status != "ok":
            style = QApplication.style()
            pixmap = {
                "suspect": QStyle.StandardPixmap.SP_MessageBoxWarning,
                "timeout": QStyle.StandardPixmap.SP_MessageBoxWarning,
                "error": QStyle.StandardPixmap.SP_MessageBoxCritical,
                "skipped": QStyle.StandardPixmap.SP_MessageBoxInformation,
            }.get(r.status)
            return style.standardIcon(pixmap) if pixmap is not None else None
        if role == Qt.ItemDataRole.ForegroundRole and (r.status in FLAGGED or untrusted):
            return QBrush(self._error_color if r.status == "error" else self._warn_color)
        if role == Qt.ItemDataRole.BackgroundRole and (r.status in FLAGGED or untrusted):
            c = QColor(self._error_color if r.status == "error" else self._warn_color)
            c.setAlpha(40)
            return QBrush(c)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in ("Size", "Median", "CV / IQR", "% ceiling", "% spec"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _display(self, row: Row, col: str) -> str:
        r = row.result
        run = self._runs[row.run_index]
        if col == "Run":
            return run_number_label(run, row.run_index)
        if col == "Kernel":
            return kernel_label(r)
        if col == "Backend":
            return r.backend
        if col == "Device":
            return run.device_name(r.device)
        if col == "Dtype":
            return r.dtype or MISSING
        if col == "Size":
            return format_size(r.size)
        if col == "Median":
            return format_value(r.value, r.metric)
        if col == "CV / IQR":
            return spread_text(r)
        if col == "% ceiling":
            return format_pct(r.pct_ceiling)
        if col == "% spec":
            return format_pct(r.pct_spec)
        if col == "Status":
            return status_text(r, row.flags)
        return ""

    def _sort_key(self, row: Row, col: str) -> Any:
        r = row.result
        missing = -math.inf
        if col == "Size":
            return float(r.size) if r.size is not None else missing
        if col == "Median":
            return float(r.value) if r.value is not None else missing
        if col == "CV / IQR":
            return float(r.stats.cv) if r.stats else missing
        if col == "% ceiling":
            return float(r.pct_ceiling) if r.pct_ceiling is not None else missing
        if col == "% spec":
            return float(r.pct_spec) if r.pct_spec is not None else missing
        return self._display(row, col)


class ResultsProxy(QSortFilterProxyModel):
    """Sorts on raw numbers and filters rows by a text typed by the user (any column)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.setSortRole(Qt.ItemDataRole.UserRole)
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setFilterKeyColumn(-1)
        self.setDynamicSortFilter(True)

    def lessThan(self, left: _Index, right: _Index) -> bool:
        a = left.data(Qt.ItemDataRole.UserRole)
        b = right.data(Qt.ItemDataRole.UserRole)
        if isinstance(a, float) and isinstance(b, float):
            return a < b
        return str(a).lower() < str(b).lower()
