"""A probe result's message in the language in use, from the note ids the worker stored beside it.

A run file keeps each result's message in English and, since schema version 2, its parts as notes
(core.notes): ``{"id": "worker.matmul.first_call", "params": {"seconds": "0.015"}}``. Shown in
another language, each part is that language's text of its id (``resources/text/<area>.<lang>.toml``)
with the stored parameters filled in. The stored English stays what counts: the notes are used only
when their English texts, joined, give exactly the stored message; otherwise (an id this app does not
know, a placeholder without a value, a file from before notes, a message edited by hand) the message
is shown as it was stored. So a run file, however it was written, can only ever show the app's own
texts with its own parameters, or its own English.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from typing import Any

from gpu_tpu_app import i18n
from gpu_tpu_app.core.texts import area_texts
from gpu_tpu_app.shared.notes import SEPARATOR, VERBATIM, Note

#: The text ids a stored note may name: the worker's notes and the trust rule's reasons.
NOTE_PREFIXES = ("worker.", "probe_app.trust.")
#: How deep notes may nest (a second try's note names the reason of the first, which names a rate).
MAX_DEPTH = 4


def _template(key: str, language: str) -> str | None:
    if not key.startswith(NOTE_PREFIXES):
        return None
    area, _, ident = key.partition(".")
    english = area_texts(area, i18n.DEFAULT_LANGUAGE)
    if ident not in english:
        return None
    if language != i18n.DEFAULT_LANGUAGE:
        return area_texts(area, language).get(ident, english[ident])
    return english[ident]


def _fill(template: str, values: Mapping[str, str]) -> str | None:
    out = []
    for literal, name, _spec, _conversion in string.Formatter().parse(template):
        out.append(literal)
        if name is None:
            continue
        if name not in values:
            return None
        out.append(values[name])
    return "".join(out)


def render(note: Any, language: str, depth: int = 0) -> str | None:
    """One stored note (a dict or a model with id and params) in `language`, or None when it cannot be."""
    if depth > MAX_DEPTH:
        return None
    data = note.to_dict() if isinstance(note, Note) else note.model_dump() if hasattr(note, "model_dump") else note
    if not isinstance(data, Mapping):
        return None
    key = str(data.get("id", ""))
    params = data.get("params") or {}
    if not isinstance(params, Mapping):
        return None
    if key == VERBATIM:
        text = params.get("text")
        return text if isinstance(text, str) else None
    template = _template(key, language)
    if template is None:
        return None
    values: dict[str, str] = {}
    for name, value in params.items():
        nested = isinstance(value, (Mapping, Note)) or hasattr(value, "model_dump")
        said = render(value, language, depth + 1) if nested else value
        if not isinstance(said, str):
            return None
        values[str(name)] = said
    return _fill(template, values)


def separator(language: str) -> str:
    """How the parts of a message are joined in `language` ("; " in English)."""
    if language == i18n.DEFAULT_LANGUAGE:
        return SEPARATOR
    return area_texts("worker", language).get("separator", SEPARATOR)


def notes_hold(message: str | None, notes: Sequence[Any]) -> bool:
    """True when `notes` say `message` again exactly in English (then they may be shown in another language)."""
    if not message or not notes:
        return False
    english = [render(n, i18n.DEFAULT_LANGUAGE) for n in notes]
    return all(e is not None for e in english) and SEPARATOR.join(english) == message  # type: ignore[arg-type]  # None ruled out


def shown_message(message: str | None, notes: Sequence[Any], language: str | None = None) -> str | None:
    """`message` in the language in use where its `notes` say it again exactly; else `message` as stored."""
    if not message or not notes:
        return message
    lang = language or i18n.current_language()
    if not notes_hold(message, notes):
        return message
    if lang == i18n.DEFAULT_LANGUAGE:
        return message
    shown = [render(n, lang) for n in notes]
    if any(s is None for s in shown):
        return message
    return separator(lang).join(shown)  # type: ignore[arg-type]  # None ruled out


def result_message(result: Any, language: str | None = None) -> str | None:
    """A probe result's message in the language in use (see shown_message)."""
    return shown_message(getattr(result, "message", None), getattr(result, "notes", None) or (), language)


def reason_text(status: Any, language: str | None = None) -> str | None:
    """A backend's reason (why it is not usable, what it lacks) in the language in use (see shown_message)."""
    return shown_message(getattr(status, "reason", None), getattr(status, "notes", None) or (), language)
