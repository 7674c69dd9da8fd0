"""The window's TPU chip choice beside Check my model…: it reaches the worker, and its result reaches the page."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpu_tpu_app.core.modelcheck import ModelCheck
from gpu_tpu_app.ui.probe.model_check import TPU_CHIP_CHOICES, ModelCheckBar

pytestmark = pytest.mark.slow

MODEL = """
import jax.numpy as jnp

def params():
    return {"w": jnp.ones((64, 64))}

def forward(p, x):
    return jnp.tanh(x @ p["w"])

def example_inputs():
    return (jnp.ones((8, 64)),)
"""
CHECK_MS = 400_000  # a generous cap for a loaded machine; the test waits on the signal


def _run(qtbot, bar: ModelCheckBar, path: Path) -> ModelCheck:  # type: ignore[no-untyped-def]
    with qtbot.waitSignal(bar.sig_finished, timeout=CHECK_MS) as blocker:
        bar.check(str(path))
    result = blocker.args[0]
    assert isinstance(result, ModelCheck), result
    return result


def test_the_chip_choice_sets_the_slice_and_none_skips_the_compile(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bar = ModelCheckBar()
    qtbot.addWidget(bar)
    assert bar.chips.currentData() == 1 and bar.chips.currentText() == "1 chip"
    path = tmp_path / "small.py"
    path.write_text(MODEL)
    bar.chips.setCurrentIndex(TPU_CHIP_CHOICES.index(4))
    four = _run(qtbot, bar, path)
    assert four.tpu_compile is not None and four.tpu_compile.chips == 4
    v5e = four.tpu_compile.generation("tpu-v5e")
    assert v5e is not None and v5e.topology == "v5e:2x2" and v5e.status == "compiled"
    assert "compiled for TPU" in bar.status.text()
    bar.chips.setCurrentIndex(TPU_CHIP_CHOICES.index(0))
    none = _run(qtbot, bar, path)
    assert none.tpu_compile is None and none.level == "lowered_for_tpu"
