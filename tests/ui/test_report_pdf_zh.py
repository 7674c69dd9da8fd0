"""The PDF report in Simplified Chinese: a Chinese font embedded (no empty boxes), the text round-trips through
pdftotext, and Chinese written without spaces wraps within the page, in paragraphs and in table cells."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QFontMetricsF

from gpu_tpu_app import i18n
from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.estimate import EstimateRequest
from gpu_tpu_app.core.lesson import load_lesson
from gpu_tpu_app.core.report import collect, session_estimate
from gpu_tpu_app.core.session import new_session
from gpu_tpu_app.ui.result import cjk_pdf_font
from gpu_tpu_app.ui.result import report_pdf as rp
from gpu_tpu_app.ui.result.report_dialog import ReportDialog
from gpu_tpu_app.ui.shell import cjk_text, translations
from tests.core.test_trust import BUSY
from tests.ui.test_report_pdf import ANSWERS, MARGIN_MM, RENDER_DPI, _pgm

pytestmark = pytest.mark.skipif(
    any(shutil.which(tool) is None for tool in ("pdftoppm", "pdftotext", "pdffonts")),
    reason="poppler-utils is not installed (make test installs it)",
)

#: one long Chinese paragraph with no space in it, and a sentence that mixes in Latin words and numbers
LONG = "这是一段没有空格的中文说明" * 24 + "。"
MIXED = "在 8 块 TPU v5e 芯片上训练 7B 参数的模型，预计需要 3.5 天；按需价格以最新的来源为准。"
#: words whose characters Noto Sans CJK draws with the glyph of a Kangxi radical too (工 ⼯, 页 ⻚, 生 ⽣, 水 ⽔)
WORDS = "工坊的流水线生成了第 3 页。"


def radical_twins() -> str:
    """Every unified ideograph that the system's Chinese font draws with the same glyph as a radical
    (U+2E80-U+2FDF), read from the font file itself: the characters whose copied text came out as radicals."""
    from fontTools.ttLib import TTFont

    found = cjk_pdf_font.font_file(cjk_text.cjk_family() or "", bold=False)
    assert found is not None, "fontconfig does not name the Chinese font's file"
    with TTFont(str(found[0]), fontNumber=found[1], lazy=True) as font:
        best = font.getBestCmap()
    radical_glyphs = {glyph for cp, glyph in best.items() if 0x2E80 <= cp <= 0x2FDF}
    return "".join(chr(cp) for cp, glyph in sorted(best.items()) if 0x4E00 <= cp <= 0x9FFF and glyph in radical_glyphs)


@pytest.fixture(scope="module")
def zh_pdf(tmp_path_factory: pytest.TempPathFactory, qapp) -> Iterator[dict]:
    i18n.set_language("zh-Hans")
    translations.install(qapp, "zh-Hans")
    try:
        twins = radical_twins()
        notes = f"{LONG}\n\n{MIXED}\n\n{WORDS}\n\n{twins}"
        session = new_session().model_copy(update={"answers": ANSWERS, "runs": [BUSY], "notes": notes})
        session = session.with_estimate(EstimateRequest(params=7e9, chips=8, prices={"h100-sxm": 2.5}))
        catalog = load_catalog()
        rec = session.recommendation()
        data = collect(session, load_lesson(), catalog, session_estimate(session, catalog), "zh-report", rec=rec)
        verdict = QCoreApplication.translate("ReportPdf", "Verdict")
        folder = tmp_path_factory.mktemp("pdf-zh")
        path = folder / "report.pdf"
        path.write_bytes(rp.report_pdf(data, rp.Gauge(rec.score, rec.verdict, rec.confidence)))
        subprocess.run(
            ["pdftoppm", "-r", str(RENDER_DPI), "-gray", str(path), str(folder / "page")], check=True, timeout=120
        )
        raw = subprocess.run(["pdftotext", str(path), "-"], check=True, capture_output=True, text=True).stdout
        fonts = subprocess.run(["pdffonts", str(path)], check=True, capture_output=True, text=True).stdout
        yield {
            "data": data,
            "path": path,
            "pages": sorted(folder.glob("page-*.pgm")),
            "text": raw,  # as pdftotext (copy and paste, a viewer's search) reads it: no normalising
            "fonts": fonts,
            "verdict": verdict,
            "twins": twins,
        }
    finally:
        translations.install(qapp, "en")
        i18n.set_language("en")


def test_the_chinese_report_embeds_a_chinese_font(zh_pdf: dict) -> None:
    assert cjk_text.cjk_family() is not None, "no Simplified Chinese font: make system-deps installs fonts-noto-cjk"
    rows = [line.split() for line in zh_pdf["fonts"].splitlines()[2:]]
    family = cjk_text.cjk_family().replace(" ", "")
    cjk = [r for r in rows if family.lower() in r[0].lower().replace("-", "")]
    assert cjk, zh_pdf["fonts"]
    assert all("yes" in r[-5:-2] for r in cjk), zh_pdf["fonts"]  # the emb column: embedded, not referenced
    assert zh_pdf["path"].stat().st_size < 2_000_000  # a subset, not the whole font


def test_the_chinese_text_round_trips(zh_pdf: dict) -> None:
    def flat(text: str) -> str:
        return re.sub(r"\s+", "", text)

    pdf_text = flat(zh_pdf["text"])
    assert zh_pdf["verdict"] == "结论" and "结论" in pdf_text
    assert flat(LONG) in pdf_text  # every character of the long paragraph, in order: none lost to a box
    assert flat(MIXED) in pdf_text
    assert flat(zh_pdf["data"].headline) in pdf_text
    assert "\ufffd" not in zh_pdf["text"]


def test_the_chinese_text_searches_as_the_ideographs_shown_not_radicals(zh_pdf: dict) -> None:
    text = zh_pdf["text"]
    flat = re.sub(r"\s+", "", text)
    for word in ("工坊", "流水线", "生成", "页"):
        assert word in text, word  # what a search for the word in a PDF viewer finds
    assert re.sub(r"\s+", "", WORDS) in flat
    twins = zh_pdf["twins"]
    assert len(twins) > 100 and {"工", "生", "页", "水"} <= set(twins), twins  # the font does share glyphs
    assert twins in flat  # every ideograph drawn with a radical's glyph copies as the ideograph
    radicals = sorted({f"U+{ord(ch):04X} {ch}" for ch in text if 0x2E80 <= ord(ch) <= 0x2FDF})
    assert not radicals, radicals


def test_long_chinese_lines_wrap_within_the_page(zh_pdf: dict) -> None:
    lines = [line for line in zh_pdf["text"].splitlines() if "这是一段" in line]
    assert len(lines) >= 3  # the paragraph without spaces took several lines
    right_edge = round((210.0 - MARGIN_MM + 1.0) / 25.4 * RENDER_DPI)
    for page in zh_pdf["pages"]:
        width, height, pixels = _pgm(page)
        for y in range(height):
            row = pixels[y * width + right_edge : (y + 1) * width]
            assert min(row, default=255) > 200, f"{page.name}: ink in the right margin at row {y}"


def test_chinese_breaks_between_characters_never_before_a_closing_mark() -> None:
    assert cjk_text.break_units("最便宜价格的来源") == list("最便宜价格的来源")
    assert cjk_text.break_units("需要 8 块芯片，TPU v5e。") == ["需", "要", "8", "块", "芯", "片，", "TPU", "v5e。"]
    assert cjk_text.break_units("TFLOP/s bf16") == ["TFLOP/s", "bf16"]  # Latin words still wrap at spaces only


def test_a_chinese_column_is_not_as_wide_as_its_whole_text(qapp) -> None:
    font = cjk_text.body_font(cjk=True)
    fm = QFontMetricsF(font)
    cell = "最便宜价格的来源" * 6
    least = max(fm.horizontalAdvance(u) for u in cjk_text.break_units(cell))
    assert least < fm.horizontalAdvance(cell) / 20


def test_without_a_chinese_font_the_pdf_dialog_says_so(qtbot, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cjk_text, "cjk_family", lambda: None)
    assert cjk_text.font_problem("English only") is None
    problem = cjk_text.font_problem("# 报告\n结论")
    assert problem and "fonts-noto-cjk" in problem
    dialog = ReportDialog("# 报告\n结论", "<h1>报告</h1>")
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.font_note.text() == problem
    assert not dialog.font_note.isVisible()  # Markdown is selected first
    dialog.format_combo.setCurrentIndex(dialog.format_combo.findData("pdf"))
    assert dialog.font_note.isVisible()
    monkeypatch.undo()
    english = ReportDialog("# Report", "<h1>Report</h1>")
    qtbot.addWidget(english)
    english.format_combo.setCurrentIndex(english.format_combo.findData("pdf"))
    assert english.font_note.text() == ""
