"""The catalogue's prose in another language: a file beside the catalogue, keyed by its ids and fields.

``chips.toml`` holds every figure with its English words (a chip's `interconnect`, a figure's `note` or
`reason`, a chip's `mfu.note`, the families' `mfu.<family>.range`, `decode.note`). ``chips.zh-Hans.toml``
beside it holds the same words in Simplified Chinese under the same keys, and nothing else: no figure,
unit, source or id is repeated there, so a third language is one more file. The catalogue's English stays
what ``--format json``, run files and sessions keep.

This module knows files and keys, not the catalogue's model (core.catalog hands it the English texts by
key): it reads a translation file with tomllib (a command that shows one chip stays quick), checks it
against the catalogue it sits beside, and says whether a translation still carries the numbers and units
of the English (a translation that does not is not shown; the English is).

Problems are one InputError line each: '<file>: <key>: <problem>' (an unknown chip id, an unknown field,
a key the catalogue has no text for, a value that is not one line of text).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gpu_tpu_app.errors import InputError, shown
from gpu_tpu_app.safe_read import read_text

SCHEMA_VERSION = 1
#: the largest translation file read, and the longest text it may hold.
MAX_FILE_BYTES = 1024 * 1024
MAX_TEXT_CHARS = 2000

#: the units a catalogue text may name; a translation must name the same ones as its English.
_UNIT = re.compile(
    r"(?<![A-Za-z])(TFLOP/s|PFLOP/s|GFLOP/s|TB/s|GB/s|GiB/s|GBps|Gbps|GbE|TOPS|TiB|TB|GiB|GB|MiB|MB|W|%)(?![A-Za-z/])"
)
#: a number as the catalogue writes it: 6,144, 46.2, 2:4 gives 2 and 4, H100 gives 100.
_NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")


def translation_path(catalog_path: Path, language: str) -> Path:
    """Where `language`'s words for the catalogue at `catalog_path` lie: chips.toml -> chips.<language>.toml."""
    return catalog_path.with_name(f"{catalog_path.stem}.{language}{catalog_path.suffix}")


def figures_of(text: str) -> tuple[list[str], list[str]]:
    """The numbers and the units `text` names, each sorted (the order of words differs between languages)."""
    numbers = sorted(n.replace(",", "") for n in _NUMBER.findall(text))
    units = sorted(_UNIT.findall(text))
    return numbers, units


def same_figures(english: str, translated: str) -> bool:
    """True when `translated` names the numbers and units of `english`, no more and no fewer."""
    return figures_of(english) == figures_of(translated)


def _flatten(table: Mapping[str, Any], prefix: str, out: dict[str, Any]) -> None:
    for key, value in table.items():
        full = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            _flatten(value, full, out)
        else:
            out[full] = value


def _said(ident: str, **values: Any) -> str:
    """A problem in the language in use (resources/text/catalog.<language>.toml [problem])."""
    from gpu_tpu_app.core.texts import text

    return text(f"catalog.problem.{ident}", **values)


def _problem(key: str, english: Mapping[str, str], fields: frozenset[str]) -> str:
    """Why `key` names no text of the catalogue: an unknown chip id, an unknown field, or no text there."""
    parts = key.split(".")
    if parts[0] == "chips" and len(parts) >= 2:
        chips = sorted({k.split(".")[1] for k in english if k.startswith("chips.")})
        if parts[1] not in chips:
            return _said("unknown_chip", chip=repr(shown(parts[1])))
        field = ".".join(parts[2:])
        if field not in fields:
            figures = sorted({f.split(".")[0] for f in fields if f.endswith(".reason")})
            return _said("unknown_field", field=repr(shown(field)), figures=", ".join(figures))
        return _said("no_text", field=field, chip=repr(parts[1]))
    tops = sorted({k.rsplit(".", 1)[0] for k in english if not k.startswith("chips.")})
    return _said("unknown_key", keys=", ".join(f"{t}.*" for t in tops))


def read_translations(path: Path, english: Mapping[str, str], fields: frozenset[str]) -> dict[str, str]:
    """The texts of the translation file at `path` by key, checked against the catalogue's `english` texts
    (key -> English) and the chip fields that hold text (`fields`: "interconnect", "bf16.note", ...).

    {} when there is no such file (a catalogue without translations shows its English).
    Raises InputError('<file>: <key>: <problem>') on anything else that is wrong."""
    if not path.is_file():
        return {}
    raw = read_text(path, "the catalogue's translations", MAX_FILE_BYTES)
    try:
        data = tomllib.loads(raw)
    except RecursionError:
        raise InputError(f"{path}: not valid TOML (nested too deeply)") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: not valid TOML: {exc}") from None
    version = data.pop("schema_version", None)
    if version != SCHEMA_VERSION:
        if version is None:
            raise InputError(f"{path}: schema_version: {_said('no_version', want=SCHEMA_VERSION)}")
        raise InputError(f"{path}: schema_version: {_said('version', got=shown(repr(version)), want=SCHEMA_VERSION)}")
    flat: dict[str, Any] = {}
    _flatten(data, "", flat)
    out: dict[str, str] = {}
    for key, value in flat.items():
        where = shown(key)
        if key not in english:
            raise InputError(f"{path}: {where}: {_problem(key, english, fields)}")
        if not isinstance(value, str):
            raise InputError(f"{path}: {where}: {_said('not_text')}")
        if not value.strip() or len(value) > MAX_TEXT_CHARS or "\n" in value or "\r" in value:
            raise InputError(f"{path}: {where}: {_said('one_line', most=MAX_TEXT_CHARS)}")
        out[key] = value
    return out
