"""Every page fits the window sizes people use: no clipped table column or chart title, charts tall
enough to read, at 1024x640, 1280x800, 1920x1080, and at 2x scale (in a separate process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QAbstractButton, QApplication, QHeaderView, QWidget

from gpu_tpu_app.core.session import load_session
from gpu_tpu_app.ui.probe.results_model import COL
from gpu_tpu_app.ui.shell.main_window import MainWindow

EXAMPLE = next(
    p / "docs" / "screenshots" / "example-session.json"
    for p in Path(__file__).resolve().parents
    if (p / "docs" / "screenshots" / "example-session.json").is_file()
)
SIZES = [(1024, 640), (1280, 800), (1920, 1080)]
MIN_CHART_HEIGHT = 250


def layout_problems(window: MainWindow) -> list[str]:
    """What is clipped or too small on the Probe page and the Result page, as readable lines."""
    app = QApplication.instance()
    problems: list[str] = []
    window.show_page("probe")
    panel = window.ensure_probe_panel()
    for _ in range(3):
        app.processEvents()
    panel.charts.flush_all()
    app.processEvents()
    for chart in panel.charts.charts():
        panel.charts.setCurrentWidget(chart)
        # a chart's minimum height (its note wraps at the width it gets) reaches the page's scroll area
        # through a few posted layout requests: the check reads the settled layout, as a user sees it
        for _ in range(5):
            app.processEvents()
        if chart.plot.height() < MIN_CHART_HEIGHT:
            problems.append(f"{chart.slug}: plot {chart.plot.height()} px tall")
        # a chart given less than its minimum height runs past its tab and cuts off the axis labels
        below = chart.plot.mapTo(chart, QPoint(0, chart.plot.height())).y() - chart.height()
        if below > 0:
            problems.append(f"{chart.slug}: plot cut off {below} px at the bottom (the axis label is hidden)")
        font = chart.font()
        font.setPointSize(11)
        shown = chart.shown_title
        if QFontMetrics(font).horizontalAdvance(shown) > chart.plot.width():
            problems.append(f"{chart.slug}: title wider than the plot")
        if shown != chart.title and not shown.endswith("…"):
            problems.append(f"{chart.slug}: title cut without an ellipsis")
        if shown != chart.title and chart.toolTip() != chart.title:
            problems.append(f"{chart.slug}: elided title without the full text in a tooltip")
    bar = panel.top_bar
    for w in (*panel.top_bar.first.findChildren(QWidget), *panel.top_bar.second.findChildren(QWidget)):
        if w.isVisible() and isinstance(w, QAbstractButton) and w.width() < w.sizeHint().width():
            problems.append(f"probe bar: {w.text()!r} squeezed to {w.width()} px (needs {w.sizeHint().width()})")
    if bar.wrapped() == bar.wide_enough(bar.width()):
        problems.append(f"probe bar: wrapped={bar.wrapped()} at {bar.width()} px")
    header = panel.table.horizontalHeader()
    viewport = panel.table.viewport().width()
    for name in ("Kernel", "Median", "Status"):
        col = COL[name]
        right = header.sectionViewportPosition(col) + header.sectionSize(col)
        if header.isSectionHidden(col) or right > viewport:
            problems.append(f"results table: {name} column not fully in view ({right} > {viewport})")
    metrics = QFontMetrics(header.font())
    for col in range(header.count()):
        if header.isSectionHidden(col) or header.sectionResizeMode(col) == QHeaderView.ResizeMode.Stretch:
            continue
        text = str(panel.table.model().headerData(col, header.orientation()))
        if header.sectionSize(col) < metrics.horizontalAdvance(text) + 8:
            problems.append(f"results table: header {text!r} clipped")
    window.show_result()
    app.processEvents()
    table = window.result_page.estimator.table
    est_header = table.horizontalHeader()
    metrics = QFontMetrics(est_header.font())
    for col in range(est_header.count()):
        if est_header.isSectionHidden(col):  # the latency columns, until a target is set
            continue
        text = str(table.model().headerData(col, est_header.orientation()))
        if est_header.sectionSize(col) < metrics.horizontalAdvance(text.split("\n")[0]) + 8:
            problems.append(f"estimator: header {text!r} clipped")
    return problems


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_nothing_is_clipped(qtbot, size):
    window = MainWindow(persist=False)
    qtbot.addWidget(window)
    window.set_session(load_session(EXAMPLE))
    window.resize(*size)
    window.show()
    try:
        assert layout_problems(window) == []
        # one row where there is room for it, two rows (nothing squeezed) in a small window
        assert window.ensure_probe_panel().top_bar.wrapped() == (size[0] < 1280)
    finally:
        window.set_session(window.session(), window.path())
        window.shutdown()


SCALED = r"""
import json, sys
from PySide6.QtWidgets import QApplication
app = QApplication([])
from gpu_tpu_app import i18n
from gpu_tpu_app.ui.shell import translations
from gpu_tpu_app.core.session import load_session
from gpu_tpu_app.ui.shell.main_window import MainWindow
sys.path.insert(0, sys.argv[2])
from test_layout import layout_problems
language, width, height = sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
i18n.set_language(language)
loaded = translations.install(app, language)
w = MainWindow(persist=False)
w.set_session(load_session(sys.argv[1]))
w.resize(width, height)
w.show()
report = {"ratio": w.devicePixelRatioF(), "size": [w.width(), w.height()], "qm": len(loaded)}
print(json.dumps({**report, "problems": layout_problems(w)}))
w.set_session(w.session(), w.path())
w.shutdown()
"""


def _layout_in_a_process(tmp_path: Path, language: str, size: tuple[int, int], **env: str) -> dict:
    proc = subprocess.run(
        [sys.executable, "-c", SCALED, str(EXAMPLE), str(Path(__file__).parent), language, *map(str, size)],
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", **env},
        capture_output=True,
        text=True,
        timeout=180,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_nothing_is_clipped_at_2x_scale(tmp_path):
    report = _layout_in_a_process(tmp_path, "en", (1280, 800), QT_SCALE_FACTOR="2")
    assert report["ratio"] == 2.0
    assert report["problems"] == []


#: A 1024x640 screen less a window frame, as openbox leaves it, at the window's least height (MIN_SIZE): the
#: smallest window people use.
FRAMED_SMALL = (1016, 600)


@pytest.mark.slow
@pytest.mark.parametrize("size", [FRAMED_SMALL, (1280, 800)], ids=["1016x600", "1280x800"])
@pytest.mark.parametrize("language", ["zh-Hans", "en"])
def test_nothing_is_clipped_in_either_language_in_a_framed_window(tmp_path, language, size):
    """Chinese notes wrap to more lines (the collectives chart's formula takes two at 1016 px): where
    the page's minimum is taller than the window, the page scrolls and no chart loses its axis."""
    report = _layout_in_a_process(tmp_path, language, size)
    assert report["size"] == list(size)
    assert report["qm"] >= (6 if language == "zh-Hans" else 0)  # the window's five files and Qt's own
    assert report["problems"] == []


def test_learn_topic_list_gives_way_before_the_text(qtbot):
    window = MainWindow(persist=False)
    qtbot.addWidget(window)
    window.show()
    page = window.ensure_learn_page()
    window.show_page("learn")
    widths = {}
    for size in ((1024, 640), (1920, 1080)):
        window.resize(*size)
        QApplication.instance().processEvents()
        widths[size[0]] = (page.tree.width(), page.browser.width())
    narrow_list, narrow_text = widths[1024]
    wide_list, _wide_text = widths[1920]
    assert narrow_list < wide_list
    assert narrow_text > 2 * narrow_list
    window.shutdown()


def test_no_page_is_wider_than_a_1024x640_window(qtbot) -> None:
    """A page body that needs more room than its scroll area gives is cut off at the right edge (the page
    scrolls only up and down): at 1024x640 every page fits its width."""
    from pathlib import Path

    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication, QScrollArea

    from gpu_tpu_app.core.session import load_session
    from gpu_tpu_app.ui.shell.main_window import MainWindow

    session = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "example-session.json"
    w = MainWindow(persist=False)
    qtbot.addWidget(w)
    w.resize(1024, 610)
    w.show()
    w.set_session(load_session(session))
    for show in (lambda: w.show_wizard(0), w.show_result, lambda: w.show_page("learn")):
        show()
        for _ in range(5):
            QApplication.processEvents()
        for area in w.findChildren(QScrollArea):
            off = area.horizontalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAlwaysOff
            if area.isVisible() and off and area.widget() is not None:
                need = area.widget().minimumSizeHint().width()
                assert need <= area.viewport().width(), (area.objectName(), need, area.viewport().width())
