"""Export the session as a report: preview it, then save Markdown, HTML or PDF.

Markdown and HTML come from `core.report`; the PDF is laid out page by page from the same
report data (ui/result/report_pdf.py: full-width tables, whole words, rows kept together, the window's
gauge), or from the HTML when only that is given. Every file is written atomically.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QCoreApplication, QEventLoop, QIODevice, QMarginsF, Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QPageLayout, QPageSize, QPdfWriter, QTextDocument
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QProgressDialog,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from gpu_tpu_app.atomic import write_bytes, write_text
from gpu_tpu_app.ui.result.report_pdf import Progress, ReportCancelled, report_step
from gpu_tpu_app.ui.shell.widgets import label, show_error

FORMATS: dict[str, tuple[str, str]] = {  # key -> (label, suffix)
    "markdown": ("Markdown", ".md"),
    "html": ("HTML", ".html"),
    "pdf": ("PDF", ".pdf"),
}


def format_for(path: str | Path) -> str:
    """The report format a file name asks for, by its suffix (Markdown when unknown)."""
    suffix = Path(path).suffix.lower()
    for key, (_label, sfx) in FORMATS.items():
        if suffix == sfx or (key == "html" and suffix == ".htm") or (key == "markdown" and suffix == ".markdown"):
            return key
    return "markdown"


def html_to_pdf(html_text: str) -> bytes:
    """Lay out HTML on A4 pages and return the PDF bytes."""
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setPageLayout(
        QPageLayout(
            QPageSize(QPageSize.PageSizeId.A4),
            QPageLayout.Orientation.Portrait,
            QMarginsF(18, 18, 18, 18),
            QPageLayout.Unit.Millimeter,
        )
    )
    writer.setTitle(QCoreApplication.translate("ReportDialog", "gpu-tpu-app report"))
    writer.setCreator("gpu-tpu-app")
    doc = QTextDocument()
    doc.setHtml(html_text)
    doc.print_(writer)
    del writer  # finishes the PDF
    buffer.close()
    data: QByteArray = buffer.data()
    return bytes(data.data())


def report_stem(session_path: Path | None, home: Path | None = None) -> Path:
    """Where a report is suggested, without suffix: 'plans/jax-prod-report' next to a saved session
    'plans/jax-prod.json', else 'gpu-tpu-report' in the home folder."""
    if session_path is None:
        return (home or Path.home()) / "gpu-tpu-report"
    return session_path.with_name(session_path.stem + "-report")


def write_report(
    path: str | Path,
    fmt: str,
    markdown: str,
    html_text: str,
    pdf: Callable[..., bytes] | None = None,
    progress: Progress | None = None,
) -> None:
    """Write the report in `fmt` ('markdown', 'html' or 'pdf') to `path`, atomically; `pdf` makes the PDF
    (given `progress` as its keyword when there is one). A PDF cancelled through `progress` raises
    ReportCancelled before anything is written."""
    if fmt == "markdown":
        write_text(path, markdown)
    elif fmt == "html":
        write_text(path, html_text)
    elif fmt == "pdf":
        if pdf is None:
            data = html_to_pdf(html_text)
        elif progress is None:
            data = pdf()
        else:
            data = pdf(progress=progress)
        report_step(progress, "write", 0.95)
        write_bytes(path, data)
    else:
        raise ValueError(f"unknown report format {fmt!r}")


class ReportDialog(QDialog):
    """Shows the report and saves it in the chosen format; a PDF (about 1.4 s) shows its steps, the time so far
    and an estimate in a progress dialog whose Cancel stops it between two sections, writing nothing."""

    #: (step, of, words shown) as each step of a PDF goes on
    sig_progress = Signal(int, int, str)

    def __init__(
        self,
        markdown: str,
        html_text: str,
        suggested: Path | None = None,
        parent: QWidget | None = None,
        pdf: Callable[..., bytes] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Export report"))
        self.resize(760, 680)
        self.markdown = markdown
        self.html = html_text
        self.suggested = suggested or report_stem(None)
        self.pdf = pdf
        self.saved_path: Path | None = None
        self.progress_dialog: QProgressDialog | None = None  # while a PDF is made

        root = QVBoxLayout(self)
        self.preview = QTextBrowser()
        self.preview.setOpenLinks(False)
        self.preview.anchorClicked.connect(self._open_link)
        self.preview.setHtml(html_text)
        root.addWidget(self.preview, 1)

        row = QHBoxLayout()
        fmt_label = QLabel(self.tr("&Format:"))
        self.format_combo = QComboBox()
        for key, (text, suffix) in FORMATS.items():
            self.format_combo.addItem(f"{text} ({suffix})", key)
        fmt_label.setBuddy(self.format_combo)
        row.addWidget(fmt_label)
        row.addWidget(self.format_combo)
        row.addStretch(1)
        root.addLayout(row)
        # a Chinese report (or Chinese notes) without a Chinese font: the PDF would show empty boxes
        from gpu_tpu_app.ui.shell.cjk_text import font_problem

        self.font_note = label(font_problem(markdown) or "", "warning")
        root.addWidget(self.font_note)
        self.format_combo.currentIndexChanged.connect(self._show_font_note)
        self._show_font_note()
        self.status = label("", "muted")  # what became of the last save (a cancelled PDF)
        root.addWidget(self.status)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.save_button = QPushButton(self.tr("&Save…"))
        self.save_button.setDefault(True)
        buttons.addButton(self.save_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.save_button.clicked.connect(self.save)
        buttons.rejected.connect(self.reject)
        root.addWidget(buttons)

    def _show_font_note(self) -> None:
        self.font_note.setVisible(bool(self.font_note.text()) and self.selected_format() == "pdf")

    @staticmethod
    def _open_link(url: QUrl) -> None:
        if url.scheme() in ("http", "https"):
            QDesktopServices.openUrl(url)  # only on the user's click

    def selected_format(self) -> str:
        """'markdown', 'html' or 'pdf'."""
        return str(self.format_combo.currentData())

    def save(self) -> None:
        """Ask where to save, then write the chosen format there."""
        fmt = self.selected_format()
        text, suffix = FORMATS[fmt]
        start = str(self.suggested.with_suffix(suffix))
        path, _filter = QFileDialog.getSaveFileName(self, self.tr("Save report"), start, f"{text} (*{suffix})")
        if not path:
            return
        if not Path(path).suffix:
            path += suffix
        self.save_to(Path(path), fmt)

    def _step_words(self, what: str) -> str:
        words = {
            "build": self.tr("building the report from your answers"),
            "layout": self.tr("laying out the pages"),
            "write": self.tr("writing the file"),
        }
        return words[what]

    def _progress(self, started: float) -> Progress:
        """The progress callback of one PDF: it moves the dialog on and says whether to go on."""

        def progress(step: int, of: int, what: str, done: float) -> bool:
            dialog = self.progress_dialog
            if dialog is None:
                return False
            elapsed = time.monotonic() - started
            estimate = (
                self.tr("about {left} s left").format(left=f"{elapsed / done * (1 - done):.1f}")
                if done >= 0.1
                else self.tr("about a second or two")
            )
            words = self._step_words(what)
            dialog.setLabelText(
                self.tr("Step {k} of {n}: {what}; {elapsed} s so far, {estimate}.").format(
                    k=step, n=of, what=words, elapsed=f"{elapsed:.1f}", estimate=estimate
                )
            )
            dialog.setValue(int(done * 1000))
            self.sig_progress.emit(step, of, words)
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents)  # paints it, hears Cancel
            return not dialog.wasCanceled()

        return progress

    def save_to(self, path: Path, fmt: str | None = None) -> bool:
        """Write the report to `path` (format from `fmt` or the suffix); shows a dialog on failure. A PDF shows
        its progress; cancelled, it writes nothing and returns False."""
        fmt = fmt or format_for(path)
        progress: Progress | None = None
        if fmt == "pdf":
            dialog = QProgressDialog(self.tr("Making the PDF…"), self.tr("Cancel"), 0, 1000, self)
            dialog.setWindowTitle(self.tr("Export report"))
            dialog.setWindowModality(Qt.WindowModality.WindowModal)
            dialog.setMinimumDuration(0)
            dialog.setAutoClose(False)
            dialog.setAutoReset(False)
            self.progress_dialog = dialog
            dialog.show()  # at once: the steps are short, Qt's own delay would show it after the PDF is made
            progress = self._progress(time.monotonic())
        try:
            write_report(path, fmt, self.markdown, self.html, self.pdf, progress)
        except ReportCancelled:
            self._end_progress()
            self.status.setText(self.tr("Cancelled: no PDF was written."))
            return False
        except OSError as exc:
            self._end_progress()
            show_error(
                self,
                self.tr("Cannot save report"),
                self.tr("{path}: {error}").format(path=path, error=exc.strerror or exc),
            )
            return False
        self._end_progress()
        self.saved_path = path
        self.accept()
        return True

    def _end_progress(self) -> None:
        dialog, self.progress_dialog = self.progress_dialog, None
        if dialog is not None:
            dialog.close()
            dialog.deleteLater()
