"""Reports: Markdown and HTML carry the verdict, reasons with sources, flips, estimate and runs."""

from __future__ import annotations

from html.parser import HTMLParser

from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.decision import Answers, decide, question_count
from gpu_tpu_app.core.estimate import EstimateRequest
from gpu_tpu_app.core.lesson import load_lesson
from gpu_tpu_app.core.report import (
    answer_label,
    build_html,
    build_markdown,
    collect,
    factor_label,
    session_estimate,
    to_html,
    to_markdown,
)
from gpu_tpu_app.core.runs import RunFile
from gpu_tpu_app.core.session import new_session
from tests.builders import matmul_run, tpu_answers

TPU_ANSWERS = tpu_answers()
BLOCKED = Answers(framework="pytorch", deployment="on_premises")


def run() -> RunFile:
    return matmul_run()


def session(answers: Answers = TPU_ANSWERS, **extra: object):
    return new_session().model_copy(update={"answers": answers, **extra})


def test_markdown_has_verdict_reasons_sources_flips() -> None:
    lesson = load_lesson()
    s = session()
    rec = decide(TPU_ANSWERS)
    md = build_markdown(s, lesson, name="jax-prod")
    plain = md.replace("\\", "")  # drop Markdown escapes
    assert md.startswith("# GPU or TPU: jax-prod\n")
    assert "TPUs fit this work better" in md
    assert "## Reasons, strongest first" in md
    sources = md[md.index("## Sources") :]
    for r in rec.reasons:
        assert r.message in plain
        for _key, words, _url in lesson.citations_for(r.sources):
            assert sources.count(words) == 1  # each source listed once, numbered
        assert not any(sid in md for sid in r.sources)  # internal ids never reach the report
    assert "## What would change this" in md
    for f in rec.flips:
        assert f"{factor_label(f.factor)}: {answer_label(f.factor, f.to)}" in plain
    assert "## Answers" in md and answer_label("framework", "jax") in plain


def test_blockers_come_first_in_both_formats() -> None:
    s = session(BLOCKED)
    md = build_markdown(s, load_lesson())
    assert "## Hard constraints" in md
    assert md.index("## Hard constraints") < md.index("## Reasons")
    html_text = build_html(s, load_lesson())
    assert html_text.index("Hard constraints") < html_text.index("Reasons, strongest first")


def test_estimate_and_runs_and_notes() -> None:
    catalog = load_catalog()
    s = session(
        runs=[run()],
        notes="Ask finance about <reserved> capacity.",
        estimate=EstimateRequest(params=7e9, chips=8, prices={"tpu-v5e": 1.5}),
    )
    est = session_estimate(s, catalog)
    assert est is not None
    assert any(r.family == "measured" for r in est.rows)
    md = build_markdown(s, load_lesson(), catalog, est)
    assert "## Estimate" in md and "## Probe runs" in md and "## Notes" in md
    assert "Example CPU" in md
    v5e = catalog.chip("tpu-v5e").name
    line = next(ln for ln in md.splitlines() if ln.startswith(f"| {v5e}"))
    assert "$" in line  # priced chip shows a cost
    html_text = build_html(s, load_lesson(), catalog, est)
    assert "&lt;reserved&gt;" in html_text and "<reserved>" not in html_text
    assert "\\<reserved\\>" in md  # no raw HTML tag in the Markdown


def test_no_estimate_without_inputs() -> None:
    s = session()
    assert session_estimate(s) is None
    assert "## Estimate" not in build_markdown(s)


def test_html_is_well_formed() -> None:
    class Checker(HTMLParser):
        VOID = frozenset({"meta", "br"})

        def __init__(self) -> None:
            super().__init__()
            self.stack: list[str] = []
            self.errors: list[str] = []

        def handle_starttag(self, tag: str, attrs: list) -> None:
            if tag not in self.VOID:
                self.stack.append(tag)

        def handle_endtag(self, tag: str) -> None:
            if not self.stack or self.stack.pop() != tag:
                self.errors.append(tag)

    s = session(BLOCKED, runs=[run()], estimate=EstimateRequest(params=1e9))
    html_text = build_html(s, load_lesson(), load_catalog(), session_estimate(s))
    checker = Checker()
    checker.feed(html_text)
    assert checker.errors == [] and checker.stack == []


def test_empty_session_report_reads_well() -> None:
    data = collect(new_session())
    assert data.verdict == "Either"
    assert data.reasons == [] and len(data.unanswered) == question_count()  # follow-up questions are not open
    md = to_markdown(data)
    assert "No answer leans either way yet." in md
    assert "<html" in to_html(data)


def test_report_never_mentions_the_incidental_url() -> None:
    banned = "not-a-" + "source"
    s = session(runs=[run()], estimate=EstimateRequest(params=7e9))
    lesson, catalog = load_lesson(), load_catalog()
    est = session_estimate(s, catalog)
    for text in (build_markdown(s, lesson, catalog, est), build_html(s, lesson, catalog, est)):
        assert banned not in text
