"""The wizard's pages and questions: ids and explainer topics here, their words in the content file
(resources/decision, `pages.<id>` and `questions.<field>`), joined by build_questions once per
language on first use (wizard)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from gpu_tpu_app import i18n
from gpu_tpu_app.core.decision.content import DecisionText, packaged_text

# each question's explainer topic and the wizard's pages (each with the fields it asks): from fields.SPECS
from gpu_tpu_app.core.decision.fields import CHOICES, FACTORS
from gpu_tpu_app.core.decision.fields import PAGES as _PAGES
from gpu_tpu_app.core.decision.fields import TOPICS as _TOPICS
from gpu_tpu_app.core.localized import InLanguage, ListInLanguage


class Question(NamedTuple):
    """One wizard question: its short label (flips, open questions, reports), plain-words text, a
    one-line help, its explainer topic and labelled choices."""

    field: str
    label: str
    text: str
    help: str
    topic: str
    choices: list[tuple[str, str]]


class Page(NamedTuple):
    """One wizard page: a title, a one-line intro and the fields it asks, in order."""

    id: str
    title: str
    intro: str
    fields: list[str]


def page_ids() -> list[str]:
    """Every page id whose words the content file must hold."""
    return list(_PAGES)


class Wizard(NamedTuple):
    """The questions and pages with the words of one language."""

    questions: dict[str, Question]
    pages: list[Page]


def build_questions(text: DecisionText) -> Wizard:
    """Questions and pages with the words of `text`; InputError naming the file and field when one lacks its words.

    Every question and choice is there (DecisionText checks them against the answers model on load).
    """
    text.require("pages", text.pages, _PAGES)
    for path, words in [
        *[
            (f"pages.{pid}.{part}", getattr(page, part))
            for pid, page in text.pages.items()
            for part in ("title", "intro")
        ],
        *[
            (f"questions.{f}.{part}", getattr(q, part))
            for f, q in text.questions.items()
            for part in ("label", "text", "help")
        ],
        *[(f"questions.{f}.choices.{v}", w) for f, q in text.questions.items() for v, w in q.choices.items()],
    ]:
        text.template(path, words, ())
    questions = {
        field: Question(
            field=field,
            label=text.questions[field].label,
            text=text.questions[field].text,
            help=text.questions[field].help,
            topic=_TOPICS[field],
            choices=[(value, text.questions[field].choices[value]) for value in CHOICES[field]],
        )
        for field in FACTORS
    }
    pages = [
        Page(id=pid, title=text.pages[pid].title, intro=text.pages[pid].intro, fields=fields)
        for pid, fields in _PAGES.items()
    ]
    return Wizard(questions, pages)


def wizard(language: str | None = None) -> Wizard:
    """The questions and pages with the words of `language` (None: the language in use), built once per language."""
    return _wizard(language or i18n.current_language())


@functools.lru_cache(maxsize=8)
def _wizard(language: str) -> Wizard:
    return build_questions(packaged_text(language))


#: field -> question, in the language in use.
QUESTIONS: Mapping[str, Question] = InLanguage(lambda lang: _wizard(lang).questions)
#: the wizard's pages in order, in the language in use.
PAGES: Sequence[Page] = ListInLanguage(lambda lang: _wizard(lang).pages)
