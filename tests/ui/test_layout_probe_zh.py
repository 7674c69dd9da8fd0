"""The Probe page and the estimator fit in Simplified Chinese as in English: no chart title cut without
its tooltip, no squeezed tool-bar button, no clipped results or estimator header, at 1024x640, 1280x800
and 1920x1080, and at 2x scale (in a separate process). The checks are test_layout's; the language and
its compiled .ts files come from test_layout_zh."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from gpu_tpu_app import i18n
from gpu_tpu_app.core.session import load_session
from gpu_tpu_app.ui.shell import translations
from gpu_tpu_app.ui.shell.main_window import MainWindow
from tests.ui.test_layout import EXAMPLE, SIZES, layout_problems
from tests.ui.test_layout_zh import install_language


@pytest.fixture
def chinese() -> Iterator[None]:
    app = QApplication.instance() or QApplication([])
    before = i18n.current_language()
    install_language(app, "zh-Hans")
    yield
    translations.install(app, "en")
    i18n.set_language(before)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_probe_page_and_the_estimator_fit_in_chinese(qtbot, chinese: None, size: tuple[int, int]) -> None:
    window = MainWindow(persist=False)
    qtbot.addWidget(window)
    window.set_session(load_session(EXAMPLE))
    window.resize(*size)
    window.show()
    try:
        panel = window.ensure_probe_panel()
        assert panel.run_button.text() == "运行" and panel.charts.throughput.title == "矩阵乘法吞吐量"
        assert layout_problems(window) == []
    finally:
        window.set_session(window.session(), window.path())
        window.shutdown()


SCALED = r"""
import json, sys
from pathlib import Path
from PySide6.QtWidgets import QApplication
app = QApplication([])
sys.path.insert(0, sys.argv[2])
from test_layout import layout_problems
from test_layout_zh import install_language
install_language(app, "zh-Hans")
from gpu_tpu_app.core.session import load_session
from gpu_tpu_app.ui.shell.main_window import MainWindow
w = MainWindow(persist=False)
w.set_session(load_session(sys.argv[1]))
w.resize(1280, 800)
w.show()
print(json.dumps({"ratio": w.devicePixelRatioF(), "run": w.ensure_probe_panel().run_button.text(),
                  "problems": layout_problems(w)}))
w.set_session(w.session(), w.path())
w.shutdown()
"""


@pytest.mark.slow
def test_the_probe_page_fits_in_chinese_at_2x_scale(tmp_path: Path) -> None:
    env = {**os.environ, "QT_SCALE_FACTOR": "2", "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run(
        [sys.executable, "-c", SCALED, str(EXAMPLE), str(Path(__file__).parent), str(tmp_path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["ratio"] == 2.0 and report["run"] == "运行"
    assert report["problems"] == []
