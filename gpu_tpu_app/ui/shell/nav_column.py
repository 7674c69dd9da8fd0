"""The window's navigation column: the app's title, the page list (Decide, Probe, Learn) and the verdict so far."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from gpu_tpu_app import APP_NAME

PAGES = ("decide", "probe", "learn")
# page titles and hints in English; shown through QCoreApplication.translate("NavColumn", ...)
PAGE_TITLES = {
    "decide": str(QT_TRANSLATE_NOOP("NavColumn", "Decide")),
    "probe": str(QT_TRANSLATE_NOOP("NavColumn", "Probe")),
    "learn": str(QT_TRANSLATE_NOOP("NavColumn", "Learn")),
}
PAGE_HINTS = {
    "decide": str(QT_TRANSLATE_NOOP("NavColumn", "Answer questions, get a verdict")),
    "probe": str(QT_TRANSLATE_NOOP("NavColumn", "Measure this machine")),
    "learn": str(QT_TRANSLATE_NOOP("NavColumn", "GPU and TPU side by side")),
}


def _tr(text: str) -> str:
    return QCoreApplication.translate("NavColumn", text)


def build_nav_column() -> tuple[QWidget, QListWidget, QLabel]:
    """(the column, its page list with one item per page in `PAGES`, the label for the verdict so far)."""
    column = QWidget()
    column.setObjectName("NavBar")
    layout = QVBoxLayout(column)
    layout.setContentsMargins(0, 0, 0, 8)
    layout.setSpacing(0)
    title = QLabel(APP_NAME)
    title.setObjectName("AppTitle")
    subtitle = QLabel(QCoreApplication.translate("NavColumn", "workshop or factory line"))
    subtitle.setObjectName("AppSubtitle")
    layout.addWidget(title)
    layout.addWidget(subtitle)
    pages = QListWidget()
    pages.setObjectName("NavList")
    pages.setAccessibleName(QCoreApplication.translate("NavColumn", "Pages"))
    for name in PAGES:
        item = QListWidgetItem(_tr(PAGE_TITLES[name]))
        item.setToolTip(_tr(PAGE_HINTS[name]))
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
