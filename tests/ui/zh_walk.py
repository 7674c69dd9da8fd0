"""Walk every page of the window in one language (run as a script, in its own process, so the language and
Qt's translators are those of a real start) and print, as one JSON line, what is clipped and which
user-visible texts are still in English.

Run: QT_QPA_PLATFORM=offscreen python tests/ui/zh_walk.py SESSION.json LANG WIDTHxHEIGHT
(QT_SCALE_FACTOR=2 for the 2x check). Used by tests/ui/test_window_zh_walk.py.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))


def _texts(widget) -> list[tuple[str, str]]:
    """(where, text) of what a visible widget shows: its text, title, tabs, header labels, items shown."""
    from PySide6.QtWidgets import (
        QAbstractButton,
        QComboBox,
        QGroupBox,
        QHeaderView,
        QLabel,
        QLineEdit,
        QTabBar,
    )

    name = type(widget).__name__
    out: list[tuple[str, str]] = []
    if (isinstance(widget, QLabel) and widget.pixmap().isNull()) or isinstance(widget, QAbstractButton):
        out.append((name, widget.text()))
    elif isinstance(widget, QGroupBox):
        out.append((name, widget.title()))
    elif isinstance(widget, QTabBar):
        out += [(f"{name} tab", widget.tabText(i)) for i in range(widget.count())]
    elif isinstance(widget, QComboBox):
        out.append((name, widget.currentText()))
    elif isinstance(widget, QLineEdit):
        out.append((f"{name} placeholder", widget.placeholderText()))
    elif isinstance(widget, QHeaderView) and widget.model() is not None:
        model, horizontal = widget.model(), widget.orientation()
        count = model.columnCount() if horizontal.name == "Horizontal" else 0
        out += [(f"{name} section", str(model.headerData(i, horizontal) or "")) for i in range(count)]
    return [(w, t) for w, t in out if t and t.strip()]


def _clipped(widget) -> str | None:
    """Why a visible button or one-line label cannot show its text in the room it has, or None."""
    from PySide6.QtWidgets import QAbstractButton, QLabel

    if isinstance(widget, QAbstractButton) and widget.text().strip():
        hint = widget.sizeHint()
        # a pixel under the hint's height is the line's leading, not the glyphs: Qt centres the text in it
        if widget.width() < hint.width() or widget.height() + 1 < min(hint.height(), widget.maximumHeight()):
            return f"{widget.width()}x{widget.height()} < {hint.width()}x{hint.height()}"
    if isinstance(widget, QLabel) and widget.text().strip() and widget.pixmap().isNull():
        rect = widget.contentsRect()
        if widget.wordWrap() or widget.textFormat().name == "RichText" or "<" in widget.text():
            need = widget.heightForWidth(rect.width()) if widget.wordWrap() else widget.sizeHint().height()
            if need > 0 and rect.height() + 2 < need and widget.maximumHeight() >= need:
                return f"{rect.height()} px tall, needs {need} for its wrapped text"
            return None
        shown = re.sub(r"&(.)", r"\1", widget.text())  # a mnemonic's & is drawn as an underline
        longest = max((widget.fontMetrics().horizontalAdvance(x) for x in shown.split("\n")), default=0)
        if rect.width() + 1 < longest:
            return f"{rect.width()} px wide, its text needs {longest}"
    return None


def _visible(window):
    from PySide6.QtWidgets import QWidget

    for w in window.findChildren(QWidget):
        if w.isVisible() and w.width() > 0 and w.window() is window and w.visibleRegion().boundingRect().width():
            yield w


def main(argv: list[str]) -> int:
    session_path, language, size = argv[0], argv[1], argv[2]
    width, height = (int(v) for v in size.split("x"))
    os.environ["GPU_TPU_APP_LANG"] = language
    from PySide6.QtWidgets import QApplication

    from gpu_tpu_app import i18n

    i18n.set_language(language)
    app = QApplication([sys.argv[0]])
    from gpu_tpu_app.ui.shell import translations

    translations.install(app, language)
    from test_layout import layout_problems

    from gpu_tpu_app.core.session import load_session
    from gpu_tpu_app.ui.shell.main_window import MainWindow
    from gpu_tpu_app.ui.shell.theme import theme_manager
    from tools.i18n_allow import left_in_english

    theme_manager().apply("light")
    window = MainWindow(persist=False)
    window.set_session(load_session(session_path))
    window.resize(width, height)
    window.show()
    problems = [f"{size}: {p}" for p in layout_problems(window)]
    english: list[str] = []
    pages = [
        ("welcome", window.show_welcome),
        ("result", window.show_result),
        ("probe", lambda: window.show_page("probe")),
        ("learn", lambda: window.show_page("learn")),
    ]
    pages += [(f"decide step {i + 1}", lambda i=i: window.show_wizard(i)) for i in range(len(window.wizard.pages))]
    seen: set[tuple[str, str]] = set()
    for page, show in pages:
        show()
        for _ in range(4):
            app.processEvents()
        for w in _visible(window):
            why = _clipped(w)
            text = w.text() if hasattr(w, "text") and callable(w.text) else ""
            if why is not None:
                problems.append(f"{size} {page}: {type(w).__name__} {str(text)[:50]!r} clipped: {why}")
            for where, shown in _texts(w):
                words = left_in_english(shown)
                key = (where, shown)
                if words and key not in seen:
                    seen.add(key)
                    english.append(f"{page}: {where} {shown[:70]!r} (English: {' '.join(words[:6])})")
    print(json.dumps({"ratio": window.devicePixelRatioF(), "problems": problems, "english": english}))
    window.session_controller.mark_clean()
    window.shutdown()
    os._exit(0)  # no teardown of a window with workers: what was measured is printed


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
