"""pyqtgraph's own words in the window, in Simplified Chinese: a chart's right-click "Export..." and the export
dialog it opens (resources/i18n/gpu_tpu_app_pyqtgraph.zh_CN.ts, loaded with the window's other translations)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QLabel, QPushButton

from gpu_tpu_app import qm
from gpu_tpu_app.ui.shell import translations

TS = Path(__file__).resolve().parents[2] / "resources" / "i18n" / "gpu_tpu_app_pyqtgraph.zh_CN.ts"


@pytest.fixture
def zh_pyqtgraph(tmp_path: Path) -> Iterator[None]:
    from PySide6.QtCore import QTranslator

    app = QApplication.instance() or QApplication([])
    translator = QTranslator()
    assert translator.load(str(qm.compile_ts(TS, tmp_path / "pyqtgraph.qm")))
    app.installTranslator(translator)
    yield
    app.removeTranslator(translator)


def test_the_window_loads_this_file_with_its_other_translations() -> None:
    assert qm.qm_for(TS) in translations.window_qm_files("zh-Hans")


def test_a_charts_scene_menu_and_the_export_dialog_speak_chinese(qtbot, zh_pyqtgraph: None) -> None:
    import pyqtgraph as pg
    from pyqtgraph.GraphicsScene.exportDialog import ExportDialog

    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    assert [a.text() for a in plot.scene().contextMenu] == ["导出…"]
    dialog = ExportDialog(plot.scene())
    qtbot.addWidget(dialog)
    dialog.show(plot.getPlotItem())
    assert dialog.windowTitle() == "导出"
    buttons = {b.text() for b in dialog.findChildren(QPushButton)}
    assert {"导出", "关闭", "复制"} <= buttons, buttons
    labels = {lab.text() for lab in dialog.findChildren(QLabel)}
    assert {"要导出的项：", "导出格式", "导出选项"} <= labels, labels
    formats = [dialog.ui.formatList.item(i).text() for i in range(dialog.ui.formatList.count())]
    assert "图像文件（PNG、TIF、JPG 等）" in formats and "可缩放矢量图形（SVG）" in formats, formats
    dialog.close()
