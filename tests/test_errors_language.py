"""Input error lines "<file>: <field>: <problem>" in the language in use (gpu_tpu_app/errors.py): the file and the
field as they are, the problem from resources/text/errors.<lang>.toml; pydantic's messages mapped by error type,
in English exactly as pydantic words them, and pydantic's English for a type that is not mapped."""

from __future__ import annotations

import datetime
import enum
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gpu_tpu_app import i18n
from gpu_tpu_app.errors import (
    PYDANTIC_TEXTS,
    InputError,
    check_schema_version,
    from_validation,
    json_object,
    problem_text,
)
from tools.i18n_allow import CJK


class _Choice(enum.Enum):
    a = "a"
    b = "b"


class _Sub(BaseModel):
    x: int


class _Everything(BaseModel):
    """A model each field of which fails with another pydantic error type."""

    model_config = ConfigDict(extra="forbid")
    a: int
    b: float
    c: str
    d: bool
    e: Literal["gpu", "tpu", "cpu"]
    f: Annotated[int, Field(gt=0)]
    g: Annotated[int, Field(ge=1)]
    h: Annotated[float, Field(lt=5)]
    i: Annotated[float, Field(le=5.5)]
    j: Annotated[str, Field(max_length=3)]
    j1: Annotated[str, Field(max_length=1)]
    k: Annotated[str, Field(min_length=2)]
    k1: Annotated[str, Field(min_length=1)]
    l1: Annotated[list[int], Field(max_length=1)]
    m: Annotated[list[int], Field(min_length=2)]
    n: list[int]
    o: dict[str, int]
    p: _Sub
    q: _Choice
    r: Annotated[str, Field(pattern=r"^[a-z]+$")]
    s: Annotated[float, Field(allow_inf_nan=False)]
    t: datetime.date
    u: int
    v: int
    w: bool
    z: Annotated[int, Field(multiple_of=2)]
    y: tuple[int, int]
    gone: int


BAD: dict[str, Any] = {
    "a": "x",
    "b": "y",
    "c": 1,
    "d": 3,
    "e": "npu",
    "f": 0,
    "g": 0,
    "h": 9,
    "i": 9,
    "j": "abcd",
    "j1": "ab",
    "k": "a",
    "k1": "",
    "l1": [1, 2],
    "m": [1],
    "n": 5,
    "o": 3,
    "p": 4,
    "q": "c",
    "r": "A",
    "s": float("inf"),
    "t": "x",
    "u": 1.5,
    "v": [1],
    "w": "maybe",
    "z": 3,
    "y": 7,
    "extra": 1,
}


def _errors() -> list[dict[str, Any]]:
    with pytest.raises(ValidationError) as err:
        _Everything.model_validate(BAD)
    return [dict(e) for e in err.value.errors(include_url=False)]


@pytest.fixture
def chinese() -> Iterator[None]:
    i18n.set_language("zh-Hans")
    try:
        yield
    finally:
        i18n.set_language(None)


def test_the_english_texts_say_what_pydantic_says() -> None:
    i18n.set_language("en")
    try:
        errors = _errors()
        mapped = {e["type"] for e in errors} & set(PYDANTIC_TEXTS)
        assert len(mapped) >= 24, sorted(mapped)  # the test model reaches nearly every mapped type
        for e in errors:
            if e["type"] in PYDANTIC_TEXTS:
                assert problem_text(e) == e["msg"], e
    finally:
        i18n.set_language(None)


def test_every_mapped_error_reads_in_chinese_with_its_values(chinese: None) -> None:
    by_field = {e["loc"][0]: (e, problem_text(e)) for e in _errors()}
    for field, (e, words) in by_field.items():
        if e["type"] in PYDANTIC_TEXTS or e["type"] == "extra_forbidden":
            assert CJK.search(words) and words != e["msg"], (field, words)
    assert by_field["e"][1] == "应为 'gpu'、'tpu' 或 'cpu'"
    assert by_field["f"][1] == "应大于 0"
    assert by_field["i"][1] == "应小于或等于 5.5"
    assert by_field["h"][1] == "应小于 5"  # 5.0 written as pydantic writes it
    assert by_field["j1"][1] == "字符串最多只能有 1 个字符"
    assert by_field["l1"][1] == "列表最多只能有 1 项，实际为 2 项"
    assert by_field["p"][1] == "应为字典（JSON 对象）或 _Sub 的实例"
    assert by_field["extra"][1] == "未知字段"
    assert by_field["gone"][1] == "缺少必填字段"
    # a type with no text of its own keeps pydantic's message
    assert by_field["t"][0]["type"] not in PYDANTIC_TEXTS and by_field["t"][1] == by_field["t"][0]["msg"]


def test_the_line_names_the_file_and_field_as_they_are_and_the_problem_in_chinese(chinese: None) -> None:
    with pytest.raises(ValidationError) as err:
        _Everything.model_validate(BAD)
    line = str(from_validation("我的 answers.json", err.value))
    n = len(err.value.errors()) - 1
    assert line == f"我的 answers.json: a: 应为整数，无法把字符串解析为整数（另有 {n} 个问题）"

    class Nested(BaseModel):
        model_config = ConfigDict(extra="forbid")
        runs: list[_Sub]

    with pytest.raises(ValidationError) as err:
        Nested.model_validate({"runs": [{"x": 1}, {"x": "no"}]})
    assert str(from_validation("run.json", err.value)) == ("run.json: runs.1.x: 应为整数，无法把字符串解析为整数")


def test_the_english_line_is_unchanged() -> None:
    i18n.set_language("en")
    try:
        with pytest.raises(ValidationError) as err:
            _Everything.model_validate(BAD)
        n = len(err.value.errors()) - 1
        assert str(from_validation("a.json", err.value)) == (
            f"a.json: a: Input should be a valid integer, unable to parse string as an integer (and {n} more problems)"
        )
        with pytest.raises(InputError, match=r"^a.json: \(top level\): expected a JSON object, got a list$"):
            json_object("[1]", "a.json")
        with pytest.raises(InputError, match=r"^a.json: line 1 column 2: not valid JSON \(Expecting"):
            json_object("{", "a.json")
    finally:
        i18n.set_language(None)


def test_json_and_version_problems_in_chinese(chinese: None) -> None:
    with pytest.raises(InputError) as err:
        json_object("[1]", "s.json", "一个会话文件")
    assert str(err.value) == "s.json: （顶层）: 应为一个会话文件，实际是列表"
    with pytest.raises(InputError) as err:
        json_object('{"a": 1,,}', "s.json")
    assert str(err.value) == "s.json: 第 1 行第 9 列：不是有效的 JSON（此处应有用双引号括起的属性名）"
    with pytest.raises(InputError) as err:
        check_schema_version(9, "run.json", 1)
    assert str(err.value) == "run.json: schema_version: 不支持 9（本应用读取 1）"


def test_a_file_refused_before_reading_says_why_in_chinese(chinese: None, tmp_path: Path) -> None:
    from gpu_tpu_app.core.session import load_session

    with pytest.raises(InputError) as err:
        load_session(tmp_path)
    assert str(err.value) == f"{tmp_path}: 是文件夹，不是一个 gpu-tpu-app 会话文件"
    with pytest.raises(InputError) as err:
        load_session(tmp_path / "gone.json")
    assert str(err.value) == f"{tmp_path / 'gone.json'}: 文件不存在"
    bad = tmp_path / "s.json"
    bad.write_bytes(b'{"a": "\xff"}')
    with pytest.raises(InputError) as err:
        load_session(bad)
    assert str(err.value) == f"{bad}: 不是 UTF-8 文本（第 7 个字节）；这不是一个 gpu-tpu-app 会话文件"
    bad.write_text("[]", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_session(bad)
    assert str(err.value) == f"{bad}: （顶层）: 应为一个 gpu-tpu-app 会话文件，实际是列表"


def test_an_unsupported_schema_version_in_chinese(chinese: None) -> None:
    from pydantic import AfterValidator

    from gpu_tpu_app.errors import supported_version

    class Pack(BaseModel):
        schema_version: Annotated[int, AfterValidator(supported_version(1))]

    with pytest.raises(ValidationError) as err:
        Pack.model_validate({"schema_version": 3})
    assert (
        str(from_validation("pack.toml", err.value)) == "pack.toml: schema_version: 不支持的格式版本 3（本应用读取 1）"
    )
    i18n.set_language("en")
    assert str(from_validation("pack.toml", err.value)) == (
        "pack.toml: schema_version: unsupported schema version 3 (this app reads 1)"
    )
