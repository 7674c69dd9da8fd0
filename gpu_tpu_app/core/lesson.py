"""The GPU vs TPU lesson as a validated content pack, one file per language
(resources/lesson/lesson.<language>.toml: lesson.en.toml, lesson.zh-Hans.toml).

The explainer, the decision engine's citations and the `explain` command all read it
through load_lesson(), in the interface language unless told another. Every claim names its
sources, and every source id must resolve. A translation keeps the English pack's ids, order
and sources; its words are its own (tests/core/test_lesson_zh.py holds it to that).
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from gpu_tpu_app import i18n
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.errors import problem_error, supported_version
from gpu_tpu_app.safe_read import read_toml_model
from gpu_tpu_app.shared.terms import Kernel

SCHEMA_VERSION = 1
#: the file format version this app reads, checked on load.
SchemaVersion = Annotated[int, AfterValidator(supported_version(SCHEMA_VERSION))]

#: Probe kernels a topic may point at as evidence measured on the user's own machine.
EvidenceKernel = Kernel

_ID = r"^[a-z0-9][a-z0-9-]*$"


class _Content(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Source(_Content):
    """One place a statement comes from: an episode chapter, a lesson page, a notes chunk or a web page."""

    id: str = Field(pattern=_ID)
    kind: Literal["episode", "page", "notes", "web"]
    title: str = Field(min_length=1)
    document: str | None = None
    page: str | None = None
    chunk: str | None = None  # notes only: the chunk id as the lesson page lists it
    url: str | None = None
    note: str | None = None

    @field_validator("url")
    @classmethod
    def _http_url(cls, url: str | None) -> str | None:
        if url is not None and not url.startswith(("https://", "http://")):
            raise ValueError("must start with https:// or http://")
        return url

    @model_validator(mode="after")
    def _fields_for_kind(self) -> Source:
        needed = {"notes": ("document", "page", "chunk", "url"), "web": ("url",)}.get(self.kind, ())
        for name in needed:
            if getattr(self, name) is None:
                raise ValueError(f"a {self.kind} source needs {name!r}")
        return self

    def place(self, language: str = i18n.DEFAULT_LANGUAGE) -> str:
        """The title with where it sits (the notes document and page, or the note), in `language`'s words."""
        if self.kind == "notes":
            return text(
                "learn.citation.in_document",
                language=language,
                title=self.title,
                document=self.document,
                page=self.page,
            )
        if self.note:
            return text("learn.citation.with_note", language=language, title=self.title, note=self.note)
        return self.title

    def label(self, url: bool = True, language: str = i18n.DEFAULT_LANGUAGE) -> str:
        """One line for people: title, where it sits, and the URL when there is one (and url is True)."""
        return f"{self.place(language)} {self.url}" if url and self.url else self.place(language)


class Claim(_Content):
    """One statement in the project's own words, with the ids of the sources it rests on."""

    text: str = Field(min_length=1)
    sources: list[str] = Field(min_length=1)
    #: probe kernels whose measurement illustrates this claim (shown beside it in Learn)
    evidence: list[EvidenceKernel] = []


class Side(_Content):
    """One column of a topic: the GPU view or the TPU view."""

    headline: str = Field(min_length=1)  # one-line summary
    claims: list[Claim] = Field(min_length=1)

    def source_ids(self) -> list[str]:
        """Cited source ids in first-use order, without repeats."""
        return _unique(sid for claim in self.claims for sid in claim.sources)


class Topic(_Content):
    """One explainer page: GPU (workshop) side by side with TPU (factory line)."""

    id: str = Field(pattern=_ID)
    title: str = Field(min_length=1)
    insight: int = Field(ge=1, le=3)
    gpu: Side
    tpu: Side
    evidence: list[EvidenceKernel] = []

    @model_validator(mode="after")
    def _claim_evidence_is_the_topics(self) -> Topic:
        for side in ("gpu", "tpu"):
            for i, claim in enumerate(getattr(self, side).claims):
                extra = [k for k in claim.evidence if k not in self.evidence]
                if extra:
                    raise ValueError(f"{side}.claims[{i}].evidence: {', '.join(extra)} not in the topic's evidence")
        return self

    def source_ids(self) -> list[str]:
        """Source ids cited on either side, GPU side first, without repeats."""
        return _unique([*self.gpu.source_ids(), *self.tpu.source_ids()])


class Insight(_Content):
    """One of the lesson's key insights, in the lesson's order."""

    number: int = Field(ge=1)
    title: str = Field(min_length=1)


class FaqEntry(_Content):
    """One question and answer; origin "app" marks a question the app adds to the lesson's own FAQ."""

    question: str = Field(min_length=1)
    answer: str = Field(min_length=1)
    sources: list[str] = Field(min_length=1)
    origin: Literal["lesson", "app"] = "lesson"


class Quote(_Content):
    """A verbatim quotation from the lesson with its attribution."""

    text: str = Field(min_length=1)
    attribution: str = Field(min_length=1)
    sources: list[str] = Field(min_length=1)


class GlossaryTerm(_Content):
    term: str = Field(min_length=1)
    definition: str = Field(min_length=1)
    sources: list[str] = Field(min_length=1)
    aliases: list[str] = []

    def names(self) -> list[str]:
        """The term and its aliases."""
        return [self.term, *self.aliases]


class Episode(_Content):
    """The lesson's metadata as the episode page gives it."""

    title: str
    plan: str
    host: str
    style: str
    minutes: int = Field(gt=0)
    date: dt.date
    tags: list[str]
    question: str  # the lesson topic from the input question
    overview: str = ""
    summary: str = ""


class LessonPack(_Content):
    """The whole pack; cross-references are checked on construction."""

    schema_version: SchemaVersion
    #: the language the pack is written in (a tag of gpu_tpu_app.i18n.LANGUAGES for shipped packs).
    language: str = Field(default=i18n.DEFAULT_LANGUAGE, pattern=r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$")
    episode: Episode
    insights: list[Insight] = Field(min_length=1)
    topics: list[Topic] = Field(min_length=1)
    faq: list[FaqEntry] = []
    quotes: list[Quote] = []
    glossary: list[GlossaryTerm] = []
    sources: list[Source] = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> LessonPack:
        problems = lesson_problems(self)
        if problems:
            raise problem_error(problems)
        return self

    # -- look-ups -------------------------------------------------------------------
    def topic(self, id: str) -> Topic:
        """The topic with this id; KeyError names the known ids."""
        for topic in self.topics:
            if topic.id == id:
                return topic
        raise KeyError(f"unknown topic {id!r} (choose from: {', '.join(self.topic_ids())})")

    def topic_ids(self) -> list[str]:
        return [topic.id for topic in self.topics]

    def topics_for(self, insight: int) -> list[Topic]:
        """Topics under one insight, in pack order."""
        return [topic for topic in self.topics if topic.insight == insight]

    def insight(self, number: int) -> Insight:
        for insight in self.insights:
            if insight.number == number:
                return insight
        raise KeyError(f"no insight numbered {number}")

    def source(self, id: str) -> Source:
        """The source with this id; KeyError when it is not listed."""
        for source in self.sources:
            if source.id == id:
                return source
        raise KeyError(f"unknown source id {id!r}")

    def citation_key(self, sid: str) -> str:
        """What a source is cited as. The chunks of one notes document are one citation: the lesson
        page lists them together and does not say which chunk holds which passage."""
        try:
            src = self.source(sid)
        except KeyError:
            return sid
        if src.kind == "notes" and src.document:
            return f"notes:{src.document}"
        return sid

    def citation(self, key: str) -> tuple[str, str | None]:
        """(words for people, web link) of a citation key from citation_key; KeyError when unknown."""
        if key.startswith("notes:"):
            document = key.split(":", 1)[1]
            chunks = [s for s in self.sources if s.kind == "notes" and s.document == document]
            if not chunks:
                raise KeyError(f"unknown source {key!r}")
            return self._notes_citation(document, chunks), next((s.url for s in chunks if s.url), None)
        src = self.source(key)
        return src.place(self.language), src.url

    def _notes_citation(self, document: str, chunks: list[Source]) -> str:
        """Words for the notes chunks of one document, cited together, in the pack's language."""
        lang = self.language

        def words(key: str, **values: object) -> str:
            return text(f"learn.citation.{key}", language=lang, **values)

        names = [s.chunk for s in chunks if s.chunk]
        pages = _unique(s.page for s in chunks if s.page)
        parts = []
        if names:
            one = len(names) == 1
            parts.append(words("passage" if one else "passages", first=names[0], last=names[-1]))
        if pages:
            parts.append(words("pages", pages=words("and").join(pages)))
        if not parts:
            return words("notes", document=document)
        where = words("where_both", a=parts[0], b=parts[1]) if len(parts) == 2 else parts[0]
        return words("notes_where", document=document, where=where)

    def citations_for(self, ids: Iterable[str]) -> list[tuple[str, str, str | None]]:
        """(key, words, link) per citation of these source ids, in order of first use, without repeats."""
        out: list[tuple[str, str, str | None]] = []
        for key in _unique(self.citation_key(sid) for sid in ids):
            try:
                out.append((key, *self.citation(key)))
            except KeyError:  # not a lesson source (a catalogue one): named as it is
                out.append((key, key, None))
        return out

    def sources_for(self, ids: Iterable[str]) -> list[Source]:
        """Resolve ids to sources, in the given order, without repeats."""
        return [self.source(sid) for sid in _unique(ids)]

    def term(self, name: str) -> GlossaryTerm:
        """Glossary entry by term or alias, ignoring case."""
        key = name.casefold()
        for entry in self.glossary:
            if any(n.casefold() == key for n in entry.names()):
                return entry
        raise KeyError(f"no glossary entry for {name!r}")


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _citations(pack: LessonPack) -> Iterator[tuple[str, list[str]]]:
    """(field path, source ids) for every place in the pack that cites sources."""
    for t, topic in enumerate(pack.topics):
        for side in ("gpu", "tpu"):
            for c, claim in enumerate(getattr(topic, side).claims):
                yield f"topics[{t}].{side}.claims[{c}].sources", claim.sources
    for kind in ("faq", "quotes", "glossary"):
        for i, item in enumerate(getattr(pack, kind)):
            yield f"{kind}[{i}].sources", item.sources


def lesson_problems(pack: LessonPack) -> list[tuple[str, str]]:
    """Cross-reference problems as (field path, what is wrong); empty when the pack is consistent."""
    problems: list[tuple[str, str]] = []

    def duplicates(kind: str, field: str, values: list[str], what: str) -> None:
        seen: set[str] = set()
        for i, value in enumerate(values):
            key = value.casefold()
            if key in seen:
                problems.append((f"{kind}[{i}].{field}", f"duplicate {what} {value!r}"))
            seen.add(key)

    duplicates("sources", "id", [s.id for s in pack.sources], "source id")
    duplicates("topics", "id", [t.id for t in pack.topics], "topic id")
    duplicates("faq", "question", [f.question for f in pack.faq], "question")
    names = [(i, n) for i, g in enumerate(pack.glossary) for n in g.names()]
    seen_names: set[str] = set()
    for i, name in names:
        if name.casefold() in seen_names:
            problems.append((f"glossary[{i}]", f"duplicate term or alias {name!r}"))
        seen_names.add(name.casefold())

    for i, insight in enumerate(pack.insights):
        if insight.number != i + 1:
            problems.append((f"insights[{i}].number", f"expected {i + 1}: insights are numbered 1, 2, ... in order"))
    numbers = {insight.number for insight in pack.insights}
    previous = 0
    for t, topic in enumerate(pack.topics):
        if topic.insight not in numbers:
            problems.append((f"topics[{t}].insight", f"no insight numbered {topic.insight}"))
        elif topic.insight < previous:
            problems.append(
                (
                    f"topics[{t}].insight",
                    f"topic {topic.id!r} (insight {topic.insight}) comes after a topic of insight "
                    f"{previous}; list topics in insight order",
                )
            )
        previous = max(previous, topic.insight)

    known = {s.id: s for s in pack.sources}
    # Notes chunks: the page does not say which chunk holds which sentence, so a citation
    # names all chunks of a document together or none of them.
    chunks: dict[str, set[str]] = {}
    for s in pack.sources:
        if s.kind == "notes" and s.document:
            chunks.setdefault(s.document, set()).add(s.id)
    for path, ids in _citations(pack):
        for sid in ids:
            if sid not in known:
                problems.append((path, f"unknown source id {sid!r}"))
        cited = set(ids)
        for document, group in chunks.items():
            if cited & group and not group <= cited:
                missing = ", ".join(sorted(group - cited))
                problems.append(
                    (
                        path,
                        f"cites some chunks of {document} but not {missing}; "
                        "the notes chunks are cited together or not at all",
                    )
                )
    return problems


def _read_lesson(path: Path) -> LessonPack:
    return read_toml_model(path, LessonPack, "lesson pack")


def packaged_lesson_path(language: str | None = None) -> Path:
    """The packaged pack of `language` (the interface language when None), or the English one
    when that language has none."""
    from gpu_tpu_app.assets import resource_path

    return i18n.localized_file(resource_path("lesson"), "lesson", "toml", language or i18n.current_language())


@functools.lru_cache(maxsize=len(i18n.LANGUAGES) + 1)
def _packaged_lesson(path: Path) -> LessonPack:
    return _read_lesson(path)


def load_lesson(path: Path | str | None = None, language: str | None = None) -> LessonPack:
    """Read and validate a lesson pack; the packaged one when path is None, in `language` (the
    interface language when None), each file loaded once and cached.

    Raises InputError('<file>: <field path>: <problem>') on any bad content.
    """
    if path is None:
        return _packaged_lesson(packaged_lesson_path(language))
    return _read_lesson(Path(path))
