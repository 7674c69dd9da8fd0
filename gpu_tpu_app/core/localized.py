"""Words in the language in use, for module-level names and joined sentences. Pure Python: no Qt.

InLanguage and ListInLanguage are read-only views that build (once per language, by a cached
function) and read their entries from the language in use at each access, so a module can keep a
name such as QUESTIONS or VERDICT_WORDS that costs nothing at import and follows
i18n.set_language(). sentences() joins two sentences the way each script writes them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TypeVar, overload

from gpu_tpu_app import i18n

#: sentence ends after which the next sentence follows with no space (Chinese and Japanese full stops).
_WIDE_ENDS = ("。", "！", "？", "；", "）", "」")


def sentences(first: str, then: str) -> str:
    """Two sentences as one text: a space between them, none after a full-width sentence end."""
    return first + then if first.endswith(_WIDE_ENDS) else f"{first} {then}"


K = TypeVar("K")
V = TypeVar("V")


class InLanguage(Mapping[K, V]):
    """A mapping that reads its entries, at each use, from the language in use.

    `build(language)` gives the mapping of one language (and caches it): the module-level names
    (QUESTIONS, ACTION_WORDS, RULES, ...) stay importable as before, cost nothing at import, and
    follow i18n.set_language() made after they were imported.
    """

    def __init__(self, build: Callable[[str], Mapping[K, V]]) -> None:
        self._build = build

    def _now(self) -> Mapping[K, V]:
        return self._build(i18n.current_language())

    def __getitem__(self, key: K) -> V:
        return self._now()[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._now())

    def __len__(self) -> int:
        return len(self._now())

    def __repr__(self) -> str:
        return f"InLanguage({dict(self._now())!r})"


class ListInLanguage(Sequence[V]):
    """A sequence that reads its items, at each use, from the language in use (see InLanguage)."""

    def __init__(self, build: Callable[[str], Sequence[V]]) -> None:
        self._build = build

    def _now(self) -> Sequence[V]:
        return self._build(i18n.current_language())

    @overload
    def __getitem__(self, index: int) -> V: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[V]: ...
    def __getitem__(self, index: int | slice) -> V | Sequence[V]:
        return self._now()[index]

    def __len__(self) -> int:
        return len(self._now())

    def __repr__(self) -> str:
        return f"ListInLanguage({list(self._now())!r})"
