"""The Probe page's results table: a filter box over a sortable table of every result shown.

It only builds the widgets; the page (probe_panel.py) owns the model and fills it.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLineEdit, QStyle, QTableView, QVBoxLayout, QWidget

from gpu_tpu_app.ui.probe.results_model import COLUMNS, ResultsProxy, column_header


def build_results_table(proxy: ResultsProxy) -> tuple[QWidget, QLineEdit, QTableView]:
    """The results table under its filter box: (the box holding both, the filter, the table)."""
    filt = QLineEdit()
    filt.setPlaceholderText(
        QCoreApplication.translate("ResultsTable", "Filter results (kernel, device, dtype, status…)")
    )
    filt.setClearButtonEnabled(True)
    filt.textChanged.connect(proxy.setFilterFixedString)
    table = QTableView()
    table.setAccessibleName(QCoreApplication.translate("ResultsTable", "Results"))
    table.setModel(proxy)
    table.setSortingEnabled(True)
    table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setAlternatingRowColors(True)
    table.verticalHeader().setVisible(False)
    table.verticalHeader().setDefaultSectionSize(22)
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    header.setStretchLastSection(True)
    for name, width in {
        "Run": 130,
        "Kernel": 96,
        "Backend": 56,
        "Device": 100,
        "Dtype": 64,
        "Size": 56,
        "Median": 96,
        "Status": 76,
        "CV / IQR": 84,
        "% ceiling": 66,
        "% spec": 56,
    }.items():
        label_room = header.fontMetrics().horizontalAdvance(column_header(name)) + 18  # the header and sort arrow
        table.setColumnWidth(COLUMNS.index(name), max(width, label_room))
    # what matters most stays in view in a narrow window: the value and its status come right
    # after what was measured; the rest follows and elides or scrolls
    header.setStretchLastSection(False)
    header.moveSection(header.visualIndex(COLUMNS.index("Status")), header.visualIndex(COLUMNS.index("Median")) + 1)
    header.setTextElideMode(Qt.TextElideMode.ElideRight)
    table.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # a long kernel label keeps its start and its end
    proxy.modelReset.connect(lambda: fit_columns(table))
    table_box = QWidget()
    tl = QVBoxLayout(table_box)
    tl.setContentsMargins(0, 0, 0, 0)
    tl.addWidget(filt)
    tl.addWidget(table)
    return table_box, filt, table


#: a column grows to its widest cell up to this; longer cells elide and say all in their tooltip
MAX_COLUMN_WIDTH = 280


class _ColumnFitter(QObject):
    """Keeps the columns fitted (see fit_columns) as the table's rows and its width change."""

    def __init__(self, table: QTableView) -> None:
        super().__init__(table)
        self.table = table
        self.base: dict[int, int] = {}  # each column's width as first set: the least it gets
        self.need: dict[int, int] = {}  # what its widest cell needs, measured when the rows change
        table.viewport().installEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.apply()
        return False

    def measure(self) -> None:
        model = self.table.model()
        header = self.table.horizontalHeader()
        if model is None:
            return
        for col in range(model.columnCount()):
            self.base.setdefault(col, header.sectionSize(col))
            self.need[col] = min(max(_cells_width(self.table, col), header.sectionSizeHint(col)), MAX_COLUMN_WIDTH)
        self.apply()

    def apply(self) -> None:
        header = self.table.horizontalHeader()
        status = COLUMNS.index("Status")
        order = [header.logicalIndex(v) for v in range(header.count())]
        shown = [c for c in order if not self.table.isColumnHidden(c) and c in self.base]
        first = shown[: shown.index(status) + 1] if status in shown else []
        room = self.table.viewport().width() - sum(self.base[c] for c in first)
        for col in shown:
            width = max(self.base[col], self.need.get(col, 0))
            if col in first:
                grow = min(width - self.base[col], max(0, room))
                room -= grow
                width = self.base[col] + grow
            if header.sectionSize(col) != width:
                header.resizeSection(col, width)


def fit_columns(table: QTableView) -> None:
    """Widen columns to their widest cell (up to MAX_COLUMN_WIDTH): fixed widths cut cells ("matmul 1 …",
    "only …"). The columns up to Status (what was measured, its value and its status) widen only within the
    room the table has, so Status stays in view (a cell still too long is cut in its middle); those after
    Status widen fully (the table scrolls to them). Called when the rows change; a resize refits by itself."""
    fitter = table.findChild(_ColumnFitter)
    if fitter is None:
        fitter = _ColumnFitter(table)
    fitter.measure()


def _cells_width(table: QTableView, col: int, rows: int = 2000) -> int:
    """The width the widest cell of `col` needs (text, icon and the cell's margins), over its first `rows` rows
    (Qt's own hint looks at the rows in view only)."""
    model = table.model()
    metrics = table.fontMetrics()
    icon = table.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize) + 6
    widest = 0
    for row in range(min(model.rowCount(), rows)):
        index = model.index(row, col)
        text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        width = metrics.horizontalAdvance(text) + 14
        if index.data(Qt.ItemDataRole.DecorationRole) is not None:
            width += icon
        widest = max(widest, width)
    return widest
