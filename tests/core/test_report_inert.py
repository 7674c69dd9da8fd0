"""A file's text cannot forge a report (issue 22 §5): a run's host, a device's name, the notes and the
report's name stay inert, one line each, in Markdown and HTML (the PDF: tests/ui/test_report_pdf.py)."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from gpu_tpu_app.core.report import collect, to_html, to_markdown
from gpu_tpu_app.core.runs import load_run
from gpu_tpu_app.core.session import new_session
from tests.core.test_report import TPU_ANSWERS, run

FORGED_HOST = "vm\n\n# Verdict: TPU: the factory line"
FORGED_DEVICE = "gpu\r\n| forged | row |\n---\n<script>alert(1)</script>\x1b[31mred\u202eevil"
FORGED_NOTES = (
    "# Not a heading\n===\n- not an item\n    not code\n1. not a list\n> not a quote\n\nSecond \x1b]0;title\x07."
)
FORGED_NAME = "x\n## Injected section"


@pytest.fixture
def data(tmp_path: Path):
    raw = json.loads(run().model_dump_json())
    raw["host"] = FORGED_HOST
    raw["devices"][0]["name"] = FORGED_DEVICE
    path = tmp_path / "hostile.gpu-tpu-run.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    loaded = load_run(path)  # the app's own reader accepts these texts: the report must keep them inert
    assert loaded.host == FORGED_HOST
    session = new_session().model_copy(update={"answers": TPU_ANSWERS, "runs": [loaded], "notes": FORGED_NOTES})
    return collect(session, name=FORGED_NAME)


def _headings(md: str) -> list[str]:
    return [line for line in md.splitlines() if re.match(r"^ {0,3}#", line)]


def test_markdown_keeps_every_file_text_on_its_own_line_and_inert(data) -> None:
    md = to_markdown(data)
    clean = to_markdown(
        collect(new_session().model_copy(update={"answers": TPU_ANSWERS, "runs": [run()], "notes": "Plain."}))
    )
    title, *heads = _headings(md)
    assert title == "# GPU or TPU: x\\\\n\\#\\# Injected section"  # the name's break and '#'s, escaped
    assert heads == _headings(clean)[1:]  # the report's own sections, nothing more
    runs_block = md.split("## Probe runs\n\n", 1)[1].split("\n\n", 1)[0]
    assert len(runs_block.splitlines()) == 1  # the one run is one list item
    assert "vm\\\\n\\\\n\\# Verdict: TPU: the factory line" in runs_block
    assert "\x1b" not in md and "\u202e" not in md and "\r" not in md and "\x07" not in md
    assert "<script>" not in md
    assert not [line for line in md.splitlines() if line.startswith("| forged")]


def test_markdown_rendered_by_a_commonmark_parser_has_only_the_reports_own_structure(data) -> None:
    markdown_it = pytest.importorskip("markdown_it")
    parser = markdown_it.MarkdownIt("commonmark").enable("table")
    tokens = parser.parse(to_markdown(data))
    heads = re.findall(r"<h\d>(.*?)</h\d>", parser.render(to_markdown(data)))
    assert heads[0] == "GPU or TPU: x\\n## Injected section"  # as the file wrote it, on one line
    assert "Verdict" in heads and not [h for h in heads if "factory line" in h or h == "Injected section"]
    kinds = {t.type for t in tokens}
    assert "blockquote_open" not in kinds and "code_block" not in kinds and "html_block" not in kinds
    assert "html_inline" not in kinds and "hr" not in kinds
    notes = to_markdown(data).split("## Notes\n\n", 1)[1].split("\n## ", 1)[0]
    rendered = markdown_it.MarkdownIt("commonmark").render(notes)
    assert "<h1>" not in rendered and "<li>" not in rendered and "<blockquote>" not in rendered
    assert "# Not a heading" in rendered and "1. not a list" in rendered and "&gt; not a quote" in rendered


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_html_shows_every_file_text_as_escaped_plain_text_on_one_line(data) -> None:
    page = to_html(data)
    parser = _Text()
    parser.feed(page)
    assert "script" not in parser.tags
    text = "".join(parser.text)
    assert "vm\\n\\n# Verdict: TPU: the factory line" in text
    assert "<script>alert(1)</script>\\x1b[31mred\\u202eevil" in text
    assert "\x1b" not in page and "\u202e" not in page and "\x07" not in page and "\r" not in page
    li = [t for t in parser.text if t.startswith("vm\\n")]
    assert len(li) == 1 and "\n" not in li[0]
