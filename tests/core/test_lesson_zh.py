"""The zh-Hans lesson pack: the English pack's ids, order and sources, its own Chinese words,
the two quotes verbatim, and the loader's choice of language."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from gpu_tpu_app import i18n
from gpu_tpu_app.core.lesson import LessonPack, load_lesson, packaged_lesson_path
from tests.core.test_lesson import QUOTE_1, QUOTE_2
from tools.i18n_allow import left_in_english

ZH = "zh-Hans"


@pytest.fixture(scope="module")
def en() -> LessonPack:
    return load_lesson(language="en")


@pytest.fixture(scope="module")
def zh() -> LessonPack:
    return load_lesson(language=ZH)


def structure(pack: LessonPack) -> dict[str, object]:
    """Everything a translation must keep as it is: ids, order, numbers, evidence and the sources each text cites."""
    return {
        "schema": pack.schema_version,
        "insights": [i.number for i in pack.insights],
        "topics": [
            (
                t.id,
                t.insight,
                t.evidence,
                [(c.sources, c.evidence) for c in t.gpu.claims],
                [(c.sources, c.evidence) for c in t.tpu.claims],
            )
            for t in pack.topics
        ],
        "faq": [(f.sources, f.origin) for f in pack.faq],
        "quotes": [(q.text, q.sources) for q in pack.quotes],
        "glossary": [g.sources for g in pack.glossary],
        "sources": [(s.id, s.kind, s.url, s.document, s.page, s.chunk) for s in pack.sources],
        "episode": (pack.episode.title, pack.episode.host, pack.episode.minutes, pack.episode.date),
    }


def text_pairs(en: LessonPack, other: LessonPack) -> Iterator[tuple[str, str, str]]:
    """(place, English text, translated text) for every text a translation must put in its own words."""
    ee, oe = en.episode, other.episode
    for name in ("plan", "style", "question", "overview", "summary"):
        yield f"episode.{name}", getattr(ee, name), getattr(oe, name)
    for i, (a, b) in enumerate(zip(ee.tags, oe.tags, strict=True)):
        yield f"episode.tags[{i}]", a, b
    for a, b in zip(en.insights, other.insights, strict=True):
        yield f"insights[{a.number}].title", a.title, b.title
    for ta, tb in zip(en.topics, other.topics, strict=True):
        yield f"{ta.id}.title", ta.title, tb.title
        for side in ("gpu", "tpu"):
            sa, sb = getattr(ta, side), getattr(tb, side)
            yield f"{ta.id}.{side}.headline", sa.headline, sb.headline
            for i, (ca, cb) in enumerate(zip(sa.claims, sb.claims, strict=True)):
                yield f"{ta.id}.{side}.claims[{i}]", ca.text, cb.text
    for i, (fa, fb) in enumerate(zip(en.faq, other.faq, strict=True)):
        yield f"faq[{i}].question", fa.question, fb.question
        yield f"faq[{i}].answer", fa.answer, fb.answer
    for i, (qa, qb) in enumerate(zip(en.quotes, other.quotes, strict=True)):
        yield f"quotes[{i}].attribution", qa.attribution, qb.attribution
    for i, (ga, gb) in enumerate(zip(en.glossary, other.glossary, strict=True)):
        yield f"glossary[{i}].definition", ga.definition, gb.definition
        if not ga.term.isupper() and "/" not in ga.term and ga.term not in ("bf16", "NVLink", "ROCm"):
            yield f"glossary[{i}].term", ga.term, gb.term  # a word (systolic array), not a name (XLA, bf16)
        english_names = {n.casefold() for n in ga.names()}
        for alias in gb.aliases:
            if alias.casefold() not in english_names:  # the English names may stay, for search
                yield f"glossary[{i}].aliases", "", alias
    for sa, sb in zip(en.sources, other.sources, strict=True):
        if sa.kind != "web":  # the project's own description of a lesson part; web titles stay as published
            yield f"sources.{sa.id}.title", sa.title, sb.title
            if sa.note:
                yield f"sources.{sa.id}.note", sa.note, sb.note or ""


def differences(en: LessonPack, other: LessonPack) -> list[str]:
    """What keeps `other` from being a faithful translation of `en` (empty: none)."""
    problems: list[str] = []
    a, b = structure(en), structure(other)
    problems += [f"{key}: differs from the English pack" for key in a if a[key] != b[key]]
    if problems:
        return problems  # the texts cannot be paired up
    for sa, sb in zip(en.sources, other.sources, strict=True):
        if sa.kind == "web" and sb != sa:
            problems.append(f"sources.{sa.id}: a web source stays as published")
        if sa.kind == "episode":  # the chapter's own name, as the episode gives it
            published = sa.title.split(": ", 1)[1]
            if not sb.title.endswith(published):
                problems.append(f"sources.{sa.id}.title: lost the chapter name {published!r}")
    for place, english, text in text_pairs(en, other):
        left = left_in_english(text)
        if left or not text.strip():
            problems.append(f"{place}: left in English: {text!r} ({', '.join(left)})")
        # one word per metaphor (the terms every translator uses)
        if "workshop" in english.casefold() and "工坊" not in text:
            problems.append(f"{place}: the workshop is 工坊")
        if "factory line" in english.casefold() and "流水线" not in text:
            problems.append(f"{place}: the factory line is 流水线")
    return problems


def test_the_zh_pack_is_the_english_pack_in_chinese(en: LessonPack, zh: LessonPack) -> None:
    assert (en.language, zh.language) == ("en", ZH)
    assert differences(en, zh) == []
    assert zh.topic_ids() == en.topic_ids()
    assert zh.topic("workflow").title == "开发流程与调试"


def test_the_comparison_catches_a_lost_source_an_english_claim_and_a_changed_quote(
    en: LessonPack, zh: LessonPack
) -> None:
    topics = list(zh.topics)
    side = topics[0].gpu
    first = side.claims[0]
    claims = [first.model_copy(update={"sources": ["lesson-ch2"]}), *side.claims[1:]]
    moved = topics[0].model_copy(update={"gpu": side.model_copy(update={"claims": claims})})
    assert any(p.startswith("topics:") for p in differences(en, zh.model_copy(update={"topics": [moved, *topics[1:]]})))

    english = en.topics[2].tpu.claims[1].text
    tpu = zh.topics[2].tpu
    claims = [tpu.claims[0], tpu.claims[1].model_copy(update={"text": english}), *tpu.claims[2:]]
    topic = zh.topics[2].model_copy(update={"tpu": tpu.model_copy(update={"claims": claims})})
    problems = differences(en, zh.model_copy(update={"topics": [*zh.topics[:2], topic, *zh.topics[3:]]}))
    assert len(problems) == 1 and problems[0].startswith(f"software.tpu.claims[1]: left in English: {english!r}")

    quotes = [zh.quotes[0].model_copy(update={"text": "GPU 是工坊。"}), zh.quotes[1]]
    assert "quotes: differs from the English pack" in differences(en, zh.model_copy(update={"quotes": quotes}))

    faq = [zh.faq[0].model_copy(update={"answer": "Neither wins everywhere."}), *zh.faq[1:]]
    assert any(
        p.startswith("faq[0].answer: left in English") for p in differences(en, zh.model_copy(update={"faq": faq}))
    )


def test_the_quotes_stay_verbatim_and_attributed(zh: LessonPack) -> None:
    assert [q.text for q in zh.quotes] == [QUOTE_1, QUOTE_2]
    assert "「GPU vs TPU: Choosing Your AI Hardware」" in zh.quotes[0].attribution
    assert "「GPU vs TPU: Choosing Your AI Engine」" in zh.quotes[1].attribution
    assert all("Lena" in q.attribution for q in zh.quotes[:1])


def test_chinese_citations_and_labels(zh: LessonPack, en: LessonPack) -> None:
    text, url = zh.citation("notes:gpu_tpu_lesson_notes.md")
    assert (
        text
        == "课程笔记 gpu_tpu_lesson_notes.md（段落 file_gpu001:c0000 至 file_gpu001:c0003，页码 p1 和 p2），按课程页面所列"
    )
    assert url == en.citation("notes:gpu_tpu_lesson_notes.md")[1]
    assert zh.citation("lesson-ch4") == (
        "节目第 4 章：The Dance of Frameworks and Flexibility（音频节目，主持人 Lena）",
        None,
    )
    assert zh.citation("openxla") == en.citation("openxla") == ("OpenXLA: XLA compiler", "https://openxla.org/xla")
    # the English words are unchanged
    assert en.citation("notes:gpu_tpu_lesson_notes.md")[0] == (
        "The lesson's notes, gpu_tpu_lesson_notes.md (passages file_gpu001:c0000 to file_gpu001:c0003, "
        "pages p1 and p2), as the lesson page lists them"
    )
    assert (
        en.source("notes-c0001").label(url=False)
        == "Lesson knowledge source file_gpu001:c0001 (gpu_tpu_lesson_notes.md, p1)"
    )


def test_glossary_terms_are_found_by_their_english_names_too(zh: LessonPack) -> None:
    assert zh.term("systolic array").term == "脉动阵列"
    assert zh.term("Tensor Cores").term == "张量核心"
    assert zh.term("slice") is zh.term("切片")


@pytest.fixture
def language() -> Iterator[None]:
    yield
    i18n.set_language(None)


def test_the_loader_follows_the_interface_language(language: None, en: LessonPack, zh: LessonPack) -> None:
    i18n.set_language(ZH)
    assert load_lesson() is zh  # one file per language, each read once
    assert packaged_lesson_path().name == "lesson.zh-Hans.toml"
    assert load_lesson(language="en") is en
    i18n.set_language("en")
    assert load_lesson() is en
    assert packaged_lesson_path().name == "lesson.en.toml"
    assert packaged_lesson_path(ZH).name == "lesson.zh-Hans.toml"


def test_every_shipped_language_has_its_pack() -> None:
    for lang in i18n.LANGUAGES:
        path = packaged_lesson_path(lang)
        assert path.name == f"lesson.{lang}.toml" and path.is_file()
        assert load_lesson(language=lang).language == lang
        assert re.search(r"example\.com/not-a-source", path.read_text(encoding="utf-8")) is None
