"""The check's phases: one registry (core.modelcheck.phases) words every stage the worker names, for the CLI's
progress, the window's step line and the timeout error, in both languages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpu_tpu_app.core.modelcheck import CheckSession
from gpu_tpu_app.core.modelcheck.phases import PHASES, STEPS, estimate_left, phase_of, phase_words, progress

WORKER = Path(__file__).resolve().parents[2] / "gpu_tpu_app" / "worker"


def _worker_stages() -> set[str]:
    """Every stage name the worker and the TPU compile child send, read from their sources (f-strings up to
    their first placeholder)."""
    found = set()
    for path in [*WORKER.glob("modelcheck*.py"), *WORKER.glob("modelcheck/*.py"), WORKER / "tpu_compile.py"]:
        source = path.read_text()
        for m in re.finditer(r'_stage\(\s*f?"([^"{]*)', source):
            found.add(m.group(1))
        for m in re.finditer(r'"type": "stage", "stage": f?"([^"{]*)', source):
            found.add(m.group(1))
    return {s for s in found if s}


def test_every_stage_the_worker_names_belongs_to_a_phase() -> None:
    stages = _worker_stages()
    assert len(stages) >= 12  # the reading above found the worker's stages
    assert {s for s in stages if phase_of(s) is None} == set()
    assert [p.step for p in PHASES] == list(range(1, STEPS + 1))


@pytest.mark.parametrize(
    ("stage", "function", "en", "zh"),
    [
        ("lower through torchax", "model().forward", "step 5 of 6: lowering for TPU", "第 5 步，共 6 步：为 TPU 下降"),
        ("compiling for TPU v6e:1x1", "the TPU compiler", "step 6 of 6: compiling for v6e", "为 v6e 编译"),
        ("calling model()", "model()", "step 2 of 6: calling model()", "调用 model()"),
    ],
)
def test_a_stage_in_words_with_its_step(stage: str, function: str, en: str, zh: str) -> None:
    assert progress(stage, function, "en") == en
    assert progress(stage, function, "zh-Hans").endswith(zh)
    assert "torchax" not in progress(stage, function, "en")  # no raw step names


def test_the_timeout_error_words_the_phase_as_the_progress_does() -> None:
    s = CheckSession("m.py", 30, 4096, "en")
    s.feed(b'{"type": "stage", "stage": "lower through torchax", "function": "model().forward"}\n')
    line = s.finish(None, 30.0, timed_out=True)
    assert isinstance(line, str) and "(during lowering for TPU)" in line
    assert phase_words("something the registry does not list") == "something the registry does not list"


def test_the_estimate_comes_from_the_steps_done() -> None:
    assert estimate_left(1, 5.0) is None  # nothing finished yet
    assert estimate_left(3, 20.0) == pytest.approx(40.0)  # 2 steps in 20 s: 4 more at 10 s each
    assert estimate_left(STEPS, 50.0) == pytest.approx(10.0)
