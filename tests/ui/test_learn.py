"""The Learn page: side-by-side topics, search, navigation, glossary hover, source links, evidence."""

from __future__ import annotations

import html
import re
import socket
import subprocess
import sys

import pytest
from PySide6.QtCore import QEvent, QPoint, QRect, Qt, QUrl
from PySide6.QtGui import QDesktopServices, QHelpEvent, QTextCursor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QSplitter, QToolTip

from gpu_tpu_app.core.lesson import load_lesson
from gpu_tpu_app.core.runs import ProbeResult
from gpu_tpu_app.ui.learn.glossary import GlossaryLinker
from gpu_tpu_app.ui.learn.learn import ITEM_PAD_X, LearnPage
from gpu_tpu_app.ui.learn.lesson_html import GLOSSARY, evidence_lines
from gpu_tpu_app.ui.shell.theme import DARK, LIGHT, theme_manager

GPU_LABEL = "GPU · the workshop"
TPU_LABEL = "TPU · the factory line"


@pytest.fixture
def lesson():
    return load_lesson()


@pytest.fixture
def page(qtbot, lesson):
    theme_manager().apply("light")
    p = LearnPage(lesson)
    qtbot.addWidget(p)
    p.resize(1280, 800)
    p.show()
    qtbot.waitExposed(p)
    return p


def _text(p: LearnPage) -> str:
    return p.browser.toPlainText()


def _anchor_point(p: LearnPage, predicate) -> tuple[str, QPoint]:
    """Viewport position of the middle of the first link whose href satisfies `predicate`."""
    doc = p.browser.document()
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            href = frag.charFormat().anchorHref() if frag.isValid() else ""
            if href and predicate(href):
                cur = QTextCursor(doc)
                cur.setPosition(frag.position() + max(0, frag.length() // 2))
                p.browser.setTextCursor(cur)
                p.browser.ensureCursorVisible()
                rect = p.browser.cursorRect(cur)
                return href, rect.center()
            it += 1
        block = block.next()
    raise AssertionError("no such link on the page")


def shown_topics(page) -> list[str]:
    """The topic ids the list shows, in order (what the user sees after a search)."""
    ids = {t.id for t in page.lesson.topics}
    items = []
    stack = [page.tree.topLevelItem(i) for i in range(page.tree.topLevelItemCount())]
    while stack:
        item = stack.pop(0)
        stack[0:0] = [item.child(j) for j in range(item.childCount())]
        key = item.data(0, Qt.ItemDataRole.UserRole)
        if key in ids and not item.isHidden():
            items.append(key)
    return items


def test_topic_shows_gpu_and_tpu_columns_with_claims_and_sources(page, lesson):
    page.show_topic("architecture")
    topic = lesson.topic("architecture")
    text = _text(page)
    assert GPU_LABEL in text and TPU_LABEL in text
    assert topic.title in text
    for claim in [*topic.gpu.claims, *topic.tpu.claims]:
        assert claim.text[:40] in text
    # each source once, numbered as it is first cited; no internal source id on screen
    citations = lesson.citations_for(topic.source_ids())
    for n, (_key, words, _url) in enumerate(citations, 1):
        assert f"{n}.\n{words}" in text
    for sid in topic.source_ids():
        assert sid not in text
    assert "[1" in text
    # GPU column comes before the TPU column
    assert text.index(GPU_LABEL) < text.index(TPU_LABEL)


def test_topic_list_follows_the_three_insights_in_order(page, lesson):
    tree = page.tree
    listed = []
    for i in range(tree.topLevelItemCount()):
        top = tree.topLevelItem(i)
        for j in range(top.childCount()):
            listed.append(top.child(j).data(0, Qt.ItemDataRole.UserRole))
    topic_ids = [k for k in listed if not k.startswith("page:")]
    assert topic_ids == [t.id for t in lesson.topics]
    heads = [tree.topLevelItem(i).text(0) for i in range(tree.topLevelItemCount())]
    for insight in lesson.insights:
        assert f"{insight.number}. {insight.title}" in heads


def _clipped_titles(p: LearnPage, lesson) -> list[str]:
    """Topic titles whose row in the list is too short for the title wrapped at the row's width."""
    tree = p.tree
    fm = tree.fontMetrics()
    clipped = []
    for t in lesson.topics:
        rect = tree.visualItemRect(p._items[t.id])
        width = rect.width() - 2 * ITEM_PAD_X
        need = fm.boundingRect(QRect(0, 0, width, 10_000), Qt.TextFlag.TextWordWrap, t.title)
        if rect.height() < need.height():
            clipped.append(t.title)
    return clipped


def test_long_topic_titles_wrap_in_the_list_instead_of_being_cut_off(page, qtbot, lesson):
    tree = page.tree
    assert tree.wordWrap()
    assert tree.textElideMode() == Qt.TextElideMode.ElideNone
    assert tree.columnWidth(0) <= tree.viewport().width()  # no part of a row hidden to the right
    for t in lesson.topics:
        item = page._items[t.id]
        assert item.text(0) == t.title
        assert item.toolTip(0).startswith(t.title)
    longest = max(lesson.topics, key=lambda t: len(t.title))
    row = tree.visualItemRect(page._items[longest.id])
    # At the default size the longest title does not fit on one line, so its row holds two.
    assert tree.fontMetrics().horizontalAdvance(longest.title) > row.width() - 2 * ITEM_PAD_X
    assert row.height() >= 2 * tree.fontMetrics().lineSpacing()
    assert _clipped_titles(page, lesson) == []
    # A narrower list measures its rows again.
    split = page.findChild(QSplitter)
    split.setSizes([220, 1060])
    qtbot.waitUntil(lambda: tree.viewport().width() < 220)
    qtbot.waitUntil(lambda: _clipped_titles(page, lesson) == [])


def test_search_box_filters_topics(page, qtbot, lesson):
    qtbot.keyClicks(page.search, "compil")
    expected = [
        t.id
        for t in lesson.topics
        if re.search(
            r"\bcompil",
            " ".join([t.title, t.gpu.headline, t.tpu.headline, *(c.text for c in t.gpu.claims + t.tpu.claims)]),
            re.I,
        )
    ]
    assert expected and len(expected) < len(lesson.topics)
    assert shown_topics(page) == expected
    page.search.clear()
    assert shown_topics(page) == [t.id for t in lesson.topics]
    qtbot.keyClicks(page.search, "zzqx-no-such-word")
    assert shown_topics(page) == []
    assert "Nothing matches" in page.match_label.text()


def test_show_topic_selects_it_in_the_list(page, qtbot, lesson):
    with qtbot.waitSignal(page.sig_topic_changed) as sig:
        page.show_topic("cost")
    assert sig.args == ["cost"]
    assert page.current_topic() == "cost"
    assert page.tree.currentItem().text(0) == lesson.topic("cost").title
    assert lesson.topic("cost").title in _text(page)
    with pytest.raises(KeyError):
        page.show_topic("no-such-topic")


def test_show_topic_clears_a_search_that_hides_it(page, qtbot):
    qtbot.keyClicks(page.search, "zzqx-no-such-word")
    page.show_topic("history")
    assert page.search.text() == ""
    assert page.current_topic() == "history"


def test_glossary_term_explained_on_hover(page, qtbot, lesson):
    page.show_topic("software")
    href, pos = _anchor_point(page, lambda h: h.startswith("term:"))
    term = page.linker.lookup(href.split(":", 1)[1].replace("%2F", "/"))
    assert term is not None
    tip = page.browser.tooltip_at(pos)
    assert html.escape(term.definition)[:60] in tip
    event = QHelpEvent(QEvent.Type.ToolTip, pos, page.browser.viewport().mapToGlobal(pos))
    page.browser.viewportEvent(event)
    assert term.term in QToolTip.text()


def test_clicking_a_source_url_opens_the_browser_and_nothing_else_goes_online(page, qtbot, monkeypatch):
    opened: list[str] = []
    connects: list[object] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(lambda url: opened.append(url.toString()) or True))
    real_connect = socket.socket.connect

    def spy_connect(self, address):
        connects.append(address)
        return real_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", spy_connect)
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: connects.append(a) or None)
    page.show_topic("workflow")
    assert opened == []  # showing a page opens nothing
    href, pos = _anchor_point(page, lambda h: h.startswith("https://"))
    with qtbot.waitSignal(page.sig_link_opened) as sig:
        QTest.mouseClick(page.browser.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, pos)
    assert opened == [href]
    assert sig.args == [href]
    assert page.current_topic() == "workflow"  # the page itself did not navigate
    assert connects == []
    assert "PySide6.QtNetwork" not in sys.modules


def test_source_id_link_and_topic_link_stay_inside_the_app(page, qtbot, monkeypatch):
    opened: list[str] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(lambda url: opened.append(url.toString()) or True))
    page.show_topic("workflow")
    page.browser.anchorClicked.emit(QUrl("source:lesson-ch6"))
    page.browser.anchorClicked.emit(QUrl("topic:playbook"))
    assert page.current_topic() == "playbook"
    assert opened == []


def test_faq_quotes_and_glossary_pages(page, lesson):
    page.show_topic("page:faq")
    text = _text(page)
    for f in lesson.faq:
        assert f.question in text
    page.show_topic("page:quotes")
    text = _text(page)
    assert len(lesson.quotes) == 2
    for q in lesson.quotes:
        assert q.text[:50] in text
    page.show_topic(GLOSSARY)
    text = _text(page)
    for g in lesson.glossary:
        assert g.term in text


def test_topic_shows_evidence_from_runs_next_to_the_matching_claim(page, lesson, compile_and_matmul_run):
    page.show_topic("workflow")
    assert "MEASURED ON THIS MACHINE" not in _text(page)
    assert "open the Probe page" in _text(page)
    page.set_runs([compile_and_matmul_run])
    text = _text(page)
    assert "MEASURED ON THIS MACHINE" in text
    assert "compile 250 ms" in text
    # placed right after the first claim that talks about compiling
    topic = lesson.topic("workflow")
    claim = next(c for c in [*topic.tpu.claims, *topic.gpu.claims] if re.search("compil", c.text, re.I))
    assert text.index(claim.text[:30]) < text.index("compile 250 ms")
    page.show_topic("history")  # matmul evidence
    assert "best 250 GFLOP/s" in _text(page)
    page.set_runs([])
    assert "MEASURED ON THIS MACHINE" not in _text(page)


def test_evidence_lines_say_when_nothing_usable_was_measured(compile_and_matmul_run):
    run = compile_and_matmul_run
    skipped = ProbeResult(
        kernel="transfer",
        backend="jax",
        device="jax:cpu:0",
        variant="h2d",
        metric="bytes_per_s",
        status="skipped",
        message="no accelerator: host and device share memory",
    )
    run = run.model_copy(update={"results": [*run.results, skipped]})
    assert evidence_lines("transfer", [run]) == [
        "not measured on Test CPU: no accelerator: host and device share memory"
    ]
    assert evidence_lines("collective", [run]) == []


def test_probe_link_asks_the_window_for_the_probe_page(page, qtbot):
    page.show_topic("workflow")
    with qtbot.waitSignal(page.sig_open_probe):
        page.browser.anchorClicked.emit(QUrl("app:probe"))


def test_theme_switch_recolours_the_page(page, qtbot):
    page.show_topic("history")
    assert LIGHT["gpu"] in page.html()
    with qtbot.waitSignal(theme_manager().sig_theme_changed):
        theme_manager().apply("dark")
    try:
        assert DARK["gpu"] in page.html()
    finally:
        theme_manager().apply("light")


def test_glossary_linker_links_each_term_once_longest_name_first(lesson):
    linker = GlossaryLinker(lesson.glossary)
    out = linker.link("PyTorch/XLA uses XLA; XLA again, and a pod of TPUs with systolic arrays.")
    assert out.count('href="term:PyTorch%2FXLA"') == 1
    assert out.count('href="term:XLA"') == 1  # the second XLA is plain text
    assert 'href="term:TPU">TPUs</a>' in out
    assert 'href="term:systolic%20array">systolic arrays</a>' in out
    assert "pod</a>" in out
    # acronyms match as written only
    assert "term:" not in linker.link("a hbm-ish word and xlarge")


def test_learn_module_does_not_import_pyqtgraph():
    code = "import sys, gpu_tpu_app.ui.learn.learn; print('pyqtgraph' in sys.modules, 'torch' in sys.modules, 'jax' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False", "False"]


def test_evidence_uses_the_newest_run_of_each_device(compile_and_matmul_run):
    old = compile_and_matmul_run
    newer = old.model_copy(
        update={
            "results": [r.model_copy(update={"value": r.value * 2}) if r.kernel == "matmul" else r for r in old.results]
        }
    )
    assert evidence_lines("matmul", [old, newer]) == [
        "best 500 GFLOP/s (float32, N=2048, Test CPU · jax; smoke suite: a functional check, not a benchmark)"
    ]


def test_the_lessons_notes_are_one_citation_named_as_the_lesson_lists_them(page, lesson):
    notes = [s for s in lesson.sources if s.kind == "notes"]
    topic = next(t for t in lesson.topics if any(s.id in t.source_ids() for s in notes))
    page.show_topic(topic.id)
    text = _text(page)
    words, url = lesson.citation(lesson.citation_key(notes[0].id))
    assert text.count(words) == 1 and notes[0].document in words
    assert all(s.chunk in words for s in (notes[0], notes[-1]))
    assert url == notes[0].url and url in text
    assert not any(s.id in text for s in notes)


def test_evidence_sits_beside_the_claim_the_lesson_pack_names(page, lesson, monkeypatch):
    """Placement comes from each claim's `evidence` list, never from matching words."""
    for topic in lesson.topics:
        placed, left = page.content.attach_evidence(topic)
        claims = {id(c): c for c in [*topic.gpu.claims, *topic.tpu.claims]}
        for key, kernels in placed.items():
            assert kernels == claims[key].evidence
        assert sorted({*left, *(k for ks in placed.values() for k in ks)}) == sorted(set(topic.evidence))
    playbook = lesson.topic("playbook")
    assert not any("compile" in c.evidence for c in playbook.gpu.claims)  # not beside the CUDA-team claim


def test_glossary_tooltips_name_sources_by_title_never_by_id() -> None:
    from gpu_tpu_app.core.lesson import load_lesson
    from gpu_tpu_app.ui.learn.glossary import tooltip_html

    pack = load_lesson()
    ids = {s.id for s in pack.sources}
    for term in pack.glossary:
        tip = tooltip_html(term, pack)
        assert not any(f"{sid}," in tip or f"{sid}<" in tip or f" {sid};" in tip for sid in term.sources), tip
        for sid in term.sources:
            assert pack.source(sid).title.split()[0] in tip
    assert ids


def test_measured_evidence_sits_under_both_columns_never_in_the_tpu_one(page, lesson, compile_and_matmul_run):
    """In the TPU column a CPU's measured figure read as a TPU figure: the block comes after the two columns."""
    page.set_runs([compile_and_matmul_run])
    shown = 0
    for topic in lesson.topics:
        placed, left = page.content.attach_evidence(topic)
        if not placed and not left:
            continue
        body = page.content._topic_html(topic, theme_manager().colors())
        if "MEASURED ON THIS MACHINE" not in body:
            continue  # nothing measured for this topic's kernels
        columns_end = body.index("</table>", body.index("border-bottom: 2px solid"))
        assert body.index("MEASURED ON THIS MACHINE") > columns_end, topic.id
        assert "neither a GPU nor a TPU figure" in body
        shown += 1
    assert shown >= 2
