"""The report as a PDF laid out by hand with QPainter on Qt's QPdfWriter.

Qt's HTML layout gave narrow tables whose words broke mid-word ("Cos/t") and rows split across
pages. Here every table spans the full text width, columns are at least as wide as their longest
word (Latin words wrap only at spaces; Chinese, written without spaces, wraps between characters
and never before a closing mark), a row that does not fit moves whole to the next page under a
repeated header, and the verdict gauge is the window's own widget, drawn into the page.

Latin text is set in DejaVu Sans; Chinese (the zh-Hans report, or Chinese in a user's notes) in a
Simplified Chinese font the system has, embedded in the PDF (ui/shell/cjk_text.py; without one the report
dialog says so).
"""

from __future__ import annotations

import dataclasses
import html
import re
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QBuffer, QByteArray, QCoreApplication, QIODevice, QMarginsF, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
    QPen,
    QTextDocument,
    QTextOption,
)

from gpu_tpu_app.core.report import ESTIMATE_HEADER, ReportData, inert
from gpu_tpu_app.core.tpu_compile import REPORT_HEADER
from gpu_tpu_app.ui.shell.cjk_text import CJK, body_font, break_units

#: Page set-up: A4 portrait, 18 mm margins, 300 dots per inch.
MARGIN_MM = 18.0

#: progress(step, of, what, done): step k of n ('build', 'layout', 'write'), the share of the whole work done
#: (0..1); returns False to cancel (report_pdf then raises ReportCancelled, and nothing is written)
Progress = Callable[[int, int, str, float], bool]
#: The PDF's steps: building the report data and the gauge, laying out the pages, writing the file.
PDF_STEPS = ("build", "layout", "write")


class ReportCancelled(Exception):
    """The user cancelled the PDF while it was being made."""


def report_step(progress: Progress | None, what: str, done: float) -> None:
    """Say the step `what` is under way with `done` of the whole work done; raise ReportCancelled when the
    user has cancelled."""
    if progress is not None and not progress(PDF_STEPS.index(what) + 1, len(PDF_STEPS), what, done):
        raise ReportCancelled


DPI = 300
BODY_PT = 9.5
COLORS = {
    "gpu": "#1f8a4c",
    "tpu": "#2f66d0",
    "muted": "#5a6376",
    "warning": "#a85a00",
    "border": "#b9bfcb",
    "head": "#eef1f6",
    "text": "#1b1f27",
}


def _all_text(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for item in value for t in _all_text(item)]
    return []


def needs_cjk_font(data: ReportData) -> bool:
    """True when the report has Chinese text: its own words (the zh-Hans report) or a user's notes."""
    words = [QCoreApplication.translate("ReportPdf", "Verdict")]
    fields = [getattr(data, f.name) for f in dataclasses.fields(data)]
    return any(CJK.search(text) for text in [*words, *_all_text(fields)])


@dataclass(frozen=True)
class Gauge:
    """What the verdict gauge shows: score in [-1, 1], verdict key ('gpu', 'tpu', 'either'), confidence."""

    score: float
    verdict: str
    confidence: str


class _Layout:
    """A cursor down the pages: blocks are measured first and start a new page when they do not fit."""

    def __init__(self, writer: QPdfWriter, title: str, cjk: bool = False) -> None:
        self.on_heading: Callable[[], None] | None = None  # called before each heading is laid out
        self.writer = writer
        self.p = QPainter(writer)
        self.p.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.width = float(writer.width())
        self.height = float(writer.height())
        self.title = title
        self.y = 0.0
        self.page = 1
        self.body = body_font(cjk, BODY_PT, pdf=True)
        self.footer_h = QFontMetricsF(self._font(0.85), writer).height() * 1.8
        self.bottom = self.height - self.footer_h

    def _font(self, scale: float = 1.0, bold: bool = False, italic: bool = False) -> QFont:
        f = QFont(self.body)
        f.setPointSizeF(BODY_PT * scale)
        f.setBold(bold)
        f.setItalic(italic)
        return f

    def pt(self, points: float) -> float:
        """Device pixels of a length in points."""
        return points * DPI / 72.0

    # -- pages
    def new_page(self) -> None:
        self._footer()
        self.writer.newPage()
        self.page += 1
        self.y = 0.0

    def need(self, h: float) -> None:
        """Start a new page unless `h` more pixels fit on this one (a block taller than a page starts one)."""
        if self.y > 0 and self.y + h > self.bottom:
            self.new_page()

    def _footer(self) -> None:
        self.p.setFont(self._font(0.85))
        self.p.setPen(QColor(COLORS["muted"]))
        r = QRectF(0, self.height - self.footer_h * 0.7, self.width, self.footer_h * 0.7)
        self.p.drawText(r, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, self.title)
        self.p.drawText(
            r,
            Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
            QCoreApplication.translate("ReportPdf", "page {n}").format(n=self.page),
        )

    def finish(self) -> None:
        self._footer()
        self.p.end()

    # -- text
    def doc(self, rich: str, width: float, font: QFont | None = None) -> QTextDocument:
        """A laid-out rich-text block `width` pixels wide; words wrap at spaces, Chinese between characters."""
        d = QTextDocument()
        d.documentLayout().setPaintDevice(self.writer)
        d.setDefaultFont(font or self.body)
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WordWrap)
        d.setDefaultTextOption(option)
        d.setDocumentMargin(0)
        d.setDefaultStyleSheet(f"body {{ color: {COLORS['text']}; }}")
        d.setHtml(f"<body>{rich}</body>")
        d.setTextWidth(width)
        return d

    def draw_doc(self, d: QTextDocument, x: float, y: float) -> None:
        self.p.save()
        self.p.translate(x, y)
        d.drawContents(self.p)
        self.p.restore()

    def paragraph(
        self,
        rich: str,
        font: QFont | None = None,
        indent: float = 0.0,
        prefix: str = "",
        after: float = 4.0,
        keep: float = 0.0,
    ) -> None:
        """A paragraph (optionally a list item with `prefix` hanging left of the text)."""
        d = self.doc(rich, self.width - indent, font)
        h = d.size().height()
        self.need(h + keep)
        if prefix:
            pd = self.doc(prefix, indent, font)
            # on the first line's baseline: a line with Chinese in it is taller than the "1." beside it
            self.draw_doc(pd, 0, self.y + max(0.0, _first_ascent(d) - _first_ascent(pd)))
        self.draw_doc(d, indent, self.y)
        self.y += h + self.pt(after)

    def heading(self, text: str, level: int = 2) -> None:
        """A heading kept with at least three lines of what follows."""
        if self.on_heading is not None:
            self.on_heading()
        font = self._font(1.9 if level == 1 else 1.3, bold=True)
        space = self.pt(10 if level == 2 and self.y > 0 else 0)
        d = self.doc(html.escape(text), self.width, font)
        line = QFontMetricsF(self.body, self.writer).height()
        self.need(space + d.size().height() + 3 * line)
        self.y += space
        self.draw_doc(d, 0, self.y)
        self.y += d.size().height() + self.pt(4)

    def items(self, texts: list[str], numbered: bool = False, muted: bool = False) -> None:
        """A bullet or numbered list of rich-text items."""
        indent = self.pt(16)
        for i, t in enumerate(texts, 1):
            body = f'<span style="color:{COLORS["muted"]}">{t}</span>' if muted else t
            self.paragraph(body, indent=indent, prefix=f"{i}." if numbered else "•", after=2.5)
        self.y += self.pt(3)

    # -- tables
    def table(self, header: list[str], rows: list[list[str]], weights: list[float] | None = None) -> None:
        """A table across the full text width; rows never split, the header repeats on each new page."""
        n = len(header)
        pad = self.pt(3)
        rows = [[keep_together(cell) for cell in row] for row in rows]
        # the largest of these sizes at which every column gets its longest unbreakable piece: an 11-column
        # estimate at 0.95 needed 2167 of 2053 px, every column was squeezed and the Time read one word a line
        for scale in TABLE_FONT_SCALES:
            head_font = self._font(scale, bold=True)
            cell_font = self._font(scale)
            fm_head = QFontMetricsF(head_font, self.writer)
            fm_cell = QFontMetricsF(cell_font, self.writer)
            least = [
                max(least_width(header[c], fm_head), *(least_width(r[c], fm_cell) for r in rows)) + 2 * pad
                for c in range(n)
            ]
            if sum(least) <= self.width:
                break
        ideal = [
            max(fm_head.horizontalAdvance(header[c]), *(fm_cell.horizontalAdvance(r[c]) for r in rows)) + 2 * pad
            for c in range(n)
        ]
        if weights:
            ideal = [max(i, w * self.width) for i, w in zip(ideal, weights)]
        widths = _fit_columns(least, ideal, self.width)

        def measure(cells: list[str], font: QFont) -> tuple[list[QTextDocument], float]:
            docs = [self.doc(_unbreakable(html.escape(c)), w - 2 * pad, font) for c, w in zip(cells, widths)]
            return docs, max(d.size().height() for d in docs) + 2 * pad

        head_docs, head_h = measure(header, head_font)
        self.need(head_h + (measure(rows[0], cell_font)[1] if rows else 0))
        self._row(head_docs, head_h, widths, pad, shaded=True)
        for row in rows:
            docs, h = measure(row, cell_font)
            if self.y + h > self.bottom:
                self.new_page()
                self._row(head_docs, head_h, widths, pad, shaded=True)
            self._row(docs, h, widths, pad)
        self.y += self.pt(6)

    def _row(self, docs: list[QTextDocument], h: float, widths: list[float], pad: float, shaded: bool = False) -> None:
        x = 0.0
        pen = QPen(QColor(COLORS["border"]))
        pen.setWidthF(self.pt(0.6))
        for d, w in zip(docs, widths):
            rect = QRectF(x, self.y, w, h)
            if shaded:
                self.p.fillRect(rect, QColor(COLORS["head"]))
            self.p.setPen(pen)
            self.p.setBrush(Qt.BrushStyle.NoBrush)
            self.p.drawRect(rect)
            self.draw_doc(d, x + pad, self.y + pad)
            x += w
        self.y += h

    # -- images
    def image(self, img: QImage, width_pt: float) -> None:
        """An image `width_pt` points wide, centred, keeping its aspect ratio."""
        w = self.pt(width_pt)
        h = w * img.height() / max(1, img.width())
        self.need(h)
        self.p.drawImage(QRectF((self.width - w) / 2, self.y, w, h), img)
        self.y += h + self.pt(6)


#: A cell this short (in characters) keeps one line, and so does each side of a short range ("7.65 days -
#: 9.66 days" takes two lines, a figure with its unit on each): a Time column one word wide read "7.65 / days / -".
SHORT_CELL = 12
#: The table font sizes tried, largest first (as a share of the body font), until the columns fit.
TABLE_FONT_SCALES = (0.95, 0.9, 0.85, 0.8, 0.75)
NBSP = "\u00a0"


def _phrases(text: str) -> list[str] | None:
    """The pieces of a short cell or a short range that must not break inside, or None for any other text."""
    if CJK.search(text):
        return None
    if len(text) <= SHORT_CELL:
        return [text]
    m = re.fullmatch(r"(.+?) ([-–]) (.+)", text)
    if m and len(m[1]) + 2 <= SHORT_CELL and len(m[3]) <= SHORT_CELL:
        return [f"{m[1]} {m[2]}", m[3]]
    return None


def keep_together(text: str) -> str:
    """`text` with no-break spaces inside the pieces `_phrases` finds (a line may break only between them)."""
    phrases = _phrases(text)
    return " ".join(p.replace(" ", NBSP) for p in phrases) if phrases else text


def least_width(text: str, fm: QFontMetricsF) -> float:
    """The narrowest a cell of `text` may be: its widest piece that must not break (a word; a short cell or
    each side of a short range whole)."""
    phrases = _phrases(text.replace(NBSP, " "))
    if phrases:
        return max(fm.horizontalAdvance(p) for p in phrases)
    return max((fm.horizontalAdvance(w) for w in break_units(text)), default=0.0)


def _first_ascent(d: QTextDocument) -> float:
    """The ascent of a laid-out document's first line (0 when it has none)."""
    layout = d.firstBlock().layout()
    return layout.lineAt(0).ascent() if layout is not None and layout.lineCount() else 0.0


#: Joins the characters on either side: no line break there (Qt would break 'TFLOP/s' after the slash).
WORD_JOINER = "\u2060"


def _unbreakable(text: str) -> str:
    """Text whose lines break only at spaces: no break after a slash or at a hyphen inside a word."""
    return text.replace("/", "/" + WORD_JOINER).replace("-", WORD_JOINER + "-" + WORD_JOINER)


def _fit_columns(least: list[float], ideal: list[float], total: float) -> list[float]:
    """Column widths that fill `total`: each at least its longest word, the rest shared by what each wants more.

    Only when even the longest words do not fit side by side are the columns squeezed below them.
    """
    if sum(least) >= total:
        scale = total / sum(least)
        return [w * scale for w in least]
    if sum(ideal) <= total:
        extra = total - sum(ideal)
        return [w + extra * w / sum(ideal) for w in ideal]
    room = total - sum(least)
    want = [i - m for i, m in zip(ideal, least)]
    return [m + room * w / sum(want) for m, w in zip(least, want)]


def gauge_image(gauge: Gauge, scale: float = 4.0) -> QImage:
    """The window's verdict gauge widget rendered into an image (`scale` x its pixels), on the theme's surface."""
    from gpu_tpu_app.ui.result.gauge import VerdictGauge
    from gpu_tpu_app.ui.shell.theme import theme_manager

    widget = VerdictGauge()
    widget.set_value(gauge.score, gauge.verdict, gauge.confidence)
    size = widget.sizeHint()
    widget.resize(size)
    img = QImage(QSize(round(size.width() * scale), round(size.height() * scale)), QImage.Format.Format_ARGB32)
    img.setDevicePixelRatio(scale)
    colors = theme_manager().colors()
    img.fill(QColor(colors.get("surface", colors.get("background", "#ffffff"))))
    painter = QPainter(img)
    widget.render(painter, QPointF(0, 0).toPoint())
    painter.end()
    widget.deleteLater()
    return img


def section_count(data: ReportData) -> int:
    """How many headings the report has (the title, the sections always there, those with content)."""
    optional = (
        data.blockers,
        data.next_steps,
        data.unanswered,
        data.estimate_rows,
        data.compile_intro,
        data.runs,
        data.notes,
        data.sources,
    )
    return 5 + sum(1 for part in optional if part)


def report_pdf(data: ReportData, gauge: Gauge | None = None, progress: Progress | None = None) -> bytes:
    """The report laid out on A4 pages; returns the PDF bytes. progress (see Progress) hears of each section
    laid out (step 2 of 3, 'layout') and may cancel between sections (ReportCancelled)."""
    data = inert(data)  # every text from a file on one line, its control characters as visible escapes
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setResolution(DPI)
    writer.setPageLayout(
        QPageLayout(
            QPageSize(QPageSize.PageSizeId.A4),
            QPageLayout.Orientation.Portrait,
            QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM),
            QPageLayout.Unit.Millimeter,
        )
    )
    writer.setTitle(data.title)
    writer.setCreator("gpu-tpu-app")
    out = _Layout(writer, data.title, cjk=needs_cjk_font(data))
    sections = section_count(data)
    laid = [0]

    def on_heading() -> None:
        # layout is the bulk of the work: from 10 % (data built) to 90 % (the file is written after it)
        report_step(progress, "layout", 0.1 + 0.8 * min(laid[0], sections) / sections)
        laid[0] += 1

    out.on_heading = on_heading
    try:
        _content(out, data, gauge)
    finally:
        out.finish()  # a painter left open on the writer would crash Qt
    del writer  # finishes the PDF
    buffer.close()
    raw: QByteArray = buffer.data()
    return bytes(raw.data())


def _content(out: _Layout, data: ReportData, gauge: Gauge | None) -> None:
    """Every section of the report, in the order of the Markdown and HTML reports."""
    e = html.escape

    def plain(text: str) -> str:  # escaped, and breakable only at spaces
        return _unbreakable(html.escape(text))

    def yours(answer: str) -> str:  # "(your answer: …)", the answer escaped
        return plain(QCoreApplication.translate("ReportPdf", "(your answer: {answer})")).replace(
            "{answer}", plain(answer)
        )

    def reason(word: str, message: str) -> str:  # "GPU: message", both already rich text
        return QCoreApplication.translate("ReportPdf", "{lean}: {reason}").format(lean=word, reason=message)

    muted = COLORS["muted"]
    lean = {"GPU": COLORS["gpu"], "TPU": COLORS["tpu"]}

    out.heading(data.title, 1)
    out.paragraph(f'<i style="color:{muted}">{plain(data.generated)}</i>', after=6)
    out.heading(QCoreApplication.translate("ReportPdf", "Verdict"))
    if gauge is not None:
        out.image(gauge_image(gauge), 250)
    out.paragraph(f'<b style="color:{lean.get(data.verdict, COLORS["text"])}">{plain(data.headline)}</b>')
    out.paragraph(plain(data.summary))
    if data.blockers:
        out.heading(QCoreApplication.translate("ReportPdf", "Hard constraints"))
        out.items(
            [
                f'<b style="color:{COLORS["warning"]}">{plain(m)}</b> <span style="color:{muted}">'
                f"{yours(a)} {plain(refs)}</span>"
                for m, a, refs in data.blockers
            ]
        )
    out.heading(QCoreApplication.translate("ReportPdf", "Reasons, strongest first"))
    if data.reasons:
        out.items(
            [
                reason(f'<b style="color:{lean.get(w, COLORS["text"])}">{plain(w)}</b>', plain(m))
                + f' <span style="color:{muted}">'
                f"{yours(a)} {plain(refs)}</span>"
                for w, m, a, refs in data.reasons
            ],
            numbered=True,
        )
    else:
        out.paragraph(QCoreApplication.translate("ReportPdf", "No answer leans either way yet."))
    out.heading(QCoreApplication.translate("ReportPdf", "What would change this"))
    if data.flips:
        out.items([plain(f) for f in data.flips])
    else:
        out.paragraph(QCoreApplication.translate("ReportPdf", "No single answer change would change the verdict."))
    if data.next_steps:
        out.heading(QCoreApplication.translate("ReportPdf", "Next steps"))
        out.items([plain(s) for s in data.next_steps], numbered=True)
    if data.unanswered:
        out.heading(QCoreApplication.translate("ReportPdf", "Open questions"))
        out.items([plain(q) for q in data.unanswered])
    out.heading(QCoreApplication.translate("ReportPdf", "Answers"))
    out.table(
        [
            QCoreApplication.translate("ReportPdf", "Step"),
            QCoreApplication.translate("ReportPdf", "Question"),
            QCoreApplication.translate("ReportPdf", "Answer"),
        ],
        [list(a) for a in data.answers],
        weights=[0.18, 0.52, 0.3],
    )
    if data.estimate_rows:
        out.heading(QCoreApplication.translate("ReportPdf", "Estimate"))
        out.paragraph(plain(data.estimate_intro))
        out.table(list(ESTIMATE_HEADER), data.estimate_rows)
        out.items([plain(r) for r in data.estimate_rules], muted=True)
    if data.compile_intro:
        out.heading(QCoreApplication.translate("ReportPdf", "Compiled for TPU generations"))
        out.paragraph(plain(data.compile_intro))
        if data.compile_rows:
            out.table(list(REPORT_HEADER), data.compile_rows)
        out.items([plain(n) for n in data.compile_notes], muted=True)
    if data.runs:
        out.heading(QCoreApplication.translate("ReportPdf", "Probe runs"))
        out.items([plain(r) for r in data.runs])
    if data.notes:
        out.heading(QCoreApplication.translate("ReportPdf", "Notes"))
        for para in data.notes.split("\n\n"):
            out.paragraph(plain(para))
    if data.sources:
        out.heading(QCoreApplication.translate("ReportPdf", "Sources"))
        out.items(
            [
                plain(title) + (f' <span style="color:{muted}">{e(url)}</span>' if url else "")
                for _n, _sid, title, url in data.sources
            ],
            numbered=True,
        )
