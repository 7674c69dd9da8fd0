"""The decision text's plain-Python check agrees with its pydantic schema, and decide's plain path with
the models.

`gpu-tpu-app decide` reads the decision text, the answers and the verdict without pydantic
(content.py / pack.py, io.answer_values, records.as_json). Each must take exactly what the
pydantic path takes and give the same values, the same one-line errors and the same JSON; these
tests hold them to it on the packaged files, on thousands of damaged copies, and on every kind of
answers file.
"""

from __future__ import annotations

import json
import random
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from gpu_tpu_app import i18n
from gpu_tpu_app.core.decision import FACTORS, Answers, choices, decide, load_answers
from gpu_tpu_app.core.decision.content import decision_text, packaged_text_path
from gpu_tpu_app.core.decision.content_schema import DecisionTextModel
from gpu_tpu_app.core.decision.engine import outcome
from gpu_tpu_app.core.decision.io import answer_values
from gpu_tpu_app.core.decision.pack import MAX_TEXT_CHARS, lean_pack
from gpu_tpu_app.core.decision.recommendation import recommendation
from gpu_tpu_app.core.decision.records import as_json
from gpu_tpu_app.errors import InputError
from gpu_tpu_app.safe_read import validate_toml_model


def _packaged(language: str) -> dict[str, Any]:
    return tomllib.loads(packaged_text_path(language).read_text(encoding="utf-8"))


def _paths(node: Any, at: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every key path in a tree of tables, tables before what they hold."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield (*at, key)
            yield from _paths(value, (*at, key))


#: what a damaged copy puts in place of a value: wrong types, edge lengths, spaces, line breaks, braces.
REPLACEMENTS: list[object] = [
    None,
    3,
    1.0,
    True,
    [],
    ["a"],
    {},
    {"x": "y"},
    "",
    " padded",
    "two\nlines",
    "tab\there",
    "bell\x07",
    "x" * MAX_TEXT_CHARS,
    "x" * (MAX_TEXT_CHARS + 1),
    "{factor} and {answer}",
    "{unknown}",
    "{0}",
    "{factor!r}",
    "{factor:>4}",
    "a } brace",
    "en",
    "zh-Hans",
    "en\n",
    "EN",
    "e",
    "en-",
    "中文",
]


def _set(data: dict[str, Any], path: tuple[str, ...], value: object) -> dict[str, Any]:
    out = json.loads(json.dumps(data))  # a deep copy (the tables hold strings and numbers only), quicker
    node = out
    for key in path[:-1]:
        node = node[key]
    if value is _DROP:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return out


_DROP = object()


def _damaged(data: dict[str, Any], seed: int, count: int) -> Iterator[dict[str, Any]]:
    """Copies of `data` with one key dropped, one added, or one value replaced; every top-level field and a
    random share of the rest."""
    rng = random.Random(seed)
    paths = list(_paths(data))
    top = [p for p in paths if len(p) == 1]
    chosen = top + rng.sample([p for p in paths if len(p) > 1], min(count, len(paths) - len(top)))
    for path in chosen:
        yield _set(data, path, _DROP)
        yield _set(data, (*path[:-1], "extra_key"), "An extra text.")
        for value in rng.sample(REPLACEMENTS, 8) if len(path) > 1 else REPLACEMENTS:
            yield _set(data, path, value)
    for version in (0, 2, 1.0, 1.5, "1", True, -1):
        yield _set(data, ("schema_version",), version)


def _outcome_of_schema(data: dict[str, Any], path: Path) -> tuple[str, object]:
    """What reading `data` with the pydantic schema alone gives: ("error", line) or ("ok", its values)."""
    try:
        model = validate_toml_model(path, data, DecisionTextModel)
    except InputError as exc:
        return "error", str(exc)
    return "ok", model.model_dump(exclude_none=True)


def _values_of_pack(data: dict[str, Any], path: Path) -> tuple[str, object]:
    """What the app's reader gives: ("error", line) or ("ok", the pack's values in the schema's form)."""
    try:
        pack = decision_text(data, path)
    except InputError as exc:
        return "error", str(exc)
    tables = {name: getattr(pack, name) for name in DecisionTextModel.model_fields}
    return "ok", json.loads(json.dumps(_plain(tables)))


def _plain(value: Any) -> Any:
    if hasattr(value, "_asdict"):
        return {k: _plain(v) for k, v in value._asdict().items() if v is not None}
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_the_packaged_texts_pass_both_checks_with_the_same_values(language: str) -> None:
    data = _packaged(language)
    assert lean_pack(data) is not None
    path = packaged_text_path(language)
    assert _values_of_pack(data, path) == _outcome_of_schema(data, path)


def test_a_damaged_text_reads_as_the_schema_reads_it(tmp_path: Path) -> None:
    # one language: the files of every language have the same tables (test_translation holds it)
    data = _packaged(i18n.DEFAULT_LANGUAGE)
    path = tmp_path / "decision.en.toml"
    compared = accepted_outright = coerced = 0
    for bad in _damaged(data, seed=24, count=30):
        schema = _outcome_of_schema(bad, path)
        if lean_pack(bad) is not None:
            accepted_outright += 1
            assert schema[0] == "ok"  # the plain check never takes what the schema refuses
        elif schema[0] == "ok":
            coerced += 1  # the schema's reading stands (schema_version = 1.0 is version 1)
        assert _values_of_pack(bad, path) == schema
        compared += 1
    assert compared > 300
    assert accepted_outright > 0  # some damage is harmless (a text of exactly the longest length, ...)
    assert coerced > 0


# --------------------------------------------------------------------------- answers and verdicts


def _answer_files() -> Iterator[str]:
    rng = random.Random(24)
    for _ in range(150):
        share = rng.choice((0.0, 0.3, 0.7))
        yield json.dumps({f: rng.choice(choices(f)) for f in FACTORS if rng.random() >= share})
    yield from (
        "{}",
        "[]",
        "null",
        '{"framework": "fortran"}',
        '{"framework": 3}',
        '{"framework": ["jax"]}',
        '{"xla_verified": true}',
        '{"colour": "blue"}',
        '{"schema_version": 1, "high_precision": "yes"}',
        '{"schema_version": 2, "high_precision": "yes"}',
        '{"schema_version": 3}',
        '{"schema_version": "2"}',
        '{"schema_version": 2.0, "scale": "large"}',
        '{"scale": NaN}',
        '{"team": null, "scale": "small"}',
        "{broken",
    )


def test_answer_values_take_and_refuse_exactly_what_the_answers_model_does() -> None:
    for text in _answer_files():
        try:
            model: object = load_answers(text, "answers.json").model_dump()
        except InputError as exc:
            model = str(exc)
        try:
            plain: object = answer_values(text, "answers.json")
        except InputError as exc:
            plain = str(exc)
        assert plain == model, text


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_the_plain_verdict_is_the_recommendation_field_for_field(language: str) -> None:
    for text in _answer_files():
        try:
            answers = load_answers(text)
        except InputError:
            continue
        rec = decide(answers, language=language)
        plain = outcome(answer_values(text), language=language)
        dumped = rec.model_dump(mode="json", by_alias=True)
        assert as_json(plain) == dumped
        assert json.dumps(as_json(plain), indent=2) == json.dumps(dumped, indent=2)  # key order too
        assert recommendation(plain) == rec and plain.steps == rec.steps


def test_the_answers_model_is_declared_from_the_fields_table() -> None:
    assert tuple(Answers.model_fields) == FACTORS
    for factor in FACTORS:
        good = {factor: choices(factor)[0]}
        assert Answers.model_validate(good).model_dump()[factor] == choices(factor)[0]
        with pytest.raises(ValidationError):
            Answers.model_validate({factor: "not-a-choice"})
