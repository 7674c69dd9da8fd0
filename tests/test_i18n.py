"""The interface language: locale names, the environment's choice, and the per-language files."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpu_tpu_app import i18n


@pytest.mark.parametrize(
    ("tag", "expected"),
    [
        ("zh_CN.UTF-8", "zh-Hans"),
        ("zh-Hans", "zh-Hans"),
        ("zh-CN", "zh-Hans"),
        ("zh_TW.UTF-8", "zh-Hans"),
        ("zh", "zh-Hans"),
        ("en_GB@euro", "en"),
        ("en", "en"),
        ("C", "en"),
        ("POSIX", "en"),
        ("C.UTF-8", "en"),
        ("de_DE.UTF-8", None),
        ("", None),
        (None, None),
        ("x" * 100, None),
    ],
)
def test_normalize_language(tag: str | None, expected: str | None) -> None:
    assert i18n.normalize_language(tag) == expected


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "en"),
        ({"LANG": "zh_CN.UTF-8"}, "zh-Hans"),
        ({"LANG": "zh_CN.UTF-8", "LC_ALL": "en_US.UTF-8"}, "en"),
        ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"}, "zh-Hans"),
        ({"LANGUAGE": "fr:zh_CN:en", "LANG": "en_US.UTF-8"}, "zh-Hans"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LC_ALL": "de_DE.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"),
        ({i18n.LANG_ENV: "zh-Hans", "LC_ALL": "en_US.UTF-8"}, "zh-Hans"),
        ({i18n.LANG_ENV: "klingon", "LANG": "zh_CN.UTF-8"}, "zh-Hans"),
    ],
)
def test_language_from_environment(environ: dict[str, str], expected: str) -> None:
    assert i18n.language_from_environment(environ) == expected


def test_set_language_validates_and_resets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "_current", None)
    monkeypatch.delenv(i18n.LANG_ENV, raising=False)  # tests/conftest.py pins English there
    monkeypatch.setenv("LC_ALL", "zh_CN.UTF-8")
    assert i18n.current_language() == "zh-Hans"
    assert i18n.set_language("en") == "en"
    assert i18n.current_language() == "en"
    with pytest.raises(ValueError, match="en, zh-Hans"):
        i18n.set_language("fr")
    assert i18n.current_language() == "en"
    assert i18n.set_language(None) == "zh-Hans"


def test_every_language_has_its_names() -> None:
    for table in (i18n.LANGUAGE_NAMES, i18n.QT_LOCALE_NAMES, i18n.HTML_LANG):
        assert set(table) == set(i18n.LANGUAGES)


def test_localized_file_falls_back_to_english(tmp_path: Path) -> None:
    (tmp_path / "guide.en.md").write_text("en", encoding="utf-8")
    assert i18n.localized_file(tmp_path, "guide", "md", "zh-Hans") == tmp_path / "guide.en.md"
    (tmp_path / "guide.zh-Hans.md").write_text("zh", encoding="utf-8")
    assert i18n.localized_file(tmp_path, "guide", "md", "zh-Hans") == tmp_path / "guide.zh-Hans.md"
    assert i18n.localized_file(tmp_path, "guide", "md", "en") == tmp_path / "guide.en.md"
