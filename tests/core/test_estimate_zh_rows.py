"""The estimate in zh-Hans: the rows the app names itself (a measured device, your compiled model, your MFU)
and the prices' notes said in Chinese, with the same figures as in English; the JSON form keeps English."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gpu_tpu_app import i18n
from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.estimate import EstimateRequest, MeasuredDevice, estimate
from gpu_tpu_app.core.estimate.text import mfu_source_words, row_name, row_warnings
from gpu_tpu_app.core.modelcheck import ModelCheck
from gpu_tpu_app.core.prices import shipped_book
from tools.i18n_allow import CJK, left_in_english

ROOT = Path(__file__).resolve().parents[2]
CHECK = ROOT / "examples" / "checks" / "jax_transformer-tpu4.json"
ZH = "zh-Hans"
#: the English words of the rows and notes the app writes; none may show in zh-Hans
ENGLISH = (
    "(measured)",
    "measured matmul on",
    "set by the user",
    "(your model, compiled)",
    "your model compiled for",
    "did not compile",
    "give the steps",
    "over its chips",
    "the same per chip",
    " plus ",
    "in every",
    "GPUs:",
    " in all",
    "on-demand",
    "chip-hour",
)


def _device(host: str | None = None) -> MeasuredDevice:
    return MeasuredDevice(name="AMD EPYC 9B14", flops=3.8e10, memory_bytes=25.3e9, key="cpu:0", host=host)


def test_a_measured_device_is_named_and_explained_in_chinese() -> None:
    result = estimate(EstimateRequest(params=7e9), load_catalog(), [_device(), _device("lab-h100")])
    here, there = [r for r in result.rows if r.family == "measured"]
    assert here.chip_name == "AMD EPYC 9B14 (measured)"  # the Estimate (and its JSON) keep English
    assert row_name(here, "en") == here.chip_name
    assert row_name(here, ZH) == "AMD EPYC 9B14（实测）"
    assert here.mfu_source.startswith("measured matmul on this machine: ")
    assert mfu_source_words(here, "en") == here.mfu_source
    assert mfu_source_words(here, ZH).startswith("本机上实测的矩阵乘法")
    assert there.mfu_source.startswith("measured matmul on lab-h100: ")
    assert mfu_source_words(there, ZH).startswith("lab-h100 上实测的矩阵乘法")
    dumped = json.loads(result.model_dump_json())
    row = next(r for r in dumped["rows"] if r["family"] == "measured")
    assert row["chip_name"] == "AMD EPYC 9B14 (measured)"
    assert "chip_name_text" not in row and "mfu_source_text" not in row


def test_your_mfu_is_said_in_chinese() -> None:
    result = estimate(EstimateRequest(params=7e9, mfu=0.4), load_catalog())
    for row in result.rows:
        assert row.mfu_source == "set by the user"
        assert mfu_source_words(row, ZH) == "由用户设定"


def test_your_compiled_model_rows_are_named_and_warned_in_chinese() -> None:
    check = ModelCheck.model_validate_json(CHECK.read_text(encoding="utf-8"))
    req = EstimateRequest(params=660352, tokens=51.2e6, chips=4)
    result = estimate(req, load_catalog(), compiled=check.tpu_compile)
    compiled = [r for r in result.rows if r.family == "compiled"]
    assert compiled
    for row in compiled:
        assert row.chip_name.endswith(" (your model, compiled)")
        assert row_name(row, ZH).endswith("（你的模型，已编译）")
        assert row.mfu_source.startswith("your model compiled for 4 chips of this generation: ")
        assert mfu_source_words(row, ZH).startswith("你的模型为这一代的 4 块芯片编译")
        assert row.warnings == ["give the steps to run (--steps) for a time; the step time is shown"]
    i18n.set_language(ZH)
    try:
        i18n_rows = [row_warnings(r) for r in compiled]
    finally:
        i18n.set_language(None)
    assert all(w == ["要得到时间，请给出要运行的步数（--steps）；这里显示的是单步时间"] for w in i18n_rows), i18n_rows


def _cli(run_cli, lang: str, *argv: str) -> str:
    code, out, err = run_cli("--lang", lang, "estimate", *argv)
    assert code == 0, err
    return out


def _figures(line: str) -> list[str]:
    return re.findall(r"\$?\d+(?:,\d{3})*(?:\.\d+)?", line)


@pytest.mark.parametrize(
    "argv",
    [
        ["--params", "7e9", "--mfu", "0.4"],
        ["--params", "70B", "--tokens", "1.4T", "--chips", "256"],
        ["--params", "8B", "--inference", "--tokens", "1e9", "--batch", "8"],
        ["--params", "660352", "--tokens", "51.2M", "--chips", "4", "--model-check", str(CHECK)],
    ],
    ids=["mfu", "training", "serving", "compiled"],
)
def test_the_estimate_command_in_chinese_keeps_the_figures_and_leaves_no_english_of_ours(run_cli, argv) -> None:
    english = _cli(run_cli, "en", *argv, "--no-local-prices")
    chinese = _cli(run_cli, ZH, *argv, "--no-local-prices")
    for words in ENGLISH:
        assert words not in chinese, words
    names = sorted((c.name for c in load_catalog().chips), key=len, reverse=True)  # the catalogue's own names
    for line in chinese.splitlines():
        for name in names:
            line = line.replace(name, " ")
        assert not left_in_english(line), line
    en_lines, zh_lines = english.splitlines(), chinese.splitlines()
    # the table: one row per chip in the same order, each with the same figures
    start_en = next(i for i, line in enumerate(en_lines) if line.startswith("-----"))
    start_zh = next(i for i, line in enumerate(zh_lines) if line.startswith("-----"))
    rows_en = en_lines[start_en + 1 : en_lines.index("", start_en)]
    rows_zh = zh_lines[start_zh + 1 : zh_lines.index("", start_zh)]
    assert len(rows_en) == len(rows_zh) > 20
    for en_row, zh_row in zip(rows_en, rows_zh, strict=True):
        assert _figures(en_row) == _figures(zh_row), (en_row, zh_row)
    # the cost lines: one per priced chip, the same prices, totals and notes' figures
    costs_en = [line for line in en_lines if re.match(r"  - [a-z0-9-]+: ", line)]
    costs_zh = [line for line in zh_lines if re.match(r"  - [a-z0-9-]+：", line)]
    assert len(costs_en) == len(costs_zh)
    for en_line, zh_line in zip(costs_en, costs_zh, strict=True):
        assert sorted(_figures(en_line)) == sorted(_figures(zh_line)), (en_line, zh_line)
        assert CJK.search(zh_line)


def test_the_estimate_json_is_the_same_in_both_languages(run_cli) -> None:
    argv = ["--params", "7e9", "--mfu", "0.4", "--format", "json", "--no-local-prices"]
    english = _cli(run_cli, "en", *argv)
    assert _cli(run_cli, ZH, *argv) == english
    rows = json.loads(english)["rows"]
    assert {r["mfu_source"] for r in rows} == {"set by the user"}
    assert any(r["price"] and r["price"]["note"] == "tpu-v4-8 (4 chips) over its chips" for r in rows)


def test_every_price_a_row_shows_has_its_note_in_chinese() -> None:
    result = estimate(EstimateRequest(params=7e9), load_catalog(), book=shipped_book())
    noted = [r.price for r in result.rows if r.price is not None and r.price.note]
    assert len(noted) > 5
    for quote in noted:
        words = quote.note_words(ZH) or ""
        assert CJK.search(words), words


def test_the_report_in_chinese_says_the_price_notes_and_measured_rows_in_chinese() -> None:
    from gpu_tpu_app.core.report import build_html, build_markdown
    from tests.core.test_report import TPU_ANSWERS, session

    req = EstimateRequest(params=7e9, chips=8, mfu=0.4)
    s = session(TPU_ANSWERS, estimate=req)
    result = estimate(req, load_catalog(), [_device()], book=shipped_book())
    english = build_markdown(s, estimate=result)
    assert "tpu-v4-8 (4 chips) over its chips" in english and "AMD EPYC 9B14 (measured)" in english
    i18n.set_language(ZH)
    try:
        for report in (build_markdown(s, estimate=result), build_html(s, estimate=result)):
            for words in ENGLISH:
                assert words not in report, words
            assert "tpu-v4-8（4 块芯片）的价格按芯片平摊" in report
            assert "AMD EPYC 9B14（实测）" in report
    finally:
        i18n.set_language(None)


def test_a_smoke_runs_device_says_so_in_each_language_and_json_keeps_english(tmp_path: Path, run_cli) -> None:
    from tests.core.test_session import make_run

    run = tmp_path / "smoke.json"
    run.write_text(make_run().model_dump_json(), encoding="utf-8")
    argv = ["--params", "7e9", "--results", str(run), "--no-local-prices"]
    english = _cli(run_cli, "en", *argv)
    chinese = _cli(run_cli, ZH, *argv)
    assert "Example CPU (smoke suite: a functional check, not a benchmark) (measured)" in english
    assert "Example CPU（冒烟套件：只是功能检查，不是基准测试）（实测）" in chinese
    assert "smoke suite" not in chinese
    as_json = _cli(run_cli, ZH, *argv, "--format", "json")
    assert as_json == _cli(run_cli, "en", *argv, "--format", "json")
    assert "Example CPU (smoke suite: a functional check, not a benchmark) (measured)" in as_json
