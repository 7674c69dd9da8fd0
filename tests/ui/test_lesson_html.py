"""The Learn page's content (ui.lesson_html) built without a window: every page, evidence placement, search text."""

from __future__ import annotations

from gpu_tpu_app.core.lesson import load_lesson
from gpu_tpu_app.core.runs import RunFile
from gpu_tpu_app.ui.learn.glossary import GlossaryLinker
from gpu_tpu_app.ui.learn.lesson_html import (
    FAQ,
    GLOSSARY,
    OVERVIEW,
    PAGE_TITLES,
    QUOTES,
    SOURCES,
    LessonHtml,
    css,
    matches,
)

GPU_LABEL = "GPU · the workshop"
TPU_LABEL = "TPU · the factory line"
COLORS = {
    k: "#123456"
    for k in ("background", "surface", "foreground", "muted", "accent", "gpu", "tpu", "selection", "border")
}


def _content() -> LessonHtml:
    lesson = load_lesson()
    return LessonHtml(lesson, GlossaryLinker(lesson.glossary))


def test_every_page_renders_from_the_lesson_alone() -> None:
    content = _content()
    lesson = content.lesson
    assert set(PAGE_TITLES) == {OVERVIEW, FAQ, QUOTES, GLOSSARY, SOURCES}
    for key in [*PAGE_TITLES, *(t.id for t in lesson.topics)]:
        body = content.page(key, COLORS)
        assert body.strip(), key
        assert matches("", content.searchable(key))
    topic = lesson.topics[0]
    body = content.page(topic.id, COLORS)
    assert GPU_LABEL in body and TPU_LABEL in body and "#123456" in body
    assert "open the Probe page" in body or not topic.evidence
    assert lesson.faq[0].question.split()[0] in content.page(FAQ, COLORS)
    assert "color: #123456" in css(COLORS)


def test_runs_add_measured_evidence_and_search_finds_topic_words(compile_and_matmul_run: RunFile) -> None:
    content = _content()
    assert "MEASURED ON THIS MACHINE" not in content.page("workflow", COLORS)
    content.runs = [compile_and_matmul_run]
    assert "compile 250 ms" in content.page("workflow", COLORS)
    topic = content.lesson.topic("workflow")
    word = topic.title.split()[0]
    assert matches(word[:3], content.searchable("workflow"))
    assert not matches("zzqqxx", content.searchable("workflow"))
