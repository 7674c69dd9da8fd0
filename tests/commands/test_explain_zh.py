"""`gpu-tpu-app explain` in zh-Hans: Chinese text laid out by terminal columns, JSON unchanged (English)."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterator

import pytest

from gpu_tpu_app import i18n
from gpu_tpu_app.cli import main
from gpu_tpu_app.core import texts
from gpu_tpu_app.core.columns import NO_LINE_END, NO_LINE_START, display_width, wrap
from gpu_tpu_app.core.lesson import load_lesson
from tests.core.test_lesson import QUOTE_1, QUOTE_2

WIDTH = 100
PAGES = [[], ["faq"], ["glossary"], ["quotes"], ["sources"], *([t] for t in load_lesson(language="en").topic_ids())]


@pytest.fixture(autouse=True)
def terminal_width(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", str(WIDTH))


@pytest.fixture
def lang(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """--lang also sets GPU_TPU_APP_LANG for child processes: put it back, and the language, afterwards."""
    monkeypatch.delenv(i18n.LANG_ENV, raising=False)
    yield
    monkeypatch.undo()
    i18n.set_language(None)


def run(capsys: pytest.CaptureFixture[str], language: str, *argv: str) -> tuple[int, str, str]:
    code = main(["explain", *argv, "--lang", language])
    out, err = capsys.readouterr()
    return code, out, err


def english_fragments() -> list[str]:
    out = []
    for value in texts.read_text_file(texts.text_folder() / "explain.en.toml").values():
        for part in re.split(r"\{[a-z_]+\}", value):
            part = part.strip(' .,:;()|-"')
            if len(part) >= 4 and re.search(r"[A-Za-z]{3}", part) and part not in ("gpu-tpu-app explain TOPIC",):
                out.append(part)
    return out


def test_contents_and_topics_print_in_chinese(capsys: pytest.CaptureFixture[str], lang: None) -> None:
    zh = load_lesson(language="zh-Hans")
    code, out, err = run(capsys, "zh-Hans")
    assert (code, err) == (0, "")
    assert "学习计划：AI 硬件基础 | 主持声音 Lena | 14 分钟 | 2026-04-22 | AI、技术、商业" in out
    for insight in zh.insights:
        assert f"{insight.number}. {insight.title}" in out
    for topic in zh.topics:
        assert topic.title in out
    assert "另见：faq, glossary, quotes, sources" in out  # the page names are the command's arguments

    code, out, err = run(capsys, "zh-Hans", "architecture")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "架构：众多灵活的核心与大型矩阵单元  [architecture]"
    assert lines[1] == "要点 2：TPU 最擅长的场景"
    head = next(i for i, line in enumerate(lines) if line.startswith("GPU（工坊）"))
    assert "TPU（流水线）" in lines[head]
    table = [line for line in lines[head:] if " | " in line]
    # the two columns line up on screen: the divider sits at the same terminal column on every row
    columns = {display_width(line[: line.index(" | ")]) for line in table}
    assert len(columns) == 1 and columns.pop() == (WIDTH - 3) // 2
    assert "脉动阵列" in out and "知识来源：" in out
    assert "在本机上查看：探测内核 matmul, model_step" in out


@pytest.mark.parametrize("argv", PAGES, ids=lambda a: a[0] if a else "contents")
def test_every_page_is_chinese_and_fits_the_terminal(
    capsys: pytest.CaptureFixture[str], lang: None, argv: list[str]
) -> None:
    code, out, err = run(capsys, "zh-Hans", *argv)
    assert (code, err) == (0, "")
    for line in out.splitlines():
        # a URL is never broken, so only a line holding one may be wider
        assert display_width(line) <= WIDTH or "https://" in line, line
        assert not line.lstrip().startswith(tuple(NO_LINE_START)), line
    left = [f for f in english_fragments() if f in out]
    assert left == [], f"English words left: {left}"


def test_extras_in_chinese(capsys: pytest.CaptureFixture[str], lang: None) -> None:
    out = run(capsys, "zh-Hans", "quotes")[1]
    assert out.startswith("课程的最佳语录\n")
    flat = " ".join(out.split())
    assert f"「{QUOTE_1}」" in flat and f"「{QUOTE_2}」" in flat  # verbatim, in the lesson's language
    assert "—— 「GPU vs TPU: Choosing Your AI Engine」的最佳语录" in flat
    faq = run(capsys, "zh-Hans", "faq")[1]
    assert faq.startswith("常见问题\n") and "问：A100 是什么？" in faq and "答：" in faq
    assert "哪些框架能在TPU上运行？（本应用补充，并非出自课程）" in "".join(faq.split())
    assert "脉动阵列（systolic array）" in run(capsys, "zh-Hans", "glossary")[1]
    assert run(capsys, "zh-Hans", "sources")[1].startswith("全部知识来源（")


@pytest.mark.parametrize("argv", PAGES, ids=lambda a: a[0] if a else "contents")
def test_json_is_english_in_every_language(capsys: pytest.CaptureFixture[str], lang: None, argv: list[str]) -> None:
    english = run(capsys, "en", *argv, "--format", "json")
    chinese = run(capsys, "zh-Hans", *argv, "--format", "json")
    assert english == chinese and english[0] == 0


def test_unknown_topic_in_chinese(capsys: pytest.CaptureFixture[str], lang: None) -> None:
    code, out, err = run(capsys, "zh-Hans", "nope")
    assert (code, out) == (2, "")
    assert err.startswith("错误：未知主题 'nope'（可选：history, ") and err.count("\n") == 1


# -- columns.wrap ---------------------------------------------------------------------------
@pytest.mark.parametrize("width", [28, 33, 48, 80])
def test_wrap_breaks_chinese_between_characters(width: int) -> None:
    zh = load_lesson(language="zh-Hans")
    for text in [c.text for t in zh.topics for c in t.gpu.claims + t.tpu.claims] + [f.answer for f in zh.faq]:
        lines = wrap(text, width, "- ", "  ")
        assert all(display_width(line) <= width for line in lines), (width, lines)
        assert all(line[2:3] not in NO_LINE_START for line in lines[1:]), lines
        assert all(line[-1:] not in NO_LINE_END for line in lines), lines
        # nothing lost or added but the breaks: the spaces between Chinese and Latin words stay
        assert "".join(line[2:] for line in lines).replace(" ", "") == text.replace(" ", "")


def test_wrap_leaves_english_to_textwrap() -> None:
    text = "Even a best-case BF16 matrix multiply reaches only about 80-87% of the advertised peak"
    expected = textwrap.wrap(text, width=30, initial_indent="- ", subsequent_indent="  ", break_on_hyphens=False)
    assert wrap(text, 30, "- ", "  ") == expected and len(expected) == 4
    assert wrap("", 30, "Q: ") == ["Q:"]
    assert display_width("GPU（工坊）") == 11
