"""Sentences and labels the core and the commands print, one id per text, one file per language.

``text("estimate.needs_chips", n=8)`` looks up id ``needs_chips`` in
``resources/text/estimate.<language>.toml`` (``<language>`` from ``gpu_tpu_app.i18n``) and fills
its ``{name}`` placeholders (a literal brace is written ``{{`` or ``}}``). Each area (the file's stem: estimate, report, cli, ...) has an
English file that holds every id, and a file per other language beside it. An id a language
lacks falls back to English (a test keeps that from happening in a shipped language); an id
no file has is a programming error (KeyError).

The files are flat TOML tables of one-line strings (``id = "text"``); nested tables give dotted
ids (``[headers] chip = "Chip"`` is ``area.headers.chip``). They are read with tomllib and
checked here, not with pydantic, so a command that prints one sentence stays quick to start.
The window's own words go through Qt's tr() and .ts files instead (resources/i18n/).
"""

from __future__ import annotations

import functools
import re
import string
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gpu_tpu_app import i18n

#: the longest text a file may hold, and the largest file read.
MAX_TEXT_CHARS = 4000
MAX_FILE_BYTES = 4 * 1024 * 1024
FOLDER = "text"


class TextFileError(ValueError):
    """A shipped text file is malformed: '<file>: <id>: <problem>'."""


def text_folder() -> Path:
    """Where the text files lie."""
    from gpu_tpu_app.assets import resource_path

    return resource_path(FOLDER)


def placeholders(text: str) -> set[str]:
    """The {name} placeholders in `text`; ValueError when its braces are not well formed."""
    names: set[str] = set()
    for _literal, name, _spec, conversion in string.Formatter().parse(text):
        if name is None:
            continue
        if not name.isidentifier() or conversion:
            raise ValueError(f"{{{name}}} is not a placeholder")
        names.add(name)
    return names


def _flatten(table: Mapping[str, Any], prefix: str, path: Path, out: dict[str, str]) -> None:
    for key, value in table.items():
        full = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            _flatten(value, full, path, out)
            continue
        if not isinstance(value, str):
            raise TextFileError(f"{path}: {full}: must be a string")
        if not value.strip() or len(value) > MAX_TEXT_CHARS:
            raise TextFileError(f"{path}: {full}: must be 1 to {MAX_TEXT_CHARS} characters")
        try:
            placeholders(value)
        except ValueError as exc:
            raise TextFileError(f"{path}: {full}: {exc}") from None
        out[full] = value


def read_text_file(path: Path) -> dict[str, str]:
    """One text file as {id: text}; TextFileError naming the file and the id otherwise."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise TextFileError(f"{path}: larger than {MAX_FILE_BYTES} bytes")
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise TextFileError(f"{path}: {exc}") from None
    out: dict[str, str] = {}
    _flatten(data, "", path, out)
    return out


@functools.lru_cache(maxsize=64)
def area_texts(area: str, language: str) -> Mapping[str, str]:
    """The texts of one area in one language ({} when that language has no file for it)."""
    path = text_folder() / f"{area}.{language}.toml"
    if language != i18n.DEFAULT_LANGUAGE and not path.is_file():
        return {}
    return read_text_file(path)


def text(key: str, /, language: str | None = None, **values: object) -> str:
    """The text with id `key` ("area.id") in the language in use, placeholders filled from `values`."""
    area, sep, ident = key.partition(".")
    if not sep:
        raise KeyError(f"text id {key!r} has no area")
    lang = language or i18n.current_language()
    found = area_texts(area, lang).get(ident) if lang != i18n.DEFAULT_LANGUAGE else None
    if found is None:
        found = area_texts(area, i18n.DEFAULT_LANGUAGE)[ident]
    return found.format(**values)


@functools.lru_cache(maxsize=64)
def _patterns(prefix: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    area, _, start = prefix.partition(".")
    out = []
    for ident, template in area_texts(area, i18n.DEFAULT_LANGUAGE).items():
        if ident.startswith(start):
            pattern = ""
            for literal, name, _spec, _conv in string.Formatter().parse(template):
                pattern += re.escape(literal) + (f"(?P<{name}>.+?)" if name else "")
            out.append((f"{area}.{ident}", re.compile(pattern, re.S)))
    return tuple(out)


def reword(prefix: str, english: str, language: str | None = None) -> str:
    """`english`, a text the app keeps in English (a run file's note, a cache's problem), said again in the
    language in use when it matches one of the English texts whose ids start with `prefix` ("area.table.");
    their {placeholders} match any text and are kept. Anything else comes back as it is."""
    for key, pattern in _patterns(prefix):
        match = pattern.fullmatch(english)
        if match:
            return text(key, language=language, **match.groupdict())
    return english


def areas() -> list[str]:
    """The areas that have an English file."""
    return sorted(p.name.split(".", 1)[0] for p in text_folder().glob(f"*.{i18n.DEFAULT_LANGUAGE}.toml"))
