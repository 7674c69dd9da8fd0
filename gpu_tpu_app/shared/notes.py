"""A note kept in English together with its text id and parameters, so it can be shown in any language.

The probe worker words each part of a result's message (and core.trust words each reason) as a
`Note`: a `str` holding the English sentence, as run files and JSON always did, that also carries a
stable text id (``"worker.matmul.first_call"``) and its parameters (numbers already written as
people read them, names, or other notes). A message made of several parts is a `Notes`, the parts
joined with "; ". Run files store the English message and, beside it, the parts as
``{"id": ..., "params": {...}}`` (`to_dicts`); the app shows them in the language in use from
``resources/text/<area>.<language>.toml`` (core.note_text), and falls back to the stored English for
an id it does not know or a file written before notes had ids.

Standard library only: the worker, which may run in the user's own interpreter, imports it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

#: The id of a part with no id of its own (a framework's error text, a name): shown as it is.
VERBATIM = "worker.verbatim"
#: How the English parts of a message are joined.
SEPARATOR = "; "


class Note(str):
    """An English sentence with its text id and parameters (str values or other notes)."""

    key: str
    params: dict[str, Any]

    def __new__(cls, key: str, template: str, /, **params: Any) -> Note:
        values = {k: v if isinstance(v, Note) else str(v) for k, v in params.items()}
        obj = super().__new__(cls, template.format(**values))
        obj.key = key
        obj.params = values
        return obj

    def to_dict(self) -> dict[str, Any]:
        """{"id": key, "params": {name: text or a nested note's dict}}."""
        return {
            "id": self.key,
            "params": {k: v.to_dict() if isinstance(v, Note) else v for k, v in self.params.items()},
        }

    def __reduce__(self) -> Any:  # copies and pickles keep the id (str's own would drop it)
        return (_rebuild, (self.key, str(self), self.params))


def _rebuild(key: str, english: str, params: dict[str, Any]) -> Note:
    obj = str.__new__(Note, english)
    obj.key, obj.params = key, params
    return obj


def verbatim(text: str) -> Note:
    """A part without an id of its own: its text, in every language."""
    return text if isinstance(text, Note) else Note(VERBATIM, "{text}", text=text)


class Notes(str):
    """Several notes joined with "; ": the English message, with its parts."""

    parts: tuple[Note, ...]

    def __new__(cls, parts: Iterable[Note]) -> Notes:
        kept = tuple(parts)
        obj = super().__new__(cls, SEPARATOR.join(kept))
        obj.parts = kept
        return obj

    def __reduce__(self) -> Any:
        return (Notes, (self.parts,))


def parts_of(text: str | None) -> list[Note]:
    """The notes a message is made of: a Notes' parts, a Note itself, plain text as one verbatim part."""
    if not text:
        return []
    if isinstance(text, Notes):
        return list(text.parts)
    if isinstance(text, Note):
        return [text]
    return [verbatim(text)]


def join(*parts: str | None) -> Notes | None:
    """The parts that are not empty, joined with "; " (None when none is left); their ids are kept."""
    kept = [n for p in parts for n in parts_of(p)]
    return Notes(kept) if kept else None


def to_dicts(text: str | None) -> list[dict[str, Any]]:
    """The parts of a message as they are stored beside it ([] when it has no part with an id)."""
    parts = parts_of(text)
    if all(p.key == VERBATIM for p in parts):
        return []
    return [p.to_dict() for p in parts]


#: The key under which a JSON object keeps the notes of its text fields: {"said": {"sharding": [...]}}.
SAID = "said"


def mark(obj: Any) -> Any:
    """`obj` (JSON-ready dicts and lists) with each dict's text fields that are notes recorded under its
    "said" key as stored notes (to_dicts), so that they survive json.dumps; nothing else changes."""
    if isinstance(obj, dict):
        out = {k: mark(v) for k, v in obj.items()}
        said = {k: d for k, v in obj.items() if isinstance(v, str) and (d := to_dicts(v))}
        if said:
            out[SAID] = {**(obj.get(SAID) or {}), **said}
        return out
    if isinstance(obj, (list, tuple)):
        return [mark(v) for v in obj]
    return obj
