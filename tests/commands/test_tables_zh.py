"""The commands' tables line up on screen in zh-Hans as in English: columns are padded by terminal columns
(a Chinese character takes two), so every cell starts where its header starts. Covers check-model's
per-generation compile table and the price table (the shared helpers cliutil.pad / align; the catalogue's is
tests/test_clilang.py's)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from gpu_tpu_app import i18n
from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.modelcheck import ModelCheck
from gpu_tpu_app.core.tpu_compile import render_table
from gpu_tpu_app.shared.cliutil import display_width
from tools.i18n_allow import CJK

ROOT = Path(__file__).resolve().parents[2]
CHECKS = [
    ROOT / "examples" / "checks" / "jax_transformer-tpu4.json",
    ROOT / "tests" / "data" / "model-check-tpu-compiled.json",
]


@pytest.fixture(params=["en", "zh-Hans"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    i18n.set_language(request.param)
    try:
        yield request.param
    finally:
        i18n.set_language(None)


def cell_starts(line: str) -> list[int]:
    """The terminal column where each cell of a table line starts (cells are two or more spaces apart)."""
    starts = []
    for m in re.finditer(r"(?:^|(?<=  ))(?! )\S", line):
        starts.append(display_width(line[: m.start()]))
    return starts


def assert_lined_up(lines: list[str]) -> None:
    header = cell_starts(lines[0])
    assert len(header) > 3, lines[0]
    for line in lines[1:]:
        starts = cell_starts(line)
        assert starts == header[: len(starts)] and len(starts) >= len(header) - 1, (lines[0], line)


@pytest.mark.parametrize("path", CHECKS, ids=lambda p: p.name)
def test_the_compile_table_lines_up(path: Path, language: str) -> None:
    check = ModelCheck.model_validate_json(path.read_text(encoding="utf-8"))
    assert check.tpu_compile is not None
    lines = render_table(check.tpu_compile, load_catalog(), language=language)
    rows = sum(max(1, len(g.programs)) for g in check.tpu_compile.generations)
    table = lines[1 : 2 + rows]
    assert_lined_up(table)
    if language == "zh-Hans":
        # the header and the outcome and fits cells are Chinese (two columns a character), so len() would not do
        assert CJK.search(table[0]) and all(CJK.search(row) for row in table[1:]), table
        assert any(len(row) != display_width(row) for row in table[1:])


def test_the_price_table_lines_up(language: str, capsys: pytest.CaptureFixture[str]) -> None:
    from gpu_tpu_app.cli import main

    assert main(["prices", "--lang", language]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = next(i for i, line in enumerate(lines) if re.fullmatch(r"-+(?:  -+)+", line))
    rule, table = lines[at], [lines[at - 1], *lines[at + 1 : lines.index("", at)]]
    spans = [(m.start(), m.end()) for m in re.finditer(r"-+", rule)]
    for line in table:
        for m in re.finditer(r"\S+(?: \S+)*", line):  # a cell: words one space apart
            start, end = display_width(line[: m.start()]), display_width(line[: m.end()])
            # it lies inside its column and starts at its left edge or ends at its right edge (right-aligned)
            assert any(a <= start and end <= b and (start == a or end == b) for a, b in spans), (line, m.group())
    if language == "zh-Hans":
        assert CJK.search(table[0]) and any(CJK.search(row) for row in table[1:])


def test_the_compile_table_is_in_the_language_asked_for_whatever_the_one_in_use() -> None:
    check = ModelCheck.model_validate_json(CHECKS[0].read_text(encoding="utf-8"))
    assert check.tpu_compile is not None
    i18n.set_language("en")
    try:
        rows = render_table(check.tpu_compile, load_catalog(), language="zh-Hans")[2:4]
    finally:
        i18n.set_language(None)
    assert all("已编译" in row and "放得下" in row for row in rows), rows


@pytest.mark.parametrize("status", ["unavailable", "failed"])
def test_a_compile_step_that_did_not_run_says_so_in_chinese(status: str) -> None:
    from gpu_tpu_app.core.tpu_compile import TpuCompile

    tc = TpuCompile(status=status, detail="libtpu is not installed")
    zh, en = (render_table(tc, load_catalog(), language=lang)[0] for lang in ("zh-Hans", "en"))
    # a compile that did not happen is one of the four outcomes: unavailable is "not run", a failure with no
    # compiler error of the model's is the check's limit
    assert zh == "为各代 TPU 编译：" + {"unavailable": "未运行", "failed": "检查本身的限制"}[status]
    assert en == "Compiled for TPU generations: " + {"unavailable": "not run", "failed": "the check's limit"}[status]
