"""Menu buttons ("Kernels: all", "Dtypes: all", "Export", "Compare with chips") draw their down arrow beside
their words, never over them, in English and Chinese, at 1280x800 and 1024x640; the probe tool bar stays one row
where it did (1280 wide) and nothing in it is squeezed below its text in the small window."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QRect
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractButton, QApplication, QToolButton, QWidget

from gpu_tpu_app.ui.shell.main_window import MainWindow
from gpu_tpu_app.ui.shell.widgets import MenuButton

ROOT = Path(__file__).resolve().parents[2]
SIZES = [(1280, 800), (1024, 640)]


@pytest.fixture(params=["en", "zh-Hans"])
def language(request: pytest.FixtureRequest, compiled_qm: Callable[[Path], Path]) -> Iterator[str]:
    from PySide6.QtCore import QTranslator

    from gpu_tpu_app import i18n

    lang = request.param
    translators: list[QTranslator] = []
    app = QApplication.instance() or QApplication([])
    if lang != "en":
        request.getfixturevalue("zh")
        for ts in sorted((ROOT / "resources" / "i18n").glob("*.zh_CN.ts")):
            t = QTranslator()
            assert t.load(str(compiled_qm(ts)))
            app.installTranslator(t)
            translators.append(t)
    else:
        i18n.set_language("en")
    yield lang
    for t in translators:
        app.removeTranslator(t)


def _menu_buttons(window: MainWindow) -> list[QToolButton]:
    return [b for b in window.findChildren(QToolButton) if b.menu() is not None and b.isVisibleTo(window)]


def _arrow_problems(b: QToolButton) -> list[str]:
    if not isinstance(b, MenuButton):
        return [f"{b.text()!r}: Qt's own menu arrow (drawn over the words in some styles)"]
    out = []
    words = QRect(b.text_rect().left(), 0, b.text_width(), b.height())
    arrow = b.arrow_rect()
    if b.text_width() > b.text_rect().width():
        out.append(f"{b.text()!r}: words {b.text_width()} px in {b.text_rect().width()} px")
    if arrow.intersects(words):
        out.append(f"{b.text()!r}: arrow {arrow} over the words {words}")
    if not b.rect().contains(arrow):
        out.append(f"{b.text()!r}: arrow {arrow} outside the button {b.rect()}")
    # the arrow is really painted there: some pixel in its rect has the words' colour, none between it and them
    image = b.grab().toImage()
    ink = b.palette().buttonText().color()
    scale = image.width() / max(1, b.width())

    def inked(x0: int, x1: int) -> bool:
        for x in range(x0, x1):
            for y in range(arrow.top(), arrow.bottom() + 1):
                c = QColor(image.pixel(int(x * scale), int(y * scale)))
                if abs(c.red() - ink.red()) + abs(c.green() - ink.green()) + abs(c.blue() - ink.blue()) < 120:
                    return True
        return False

    if not inked(arrow.left(), arrow.right() + 1):
        out.append(f"{b.text()!r}: no arrow painted in {arrow}")
    if inked(words.right() + 1, arrow.left()):
        out.append(f"{b.text()!r}: ink in the gap between the words and the arrow")
    return out


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_menu_buttons_draw_their_arrow_beside_the_words(qtbot, language: str, size: tuple[int, int]) -> None:
    window = MainWindow(persist=False)
    qtbot.addWidget(window, before_close_func=lambda win: win.session_controller.mark_clean())
    window.resize(*size)
    window.show()
    app = QCoreApplication.instance()
    assert app is not None
    try:
        panel = window.ensure_probe_panel()
        window.show_page("probe")
        for _ in range(5):
            app.processEvents()
        buttons = _menu_buttons(window)
        texts = [b.text() for b in buttons]
        assert len(buttons) >= 3, texts  # Kernels, Dtypes, Export (and the roofline's)
        if language == "zh-Hans":
            assert "导出" in texts, texts
        problems = [p for b in buttons for p in _arrow_problems(b)]
        bar = panel.top_bar
        assert bar.wrapped() == (size[0] < 1280), (bar.width(), bar.first.sizeHint(), bar.second.sizeHint())
        for w in (*bar.first.findChildren(QWidget), *bar.second.findChildren(QWidget)):
            if w.isVisible() and isinstance(w, QAbstractButton) and w.width() < w.sizeHint().width():
                problems.append(f"probe bar: {w.text()!r} squeezed to {w.width()} px")
        window.show_result()
        for _ in range(3):
            app.processEvents()
        result = _menu_buttons(window)
        problems += [p for b in result if b not in buttons for p in _arrow_problems(b)]
        assert problems == []
    finally:
        window.shutdown()


def test_every_menu_button_in_the_app_is_a_menu_button() -> None:
    """No QToolButton with a popup menu is made anywhere else (it would draw Qt's arrow over its words)."""
    offenders = []
    for path in (ROOT / "gpu_tpu_app" / "ui").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if "ToolButtonPopupMode.InstantPopup" in text and path.name != "widgets.py":
            offenders.append(path.name)
    assert offenders == []
