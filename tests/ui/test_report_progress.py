"""Exporting the report as PDF (about 1.4 s) shows its steps (building, laying out the pages, writing), the time
so far and an estimate, with a Cancel that stops it between two sections and writes nothing. The real
window's report of the example session, the real PDF layout."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gpu_tpu_app.core.session import load_session
from gpu_tpu_app.ui.result.report_dialog import ReportDialog
from gpu_tpu_app.ui.result.report_pdf import ReportCancelled
from gpu_tpu_app.ui.shell.main_window import MainWindow

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "example-session.json"


@pytest.fixture
def window(qtbot) -> Iterator[MainWindow]:
    w = MainWindow(persist=False)
    qtbot.addWidget(w, before_close_func=lambda win: win.session_controller.mark_clean())
    w.set_session(load_session(EXAMPLE))
    yield w
    w.shutdown()


def _dialog(qtbot, window: MainWindow, tmp_path: Path) -> ReportDialog:
    md, html_text = window.report_texts()
    dialog = ReportDialog(md, html_text, tmp_path / "r", window, pdf=window.report_pdf)
    qtbot.addWidget(dialog)
    return dialog


def test_a_pdf_shows_its_steps_time_and_estimate(qtbot, window: MainWindow, tmp_path: Path) -> None:
    dialog = _dialog(qtbot, window, tmp_path)
    steps: list[tuple[int, int, str]] = []
    labels: list[str] = []

    def seen(k: int, n: int, what: str) -> None:
        steps.append((k, n, what))
        assert dialog.progress_dialog is not None and dialog.progress_dialog.isVisible()
        labels.append(dialog.progress_dialog.labelText())

    dialog.sig_progress.connect(seen)
    assert dialog.save_to(tmp_path / "r.pdf")
    assert (tmp_path / "r.pdf").read_bytes().startswith(b"%PDF")
    assert [k for k, _n, _w in steps] == sorted(k for k, _n, _w in steps)  # in order
    assert {(k, n) for k, n, _w in steps} == {(1, 3), (2, 3), (3, 3)}
    assert {w for _k, _n, w in steps} == {
        "building the report from your answers",
        "laying out the pages",
        "writing the file",
    }
    # every section laid out is a step of its own: the point where a Cancel is heard
    assert sum(1 for k, _n, _w in steps if k == 2) >= 5
    assert all(" s so far, " in t and t.startswith("Step ") for t in labels), labels
    assert any(" s left" in t for t in labels), labels
    assert dialog.progress_dialog is None  # closed when done


def test_cancel_stops_the_pdf_at_once_and_writes_nothing(qtbot, window: MainWindow, tmp_path: Path) -> None:
    dialog = _dialog(qtbot, window, tmp_path)
    pressed: list[float] = []

    def press_cancel_while_laying_out(k: int, _n: int, _what: str) -> None:
        if k == 2 and not pressed and dialog.progress_dialog is not None:
            pressed.append(time.monotonic())
            dialog.progress_dialog.cancel()  # as the Cancel button does

    dialog.sig_progress.connect(press_cancel_while_laying_out)
    target = tmp_path / "r.pdf"
    target.write_bytes(b"an older report")  # nothing is lost or overwritten
    assert not dialog.save_to(target)
    took = time.monotonic() - pressed[0]
    assert took < 0.5, took
    assert target.read_bytes() == b"an older report"
    assert [p.name for p in tmp_path.iterdir()] == ["r.pdf"]  # no temporary file left behind
    assert dialog.status.text() == "Cancelled: no PDF was written." and dialog.progress_dialog is None
    assert dialog.isVisible() or not dialog.result()  # not accepted: the user can save again
    # and again, not cancelled: written
    dialog.sig_progress.disconnect(press_cancel_while_laying_out)
    assert dialog.save_to(target) and target.read_bytes().startswith(b"%PDF")


def test_the_report_pdf_raises_cancelled_between_sections(window: MainWindow) -> None:
    calls: list[float] = []

    def stop_at_third(_k: int, _n: int, _what: str, done: float) -> bool:
        calls.append(done)
        return len(calls) < 3

    with pytest.raises(ReportCancelled):
        window.report_pdf(progress=stop_at_third)
    assert len(calls) == 3 and calls == sorted(calls)
