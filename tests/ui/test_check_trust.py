"""Check my model… never replaces a stated answer: a measured value fills only an answer left open, a
differing one shows both with "Use measured", nothing changes until the user chooses, and the bar says
what the check did to the verdict. A property over answer sets (hypothesis), on the real wizard."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpu_tpu_app.core.decision import QUESTIONS, Answers, decide
from gpu_tpu_app.core.lesson import load_lesson
from gpu_tpu_app.core.modelcheck import ANSWER_FIELDS, MeasuredAnswers, ModelCheck
from gpu_tpu_app.core.verdict_text import verdict_words
from gpu_tpu_app.ui.decide.wizard import DecideWizard


def _values(field: str) -> st.SearchStrategy[str | None]:
    return st.one_of(st.none(), st.sampled_from([v for v, _ in QUESTIONS[field].choices]))


ANSWER_SETS = st.fixed_dictionaries({f: _values(f) for f in ANSWER_FIELDS})


def _measured(field: str) -> st.SearchStrategy[str | None]:
    # the check measures only what its answer types allow
    return st.one_of(st.none(), st.sampled_from([v for v, _ in QUESTIONS[field].choices])).filter(
        lambda v: v is None or _valid(field, v)
    )


def _valid(field: str, value: str) -> bool:
    try:
        MeasuredAnswers.model_validate({field: value})
    except ValueError:
        return False
    return True


MEASURED_SETS = st.fixed_dictionaries({f: _measured(f) for f in ANSWER_FIELDS})


def _check(measured: dict[str, str | None]) -> ModelCheck:
    return ModelCheck(
        file="/home/u/models/net.py",
        framework="pytorch",
        level="static_graph_captured",
        answers=MeasuredAnswers(**measured),
        evidence=[],
        seconds=1.0,
    )


@pytest.fixture
def wizard(qtbot):
    w = DecideWizard(load_lesson())
    qtbot.addWidget(w)
    w.resize(1100, 760)
    return w


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(stated=ANSWER_SETS, measured=MEASURED_SETS, other=st.sampled_from(["scale", "team", "stage"]))
def test_a_stated_answer_is_never_replaced(wizard: DecideWizard, stated, measured, other) -> None:
    other_value = QUESTIONS[other].choices[0][0]
    wizard.set_model_check(None)
    wizard.set_answers(Answers(**stated, **{other: other_value}))
    emitted: list[Answers] = []
    wizard.sig_answers_changed.connect(emitted.append)
    try:
        before = wizard.answers()
        wizard.apply_model_check(_check(measured))
        after = wizard.answers()
        assert getattr(after, other) == other_value  # an answer the check cannot measure is untouched
        for f in ANSWER_FIELDS:
            mine, got = stated[f], measured[f]
            card = wizard.cards[f]
            expected = mine if mine is not None else got
            assert getattr(after, f) == expected, (f, mine, got)
            differs = mine is not None and got is not None and mine != got
            assert card.use_measured_button.isVisibleTo(card) == differs, (f, mine, got)
            text = card.measured_label.text()
            if differs:  # both show: the user's choice and the measured one
                choices = dict(QUESTIONS[f].choices)
                assert f"You: {choices[mine]}" in text and choices[got] in text, text
            elif got is not None:
                assert text.startswith("✓ measured"), text
        status = wizard.model_check_bar.status.text()
        # the verdict the check's change leads to is shown, next to the verdict before it
        old, new = verdict_words(decide(before)), verdict_words(decide(after))
        assert (f"Verdict unchanged: {new}." in status) if old == new else (f"{old} → {new}" in status), status
        # "Use measured" is the user's choice: it changes that one answer and nothing else
        differing = [f for f in ANSWER_FIELDS if wizard.cards[f].use_measured_button.isVisibleTo(wizard.cards[f])]
        if differing:
            f = differing[0]
            wizard.cards[f].use_measured_button.click()
            chosen = wizard.answers()
            assert getattr(chosen, f) == measured[f]
            assert chosen.model_copy(update={f: getattr(after, f)}) == after
            assert not wizard.cards[f].use_measured_button.isVisibleTo(wizard.cards[f])
            assert emitted[-1] == chosen
    finally:
        wizard.sig_answers_changed.disconnect(emitted.append)


def test_the_issue_case_keeps_a_few_kernels_and_variable_shapes(wizard: DecideWizard) -> None:
    wizard.set_model_check(None)
    wizard.set_answers(Answers(framework="pytorch", custom_ops="some", dynamic_shapes="yes"))
    wizard.apply_model_check(
        _check({"framework": "pytorch", "custom_ops": "none", "dynamic_shapes": "no", "xla_verified": "no"})
    )
    a = wizard.answers()
    assert (a.custom_ops, a.dynamic_shapes, a.xla_verified) == ("some", "yes", "no")
    label = wizard.cards["custom_ops"].measured_label.text()
    assert "You: A few, and they could be replaced" in label and "No, standard layers only" in label
    status = wizard.model_check_bar.status.text()
    assert "Filled 1 open answer from the check." in status
    assert "2 of your answers differ from what was measured and were kept" in status
    assert "Using every measured value: " in status


def test_the_model_dialog_opens_at_the_examples_then_the_last_folder(
    wizard: DecideWizard, tmp_path, monkeypatch
) -> None:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QFileDialog

    from gpu_tpu_app.ui.probe import model_check

    QSettings().remove(model_check.LAST_FOLDER_KEY)
    asked: list[str] = []
    picked = tmp_path / "mine" / "net.py"
    picked.parent.mkdir()

    def dialog(_parent, _title, folder, _filter):  # the user's pick, recorded with where the dialog opened
        asked.append(folder)
        return str(picked), ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", dialog)
    monkeypatch.setattr(wizard.model_check_bar, "check", lambda path: None)
    wizard.model_check_bar.choose_file()
    examples = Path(model_check.__file__).resolve().parents[3] / "examples" / "models"
    assert asked[0] == str(examples) and (examples / "torch_transformer.py").is_file()
    wizard.model_check_bar.choose_file()
    assert asked[1] == str(picked.parent)  # the last folder used, next time
    QSettings().remove(model_check.LAST_FOLDER_KEY)
