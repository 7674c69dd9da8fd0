"""The estimator table's parts: its columns, the Price in choices, the cells that sort by number
and the delegate that draws an empty price cell as a field to type in."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QLineEdit, QStyledItemDelegate, QStyleOptionViewItem, QTableWidgetItem, QWidget

from gpu_tpu_app.core.estimate_text import MEMORY_HEADER
from gpu_tpu_app.core.prices import CLOUD_NAMES
from gpu_tpu_app.ui.theme import theme_manager

if TYPE_CHECKING:
    pass

EST_COLUMNS = [
    "Chip",
    "Kind",
    "Peak used",
    "MFU",
    "Time",
    "Bound",
    MEMORY_HEADER.replace(" needed", "\nneeded"),
    "Chips per\ncopy",
    "$/chip-hour",
    "Cost",
    "Spot cost",
    "$/M tokens",
]
PRICE_COLUMN = EST_COLUMNS.index("$/chip-hour")
COST_COLUMN = EST_COLUMNS.index("Cost")
MEMORY_COLUMN = 6  # what one copy needs / what its chips hold
#: What an empty price cell shows, so it reads as a field to type in.
PRICE_PLACEHOLDER = "✎ type $/h"
PRICE_TIP = (
    "Editable: type the USD price of one {chip} per hour (double-click or start typing); your price wins "
    "over the price tables; empty: the cheapest price known"
)
PROMPT = "Type the number of model parameters to see the estimate."
#: the Price in choice that takes the cheapest price wherever it is.
ANYWHERE = "Cheapest anywhere"


def place_key(cloud: str | None, region: str | None) -> str:
    """A Price in choice as the combo box keeps it: 'aws/us-east-1', 'aws/', '/'."""
    return f"{cloud or ''}/{region or ''}"


def place_of(key: object) -> tuple[str | None, str | None]:
    """(cloud, region) of a place_key; (None, None) for anything else."""
    cloud, _, region = str(key or "/").partition("/")
    return cloud or None, region or None


def place_words(cloud: str | None, region: str | None) -> str:
    """'Cheapest anywhere', 'AWS (any region)', 'Google Cloud us-central1'."""
    if cloud is None:
        return ANYWHERE
    name = CLOUD_NAMES.get(cloud, cloud)
    return f"{name} {region}" if region else f"{name} (any region)"


SORT_ROLE = Qt.ItemDataRole.UserRole + 1


class SortItem(QTableWidgetItem):
    """A table cell that sorts by a number (SORT_ROLE) when it has one, else by its text."""

    def __lt__(self, other: QTableWidgetItem) -> bool:
        a, b = self.data(SORT_ROLE), other.data(SORT_ROLE)
        if a is not None and b is not None:
            return float(a) < float(b)
        if a is not None or b is not None:
            return b is None  # empty cells last
        return self.text() < other.text()


class PriceDelegate(QStyledItemDelegate):
    """Draws an editable price cell as a field: a placeholder where it is empty, and an editor that says
    what to type."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        if index.flags() & Qt.ItemFlag.ItemIsEditable and not option.text:
            option.text = PRICE_PLACEHOLDER
            option.font.setItalic(True)
            muted = QColor(theme_manager().colors()["muted"])
            for role in (QPalette.ColorRole.Text, QPalette.ColorRole.HighlightedText):
                option.palette.setColor(role, muted)

    def createEditor(
        self, parent: QWidget, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QWidget:
        editor = super().createEditor(parent, option, index)
        if isinstance(editor, QLineEdit):
            editor.setPlaceholderText("USD per chip-hour, e.g. 2.5")
        return editor
