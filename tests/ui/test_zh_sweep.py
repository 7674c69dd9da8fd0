"""Words the sweep of issue 23 moved to the language in use across the window and the report: the smoke-suite
label wherever a smoke run's numbers show, the estimator's rules, an environment's kind and problem."""

from __future__ import annotations

import pytest

from gpu_tpu_app import i18n
from gpu_tpu_app.core.report import _run_line
from gpu_tpu_app.ui.learn.lesson_html import evidence_lines
from tests.core.test_session import make_run
from tests.ui.test_probe_zh import zh_qt  # noqa: F401  (a fixture; it sets zh-Hans itself)

ZH_CHECK = "冒烟套件：只是功能检查，不是基准测试"


def test_a_smoke_runs_report_line_and_evidence_say_so_in_chinese(zh: None) -> None:
    run = make_run()
    assert ZH_CHECK in _run_line(run)
    lines = evidence_lines("matmul", [run])
    assert lines and all(f"；{ZH_CHECK}" in line for line in lines), lines
    assert not any("smoke suite" in line for line in lines)


def test_the_same_in_english_keeps_its_words() -> None:
    run = make_run()
    assert "smoke suite: a functional check, not a benchmark" in _run_line(run)
    lines = evidence_lines("matmul", [run], language="en")
    assert lines and all("; smoke suite: a functional check, not a benchmark" in line for line in lines), lines


def test_why_a_point_is_not_trusted_in_chinese_and_kept_in_english(zh: None) -> None:
    from gpu_tpu_app.core.runs import ProbeResult, Stats
    from gpu_tpu_app.shared.trust import point_flags

    stats = Stats(median=1e11, min=5e10, max=2e11, q1=9e10, q3=1.1e11, iqr=2e10, cv=0.05, reps=10, seconds=1.0)
    r = ProbeResult(
        kernel="matmul",
        backend="torch",
        device="torch:cpu:0",
        dtype="float32",
        size=512,
        metric="flops",
        value=1e11,
        unit="FLOP/s",
        status="ok",
        stats=stats,
    )
    flags = point_flags(r)
    assert flags.notes() == ["too noisy: IQR 20 % of the median (over 10 %)"]  # as run files and JSON keep it
    assert flags.shown_notes() == ["噪声大：IQR 为中位数的 20 %（超过 10 %）"]
    assert flags.shown_note() == "噪声大：IQR 为中位数的 20 %（超过 10 %）"
    i18n.set_language("en")
    assert flags.shown_notes() == flags.notes()


def test_the_compile_table_in_chinese(zh: None) -> None:
    from gpu_tpu_app.core.tpu_compile import TABLE_HEADERS, TpuCompile, column_words, table_rows
    from tests.core.test_tpu_compile import CATALOG, _compile

    assert column_words("en") == list(TABLE_HEADERS)
    assert column_words()[0] == "代次" and column_words()[8] == "HBM 放得下"
    rows = table_rows(TpuCompile.model_validate(_compile()), CATALOG)
    assert rows[0].outcome == "已编译" and rows[0].status == "compiled"
    assert rows[0].topology == "v5e:2x2（4 块芯片）" and rows[1].topology == "tpu7x:2x2x1（4 块芯片，8 个设备）"
    assert rows[0].fits.startswith("放得下：20 B / ")
    rows = table_rows(TpuCompile.model_validate(_compile("does_not_fit")), CATALOG)
    assert rows[0].outcome == "放不下" and rows[0].fits == "放不下（RESOURCE_EXHAUSTED）"
    assert rows[1].outcome == "检查本身的限制" and rows[1].status == "failed"


@pytest.mark.usefixtures("zh_qt")
def test_the_window_estimator_says_its_rules_and_warnings_in_chinese(qtbot) -> None:
    from gpu_tpu_app.core.catalog import load_catalog
    from gpu_tpu_app.ui.probe.estimator_card import EstimatorCard

    card = EstimatorCard(load_catalog())
    qtbot.addWidget(card)
    card.params_edit.setText("7B")
    card.tokens_edit.setText("1T")
    card.chips_spin.setValue(64)
    card._inputs_changed()
    rules = card.rules.text()
    assert "训练 FLOPs = 6 × N × D" in rules and "training FLOPs" not in rules, rules
    tips = [card.table.item(r, 4).toolTip() for r in range(card.table.rowCount()) if card.table.item(r, 4)]
    warned = [t for t in tips if t]
    assert warned and all("exceed the largest fast-link group" not in t for t in warned), warned
    assert any("超出了最大的高速互联组" in t for t in warned), warned


def test_the_prices_options_in_chinese(capsys: pytest.CaptureFixture[str]) -> None:
    from gpu_tpu_app import cli

    for lang, said, not_said in (
        ("zh-Hans", "只看一个区域，例如 us-central1", "one region"),
        ("en", "one region", "只看"),
    ):
        with pytest.raises(SystemExit) as done:
            cli.main(["prices", "--help", "--lang", lang])
        assert done.value.code == 0
        out = capsys.readouterr().out
        assert said in out and not_said not in out, out


def test_gpu_tpu_probe_help_in_chinese(capsys: pytest.CaptureFixture[str]) -> None:
    from gpu_tpu_app.commands import probe

    with pytest.raises(SystemExit):
        probe.main(["--lang", "zh-Hans", "--help"])
    out = capsys.readouterr().out
    assert "用 torch 和 JAX 测量本机的加速器" in out and "把几个运行文件并排打印" in out
    assert "list the devices" not in out and "print several run files" not in out


def test_gpu_tpu_probe_run_options_in_chinese(capsys: pytest.CaptureFixture[str]) -> None:
    from gpu_tpu_app.commands import probe

    with pytest.raises(SystemExit):
        probe.main(["run", "--lang", "zh-Hans", "--help"])
    out = capsys.readouterr().out
    assert "把运行文件保存到这里" in out and "只测这些内核（matmul" in out
    assert "save the run file here" not in out


def test_the_envs_table_in_chinese(zh: None) -> None:
    from gpu_tpu_app.commands.probe.envs import envs_table
    from gpu_tpu_app.core.environments import PythonEnv

    env = PythonEnv(interpreter="/opt/v/bin/python", name="v", kind="venv", problem="/opt/v/bin/python: no such file")
    lines = envs_table([env]).splitlines()
    assert lines[0].split()[:4] == ["名称", "发现方式", "Python", "可用"]
    assert "venv 环境" in lines[2] and "否" in lines[2] and "文件不存在" in lines[2]
    assert lines[2].count("/opt/v/bin/python") == 1  # the path only in its own column
