"""--lang on every command: help, argparse's own words and the generic error lines in the chosen language,
--format json in English, Chinese help wrapped within the width, and the English texts unchanged."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from gpu_tpu_app import cli, clilang, i18n
from gpu_tpu_app.commands import probe
from gpu_tpu_app.core import texts
from gpu_tpu_app.shared import cliutil

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]) -> Run:
    """`gpu-tpu-app ARGS...` in this process, --help's exit included: (exit code, stdout, stderr)."""

    def run(*argv: str) -> tuple[int, str, str]:
        os.environ[i18n.LANG_ENV] = "en"  # as a new process from the tests starts; a --lang before exported its own
        try:
            code = cli.main(list(argv))
        except SystemExit as done:
            code = int(done.code or 0)
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")
    os.environ[i18n.LANG_ENV] = "en"


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--lang", "zh-Hans", "decide"], "zh-Hans"),
        (["decide", "--lang=en"], "en"),
        (["decide", "--lang", "fr"], None),  # not shipped: the parser refuses it
        (["decide", "--", "--lang", "zh-Hans"], None),
        (["decide", "--lang"], None),
        ([], None),
    ],
)
def test_requested_language(argv: list[str], expected: str | None) -> None:
    assert clilang.requested_language(argv) == expected


@pytest.mark.parametrize(
    "argv",
    [
        ["--lang", "zh-Hans", "--help"],
        ["--lang", "zh-Hans", "catalog", "--help"],
        ["catalog", "--lang", "zh-Hans", "--help"],
        ["prices", "--help", "--lang=zh-Hans"],
    ],
)
def test_help_in_chinese_wherever_lang_stands(run_cli: Run, argv: list[str]) -> None:
    code, out, _err = run_cli(*argv)
    assert code == 0
    assert out.startswith("用法：gpu-tpu-app")
    assert "显示本帮助并退出" in out and "show this help message" not in out
    assert "usage:" not in out and "positional arguments" not in out
    # the section headings end as Chinese ends them, English keeps argparse's colon
    assert "\n选项：\n" in out and "选项:" not in out
    assert "\noptions:\n" in run_cli(*[a for a in argv if "zh-Hans" not in a and a != "--lang"])[1]


def test_every_app_command_and_probe_command_takes_lang(run_cli: Run, capsys: pytest.CaptureFixture[str]) -> None:
    for command in cli.COMMANDS:
        code, out, _ = run_cli(command, "--lang", "zh-Hans", "--help")
        assert code == 0 and "--lang en|zh-Hans" in out and "示例：" in out, command
        assert texts.text(f"cli.commands.{command}.details", language="zh-Hans")[:8] in out, command
    for name in probe.SUBCOMMANDS:
        with pytest.raises(SystemExit) as done:
            probe.main([name, "--lang", "zh-Hans", "--help"])
        out = capsys.readouterr().out
        assert done.value.code == 0 and out.startswith("用法：gpu-tpu-probe") and "--lang" in out, name
    with pytest.raises(SystemExit):
        probe.main(["--lang", "zh-Hans", "--help"])
    assert capsys.readouterr().out.startswith("用法：gpu-tpu-probe")


def test_chinese_help_lines_fit_the_terminal_width(run_cli: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    for command in cli.COMMANDS:
        _code, out, _ = run_cli("--lang", "zh-Hans", command, "--help")
        widest = max(
            cliutil.display_width(line) for line in out.splitlines() if not line.lstrip().startswith("gpu-tpu-")
        )
        assert widest <= 80, command


def test_errors_are_one_line_in_the_language(run_cli: Run) -> None:
    code, _out, err = run_cli("--lang", "zh-Hans", "nosuch")
    assert code == 2 and err.count("\n") == 1
    assert err.startswith("gpu-tpu-app：错误：未知命令 'nosuch'") and err.rstrip().endswith("（参见 --help）")
    code, _out, err = run_cli("decide", "--lang", "fr")
    assert code == 2 and err.strip() == (
        "gpu-tpu-app decide: error: argument --lang: invalid choice: 'fr' (choose from 'en', 'zh-Hans') (see --help)"
    )
    code, _out, err = run_cli("catalog", "--lang", "zh-Hans", "--format", "xml")
    assert code == 2 and "参数 --format：无效的取值：'xml'" in err
    code, _out, err = run_cli("--lang", "zh-Hans", "decide", "--answers", "/no/such/answers.json")
    assert code == 2 and err.startswith("错误：") and "/no/such/answers.json" in err


def test_json_stays_english(run_cli: Run) -> None:
    code_en, out_en, _ = run_cli("catalog", "--format", "json")
    code_zh, out_zh, _ = run_cli("catalog", "--format", "json", "--lang", "zh-Hans")
    assert code_en == code_zh == 0 and out_en == out_zh
    assert json.loads(out_zh)["chips"]


def test_english_texts_equal_the_words_they_replace() -> None:
    # argparse's own gettext ids, and the worker side's English error lines, stay exactly as they were
    for msgid, ident in clilang.ARGPARSE_IDS.items():
        assert texts.text(f"cli.argparse.{ident}", language="en") == msgid
    for ident, english in cliutil.ENGLISH.items():
        assert texts.area_texts("cli", "en")[ident.removeprefix("cli.")] == english
    # and every argparse id has its translation with the same %-placeholders
    import re

    for ident in clilang.ARGPARSE_IDS.values():
        en = texts.text(f"cli.argparse.{ident}", language="en")
        zh = texts.text(f"cli.argparse.{ident}", language="zh-Hans")
        assert zh != en and sorted(re.findall(r"%\(\w+\)\w|%\w", zh)) == sorted(re.findall(r"%\(\w+\)\w|%\w", en))


def test_fill_breaks_chinese_between_characters_not_before_closing_marks() -> None:
    paragraph = texts.text("cli.commands.prices.details", language="zh-Hans")
    lines = clilang.fill(paragraph, 40).splitlines()
    assert len(lines) > 3 and all(cliutil.display_width(line) <= 40 for line in lines)
    assert "".join(lines).replace(" ", "") == paragraph.replace(" ", "")
    assert not any(line[0] in "，。、；：）」" for line in lines)
    assert "~/.sky/catalogs/v8" in "\n".join(lines)  # a path is never split
    english = texts.text("cli.commands.prices.details", language="en")
    import textwrap

    assert clilang.fill(english, 78) == textwrap.fill(english, 78)


def test_align_counts_chinese_as_two_columns() -> None:
    lines = cliutil.align([["芯片", "价格"], ["tpu-v6e", "2.70"]], right={1})
    assert lines == ["芯片     价格", "-------  ----", "tpu-v6e  2.70"]


def test_a_real_command_line_in_chinese_from_the_locale_and_its_children_inherit_a_lang() -> None:
    env = {k: v for k, v in os.environ.items() if k not in (i18n.LANG_ENV, "LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env["LANG"] = "zh_CN.UTF-8"
    code = (
        "import os, sys\nfrom gpu_tpu_app.cli import main\n"
        "try:\n    main(sys.argv[1:])\nfinally:\n    print(os.environ.get('GPU_TPU_APP_LANG'))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, "catalog", "--help"], capture_output=True, text=True, env=env, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("用法：") and proc.stdout.rstrip().endswith("None")  # the locale says it already
    proc = subprocess.run(
        [sys.executable, "-c", code, "--lang", "en", "catalog", "--help"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert proc.stdout.startswith("usage:") and proc.stdout.rstrip().endswith("en")


def test_lang_option_validates() -> None:
    parser = cliutil.OneLineParser(prog="x")
    clilang.add_lang_option(parser, top=True)
    assert parser.parse_args([]).lang is None
    assert parser.parse_args(["--lang", "zh-Hans"]).lang == "zh-Hans"
    sub = argparse.ArgumentParser()
    clilang.add_lang_option(sub)
    assert "lang" not in vars(sub.parse_args([]))  # a subcommand's parser never undoes the top one's


def test_catalog_table_in_chinese_lines_up_and_its_json_stays_english(run_cli: Run) -> None:
    code, out, _ = run_cli("catalog", "--lang", "zh-Hans")
    assert code == 0
    lines = out.splitlines()
    header, rule = lines[0], lines[1]
    assert header.split()[:3] == ["编号", "芯片", "系列"] and "内存带宽 GB/s" in header
    table = lines[: lines.index("")]
    # the last column (year) is right-aligned: every row ends at the rule's last column, counted on screen
    assert {cliutil.display_width(line) for line in table} == {len(rule)}
    assert "芯片之间的互联：" in lines
    assert lines[-4].startswith("稠密峰值") and lines[-1].startswith("内存按厂商的标称值")
    english = run_cli("catalog")[1]
    assert english.splitlines()[0].split()[:3] == ["id", "chip", "family"]
    assert "Links between chips:" in english and "芯片" not in english


def test_prices_in_chinese(run_cli: Run) -> None:
    code, out, _ = run_cli("prices", "--no-local", "--lang", "zh-Hans")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == texts.text("cli.prices.title_on_demand", language="zh-Hans")
    assert lines[2].split()[:3] == ["芯片", "最便宜", "地点"]
    assert texts.text("cli.prices.rule", language="zh-Hans", days=90) in lines
    code, out, _ = run_cli("prices", "--no-local", "--spot", "--lang", "zh-Hans", "--chip", "tpu-v6e")
    assert code == 0 and out.startswith("竞价价格")
    code, _, err = run_cli("prices", "--no-local", "--lang", "zh-Hans", "--cloud", "nowhere")
    assert code == 2 and err.startswith("错误：--cloud：没有 'nowhere' 的价格（已知：")
    code, out_en, _ = run_cli("prices", "--no-local", "--format", "json")
    code, out_zh, _ = run_cli("prices", "--no-local", "--format", "json", "--lang", "zh-Hans")
    assert json.loads(out_en)["kind"] == json.loads(out_zh)["kind"] == "on-demand"
    assert [c["chip"] for c in json.loads(out_zh)["chips"]] == [c["chip"] for c in json.loads(out_en)["chips"]]


def test_flag_and_output_file_problems_in_chinese(run_cli: Run, tmp_path: Path) -> None:
    code, _out, err = run_cli("probe", "run", "--suite", "smoke", "--out", str(tmp_path), "--lang", "zh-Hans")
    assert code == 2 and err == f"错误：{tmp_path}: --out: 这是一个文件夹\n"
    code, _out, err = run_cli("check-model", "m.py", "--timeout", "nan", "--lang", "zh-Hans")
    assert code == 2 and "必须是大于 0 的有限数字，而不是 'nan'" in err and err.count("\n") == 1
    code, _out, err = run_cli("probe", "collective", "--processes", "2", "--max-bytes", "lots", "--lang", "zh-Hans")
    assert code == 2 and err == "错误：--max-bytes: 'lots' 不是大小（例如 256K、64M、1G）\n"
    # English as before
    code, _out, err = run_cli("probe", "run", "--suite", "smoke", "--out", str(tmp_path))
    assert code == 2 and err == f"error: {tmp_path}: --out: is a folder\n"


def test_a_missing_model_file_and_a_bad_count_in_chinese_json_stays_english(run_cli: Run, tmp_path: Path) -> None:
    gone = tmp_path / "gone.py"
    code, _out, err = run_cli("check-model", str(gone), "--lang", "zh-Hans")
    assert code == 2 and err == f"错误：{gone}: 文件不存在\n"
    code, out, _err = run_cli("check-model", str(gone), "--format", "json", "--lang", "zh-Hans")
    assert code == 2 and json.loads(out)["error"] == f"{gone}: no such file"
    code, _out, err = run_cli("estimate", "--params", "abc", "--lang", "zh-Hans")
    assert code == 2 and err == "错误：--params: 不是数字：'abc'（可写成 7e9、7B 或 70M 这样的形式）\n"
