"""The window's estimator in zh-Hans: every cell, tooltip and header of its table, with prices from the
shipped table and a local SkyPilot catalogue, a measured device and the user's MFU, holds no English the app
wrote (tests/i18n_allow.left_in_english on each line, and the English words of the price notes and the rows
the app names), and the same figures as in English."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QTranslator
from PySide6.QtWidgets import QApplication

from gpu_tpu_app import i18n
from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.estimate import EstimateRequest
from gpu_tpu_app.core.lesson import load_lesson
from gpu_tpu_app.core.price_import import read_path
from gpu_tpu_app.core.prices import shipped_book
from gpu_tpu_app.core.runs import RunFile
from gpu_tpu_app.ui.result.result_page import ResultPage
from tests.builders import matmul_run
from tests.core.test_estimate_zh_rows import ENGLISH
from tests.core.test_prices import GCP_VMS, _write
from tools.i18n_allow import left_in_english

ROOT = Path(__file__).resolve().parents[2]
TS = ROOT / "resources" / "i18n" / "gpu_tpu_app_probe.zh_CN.ts"


def _run() -> RunFile:
    return matmul_run(memory_bytes=32 << 30, size=2048, value=3e11, suite="quick", complete=False)


def _table_texts(qtbot, tmp_path: Path, request: EstimateRequest) -> list[list[str]]:
    """Each row of the estimator's table as its cells' texts and tooltips, after the header's tooltips."""
    page = ResultPage(load_lesson(), load_catalog())
    qtbot.addWidget(page)
    book = shipped_book().merged(read_path(_write(tmp_path / "gcp" / "vms.csv", GCP_VMS)))
    page.set_price_book(book)
    page.set_runs([_run()])
    page.set_estimate_request(request)
    table = page.estimator.table
    header = [table.horizontalHeaderItem(c).toolTip() for c in range(table.columnCount())]
    rows = [header]
    for r in range(table.rowCount()):
        cells = [table.item(r, c) for c in range(table.columnCount())]
        rows.append([t for item in cells if item is not None for t in (item.text(), item.toolTip())])
    assert table.rowCount() > 20
    return rows


@pytest.mark.parametrize(
    "request_",
    [
        EstimateRequest(params=7e9, chips=8, mfu=0.4),
        EstimateRequest(params=8e9, mode="inference", tokens=1e9, batch=8),
    ],
    ids=["training-your-mfu", "serving"],
)
def test_the_estimator_in_chinese_has_no_english_of_ours_and_the_same_figures(
    qtbot, tmp_path: Path, request_: EstimateRequest, compiled_qm: Callable[[Path], Path]
) -> None:
    english = _table_texts(qtbot, tmp_path / "en", request_)
    with _zh(compiled_qm):
        chinese = _table_texts(qtbot, tmp_path / "zh", request_)
    seen = "\n".join(t for row in chinese for t in row)
    for words in ENGLISH:
        assert words not in seen, words
    # the catalogue's own data and evidence notes (resources/catalog/chips.toml) are another part's to translate:
    # left out here while they read as in English, checked as soon as they read otherwise
    catalog = load_catalog()
    theirs = [c.name for c in catalog.chips] + [catalog.mfu_for(c)[2] for c in catalog.chips]
    theirs += [catalog.decode.describe()] if catalog.decode is not None else []
    theirs.sort(key=len, reverse=True)
    for line in seen.splitlines():
        for words in theirs:
            line = line.replace(words, " ")
        assert not left_in_english(line), line
    assert re.search(r"^Example CPU.*（实测）$", seen, re.M)  # the measured device's row
    assert ("由用户设定" in seen) == (request_.mfu is not None)
    assert "［" in seen and "$/h" in seen  # the price notes, in Chinese brackets
    figures = re.compile(r"\$\d+(?:,\d{3})*(?:\.\d+)?|\d+(?:,\d{3})*(?:\.\d+)? \$/h")
    assert len(english) == len(chinese)
    for en_row, zh_row in zip(english[1:], chinese[1:], strict=True):
        assert sorted(figures.findall(" ".join(en_row))) == sorted(figures.findall(" ".join(zh_row)))


class _zh:
    """zh-Hans with the estimator's translations installed, as a context manager (one test compares both)."""

    def __init__(self, compiled_qm: Callable[[Path], Path]) -> None:
        self._qm = compiled_qm(TS)

    def __enter__(self) -> None:
        self._before = i18n.current_language()
        i18n.set_language("zh-Hans")
        self._translator = QTranslator()
        assert self._translator.load(str(self._qm))
        QApplication.instance().installTranslator(self._translator)

    def __exit__(self, *_exc: object) -> None:
        QApplication.instance().removeTranslator(self._translator)
        i18n.set_language(self._before)


def test_a_broken_rule_is_said_in_the_language_in_use(qtbot, compiled_qm: Callable[[Path], Path]) -> None:
    """The rules across inputs raise text ids (core.estimate_rules): the window says them in Chinese, not pydantic's
    English."""
    with _zh(compiled_qm):
        page = ResultPage()
        qtbot.addWidget(page)
        card = page.estimator
        card.params_edit.setText("8B")
        card.shape_edits["heads"].setText("32")
        card.shape_edits["kv_heads"].setText("64")
        card.shape_edits["kv_heads"].editingFinished.emit()
        assert card.request() is None
        assert "KV 头数不能超过注意力头数" in card.message.text()
        assert "kv_heads cannot exceed heads" not in card.message.text()


def test_latency_inputs_and_columns_in_chinese(qtbot, compiled_qm: Callable[[Path], Path]) -> None:
    """The latency targets' rule is said at its field in Chinese, and the latency columns' headers and missed
    targets read in Chinese."""
    from gpu_tpu_app.core.estimate import EstimateRequest
    from gpu_tpu_app.core.texts import text
    from gpu_tpu_app.ui.probe.estimator_table import LATENCY_FIRST

    with _zh(compiled_qm):
        page = ResultPage()
        qtbot.addWidget(page)
        card, inputs = page.estimator, page.estimator.model_inputs
        assert inputs.ttft_edit.placeholderText() == "无目标"
        page.set_estimate_request(EstimateRequest(params=8e9, tokens=1e9, mode="inference"))
        inputs.rate_edit.setText("5")
        inputs.rate_edit.editingFinished.emit()
        assert card.request() is None
        assert card.field_errors[inputs.output_edit].text() == "请求率需要输出长度：每个请求生成的 token 数"
        inputs.rate_edit.setText("")
        inputs.tpot_edit.setText("1")
        inputs.tpot_edit.editingFinished.emit()
        header = card.table.horizontalHeaderItem(LATENCY_FIRST).text()
        assert header == text("estimate.latency.batch", language="zh-Hans") and header != "largest batch"
        assert not card.table.isColumnHidden(LATENCY_FIRST)
        h100 = next(r for r in range(card.table.rowCount()) if card.table.item(r, 0).text() == "NVIDIA H100 SXM")
        missed = card.table.item(h100, LATENCY_FIRST).text()
        assert "over the" not in missed and "ms" in missed and re.search("[\u4e00-\u9fff]", missed)
