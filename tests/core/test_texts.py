"""The core's and the commands' texts: the loader, and every shipped id in every shipped language."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from gpu_tpu_app import i18n
from gpu_tpu_app.core import texts
from tools.i18n_allow import left_in_english


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setattr(texts, "text_folder", lambda: tmp_path)
    texts.area_texts.cache_clear()
    yield tmp_path
    texts.area_texts.cache_clear()


def test_lookup_fills_placeholders_and_falls_back(folder: Path) -> None:
    (folder / "demo.en.toml").write_text(
        'chips = "needs {n} chips"\nonly_en = "English only"\nbrace = "a {{literal}}"\n[head]\nchip = "Chip"\n',
        encoding="utf-8",
    )
    (folder / "demo.zh-Hans.toml").write_text('chips = "需要 {n} 块芯片"\n', encoding="utf-8")
    assert texts.text("demo.chips", language="en", n=8) == "needs 8 chips"
    assert texts.text("demo.chips", language="zh-Hans", n=8) == "需要 8 块芯片"
    assert texts.text("demo.only_en", language="zh-Hans") == "English only"
    assert texts.text("demo.head.chip", language="en") == "Chip"
    assert texts.text("demo.brace", language="en") == "a {literal}"
    with pytest.raises(KeyError):
        texts.text("demo.missing", language="en")
    with pytest.raises(KeyError):
        texts.text("nodot")
    assert texts.areas() == ["demo"]


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ("x = 1\n", "x: must be a string"),
        ('x = ""\n', "x: must be 1 to"),
        ('x = "{a b}"\n', "x: {a b} is not a placeholder"),
        ('x = "{"\n', "x: "),
        ("x = \n", "demo.en.toml: "),
    ],
)
def test_a_bad_file_names_the_file_and_the_id(folder: Path, body: str, problem: str) -> None:
    (folder / "demo.en.toml").write_text(body, encoding="utf-8")
    with pytest.raises(texts.TextFileError, match=problem.replace("{", r"\{").replace("}", r"\}")) as err:
        texts.text("demo.x", language="en")
    assert str(err.value).startswith(str(folder / "demo.en.toml"))


@pytest.mark.parametrize("area", texts.areas())
@pytest.mark.parametrize("language", [lang for lang in i18n.LANGUAGES if lang != i18n.DEFAULT_LANGUAGE])
def test_every_shipped_id_has_its_translation(area: str, language: str) -> None:
    english = texts.read_text_file(texts.text_folder() / f"{area}.en.toml")
    path = texts.text_folder() / f"{area}.{language}.toml"
    assert path.is_file(), f"{path} is missing"
    other = texts.read_text_file(path)
    assert sorted(set(english) - set(other)) == [], f"{path}: ids without a {language} text"
    assert sorted(set(other) - set(english)) == [], f"{path}: ids the English file does not have"
    for ident, text in other.items():
        assert texts.placeholders(text) == texts.placeholders(english[ident]), f"{path}: {ident}: placeholders"
        assert left_in_english(text) == [], f"{path}: {ident}: left in English: {text!r}"
