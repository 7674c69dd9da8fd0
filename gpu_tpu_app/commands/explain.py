"""`gpu-tpu-app explain`: the lesson's contents, or one topic with GPU and TPU side by side."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import textwrap
from collections.abc import Iterable
from itertools import zip_longest
from typing import Any

from gpu_tpu_app.cliutil import fail
from gpu_tpu_app.core.lesson import LessonPack, Side, Topic, load_lesson

#: Extra pages besides the topics.
EXTRAS = ("faq", "glossary", "quotes", "sources")
GPU_HEADER = "GPU (workshop)"
TPU_HEADER = "TPU (factory line)"
_GAP = " | "
_MIN_COLUMN = 28  # narrower than this and the two sides are stacked instead
_MAX_WIDTH = 160


def configure(p: argparse.ArgumentParser) -> None:
    """Add the explain arguments to the subcommand's parser."""
    p.add_argument(
        "topic",
        nargs="?",
        metavar="TOPIC",
        help="topic id (see the contents without one), or one of: " + ", ".join(EXTRAS),
    )
    p.add_argument(
        "--format", choices=("text", "json"), default="text", help="text for people (default), json for tools"
    )


def run(args: argparse.Namespace) -> int:
    """Print the contents, one topic, or an extra page; an unknown topic exits 2 with one line."""
    pack = load_lesson()
    name = args.topic
    if name is None:
        data: Any = toc_data(pack)
        text = render_toc(pack)
    elif name in EXTRAS:
        data = extra_data(pack, name)
        text = _EXTRA_RENDERERS[name](pack, _width())
    elif name in pack.topic_ids():
        topic = pack.topic(name)
        data = topic_data(pack, topic)
        text = render_topic(pack, topic, _width())
    else:
        choices = ", ".join([*pack.topic_ids(), *EXTRAS])
        return fail(f"unknown topic {name!r} (choose from: {choices})")
    _emit(json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) if args.format == "json" else text)
    return 0


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
        self.entries = pack.citations_for(ids)
        self._numbers = {key: n for n, (key, _text, _url) in enumerate(self.entries, 1)}
        self._pack = pack

    def markers(self, ids: list[str]) -> str:
        nums = list(dict.fromkeys(self._numbers[self._pack.citation_key(sid)] for sid in ids))
        return "[" + ", ".join(str(n) for n in nums) + "]"

    def lines(self, width: int, heading: str = "Sources:") -> list[str]:
        """The heading and one entry per citation; long ones wrap, a URL stays unbroken on its own line."""
        lines = [heading]
        for n, (_key, text, url) in enumerate(self.entries, 1):
            line = f"  {n}. {text}" + (f" {url}" if url else "")
            if len(line) > width:
                lines += _wrap(f"{n}. {text}", width, "  ", "      ")
                if url:
                    lines.append(f"      {url}")
            else:
                lines.append(line)
        return lines


def _wrap(text: str, width: int, first: str = "", rest: str = "") -> list[str]:
    return textwrap.wrap(
        text, width=max(width, 8), initial_indent=first, subsequent_indent=rest, break_on_hyphens=False
    ) or [first.rstrip()]


def _side_lines(side: Side, width: int, cite: _Cite) -> list[str]:
    lines = _wrap(side.headline, width)
    for claim in side.claims:
        lines.append("")
        lines += _wrap(f"{claim.text} {cite.markers(claim.sources)}", width, "- ", "  ")
    return lines


def render_topic(pack: LessonPack, topic: Topic, width: int) -> str:
    """One topic: GPU and TPU side by side in two columns, then the sources it cites."""
    insight = pack.insight(topic.insight)
    out = [f"{topic.title}  [{topic.id}]", f"Insight {insight.number}: {insight.title}", ""]
    cite = _Cite(pack, topic.source_ids())
    column = (width - len(_GAP)) // 2
    if column >= _MIN_COLUMN:
        left = [GPU_HEADER, "-" * column, *_side_lines(topic.gpu, column, cite)]
        right = [TPU_HEADER, "-" * column, *_side_lines(topic.tpu, column, cite)]
        for a, b in zip_longest(left, right, fillvalue=""):
            out.append(f"{a:<{column}}{_GAP}{b}".rstrip())
    else:  # too narrow for two columns: one side after the other
        for header, side in ((GPU_HEADER, topic.gpu), (TPU_HEADER, topic.tpu)):
            out += [header, "-" * min(width, len(header)), *_side_lines(side, width, cite), ""]
    out.append("")
    if topic.evidence:
        out += _wrap("See it on this machine: the probe kernels " + ", ".join(topic.evidence), width)
        out.append("")
    out += cite.lines(width)
    return "\n".join(out)


def render_toc(pack: LessonPack) -> str:
    """The table of contents: episode line, insights with their topics, extra pages."""
    ep = pack.episode
    out = [ep.title, f"{ep.plan} | host {ep.host} | {ep.minutes} min | {ep.date.isoformat()} | {', '.join(ep.tags)}"]
    if ep.question:
        out.append(f"Lesson topic: {ep.question}")
    if ep.overview:
        out.append(ep.overview)
    pad = max(len(t.id) for t in pack.topics) + 2
    for insight in pack.insights:
        out += ["", f"{insight.number}. {insight.title}"]
        out += [f"   {t.id:<{pad}}{t.title}" for t in pack.topics_for(insight.number)]
    out += ["", f"Also: {', '.join(EXTRAS)}", "Show one: gpu-tpu-app explain TOPIC [--format text|json]"]
    return "\n".join(out)


def render_faq(pack: LessonPack, width: int) -> str:
    out = ["Frequently asked questions"]
    cite = _Cite(pack, (s for e in pack.faq for s in e.sources))
    for entry in pack.faq:
        question = entry.question + (" (added by this app, not from the lesson)" if entry.origin == "app" else "")
        out += [
            "",
            *_wrap(question, width, "Q: ", "   "),
            *_wrap(f"{entry.answer} {cite.markers(entry.sources)}", width, "A: ", "   "),
        ]
    out += ["", *cite.lines(width)]
    return "\n".join(out)


def render_glossary(pack: LessonPack, width: int) -> str:
    out = ["Glossary"]
    entries = sorted(pack.glossary, key=lambda e: e.term.casefold())
    cite = _Cite(pack, (s for e in entries for s in e.sources))
    for entry in entries:
        name = entry.term + (f" ({', '.join(entry.aliases)})" if entry.aliases else "")
        out += ["", name, *_wrap(f"{entry.definition} {cite.markers(entry.sources)}", width, "    ", "    ")]
    out += ["", *cite.lines(width)]
    return "\n".join(out)


def render_quotes(pack: LessonPack, width: int) -> str:
    out = ["Quotes from the lesson"]
    cite = _Cite(pack, (s for q in pack.quotes for s in q.sources))
    for quote in pack.quotes:
        out += [
            "",
            *_wrap(f'"{quote.text}"', width, "  ", "   "),
            *_wrap(f"-- {quote.attribution} {cite.markers(quote.sources)}", width, "     ", "        "),
        ]
    out += ["", *cite.lines(width)]
    return "\n".join(out)


def render_sources(pack: LessonPack, width: int) -> str:
    cite = _Cite(pack, (s.id for s in pack.sources))
    return "\n".join(cite.lines(width, heading=f"All sources ({len(cite.entries)})"))


_EXTRA_RENDERERS = {"faq": render_faq, "glossary": render_glossary, "quotes": render_quotes, "sources": render_sources}


def _emit(text: str) -> None:
    """Print, replacing characters the terminal's encoding cannot show instead of failing."""
    try:
        print(text)
    except UnicodeEncodeError:
        encoding = getattr(sys.stdout, "encoding", None) or "ascii"
        print(text.encode(encoding, "replace").decode(encoding))
