"""The Decide side of the window (welcome card, every wizard page, the Result page, the navigation column)
fits in Simplified Chinese as in English: no button squeezed below its text, no one-line label clipped,
no page wider than the window, at 1024x640 and 1280x800, and at 2x scale (in a separate process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel, QScrollArea, QWidget

from gpu_tpu_app import i18n
from gpu_tpu_app.core.session import load_session
from gpu_tpu_app.ui.shell import translations
from gpu_tpu_app.ui.shell.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "screenshots" / "example-session.json"
SIZES = [(1024, 640), (1280, 800)]


def install_language(app: QApplication, language: str) -> None:
    """Set `language` and install its translations as the window does at start (ui.translations)."""
    i18n.set_language(language)
    translations.install(app, language)


def _shown(widget: QWidget) -> bool:
    return widget.isVisible() and widget.width() > 0


def widget_problems(where: str, root: QWidget) -> list[str]:
    """Buttons narrower than their text, one-line labels cut, scroll areas whose body is wider than them."""
    problems = []
    for button in root.findChildren(QAbstractButton):
        if _shown(button) and button.text() and button.width() < button.sizeHint().width():
            problems.append(f"{where}: button {button.text()!r} {button.width()} px < {button.sizeHint().width()}")
    for lab in root.findChildren(QLabel):
        if _shown(lab) and lab.text() and not lab.wordWrap() and lab.width() < lab.sizeHint().width() - 1:
            problems.append(f"{where}: label {lab.text()[:40]!r} {lab.width()} px < {lab.sizeHint().width()}")
    for area in root.findChildren(QScrollArea):
        body = area.widget()
        if _shown(area) and body is not None and body.minimumSizeHint().width() > area.viewport().width() + 1:
            problems.append(f"{where}: page body {body.minimumSizeHint().width()} px > {area.viewport().width()}")
    return problems


def decide_problems(window: MainWindow) -> list[str]:
    """What is clipped on the welcome card, each wizard page and the Result page (with the nav column)."""
    app = QApplication.instance()
    assert app is not None

    def settle() -> None:
        for _ in range(4):
            app.processEvents()

    problems = []
    window.show_welcome()
    settle()
    problems += widget_problems("welcome", window.centralWidget())
    for index in range(len(window.wizard.pages)):
        window.show_wizard(index)
        settle()
        problems += widget_problems(f"wizard page {index + 1}", window.centralWidget())
    window.show_result()
    settle()
    problems += widget_problems("result", window.centralWidget())
    return problems


@pytest.fixture(params=["en", "zh-Hans"])
def language(request) -> Iterator[str]:
    app = QApplication.instance() or QApplication([])
    before = i18n.current_language()
    install_language(app, request.param)
    yield request.param
    translations.install(app, "en")
    i18n.set_language(before)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_decide_pages_fit(qtbot, language: str, size: tuple[int, int]) -> None:
    window = MainWindow(persist=False)
    qtbot.addWidget(window)
    window.set_session(load_session(EXAMPLE))
    window.resize(*size)
    window.show()
    try:
        if language == "zh-Hans":
            assert window.result_page.edit_button.text() == "修改回答(&C)"  # the translation is in use
        assert decide_problems(window) == []
    finally:
        window.set_session(window.session(), window.path())
        window.shutdown()


SCALED = r"""
import json, sys
from PySide6.QtWidgets import QApplication
app = QApplication([])
sys.path.insert(0, sys.argv[2])
from test_layout_zh import decide_problems, install_language
install_language(app, "zh-Hans")
from gpu_tpu_app.core.session import load_session
from gpu_tpu_app.ui.shell.main_window import MainWindow
w = MainWindow(persist=False)
w.set_session(load_session(sys.argv[1]))
w.resize(1280, 800)
w.show()
print(json.dumps({"ratio": w.devicePixelRatioF(), "text": w.result_page.edit_button.text(),
                  "problems": decide_problems(w)}))
w.set_session(w.session(), w.path())
w.shutdown()
"""


@pytest.mark.slow
def test_the_decide_pages_fit_in_chinese_at_2x_scale(tmp_path: Path) -> None:
    env = {**os.environ, "QT_SCALE_FACTOR": "2", "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run(
        [sys.executable, "-c", SCALED, str(EXAMPLE), str(Path(__file__).parent)],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["ratio"] == 2.0 and report["text"] == "修改回答(&C)"
    assert report["problems"] == []
