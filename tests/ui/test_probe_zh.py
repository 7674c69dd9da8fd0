"""The probe / charts / estimator side of the window in Simplified Chinese: the charts' Qt-free words
(resources/text/charts.*, terms.*) and the widgets' words (resources/i18n/gpu_tpu_app_{probe,charts}.zh_CN.ts),
each with its placeholders kept."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QTranslator
from PySide6.QtWidgets import QApplication

from gpu_tpu_app.core.runs import BackendStatus
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.shared.trust import point_flags
from gpu_tpu_app.ui.charts.data import (
    ChartData,
    ChartRun,
    category_name,
    empty_reason,
    kernel_name,
    point_info,
    point_readout,
    wrap_text,
)
from tests.ui.test_charts import _data, _r, _run, _with_stats

ROOT = Path(__file__).resolve().parents[2]
#: the Probe page's parts: its widgets and its charts
TS = [ROOT / "resources" / "i18n" / f"gpu_tpu_app_{part}.zh_CN.ts" for part in ("probe", "charts")]


@pytest.fixture
def zh_qt(zh: None, compiled_qm: Callable[[Path], Path]) -> Iterator[None]:
    """zh-Hans, with this side's .ts compiled by pyside6-lrelease (once per session) and installed for the test."""
    app = QApplication.instance() or QApplication([])
    translators = [QTranslator() for _ in TS]
    for translator, ts in zip(translators, TS):
        assert translator.load(str(compiled_qm(ts)))
        app.installTranslator(translator)
    yield
    for translator in translators:
        app.removeTranslator(translator)


def test_kernel_and_category_names_are_translated_and_ids_stay(zh: None) -> None:
    assert kernel_name("matmul") == "矩阵乘法"
    assert category_name("transfer h2d-pinned") == "传输 h2d-pinned"
    assert kernel_name("test_sleep") == "test_sleep"  # a kernel the registry lacks keeps its id
    assert text("terms.kernel.matmul", language="en") == "matmul"


def test_a_hover_readout_in_chinese_keeps_its_figures(zh: None) -> None:
    r = _with_stats(_r("matmul", 1e11, "flops", 512, "float32"), 0.0, 1)
    readout = point_readout(point_info(ChartRun(_run([r]), "run 0", 0), r, point_flags(r)))
    lines = readout.splitlines()
    assert lines[1] == "矩阵乘法"
    assert lines[2].startswith("数值：") and "（中位数）" in lines[2]
    assert "大小：512×512" in readout and "数据类型：float32" in readout and "重复次数：1" in readout
    assert "Value:" not in readout and "Reps:" not in readout


def test_an_empty_chart_in_chinese_wraps_between_characters(zh: None) -> None:
    absent = _run([]).model_copy(
        update={"backends": [BackendStatus(backend="jax", available=False, reason="jax 没有安装" * 6)]}
    )
    out = empty_reason(_data(absent), ("compile",), "JAX 编译结果", "提示", "jax")
    lines = out.splitlines()
    assert len(lines) > 1, "a long Chinese reason must wrap"
    assert all(sum(2 if ord(c) > 0x2E80 else 1 for c in line) <= 72 for line in lines)
    assert "".join(lines).startswith("没有JAX 编译结果：需要 jax 后端，但它不可用（")
    assert empty_reason(ChartData(), ("compile",), "JAX 编译结果", "提示", "jax") == "还没有JAX 编译结果：提示"


def test_wrapping_never_starts_a_line_with_a_closing_mark() -> None:
    lines = wrap_text("测试" * 30 + "，结束。", 20)
    assert all(not line.startswith(("，", "。")) for line in lines)
    assert "".join(lines) == "测试" * 30 + "，结束。"
    # English text wraps as before: at spaces only
    assert wrap_text("a long-word and more", 8) == ["a", "long-word", "and more"]


def test_the_charts_speak_chinese(zh_qt: None, qtbot) -> None:
    from gpu_tpu_app.ui.charts.view import ChartsView

    view = ChartsView(ChartData)
    qtbot.addWidget(view)
    assert [view.tabText(i) for i in range(view.count())] == [
        "矩阵乘法",
        "带宽",
        "屋顶线（roofline）",
        "编译（JAX）",
        "集合通信",
    ]
    assert view.throughput.title == "矩阵乘法吞吐量"
    assert view.collective.run_button.text() == "跨 2 个进程测量"
    assert view.collective.op.itemText(0) == "all-reduce（全归约）"
    assert view.collective.op.itemData(0) == "all_reduce"  # the id stays
    assert QCoreApplication.translate("_Chart", "(and {n} more)").format(n=4) == "（还有 4 个）"


def test_every_probe_message_is_translated_with_its_placeholders() -> None:
    import re
    import xml.etree.ElementTree as ET

    from tools.i18n_allow import left_in_english

    ph = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}|%n")
    messages = [m for ts in TS for m in ET.parse(ts).getroot().iter("message")]
    count = 0
    for m in messages:
        src = m.findtext("source") or ""
        tr = m.find("translation")
        assert tr is not None and tr.get("type") != "unfinished", src
        forms = [f.text or "" for f in tr.iter("numerusform")] or [tr.text or ""]
        for form in forms:
            assert form.strip(), src
            assert sorted(ph.findall(form)) == sorted(ph.findall(src)), (src, form)
            assert left_in_english(form) == [], (src, form)
            if re.search(r"&\w", src):  # a shortcut key keeps its marker
                assert re.search(r"&\w", form), (src, form)
        count += 1
    assert count > 50


def test_the_memory_header_is_marked_as_the_table_words_it() -> None:
    from gpu_tpu_app.ui.probe.estimator_table import EST_COLUMNS, MEMORY_COLUMN, MEMORY_HEADER_WORDS

    assert EST_COLUMNS[MEMORY_COLUMN] == MEMORY_HEADER_WORDS


def test_the_estimator_speaks_chinese_and_keeps_its_ids(zh_qt: None, qtbot) -> None:
    from gpu_tpu_app.core.catalog import load_catalog
    from gpu_tpu_app.ui.probe.estimator_card import EstimatorCard
    from gpu_tpu_app.ui.probe.estimator_table import EST_COLUMNS

    card = EstimatorCard(load_catalog())
    qtbot.addWidget(card)
    heads = [card.table.horizontalHeaderItem(i).text() for i in range(len(EST_COLUMNS))]
    assert heads[0] == "芯片" and heads[6] == "内存\n需要 / 可用" and heads[3] == "MFU"
    assert card.message.text() == "输入模型参数量即可查看估算。"
    assert card.mode_combo.itemText(1) == "推理" and card.mode_combo.itemData(1) == "inference"
    assert card.model_inputs.checkpoint_combo.itemText(0) == "自动（放得下的最快方式）"
    assert card.model_inputs.checkpoint_combo.itemData(0) == "auto"
    card.params_edit.setText("7B")
    card.tokens_edit.setText("x")
    card._inputs_changed()
    assert card.message.text().startswith("请检查输入：")
    card.tokens_edit.setText("1T")
    card._inputs_changed()
    assert "总计" in card.message.text() and "\n来源：" in card.rules.text()


def test_the_results_table_and_run_controls_speak_chinese_and_keep_ids(zh_qt: None, qtbot) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication, QHBoxLayout, QWidget

    from gpu_tpu_app.ui.probe.results_model import COLUMNS, ResultsModel, run_label, status_text
    from gpu_tpu_app.ui.probe.run_controls import RunControls

    model = ResultsModel()
    heads = [model.headerData(i, Qt.Orientation.Horizontal) for i in range(len(COLUMNS))]
    assert heads[:3] == ["运行", "内核", "后端"] and COLUMNS[0] == "Run"
    assert status_text(_r("matmul", None, "flops", 512, status="skipped")) == "已跳过"
    run = _run([])
    assert "冒烟（功能检查，不是基准测试）" in run_label(run)
    controls = RunControls("quick", QApplication.style())
    host = QWidget()
    qtbot.addWidget(host)
    bar = QHBoxLayout(host)
    controls.add_settings(bar)
    controls.add_buttons(bar)
    assert [controls.suite.itemText(i) for i in range(3)] == ["冒烟", "快速", "完整"]
    assert controls.suite_id() == "quick"
    controls.set_suite("full")
    assert controls.suite_id() == "full" and controls.budget.itemText(0) == "套件默认（10 分钟）"
    assert controls.request(None).suite == "full"
    assert controls.kernels.text() == "内核：全部"
    assert controls.kernels.actions_["matmul"].text() == "矩阵乘法"
    controls.kernels.set_checked(["matmul"])
    assert controls.kernels.text() == "内核：矩阵乘法" and list(controls.request(None).kernels) == ["matmul"]


def test_the_device_list_speaks_chinese(zh_qt: None, qtbot) -> None:
    from gpu_tpu_app.core.runs import DeviceInfo
    from gpu_tpu_app.ui.probe.devices_view import DevicesView, device_tooltip

    view = DevicesView()
    qtbot.addWidget(view)
    assert view.headerItem().text(0) == "设备"
    view.set_backend(BackendStatus(backend="jax", available=False, reason="jax is not installed"), [])
    view.set_backend(
        BackendStatus(backend="torch", available=True), [DeviceInfo(backend="torch", platform="cpu", name="Test CPU")]
    )
    tops = [view.topLevelItem(i).text(0) for i in range(view.topLevelItemCount())]
    assert tops == ["torch：1 台设备", "jax：不可用"]
    dev = DeviceInfo(backend="torch", platform="cpu", name="Test CPU", memory_bytes=2**34)
    assert "内存：16.0 GiB" in device_tooltip(dev)


def test_the_model_check_bar_speaks_chinese_and_keeps_chip_counts(zh_qt: None, qtbot) -> None:
    from gpu_tpu_app.ui.probe.model_check import ModelCheckBar

    bar = ModelCheckBar()
    qtbot.addWidget(bar)
    assert bar.button.text() == "检查我的模型…"
    texts = {bar.chips.itemData(i): bar.chips.itemText(i) for i in range(bar.chips.count())}
    assert texts[0] == "不为 TPU 编译" and all(texts[n] == f"{n} 块芯片" for n in texts if n)
    bar._finished(None)
    assert bar.status.text() == "检查已取消；回答保持原样。"
    assert bar.envs.add_button.text() == "添加…"


def test_the_environment_line_uses_chinese_separators(zh_qt: None) -> None:
    # "torch …找到 CPU; jax …" read with an ASCII semicolon between two Chinese clauses
    from gpu_tpu_app.core.environments import PythonEnv
    from gpu_tpu_app.ui.probe.envs_view import build_words, frameworks_words

    env = PythonEnv.model_validate(
        {
            "interpreter": "/venv/bin/python",
            "name": "venv",
            "kind": "venv",
            "usable": True,
            "versions": {"torch": "2.13.0+cpu", "jax": "0.10.2"},
            "frameworks": [
                {"framework": "torch", "devices": ["cpu", "cuda:0 NVIDIA L4"]},
                {"framework": "jax", "devices": ["cpu"]},
            ],
        }
    )
    words = frameworks_words(env)
    assert words.startswith("torch 2.13.0（仅 CPU 版本） 找到 CPU、NVIDIA L4；jax 0.10.2 找到 CPU"), words
    assert build_words("torch +cpu, jax cpu") == "PyTorch 仅 CPU 版本、CPU 版 JAX"
