"""The decision text file's format as a pydantic schema: the reference the plain-Python check in
content.py is held to, and the source of its one-line errors.

content.py accepts a file outright only when this schema would accept it unchanged; every other
file is validated here, so a bad file gets this schema's message, '<file>: <field>: <problem>',
exactly as when the file was read with pydantic alone. Nothing else reads the file with it.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from gpu_tpu_app.core.decision.pack import LANGUAGE_PATTERN, MAX_TEXT_CHARS, SCHEMA_VERSION, one_line, problems
from gpu_tpu_app.core.decision.pack import DecisionText as _Pack
from gpu_tpu_app.errors import problem_error, supported_version

#: the file format version this app reads, checked on load.
SchemaVersion = Annotated[int, AfterValidator(supported_version(SCHEMA_VERSION))]
#: one line of text for people: not blank, no line breaks, bounded.
Text = Annotated[str, Field(min_length=1, max_length=MAX_TEXT_CHARS), AfterValidator(one_line)]


class _Content(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PageText(_Content):
    title: Text
    intro: Text


class QuestionText(_Content):
    label: Text
    text: Text
    help: Text
    choices: dict[str, Text]


class StepText(_Content):
    text: Text
    cli: Text | None = None


class Notes(_Content):
    small_serving: Text
    inference_duration: Text
    correlated: Text
    playbook_alone: Text
    porting_cost: Text
    short_finetune: Text


class StepWords(_Content):
    serving_step: Text
    training_step: Text


class DecisionTextModel(_Content):
    """The whole file (pack.DecisionText is the checked pack the app uses)."""

    schema_version: SchemaVersion
    language: str = Field(pattern=LANGUAGE_PATTERN)
    pages: dict[str, PageText]
    questions: dict[str, QuestionText]
    rules: dict[str, dict[str, Text]]
    small_serving: dict[str, dict[str, Text]]
    variants: dict[str, Text]
    conflicts: dict[str, Text]
    blockers: dict[str, dict[str, Text]]
    notes: Notes
    actions: dict[str, Text]
    step_words: StepWords
    steps: dict[str, StepText]

    @model_validator(mode="after")
    def _consistent(self) -> DecisionTextModel:
        found = problems(_Pack(self.model_dump()))
        if found:
            raise problem_error(found)
        return self
