"""The window's navigation column: the app's title, the page list (Decide, Probe, Learn) and the verdict so far."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from gpu_tpu_app import APP_NAME

PAGES = ("decide", "probe", "learn")
PAGE_TITLES = {"decide": "Decide", "probe": "Probe", "learn": "Learn"}
PAGE_HINTS = {
    "decide": "Answer questions, get a verdict",
    "probe": "Measure this machine",
    "learn": "GPU and TPU side by side",
}


def build_nav_column() -> tuple[QWidget, QListWidget, QLabel]:
    """(the column, its page list with one item per page in `PAGES`, the label for the verdict so far)."""
    column = QWidget()
    column.setObjectName("NavBar")
    layout = QVBoxLayout(column)
    layout.setContentsMargins(0, 0, 0, 8)
    layout.setSpacing(0)
    title = QLabel(APP_NAME)
    title.setObjectName("AppTitle")
    subtitle = QLabel("workshop or factory line")
    subtitle.setObjectName("AppSubtitle")
    layout.addWidget(title)
    layout.addWidget(subtitle)
    pages = QListWidget()
    pages.setObjectName("NavList")
    pages.setAccessibleName("Pages")
    for name in PAGES:
        item = QListWidgetItem(PAGE_TITLES[name])
        item.setToolTip(PAGE_HINTS[name])
        item.setData(Qt.ItemDataRole.UserRole, name)
        pages.addItem(item)
    layout.addWidget(pages, 1)
    status = QLabel("")
    status.setProperty("role", "muted")
    status.setWordWrap(True)
    status.setContentsMargins(16, 0, 12, 0)
    layout.addWidget(status)
    column.setFixedWidth(196)
    return column, pages, status
