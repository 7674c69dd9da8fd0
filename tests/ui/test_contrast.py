"""Dark and light themes: every visible text (labels, rich-text links, link buttons, buttons, list and
table cells, chart axis labels, legends and series lists) reaches 4.5:1 against what is behind it (WCAG
AA), measured on the rendered pixels of the window on each page and each chart tab, not computed from
the palette."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QImage, QTextCursor
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QLabel,
    QListWidget,
    QTabWidget,
    QTextBrowser,
    QToolButton,
    QWidget,
)

from gpu_tpu_app.core.session import load_session
from gpu_tpu_app.ui.shell.main_window import MainWindow
from gpu_tpu_app.ui.shell.theme import theme_manager

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


#: Cells measured per view (the first rows shown are enough to see each colour the view uses).
MAX_ROWS = 30


def _indexes(model, parent, depth: int = 0):
    from PySide6.QtCore import QAbstractListModel, QAbstractTableModel

    flat = isinstance(model, (QAbstractListModel, QAbstractTableModel))
    columns = 1 if isinstance(model, QAbstractListModel) else model.columnCount(parent)
    for row in range(min(model.rowCount(parent), MAX_ROWS)):
        for col in range(columns):
            index = model.index(row, col, parent)
            yield index
            if col == 0 and depth < 2 and not flat and model.hasChildren(index):
                yield from _indexes(model, index, depth + 1)


def _cell_lows(window: QWidget, image: QImage, where: str) -> tuple[list[str], int]:
    """Each visible cell with text of each visible table, tree and list (the results table, the devices,
    the runs shown, a chart's series list), measured in its rectangle on the rendered window."""
    lows, measured = [], 0
    for view in window.findChildren(QAbstractItemView):
        model = view.model()
        if not view.isVisible() or model is None:
            continue
        viewport = view.viewport()
        for index in _indexes(model, view.rootIndex()):
            text = index.data()
            if not isinstance(text, str) or not text.strip():
                continue
            rect = view.visualRect(index)
            if rect.height() < 6 or rect.width() < 6 or not viewport.rect().contains(rect):
                continue  # a cell cut at the view's edge shows parts of glyphs: it is measured once scrolled to
            ratio = text_contrast(image, QRect(viewport.mapTo(window, rect.topLeft()), rect.size()))
            if ratio is None:
                continue
            measured += 1
            if ratio < AA:
                lows.append(f"{where}: {type(view).__name__} cell {text[:40]!r}: {ratio:.2f}:1")
    return lows, measured


def _chart_text_lows(window: QWidget, image: QImage, where: str) -> tuple[list[str], int]:
    """The visible charts' axis labels (tick numbers and axis titles) and legend labels, each measured in
    the rectangle the plot draws it in (the axis line itself, on the plot's side, left out)."""
    import pyqtgraph as pg

    lows, measured = [], 0
    for view in window.findChildren(pg.GraphicsView):
        if not view.isVisible():
            continue

        def on_window(item, view=view) -> QRect:
            # the item's own place in its layout (an axis' bounding rectangle also covers its grid lines)
            parent = item.parentItem()
            scene_rect = parent.mapRectToScene(item.geometry()) if parent is not None else item.sceneBoundingRect()
            rect = view.mapFromScene(scene_rect).boundingRect()
            return QRect(view.viewport().mapTo(window, rect.topLeft()), rect.size())

        for item in view.scene().items():
            if isinstance(item, pg.AxisItem) and item.isVisible() and item.orientation in ("left", "bottom"):
                rect = on_window(item)
                # the axis line and tick marks sit on the plot's side: leave out those few pixels
                rect = rect.adjusted(0, 0, -4, 0) if item.orientation == "left" else rect.adjusted(0, 4, 0, 0)
                what = f"{item.orientation} axis"
            elif isinstance(item, pg.LabelItem) and item.isVisible() and item.text:
                rect = on_window(item)
                what = f"label {item.text[:40]!r}"
            else:
                continue
            ratio = text_contrast(image, rect)
            if ratio is None:
                continue
            measured += 1
            if ratio < AA:
                lows.append(f"{where}: chart {what}: {ratio:.2f}:1")
    return lows, measured


def _chart_tabs(window: QWidget):
    """Each tab of the Probe page's charts, shown in turn."""
    from gpu_tpu_app.ui.charts.view import ChartsView

    for tabs in window.findChildren(ChartsView):
        if not isinstance(tabs, QTabWidget) or not tabs.isVisible():
            continue
        for i in range(tabs.count()):
            tabs.setCurrentIndex(i)
            yield tabs.tabText(i)


def _pages(window: MainWindow):
    yield "decide", lambda: window.show_wizard(0)
    yield "result", window.show_result
    yield "probe", lambda: window.show_page("probe")
    yield "learn", lambda: window.show_page("learn")
    yield "welcome", window.show_welcome


def _lows(window: MainWindow, qtbot) -> list[str]:
    lows = []
    checked = 0
    cells: dict[str, int] = {}
    chart_texts: dict[str, int] = {}
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
        cell_lows, n = _cell_lows(window, image, page)
        lows += cell_lows
        cells[page] = n
        if page == "probe":
            for tab in _chart_tabs(window):
                for _ in range(5):
                    QApplication.processEvents()
                qtbot.wait(50)
                shot = window.grab().toImage()
                chart_lows, n = _chart_text_lows(window, shot, f"probe, {tab} chart")
                lows += chart_lows
                chart_texts[tab] = n
                more, n = _cell_lows(window, shot, f"probe, {tab} chart")
                lows += more
                cells[f"probe, {tab}"] = n
        for text, ratio in _browser_link_contrasts(window):
            if ratio < AA:
                lows.append(f"{page}: link {text!r} in a text browser: {ratio:.2f}:1")
        checked += 1
    assert checked == 5
    # the measure reached what it is for: the results table, devices and runs on the Probe page, and the
    # axes and legend or series list of each chart that has data
    assert cells["probe"] >= 20, cells
    assert len(chart_texts) >= 4 and sum(n >= 2 for n in chart_texts.values()) >= 3, chart_texts
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


def test_the_chart_and_cell_measures_see_low_contrast(qtbot) -> None:
    """Axis labels drawn at about 1.5:1 and a table cell's text at about 1.6:1 are caught; at 12:1 they pass."""
    import pyqtgraph as pg
    from PySide6.QtGui import QColor, QStandardItem, QStandardItemModel
    from PySide6.QtWidgets import QTableView, QVBoxLayout

    host = QWidget()
    qtbot.addWidget(host)
    host.setStyleSheet("background: #21242b;")
    layout = QVBoxLayout(host)
    plot = pg.PlotWidget(background="#21242b")
    plot.plot([1, 2, 3], [3, 1, 2])
    table = QTableView()
    model = QStandardItemModel(2, 2)
    for r in range(2):
        for c in range(2):
            item = QStandardItem(f"cell {r}{c}")
            item.setForeground(QColor("#3a3e48"))
            model.setItem(r, c, item)
    table.setModel(model)
    table.setStyleSheet("QTableView { background: #21242b; }")
    layout.addWidget(plot)
    layout.addWidget(table)
    host.resize(500, 500)
    host.show()
    qtbot.waitExposed(host)
    for name in ("left", "bottom"):
        plot.getAxis(name).setTextPen("#3a3e48")
        plot.getAxis(name).setPen("#3a3e48")
    qtbot.wait(50)
    image = host.grab().toImage()
    chart_lows, n_chart = _chart_text_lows(host, image, "test")
    cell_lows, n_cells = _cell_lows(host, image, "test")
    assert n_chart == 2 and len(chart_lows) == 2 and n_cells == 4 and len(cell_lows) == 4
    for name in ("left", "bottom"):
        plot.getAxis(name).setTextPen("#e7e9ee")
    for r in range(2):
        for c in range(2):
            model.item(r, c).setForeground(QColor("#e7e9ee"))
    qtbot.wait(50)
    image = host.grab().toImage()
    assert _chart_text_lows(host, image, "test")[0] == [] and _cell_lows(host, image, "test")[0] == []
