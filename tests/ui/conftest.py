"""Fixtures shared by the window's tests."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from PySide6.QtWidgets import QMessageBox

from gpu_tpu_app.core.runs import DeviceInfo, ProbeResult, RunFile, Stats


@pytest.fixture
def compile_and_matmul_run() -> RunFile:
    """A small hand-made run file: test input for rendering, not a measurement."""
    dev = DeviceInfo(backend="jax", platform="cpu", name="Test CPU")
    stats = Stats(median=1.0, min=1.0, max=1.0, q1=1.0, q3=1.0, iqr=0.0, cv=0.0, reps=3, seconds=0.1)
    results = [
        ProbeResult(
            kernel="compile",
            backend="jax",
            device=dev.key,
            size=1024,
            variant=v,
            metric="seconds",
            value=t,
            unit="s",
            stats=stats,
        )
        for v, t in (("lower", 0.012), ("compile", 0.25), ("first_call", 0.27), ("steady", 0.0004))
    ] + [
        ProbeResult(
            kernel="matmul",
            backend="jax",
            device=dev.key,
            dtype="float32",
            size=2048,
            metric="flops",
            value=2.5e11,
            unit="FLOP/s",
            stats=stats,
        ),
    ]
    return RunFile(
        app_version="0",
        host="testhost",
        os="Linux",
        python="3.11",
        devices=[dev],
        suite="smoke",
        started=datetime(2026, 1, 1, tzinfo=UTC),
        complete=True,
        results=results,
    )


@pytest.fixture
def error_boxes(monkeypatch) -> list[QMessageBox]:
    """The message boxes opened without exec (window-modal error dialogs), in order; each still opens."""
    opened: list[QMessageBox] = []
    original = QMessageBox.open

    def record(box: QMessageBox) -> None:
        opened.append(box)
        original(box)

    monkeypatch.setattr(QMessageBox, "open", record)
    return opened
