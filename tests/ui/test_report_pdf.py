"""The PDF report, rendered with poppler-utils (pdftoppm to page images, pdftotext for the text): tables at
full text width, no word broken inside, no table row split across pages, the verdict gauge drawn.

`make test` installs poppler-utils (Makefile DEB_PACKAGES). The session is hand-made test input."""

from __future__ import annotations

import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest

from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.estimate import EstimateRequest
from gpu_tpu_app.core.lesson import load_lesson
from gpu_tpu_app.core.modelcheck import ModelCheck
from gpu_tpu_app.core.report import ESTIMATE_HEADER, collect, session_estimate
from gpu_tpu_app.core.session import new_session
from gpu_tpu_app.ui.result.report_dialog import report_stem
from gpu_tpu_app.ui.result.report_pdf import DPI, MARGIN_MM, Gauge, _fit_columns, report_pdf
from tests.builders import tpu_answers
from tests.core.test_trust import BUSY

pytestmark = pytest.mark.skipif(
    shutil.which("pdftoppm") is None or shutil.which("pdftotext") is None,
    reason="poppler-utils is not installed (make test installs it)",
)

ANSWERS = tpu_answers()
A4_MM = (210.0, 297.0)
DATA = Path(__file__).resolve().parents[1] / "data"
RENDER_DPI = 50


@pytest.fixture(scope="module")
def pdf(tmp_path_factory, qapp) -> dict:
    session = new_session().model_copy(update={"answers": ANSWERS, "runs": [BUSY], "notes": "One.\n\nTwo."})
    session = session.with_estimate(EstimateRequest(params=7e9, chips=8, prices={"h100-sxm": 2.5}))
    # a real check's TPU compile table (tests/data/model-check-tpu-compiled.json), so the layout rules cover it
    session = session.with_model_check(
        ModelCheck.model_validate_json((DATA / "model-check-tpu-compiled.json").read_text())
    )
    catalog = load_catalog()
    rec = session.recommendation()
    data = collect(session, load_lesson(), catalog, session_estimate(session, catalog), "jax-prod", rec=rec)
    folder = tmp_path_factory.mktemp("pdf")
    path = folder / "report.pdf"
    path.write_bytes(report_pdf(data, Gauge(rec.score, rec.verdict, rec.confidence)))
    subprocess.run(
        ["pdftoppm", "-r", str(RENDER_DPI), "-gray", str(path), str(folder / "page")], check=True, timeout=120
    )
    pages = sorted(folder.glob("page-*.pgm"))
    texts = [
        unicodedata.normalize(
            "NFKC",
            subprocess.run(
                ["pdftotext", "-layout", "-f", str(n), "-l", str(n), str(path), "-"],
                check=True,
                capture_output=True,
                text=True,
                timeout=60,
            ).stdout,
        )
        for n in range(1, len(pages) + 1)
    ]
    return {"data": data, "path": path, "pages": pages, "texts": texts}


def _pgm(path: Path) -> tuple[int, int, bytes]:
    raw = path.read_bytes()
    parts = raw.split(maxsplit=4)  # P5, width, height, maxval, pixels
    assert parts[0] == b"P5"
    return int(parts[1]), int(parts[2]), parts[4]


def _longest_dark_run(width: int, height: int, pixels: bytes, below: int = 235) -> int:
    best = 0
    for y in range(height):
        row = pixels[y * width : (y + 1) * width]
        run = 0
        for v in row:
            run = run + 1 if v < below else 0
            best = max(best, run)
    return best


def test_pages_are_a4_and_the_report_spans_several(pdf) -> None:
    width, height, _ = _pgm(pdf["pages"][0])
    assert abs(width - A4_MM[0] / 25.4 * RENDER_DPI) <= 2 and abs(height - A4_MM[1] / 25.4 * RENDER_DPI) <= 2
    assert len(pdf["pages"]) >= 3  # the estimate table runs over a page break
    assert all(f"page {n}" in text for n, text in enumerate(pdf["texts"], 1))


def test_tables_span_the_full_text_width(pdf) -> None:
    text_width = (A4_MM[0] - 2 * MARGIN_MM) / 25.4 * RENDER_DPI
    table_pages = [i for i, t in enumerate(pdf["texts"]) if "Question" in t or "Peak used" in t]
    assert table_pages
    for i in table_pages:
        run = _longest_dark_run(*_pgm(pdf["pages"][i]))
        assert run >= 0.97 * text_width, f"page {i + 1}: the widest table border is {run} px of {text_width:.0f}"


def _tokens(text: str) -> set[str]:
    return set(text.split())


def test_no_word_in_a_table_is_broken(pdf) -> None:
    data = pdf["data"]
    cells = [
        *ESTIMATE_HEADER,
        *(c for row in data.estimate_rows for c in row),
        "Step",
        "Question",
        "Answer",
        *(c for row in data.answers for c in row),
    ]
    tokens = set().union(*(_tokens(t) for t in pdf["texts"]))
    words = {w for c in cells for w in c.split()}
    missing = sorted(w for w in words if w not in tokens)
    assert not missing, f"words not found whole in the PDF text: {missing[:10]}"
    assert "Cost" in tokens and "TFLOP/s" in tokens and "Cos" not in tokens and "TFLOP/" not in tokens


def test_no_table_row_is_split_across_pages(pdf) -> None:
    data = pdf["data"]
    pages = [_tokens(t) for t in pdf["texts"]]
    first_page: list[int] = []
    for row in [*data.estimate_rows, *(list(a) for a in data.answers)]:
        words = {w for c in row for w in c.split()}
        on = [i for i, page in enumerate(pages) if words <= page]
        assert on, f"row {row[:2]} is not whole on any one page"
        first_page.append(on[0])
    estimate = first_page[: len(data.estimate_rows)]
    assert estimate[0] < estimate[-1]  # the estimate table does run over a page break, whole rows on each side
    # ... and the header is repeated on the page it continues on
    assert all("Peak used" in pdf["texts"][i] or "Peak" in pdf["texts"][i] for i in set(estimate))


def test_the_gauge_is_drawn_on_the_first_page(pdf, tmp_path) -> None:
    from gpu_tpu_app.ui.shell.theme import theme_manager

    subprocess.run(
        ["pdftoppm", "-r", str(RENDER_DPI), "-f", "1", "-l", "1", str(pdf["path"]), str(tmp_path / "c")],
        check=True,
        timeout=60,
    )
    raw = next(tmp_path.glob("c-*.ppm")).read_bytes()
    magic, w, h, _max, pixels = raw.split(maxsplit=4)
    assert magic == b"P6"
    rgb = [tuple(pixels[i : i + 3]) for i in range(0, int(w) * int(h) * 3, 3)]

    def near(color: str) -> int:
        c = theme_manager().color(color)
        target = (c.red(), c.green(), c.blue())
        return sum(1 for px in rgb if sum(abs(a - b) for a, b in zip(px, target)) < 60)

    # the track runs from the GPU colour to the TPU colour, as in the window
    assert near("gpu") > 20 and near("tpu") > 20
    assert "TPU" in pdf["texts"][0] and "Verdict" in pdf["texts"][0]


def test_columns_are_never_narrower_than_their_longest_word() -> None:
    least, ideal = [50.0, 80.0, 30.0], [400.0, 900.0, 60.0]
    widths = _fit_columns(least, ideal, 1000.0)
    assert sum(widths) == pytest.approx(1000.0) and all(w >= m for w, m in zip(widths, least))
    roomy = _fit_columns(least, [100.0, 200.0, 50.0], 1000.0)
    assert sum(roomy) == pytest.approx(1000.0)  # full width even when the text is short
    assert DPI >= 150


def test_the_default_report_name_is_sensible(tmp_path) -> None:
    assert report_stem(None, home=tmp_path) == tmp_path / "gpu-tpu-report"
    assert report_stem(tmp_path / "jax-prod.json") == tmp_path / "jax-prod-report"
    assert report_stem(None, home=tmp_path).with_suffix(".md").name == "gpu-tpu-report.md"


def test_a_files_text_stays_inert_and_on_one_line_in_the_pdf(tmp_path, qapp) -> None:
    """Issue 22 §5: a run's host and the notes cannot add lines or headings to the PDF either."""
    from tests.core.test_report_inert import FORGED_DEVICE, FORGED_HOST

    forged = BUSY.model_copy(update={"host": FORGED_HOST})
    forged = forged.model_copy(update={"devices": [forged.devices[0].model_copy(update={"name": FORGED_DEVICE})]})
    session = new_session().model_copy(update={"answers": ANSWERS, "runs": [forged], "notes": "Line\x1b[2J one."})
    data = collect(session, load_lesson(), load_catalog(), None, "name\n# Forged title")
    path = tmp_path / "forged.pdf"
    path.write_bytes(report_pdf(data))
    text = subprocess.run(
        ["pdftotext", "-raw", str(path), "-"], check=True, capture_output=True, text=True, timeout=60
    ).stdout
    lines = text.splitlines()
    assert [ln for ln in lines if "vm\\n\\n# Verdict: TPU: the factory line" in ln]  # escaped, on the run's line
    assert not [ln for ln in lines if ln.strip().startswith(("# Verdict", "Verdict: TPU: the factory line"))]
    assert not [ln for ln in lines if ln.strip().startswith("| forged")]
    assert "\x1b" not in text and "\u202e" not in text
    assert "Line\\x1b[2J one." in text
    if shutil.which("pdfinfo"):
        info = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True, timeout=60).stdout
        assert re.search(r"^Title: +GPU or TPU: name\\n# Forged title$", info, re.M)


def test_the_tpu_compile_table_is_in_the_pdf_with_the_compiler_s_no(pdf) -> None:
    text = " ".join(" ".join(t.split()) for t in pdf["texts"])
    assert "Compiled for TPU generations" in text
    assert "RESOURCE_EXHAUSTED" in text and "TPU v6e" in text
    assert pdf["data"].compile_rows and len(pdf["data"].compile_rows[0]) == 9


def test_a_time_keeps_each_figure_with_its_unit_on_one_line(pdf) -> None:
    """The Time column was one word wide ("7.65" over "days"): each side of a time range reads whole."""
    time_col = 4
    assert ESTIMATE_HEADER[time_col] == "Time"
    lines = [line for text in pdf["texts"] for line in text.splitlines()]
    halves = {half.strip() for row in pdf["data"].estimate_rows for half in row[time_col].split(" - ") if " " in half}
    assert halves
    assert [h for h in halves if not any(h in line for line in lines)] == []
