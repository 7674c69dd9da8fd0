"""Next steps are records: the window's button comes from the step's action, the CLI and the report
print its line with its command, and rewording a step keeps both."""

from __future__ import annotations

import argparse
import importlib
import random
import shutil
import tomllib
from pathlib import Path

import pytest
from pydantic import ValidationError

from gpu_tpu_app.cli import COMMANDS
from gpu_tpu_app.core.decision import ACTION_WORDS, FACTORS, Answers, Recommendation, Step, choices, decide
from gpu_tpu_app.core.decision.content import packaged_text_path, read_decision_text
from gpu_tpu_app.core.decision.steps import build_steps, steps_for

ROOT = Path(__file__).resolve().parents[3]


def _all_steps() -> list[Step]:
    return list(steps_for("en").steps.values())


def test_each_step_is_words_plus_an_action_and_a_command() -> None:
    for step in _all_steps():
        assert "gpu-tpu-" not in step.text and "{" not in step.text and "{" not in step.line, step.id
        if step.command is None:
            assert step.line == step.text, step.id
        else:
            assert step.command in step.line and step.command not in step.text, step.id
            assert step.action is not None, f"{step.id} names a command the window has no button for"
        if "gpu-tpu-" in step.line:
            assert step.command is not None, step.id
    assert set(ACTION_WORDS) == {s.action for s in _all_steps()} - {None}


def test_every_command_a_step_names_is_a_real_command_with_real_flags() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    for step in _all_steps():
        if step.command is None:
            continue
        program, *rest = step.command.split()
        if program == "gpu-tpu-probe":
            assert program in scripts and not rest
            continue
        assert program == "gpu-tpu-app" and rest and rest[0] in COMMANDS, step.command
        parser = argparse.ArgumentParser()
        importlib.import_module(COMMANDS[rest[0]][0]).configure(parser)
        flags = {option for action in parser._actions for option in action.option_strings}
        assert all(word in flags for word in rest[1:] if word.startswith("-")), step.command


def test_the_recommendation_prints_the_lines_of_its_steps() -> None:
    rng = random.Random(3)
    seen: set[str] = set()
    for _ in range(400):
        answers = Answers(**{f: rng.choice(choices(f)) for f in FACTORS if rng.random() < 0.5})
        rec = decide(answers, flips=False)
        assert rec.next_steps == [s.line for s in rec.steps]
        assert "steps" not in rec.model_dump(mode="json")  # the JSON form tools read is unchanged
        seen |= {s.id for s in rec.steps}
    assert {"pilot", "gpu_memory", "answer", "framework_check_jax", "porting"} <= seen


def test_serving_and_training_framework_checks_differ_only_in_the_step_they_run() -> None:
    serving = decide(Answers(framework="pytorch", workload="inference", scale="large")).steps[0]
    training = decide(Answers(framework="pytorch", workload="training", scale="large")).steps[0]
    assert serving.id == training.id == "framework_check_pytorch"
    assert "one prefill and one decode step" in serving.text and "one full training step" in training.text
    assert serving.action == training.action == "check_model"


def test_a_reworded_step_keeps_its_button_and_its_command(tmp_path: Path) -> None:
    """The old window parsed English to find each button: rewording a step lost it. Now both are fields."""
    path = tmp_path / "decision.en.toml"
    shutil.copy(packaged_text_path(), path)
    text = path.read_text(encoding="utf-8")
    text = text.replace(
        "Size GPU memory per model copy: weights plus KV cache for serving, about 16 bytes per parameter plus "
        "activations for training;",
        "Work out how much memory one copy of the model takes;",
    ).replace("Size GPU memory per model copy", "Work out how much memory one copy of the model takes")
    path.write_text(text, encoding="utf-8")
    step = build_steps(read_decision_text(path)).steps[("gpu_memory", False)]
    assert step.text.startswith("Work out how much memory") and step.line.startswith("Work out how much memory")
    assert step.action == "estimate" and "gpu-tpu-app estimate shows" in step.line


def test_a_recommendation_read_back_from_json_has_its_steps_again() -> None:
    lines = [step.line for step in _all_steps()]
    assert len(set(lines)) == len({(s.id, s.line) for s in _all_steps()}), "two steps print the same line"
    rec = decide(Answers(framework="pytorch", workload="inference", scale="large", batch="large"))
    back = Recommendation.model_validate_json(rec.model_dump_json(by_alias=True))
    assert back == rec and back.steps == rec.steps and back.steps[0].action == "check_model"
    dumped = rec.model_dump(mode="json", by_alias=True)
    other = Recommendation.model_validate({**dumped, "next_steps": ["A step another version wrote."]})
    assert [(s.text, s.action) for s in other.steps] == [("A step another version wrote.", None)]
    with pytest.raises(ValidationError, match="next_steps must be the lines of steps"):
        Recommendation.model_validate({**dumped, "steps": [], "next_steps": ["Out of step."]})


def test_another_cloud_names_aws_trainium_and_its_pytorch_route_not_a_third_verdict() -> None:
    rec = decide(Answers(deployment="other_cloud", framework="pytorch", workload="training", scale="large"))
    assert rec.verdict in ("gpu", "either", "tpu")  # the verdicts stay GPU / TPU / either
    step = next(s for s in rec.steps if s.id == "aws_trainium")
    assert "Trainium" in step.text and "TorchNeuron" in step.text and step.action == "estimate"
    assert "gpu-tpu-app catalog" in step.line
    for deployment in ("google_cloud", "any_cloud", "on_premises", None):
        other = decide(Answers(deployment=deployment, framework="pytorch"))
        assert all(s.id != "aws_trainium" for s in other.steps), deployment
