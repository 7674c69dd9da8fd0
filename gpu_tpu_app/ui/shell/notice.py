"""A line at the top of the window's pages that confirms a save or an export where the user looks: what
was written, the full path, and a link that opens its folder in the file manager (a local file URL; the
app itself makes no network request). It stays until dismissed or the next notice, so a status bar
below the screen's edge can never swallow it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QFrame, QHBoxLayout, QWidget

from gpu_tpu_app.ui.shell.widgets import LinkButton, label


class NoticeBar(QFrame):
    """One confirmation at a time: 'Saved the session to /path/plan.json  Open folder  Dismiss'."""

    sig_open_folder = Signal(str)  # the folder asked for (tests and the window listen)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("noticeBar")
        self.setProperty("card", "notice")
        row = QHBoxLayout(self)
        row.setContentsMargins(12, 6, 8, 6)
        self.text = label("", "measured")
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.folder_button = LinkButton(self.tr("Open folder"))
        self.folder_button.setToolTip(self.tr("Show the folder in the file manager"))
        self.folder_button.clicked.connect(self.open_folder)
        self.dismiss_button = LinkButton(self.tr("Dismiss"))
        self.dismiss_button.clicked.connect(self.hide)
        row.addWidget(self.text, 1)
        row.addWidget(self.folder_button)
        row.addWidget(self.dismiss_button)
        self.folder: Path | None = None
        self.hide()

    def show_written(self, what: str, path: str | Path) -> None:
        """Confirm that `what` ('Saved the session', 'Exported the report') went to `path`."""
        path = Path(path).expanduser().resolve()
        self.folder = path.parent
        self.text.setText(self.tr("{what} to {path}").format(what=what, path=path))
        self.folder_button.show()
        self.show()

    def show_read(self, what: str, path: str | Path) -> None:
        """Confirm that `what` ('Imported the run of tpu-vm (12 results)') came from `path`."""
        path = Path(path).expanduser().resolve()
        self.folder = path.parent
        self.text.setText(self.tr("{what} from {path}").format(what=what, path=path))
        self.folder_button.show()
        self.show()

    def show_text(self, text: str) -> None:
        """A notice without a file (e.g. 'New session')."""
        self.folder = None
        self.text.setText(text)
        self.folder_button.hide()
        self.show()

    def open_folder(self) -> None:
        """Open the folder of the last file written in the desktop's file manager."""
        if self.folder is None:
            return
        self.sig_open_folder.emit(str(self.folder))
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.folder)))
