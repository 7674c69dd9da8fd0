"""The Result page's "Compiled for TPU generations" card, and the report's section, from a recorded real check.

tests/data/model-check-tpu-compiled.json is `gpu-tpu-app check-model tests/data/models/tpu_weights_20gib.py
--format json --tpu-chips 4` as the real TPU compiler answered it (20 GiB of weights replicated on every chip).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.modelcheck import ModelCheck
from gpu_tpu_app.core.report import collect, to_html, to_markdown
from gpu_tpu_app.core.session import new_session
from gpu_tpu_app.core.tpu_compile import TABLE_HEADERS, TpuCompile
from gpu_tpu_app.ui.result.result_page import ResultPage

DATA = Path(__file__).resolve().parents[1] / "data"
CHECK = ModelCheck.model_validate(json.loads((DATA / "model-check-tpu-compiled.json").read_text()))


@pytest.fixture
def page(qtbot):  # type: ignore[no-untyped-def]
    p = ResultPage(catalog=load_catalog())
    qtbot.addWidget(p)
    return p


def _cells(page: ResultPage) -> list[list[str]]:
    t = page.compile_card.table
    return [[t.item(i, j).text() for j in range(t.columnCount())] for i in range(t.rowCount())]


def test_the_card_shows_one_row_per_generation_with_the_compiler_s_reason_as_tooltip(page: ResultPage) -> None:
    assert page.compile_card.isHidden()
    page.set_model_check(CHECK)
    assert not page.compile_card.isHidden()
    rows = _cells(page)
    assert len(rows) == len(CHECK.tpu_compile.generations)  # type: ignore[union-attr]
    by_gen = {r[0]: r for r in rows}
    col = {h: i for i, h in enumerate(TABLE_HEADERS)}
    assert by_gen["TPU v5e"][col["Outcome"]] == "does not fit"
    assert by_gen["TPU v5e"][col["Fits in HBM"]] == "no (RESOURCE_EXHAUSTED)"
    assert by_gen["TPU v6e"][col["Topology"]] == "v6e:2x2 (4 chips)"
    assert by_gen["TPU v6e"][col["Fits in HBM"]].startswith("yes: 20")
    assert by_gen["TPU v6e"][col["Roofline step"]].endswith("ms")
    v5e_row = next(i for i, r in enumerate(rows) if r[0] == "TPU v5e")
    assert "exceeds available HBM" in page.compile_card.table.item(v5e_row, col["Outcome"]).toolTip()
    assert "split along their first axis over 4 devices" in page.compile_card.notes.text()


def test_a_check_without_a_compile_step_hides_the_card(page: ResultPage) -> None:
    page.set_model_check(CHECK)
    page.set_model_check(CHECK.model_copy(update={"tpu_compile": None}))
    assert page.compile_card.isHidden()
    page.set_model_check(None)
    assert page.compile_card.isHidden()


def test_the_report_carries_the_table_in_markdown_and_html() -> None:
    data = collect(new_session().with_model_check(CHECK), catalog=load_catalog())
    assert data.compile_intro.startswith("tpu_weights_20gib.py: Compiled by the TPU compiler (libtpu 0.0.42.1)")
    md, page = to_markdown(data), to_html(data)
    assert "## Compiled for TPU generations" in md and "TPU v6e (v6e:2x2 (4 chips))" in md
    assert "no (RESOURCE\\_EXHAUSTED)" in md  # escaped for Markdown
    assert "<h2>Compiled for TPU generations</h2>" in page and "no (RESOURCE_EXHAUSTED)" in page


@pytest.mark.parametrize(
    ("tc", "words", "step"),
    [
        ({"status": "unavailable", "failure": "not_run", "detail": "libtpu is not installed"}, "not run", "not run"),
        (
            {"status": "failed", "failure": "timed_out", "detail": "did not finish within 90 s"},
            "timed out",
            "--timeout",
        ),
    ],
)
def test_a_step_that_did_not_run_shows_which_of_the_four_and_the_next_step(
    page: ResultPage, tc: dict, words: str, step: str
) -> None:
    page.set_model_check(CHECK.model_copy(update={"tpu_compile": TpuCompile.model_validate(tc)}))
    intro = page.compile_card.intro.text()
    assert f"{words}: {tc['detail']} (" in intro and step in intro.split("(", 1)[1]
    assert page.compile_card.table.isHidden()


def test_a_generation_that_failed_shows_the_same_words_as_the_cli(page: ResultPage) -> None:
    tc = CHECK.tpu_compile
    assert tc is not None
    g = tc.generations[0]
    failed = g.model_copy(
        update={"status": "failed", "failure": "check_limit", "detail": "no such topology here", "programs": []}
    )
    check = CHECK.model_copy(update={"tpu_compile": tc.model_copy(update={"generations": [failed]})})
    page.set_model_check(check)
    col = {h: i for i, h in enumerate(TABLE_HEADERS)}
    assert {r[col["Outcome"]] for r in _cells(page)} == {"the check's limit"}
