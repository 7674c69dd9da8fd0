"""The suite's own Qt hygiene (tests/conftest.py): a test that leaves a window alive fails, closed windows
are really deleted after each test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _inner_pytest(folder: Path) -> str:
    """Run the tests in `folder` in a real inner pytest with this project's conftest; its stdout."""
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.conftest", str(folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**{k: v for k, v in os.environ.items() if k != "GPU_TPU_APP_TEST_TIMES"}, "QT_QPA_PLATFORM": "offscreen"},
    )
    return proc.stdout


LEAKY = """
from PySide6.QtWidgets import QApplication, QDialog, QWidget

KEPT = []


def test_leaves_a_window(qtbot):
    w = QDialog()
    w.setObjectName("forgotten")
    w.show()
    KEPT.append(w)


def test_registers_its_window(qtbot):
    w = QWidget()
    qtbot.addWidget(w)
    w.show()


def test_closed_windows_are_deleted(qtbot):
    w = QWidget()
    qtbot.addWidget(w)
    KEPT.append(w)


def test_after(qtbot):
    from shiboken6 import isValid
    assert not isValid(KEPT[-1])  # the window the test before registered was deleted in its teardown
"""


def test_a_leaked_top_level_widget_fails_its_test_and_registered_ones_are_deleted(tmp_path: Path) -> None:
    (tmp_path / "test_leaky.py").write_text(LEAKY)
    out = _inner_pytest(tmp_path)
    assert "test_leaky.py::test_leaves_a_window left 1 top-level widget(s) alive: QDialog(forgotten)" in out, out
    # the leaking test's own call passed: its teardown is the one error; test_after proves the deletion
    assert "4 passed, 1 error" in out, out


UNREAPED = """
from PySide6.QtCore import QObject, QProcess


def test_drops_a_running_process(qtbot):
    owner = QObject()
    proc = QProcess(owner)
    proc.start("sleep", ["30"])
    assert proc.waitForStarted(10_000)
    del proc
    owner.deleteLater()  # still running when its QProcess goes (in the teardown): Qt says so, and kills it


def test_kills_and_reaps_its_process(qtbot):
    proc = QProcess()
    proc.start("sleep", ["30"])
    assert proc.waitForStarted(10_000)
    proc.kill()
    assert proc.waitForFinished(10_000)


def test_drops_a_running_process_during_its_call(qtbot):
    import shiboken6
    proc = QProcess()
    proc.start("sleep", ["30"])
    assert proc.waitForStarted(10_000)
    shiboken6.delete(proc)
"""


def test_a_qprocess_destroyed_while_running_fails_its_test(tmp_path: Path) -> None:
    (tmp_path / "test_unreaped.py").write_text(UNREAPED)
    out = _inner_pytest(tmp_path)
    assert "test_drops_a_running_process: Qt said, in its teardown: QProcess: Destroyed while process" in out, out
    assert "FAILED" in out and "test_drops_a_running_process_during_its_call" in out, out
    assert "Qt said, during the test: QProcess: Destroyed while process" in out, out
    assert "2 failed" not in out and "1 failed, 2 passed, 1 error" in out, out
