"""Dark and light themes: every visible text (labels, rich-text links, link buttons, buttons, list and
table text) reaches 4.5:1 against what is behind it (WCAG AA), measured on the rendered pixels of the
window on each page, not computed from the palette."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QImage, QTextCursor
from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel, QListWidget, QTextBrowser, QToolButton, QWidget

from gpu_tpu_app.core.session import load_session
from gpu_tpu_app.ui.main_window import MainWindow
from gpu_tpu_app.ui.theme import theme_manager

SESSION = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "example-session.json"
AA = 4.5


def _lum(rgb: tuple[int, int, int]) -> float:
    def f(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = rgb
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b)


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    la, lb = sorted((_lum(a), _lum(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_contrast(image: QImage, rect: QRect) -> float | None:
    """The contrast of the text drawn in `rect`: its most common colour is the background, the text's own
    colour is the pixel furthest from it (glyph cores carry the full colour; edges are blends)."""
    rect = rect.intersected(image.rect())
    if rect.width() < 3 or rect.height() < 3:
        return None
    counts: Counter[tuple[int, int, int]] = Counter()
    for y in range(rect.top(), rect.bottom() + 1):
        for x in range(rect.left(), rect.right() + 1):
            c = image.pixelColor(x, y)
            counts[(c.red(), c.green(), c.blue())] += 1
    background = counts.most_common(1)[0][0]
    colours = [c for c, n in counts.items() if n >= 3 and c != background]  # a colour, not a stray blend
    if not colours:
        return None
    return max(contrast(c, background) for c in colours)


def _list_lows(window: QWidget) -> list[str]:
    """Item texts of visible lists (a chart's series list among them) given a colour of their own that is
    under 4.5:1 against the list's background (Base): such a colour is drawn as set."""
    lows = []
    for lst in window.findChildren(QListWidget):
        if not lst.isVisible():
            continue
        bg = lst.palette().color(lst.viewport().backgroundRole())
        for i in range(lst.count()):
            item = lst.item(i)
            if item.foreground().style() == Qt.BrushStyle.NoBrush:
                continue  # the list's own text colour: in the rendered widgets measured above
            fg = item.foreground().color()
            ratio = contrast((fg.red(), fg.green(), fg.blue()), (bg.red(), bg.green(), bg.blue()))
            if ratio < AA:
                lows.append(f"list item {item.text()[:40]!r}: {ratio:.2f}:1")
    return lows


def _text_widgets(window: QWidget) -> list[QWidget]:
    out = []
    for w in window.findChildren(QWidget):
        if not w.isVisible() or not w.isEnabled() or w.width() < 4 or w.height() < 4:
            continue
        if isinstance(w, QLabel) and w.text().strip() and w.pixmap().isNull():
            out.append(w)
        elif isinstance(w, QToolButton) and w.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonIconOnly:
            out.append(w)  # an icon: measured like text (WCAG asks 3:1 of icons; these meet 4.5:1)
        elif isinstance(w, QAbstractButton) and w.text().strip() and not w.inherits("QRadioButton"):
            out.append(w)
    return out


ANCHOR = re.compile(r"<a\b[^>]*>.*?</a>", re.S | re.I)


def _link_contrasts(window: MainWindow, qtbot) -> list[tuple[QLabel, float]]:
    """Each rich-text label's links drawn on their own, in the label's place and style, then measured."""
    out = []
    for w in _text_widgets(window):
        if not isinstance(w, QLabel) or "<a" not in w.text():
            continue
        anchors = ANCHOR.findall(w.text())
        parent = w.parentWidget()
        if not anchors or parent is None:
            continue
        probe = QLabel(parent)
        probe.setTextFormat(Qt.TextFormat.RichText)
        probe.setProperty("role", w.property("role"))
        probe.setFont(w.font())
        probe.setText(" ".join(anchors))
        probe.setGeometry(QRect(w.geometry().topLeft(), probe.sizeHint().boundedTo(w.size())))
        w.hide()
        probe.show()
        probe.raise_()
        QApplication.processEvents()
        image = window.grab().toImage()
        ratio = text_contrast(image, QRect(probe.mapTo(window, QPoint(0, 0)), probe.size()))
        probe.deleteLater()
        w.show()
        if ratio is not None:
            out.append((w, ratio))
    return out


def _browser_link_contrasts(window: MainWindow) -> list[tuple[str, float]]:
    """Each link in a visible text browser (Learn, the guide), measured where it is drawn: the rectangle of
    its characters, cropped from the browser's rendered viewport."""
    out = []
    for b in window.findChildren(QTextBrowser):
        if not b.isVisible():
            continue
        image = b.viewport().grab().toImage()
        block = b.document().begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                frag = it.fragment()
                if frag.isValid() and frag.charFormat().isAnchor() and frag.text().strip():
                    cur = QTextCursor(b.document())
                    cur.setPosition(frag.position())
                    start = b.cursorRect(cur)
                    cur.setPosition(frag.position() + frag.length())
                    end = b.cursorRect(cur)
                    if start.top() == end.top() and 0 <= start.top() < b.viewport().height():
                        rect = QRect(start.topLeft(), end.bottomRight())
                        ratio = text_contrast(image, rect)
                        if ratio is not None:
                            out.append((frag.text()[:40], ratio))
                it += 1
            block = block.next()
    return out


def _pages(window: MainWindow):
    yield "decide", lambda: window.show_wizard(0)
    yield "result", window.show_result
    yield "probe", lambda: window.show_page("probe")
    yield "learn", lambda: window.show_page("learn")
    yield "welcome", window.show_welcome


def _lows(window: MainWindow, qtbot) -> list[str]:
    lows = []
    checked = 0
    for page, show in _pages(window):
        show()
        for _ in range(5):
            QApplication.processEvents()
        qtbot.wait(50)
        image = window.grab().toImage()
        for w in _text_widgets(window):
            top_left = w.mapTo(window, QPoint(0, 0))
            ratio = text_contrast(image, QRect(top_left, w.size()))
            if ratio is not None and ratio < AA:
                text = w.text().replace("\n", " ")[:50]
                lows.append(f"{page}: {type(w).__name__} {w.objectName() or ''} {text!r}: {ratio:.2f}:1")
        for w, ratio in _link_contrasts(window, qtbot):
            if ratio < AA:
                lows.append(f"{page}: links of {w.text()[:60]!r}: {ratio:.2f}:1")
        lows += [f"{page}: {low}" for low in _list_lows(window)]
        for text, ratio in _browser_link_contrasts(window):
            if ratio < AA:
                lows.append(f"{page}: link {text!r} in a text browser: {ratio:.2f}:1")
        checked += 1
    assert checked == 5
    return lows


@pytest.mark.parametrize("theme", ["dark", "light", "dark after light"])
@pytest.mark.slow
def test_every_text_on_every_page_reaches_4_5_to_1(qtbot, theme: str) -> None:
    theme_manager().apply(theme.split()[-1])
    try:
        w = MainWindow(persist=False)
        qtbot.addWidget(w)
        w.resize(1280, 800)
        w.show()
        qtbot.waitExposed(w)
        w.set_session(load_session(SESSION))
        if theme == "dark after light":  # the user switches in View › Theme with every page built
            for _page, show in _pages(w):
                show()
            theme_manager().apply("dark")
        lows = _lows(w, qtbot)
        assert not lows, "\n".join(lows)
    finally:
        theme_manager().apply("light")


def test_the_measure_sees_low_contrast(qtbot) -> None:
    """The measurement itself: a label drawn at 2:1 is caught, the same label at 7:1 is not."""
    host = QWidget()
    qtbot.addWidget(host)
    host.setStyleSheet("background: #21242b;")
    lab = QLabel("Show evidence", host)
    lab.setStyleSheet("color: #4f46c8; font-size: 13px;")
    lab.adjustSize()
    host.resize(200, 40)
    host.show()
    qtbot.waitExposed(host)
    low = text_contrast(host.grab().toImage(), lab.geometry())
    lab.setStyleSheet("color: #e7e9ee; font-size: 13px;")
    high = text_contrast(host.grab().toImage(), lab.geometry())
    assert low is not None and low < 2.6 and high is not None and high > 7


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_scroll_bar_thumb_stands_out_from_its_track(qtbot, theme: str) -> None:
    """WCAG's 3:1 for a control, on the rendered scroll bar: the thumb against the track around it."""
    from PySide6.QtWidgets import QScrollArea

    theme_manager().apply(theme)
    try:
        area = QScrollArea()
        qtbot.addWidget(area)
        tall = QWidget()
        tall.setMinimumSize(200, 3000)
        area.setWidget(tall)
        area.resize(300, 300)
        area.show()
        qtbot.waitExposed(area)
        bar = area.verticalScrollBar()
        image = bar.grab().toImage()
        ends = image.width() + 2  # leave out the arrow buttons a style may draw at each end
        column = [image.pixelColor(image.width() // 2, y) for y in range(ends, image.height() - ends)]
        rgbs = [(c.red(), c.green(), c.blue()) for c in column]
        track = Counter(rgbs).most_common(1)[0][0]
        assert max(contrast(c, track) for c in rgbs) >= 3.0
    finally:
        theme_manager().apply("light")
