"""The Learn page: the lesson pack side by side, GPU (the workshop) next to TPU (the factory line).

Topics are listed by the lesson's three key insights, with a search box; each claim shows
its sources, glossary terms explain themselves on hover, and a topic shows what was measured
on this machine where a probe run is set. Links never navigate by themselves: source URLs
open in the user's browser only when clicked, and nothing is ever fetched.
"""

from __future__ import annotations

import html
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

from gpu_tpu_app.core.lesson import LessonPack
from gpu_tpu_app.core.runs import RunFile
from gpu_tpu_app.ui.learn.glossary import GlossaryLinker, term_from_href, tooltip_html
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
    page_title,
)
from gpu_tpu_app.ui.shell.theme import theme_manager

#: Horizontal padding of a topic-list row, in pixels on each side (the tree's style sheet uses it).
ITEM_PAD_X = 2


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
        self.content = LessonHtml(lesson, self.linker)
        self._current = ""
        self._items: dict[str, QTreeWidgetItem] = {}

        self.search = QLineEdit()
        self.search.setPlaceholderText(self.tr("Search topics, claims, FAQ, glossary…"))
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._filter)
        self.search.returnPressed.connect(self._open_first_match)
        self.match_label = QLabel("")
        self.match_label.setProperty("role", "muted")
        self.tree = TopicTree()
        self.tree.setAccessibleName(self.tr("Topics"))
        self.tree.setHeaderHidden(True)
        self.tree.setRootIsDecorated(False)
        self.tree.setIndentation(14)
        self.tree.currentItemChanged.connect(self._on_item)
        self.tree.setStyleSheet(f"QTreeWidget::item {{ padding: 3px {ITEM_PAD_X}px; }}")
        self.tree.header().setStretchLastSection(True)
        self.tree.header().setSectionResizeMode(0, self.tree.header().ResizeMode.Stretch)
        self.browser = LessonBrowser(self)
        self.browser.setAccessibleName(self.tr("Topic text"))
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
        self.content.runs = list(runs)
        self._render()

    def current_topic(self) -> str:
        """Id of the topic shown (or the page key: 'page:faq', 'page:glossary', ...)."""
        return self._current

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
            return self.tr("Opens in your web browser: {url}").format(url=html.escape(href))
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

        lang = self.lesson.language

        add(self.tree, OVERVIEW, page_title(OVERVIEW, lang), self.lesson.episode.title)
        for insight in self.lesson.insights:
            head = QTreeWidgetItem(self.tree, [f"{insight.number}. {insight.title}"])
            head.setFlags(Qt.ItemFlag.ItemIsEnabled)
            font = head.font(0)
            font.setBold(True)
            head.setFont(0, font)
            head.setData(0, Qt.ItemDataRole.UserRole, f"insight:{insight.number}")
            head.setToolTip(
                0, self.tr("Key insight {number}: {title}").format(number=insight.number, title=insight.title)
            )
            for topic in self.lesson.topics_for(insight.number):
                add(head, topic.id, topic.title, f"{topic.title}\nGPU: {topic.gpu.headline}\nTPU: {topic.tpu.headline}")
            head.setExpanded(True)
        more = QTreeWidgetItem(self.tree, [self.tr("More")])
        more.setFlags(Qt.ItemFlag.ItemIsEnabled)
        font = more.font(0)
        font.setBold(True)
        more.setFont(0, font)
        more.setData(0, Qt.ItemDataRole.UserRole, "group:more")
        add(more, FAQ, page_title(FAQ, lang), self.tr("{n} questions and answers").format(n=len(self.lesson.faq)))
        add(more, QUOTES, page_title(QUOTES, lang))
        add(more, GLOSSARY, page_title(GLOSSARY, lang), self.tr("{n} terms").format(n=len(self.lesson.glossary)))
        add(more, SOURCES, page_title(SOURCES, lang))
        more.setExpanded(True)

    def _filter(self, query: str) -> None:
        shown = 0
        topics = 0
        it = QTreeWidgetItemIterator(self.tree)
        groups: list[QTreeWidgetItem] = []
        while it.value():
            item = it.value()
            key = item.data(0, Qt.ItemDataRole.UserRole)
            if key in self._items:
                ok = matches(query, self.content.searchable(key) + " " + item.text(0))
                item.setHidden(not ok)
                if ok:
                    shown += 1
                    topics += key not in PAGE_TITLES
            else:
                groups.append(item)
            it += 1
        for g in groups:
            g.setHidden(all(c.isHidden() for i in range(g.childCount()) if (c := g.child(i)) is not None))
        if query.strip():
            self.match_label.setText(
                self._match_words(topics, shown - topics) if shown else self.tr("Nothing matches.")
            )
        else:
            self.match_label.setText("")

    def _match_words(self, topics: int, pages: int) -> str:
        """'3 topics match, 1 more pages': each wording whole, so a translation may order it its own way."""
        if pages:
            one = self.tr("{topics} topic match, {pages} more pages")
            many = self.tr("{topics} topics match, {pages} more pages")
        else:
            one = self.tr("{topics} topic match")
            many = self.tr("{topics} topics match")
        return (one if topics == 1 else many).format(topics=topics, pages=pages)

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

    def _render(self) -> None:
        if not self._current:
            return
        c = theme_manager().colors()
        self.browser.document().setDefaultStyleSheet(css(c))
        body = self.content.page(self._current, c)
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


def _preview() -> int:  # pragma: no cover - manual check: python -m gpu_tpu_app.ui.learn.learn
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
