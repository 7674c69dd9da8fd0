"""The Learn page's content as HTML: topics side by side, FAQ, quotes, sources, measured evidence.

Built from the lesson pack and the probe runs alone, for Qt's rich-text subset; no Qt here,
so it is tested and reused without a window. The page widget (ui/learn/learn.py) shows it. The page's
own words come from resources/text/learn.<language>.toml, in the lesson pack's language.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from urllib.parse import quote

from gpu_tpu_app.core.lesson import Claim, LessonPack, Topic
from gpu_tpu_app.core.note_text import result_message
from gpu_tpu_app.core.runs import ProbeResult, RunFile
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.core.wording import format_pct, format_seconds, format_value
from gpu_tpu_app.shared.terms import COMPILE_PHASES, KERNEL_SPECS, functional_check_suffix
from gpu_tpu_app.shared.trust import is_functional_check, run_flags, trusted
from gpu_tpu_app.ui.learn.glossary import GlossaryLinker, glossary_html

# Page keys in the topic list besides topics.
OVERVIEW, FAQ, QUOTES, GLOSSARY, SOURCES = "page:overview", "page:faq", "page:quotes", "page:glossary", "page:sources"
#: each page key's text id in resources/text/learn.*.toml.
PAGE_TITLES = {OVERVIEW: "overview", FAQ: "faq", QUOTES: "quotes", GLOSSARY: "glossary", SOURCES: "sources"}


def page_title(key: str, language: str | None = None) -> str:
    """The name of one page of the topic list besides the topics ('Overview', 'FAQ', ...)."""
    return text(f"learn.page.{PAGE_TITLES[key]}", language=language)


def side_label(side: str, language: str | None = None) -> str:
    """The heading of one column: 'GPU · the workshop' or 'TPU · the factory line'."""
    return text(f"learn.side.{side}", language=language)


def kernel_words(kernel: str, language: str | None = None) -> str:
    """A probe kernel in prose next to a lesson claim ('memory bandwidth (triad)'); an unknown one as it is."""
    return text(f"learn.kernel.{kernel}", language=language) if kernel in KERNEL_SPECS else kernel


_WORD = re.compile(r"\w[\w/+.-]*", re.UNICODE)
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")

# ---------------------------------------------------------------- evidence from probe runs


def _where(run: RunFile, r: ProbeResult, many_hosts: bool, language: str | None) -> str:
    where = f"{run.device_name(r.device)} · {r.backend}"
    return text("learn.evidence.where_host", language=language, where=where, host=run.host) if many_hosts else where


def evidence_lines(kernel: str, runs: list[RunFile], limit: int = 4, language: str | None = None) -> list[str]:
    """Plain-text lines of what the runs measured for one evidence kernel (empty when nothing was),
    in `language` (the interface language when None).

    Runs are oldest first; for each device only its newest run that measured the kernel is used.
    """

    def words(key: str, **values: object) -> str:
        return text(f"learn.evidence.{key}", language=language, **values)

    many = len({r.host for r in runs}) > 1
    spec = KERNEL_SPECS.get(kernel)
    lines: list[str] = []
    seen: set[tuple[str, str]] = set()  # (host, device): the newest run of a device speaks for it
    for run in reversed(runs):
        # flagged points (too noisy, in cache, above a roof) are never evidence
        flags = {id(r): f for r, f in zip(run.results, run_flags(run))}
        good = {id(r) for r in run.results if trusted(r, flags[id(r)])}
        check = functional_check_suffix(language) if is_functional_check(run) else ""

        results = [r for r in run.results if r.kernel == kernel and (run.host, r.device) not in seen]
        if not results:
            continue
        seen.update((run.host, r.device) for r in results if r.status != "skipped")
        if kernel == "compile":
            groups: dict[tuple[str, str | None, int | None], dict[str, float]] = {}
            for r in results:
                if id(r) in good and r.variant:
                    groups.setdefault((r.device, r.dtype, r.size), {})[r.variant] = r.measured
            # The biggest function measured per device says most about the compile step.
            best: dict[str, tuple[tuple[str, str | None, int | None], dict[str, float]]] = {}
            for key, phases in groups.items():
                if key[0] not in best or (key[2] or 0) > (best[key[0]][0][2] or 0):
                    best[key[0]] = (key, phases)
            for (dev, dtype, size), phases in best.values():
                order = [p for p in COMPILE_PHASES if p in phases]
                steps = words("details_sep").join(
                    f"{text(f'learn.phase.{p}', language=language)} {format_seconds(phases[p])}" for p in order
                )
                shape = " ".join(x for x in (dtype, f"N={size}" if size else None) if x)
                r0 = next(r for r in results if r.device == dev)
                where = _where(run, r0, many, language) + check
                details = words("shape_where", shape=shape, where=where) if shape else where
                lines.append(words("detail", value=steps, details=details))
            continue
        by_key: dict[tuple[str, str, str | None, str | None], ProbeResult] = {}
        for r in results:
            if id(r) not in good:
                continue
            best_key = (r.device, r.backend, r.dtype, r.variant if spec is not None and spec.variants_apart else None)
            keep = by_key.get(best_key)
            if keep is None:
                by_key[best_key] = r
            elif (r.value < keep.value) if r.metric == "seconds" else (r.value > keep.value):  # type: ignore[operator]  # only results with a value reach this loop
                by_key[best_key] = r  # the best: fastest time, highest rate
        for (_dev, _b, dtype, variant), r in by_key.items():
            extra = [x for x in (variant, dtype, f"N={r.size}" if kernel == "matmul" and r.size else None) if x]
            shown = format_value(r.value, r.metric)
            if kernel == "matmul":
                shown = words("best", value=shown)
            if r.pct_spec is not None:
                shown = words("of_spec", value=shown, pct=format_pct(r.pct_spec))
            details = words("details_sep").join([*extra, _where(run, r, many, language)]) + check
            lines.append(words("detail", value=shown, details=details))
        if not by_key:
            skipped = next((r for r in results if r.status == "skipped"), None)
            failed = next((r for r in results if r.status in ("error", "timeout", "suspect")), None)
            untrusted = next((r for r in results if r.status == "ok" and r.value), None)
            if untrusted is not None:
                why = flags[id(untrusted)].shown_note() or words("flagged")
                lines.append(words("not_trusted", device=run.device_name(untrusted.device), why=why))
            elif skipped is not None:
                why = result_message(skipped) or words("not_applicable")
                lines.append(words("not_measured", device=run.device_name(skipped.device), why=why))
            elif failed is not None:
                status = text(f"learn.status.{failed.status}", language=language)
                device = run.device_name(failed.device)
                if failed.message:
                    lines.append(words("failed", status=status, device=device, why=result_message(failed)))
                else:
                    lines.append(words("failed_plain", status=status, device=device))
    return lines[:limit]


def _words(text: str) -> set[str]:
    return {w.casefold() for w in _WORD.findall(text)}


def topic_text(topic: Topic) -> str:
    """All words of a topic, for search."""
    parts = [topic.id, topic.title, topic.gpu.headline, topic.tpu.headline]
    parts += [c.text for c in topic.gpu.claims] + [c.text for c in topic.tpu.claims]
    return " ".join(parts)


def matches(query: str, text: str) -> bool:
    """True when every word of the query starts a word of the text (case-insensitive); a word in
    Chinese (written without spaces) matches anywhere in the text."""
    wanted = [w.casefold() for w in _WORD.findall(query)]
    if not wanted:
        return True
    have = _words(text)
    folded = text.casefold()
    return all(w in folded if _CJK.search(w) else any(h.startswith(w) for h in have) for w in wanted)


def css(c: dict[str, str]) -> str:
    """The style sheet of a Learn page in the theme's colours."""
    return f"""
body {{ color: {c["foreground"]}; }}
h1 {{ font-size: 20pt; font-weight: 600; margin: 0; }}
h2 {{ font-size: 16pt; font-weight: 600; margin-top: 4px; margin-bottom: 2px; }}
h3 {{ font-size: 12pt; font-weight: 600; margin-top: 14px; margin-bottom: 2px; }}
a {{ color: {c["accent"]}; }}
a.term {{ color: {c["foreground"]}; text-decoration: none; }}
a.src {{ color: {c["muted"]}; }}
.muted {{ color: {c["muted"]}; }}
.src {{ color: {c["muted"]}; font-size: small; }}
.kicker {{ color: {c["muted"]}; font-size: small; }}
.gpu {{ color: {c["gpu"]}; font-weight: 600; }}
.tpu {{ color: {c["tpu"]}; font-weight: 600; }}
.evidence {{ color: {c["foreground"]}; }}
li {{ margin-bottom: 6px; }}
"""


# ---------------------------------------------------------------- pages


class LessonHtml:
    """HTML for each page of the Learn list; `runs` add measured evidence next to the claims."""

    def __init__(self, lesson: LessonPack, linker: GlossaryLinker) -> None:
        self.lesson = lesson
        self.linker = linker
        self.runs: list[RunFile] = []
        self._cite_numbers: dict[str, int] = {}  # citation key -> its number on the page being built
        self.language = lesson.language  # the page's own words follow the pack's language

    def _t(self, key: str, **values: object) -> str:
        """One of the page's own words (resources/text/learn.*), HTML-escaped."""
        return html.escape(text(f"learn.{key}", language=self.language, **values), quote=False)

    def page(self, key: str, c: dict[str, str]) -> str:
        """The body of one page (a topic id or a page key) in the theme's colours `c`."""
        self._cite_numbers = {}
        if key == OVERVIEW:
            return self._overview_html(c)
        if key == FAQ:
            return self._faq_html(c)
        if key == QUOTES:
            return self._quotes_html(c)
        if key == GLOSSARY:
            return glossary_html(self.lesson, c, self.source_link)
        if key == SOURCES:
            return self._sources_html(c, [s.id for s in self.lesson.sources], heading="html.all_sources_heading")
        return self._topic_html(self.lesson.topic(key), c)

    def searchable(self, key: str) -> str:
        """All words of one page of the topic list, for search."""
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
            return " ".join(s.label(language=self.language) for s in self.lesson.sources)
        return topic_text(self.lesson.topic(key))

    def _number(self, sid: str) -> tuple[int, str]:
        """(number on this page, citation key) of a source id; numbers follow first use."""
        key = self.lesson.citation_key(sid)
        numbers = self._cite_numbers
        if key not in numbers:
            numbers[key] = len(numbers) + 1
        return numbers[key], key

    def source_link(self, sid: str) -> str:
        """A source as its numbered link on this page."""
        n, key = self._number(sid)
        return f'<a class="src" href="source:{quote(key, safe="")}">{n}</a>'

    def _sources_inline(self, ids: Iterable[str]) -> str:
        links = list(dict.fromkeys(self.source_link(sid) for sid in ids))
        return f'<span class="src">[{", ".join(links)}]</span>'

    def _sources_html(self, c: dict[str, str], ids: Iterable[str], heading: str = "html.sources_heading") -> str:
        numbered = sorted({self._number(sid) for sid in ids})
        rows = []
        for n, key in numbered:
            text, url = self.lesson.citation(key)
            link = (
                f'<br><a href="{html.escape(url, quote=True)}">{html.escape(url)}</a>'
                if url
                else f'<br><span class="muted">{self._t("html.no_web_link")}</span>'
            )
            rows.append(
                f"<tr><td valign='top' width='5%'><a name='src-{quote(key, safe='')}'></a><b>{n}.</b></td>"
                f"<td valign='top'>{html.escape(text)}{link}</td></tr>"
            )
        return (
            f"<h3>{self._t(heading)}</h3><p class='muted'>{self._t('html.links_note')}</p>"
            f"<table width='100%' cellspacing='0' cellpadding='4'>{''.join(rows)}</table>"
        )

    def _evidence_block(self, kernels: list[str], c: dict[str, str], note: bool = False) -> str:
        rows = []
        for k in kernels:
            lines = evidence_lines(k, self.runs, language=self.language)
            if not lines:
                continue
            items = "<br>".join(html.escape(line) for line in lines)
            label = f"<b>{html.escape(kernel_words(k, self.language))}</b>"
            # the words around the two are escaped; the label and the lines are HTML already
            row = html.escape(text("learn.evidence.labelled", language=self.language, kernel="\0", lines="\1"))
            rows.append(row.replace("\0", label).replace("\1", items))
        if not rows:
            return ""
        return (
            f"<table width='100%' cellspacing='0' cellpadding='6' style='margin-top:4px'>"
            f"<tr><td bgcolor='{c['selection'] if 'selection' in c else c['background']}' class='evidence'>"
            f"<span class='kicker'>{self._t('html.measured_kicker')}</span><br>"
            + (f"<span class='muted'>{self._t('html.measured_note')}</span><br>" if note else "")
            + f"{'<br>'.join(rows)}</td></tr></table>"
        )

    def attach_evidence(self, topic: Topic) -> tuple[dict[int, list[str]], list[str]]:
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
            out.append(f"<li>{self.linker.link(claim.text, seen)} {self._sources_inline(claim.sources)}</li>")
        return f"<ul style='margin-left: 0px; -qt-list-indent: 1'>{''.join(out)}</ul>"

    def _topic_html(self, topic: Topic, c: dict[str, str]) -> str:
        insight = self.lesson.insight(topic.insight)
        seen: set[str] = set()
        placed, left = self.attach_evidence(topic)
        head = (
            f"<p class='kicker'>{self._t('html.kicker_insight', number=insight.number, title=insight.title.upper())}</p>"
            f"<h2>{html.escape(topic.title)}</h2>"
        )
        evidence = ""
        if topic.evidence and self.runs:
            # under both columns, never inside one: in the TPU column a CPU's figure read as a TPU figure.
            # The kernels in the order of the claims that name them, then the topic's others.
            in_order = [k for claim in [*topic.gpu.claims, *topic.tpu.claims] for k in placed.get(id(claim), [])]
            below = self._evidence_block(list(dict.fromkeys([*in_order, *left])), c, note=True)
        elif topic.evidence:
            sep = text("learn.html.list_sep", language=self.language)
            words = sep.join(kernel_words(k, self.language) for k in topic.evidence)
            link = "\0"  # escaped with the sentence, then made the link
            sentence = self._t("html.evidence_waiting", kernels=words, link=link)
            anchor = f"<a href='app:probe'>{self._t('html.open_probe')}</a>"
            evidence = f"<p class='muted'>{sentence.replace(link, anchor)}</p>"
        gpu_head = self.linker.link(topic.gpu.headline, seen)
        tpu_head = self.linker.link(topic.tpu.headline, seen)
        gpu_claims = self._claims_html(topic.gpu.claims, seen, placed, c)
        tpu_claims = self._claims_html(topic.tpu.claims, seen, placed, c)
        table = (
            "<table width='100%' cellspacing='0' cellpadding='8'>"
            f"<tr><td width='50%' valign='top' style='border-bottom: 2px solid {c['gpu']}'>"
            f"<span class='gpu'>{self._t('side.gpu')}</span></td>"
            f"<td width='50%' valign='top' style='border-bottom: 2px solid {c['tpu']}'>"
            f"<span class='tpu'>{self._t('side.tpu')}</span></td></tr>"
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
        return (
            head
            + evidence
            + table
            + (below if topic.evidence and self.runs else "")
            + self._sources_html(c, topic.source_ids())
            + f"<p>{' &nbsp;·&nbsp; '.join(nav)}</p>"
        )

    def _overview_html(self, c: dict[str, str]) -> str:
        e = self.lesson.episode
        parts = [
            f"<p class='kicker'>{self._t('html.kicker_episode', plan=e.plan.upper(), minutes=e.minutes, date=e.date.isoformat())}</p>",
            f"<h1>{html.escape(e.title)}</h1>",
            f"<p>{self.linker.link(e.summary or e.overview, set())}</p>" if (e.summary or e.overview) else "",
            "<table width='100%' cellspacing='0' cellpadding='8'><tr>"
            f"<td width='50%' valign='top' style='border-bottom: 2px solid {c['gpu']}'>"
            f"<span class='gpu'>{self._t('side.gpu')}</span><br>{self._t('side.gpu_summary')}</td>"
            f"<td width='50%' valign='top' style='border-bottom: 2px solid {c['tpu']}'>"
            f"<span class='tpu'>{self._t('side.tpu')}</span><br>{self._t('side.tpu_summary')}</td>"
            "</tr></table>",
        ]
        for insight in self.lesson.insights:
            links = " · ".join(
                f"<a href='topic:{t.id}'>{html.escape(t.title)}</a>" for t in self.lesson.topics_for(insight.number)
            )
            parts.append(f"<h3>{insight.number}. {html.escape(insight.title)}</h3><p>{links}</p>")
        parts.append(f"<h3>{self._t('html.in_lesson_words')}</h3>")
        parts.append(self._quotes_body(c))
        marks = {"faq": "\0", "glossary": "\1", "sources": "\2"}  # escaped with the sentence, then made links
        also = self._t("html.also", **marks)
        for name, mark in marks.items():
            also = also.replace(mark, f"<a href='page:{name}'>{self._t(f'page.{name}')}</a>")
        parts.append(f"<p class='muted'>{also}</p>")
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
        return f"<h2>{self._t('html.quotes_heading')}</h2>" + self._quotes_body(c) + self._sources_html(c, ids)

    def _faq_html(self, c: dict[str, str]) -> str:
        out = [f"<h2>{self._t('html.faq_heading')}</h2>"]
        ids: list[str] = []
        for f in self.lesson.faq:
            seen: set[str] = set()
            mark = f" <span class='muted'>{self._t('html.faq_added')}</span>" if f.origin == "app" else ""
            out.append(
                f"<h3>{html.escape(f.question)}{mark}</h3><p>{self.linker.link(f.answer, seen)} {self._sources_inline(f.sources)}</p>"
            )
            ids.extend(f.sources)
        return "".join(out) + self._sources_html(c, ids)
