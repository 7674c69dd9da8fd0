"""The window's prices: the shipped table and local catalogues at start, File > Import Prices… after.

`PriceFiles` holds the price book the estimator and the report cost with. At start it reads the
shipped table and, for a window that keeps its settings, the catalogues in their default places
(SkyPilot's ~/.sky/catalogs, $GPUHUNT_CATALOG_DIR) and the ones imported before (read again, so a
refreshed file counts with its new age); a catalogue that cannot be read then is named in the status
bar and left out. An imported file that cannot be read is reported in a dialog and the prices stay
as they were. Nothing is downloaded.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, QSettings, Signal
from PySide6.QtWidgets import QFileDialog

from gpu_tpu_app.core.price_import import default_skypilot_dir, load_book, not_used, read_path
from gpu_tpu_app.core.prices import PriceBook, shipped_book
from gpu_tpu_app.errors import InputError
from gpu_tpu_app.ui.shell.widgets import show_error

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMainWindow

#: where the imported catalogues are remembered, and how many.
IMPORTED_KEY = "prices/imported"
MAX_REMEMBERED = 20
# the file-dialog filter in English, shown through QCoreApplication.translate("PriceFiles", ...)
PRICE_FILTER = str(
    QT_TRANSLATE_NOOP("PriceFiles", "Price catalogues: SkyPilot vms.csv, gpuhunt CSV (*.csv);;All files (*)")
)


class PriceFiles(QObject):
    """The price book of one window, and the Import Prices… action's work."""

    sig_changed = Signal(object)  # PriceBook

    def __init__(self, window: QMainWindow, local: bool = True) -> None:
        super().__init__(window)
        self._window = window
        self._local = local
        try:
            self.book = load_book(defaults=local)
        except InputError as exc:  # the shipped table itself is broken: say so, cost nothing from it
            self.book = PriceBook(notes=[str(exc)])  # the problem's own line, as errors are shown
        self.imported: list[Path] = []
        for remembered in self._remembered():
            try:
                self.book = self.book.merged(read_path(remembered))
                self.imported.append(remembered)
            except InputError as exc:
                self.book = self.book.merged(not_used(exc))

    def _remembered(self) -> list[Path]:
        """Catalogues imported in earlier sessions of a window that keeps its settings."""
        if not self._local:
            return []
        value = QSettings().value(IMPORTED_KEY, [])
        items = value if isinstance(value, list) else [value] if isinstance(value, str) else []
        return [Path(str(item)) for item in items[:MAX_REMEMBERED] if str(item).strip()]

    def _remember(self) -> None:
        if self._local:
            QSettings().setValue(IMPORTED_KEY, [str(p) for p in dict.fromkeys(self.imported)][-MAX_REMEMBERED:])

    def problems(self) -> list[str]:
        """The notes of catalogues in their default places that were left out."""
        return [said.words() for said in self.book.said.values() if said.id == "read.not_used"]

    def import_prices(self, path: str | Path | None = None) -> bool:
        """Add a SkyPilot or gpuhunt catalogue file (or folder) to the prices; False if none was added."""
        window = self._window
        if path is None:
            sky = default_skypilot_dir()
            start = str(sky) if sky is not None else str(Path.home())
            chosen, _f = QFileDialog.getOpenFileName(
                window, self.tr("Import prices"), start, QCoreApplication.translate("PriceFiles", PRICE_FILTER)
            )
            if not chosen:
                return False
            path = chosen
        try:
            part = read_path(path)
        except InputError as exc:
            show_error(window, self.tr("Cannot import prices"), str(exc))
            return False
        if not part.quotes:
            show_error(
                window,
                self.tr("Cannot import prices"),
                self.tr("{path}: no price for a catalogue chip in it").format(path=path),
            )
            return False
        self.book = self.book.merged(part)
        self.imported.append(Path(path))
        self._remember()
        self.sig_changed.emit(self.book)
        window.statusBar().showMessage(
            part.note_words()[0] if part.notes else self.tr("Imported prices from {path}").format(path=path), 8000
        )
        return True

    def reset(self) -> None:
        """Back to the shipped table only (used by tests and by a window without local catalogues)."""
        self.book = shipped_book()
        self.imported = []
        self._remember()
        self.sig_changed.emit(self.book)
