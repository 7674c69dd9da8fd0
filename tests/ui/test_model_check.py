"""Check my model… in the window: the worker runs in its own process, the page fills and marks what was
measured (evidence one click away, still changeable), Cancel stops it, bad files end in a dialog."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from gpu_tpu_app.core.lesson import load_lesson
from gpu_tpu_app.core.modelcheck import ANSWER_FIELDS, ModelCheck
from gpu_tpu_app.core.report import build_markdown
from gpu_tpu_app.core.session import load_session, save_session
from gpu_tpu_app.ui.decide.wizard import DecideWizard
from gpu_tpu_app.ui.shell.main_window import MainWindow

MODELS = Path(__file__).resolve().parents[2] / "examples" / "models"
CHECK_MS = 300_000  # a generous cap for a loaded machine; the tests wait on signals, never sleep

pytestmark = pytest.mark.slow


@pytest.fixture
def wizard(qtbot):
    w = DecideWizard(load_lesson())
    qtbot.addWidget(w)
    w.resize(1100, 760)
    w.show()
    return w


def test_check_fills_marks_and_stays_changeable(qtbot, wizard: DecideWizard) -> None:
    bar = wizard.model_check_bar
    emitted = []
    wizard.sig_answers_changed.connect(emitted.append)
    with qtbot.waitSignal(bar.sig_finished, timeout=CHECK_MS) as blocker:
        bar.check(str(MODELS / "jax_boolean_mask.py"))
        assert bar.progress_view.isVisible() and not bar.button.isEnabled()  # progress view while it runs
    check = blocker.args[0]
    assert isinstance(check, ModelCheck)
    assert not bar.progress_view.isVisible() and bar.button.isEnabled()
    answers = wizard.answers()
    assert (answers.framework, answers.xla_verified, answers.dynamic_shapes) == ("jax", "no", "yes")
    assert emitted and emitted[-1] == answers
    for field in ANSWER_FIELDS:  # every measurable answer is marked, decided or not
        assert wizard.cards[field].measured_label.text(), field
    card = wizard.cards["xla_verified"]
    assert card.measured_label.text() == "✓ measured in jax_boolean_mask.py"
    assert not card.evidence_label.isVisible()
    qtbot.mouseClick(card.evidence_button, Qt.MouseButton.LeftButton)
    assert card.evidence_label.isVisible()
    assert "NonConcreteBooleanIndexError" in card.evidence_label.text()
    assert "not decided" in wizard.cards["matmul_share"].measured_label.text()
    # the user still decides: choosing another value keeps the measurement visible beside it
    card.buttons["yes"].click()
    assert wizard.answers().xla_verified == "yes"
    assert "You: Yes, it compiles and runs cleanly" in card.measured_label.text()
    assert card.use_measured_button.isVisible()


def test_cancel_stops_the_worker_and_the_window_stays_responsive(qtbot, wizard: DecideWizard, tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    model = tmp_path / "slow.py"
    model.write_text(
        "import os, time\n\ndef model():\n"
        f"    open({str(pid_file)!r}, 'w').write(str(os.getpid()))\n"
        "    while True:\n        time.sleep(0.05)\n\n"
        "def example_inputs():\n    return ()\n"
    )
    bar = wizard.model_check_bar
    bar.check(str(model))
    qtbot.waitUntil(lambda: pid_file.exists() and pid_file.read_text() != "", timeout=CHECK_MS)
    worker_pid = int(pid_file.read_text())
    assert worker_pid != os.getpid()  # the user's code runs in the worker, not in the window's process
    qtbot.waitUntil(lambda: "model()" in bar.stage_label.text(), timeout=CHECK_MS)
    wizard.go_to_page(1)  # the window still answers while the check runs
    assert wizard.current_page() == 1
    wizard.go_to_page(0)
    with qtbot.waitSignal(bar.sig_finished, timeout=CHECK_MS) as blocker:
        qtbot.mouseClick(bar.cancel_button, Qt.MouseButton.LeftButton)
    assert blocker.args == [None]
    assert "cancelled" in bar.status.text()

    def gone() -> bool:
        try:
            os.kill(worker_pid, 0)
        except ProcessLookupError:
            return True
        return False

    qtbot.waitUntil(gone, timeout=10_000)
    assert wizard.answers().framework is None  # nothing was filled


def test_the_step_line_counts_steps_with_elapsed_time_and_cancel_ends_at_once(
    qtbot, wizard: DecideWizard, tmp_path: Path
) -> None:
    model = tmp_path / "slow.py"
    model.write_text(
        "import time\n\ndef model():\n    while True:\n        time.sleep(0.05)\n\n"
        "def example_inputs():\n    return ()\n"
    )
    bar = wizard.model_check_bar
    bar.check(str(model))
    qtbot.waitUntil(lambda: "step 2 of 6: calling model()" in bar.stage_label.text(), timeout=CHECK_MS)
    assert "s elapsed" in bar.stage_label.text() and "about" in bar.stage_label.text()  # step 1 done: an estimate
    assert bar.progress.maximum() == 6 and bar.progress.value() == 1
    finished = []
    bar.sig_finished.connect(finished.append)
    qtbot.mouseClick(bar.cancel_button, Qt.MouseButton.LeftButton)
    assert finished == [None] and not bar.progress_view.isVisible()  # at once, not after the worker is reaped


def test_bad_file_shows_a_dialog_with_one_line(qtbot, wizard: DecideWizard, tmp_path: Path, error_boxes) -> None:
    model = tmp_path / "broken.py"
    model.write_text("def model(:\n    pass\n")
    bar = wizard.model_check_bar
    with qtbot.waitSignal(bar.sig_finished, timeout=CHECK_MS) as blocker:
        bar.check(str(model))
    assert blocker.args[0] == f"{model}:1: SyntaxError: invalid syntax"
    assert len(error_boxes) == 1 and error_boxes[0].isVisible()
    assert error_boxes[0].text() == blocker.args[0]
    assert error_boxes[0].textFormat() == Qt.TextFormat.PlainText
    error_boxes[0].close()
    assert wizard.answers().framework is None


def test_window_keeps_the_check_in_the_session_result_and_report(qtbot, tmp_path: Path) -> None:
    w = MainWindow(persist=False)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    bar = w.wizard.model_check_bar
    with qtbot.waitSignal(bar.sig_finished, timeout=CHECK_MS):
        bar.check(str(MODELS / "jax_boolean_mask.py"))
    session = w.session()
    assert session.model_check is not None and session.answers.xla_verified == "no"
    w.show_result()
    texts = [lab.text() for lab in w.result_page.findChildren(QLabel) if "<a href" in lab.text()]
    assert any("Measured in jax_boolean_mask.py" in t and "NonConcreteBooleanIndexError" in t for t in texts)
    report = build_markdown(session, load_lesson())
    assert "Measured in jax\\_boolean\\_mask.py" in report
    # saved and opened again, the marks come back with the answers
    path = tmp_path / "session.json"
    save_session(session, path)
    other = MainWindow(persist=False)
    qtbot.addWidget(other)
    other.set_session(load_session(path), path)
    assert other.session().model_check == session.model_check
    assert other.wizard.cards["xla_verified"].measured_label.text() == "✓ measured in jax_boolean_mask.py"
    for window in (w, other):
        window.shutdown()
        window.session_controller.mark_clean()  # the test is over: close without the unsaved-changes prompt


# The window process importing neither the user's code nor a framework during a check is held by
# tests/test_core_purity.py::test_the_window_process_never_imports_torch_jax_or_user_code.


def test_the_bars_python_selector_runs_the_check_in_the_chosen_venv(
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error_boxes
) -> None:
    from tests.venv_helpers import TORCH_DEPS, link_frameworks, plain_venv

    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))  # discovery finds only what this test makes
    monkeypatch.setenv("PYENV_ROOT", str(home / "no-pyenv"))
    for var in ("CONDA_EXE", "CONDA_PREFIX", "VIRTUAL_ENV"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(home)
    venv = plain_venv(home / ".virtualenvs" / "train")  # torch linked in, no pydantic
    link_frameworks(venv, TORCH_DEPS)
    w = DecideWizard(load_lesson())
    qtbot.addWidget(w)
    bar = w.model_check_bar
    with qtbot.waitSignal(bar.envs.sig_listed, timeout=CHECK_MS):
        w.show()  # the first show lists the environments (the Probe page's selector)
    assert bar.envs.select(str(venv))
    models = Path(__file__).resolve().parents[1] / "data" / "models"
    with qtbot.waitSignal(bar.sig_finished, timeout=CHECK_MS) as blocker:
        bar.check(str(models / "torch_mha_pool.py"))
        assert not bar.envs.isEnabled()  # not changed under a running check
    check = blocker.args[0]
    assert isinstance(check, ModelCheck), check
    assert f"in {venv}" in check.evidence_for("framework")[0].detail  # it ran in the chosen interpreter
    # a package missing there: the error names that interpreter and says how to choose another
    with qtbot.waitSignal(bar.sig_finished, timeout=CHECK_MS) as blocker:
        bar.check(str(models / "torch_needs_extra_package.py"))
    message = blocker.args[0]
    assert isinstance(message, str) and "No module named 'gpu_tpu_demo_layers'" in message
    assert str(venv) in message and "Python selector beside Check my model" in message
    assert error_boxes and error_boxes[-1].text() == message
