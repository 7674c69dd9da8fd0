"""The Learn page in zh-Hans: the Chinese lesson pack's titles, the page's own words from
resources/text/learn.zh-Hans.toml, and the widget's strings through Qt's translator (.ts -> .qm)."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QTranslator

from gpu_tpu_app.core import texts
from gpu_tpu_app.core.lesson import load_lesson
from gpu_tpu_app.core.runs import RunFile
from gpu_tpu_app.ui.learn.glossary import GlossaryLinker, tooltip_html
from gpu_tpu_app.ui.learn.lesson_html import FAQ, GLOSSARY, OVERVIEW, PAGE_TITLES, QUOTES, SOURCES, LessonHtml, matches
from gpu_tpu_app.ui.shell.theme import theme_manager
from tests.ui.test_lesson_html import COLORS
from tools.i18n_allow import left_in_english

ROOT = Path(__file__).resolve().parents[2]
TS_FILE = ROOT / "resources" / "i18n" / "gpu_tpu_app_learn.zh_CN.ts"


def plain(body: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", body))


def english_fragments() -> list[str]:
    """The English page words' literal parts long enough to be telling (placeholders cut out)."""
    out = []
    for value in texts.read_text_file(texts.text_folder() / "learn.en.toml").values():
        for part in re.split(r"\{[a-z_]+\}", value):
            part = part.strip(" .,:;()")
            if len(part) >= 10 and re.search(r"[A-Za-z]{3}", part):
                out.append(part)
    return out


@pytest.fixture(scope="module")
def content() -> LessonHtml:
    lesson = load_lesson(language="zh-Hans")
    return LessonHtml(lesson, GlossaryLinker(lesson.glossary))


def test_every_zh_page_is_in_chinese(content: LessonHtml, compile_and_matmul_run: RunFile) -> None:
    lesson = content.lesson
    overview = plain(content.page(OVERVIEW, COLORS))
    assert "学习计划：AI 硬件基础 · 14 分钟音频课程 · 2026-04-22" in overview
    for topic in lesson.topics:
        assert topic.title in overview  # the contents list the Chinese topic titles
    assert "GPU · 工坊" in overview and "TPU · 流水线" in overview
    assert "另见：常见问题 · 术语表 · 全部知识来源" in overview
    assert "<a href='page:faq'>常见问题</a>" in content.page(OVERVIEW, COLORS)
    assert plain(content.page(FAQ, COLORS)).lstrip().startswith("常见问题")
    assert "（本应用补充，并非出自课程）" in plain(content.page(FAQ, COLORS))
    assert "课程的两条最佳语录" in plain(content.page(QUOTES, COLORS))
    assert "术语表" in plain(content.page(GLOSSARY, COLORS)) and "又称：" in plain(content.page(GLOSSARY, COLORS))
    assert "全部知识来源" in plain(content.page(SOURCES, COLORS))
    topic = plain(content.page("workflow", COLORS))
    assert "要点 3 · 如何在两者之间做选择" in topic and "开发流程与调试" in topic and "知识来源" in topic
    assert "打开探测页" in topic and "JAX 编译步骤" in topic
    content.runs = [compile_and_matmul_run]
    try:
        measured = plain(content.page("workflow", COLORS)) + plain(content.page("history", COLORS))
    finally:
        content.runs = []
    assert "在本机实测" in measured and "编译 250 ms" in measured and "最佳 250 GFLOP/s" in measured
    fragments = english_fragments()
    assert "MEASURED ON THIS MACHINE" in fragments  # the check below can see the English words
    for key in [*PAGE_TITLES, *lesson.topic_ids()]:
        body = plain(content.page(key, COLORS))
        left = [f for f in fragments if f in body]
        assert left == [], f"{key}: English page words left: {left}"
    assert "Measured evidence" not in measured and "best 250" not in measured


def test_zh_evidence_lines_use_chinese_punctuation(content: LessonHtml, compile_and_matmul_run: RunFile) -> None:
    # the measured lines beside the claims: full-width parentheses, commas and colons around the figures
    from gpu_tpu_app.ui.learn.lesson_html import evidence_lines

    assert evidence_lines("compile", [compile_and_matmul_run], language="zh-Hans") == [
        "下降 12 ms，编译 250 ms，首次调用 270 ms，稳态 400 µs（N=1024；Test CPU · jax；冒烟套件：只是功能检查，不是基准测试）"
    ]
    assert evidence_lines("matmul", [compile_and_matmul_run], language="zh-Hans") == [
        "最佳 250 GFLOP/s（float32，N=2048，Test CPU · jax；冒烟套件：只是功能检查，不是基准测试）"
    ]
    content.runs = [compile_and_matmul_run]
    try:
        measured = plain(content.page("workflow", COLORS))
    finally:
        content.runs = []
    assert "JAX 编译步骤：下降 12 ms" in measured
    assert not re.search(
        r"[\u4e00-\u9fff][:(,;]|[:(,;] ?[\u4e00-\u9fff]", measured.split("在本机实测")[1].split("\n")[0]
    )


def test_zh_tooltips_and_search(content: LessonHtml) -> None:
    lesson = content.lesson
    tip = tooltip_html(lesson.term("systolic array"), lesson)
    assert "<b>脉动阵列</b>（systolic array）" in tip and "来源：" in tip and "sources:" not in tip
    # Chinese has no spaces between words: a Chinese query matches inside the text
    assert matches("编译", content.searchable("workflow"))
    assert matches("调试 XLA", content.searchable("workflow"))
    assert not matches("编译器不存在的词", content.searchable("workflow"))
    assert matches("脉动", content.searchable(GLOSSARY))


@pytest.fixture
def translator(qapp, tmp_path: Path) -> Iterator[QTranslator]:
    """The Learn page's .ts compiled with pyside6-lrelease and installed, as the app installs it."""
    lrelease = shutil.which("pyside6-lrelease", path=str(Path(sys.executable).parent))
    assert lrelease, "pyside6-lrelease ships with PySide6"
    qm = tmp_path / "learn.qm"
    subprocess.run([lrelease, str(TS_FILE), "-qm", str(qm)], check=True, capture_output=True, timeout=60)
    tr = QTranslator()
    assert tr.load(str(qm))
    QCoreApplication.installTranslator(tr)
    yield tr
    QCoreApplication.removeTranslator(tr)


def test_the_zh_learn_page_shows_chinese_titles_and_widgets(qtbot, translator: QTranslator) -> None:
    from gpu_tpu_app.ui.learn.learn import LearnPage

    theme_manager().apply("light")
    lesson = load_lesson(language="zh-Hans")
    page = LearnPage(lesson)
    qtbot.addWidget(page)
    items = []
    it = page.tree.invisibleRootItem()
    for i in range(it.childCount()):
        head = it.child(i)
        items.append(head.text(0))
        items += [head.child(j).text(0) for j in range(head.childCount())]
    assert items[0] == "概览"
    for topic in lesson.topics:
        assert topic.title in items
    assert "1. 为什么 GPU 成了默认的加速器" in items
    assert {"更多", "常见问题", "最佳语录", "术语表", "全部知识来源"} <= set(items)
    assert page.search.placeholderText() == "搜索主题、论断、常见问题、术语表…"
    assert page.tree.invisibleRootItem().child(1).toolTip(0).startswith("要点 1：")
    page.show_topic("workflow")
    assert "开发流程与调试" in page.browser.toPlainText()
    page.search.setText("编译")
    assert page.match_label.text().endswith("个页面") or page.match_label.text().endswith("个主题匹配")
    page.search.setText("zzqqxx")
    assert page.match_label.text() == "没有匹配项。"
    assert page.tooltip_for("https://openxla.org/xla") == "在你的网页浏览器中打开：https://openxla.org/xla"


# -- the help guide -------------------------------------------------------------------------
CODE = re.compile(r"`[^`]+`")


def test_the_guide_is_shipped_per_language() -> None:
    from gpu_tpu_app import i18n
    from gpu_tpu_app.ui.shell.help import guide_markdown, guide_path

    for lang in i18n.LANGUAGES:
        assert guide_path(lang).name == f"guide.{lang}.md" and guide_path(lang).is_file()
    en, zh = guide_markdown("en"), guide_markdown("zh-Hans")
    assert en.startswith("# Using gpu-tpu-app\n") and zh.startswith("# 使用 gpu-tpu-app\n")
    heads = [re.findall(r"^#+ ", text, re.M) for text in (en, zh)]
    assert heads[0] == heads[1]  # the same sections
    assert CODE.findall(en) == CODE.findall(zh)  # the same commands, paths and file names, in order
    for paragraph in re.split(r"\n\s*\n", zh):
        words = CODE.sub(" ", paragraph).replace("gpu-tpu-app", " ")
        assert left_in_english(words) == [], paragraph


@pytest.fixture
def zh_language() -> Iterator[None]:
    from gpu_tpu_app import i18n

    i18n.set_language("zh-Hans")
    yield
    i18n.set_language(None)


def test_the_guide_dialog_shows_the_interface_language(qtbot, zh_language: None) -> None:
    from gpu_tpu_app.ui.shell.help import GuideDialog

    dialog = GuideDialog()
    qtbot.addWidget(dialog)
    shown = dialog.browser.toPlainText()
    assert shown.startswith("使用 gpu-tpu-app") and "工坊" in shown and "流水线" in shown


def test_the_chinese_guide_renders_without_stray_spaces_or_markup(qtbot) -> None:
    # Markdown turns a line break inside a paragraph into a space, which shows in Chinese ("都有， 用");
    # emphasis that ends in punctuation right before a Chinese character is not emphasis ("**检查我的模型…**会")
    from PySide6.QtGui import QTextDocument

    from gpu_tpu_app.ui.shell.help import guide_markdown

    doc = QTextDocument()
    doc.setMarkdown(guide_markdown("zh-Hans"))
    shown = doc.toPlainText()
    assert "*" not in CODE.sub("", shown), [line for line in shown.splitlines() if "*" in line]
    cjk = r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]"
    assert re.findall(f"{cjk} +{cjk}", shown) == []
    assert "**检查我的模型…**" in guide_markdown("zh-Hans") and "检查我的模型…" in shown
