"""`gpu-tpu-app explain`: the lesson's contents, or one topic with GPU and TPU side by side.

Text output is in the interface language (the lesson pack of that language, the words around it
from resources/text/explain.<language>.toml), laid out by terminal columns so Chinese lines up and
wraps. `--format json` is a contract: the English pack, English keys and values, in every language.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections.abc import Iterable
from itertools import zip_longest
from typing import Any

from gpu_tpu_app import i18n
from gpu_tpu_app.core.columns import display_width, pad
from gpu_tpu_app.core.columns import wrap as _wrap
from gpu_tpu_app.core.lesson import LessonPack, Side, Topic, load_lesson
from gpu_tpu_app.core.texts import text as _text
from gpu_tpu_app.shared.cliutil import fail

#: Extra pages besides the topics.
EXTRAS = ("faq", "glossary", "quotes", "sources")
_GAP = " | "
_MIN_COLUMN = 28  # narrower than this and the two sides are stacked instead
_MAX_WIDTH = 160


def configure(p: argparse.ArgumentParser) -> None:
    """Add the explain arguments to the subcommand's parser."""
    p.add_argument(
        "topic",
        nargs="?",
        metavar="TOPIC",
        help=_text("explain.topic_help", extras=", ".join(EXTRAS)),
    )
    p.add_argument("--format", choices=("text", "json"), default="text", help=_text("cli.format_text_json"))


def run(args: argparse.Namespace) -> int:
    """Print the contents, one topic, or an extra page; an unknown topic exits 2 with one line."""
    as_json = args.format == "json"
    # JSON is for tools: the English pack in every language (a contract); text is for people
    pack = load_lesson(language=i18n.DEFAULT_LANGUAGE if as_json else None)
    name = args.topic
    if name is None:
        out = _dumps(toc_data(pack)) if as_json else render_toc(pack)
    elif name in EXTRAS:
        out = _dumps(extra_data(pack, name)) if as_json else _EXTRA_RENDERERS[name](pack, _width())
    elif name in pack.topic_ids():
        topic = pack.topic(name)
        out = _dumps(topic_data(pack, topic)) if as_json else render_topic(pack, topic, _width())
    else:
        choices = ", ".join([*pack.topic_ids(), *EXTRAS])
        return fail(_words(pack, "unknown_topic", name=repr(name), choices=choices))
    _emit(out)
    return 0


def _dumps(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False)


def _words(pack: LessonPack, key: str, **values: object) -> str:
    """One of the command's own words (resources/text/explain.*), in the pack's language."""
    return _text(f"explain.{key}", language=pack.language, **values)


# -- data for --format json --------------------------------------------------------------
def _sources(pack: LessonPack, ids: list[str]) -> list[dict[str, Any]]:
    return [s.model_dump(mode="json") for s in pack.sources_for(ids)]


def toc_data(pack: LessonPack) -> dict[str, Any]:
    """The contents as plain data: episode, insights with their topics, extra pages."""
    return {
        "schema_version": pack.schema_version,
        "episode": pack.episode.model_dump(mode="json"),
        "insights": [
            {
                "number": i.number,
                "title": i.title,
                "topics": [
                    {"id": t.id, "title": t.title, "evidence": list(t.evidence)} for t in pack.topics_for(i.number)
                ],
            }
            for i in pack.insights
        ],
        "extras": list(EXTRAS),
    }


def topic_data(pack: LessonPack, topic: Topic) -> dict[str, Any]:
    """The topic model with its cited sources resolved."""
    return {**topic.model_dump(mode="json"), "sources": _sources(pack, topic.source_ids())}


def extra_data(pack: LessonPack, name: str) -> dict[str, Any]:
    """FAQ, glossary or quotes with the sources they cite; or the whole sources list."""
    if name == "sources":
        return {"sources": [s.model_dump(mode="json") for s in pack.sources]}
    items = getattr(pack, name)
    return {
        name: [item.model_dump(mode="json") for item in items],
        "sources": _sources(pack, [sid for item in items for sid in item.sources]),
    }


# -- text ---------------------------------------------------------------------------------
def _width() -> int:
    return max(20, min(_MAX_WIDTH, shutil.get_terminal_size((100, 24)).columns))


class _Cite:
    """Numbered citations for one page of text: [1], [2] in the text, the list of sources below."""

    def __init__(self, pack: LessonPack, ids: Iterable[str]) -> None:
        self.heading = _words(pack, "sources")
        self.entries = pack.citations_for(ids)
        self._numbers = {key: n for n, (key, _text, _url) in enumerate(self.entries, 1)}
        self._pack = pack

    def markers(self, ids: list[str]) -> str:
        nums = list(dict.fromkeys(self._numbers[self._pack.citation_key(sid)] for sid in ids))
        return "[" + ", ".join(str(n) for n in nums) + "]"

    def lines(self, width: int, heading: str | None = None) -> list[str]:
        """The heading and one entry per citation; long ones wrap, a URL stays unbroken on its own line."""
        lines = [self.heading if heading is None else heading]
        for n, (_key, text, url) in enumerate(self.entries, 1):
            line = f"  {n}. {text}" + (f" {url}" if url else "")
            if display_width(line) > width:
                lines += _wrap(f"{n}. {text}", width, "  ", "      ")
                if url:
                    lines.append(f"      {url}")
            else:
                lines.append(line)
        return lines


def _side_lines(side: Side, width: int, cite: _Cite) -> list[str]:
    lines = _wrap(side.headline, width)
    for claim in side.claims:
        lines.append("")
        lines += _wrap(f"{claim.text} {cite.markers(claim.sources)}", width, "- ", "  ")
    return lines


def render_topic(pack: LessonPack, topic: Topic, width: int) -> str:
    """One topic: GPU and TPU side by side in two columns, then the sources it cites."""
    insight = pack.insight(topic.insight)
    out = [f"{topic.title}  [{topic.id}]", _words(pack, "insight", number=insight.number, title=insight.title), ""]
    cite = _Cite(pack, topic.source_ids())
    column = (width - len(_GAP)) // 2
    gpu_header, tpu_header = _words(pack, "gpu_header"), _words(pack, "tpu_header")
    if column >= _MIN_COLUMN:
        left = [gpu_header, "-" * column, *_side_lines(topic.gpu, column, cite)]
        right = [tpu_header, "-" * column, *_side_lines(topic.tpu, column, cite)]
        for a, b in zip_longest(left, right, fillvalue=""):
            out.append(f"{pad(a, column)}{_GAP}{b}".rstrip())
    else:  # too narrow for two columns: one side after the other
        for header, side in ((gpu_header, topic.gpu), (tpu_header, topic.tpu)):
            out += [header, "-" * min(width, display_width(header)), *_side_lines(side, width, cite), ""]
    out.append("")
    if topic.evidence:
        out += _wrap(_words(pack, "evidence", kernels=", ".join(topic.evidence)), width)
        out.append("")
    out += cite.lines(width)
    return "\n".join(out)


def render_toc(pack: LessonPack) -> str:
    """The table of contents: episode line, insights with their topics, extra pages."""
    ep = pack.episode
    tags = _words(pack, "list_sep").join(ep.tags)
    out = [
        ep.title,
        _words(pack, "episode", plan=ep.plan, host=ep.host, minutes=ep.minutes, date=ep.date.isoformat(), tags=tags),
    ]
    if ep.question:
        out.append(_words(pack, "lesson_topic", question=ep.question))
    if ep.overview:
        out.append(ep.overview)
    pad = max(len(t.id) for t in pack.topics) + 2
    for insight in pack.insights:
        out += ["", f"{insight.number}. {insight.title}"]
        out += [f"   {t.id:<{pad}}{t.title}" for t in pack.topics_for(insight.number)]
    out += ["", _words(pack, "also", extras=", ".join(EXTRAS)), _words(pack, "show_one")]
    return "\n".join(out)


def render_faq(pack: LessonPack, width: int) -> str:
    out = [_words(pack, "faq_heading")]
    cite = _Cite(pack, (s for e in pack.faq for s in e.sources))
    q, a = _words(pack, "question"), _words(pack, "answer")
    for entry in pack.faq:
        question = _words(pack, "faq_added", question=entry.question) if entry.origin == "app" else entry.question
        out += [
            "",
            *_wrap(question, width, q, " " * display_width(q)),
            *_wrap(f"{entry.answer} {cite.markers(entry.sources)}", width, a, " " * display_width(a)),
        ]
    out += ["", *cite.lines(width)]
    return "\n".join(out)


def render_glossary(pack: LessonPack, width: int) -> str:
    out = [_words(pack, "glossary_heading")]
    entries = sorted(pack.glossary, key=lambda e: e.term.casefold())
    cite = _Cite(pack, (s for e in entries for s in e.sources))
    sep = _words(pack, "list_sep")
    for entry in entries:
        name = _words(pack, "aka", term=entry.term, names=sep.join(entry.aliases)) if entry.aliases else entry.term
        out += ["", name, *_wrap(f"{entry.definition} {cite.markers(entry.sources)}", width, "    ", "    ")]
    out += ["", *cite.lines(width)]
    return "\n".join(out)


def render_quotes(pack: LessonPack, width: int) -> str:
    out = [_words(pack, "quotes_heading")]
    cite = _Cite(pack, (s for q in pack.quotes for s in q.sources))
    for quote in pack.quotes:
        attribution = _words(pack, "attribution", attribution=quote.attribution)
        out += [
            "",
            *_wrap(_words(pack, "quote", text=quote.text), width, "  ", "   "),
            *_wrap(f"{attribution} {cite.markers(quote.sources)}", width, "     ", "        "),
        ]
    out += ["", *cite.lines(width)]
    return "\n".join(out)


def render_sources(pack: LessonPack, width: int) -> str:
    cite = _Cite(pack, (s.id for s in pack.sources))
    return "\n".join(cite.lines(width, heading=_words(pack, "all_sources", n=len(cite.entries))))


_EXTRA_RENDERERS = {"faq": render_faq, "glossary": render_glossary, "quotes": render_quotes, "sources": render_sources}


def _emit(text: str) -> None:
    """Print, replacing characters the terminal's encoding cannot show instead of failing."""
    try:
        print(text)
    except UnicodeEncodeError:
        encoding = getattr(sys.stdout, "encoding", None) or "ascii"
        print(text.encode(encoding, "replace").decode(encoding))
