"""The Probe page's message list: one line per event (info, warning or error), coloured by the theme."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractItemView, QListWidget, QListWidgetItem, QStyle, QWidget

from gpu_tpu_app.ui.probe.probe_process import now_label
from gpu_tpu_app.ui.shell.theme import theme_manager
from gpu_tpu_app.ui.shell.widgets import plain_tip

_ICONS = {
    "error": QStyle.StandardPixmap.SP_MessageBoxCritical,
    "warning": QStyle.StandardPixmap.SP_MessageBoxWarning,
}


class MessageLog(QListWidget):
    """Timestamped lines, newest at the bottom; the text is shown as plain text."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._messages: list[tuple[str, str]] = []
        self.setWordWrap(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)

    def messages(self) -> list[tuple[str, str]]:
        """(level, text) of every line, oldest first."""
        return list(self._messages)

    def add(self, level: str, text: str, style: QStyle) -> None:
        """Add a line: level is info, warning or error; its icon comes from `style`."""
        self._messages.append((level, text))
        icon = _ICONS.get(level, QStyle.StandardPixmap.SP_MessageBoxInformation)
        item = QListWidgetItem(style.standardIcon(icon), f"{now_label()}  {text}")
        item.setData(Qt.ItemDataRole.UserRole, level)
        item.setToolTip(plain_tip(text))
        self.addItem(item)
        self._restyle_item(item)
        self.scrollToBottom()

    def restyle(self) -> None:
        """Colour every line for the current theme."""
        for i in range(self.count()):
            self._restyle_item(self.item(i))

    def _restyle_item(self, item: QListWidgetItem) -> None:
        c = theme_manager().colors()
        level = item.data(Qt.ItemDataRole.UserRole)
        color = {"error": c["error"], "warning": c["warning"]}.get(level, c["foreground"])
        item.setForeground(QColor(color))
