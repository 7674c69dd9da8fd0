"""Help menu contents: the user guide, the keyboard shortcuts and About (with the versions in use)."""

from __future__ import annotations

import html
from collections.abc import Iterable
from importlib import metadata

from PySide6.QtCore import QCoreApplication, QUrl, qVersion
from PySide6.QtGui import QAction, QDesktopServices, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QMessageBox,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from gpu_tpu_app import APP_NAME, __version__, i18n
from gpu_tpu_app.assets import resource_path
from gpu_tpu_app.core.runs import RunFile

GUIDE_FILE = ("help", "guide.md")


def guide_markdown() -> str:
    """The user guide shipped in resources/help/guide.md."""
    return resource_path(*GUIDE_FILE).read_text(encoding="utf-8")


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
        super().__init__(f"{APP_NAME} user guide", parent)
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
        row = (act.text().replace("&", "").rstrip("…").strip(), ", ".join(keys))
        if row not in rows:
            rows.append(row)
    return rows


class ShortcutsDialog(_Dialog):
    """Every keyboard shortcut of the window in one table."""

    def __init__(self, rows: list[tuple[str, str]], parent: QWidget | None = None) -> None:
        super().__init__("Keyboard shortcuts", parent)
        self.table = QTableWidget(len(rows), 2)
        self.table.setHorizontalHeaderLabels(["Action", "Keys"])
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


def _dist_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return QCoreApplication.translate("About", "not installed")


def component_versions(runs: list[RunFile]) -> list[tuple[str, str]]:
    """(component, version) for About: Qt, PySide6, pyqtgraph, pydantic here; torch and JAX as the
    newest probe run recorded them (the window itself never imports them)."""
    rows = [
        (APP_NAME, __version__),
        ("Qt", qVersion()),
        ("PySide6", _dist_version("PySide6-Essentials")),
        ("pyqtgraph", _dist_version("pyqtgraph")),
        ("pydantic", _dist_version("pydantic")),
    ]
    probed = sorted(runs, key=lambda r: r.started)
    for name, key in (("PyTorch", "torch"), ("JAX", "jax")):
        found = next((r for r in reversed(probed) if key in r.versions), None)
        if found is None:
            rows.append((name, QCoreApplication.translate("About", "no probe run yet")))
        else:
            rows.append(
                (
                    name,
                    QCoreApplication.translate("About", "{version} (probe run on {host}, {date})").format(
                        version=found.versions[key], host=found.host, date=f"{found.started:%Y-%m-%d}"
                    ),
                )
            )
    rows.append((QCoreApplication.translate("About", "Language"), i18n.LANGUAGE_NAMES[i18n.current_language()]))
    return rows


def about_html(runs: list[RunFile]) -> str:
    """The About box's text: what the app does, and the versions in use (all values escaped)."""
    items = "".join(
        f"<tr><td>{html.escape(k)}</td><td>&nbsp;&nbsp;{html.escape(v)}</td></tr>" for k, v in component_versions(runs)
    )
    return (
        f"<h3>{html.escape(APP_NAME)} {html.escape(__version__)}</h3>"
        "<p>"
        + html.escape(
            QCoreApplication.translate(
                "About",
                "Choose between GPUs (the workshop) and TPUs (the factory line) for your own ML work: "
                "an explained recommendation, measurements of this machine, and the lesson side by side.",
            )
        )
        + f"</p><table>{items}</table><p>"
        + html.escape(
            QCoreApplication.translate("About", "The app makes no network requests. Sources are listed in Learn.")
        )
        + "</p>"
    )


def show_about(parent: QWidget, runs: list[RunFile]) -> None:
    """Help > About, in the interface language."""
    QMessageBox.about(parent, QCoreApplication.translate("About", "About {app}").format(app=APP_NAME), about_html(runs))
