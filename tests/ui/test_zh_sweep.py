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
