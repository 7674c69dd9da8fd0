"""Dependencies point one way: core imports no Qt, pyqtgraph, torch or jax; the window never imports
torch or jax, and it imports pyqtgraph only when the Probe page is first shown."""

from __future__ import annotations

import json
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import gpu_tpu_app.core

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("PySide6", "shiboken6", "pyqtgraph", "torch", "jax", "jaxlib")


def run_python(code: str) -> dict:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=180, env=env,
                          cwd=ROOT)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_core_modules_are_found() -> None:
    names = {m.name for m in pkgutil.iter_modules(gpu_tpu_app.core.__path__)}
    assert {"decision", "lesson", "catalog", "estimate", "runs", "session", "report", "settings"} <= names


def test_importing_all_of_core_loads_no_gui_or_framework() -> None:
    code = f"""
import importlib, json, pkgutil, sys
import gpu_tpu_app.core as core
names = []
for m in pkgutil.iter_modules(core.__path__):
    importlib.import_module("gpu_tpu_app.core." + m.name)
    names.append(m.name)
# use the pure parts once, so lazy imports inside functions count too
from gpu_tpu_app.core.session import new_session
from gpu_tpu_app.core.report import build_markdown, build_html
from gpu_tpu_app.core.lesson import load_lesson
s = new_session()
build_markdown(s, load_lesson()); build_html(s, load_lesson())
heavy = sorted({{k.split(".")[0] for k in sys.modules}} & set({HEAVY!r}))
print(json.dumps({{"modules": names, "heavy": heavy}}))
"""
    result = run_python(code)
    assert len(result["modules"]) >= 8
    assert result["heavy"] == []


def test_window_never_imports_torch_or_jax_and_loads_pyqtgraph_lazily() -> None:
    code = """
import json, sys
from PySide6.QtWidgets import QApplication
app = QApplication([])
from gpu_tpu_app.ui.theme import theme_manager
from gpu_tpu_app.ui.main_window import MainWindow
theme_manager().apply("system")
w = MainWindow(persist=False)
w.resize(1280, 800)
w.show()
app.processEvents()
before = "pyqtgraph" in sys.modules
w.show_result()
w.show_page("learn")
w.show_page("probe")
for _ in range(5):
    app.processEvents()
after = "pyqtgraph" in sys.modules
w.shutdown()
frameworks = sorted({k.split(".")[0] for k in sys.modules} & {"torch", "jax", "jaxlib"})
print(json.dumps({"pyqtgraph_at_start": before, "pyqtgraph_after_probe": after, "frameworks": frameworks}))
"""
    result = run_python(code)
    assert result == {"pyqtgraph_at_start": False, "pyqtgraph_after_probe": True, "frameworks": []}
