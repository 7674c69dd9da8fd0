"""The stored form of a note (core.notes) as pydantic models: in run files (a result's `notes`) and in the
model check's findings (an object's `said`: the notes of its text fields, by field name). Bounded like
everything the app reads; core.note_text shows them in the language in use."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from gpu_tpu_app.safe_read import NAME_CHARS, TEXT_CHARS

#: a stored note's text id ("worker.matmul.first_call") and a parameter's or a text field's name
NoteId = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+){1,5}$", max_length=120)]
ParamName = Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,39}$")]
Text = Annotated[str, Field(max_length=TEXT_CHARS)]
#: How deep notes may nest (core.note_text.MAX_DEPTH reads no deeper).
NOTE_DEPTH = 4


class MessageNote(BaseModel):
    """One part of a text as the worker worded it: a text id and its parameters (text, or other notes),
    so the app can say it in the language in use (core.note_text). Nesting is bounded."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, str_max_length=NAME_CHARS)

    id: NoteId
    params: dict[ParamName, Text | MessageNote] = Field({}, max_length=16)

    @field_validator("params")
    @classmethod
    def _not_too_deep(cls, params: dict[str, Any]) -> dict[str, Any]:
        if _depth(params) > NOTE_DEPTH:
            raise ValueError(f"notes nested more than {NOTE_DEPTH} deep")
        return params


def _depth(params: dict[str, Any]) -> int:
    inner = [_depth(v.params) for v in params.values() if isinstance(v, MessageNote)]
    return 1 + max(inner, default=0)


#: the notes of an object's text fields, by field name (the worker's core.notes.mark writes it)
Said = Annotated[dict[ParamName, Annotated[list[MessageNote], Field(max_length=64)]], Field(max_length=16)]


def said(model: Any, field: str, language: str | None = None) -> str:
    """The text field `field` of `model` in the language in use, from the notes it keeps under `said`
    (its stored English where they do not say it again exactly)."""
    from gpu_tpu_app.core.note_text import shown_message

    value = getattr(model, field) or ""
    notes = (getattr(model, "said", None) or {}).get(field) or []
    return shown_message(value, notes, language) or value
