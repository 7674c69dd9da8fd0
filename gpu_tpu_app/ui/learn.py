"""The Learn page: the lesson pack side by side, GPU (the workshop) next to TPU (the factory line).

Topics are listed by the lesson's three key insights, with a search box; each claim shows
its sources, glossary terms explain themselves on hover, and a topic shows what was measured
on this machine where a probe run is set. Links never navigate by themselves: source URLs
open in the user's browser only when clicked, and nothing is ever fetched.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from urllib.parse import quote, unquote

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, QPoint, QRect, QSize, Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QHelpEvent, QResizeEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSplitter,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTextBrowser,
    QToolTip,
    QTreeWidget,
    QTreeWidgetItem,
    QTreeWidgetItemIterator,
    QVBoxLayout,
    QWidget,
)

from gpu_tpu_app.core.lesson import Claim, LessonPack, Topic
from gpu_tpu_app.core.runs import ProbeResult, RunFile
from gpu_tpu_app.core.terms import COMPILE_PHASES
from gpu_tpu_app.core.trust import is_functional_check, run_flags, trusted
from gpu_tpu_app.core.wording import FUNCTIONAL_CHECK, format_pct, format_seconds, format_value
from gpu_tpu_app.ui.glossary import GlossaryLinker, glossary_html, term_from_href, tooltip_html
from gpu_tpu_app.ui.results_model import device_name
from gpu_tpu_app.ui.theme import theme_manager

# Page keys in the topic list besides topics.
OVERVIEW, FAQ, QUOTES, GLOSSARY, SOURCES = "page:overview", "page:faq", "page:quotes", "page:glossary", "page:sources"
_PAGE_TITLES = {OVERVIEW: "Overview", FAQ: "FAQ", QUOTES: "Two quotes", GLOSSARY: "Glossary", SOURCES: "All sources"}

GPU_LABEL = "GPU · the workshop"
TPU_LABEL = "TPU · the factory line"

#: Which claim a piece of measured evidence sits next to: a pattern on the claim text and the side to look at first.
KERNEL_WORDS = {
    "matmul": "matmul throughput",
    "compile": "JAX compile step",
    "dispatch": "dispatch latency",
    "triad": "memory bandwidth (triad)",
    "copy": "memory bandwidth (copy)",
    "transfer": "host-device transfer",
    "collective": "all-reduce bandwidth",
    "model_step": "transformer block step",
}

_WORD = re.compile(r"\w[\w/+.-]*", re.UNICODE)

#: Horizontal padding of a topic-list row, in pixels on each side (the tree's style sheet uses it).
ITEM_PAD_X = 2


# ---------------------------------------------------------------- evidence from probe runs


def _where(run: RunFile, r: ProbeResult, many_hosts: bool) -> str:
    where = f"{device_name(run, r.device)} · {r.backend}"
    return f"{where} on {run.host}" if many_hosts else where


def evidence_lines(kernel: str, runs: list[RunFile], limit: int = 4) -> list[str]:
    """Plain-text lines of what the runs measured for one evidence kernel (empty when nothing was).

    Runs are oldest first; for each device only its newest run that measured the kernel is used.
    """
    many = len({r.host for r in runs}) > 1
    lines: list[str] = []
    seen: set[tuple[str, str]] = set()  # (host, device): the newest run of a device speaks for it
    for run in reversed(runs):
        # flagged points (too noisy, in cache, above a roof) are never evidence
        flags = {id(r): f for r, f in zip(run.results, run_flags(run))}
        good = {id(r) for r in run.results if trusted(r, flags[id(r)])}
        check = f"; {FUNCTIONAL_CHECK}" if is_functional_check(run) else ""

        results = [r for r in run.results if r.kernel == kernel and (run.host, r.device) not in seen]
        if not results:
            continue
        seen.update((run.host, r.device) for r in results if r.status != "skipped")
        if kernel == "compile":
            groups: dict[tuple[str, str | None, int | None], dict[str, float]] = {}
            for r in results:
                if id(r) in good and r.variant:
                    groups.setdefault((r.device, r.dtype, r.size), {})[r.variant] = float(r.value)  # type: ignore[arg-type]
            # The biggest function measured per device says most about the compile step.
            best: dict[str, tuple[tuple[str, str | None, int | None], dict[str, float]]] = {}
            for key, phases in groups.items():
                if key[0] not in best or (key[2] or 0) > (best[key[0]][0][2] or 0):
                    best[key[0]] = (key, phases)
            for (dev, dtype, size), phases in best.values():
                order = [p for p in COMPILE_PHASES if p in phases]
                steps = ", ".join(f"{p.replace('_', ' ')} {format_seconds(phases[p])}" for p in order)
                shape = " ".join(x for x in (dtype, f"N={size}" if size else None) if x)
                r0 = next(r for r in results if r.device == dev)
                where = _where(run, r0, many) + check
                lines.append(f"{steps} ({shape}; {where})" if shape else f"{steps} ({where})")
            continue
        by_key: dict[tuple[str, str, str | None, str | None], ProbeResult] = {}
        for r in results:
            if id(r) not in good:
                continue
            best_key = (r.device, r.backend, r.dtype, r.variant if kernel in ("transfer", "dispatch") else None)
            keep = by_key.get(best_key)
            if keep is None:
                by_key[best_key] = r
            elif (r.value < keep.value) if r.metric == "seconds" else (r.value > keep.value):  # type: ignore[operator]
                by_key[best_key] = r  # the best: fastest time, highest rate
        for (_dev, _b, dtype, variant), r in by_key.items():
            extra = [x for x in (variant, dtype, f"N={r.size}" if kernel == "matmul" and r.size else None) if x]
            text = format_value(r.value, r.metric)
            if kernel == "matmul":
                text = f"best {text}"
            if r.pct_spec is not None:
                text += f" ({format_pct(r.pct_spec)} of spec)"
            lines.append(f"{text} ({', '.join([*extra, _where(run, r, many)])}{check})")
        if not by_key:
            skipped = next((r for r in results if r.status == "skipped"), None)
            failed = next((r for r in results if r.status in ("error", "timeout", "suspect")), None)
            untrusted = next((r for r in results if r.status == "ok" and r.value), None)
            if untrusted is not None:
                why = flags[id(untrusted)].note() or "flagged"
                lines.append(f"measured on {device_name(run, untrusted.device)} but not trusted: {why}")
            elif skipped is not None:
                lines.append(f"not measured on {device_name(run, skipped.device)}: {skipped.message or 'not applicable'}")
            elif failed is not None:
                lines.append(f"{failed.status} on {device_name(run, failed.device)}: {failed.message or ''}".rstrip(": "))
    return lines[:limit]


def _words(text: str) -> set[str]:
    return {w.casefold() for w in _WORD.findall(text)}


def topic_text(topic: Topic) -> str:
    """All words of a topic, for search."""
    parts = [topic.id, topic.title, topic.gpu.headline, topic.tpu.headline]
    parts += [c.text for c in topic.gpu.claims] + [c.text for c in topic.tpu.claims]
    return " ".join(parts)


def matches(query: str, text: str) -> bool:
    """True when every word of the query starts a word of the text (case-insensitive)."""
    wanted = [w.casefold() for w in _WORD.findall(query)]
    if not wanted:
        return True
    have = _words(text)
    return all(any(h.startswith(w) for h in have) for w in wanted)


# ---------------------------------------------------------------- the browser


class LessonBrowser(QTextBrowser):
    """A QTextBrowser that never follows links by itself and explains glossary terms and sources on hover."""

    def __init__(self, page: LearnPage) -> None:
        super().__init__(page)
        self._page = page
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.setMouseTracking(True)
        self.viewport().setMouseTracking(True)

    def tooltip_at(self, pos: QPoint) -> str:
        """The tooltip for the link under a viewport position ('' when none)."""
        href = self.anchorAt(pos)
        return self._page.tooltip_for(href) if href else ""

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            assert isinstance(event, QHelpEvent)
            text = self.tooltip_at(event.pos())
            if text:
                QToolTip.showText(event.globalPos(), text, self.viewport())
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().viewportEvent(event)

    def loadResource(self, type_: int, name: QUrl | str) -> object:
        # Only resources inside the document itself: never the network, never local files by URL.
        return None


class _WrapDelegate(QStyledItemDelegate):
    """Row heights for a word-wrapped tree: each row is measured at the width its column gives it."""

    def __init__(self, tree: TopicTree) -> None:
        super().__init__(tree)
        self._tree = tree

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        tree = self._tree
        width = tree.columnWidth(index.column())
        if width <= 0:  # not laid out yet: measured again once the column has a width
            return super().sizeHint(option, index)
        if index.column() == 0:
            depth = 1 if tree.rootIsDecorated() else 0
            parent = index.parent()
            while parent.isValid():
                depth += 1
                parent = parent.parent()
            width -= tree.indentation() * depth
        opt = QStyleOptionViewItem(option)
        # The style wraps text only for a valid rectangle: a width and a height above zero.
        opt.rect = QRect(0, 0, max(width - 2 * ITEM_PAD_X, 1), max(option.rect.height(), 1))
        return super().sizeHint(opt, index)


class TopicTree(QTreeWidget):
    """The topic list: long titles wrap onto more lines instead of being cut off at the edge."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.setUniformRowHeights(False)
        self.setItemDelegate(_WrapDelegate(self))
        # Qt measures tree rows once; a new column width needs them measured again.
        self.header().sectionResized.connect(lambda *_: self.scheduleDelayedItemsLayout())


class LearnPage(QWidget):
    """Topic list (by insight, searchable) on the left; the selected page side by side on the right.

    Signals: sig_topic_changed(topic id or page key), sig_open_probe() when the user follows
    'probe this machine' (the window switches to the Probe page), sig_link_opened(url) after a
    source URL was handed to the browser.
    """

    sig_topic_changed = Signal(str)
    sig_open_probe = Signal()
    sig_link_opened = Signal(str)

    def __init__(self, lesson: LessonPack, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.lesson = lesson
        self.linker = GlossaryLinker(lesson.glossary)
        self._runs: list[RunFile] = []
        self._current = ""
        self._items: dict[str, QTreeWidgetItem] = {}

        self.search = QLineEdit()
        self.search.setPlaceholderText("Search topics, claims, FAQ, glossary…")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._filter)
        self.search.returnPressed.connect(self._open_first_match)
        self.match_label = QLabel("")
        self.match_label.setProperty("role", "muted")
        self.tree = TopicTree()
        self.tree.setHeaderHidden(True)
        self.tree.setRootIsDecorated(False)
        self.tree.setIndentation(14)
        self.tree.currentItemChanged.connect(self._on_item)
        self.tree.setStyleSheet(f"QTreeWidget::item {{ padding: 3px {ITEM_PAD_X}px; }}")
        self.tree.header().setStretchLastSection(True)
        self.tree.header().setSectionResizeMode(0, self.tree.header().ResizeMode.Stretch)
        self.browser = LessonBrowser(self)
        self.browser.anchorClicked.connect(self._on_anchor)
        self._build_tree()

        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(8, 8, 4, 8)
        lv.addWidget(self.search)
        lv.addWidget(self.match_label)
        lv.addWidget(self.tree, 1)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(self.browser)
        split.setStretchFactor(1, 1)
        split.setSizes([340, 940])
        split.setChildrenCollapsible(False)
        left.setMinimumWidth(190)
        self._split = split
        self._list_width_chosen = False  # set once the user drags the divider
        split.splitterMoved.connect(self._divider_moved)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(split)

        theme_manager().sig_theme_changed.connect(self._on_theme)
        self.show_topic(lesson.topics[0].id)

    def _divider_moved(self, _pos: int, _index: int) -> None:
        self._list_width_chosen = True

    def resizeEvent(self, event: QResizeEvent) -> None:
        """The topic list gives way before the text does: about a quarter of the width, 190 to 340 px."""
        super().resizeEvent(event)
        if not self._list_width_chosen:
            total = sum(self._split.sizes()) or self.width()
            left = max(190, min(340, round(total * 0.26)))
            self._split.blockSignals(True)
            self._split.setSizes([left, max(1, total - left)])
            self._split.blockSignals(False)

    # -- public API
    def show_topic(self, topic_id: str) -> None:
        """Show one topic (or a page key such as 'page:faq'); KeyError for an unknown id."""
        key = topic_id if topic_id in self._items else None
        if key is None:
            self.lesson.topic(topic_id)  # raises KeyError naming the known ids
            raise KeyError(topic_id)
        item = self._items[key]
        if item.isHidden():
            self.search.clear()
        self.tree.setCurrentItem(item)
        if self._current != key:  # setCurrentItem on the current item emits nothing
            self._show(key)

    def set_runs(self, runs: list[RunFile]) -> None:
        """Probe runs whose results appear as evidence next to the topics they illustrate."""
        self._runs = list(runs)
        self._render()

    def current_topic(self) -> str:
        """Id of the topic shown (or the page key: 'page:faq', 'page:glossary', ...)."""
        return self._current

    def visible_topics(self) -> list[str]:
        """Topic ids left in the list by the search box."""
        return [t.id for t in self.lesson.topics if not self._items[t.id].isHidden()]

    def tooltip_for(self, href: str) -> str:
        """Hover text for a link in the page: a glossary definition, a source's title, a URL."""
        term = term_from_href(href)
        if term is not None:
            entry = self.linker.lookup(term)
            return tooltip_html(entry, self.lesson) if entry else ""
        if href.startswith("source:"):
            key = unquote(href[len("source:") :])
            try:
                text, url = self.lesson.citation(key)
            except KeyError:
                return ""
            return html.escape(text + (f" {url}" if url else ""))
        if href.startswith(("http://", "https://")):
            return f"Opens in your web browser: {html.escape(href)}"
        if href.startswith("topic:"):
            tid = href[len("topic:") :]
            try:
                return html.escape(self.lesson.topic(tid).title)
            except KeyError:
                return ""
        return ""

    def html(self) -> str:
        """The current page's HTML (for tests and for export)."""
        return self.browser.toHtml()

    def _on_theme(self, _name: str) -> None:
        self._render()

    # -- list
    def _build_tree(self) -> None:
        def add(parent: QTreeWidget | QTreeWidgetItem, key: str, text: str, tip: str = "") -> QTreeWidgetItem:
            item = QTreeWidgetItem(parent, [text])
            item.setData(0, Qt.ItemDataRole.UserRole, key)
            if tip:
                item.setToolTip(0, tip)
            self._items[key] = item
            return item

        add(self.tree, OVERVIEW, "Overview", self.lesson.episode.title)
        for insight in self.lesson.insights:
            head = QTreeWidgetItem(self.tree, [f"{insight.number}. {insight.title}"])
            head.setFlags(Qt.ItemFlag.ItemIsEnabled)
            font = head.font(0)
            font.setBold(True)
            head.setFont(0, font)
            head.setData(0, Qt.ItemDataRole.UserRole, f"insight:{insight.number}")
            head.setToolTip(0, f"Key insight {insight.number}: {insight.title}")
            for topic in self.lesson.topics_for(insight.number):
                add(head, topic.id, topic.title, f"{topic.title}\nGPU: {topic.gpu.headline}\nTPU: {topic.tpu.headline}")
            head.setExpanded(True)
        more = QTreeWidgetItem(self.tree, ["More"])
        more.setFlags(Qt.ItemFlag.ItemIsEnabled)
        font = more.font(0)
        font.setBold(True)
        more.setFont(0, font)
        more.setData(0, Qt.ItemDataRole.UserRole, "group:more")
        add(more, FAQ, "FAQ", f"{len(self.lesson.faq)} questions and answers")
        add(more, QUOTES, "Two quotes from the lesson")
        add(more, GLOSSARY, "Glossary", f"{len(self.lesson.glossary)} terms")
        add(more, SOURCES, "All sources")
        more.setExpanded(True)

    def _searchable(self, key: str) -> str:
        if key == OVERVIEW:
            e = self.lesson.episode
            return " ".join([e.title, e.question, e.summary, *(i.title for i in self.lesson.insights)])
        if key == FAQ:
            return " ".join(f"{f.question} {f.answer}" for f in self.lesson.faq)
        if key == QUOTES:
            return " ".join(q.text for q in self.lesson.quotes)
        if key == GLOSSARY:
            return " ".join(f"{g.term} {' '.join(g.aliases)} {g.definition}" for g in self.lesson.glossary)
        if key == SOURCES:
            return " ".join(s.label() for s in self.lesson.sources)
        return topic_text(self.lesson.topic(key))

    def _filter(self, query: str) -> None:
        shown = 0
        topics = 0
        it = QTreeWidgetItemIterator(self.tree)
        groups: list[QTreeWidgetItem] = []
        while it.value():
            item = it.value()
            key = item.data(0, Qt.ItemDataRole.UserRole)
            if key in self._items:
                ok = matches(query, self._searchable(key) + " " + item.text(0))
                item.setHidden(not ok)
                if ok:
                    shown += 1
                    topics += key not in _PAGE_TITLES
            else:
                groups.append(item)
            it += 1
        for g in groups:
            g.setHidden(all(c.isHidden() for i in range(g.childCount()) if (c := g.child(i)) is not None))
        if query.strip():
            more = f", {shown - topics} more pages" if shown > topics else ""
            self.match_label.setText(f"{topics} topic{'s' if topics != 1 else ''} match{more}" if shown else "Nothing matches.")
        else:
            self.match_label.setText("")

    def _open_first_match(self) -> None:
        for t in self.lesson.topics:
            if not self._items[t.id].isHidden():
                self.show_topic(t.id)
                return

    def _on_item(self, item: QTreeWidgetItem | None, _prev: QTreeWidgetItem | None) -> None:
        if item is None:
            return
        key = item.data(0, Qt.ItemDataRole.UserRole)
        if key in self._items:
            self._show(key)

    def _show(self, key: str) -> None:
        self._current = key
        self._render()
        self.sig_topic_changed.emit(key)

    # -- links
    def _on_anchor(self, url: QUrl) -> None:
        href = url.toString()
        if href.startswith(("http://", "https://")):
            # The one place a URL leaves the app: the user's own browser, on their click.
            QDesktopServices.openUrl(url)
            self.sig_link_opened.emit(href)
        elif href.startswith("topic:"):
            self.show_topic(href[len("topic:") :])
        elif href.startswith("page:"):
            self.show_topic(href)
        elif href.startswith("source:"):
            self.browser.scrollToAnchor(f"src-{href[len('source:') :]}")
        elif href.startswith("term:"):
            term = term_from_href(href) or ""
            self.show_topic(GLOSSARY)
            self.browser.scrollToAnchor(f"term-{quote(term, safe='')}")
        elif href == "app:probe":
            self.sig_open_probe.emit()

    # -- rendering
    def _css(self, c: dict[str, str]) -> str:
        return f"""
body {{ color: {c['foreground']}; }}
h1 {{ font-size: 20pt; font-weight: 600; margin: 0; }}
h2 {{ font-size: 16pt; font-weight: 600; margin-top: 4px; margin-bottom: 2px; }}
h3 {{ font-size: 12pt; font-weight: 600; margin-top: 14px; margin-bottom: 2px; }}
a {{ color: {c['accent']}; }}
a.term {{ color: {c['foreground']}; text-decoration: none; }}
a.src {{ color: {c['muted']}; }}
.muted {{ color: {c['muted']}; }}
.src {{ color: {c['muted']}; font-size: small; }}
.kicker {{ color: {c['muted']}; font-size: small; }}
.gpu {{ color: {c['gpu']}; font-weight: 600; }}
.tpu {{ color: {c['tpu']}; font-weight: 600; }}
.evidence {{ color: {c['foreground']}; }}
li {{ margin-bottom: 6px; }}
"""

    def _render(self) -> None:
        if not self._current:
            return
        c = theme_manager().colors()
        self.browser.document().setDefaultStyleSheet(self._css(c))
        self._cite_numbers: dict[str, int] = {}  # citation key -> its number on this page
        key = self._current
        if key == OVERVIEW:
            body = self._overview_html(c)
        elif key == FAQ:
            body = self._faq_html(c)
        elif key == QUOTES:
            body = self._quotes_html(c)
        elif key == GLOSSARY:
            body = glossary_html(self.lesson, c, self._source_link)
        elif key == SOURCES:
            body = self._sources_html(c, [s.id for s in self.lesson.sources], heading="All sources")
        else:
            body = self._topic_html(self.lesson.topic(key), c)
        self.browser.setHtml(f"<html><body>{body}</body></html>")
        self._style_terms(c)

    def _style_terms(self, c: dict[str, str]) -> None:
        """Dotted underline for glossary terms (Qt's HTML subset cannot say it in CSS)."""
        from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor

        doc = self.browser.document()
        fmt = QTextCharFormat()
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DotLine)
        fmt.setUnderlineColor(QColor(c["accent"]))
        block = doc.begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                frag = it.fragment()
                if frag.isValid() and frag.charFormat().anchorHref().startswith("term:"):
                    cur = QTextCursor(doc)
                    cur.setPosition(frag.position())
                    cur.setPosition(frag.position() + frag.length(), QTextCursor.MoveMode.KeepAnchor)
                    cur.mergeCharFormat(fmt)
                it += 1
            block = block.next()

    def _number(self, sid: str) -> tuple[int, str]:
        """(number on this page, citation key) of a source id; numbers follow first use."""
        key = self.lesson.citation_key(sid)
        numbers = self._cite_numbers
        if key not in numbers:
            numbers[key] = len(numbers) + 1
        return numbers[key], key

    def _source_link(self, sid: str) -> str:
        n, key = self._number(sid)
        return f'<a class="src" href="source:{quote(key, safe="")}">{n}</a>'

    def _sources_inline(self, ids: Iterable[str]) -> str:
        links = list(dict.fromkeys(self._source_link(sid) for sid in ids))
        return f'<span class="src">[{", ".join(links)}]</span>'

    def _sources_html(self, c: dict[str, str], ids: Iterable[str], heading: str = "Sources") -> str:
        numbered = sorted({self._number(sid) for sid in ids})
        rows = []
        for n, key in numbered:
            text, url = self.lesson.citation(key)
            link = (
                f'<br><a href="{html.escape(url, quote=True)}">{html.escape(url)}</a>'
                if url
                else '<br><span class="muted">on the lesson page itself; no web link</span>'
            )
            rows.append(
                f"<tr><td valign='top' width='5%'><a name='src-{quote(key, safe='')}'></a><b>{n}.</b></td>"
                f"<td valign='top'>{html.escape(text)}{link}</td></tr>"
            )
        return (
            f"<h3>{html.escape(heading)}</h3><p class='muted'>Web links open in your browser only when you click "
            "them; the app itself downloads nothing.</p>"
            f"<table width='100%' cellspacing='0' cellpadding='4'>{''.join(rows)}</table>"
        )

    def _evidence_block(self, kernels: list[str], c: dict[str, str]) -> str:
        rows = []
        for k in kernels:
            lines = evidence_lines(k, self._runs)
            if not lines:
                continue
            items = "<br>".join(html.escape(line) for line in lines)
            rows.append(f"<b>{html.escape(KERNEL_WORDS.get(k, k))}</b>: {items}")
        if not rows:
            return ""
        return (
            f"<table width='100%' cellspacing='0' cellpadding='6' style='margin-top:4px'>"
            f"<tr><td bgcolor='{c['selection'] if 'selection' in c else c['background']}' class='evidence'>"
            f"<span class='kicker'>MEASURED ON THIS MACHINE</span><br>{'<br>'.join(rows)}</td></tr></table>"
        )

    def _attach_evidence(self, topic: Topic) -> tuple[dict[int, list[str]], list[str]]:
        """Which claim each evidence kernel sits next to, as the lesson pack says claim by claim:
        ({id(claim): kernels}, the topic's kernels no claim names)."""
        placed: dict[int, list[str]] = {}
        for side in (topic.gpu, topic.tpu):
            for claim in side.claims:
                if claim.evidence:
                    placed[id(claim)] = list(claim.evidence)
        named = {k for kernels in placed.values() for k in kernels}
        return placed, [k for k in topic.evidence if k not in named]

    def _claims_html(self, claims: list[Claim], seen: set[str], placed: dict[int, list[str]], c: dict[str, str]) -> str:
        out = []
        for claim in claims:
            ev = self._evidence_block(placed.get(id(claim), []), c) if self._runs else ""
            out.append(f"<li>{self.linker.link(claim.text, seen)} {self._sources_inline(claim.sources)}{ev}</li>")
        return f"<ul style='margin-left: 0px; -qt-list-indent: 1'>{''.join(out)}</ul>"

    def _topic_html(self, topic: Topic, c: dict[str, str]) -> str:
        insight = self.lesson.insight(topic.insight)
        seen: set[str] = set()
        placed, left = self._attach_evidence(topic)
        head = (
            f"<p class='kicker'>INSIGHT {insight.number} · {html.escape(insight.title.upper())}</p>"
            f"<h2>{html.escape(topic.title)}</h2>"
        )
        evidence = ""
        if topic.evidence and self._runs:
            evidence = self._evidence_block(left, c)
        elif topic.evidence:
            words = ", ".join(KERNEL_WORDS.get(k, k) for k in topic.evidence)
            evidence = (
                f"<p class='muted'>Measured evidence for this topic ({html.escape(words)}) appears here once this "
                "machine has been probed: <a href='app:probe'>open the Probe page</a>.</p>"
            )
        gpu_head = self.linker.link(topic.gpu.headline, seen)
        tpu_head = self.linker.link(topic.tpu.headline, seen)
        gpu_claims = self._claims_html(topic.gpu.claims, seen, placed, c)
        tpu_claims = self._claims_html(topic.tpu.claims, seen, placed, c)
        table = (
            "<table width='100%' cellspacing='0' cellpadding='8'>"
            f"<tr><td width='50%' valign='top' style='border-bottom: 2px solid {c['gpu']}'>"
            f"<span class='gpu'>{GPU_LABEL}</span></td>"
            f"<td width='50%' valign='top' style='border-bottom: 2px solid {c['tpu']}'>"
            f"<span class='tpu'>{TPU_LABEL}</span></td></tr>"
            f"<tr><td valign='top'><b>{gpu_head}</b></td><td valign='top'><b>{tpu_head}</b></td></tr>"
            f"<tr><td valign='top'>{gpu_claims}</td><td valign='top'>{tpu_claims}</td></tr></table>"
        )
        ids = [t.id for t in self.lesson.topics]
        i = ids.index(topic.id)
        nav = []
        if i > 0:
            nav.append(f"<a href='topic:{ids[i - 1]}'>← {html.escape(self.lesson.topics[i - 1].title)}</a>")
        if i + 1 < len(ids):
            nav.append(f"<a href='topic:{ids[i + 1]}'>{html.escape(self.lesson.topics[i + 1].title)} →</a>")
        return head + evidence + table + self._sources_html(c, topic.source_ids()) + f"<p>{' &nbsp;·&nbsp; '.join(nav)}</p>"

    def _overview_html(self, c: dict[str, str]) -> str:
        e = self.lesson.episode
        parts = [
            f"<p class='kicker'>{html.escape(e.plan.upper())} · {e.minutes} MIN AUDIO LESSON · {e.date.isoformat()}</p>",
            f"<h1>{html.escape(e.title)}</h1>",
            f"<p>{self.linker.link(e.summary or e.overview, set())}</p>" if (e.summary or e.overview) else "",
            "<table width='100%' cellspacing='0' cellpadding='8'><tr>"
            f"<td width='50%' valign='top' style='border-bottom: 2px solid {c['gpu']}'><span class='gpu'>{GPU_LABEL}</span><br>"
            "Flexible, general and everywhere: the place to try new ideas and change them tomorrow.</td>"
            f"<td width='50%' valign='top' style='border-bottom: 2px solid {c['tpu']}'><span class='tpu'>{TPU_LABEL}</span><br>"
            "Built for one kind of work, tensor arithmetic, and efficient when that work is stable and large.</td>"
            "</tr></table>",
        ]
        for insight in self.lesson.insights:
            links = " · ".join(
                f"<a href='topic:{t.id}'>{html.escape(t.title)}</a>" for t in self.lesson.topics_for(insight.number)
            )
            parts.append(f"<h3>{insight.number}. {html.escape(insight.title)}</h3><p>{links}</p>")
        parts.append("<h3>In the lesson's words</h3>")
        parts.append(self._quotes_body(c))
        parts.append(
            "<p class='muted'>Also: <a href='page:faq'>FAQ</a> · <a href='page:glossary'>Glossary</a> · "
            "<a href='page:sources'>All sources</a></p>"
        )
        return "".join(parts)

    def _quotes_body(self, c: dict[str, str]) -> str:
        out = []
        for q in self.lesson.quotes:
            out.append(
                f"<table width='100%' cellspacing='0' cellpadding='10' style='margin-bottom:8px'><tr>"
                f"<td bgcolor='{c.get('surface', c['background'])}' style='border-left: 4px solid {c['accent']}'>"
                f"<i>“{html.escape(q.text)}”</i><br><span class='muted'>{html.escape(q.attribution)}</span> "
                f"{self._sources_inline(q.sources)}</td></tr></table>"
            )
        return "".join(out)

    def _quotes_html(self, c: dict[str, str]) -> str:
        ids = [s for q in self.lesson.quotes for s in q.sources]
        return "<h2>Two quotes from the lesson</h2>" + self._quotes_body(c) + self._sources_html(c, ids)

    def _faq_html(self, c: dict[str, str]) -> str:
        out = ["<h2>Frequently asked</h2>"]
        ids: list[str] = []
        for f in self.lesson.faq:
            seen: set[str] = set()
            mark = " <span class='muted'>(added by this app, not from the lesson)</span>" if f.origin == "app" else ""
            out.append(
                f"<h3>{html.escape(f.question)}{mark}</h3><p>{self.linker.link(f.answer, seen)} {self._sources_inline(f.sources)}</p>"
            )
            ids.extend(f.sources)
        return "".join(out) + self._sources_html(c, ids)


def _preview() -> int:  # pragma: no cover - manual check: python -m gpu_tpu_app.ui.learn
    import sys

    from PySide6.QtWidgets import QApplication

    from gpu_tpu_app.core.lesson import load_lesson

    app = QApplication(sys.argv)
    theme_manager().apply("system")
    page = LearnPage(load_lesson())
    page.resize(1280, 800)
    page.show()
    return app.exec()


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(_preview())

