"""The session as a report people can share: verdict, reasons with sources, estimate, probe runs.

Built as Markdown or as self-contained HTML from the core models; the window prints the
HTML to PDF with Qt. Also holds the plain-words names of answers that the result page and
the report share, from the questions' labels and choices (numbers and verdict words are in
core.wording). Pure Python: no Qt.
"""

from __future__ import annotations

import dataclasses
import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from gpu_tpu_app import __version__, i18n
from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.decision import PAGES, QUESTIONS, UNKNOWN, Answers, Recommendation, has_verdict
from gpu_tpu_app.core.estimate.models import OWN_FAMILIES
from gpu_tpu_app.core.estimate.text import (
    cost_lines,
    cost_range,
    cost_rule,
    estimate_cells,
    estimate_inputs,
    estimate_model_lines,
    estimate_warnings,
    memory_header,
    memory_units_note,
    row_name,
    rule_words,
)
from gpu_tpu_app.core.localized import ListInLanguage
from gpu_tpu_app.core.modelcheck import HIGH_PRECISION_FP64, measured_note
from gpu_tpu_app.core.prices import cheapest_text, format_rate, verdict_families
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.core.tpu_compile import REPORT_HEADER, report_section
from gpu_tpu_app.core.verdict_text import VERDICT_WORDS, headline, verdict_summary
from gpu_tpu_app.core.wording import plain_number, tflops
from gpu_tpu_app.shared.cliutil import one_line
from gpu_tpu_app.shared.terms import functional_check
from gpu_tpu_app.shared.trust import flagged_summary, is_functional_check, trusted_results

if TYPE_CHECKING:
    from gpu_tpu_app.core.catalog import Catalog
    from gpu_tpu_app.core.estimate import Estimate
    from gpu_tpu_app.core.lesson import LessonPack
    from gpu_tpu_app.core.prices import PriceBook
    from gpu_tpu_app.core.runs import RunFile
    from gpu_tpu_app.core.session import Session


def factor_label(factor: str) -> str:
    """Short display name of an answer field (the question's label)."""
    q = QUESTIONS.get(factor)
    return q.label if q is not None else factor.replace("_", " ").capitalize()


def answer_label(factor: str, value: str | None) -> str:
    """The wizard's words for one answer value; "don't know" for unknown."""
    if value is None or value == UNKNOWN:
        return text("report.dont_know")
    q = QUESTIONS.get(factor)
    if q is not None:
        for v, words in q.choices:
            if v == value:
                return words
    return value


def page_of(factor: str) -> str:
    """Title of the wizard page that asks `factor`."""
    return next((p.title for p in PAGES if factor in p.fields), "")


# --------------------------------------------------------------------------- report content


@dataclass
class _Cited:
    """Numbers sources in order of first use, so the text can say [1], [2] and list them once."""

    lesson: LessonPack | None
    catalog: Catalog | None
    order: list[str] = field(default_factory=list)

    def refs(self, ids: list[str]) -> str:
        nums: list[int] = []
        for sid in ids:
            key = self.lesson.citation_key(sid) if self.lesson is not None else sid
            if key not in self.order:
                self.order.append(key)
            n = self.order.index(key) + 1
            if n not in nums:
                nums.append(n)
        return "".join(f"[{n}]" for n in nums)

    def describe(self, sid: str) -> tuple[str, str | None]:
        """(title with its place, url) of a lesson or catalogue source."""
        if self.lesson is not None:
            try:
                return self.lesson.citation(sid)
            except KeyError:
                pass
        if self.catalog is not None:
            try:
                csrc = self.catalog.source(sid)
            except KeyError:
                pass
            else:
                return csrc.title, csrc.url
        return sid, None


@dataclass
class ReportData:
    """Everything one report shows, already turned into plain text pieces."""

    title: str
    generated: str
    verdict: str
    headline: str
    summary: str
    blockers: list[tuple[str, str, str]]  # (message, answer, refs)
    reasons: list[tuple[str, str, str, str]]  # (lean word, message, answer, refs)
    flips: list[str]
    next_steps: list[str]
    unanswered: list[str]
    answers: list[tuple[str, str, str]]  # (page, question, answer)
    estimate_intro: str
    estimate_rows: list[list[str]]
    estimate_rules: list[str]
    runs: list[str]
    notes: str
    sources: list[tuple[int, str, str, str | None]]  # (number, id, title, url)
    #: the model check's per-generation TPU compile table (core.tpu_compile.report_section); empty without one.
    compile_intro: str = ""
    compile_rows: list[list[str]] = field(default_factory=list)
    compile_notes: list[str] = field(default_factory=list)


_COLUMNS = ("chip", "kind", "peak", "mfu", "time", "bound", "memory", "chips_per_copy", "rate", "cost", "spot_cost")


def _estimate_header(language: str) -> list[str]:
    return [
        memory_header(language) if col == "memory" else text(f"report.column.{col}", language=language)
        for col in _COLUMNS
    ]


#: the estimate table's columns, in the language in use.
ESTIMATE_HEADER: Sequence[str] = ListInLanguage(_estimate_header)


def _estimate_section(estimate: Estimate | None, cited: _Cited) -> tuple[str, list[list[str]], list[str]]:
    """The estimate's introduction, table rows and rules (empty when there is no estimate)."""
    if estimate is None:
        return "", [], []
    req = estimate.request
    est_intro = text(
        "report.estimate.intro",
        mode=text("report.estimate.serving" if req.mode == "inference" else "report.estimate.training"),
        inputs=estimate_inputs(estimate),
        flops=plain_number(estimate.flops),
    )
    est_rows: list[list[str]] = []
    for row in estimate.rows:
        c = estimate_cells(row)
        rate = format_rate(row.price.usd) if row.price is not None else ""
        est_rows.append(
            [
                c.chip,
                c.kind,
                c.peak,
                c.mfu,
                c.time,
                c.bound,
                c.memory_fit,
                c.chips_per_copy,
                rate,
                c.cost,
                cost_range(row, spot=True),
            ]
        )
    est_rules = [
        text("report.estimate.compute", rule=rule_words(estimate.rule), refs=cited.refs(estimate.sources)),
        text("report.estimate.memory", rule=rule_words(estimate.memory_rule), note=memory_units_note()),
        *estimate_model_lines(estimate),
        *[text("report.estimate.warning", warning=w) for w in estimate_warnings(estimate)],
        text("report.estimate.cost", rule=cost_rule()),
        *[
            text("report.estimate.price", chip=row_name(row), lines=text("estimate.table.price_separator").join(lines))
            for row in estimate.rows
            if (lines := cost_lines(row))
        ],
    ]
    unpriced = [row_name(row) for row in estimate.rows if row.family not in OWN_FAMILIES and row.price is None]
    if unpriced:
        est_rules.append(text("report.estimate.unpriced", chips=", ".join(unpriced)))
    return est_intro, est_rows, est_rules


def _run_line(run: RunFile) -> str:
    """One line on a measured run: host, time, suite, devices with their best trusted matmul."""
    best: dict[str, float] = {}
    for r in trusted_results(run):  # flagged points (too noisy, in cache, above a roof) never count
        if r.kernel == "matmul" and r.metric == "flops" and r.value:
            best[r.device] = max(best.get(r.device, 0.0), r.value)
    devices = ", ".join(
        text("report.run.device", name=d.name, backend=d.backend)
        if d.key not in best
        else text("report.run.device_best", name=d.name, backend=d.backend, best=tflops(best[d.key]))
        for d in run.devices
    )
    check = text("report.run.check", words=functional_check()) if is_functional_check(run) else ""
    flagged = flagged_summary(run)
    line = text(
        "report.run.line",
        host=run.host,
        started=f"{run.started:%Y-%m-%d %H:%M}",
        suite=run.suite,
        check=check,
        n=len(run.results),
        incomplete="" if run.complete else text("report.run.incomplete"),
        devices=devices or text("report.run.no_devices"),
    )
    return line + (text("report.run.flagged", flagged=f"{flagged[0].upper()}{flagged[1:]}") if flagged else "")


def _topic_title(lesson: LessonPack | None, topic: str) -> str:
    """The explainer topic's title from the lesson, or its id when there is no such topic."""
    if lesson is not None:
        try:
            return lesson.topic(topic).title
        except KeyError:
            pass
    return topic


def collect(
    session: Session,
    lesson: LessonPack | None = None,
    catalog: Catalog | None = None,
    estimate: Estimate | None = None,
    name: str | None = None,
    rec: Recommendation | None = None,
    now: datetime | None = None,
) -> ReportData:
    """Gather the report's content from the session (the recommendation is derived from its answers)."""
    rec = rec or session.recommendation()
    cited = _Cited(lesson, catalog)
    summary = text("report.summary", verdict=VERDICT_WORDS[rec.verdict], summary=verdict_summary(rec))

    def answered(factor: str, value: str | None) -> str:
        return text("report.answer", label=factor_label(factor), value=answer_label(factor, value))

    blockers = [(b.message, answered(b.factor, b.answer), cited.refs(b.sources)) for b in rec.blockers]

    def measured(factor: str) -> str:
        note = measured_note(session.model_check, factor, getattr(session.answers, factor, None))
        return f"; {note}" if note else ""  # the model check's own words (core.modelcheck)

    blockers = [(m, a + measured(b.factor), refs) for (m, a, refs), b in zip(blockers, rec.blockers)]
    reasons = [
        (
            VERDICT_WORDS[r.leans],
            r.message,
            text(
                "report.reason_answer",
                answer=answered(r.factor, r.answer) + measured(r.factor),
                topic=_topic_title(lesson, r.topic),
            ),
            cited.refs(r.sources),
        )
        for r in rec.reasons
    ]
    flips = [
        text(
            "report.flip",
            label=factor_label(f.factor),
            after=answer_label(f.factor, f.to),
            before=answer_label(f.factor, f.from_),
            verdict=VERDICT_WORDS.get(f.verdict, f.verdict),
        )
        for f in rec.flips
    ]
    unanswered = [
        text("report.open_question", label=factor_label(f), page=page_of(f), question=QUESTIONS[f].text)
        for f in rec.unanswered
    ]
    answers = [
        (page.title, QUESTIONS[f].text, answer_label(f, getattr(session.answers, f)))
        for page in PAGES
        for f in page.fields
    ]

    est_intro, est_rows, est_rules = _estimate_section(estimate, cited)
    runs = [_run_line(run) for run in session.runs]
    compile_intro, compile_rows, compile_notes = "", list[list[str]](), list[str]()
    check = session.model_check
    if check is not None and check.tpu_compile is not None:
        compile_intro, compile_rows, compile_notes = report_section(
            check.tpu_compile, catalog or load_catalog(), check.answers.high_precision == HIGH_PRECISION_FP64
        )
        compile_intro = text("report.compiled", file=Path(check.file).name, intro=compile_intro)

    sources = []
    for i, sid in enumerate(cited.order, 1):
        title, url = cited.describe(sid)
        sources.append((i, sid, title, url))

    stamp = (now or datetime.now()).strftime("%Y-%m-%d %H:%M")
    return ReportData(
        title=text("report.title", name=name) if name else text("report.title_plain"),
        generated=text("report.generated", version=__version__, stamp=stamp),
        verdict=VERDICT_WORDS[rec.verdict],
        headline=headline(rec),
        summary=summary,
        blockers=blockers,
        reasons=reasons,
        flips=flips,
        next_steps=[*rec.next_steps, *_cheapest_places(rec, estimate, session.answers)],
        unanswered=unanswered,
        answers=answers,
        estimate_intro=est_intro,
        estimate_rows=est_rows,
        estimate_rules=est_rules,
        runs=runs,
        notes=session.notes.strip(),
        sources=sources,
        compile_intro=compile_intro,
        compile_rows=compile_rows,
        compile_notes=compile_notes,
    )


# --------------------------------------------------------------------------- inert text


def _inert_value(value: object) -> object:
    if isinstance(value, str):
        return one_line(value)
    if isinstance(value, list):
        return [_inert_value(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_inert_value(v) for v in value)
    return value


def inert(data: ReportData) -> ReportData:
    """`data` with every text on one line: line breaks, escape sequences and other control or
    direction-changing characters written as visible escapes (cliutil.one_line). Texts come from
    files (a run's host, a model file's name, notes); none may add a line, heading or table row to a
    report. The notes keep their own line breaks, each line made inert. Every report format starts here."""
    changes: dict[str, object] = {
        f.name: _inert_value(getattr(data, f.name)) for f in dataclasses.fields(data) if f.name != "notes"
    }
    changes["notes"] = "\n".join(one_line(line) for line in data.notes.replace("\r\n", "\n").split("\n"))
    return dataclasses.replace(data, **changes)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- Markdown

#: what starts a block at the beginning of a Markdown line once '#', '>', '~' are escaped anywhere:
#: a list item or rule ('-', '+', '1.', '1)') or a setext underline ('=').
_BLOCK_START = re.compile(r"^([+=-]|\d+[.)])")


def _md(text: str) -> str:
    """`text` (one line) as inert Markdown: every character that starts markup is escaped, so it renders
    as written wherever it lands, at the start of a line included (leading spaces, which would make
    code, are dropped)."""
    text = one_line(text).strip()
    for ch in ("\\", "*", "_", "`", "[", "]", "<", ">", "|", "&", "#", "~"):
        text = text.replace(ch, "\\" + ch)
    m = _BLOCK_START.match(text)
    if m:
        cut = m.end() - 1  # escape the marker's last character: '\-', '1\.'
        text = text[:cut] + "\\" + text[cut:]
    return text


def _md_lines(text: str) -> str:
    """Several lines (the notes) as inert Markdown: each line escaped by _md, blank lines kept as paragraph breaks."""
    return "\n".join(_md(line) for line in text.split("\n"))


def _h(key: str) -> str:
    """A section heading."""
    return text(f"report.heading.{key}")


def to_markdown(data: ReportData) -> str:
    """The report as GitHub-flavoured Markdown, its headings and labels in the language in use."""
    data = inert(data)

    def yours(a: str) -> str:
        return text("report.your_answer", answer=_md(a))

    out = [f"# {_md(data.title)}", "", f"_{_md(data.generated)}_", "", f"## {_h('verdict')}", ""]
    out += [f"**{_md(data.headline)}**", "", _md(data.summary), ""]
    if data.blockers:
        out += [f"## {_h('blockers')}", ""]
        out += [f"- {_md(m)}{yours(a)} {refs}" for m, a, refs in data.blockers]
        out.append("")
    out += [f"## {_h('reasons')}", ""]
    if data.reasons:
        out += [f"{i}. **{lean}**: {_md(m)}{yours(a)} {refs}" for i, (lean, m, a, refs) in enumerate(data.reasons, 1)]
    else:
        out.append(text("report.no_reasons"))
    out.append("")
    out += [f"## {_h('flips')}", ""]
    out += [f"- {_md(f)}" for f in data.flips] or [text("report.no_flips")]
    out.append("")
    if data.next_steps:
        out += [f"## {_h('next_steps')}", ""] + [f"{i}. {_md(s)}" for i, s in enumerate(data.next_steps, 1)] + [""]
    if data.unanswered:
        out += [f"## {_h('open_questions')}", ""] + [f"- {_md(u)}" for u in data.unanswered] + [""]
    columns = [text(f"report.answers.{k}") for k in ("step", "question", "answer")]
    out += [f"## {_h('answers')}", "", "| " + " | ".join(columns) + " |", "|---|---|---|"]
    out += [f"| {_md(p)} | {_md(q)} | {_md(a)} |" for p, q, a in data.answers]
    out.append("")
    if data.estimate_rows:
        header = list(ESTIMATE_HEADER)
        out += [f"## {_h('estimate')}", "", _md(data.estimate_intro), ""]
        out += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        out += ["| " + " | ".join(_md(c) for c in row) + " |" for row in data.estimate_rows]
        out.append("")
        out += [f"- {_md(rule)}" for rule in data.estimate_rules] + [""]
    if data.compile_intro:
        out += [f"## {_h('compiled')}", "", _md(data.compile_intro), ""]
        if data.compile_rows:
            out += ["| " + " | ".join(REPORT_HEADER) + " |", "|" + "---|" * len(REPORT_HEADER)]
            out += ["| " + " | ".join(_md(c) for c in row) + " |" for row in data.compile_rows]
            out.append("")
        out += [f"- {_md(n)}" for n in data.compile_notes] + ([""] if data.compile_notes else [])
    if data.runs:
        out += [f"## {_h('runs')}", ""] + [f"- {_md(r)}" for r in data.runs] + [""]
    if data.notes:
        out += [f"## {_h('notes')}", "", _md_lines(data.notes), ""]
    if data.sources:
        out += [f"## {_h('sources')}", ""]
        for n, _sid, title, url in data.sources:
            out.append(f"{n}. {_md(title)}" + (f": <{url}>" if url else ""))
        out.append("")
    return "\n".join(out)


# --------------------------------------------------------------------------- HTML


def to_html(data: ReportData, colors: dict[str, str] | None = None) -> str:
    """The report as one self-contained HTML page (also the input of the PDF export), in the language in use."""
    c = {"gpu": "#1f8a4c", "tpu": "#2f66d0", "muted": "#5a6376", "warning": "#a85a00", "border": "#d5d9e1"}
    c.update(colors or {})
    data = inert(data)
    e = html.escape
    lean_color = {"GPU": c["gpu"], "TPU": c["tpu"]}
    lang = i18n.HTML_LANG.get(i18n.current_language(), i18n.current_language())

    def yours(a: str) -> str:
        return e(text("report.your_answer", answer=a).strip())

    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{e(lang, quote=True)}"><head><meta charset="utf-8">',
        f"<title>{e(data.title)}</title>",
        "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto;line-height:1.4}"
        "table{border-collapse:collapse;width:100%}"
        f"td,th{{border:1px solid {c['border']};padding:3px 6px;text-align:left}}"
        f".muted{{color:{c['muted']}}}.blocker{{color:{c['warning']}}}</style>",
        "</head><body>",
        f"<h1>{e(data.title)}</h1>",
        f'<p class="muted"><i>{e(data.generated)}</i></p>',
        f"<h2>{e(_h('verdict'))}</h2>",
        f'<p><b style="color:{lean_color.get(data.verdict, "inherit")}">{e(data.headline)}</b></p>',
        f"<p>{e(data.summary)}</p>",
    ]
    if data.blockers:
        parts.append(f"<h2>{e(_h('blockers'))}</h2><ul>")
        parts += [
            f'<li><b class="blocker">{e(m)}</b> <span class="muted">{yours(a)} {e(refs)}</span></li>'
            for m, a, refs in data.blockers
        ]
        parts.append("</ul>")
    parts.append(f"<h2>{e(_h('reasons'))}</h2>")
    if data.reasons:
        parts.append("<ol>")
        parts += [
            f'<li><b style="color:{lean_color.get(lean, "inherit")}">{e(lean)}</b>: {e(m)} '
            f'<span class="muted">{yours(a)} {e(refs)}</span></li>'
            for lean, m, a, refs in data.reasons
        ]
        parts.append("</ol>")
    else:
        parts.append(f"<p>{e(text('report.no_reasons'))}</p>")
    parts.append(f"<h2>{e(_h('flips'))}</h2>")
    if data.flips:
        parts.append("<ul>" + "".join(f"<li>{e(f)}</li>" for f in data.flips) + "</ul>")
    else:
        parts.append(f"<p>{e(text('report.no_flips'))}</p>")
    if data.next_steps:
        parts.append(
            f"<h2>{e(_h('next_steps'))}</h2><ol>" + "".join(f"<li>{e(s)}</li>" for s in data.next_steps) + "</ol>"
        )
    if data.unanswered:
        parts.append(
            f"<h2>{e(_h('open_questions'))}</h2><ul>" + "".join(f"<li>{e(u)}</li>" for u in data.unanswered) + "</ul>"
        )
    parts.append(f'<h2>{e(_h("answers"))}</h2><table width="100%" cellspacing="0" cellpadding="3" border="1">')
    parts.append(
        "<tr>" + "".join(f"<th>{e(text(f'report.answers.{k}'))}</th>" for k in ("step", "question", "answer")) + "</tr>"
    )
    parts += [f"<tr><td>{e(p)}</td><td>{e(q)}</td><td>{e(a)}</td></tr>" for p, q, a in data.answers]
    parts.append("</table>")
    if data.estimate_rows:
        parts.append(f"<h2>{e(_h('estimate'))}</h2><p>{e(data.estimate_intro)}</p>")
        parts.append('<table width="100%" cellspacing="0" cellpadding="3" border="1"><tr>')
        parts += [f"<th>{e(h)}</th>" for h in ESTIMATE_HEADER]
        parts.append("</tr>")
        parts += ["<tr>" + "".join(f"<td>{e(cell)}</td>" for cell in row) + "</tr>" for row in data.estimate_rows]
        parts.append("</table><ul>" + "".join(f'<li class="muted">{e(r)}</li>' for r in data.estimate_rules) + "</ul>")
    if data.compile_intro:
        parts.append(f"<h2>{e(_h('compiled'))}</h2><p>{e(data.compile_intro)}</p>")
        if data.compile_rows:
            parts.append('<table width="100%" cellspacing="0" cellpadding="3" border="1"><tr>')
            parts += [f"<th>{e(h)}</th>" for h in REPORT_HEADER]
            parts.append("</tr>")
            parts += ["<tr>" + "".join(f"<td>{e(cell)}</td>" for cell in row) + "</tr>" for row in data.compile_rows]
            parts.append("</table>")
        parts.append("<ul>" + "".join(f'<li class="muted">{e(n)}</li>' for n in data.compile_notes) + "</ul>")
    if data.runs:
        parts.append(f"<h2>{e(_h('runs'))}</h2><ul>" + "".join(f"<li>{e(r)}</li>" for r in data.runs) + "</ul>")
    if data.notes:
        parts.append(f"<h2>{e(_h('notes'))}</h2>" + "".join(f"<p>{e(p)}</p>" for p in data.notes.split("\n\n")))
    if data.sources:
        parts.append(f"<h2>{e(_h('sources'))}</h2><ol>")
        for _n, _sid, title, url in data.sources:
            link = f' <a href="{e(url, quote=True)}">{e(url)}</a>' if url else ""
            parts.append(f"<li>{e(title)}{link}</li>")
        parts.append("</ol>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def build_markdown(
    session: Session,
    lesson: LessonPack | None = None,
    catalog: Catalog | None = None,
    estimate: Estimate | None = None,
    name: str | None = None,
) -> str:
    """Markdown report of a session."""
    return to_markdown(collect(session, lesson, catalog, estimate, name))


def build_html(
    session: Session,
    lesson: LessonPack | None = None,
    catalog: Catalog | None = None,
    estimate: Estimate | None = None,
    name: str | None = None,
    colors: dict[str, str] | None = None,
) -> str:
    """HTML report of a session."""
    return to_html(collect(session, lesson, catalog, estimate, name), colors)


def _cheapest_places(rec: Recommendation, estimate: Estimate | None, answers: Answers | None = None) -> list[str]:
    """The next step naming the cheapest places for the verdict's chips, from the estimate's prices: only
    chips that hold the run (none without bf16 arithmetic, none too small for one copy), priced in the
    answered cloud and region (as the window's step)."""
    from gpu_tpu_app.core.decision.regions import ANSWERED_CLOUDS, area_of, clouds_for

    if estimate is None or not has_verdict(rec):
        return []
    families = verdict_families(rec.verdict)
    deployment = answers.deployment if answers is not None else None
    cloud = ANSWERED_CLOUDS.get(deployment or "")
    clouds = (cloud,) if cloud else clouds_for(deployment) or None
    area = answers.region if answers is not None and answers.region != "anywhere" else None
    found = [
        (row_name(r), r.price)
        for r in estimate.rows
        if r.family in families
        and r.price is not None
        and r.fits is not False
        and r.peak_dtype != "float16"  # no bf16 arithmetic (the T4)
        and (clouds is None or r.price.cloud in clouds)
        and (area is None or area_of(r.price.region) == area)
    ]
    cheapest = cheapest_text(found, rec.verdict)
    return [text("report.cheapest", text=cheapest)] if cheapest else []


def session_estimate(
    session: Session, catalog: Catalog | None = None, book: PriceBook | None = None
) -> Estimate | None:
    """The estimate for the session's estimator inputs (with its measured devices), or None without inputs.

    Costs use `book`; without one, the shipped price table and the catalogues in their default places.
    """
    if session.estimate is None:
        return None
    from gpu_tpu_app.core.estimate import estimate
    from gpu_tpu_app.core.price_import import load_book

    return estimate(session.estimate, catalog, session.measured_devices(), book if book is not None else load_book())
