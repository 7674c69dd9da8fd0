"""Words the sweep of issue 23 moved to the language in use across the window and the report: the smoke-suite
label wherever a smoke run's numbers show, the estimator's rules, an environment's kind and problem."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gpu_tpu_app import i18n
from gpu_tpu_app.core.report import _run_line
from gpu_tpu_app.ui.lesson_html import evidence_lines
from tests.core.test_session import make_run

ZH_CHECK = "冒烟套件：只是功能检查，不是基准测试"


@pytest.fixture
def zh() -> Iterator[None]:
    i18n.set_language("zh-Hans")
    yield
    i18n.set_language("en")


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
    from gpu_tpu_app.core.trust import point_flags

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
