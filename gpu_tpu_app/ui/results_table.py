"""The Probe page's results table: a filter box over a sortable table of every result shown.

It only builds the widgets; the page (probe_panel.py) owns the model and fills it.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLineEdit, QStyle, QTableView, QVBoxLayout, QWidget

from gpu_tpu_app.ui.results_model import COLUMNS, ResultsProxy, column_header


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
    proxy.modelReset.connect(lambda: fit_columns(table))
    table_box = QWidget()
    tl = QVBoxLayout(table_box)
    tl.setContentsMargins(0, 0, 0, 0)
    tl.addWidget(filt)
    tl.addWidget(table)
    return table_box, filt, table


#: a column grows to its widest cell up to this; longer cells elide and say all in their tooltip
MAX_COLUMN_WIDTH = 280


def fit_columns(table: QTableView) -> None:
    """Each column as wide as its widest cell (and its header), from its set width up to MAX_COLUMN_WIDTH:
    fixed widths cut cells ("matmul 1 …", "only …")."""
    header = table.horizontalHeader()
    model = table.model()
    if model is None:
        return
    for col in range(model.columnCount()):
        if table.isColumnHidden(col):
            continue
        base = header.sectionSize(col)
        need = max(_cells_width(table, col), header.sectionSizeHint(col))
        if need > base:
            header.resizeSection(col, min(need, MAX_COLUMN_WIDTH))


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
