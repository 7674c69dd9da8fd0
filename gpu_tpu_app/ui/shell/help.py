"""Help menu contents: the user guide and the keyboard shortcuts (About is ui/shell/about.py)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QAction, QDesktopServices, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from gpu_tpu_app import APP_NAME, i18n
from gpu_tpu_app.assets import resource_path


def guide_path(language: str | None = None) -> Path:
    """The user guide in `language` (the interface language when None): resources/help/guide.<language>.md,
    the English one when that language has none."""
    return i18n.localized_file(resource_path("help"), "guide", "md", language)


def guide_markdown(language: str | None = None) -> str:
    """The user guide's Markdown in `language` (the interface language when None)."""
    return guide_path(language).read_text(encoding="utf-8")


def _open_on_click(url: QUrl) -> None:
    if url.scheme() in ("http", "https"):
        QDesktopServices.openUrl(url)


class _Dialog(QDialog):
    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.body = QVBoxLayout(self)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.buttons.rejected.connect(self.reject)

    def finish(self) -> None:
        self.body.addWidget(self.buttons)


class GuideDialog(_Dialog):
    """The user guide, rendered from Markdown; web links open in the browser only on click."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("{app} user guide").format(app=APP_NAME), parent)
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(False)
        self.browser.anchorClicked.connect(_open_on_click)
        self.browser.setMarkdown(guide_markdown())
        self.body.addWidget(self.browser)
        self.finish()
        self.resize(640, 620)


def shortcut_rows(actions: Iterable[QAction]) -> list[tuple[str, str]]:
    """(what, keys) for every action that has a shortcut, in menu order, without duplicates."""
    rows: list[tuple[str, str]] = []
    for act in actions:
        keys = [k.toString(QKeySequence.SequenceFormat.NativeText) for k in act.shortcuts() if not k.isEmpty()]
        if not keys:
            continue
        text = re.sub(r"\(&\w\)", "", act.text())  # a Chinese accelerator, "新建(&N)"
        row = (text.replace("&", "").rstrip("…").strip(), ", ".join(keys))
        if row not in rows:
            rows.append(row)
    return rows


class ShortcutsDialog(_Dialog):
    """Every keyboard shortcut of the window in one table."""

    def __init__(self, rows: list[tuple[str, str]], parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Keyboard shortcuts"), parent)
        self.table = QTableWidget(len(rows), 2)
        self.table.setHorizontalHeaderLabels([self.tr("Action"), self.tr("Keys")])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        for r, (what, keys) in enumerate(rows):
            self.table.setItem(r, 0, QTableWidgetItem(what))
            self.table.setItem(r, 1, QTableWidgetItem(keys))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.body.addWidget(self.table)
        self.finish()
        self.resize(460, 520)
