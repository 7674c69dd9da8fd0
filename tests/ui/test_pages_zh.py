"""The decide / learn / session / report side of the window in Simplified Chinese: its words through Qt's
tr route, translated in resources/i18n/gpu_tpu_app_{shell,decide,result}.zh_CN.ts (compiled here with pyside6-lrelease),
accelerators kept as "文件(&F)", placeholders filled."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QTranslator
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QLabel, QMenu

from gpu_tpu_app import i18n
from gpu_tpu_app.ui.shell.help import shortcut_rows
from gpu_tpu_app.ui.shell.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[2]
#: the parts of the pages these tests walk: the frame, the Decide page and the Result page
TS = [ROOT / "resources" / "i18n" / f"gpu_tpu_app_{part}.zh_CN.ts" for part in ("shell", "decide", "result")]
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture
def zh_qt(compiled_qm: Callable[[Path], Path]) -> Iterator[None]:
    """zh-Hans for one test: the language set, this side's .ts compiled by pyside6-lrelease (once per session)
    and installed."""
    before = i18n.current_language()
    i18n.set_language("zh-Hans")
    app = QApplication.instance() or QApplication([])
    translators = [QTranslator() for _ in TS]
    for translator, ts in zip(translators, TS):
        assert translator.load(str(compiled_qm(ts)))
        app.installTranslator(translator)
    yield
    for translator in translators:
        app.removeTranslator(translator)
    i18n.set_language(before)


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


def test_the_welcome_card_and_the_gauge_speak_chinese(qtbot, zh_qt: None) -> None:
    from gpu_tpu_app.core.decision import QUESTIONS
    from gpu_tpu_app.ui.result.gauge import VerdictGauge
    from gpu_tpu_app.ui.shell.welcome import WelcomeCard

    card = WelcomeCard()
    qtbot.addWidget(card)
    assert card.start_button.text() == "开始回答问题(&S)"
    shown = [w.text() for w in card.findChildren(QLabel)]
    assert "欢迎使用 gpu-tpu-app" in shown and "决策" in shown and "探测" in shown
    assert any(t.startswith(f"{len(QUESTIONS)} 个问题约需 ") for t in shown)
    assert not [t for t in shown if not CJK.search(t)]
    gauge = VerdictGauge()
    qtbot.addWidget(gauge)
    gauge.set_value(0.5, "either", "medium")
    assert gauge.accessibleName() == "结论仪表"
    assert gauge.toolTip() == "结论 两者皆可，得分 +0.50（-1 为工坊 GPU，+1 为流水线 TPU），置信度中"


def test_the_summary_card_keeps_its_figures_in_chinese(qtbot, zh_qt: None) -> None:
    from gpu_tpu_app.core.catalog import load_catalog
    from gpu_tpu_app.shared.trust import format_ratio
    from gpu_tpu_app.ui.result.summary_card import SummaryCard
    from tests.core.test_trust import BUSY

    card = SummaryCard()
    qtbot.addWidget(card)
    assert card.chip_button.text() == "与芯片比较"
    assert card.figures.text().startswith("本机还没有可信的")
    card.set_runs([BUSY])
    assert "矩阵乘法：33.6 GFLOP/s float32" in card.figures.text()
    assert "内存带宽：20 GB/s" in card.figures.text()
    assert card.note.text() == "在「与芯片比较」中选择芯片即可看到比值。"
    h100 = load_catalog().chip("h100-sxm")
    card.set_chips([h100])
    matmul = format_ratio(3.36e10 / h100.peak_flops("float32"))
    times = f"{h100.peak_flops('float32') / 3.36e10:,.0f}"
    assert card.note.text().startswith(f"每个数值都是本机最佳值与该芯片公布值之比：{matmul} 表示 {h100.name} 的")
    assert f"是本机 33.6 GFLOP/s 的 {times} 倍。" in card.note.text()
    assert card.cells()[0] == ["", "矩阵乘法", "内存带宽"]


def test_the_wizard_chrome_is_chinese(qtbot, zh_qt: None) -> None:
    from gpu_tpu_app.core.decision import PAGES, question_count
    from gpu_tpu_app.core.lesson import load_lesson
    from gpu_tpu_app.ui.decide.wizard import DecideWizard

    wizard = DecideWizard(load_lesson())
    qtbot.addWidget(wizard)
    assert wizard.back_button.text() == "上一页(&B)" and wizard.next_button.text() == "下一页(&N)"
    assert wizard.step_labels[-1].text() == f"{len(PAGES) + 1}  结果"
    first = wizard.pages[0].cards
    assert wizard.count_label.text() == f"本页已回答 0 / {len(first)} · 共已回答 0 / {question_count()}"
    card = first[0]
    assert card.buttons[None].text() == "跳过 / 不确定"
    assert card.learn.text().startswith("了解更多：") and card.learn.text().endswith(" →")
    wizard.go_to_page(len(PAGES) - 1)
    assert wizard.next_button.text() == "下一页：查看结果(&N)"
    assert wizard.step_labels[0].accessibleName().endswith("，已完成")


def test_the_result_page_chrome_is_chinese(qtbot, zh_qt: None) -> None:
    from gpu_tpu_app.core.catalog import load_catalog
    from gpu_tpu_app.core.decision import Answers, decide, question_count
    from gpu_tpu_app.core.lesson import load_lesson
    from gpu_tpu_app.core.report import factor_label
    from gpu_tpu_app.ui.result.result_page import ResultPage
    from tests.ui.test_result_page import TPU

    page = ResultPage(load_lesson(), load_catalog())
    qtbot.addWidget(page)
    assert page.edit_button.text() == "修改回答(&C)" and page.blockers_card.heading.text() == "硬性约束"
    assert page.notes_edit.placeholderText().startswith("你对这个决策的备注")
    page.set_recommendation(decide(Answers()))
    assert page.headline.text() == "尚无结论"
    assert page.summary.text().startswith(f"已回答 0 / {question_count()} 个问题：至少回答 ")
    rec = decide(TPU)
    page.set_recommendation(rec)
    first = page.reasons_box.itemAt(0).widget().text()
    assert "你的回答：" in first and "来源：" in first and "在学习页打开：" in first
    assert "Your answer" not in first and "Sources:" not in first
    n = len(rec.unanswered)
    assert page.open_label.text().startswith(f"跳过了 {n} 个问题" if n != 1 else "跳过了 1 个问题")
    flips = page.flips_label.text()
    assert "，而不是" in flips and " instead of " not in flips and "</a>：" in flips
    assert factor_label(rec.flips[0].factor) in flips


def test_the_window_commands_start_up_lines_are_chinese(tmp_path: Path) -> None:
    from gpu_tpu_app.ui.shell.app import display_problem, headless_hint

    before = i18n.current_language()
    i18n.set_language("zh-Hans")
    try:
        problem = display_problem(environ={})
        if sys.platform.startswith("linux"):
            assert problem is not None and problem.startswith("没有可以打开窗口的显示器")
            assert problem.endswith(headless_hint()) and "gpu-tpu-app --help" in problem
    finally:
        i18n.set_language(before)
    session = ROOT / "docs" / "screenshots" / "example-session.json"
    proc = subprocess.run(
        [sys.executable, "-m", "gpu_tpu_app", "--lang", "zh-Hans", str(session), str(session)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        cwd=tmp_path,
    )
    assert proc.returncode == 2
    assert f"{session}：一次只能打开一个会话：已经打开了 {session}" in proc.stderr


def test_the_notice_the_report_dialog_and_the_recent_menu_are_chinese(qtbot, zh_qt: None, tmp_path: Path) -> None:
    from gpu_tpu_app.ui.result.report_dialog import ReportDialog
    from gpu_tpu_app.ui.shell.notice import NoticeBar

    notice = NoticeBar()
    qtbot.addWidget(notice)
    notice.show_written("已保存会话", tmp_path / "plan.json")
    assert notice.text.text() == f"已保存会话：{(tmp_path / 'plan.json').resolve()}"
    assert notice.folder_button.text() == "打开文件夹" and notice.dismiss_button.text() == "关闭"
    dialog = ReportDialog("# r", "<h1>r</h1>", tmp_path / "r")
    qtbot.addWidget(dialog)
    assert dialog.windowTitle() == "导出报告" and dialog.save_button.text() == "保存(&S)…"
    window = MainWindow(persist=False)
    qtbot.addWidget(window)
    assert [a.text() for a in window.recent_menu.actions()] == ["没有最近的会话"]
    assert window.recent_menu.title() == "最近打开(&R)"
