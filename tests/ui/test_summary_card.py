"""The Probe page's "This machine at a glance" card: a run cancelled before its end does not replace the headline
of the last complete run (it counts only while no run has finished, and the card says so), and the card is as
tall as its wrapped lines need at the width it has, so its explanation is never cut."""

from __future__ import annotations

from datetime import UTC, datetime

from PySide6.QtWidgets import QLabel

from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.runs import DeviceInfo, ProbeResult, RunFile, Stats
from gpu_tpu_app.ui.result.summary_card import SummaryCard


def _run(flops: float, complete: bool, minute: int) -> RunFile:
    """A hand-made run file (test input, not a measurement): one trusted matmul point of `flops`."""
    dev = DeviceInfo(backend="torch", platform="cpu", name="Test CPU")
    st = Stats(median=flops, min=flops, max=flops, q1=flops, q3=flops, iqr=0.0, cv=0.01, reps=10, seconds=1.0)
    point = ProbeResult(
        kernel="matmul",
        backend="torch",
        device=dev.key,
        dtype="float32",
        size=1024,
        metric="flops",
        value=flops,
        unit="FLOP/s",
        stats=st,
    )
    return RunFile(
        app_version="0",
        host="this-host",
        os="Linux",
        python="3.11",
        devices=[dev],
        suite="quick",
        started=datetime(2026, 1, 1, 0, minute, tzinfo=UTC),
        complete=complete,
        results=[point],
        errors=[] if complete else ["cancelled before the end"],
    )


def test_a_cancelled_run_does_not_replace_the_headline_of_the_last_complete_run(qtbot) -> None:
    card = SummaryCard()
    qtbot.addWidget(card)
    complete = _run(2e11, complete=True, minute=0)
    cancelled = _run(9e11, complete=False, minute=5)  # a short, cancelled run with a higher (noisier) figure
    card.set_runs([complete, cancelled])
    assert card.best["matmul"].value == 2e11
    assert "did not finish" not in card.note.text()
    card.set_runs([cancelled])  # nothing finished yet: the partial run's figure, said to be partial
    assert card.best["matmul"].value == 9e11
    assert "did not finish" in card.note.text()


def test_the_card_is_as_tall_as_its_wrapped_lines_need_at_its_width(qtbot) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QSplitter, QTextEdit

    card = SummaryCard()
    side = QSplitter(Qt.Orientation.Vertical)  # as in the Probe page's side panel
    side.addWidget(card)
    side.addWidget(QTextEdit())
    qtbot.addWidget(side)
    side.resize(900, 700)
    side.show()
    card.set_chips(list(load_catalog().chips)[:3])
    card.set_runs([_run(2e11, complete=True, minute=0)])
    qtbot.wait(10)
    side.resize(card.minimumSizeHint().width(), 700)  # the side panel narrowed
    side.setSizes([1, 1000])  # and the splitter giving the card as little height as it allows
    qtbot.wait(10)
    wrapped = [lab for lab in card.findChildren(QLabel) if lab.wordWrap() and lab.isVisible() and lab.text()]
    assert wrapped
    for lab in wrapped:
        assert lab.height() >= lab.heightForWidth(lab.width()), f"cut: {lab.text()!r}"
