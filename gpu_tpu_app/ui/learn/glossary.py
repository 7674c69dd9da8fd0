"""Glossary terms in explainer text: link them for hover explanations, and render the glossary page.

Pure string work over the lesson pack plus a little Qt-free HTML, so the Learn page and its
tests share one definition of where a term appears. Its own words come from
resources/text/learn.<language>.toml, in the lesson pack's language.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable
from urllib.parse import quote, unquote

from gpu_tpu_app.core.lesson import GlossaryTerm, LessonPack
from gpu_tpu_app.core.texts import text

TERM_SCHEME = "term"


def term_href(term: GlossaryTerm) -> str:
    """The anchor href of a glossary term: 'term:XLA'."""
    return f"{TERM_SCHEME}:{quote(term.term, safe='')}"


def term_from_href(href: str) -> str | None:
    """The term name in a 'term:...' href, or None for other links."""
    if not href.startswith(f"{TERM_SCHEME}:"):
        return None
    return unquote(href[len(TERM_SCHEME) + 1 :])


#: Chinese, Japanese and Korean letters: text written in them has no spaces between words.
_CJK_RANGES = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK = re.compile(f"[{_CJK_RANGES}]")


def _pattern_for(name: str) -> str:
    body = re.escape(name)
    if _CJK.search(name):
        return body  # no word boundaries in Chinese text: a term matches wherever it is written
    # All-lower-case names (systolic array, pod) match any case; acronyms and names match as written.
    body = f"(?i:{body})" if name == name.lower() else body
    # A Latin name is a word of its own: not inside a longer Latin word (a Chinese letter next to it is fine).
    return rf"(?<![^\W{_CJK_RANGES}]|[/-]){body}(?:s|es)?(?![^\W{_CJK_RANGES}]|/)"


class GlossaryLinker:
    """Finds glossary terms (and aliases) in plain text and wraps them in 'term:' anchors."""

    def __init__(self, glossary: Iterable[GlossaryTerm]) -> None:
        self.terms = list(glossary)
        self._by_name: dict[str, GlossaryTerm] = {}
        names: list[tuple[str, GlossaryTerm]] = []
        for t in self.terms:
            for n in t.names():
                names.append((n, t))
                self._by_name[n.casefold()] = t
        names.sort(key=lambda nt: -len(nt[0]))  # longest first: "PyTorch/XLA" before "XLA"
        self._names = names
        self._regex = re.compile("|".join(f"({_pattern_for(n)})" for n, _t in names)) if names else None

    def lookup(self, name: str) -> GlossaryTerm | None:
        """The entry for a term or alias, ignoring case."""
        return self._by_name.get(name.casefold())

    def find(self, text: str) -> list[tuple[int, int, GlossaryTerm]]:
        """(start, end, term) of every glossary mention in `text`, left to right."""
        if self._regex is None:
            return []
        out = []
        for m in self._regex.finditer(text):
            group = m.lastindex or 0
            out.append((m.start(), m.end(), self._names[group - 1][1]))
        return out

    def link(self, text: str, seen: set[str] | None = None, every: bool = False) -> str:
        """HTML of `text` with glossary mentions as anchors (first mention per term unless `every`).

        `seen` carries the terms already linked on the same page, so a page links each term once.
        """
        seen = set() if seen is None else seen
        parts: list[str] = []
        pos = 0
        for start, end, term in self.find(text):
            if not every and term.term in seen:
                continue
            seen.add(term.term)
            parts.append(html.escape(text[pos:start]))
            word = html.escape(text[start:end])
            parts.append(f'<a class="term" href="{term_href(term)}">{word}</a>')
            pos = end
        parts.append(html.escape(text[pos:]))
        return "".join(parts)


def _words(pack: LessonPack, key: str, **values: object) -> str:
    return text(f"learn.glossary.{key}", language=pack.language, **values)


def _source_title(pack: LessonPack, sid: str) -> str:
    """A source as people know it (its title and place), never its internal id."""
    try:
        return pack.source(sid).label(url=False, language=pack.language)
    except KeyError:
        return _words(pack, "unlisted_source")


def tooltip_html(term: GlossaryTerm, pack: LessonPack) -> str:
    """Rich tooltip for a term: bold name, its definition, and where it comes from."""
    names = _words(pack, "names_sep").join(term.aliases)
    aka = html.escape(_words(pack, "aka", names=names)) if names else ""
    srcs = _words(pack, "sources_sep").join(_source_title(pack, s) for s in term.sources)
    return (
        f"<p style='max-width: 380px'><b>{html.escape(term.term)}</b>{aka}<br>{html.escape(term.definition)}"
        f"<br><small>{html.escape(_words(pack, 'tooltip_sources', sources=srcs), quote=False)}</small></p>"
    )


def glossary_html(pack: LessonPack, colors: dict[str, str], source_link: Callable[[str], str]) -> str:
    """The glossary page body: every term with its aliases, definition and sources, A to Z."""
    linker = GlossaryLinker(pack.glossary)
    rows = []
    for term in sorted(pack.glossary, key=lambda t: t.term.casefold()):
        also = _words(pack, "also", names=_words(pack, "names_sep").join(term.aliases))
        aka = (
            f"<br><span style='color:{colors['muted']}'>{html.escape(also, quote=False)}</span>" if term.aliases else ""
        )
        # Link other terms inside a definition, never the term itself.
        seen = {term.term}
        definition = linker.link(term.definition, seen)
        srcs = " ".join(source_link(s) for s in term.sources)
        rows.append(
            f"<tr><td width='24%' valign='top'><a name='term-{html.escape(quote(term.term, safe=''))}'></a>"
            f"<b>{html.escape(term.term)}</b>{aka}</td>"
            f"<td valign='top'>{definition} <span class='src'>{srcs}</span></td></tr>"
        )
    return (
        f"<h2>{html.escape(_words(pack, 'heading'))}</h2>"
        f"<p style='color:{colors['muted']}'>{html.escape(_words(pack, 'intro'), quote=False)}</p>"
        f"<table width='100%' cellspacing='0' cellpadding='6' class='gloss'>{''.join(rows)}</table>"
    )
