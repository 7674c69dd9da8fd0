"""Answers files (core/decision/io.py): partial and null answers, one line naming the file and field for bad
ones, schema 1 migrated, invalid JSON by line and column, a missing file, the shipped examples."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpu_tpu_app.core import decision
from gpu_tpu_app.core.decision import Answers, decide, load_answers, read_answers
from gpu_tpu_app.errors import InputError
from tests.core.test_decision import EXAMPLES, ISSUE_TABLE


def test_load_answers_accepts_partial_and_null_answers() -> None:
    a = load_answers('{"schema_version": 1, "framework": "jax", "stage": null}', "a.json")
    assert a == Answers(framework="jax")
    assert load_answers("{}", "a.json") == Answers()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"stage": "prod"}', "answers.json: stage: 'prod' is not one of exploring, stabilizing, production"),
        ('{"scale": 3}', "answers.json: scale: 3 is not one of small, medium, large, massive"),
        ('{"batch": true}', "answers.json: batch: true is not one of small, large"),
        ('{"duration": ["weeks"]}', 'answers.json: duration: ["weeks"] is not one of hours, days, weeks'),
        ('{"team": "' + "x" * 100 + '"}', "answers.json: team: '" + "x" * 58 + "… is not one of cuda, xla, general"),
        ('{"colour": "red"}', "answers.json: colour: unknown field (known: " + ", ".join(ISSUE_TABLE) + ")"),
        ('["jax"]', "answers.json: (top level): expected a JSON object of answers, got a list"),
        ('{"schema_version": 3}', "answers.json: schema_version: 3 is not supported (this app reads 1 and 2)"),
        ('{"schema_version": "1"}', 'answers.json: schema_version: "1" is not supported (this app reads 1 and 2)'),
        (
            '{"schema_version": 2, "high_precision": "yes"}',
            "answers.json: high_precision: 'yes' is not one of fp64, fp32, no",
        ),
    ],
)
def test_load_answers_names_file_field_and_allowed_values(text: str, message: str) -> None:
    with pytest.raises(InputError) as exc:
        load_answers(text, "answers.json")
    assert str(exc.value) == message


DATA = Path(__file__).resolve().parents[2] / "data"


def test_version_1_answers_files_load_with_yes_as_fp64() -> None:
    """A file written for schema 1 (high_precision "yes" = fp64 or strict fp32) still opens: "yes" is "fp64"."""
    path = DATA / "answers-v1.json"
    raw = json.loads(path.read_text(encoding="utf-8"))
    assert raw["schema_version"] == 1 and raw["high_precision"] == "yes"
    answers = read_answers(path)
    assert answers.high_precision == "fp64"
    assert answers == Answers(framework="jax", high_precision="fp64", deployment="any_cloud", stage="production")
    rec = decide(answers)
    assert rec.verdict == "gpu" and ("high_precision", "fp64") in {(b.factor, b.answer) for b in rec.blockers}


@pytest.mark.parametrize("head", ["", '"schema_version": 1, '])
def test_unversioned_and_version_1_answers_migrate_the_same_way(head: str) -> None:
    assert load_answers("{" + head + '"high_precision": "yes"}', "a.json") == Answers(high_precision="fp64")
    assert load_answers("{" + head + '"high_precision": "no"}', "a.json") == Answers(high_precision="no")


def test_migration_is_a_no_op_for_current_answers() -> None:
    data = {"high_precision": "fp32", "deployment": "other_cloud", "embeddings": "ultra_large"}
    assert decision.migrate_answers(data, decision.ANSWERS_SCHEMA_VERSION) == data
    assert decision.migrate_answers(data, 1) == data
    assert decision.migrate_answers({"high_precision": "yes"}, 1) == {"high_precision": "fp64"}


def test_invalid_json_names_line_and_column() -> None:
    with pytest.raises(InputError) as exc:
        load_answers('{\n  "stage": "production",\n  "scale" "large"\n}', "answers.json")
    text = str(exc.value)
    assert text.startswith("answers.json: line 3 column 11: not valid JSON (") and "\n" not in text


def test_read_answers_reports_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError) as exc:
        read_answers(tmp_path / "nope.json")
    assert str(exc.value) == f"{tmp_path / 'nope.json'}: no such file"


def test_example_files_load_and_use_only_known_fields() -> None:
    files = sorted(EXAMPLES.glob("answers-*.json"))
    assert len(files) >= 3
    for path in files:
        raw = json.loads(path.read_text(encoding="utf-8"))
        assert raw.pop("schema_version") == decision.ANSWERS_SCHEMA_VERSION
        assert read_answers(path) == Answers(**raw)
