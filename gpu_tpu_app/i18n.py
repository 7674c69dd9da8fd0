"""The interface language: which one is in use, and where its files lie. Pure Python: no Qt.

The app speaks English (``en``) and Simplified Chinese (``zh-Hans``). The language in use is
chosen once per process, in this order: ``set_language()`` (the CLI's ``--lang``, the window's
saved preference), then the ``GPU_TPU_APP_LANG`` variable, then the POSIX locale
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), then English.

Content files keep one id per text and one file per language beside each other
(``decision.en.toml``, ``decision.zh-Hans.toml``), so a third language is a new file and a
new entry in ``LANGUAGES``, not code.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

#: the languages the app ships, English first (the fallback).
LANGUAGES: tuple[str, ...] = ("en", "zh-Hans")
DEFAULT_LANGUAGE = "en"
#: each language's name in that language (Preferences > Language, --help).
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "zh-Hans": "简体中文"}
#: each language's Qt/POSIX locale name: Qt's own translations (qtbase_zh_CN.qm), QLocale, .ts files.
QT_LOCALE_NAMES: dict[str, str] = {"en": "en_US", "zh-Hans": "zh_CN"}
#: each language's BCP 47 tag for HTML lang attributes and AppStream xml:lang.
HTML_LANG: dict[str, str] = {"en": "en", "zh-Hans": "zh-Hans"}
#: set by the app for its child processes, and by users who want a language without --lang.
LANG_ENV = "GPU_TPU_APP_LANG"
#: the locale variables read, strongest first (GNU gettext's order).
LOCALE_VARIABLES: tuple[str, ...] = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_current: str | None = None


def normalize_language(tag: str | None) -> str | None:
    """The shipped language a locale name or language tag asks for, or None.

    Accepts POSIX names (``zh_CN.UTF-8``, ``en_GB@euro``), BCP 47 tags (``zh-Hans``, ``zh-CN``)
    and bare languages (``zh``, ``en``). Every Chinese locale maps to zh-Hans, the closest
    shipped language; ``C`` and ``POSIX`` mean English; anything else is None.
    """
    if not tag:
        return None
    tag = tag.strip()
    if len(tag) > 64:
        return None
    base = tag.split(".", 1)[0].split("@", 1)[0].replace("_", "-")
    for lang in LANGUAGES:
        if base.lower() == lang.lower():
            return lang
    first = base.split("-", 1)[0].lower()
    if first in ("c", "posix", "en"):
        return "en"
    if first == "zh":
        return "zh-Hans"
    return None


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for: GPU_TPU_APP_LANG, then the locale; English otherwise."""
    env = os.environ if environ is None else environ
    chosen = normalize_language(env.get(LANG_ENV))
    if chosen:
        return chosen
    for name in LOCALE_VARIABLES:
        value = env.get(name, "")
        if not value:
            continue
        # LANGUAGE is a colon-separated priority list; the others hold one locale name
        for part in value.split(":") if name == "LANGUAGE" else [value]:
            chosen = normalize_language(part)
            if chosen:
                return chosen
        if name != "LANGUAGE":
            # the strongest set locale variable decides, even when it names an unshipped language
            return DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def current_language() -> str:
    """The language in use in this process."""
    global _current
    if _current is None:
        _current = language_from_environment()
    return _current


def set_language(language: str | None) -> str:
    """Use `language` from now on (None: go back to the environment's choice); returns the one in use.

    Raises ValueError naming the shipped languages for anything else.
    """
    global _current
    if language is None:
        _current = language_from_environment()
        return _current
    chosen = normalize_language(language)
    if chosen is None:
        raise ValueError(f"unknown language {language!r}: choose one of {', '.join(LANGUAGES)}")
    _current = chosen
    return chosen


def localized_file(folder: Path, stem: str, suffix: str, language: str | None = None) -> Path:
    """``folder/stem.<language>.<suffix>``, or the English file when that language has none."""
    lang = language or current_language()
    path = folder / f"{stem}.{lang}.{suffix}"
    if lang != DEFAULT_LANGUAGE and not path.is_file():
        return folder / f"{stem}.{DEFAULT_LANGUAGE}.{suffix}"
    return path
