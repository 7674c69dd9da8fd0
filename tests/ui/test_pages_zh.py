"""The decide / learn / session / report side of the window in Simplified Chinese: its words through Qt's
tr route, translated in resources/i18n/gpu_tpu_app_pages.zh_CN.ts (compiled here with pyside6-lrelease),
accelerators kept as "文件(&F)", placeholders filled."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QTranslator
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QMenu

from gpu_tpu_app.ui.help import shortcut_rows
from gpu_tpu_app.ui.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[2]
TS = ROOT / "resources" / "i18n" / "gpu_tpu_app_pages.zh_CN.ts"
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture
def zh_qt(tmp_path: Path) -> Iterator[None]:
    """This side's .ts compiled by pyside6-lrelease and installed for one test."""
    app = QApplication.instance() or QApplication([])
    qm = tmp_path / "pages.qm"
    lrelease = Path(sys.executable).with_name("pyside6-lrelease")
    subprocess.run([str(lrelease), str(TS), "-qm", str(qm)], check=True, capture_output=True)
    translator = QTranslator()
    assert translator.load(str(qm))
    app.installTranslator(translator)
    yield
    app.removeTranslator(translator)


def _menu_texts(menu: QMenu) -> list[str]:
    texts = []
    for act in menu.actions():
        if act.isSeparator():
            continue
        texts.append(act.text())
        if act.menu() is not None:
            texts += _menu_texts(act.menu())
    return texts


def test_every_menu_entry_is_chinese_with_its_accelerator(qtbot, zh_qt: None) -> None:
    window = MainWindow(persist=False)
    qtbot.addWidget(window)
    titles = [a.text() for a in window.menuBar().actions()]
    assert titles == ["文件(&F)", "视图(&V)", "帮助(&H)"]
    texts = [t for a in window.menuBar().actions() for t in _menu_texts(a.menu())]
    assert "新建(&N)" in texts and "另存为(&A)…" in texts and "决策(&D)" in texts and "后退(&B)" in texts
    assert "关于 gpu-tpu-app(&A)" in texts  # the {app} placeholder filled
    english = [t for t in texts if not CJK.search(t)]
    assert english == [], english
    for act in window.findChildren(QAction):
        if act.statusTip():
            assert CJK.search(act.statusTip()), act.statusTip()


def test_the_shortcuts_list_drops_chinese_accelerators(qtbot, zh_qt: None) -> None:
    window = MainWindow(persist=False)
    qtbot.addWidget(window)
    rows = dict(shortcut_rows(window.findChildren(QAction)))
    assert "新建" in rows and "另存为" in rows and "导出报告" in rows
    assert not any("(" in what or "&" in what for what in rows)


def test_the_navigation_column_and_title_fill_their_placeholders(qtbot, zh_qt: None) -> None:
    window = MainWindow(persist=False)
    qtbot.addWidget(window)
    assert [window.nav.item(i).text() for i in range(window.nav.count())] == ["决策", "探测", "学习"]
    n = len(window.recommendation().unanswered)
    assert n > 1
    assert window.nav_status.text() == f"目前的结论：暂无\n还有 {n} 个问题未回答"
    assert window.windowTitle() == "未命名[*] — gpu-tpu-app"
