"""The PDF's table columns, checked without a PDF reader: a short cell or each side of a short range ("7.65 days
- 9.66 days") never breaks inside (the Time column was one word wide: "7.65 / days / - / 9.66 / days"), a long
cell still wraps at its words, and the estimate table's font steps down until every column gets its widest
unbreakable piece instead of squeezing them all."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QFont, QFontMetricsF

from gpu_tpu_app.ui.result.report_pdf import NBSP, keep_together, least_width


def test_short_cells_and_short_ranges_keep_their_pieces_whole(qapp) -> None:
    fm = QFontMetricsF(QFont("DejaVu Sans", 9))
    assert keep_together("3.2 days") == f"3.2{NBSP}days"
    assert keep_together("7.65 days - 9.66 days") == f"7.65{NBSP}days{NBSP}- 9.66{NBSP}days"
    assert least_width("7.65 days - 9.66 days", fm) == fm.horizontalAdvance("7.65 days -")
    assert least_width(keep_together("3.2 days"), fm) == fm.horizontalAdvance("3.2 days")
    long = "compute-bound at the catalogue peak"
    assert keep_together(long) == long
    assert least_width(long, fm) == max(fm.horizontalAdvance(w) for w in long.split())
    assert keep_together("按芯片计算的内存") == "按芯片计算的内存"  # Chinese breaks between characters as before


def test_the_estimate_table_fits_its_columns_at_a_smaller_font(qapp) -> None:
    widths, least, total = build_report()
    assert sum(widths) <= total + 1
    assert all(w >= m - 0.5 for w, m in zip(widths, least)), "a column got less than its widest piece"


def build_report() -> tuple[list[float], list[float], float]:
    """Render the report of a session with an 11-column estimate; return the estimate table's column widths,
    the least each column needs and the text width (the widest table's)."""
    from gpu_tpu_app.core.catalog import load_catalog
    from gpu_tpu_app.core.decision import Answers
    from gpu_tpu_app.core.estimate import EstimateRequest
    from gpu_tpu_app.core.lesson import load_lesson
    from gpu_tpu_app.core.report import collect, session_estimate
    from gpu_tpu_app.core.session import new_session
    from gpu_tpu_app.ui.result import report_pdf as rp

    seen: list[tuple[list[float], list[float], float]] = []
    original = rp._fit_columns

    def spy(least: list[float], ideal: list[float], total: float) -> Any:
        widths = original(least, ideal, total)
        seen.append((widths, least, total))
        return widths

    session = new_session().model_copy(update={"answers": Answers(framework="jax", deployment="google_cloud")})
    session = session.with_estimate(EstimateRequest(params=7e9, chips=8, prices={"h100-sxm": 2.5}))
    catalog = load_catalog()
    rec = session.recommendation()
    data = collect(session, load_lesson(), catalog, session_estimate(session, catalog), "t", rec=rec)
    rp._fit_columns = spy
    try:
        rp.report_pdf(data, rp.Gauge(rec.score, rec.verdict, rec.confidence))
    finally:
        rp._fit_columns = original
    return max(seen, key=lambda s: len(s[0]))
