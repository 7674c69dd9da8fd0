"""The core's sentences in zh-Hans: a report (Markdown, HTML) of a real session, the estimate table, the
verdict's and the numbers' words. Every text comes from resources/text/<area>.zh-Hans.toml; the English
output of the same calls is held byte for byte by test_report.py, test_readme.py and the command tests."""

from __future__ import annotations

import re
import unicodedata

import pytest

from gpu_tpu_app import i18n
from gpu_tpu_app.commands.estimate import format_table
from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.decision import QUESTIONS, Answers, decide
from gpu_tpu_app.core.estimate import EstimateRequest, estimate
from gpu_tpu_app.core.estimate.text import FAMILY_WORDS, FITS_WORDS, estimate_cells, memory_tip
from gpu_tpu_app.core.lesson import load_lesson
from gpu_tpu_app.core.report import build_html, build_markdown, session_estimate
from gpu_tpu_app.core.texts import read_text_file, text, text_folder
from gpu_tpu_app.core.verdict_text import headline, verdict_change, verdict_summary, verdict_words
from gpu_tpu_app.core.wording import format_duration, version_words
from tests.core.test_report import BLOCKED, TPU_ANSWERS, run, session
from tools.i18n_allow import CJK


def _texts(area: str, language: str) -> dict[str, str]:
    return dict(read_text_file(text_folder() / f"{area}.{language}.toml"))


def _real_session(answers: Answers = TPU_ANSWERS):
    """A session as File > Save writes one: answers, a probe run, notes and estimator inputs with a price."""
    return session(
        answers,
        runs=[run()],
        notes="问一下财务部门预留容量的事。",
        estimate=EstimateRequest(params=7e9, chips=8, prices={"tpu-v5e": 1.5}),
    )


@pytest.mark.parametrize("answers", [TPU_ANSWERS, BLOCKED], ids=["tpu", "blocked"])
def test_a_report_of_a_real_session_has_chinese_headings_and_labels(answers: Answers, zh: None) -> None:
    catalog, lesson = load_catalog(), load_lesson()
    s = _real_session(answers)
    est = session_estimate(s, catalog)
    md = build_markdown(s, lesson, catalog, est, name="jax-prod")
    page = build_html(s, lesson, catalog, est, name="jax-prod")
    zh_words, en_words = _texts("report", "zh-Hans"), _texts("report", "en")
    wanted = ["verdict", "reasons", "flips", "next_steps", "answers", "estimate", "runs", "notes", "sources"]
    if answers == BLOCKED:
        wanted += ["blockers", "open_questions"]
    for key in wanted:
        heading = zh_words[f"heading.{key}"]
        assert f"\n## {heading}\n" in md, key
        assert f"<h2>{heading}</h2>" in page, key
        english = en_words[f"heading.{key}"]
        assert f"## {english}\n" not in md and f"<h2>{english}</h2>" not in page, key
    assert md.startswith("# GPU 还是 TPU：jax-prod\n")
    assert '<html lang="zh-Hans">' in page and '<html lang="en">' not in page
    # the answers table and the estimate table in Chinese, the wizard's Chinese questions in the rows
    assert "| 步骤 | 问题 | 回答 |" in md and "<th>步骤</th><th>问题</th><th>回答</th>" in page
    assert "<th>所需内存 / 可用内存</th>" in page and "| 芯片 | 类型 | 所用峰值 |" in md
    assert QUESTIONS["framework"].text == "模型是用哪个框架写的？" and QUESTIONS["framework"].text in md
    rec = decide(answers)
    assert headline(rec) in md and headline(rec) in page
    assert all(r.message in md.replace("\\", "") for r in rec.reasons)
    assert "（你的回答：" in md and "你的回答：" in page
    assert "套件 smoke" in md and "个结果" in md  # the probe run's line
    assert "- 计算：训练 FLOPs = 6 × N × D" in md and est is not None and est.rule not in md
    # the prices' words: where each comes from, and the cheapest places as a next step
    assert "自带价格表，读取于 " in md and "每芯片小时 $" in md
    if answers == BLOCKED:
        assert "目前租用 GPU 最便宜的地方：" in md
    for english in ("your answer", "Made with", "Fastest first", "explainer topic", "instead of", "in all"):
        assert english not in md and english not in page, english
    for english in ("shipped table", "/chip-hour", "Cheapest places", "gpu-tpu-app prices lists"):
        assert english not in md, english


def test_the_english_report_keeps_its_words_and_lang(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(i18n.LANG_ENV, "en")
    i18n.set_language(None)
    try:
        page = build_html(_real_session(), load_lesson(), load_catalog())
        md = build_markdown(_real_session(), load_lesson(), load_catalog())
    finally:
        monkeypatch.undo()
        i18n.set_language(None)
    assert '<html lang="en">' in page and "<h2>Verdict</h2>" in page
    assert (
        "\n## Reasons, strongest first\n" in md and "(your answer: " in md and not CJK.search(md.split("## Notes")[0])
    )


def _width(s: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)


def _columns(line: str, spans: list[tuple[int, int]]) -> list[str]:
    """The cells of one table line, cut at the display columns of the dashes line."""
    cells, pos, i = [], 0, 0
    chars = list(line)
    for start, end in spans:
        cell = ""
        while i < len(chars) and pos < end:
            if pos >= start:
                cell += chars[i]
            pos += _width(chars[i])
            i += 1
        cells.append(cell.strip())
    return cells


@pytest.mark.parametrize(
    "request_",
    [
        EstimateRequest(params=7e9, chips=8, prices={"tpu-v5e": 1.5}),
        EstimateRequest(mode="inference", params=70e9, tokens=1e9, chips=3, prices={"h100-sxm": 2.5}),
    ],
    ids=["training", "serving"],
)
def test_the_estimate_table_in_chinese_lines_up_and_keeps_the_numbers(request_: EstimateRequest, zh: None) -> None:
    result = estimate(request_, load_catalog())
    table = format_table(result)
    lines = table.splitlines()
    dashes = next(i for i, ln in enumerate(lines) if ln.startswith("---"))
    header = lines[dashes - 1]
    spans = [(m.start(), m.end()) for m in re.finditer(r"-+", lines[dashes])]
    columns = _texts("estimate", "zh-Hans")
    names = _columns(header, spans)
    assert names[:3] == [columns["column.chip"], columns["column.kind"], columns["column.peak"]]
    assert columns["column.memory"] in names and columns["column.chips_per_copy"] in names
    english = _texts("estimate", "en")
    assert not any(english[k] in names for k in english if k.startswith("column.") and k != "column.mfu")
    for line, row in zip(lines[dashes + 1 :], result.rows):
        cells = _columns(line, spans)
        c = estimate_cells(row)
        assert cells[0] == row.chip_name and cells[1] == FAMILY_WORDS[row.family], line
        assert cells[2] == c.peak and cells[3] == c.mfu and c.fits in cells, line
        assert c.fits in (FITS_WORDS[True], FITS_WORDS[False], "–")
    assert table.startswith(("训练：共 ", "推理服务：共 ")) and "\n输入：" in table
    assert "\n时间：" in table and "\n内存：" in table and "\n来源：" in table
    # the rules the Estimate holds in English (its JSON) read in Chinese
    assert "\n时间：训练 FLOPs = 6 × N × D" in table or "\n时间：推理服务 = 预填充 + 解码。" in table
    assert "\n内存：每份" in table and result.rule not in table and result.memory_rule not in table
    assert "training FLOPs" in result.rule or "serving = prefill" in result.rule
    # the layout warnings from their ids (the Estimate's JSON keeps the English ones)
    assert any(row.warnings for row in result.rows)
    assert "\n警告：\n" in table and "not modelled" not in table and "left idle" not in table
    assert "没有建模" in table or "块芯片闲置" in table or "多于给定的" in table
    assert all(w.isascii() for row in result.rows for w in row.warnings)
    assert '"warning_texts"' not in result.model_dump_json()
    for word in ("Inputs:", "FLOPs in all", "Warnings:", "Sources:", " days", " hours", "training tokens"):
        assert word not in table, word
    # the numbers are the English table's
    i18n.set_language("en")
    english_table = format_table(result)
    numbers = re.compile(r"\$?\d[\d,.]*")
    assert numbers.findall(table.split("\n\n")[1]) == numbers.findall(english_table.split("\n\n")[1])


def test_the_bandwidth_and_precision_notes_in_chinese(zh: None) -> None:
    req = EstimateRequest(mode="inference", params=7e9, tokens=1e9, strict_fp32=True, bw_share=0.7)
    result = estimate(req, load_catalog())
    table = format_table(result)
    assert "\n带宽：标称带宽的 0.7，由你设定。\n" in table
    assert "\n精度：严格 fp32：GPU 按其 FP32 峰值" in table
    assert result.bw_share_source == "0.7 of nominal bandwidth, set by the user"
    assert result.fp32_note is not None and result.fp32_note.startswith("strict fp32: GPUs at their FP32 peak")


def test_the_memory_tip_and_durations_in_chinese(zh: None) -> None:
    result = estimate(EstimateRequest(params=70e9, chips=8), load_catalog())
    tip = memory_tip(result.rows[0], training=True)
    assert tip.startswith("所需 / 可用：一份训练状态需要 ") and tip.endswith("GB = 10^9 字节。") and "。 " not in tip
    assert (
        format_duration(2.5) == "2.5 天" and format_duration(1 / 24) == "1 小时" and format_duration(800) == "2.19 年"
    )
    assert format_duration(30 / 86400) == "30 秒" and format_duration(300 / 86400) == "5 分钟"
    assert version_words("2.13.0+cpu") == "2.13.0（仅 CPU 版本）"
    assert version_words("2.5.1+cu124") == "2.5.1（CUDA 12.4 版本）"


def test_the_verdict_in_chinese_words(zh: None) -> None:
    few = decide(Answers(framework="jax", scale="massive"))
    full = decide(TPU_ANSWERS)
    blocked = decide(BLOCKED)
    assert headline(few) == text("verdict.headline.leans_only") == "暂时两者皆可：回答太少，还无法决定"
    assert headline(full) == "流水线：TPU 更适合这项工作"
    assert verdict_summary(full).startswith("得分 +") and "置信度" in verdict_summary(full)
    assert verdict_summary(blocked).startswith("一项硬性约束单独决定了结论。得分 ")
    assert "回答少于 5 个时" in verdict_summary(few)
    assert verdict_words(full) == f"TPU，置信度{text('verdict.confidence.' + full.confidence)}"
    assert verdict_change(full, blocked) == f"结论已变：{verdict_words(full)} → {verdict_words(blocked)}。"
    for sentence in (verdict_summary(few), verdict_summary(full), verdict_summary(blocked)):
        assert CJK.search(sentence) and " With " not in sentence and "questions answered" not in sentence


@pytest.mark.parametrize(
    ("argv", "flag", "chinese"),
    [
        (["--params", "0"], "--params", "必须大于 0"),
        (["--params", "7e9", "--mfu", "3"], "--mfu", "必须在 (0, 1] 之间"),
        (["--params", "7e9", "--batch", "4"], "--batch", "只能与 --inference 一起使用"),
        (["--params", "7e9", "--price", "foo=1"], "--price", "未知芯片 'foo'"),
        (["--params", "7e9", "--steps", "10"], "--steps", "只能与 --model-check 一起使用"),
    ],
)
def test_estimate_errors_in_chinese_name_the_flag_first(
    argv: list[str], flag: str, chinese: str, run_cli, zh: None
) -> None:
    code, out, err = run_cli("estimate", *argv)
    assert code == 2 and out == ""
    line = err.strip()
    assert "\n" not in line and "Traceback" not in line
    message = line.split("：", 1)[1] if line.startswith("错误：") else line
    assert message.startswith(f"{flag}：") and chinese in message, line
