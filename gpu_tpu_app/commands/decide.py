"""`gpu-tpu-app decide`: an answers file in, a GPU / TPU recommendation out (text or JSON).

Without --model it runs on the standard library alone: the answers are read and checked as plain
values (core.decision.io.read_answer_values), the engine's plain records are printed
(core.decision.engine.outcome, records.as_json), and neither pydantic nor the model check is imported
(tests/commands/test_decide_imports.py holds it). --model brings the model check and its models.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from gpu_tpu_app import i18n
from gpu_tpu_app.core.decision.engine import leans_only, outcome
from gpu_tpu_app.core.decision.fields import FACTORS, UNKNOWN, values_of
from gpu_tpu_app.core.decision.io import answer_values, read_answer_values
from gpu_tpu_app.core.decision.questions import QUESTIONS
from gpu_tpu_app.core.decision.records import Outcome, as_json
from gpu_tpu_app.core.decision.rules import FULL_ENOUGH
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.core.verdict_text import confidence_word
from gpu_tpu_app.errors import InputError
from gpu_tpu_app.safe_read import MAX_SMALL_FILE_BYTES

if TYPE_CHECKING:
    from gpu_tpu_app.core.decision import Recommendation


def _option(key: str, **values: str) -> str:
    """An option's help in the language in use; argparse formats help with %, so a literal % is doubled."""
    return text(f"decide.options.{key}", **values).replace("%", "%%")


def _quantity(raw: str) -> float:
    """A count written as 7e9 or 7B (the estimator's forms); argparse reports a ValueError as one line."""
    from gpu_tpu_app.core.estimate import parse_quantity

    return parse_quantity(raw)


def configure(p: argparse.ArgumentParser) -> None:
    """Add the decide flags to the subcommand's parser (their help in the language in use)."""
    p.add_argument(
        "--answers",
        required=True,
        metavar="FILE",
        help=_option("answers", fields=", ".join(FACTORS)),
    )
    p.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help=_option("format"),
    )
    p.add_argument(
        "--model",
        metavar="FILE",
        help=_option("model"),
    )
    p.add_argument("--params", metavar="N", type=_quantity, help=_option("params"))
    p.add_argument("--tokens", metavar="N", type=_quantity, help=_option("tokens"))
    p.add_argument("--chips", metavar="N", type=int, default=8, help=_option("chips"))
    p.add_argument("--porting-weeks", metavar="W", type=float, help=_option("porting_weeks"))
    p.add_argument("--week-usd", metavar="USD", type=float, help=_option("week_usd"))
    from gpu_tpu_app.commands.check_flags import add_check_flags

    add_check_flags(p)


def run(args: argparse.Namespace) -> int:
    """Read the answers, decide, print; bad input raises InputError (one line, exit 2 from the CLI)."""
    if args.answers == "-":
        data = sys.stdin.buffer.read(MAX_SMALL_FILE_BYTES + 1)
        if len(data) > MAX_SMALL_FILE_BYTES:
            raise InputError(text("decide.error.stdin_too_large"))
        try:
            raw = data.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError(text("decide.error.stdin_not_utf8")) from None
        values = answer_values(raw, "<stdin>")
    else:
        values = read_answer_values(args.answers)
    check = sources = answers = None
    if getattr(args, "model", None):
        from gpu_tpu_app.commands.check_model import measure
        from gpu_tpu_app.core.decision import Answers
        from gpu_tpu_app.core.modelcheck import combine

        answers = Answers.model_validate(values)  # checked already: every field a choice or None
        check = measure(
            args.model,
            args.timeout,
            args.memory_limit,
            tpu_chips=args.tpu_chips,
            python=args.python,
            language=i18n.DEFAULT_LANGUAGE if args.format == "json" else None,
        )
        answers, sources = combine(answers, check)
        values = values_of(answers)
    # JSON is for tools: its keys and values, the words included, are English in every language
    rec = outcome(values, language=i18n.DEFAULT_LANGUAGE if args.format == "json" else None)
    if getattr(args, "params", None) and (
        not 1 <= args.chips <= 1_000_000 or (args.porting_weeks is not None and args.porting_weeks < 0)
    ):
        raise InputError(text("decide.error.money_numbers"))
    if args.format == "json":
        data = as_json(rec)
        if getattr(args, "params", None):
            from gpu_tpu_app.commands.decide_money import money_json

            # a new key beside the Recommendation's, only with --params; the others stay as they were
            data["money"] = money_json(values, args.params, args.chips, args.tokens, args.porting_weeks, args.week_usd)
        if check is not None:
            data["answer_sources"] = sources
            data["model_check"] = check.model_dump(mode="json")
        print(json.dumps(data, indent=2, allow_nan=False))
    else:
        out = render_text(rec, values)
        if getattr(args, "params", None):
            from gpu_tpu_app.commands.decide_money import render_money

            out += "\n\n" + render_money(
                values, args.params, args.chips, args.tokens, args.porting_weeks, args.week_usd
            )
        if check is not None and sources is not None:
            out = render_sources(check, sources, answers) + "\n\n" + out
        print(out)
    return 0


def _source_words(source: str) -> str:
    """How an answer's source reads: stated, measured, or stated over a measured value."""
    if source in ("stated", "measured"):
        return text(f"decide.sources.{source}")
    prefix = "stated over measured "
    if source.startswith(prefix):
        return text("decide.sources.stated_over", value=source[len(prefix) :])
    return source


def render_sources(check, sources: dict[str, str], answers) -> str:
    """Which answers came from the model check and which from the answers file."""
    from gpu_tpu_app.core.modelcheck import level_text

    lines = [
        text("decide.sources.check", file=check.file, level=level_text(check), seconds=f"{check.seconds:.1f}"),
        text("decide.sources.intro"),
    ]
    for name, source in sources.items():
        value = getattr(answers, name)
        first = next((e for e in check.evidence_for(name)), None)
        why = text("decide.sources.why", finding=first.finding) if first is not None and source != "stated" else ""
        if source == "unknown":
            lines.append("  - " + text("decide.sources.unknown", name=_label(name), why=why))
        else:
            lines.append(
                "  - "
                + text(
                    "decide.sources.answer",
                    name=_label(name),
                    value=_words(name, value),
                    source=_source_words(source),
                    why=why,
                )
            )
    return "\n".join(lines)


def render_offers(values: dict[str, str | None]) -> str:
    """Where the GPU and the TPU are offered for the answered cloud (deployment) and region, from the shipped
    price table: the places and the chips there."""
    from gpu_tpu_app.core.decision.regions import family_offers

    lines = [text("decide.heading.offers")]
    for family, tpu in (("GPU", False), ("TPU", True)):
        found = family_offers(values.get("region"), values.get("deployment"), tpu)
        if not found.places:
            lines.append("  - " + text("decide.line.offers_none", family=family))
            continue
        shown = ", ".join(found.places[:6]) + (", …" if len(found.places) > 6 else "")
        lines.append("  - " + text("decide.line.offers", family=family, chips=", ".join(found.chips), places=shown))
    return "\n".join(lines)


def _label(factor: str) -> str:
    """A question's short label in the language in use (the field id for one the wizard does not ask)."""
    q = QUESTIONS.get(factor)
    return q.label if q is not None else factor


def _words(factor: str, value: str | None) -> str:
    """The wizard's words for one answer in the language in use ("don't know" for unknown)."""
    if value is None or value == UNKNOWN:
        return text("report.dont_know")
    q = QUESTIONS.get(factor)
    return next((words for v, words in q.choices if v == value), value) if q is not None else value


def _cite(topic: str, sources: Sequence[str]) -> str:
    return text("decide.line.cite", topic=topic, sources=", ".join(sources))


def render_text(rec: Recommendation | Outcome, values: dict[str, str | None] | None = None) -> str:
    """The recommendation as plain text, in the language in use: verdict, blockers, reasons, flips,
    next steps, where the chips are offered (with the answers' `values`), open questions. Ids (factors,
    answers, topics, sources) stay as the answers file writes them."""
    lines = [
        text("decide.line.verdict", words=text(f"decide.verdict.{rec.verdict}")),
        text("decide.line.score", score=f"{rec.score:+.2f}", confidence=confidence_word(rec.confidence)),
    ]
    if rec.blockers:
        lines += ["", text("decide.heading.blockers")]
        for b in rec.blockers:
            line = text(
                "decide.line.blocker",
                factor=_label(b.factor),
                answer=_words(b.factor, b.answer),
                verdict=b.verdict.upper(),
                message=b.message,
                cite=_cite(b.topic, b.sources),
            )
            lines.append(f"  - {line}")
    if leans_only(rec):
        lines.append(text("decide.line.leans_only", n=FULL_ENOUGH))
    if rec.conflicts:
        lines += ["", text("decide.heading.conflicts")]
        for c in rec.conflicts:
            named = [
                text("decide.line.named", label=_label(f), answer=_words(f, a)) for f, a in zip(c.factors, c.answers)
            ]
            pair = text("decide.line.pair", first=named[0], second=", ".join(named[1:])) if len(named) > 1 else named[0]
            lines.append("  - " + text("decide.line.conflict", pair=pair, message=c.message))
    lines += ["", text("decide.heading.reasons")]
    if rec.reasons:
        for r in rec.reasons:
            line = text(
                "decide.line.reason",
                lean=r.leans.upper(),
                weight=f"{r.weight:.2f}",
                factor=_label(r.factor),
                answer=_words(r.factor, r.answer),
                message=r.message,
                cite=_cite(r.topic, r.sources),
            )
            lines.append(f"  - {line}")
    else:
        lines.append("  - " + text("decide.line.no_reasons"))
    lines += ["", text("decide.heading.flips")]
    if rec.flips:
        for f in rec.flips:
            verdict = text(f"decide.flip_verdict.{f.verdict}")
            lines.append(
                "  - "
                + text(
                    "decide.line.flip",
                    factor=_label(f.factor),
                    before=_words(f.factor, f.from_),
                    after=_words(f.factor, f.to),
                    verdict=verdict,
                )
            )
    else:
        lines.append("  - " + text("decide.line.no_flips"))
    lines += ["", text("decide.heading.next_steps")]
    lines += [f"  {i}. {step}" for i, step in enumerate(rec.next_steps, 1)]
    if values is not None:
        lines += ["", render_offers(values)]
    lines += ["", text("decide.heading.unanswered")]
    if rec.unanswered:
        lines += [
            "  - " + text("decide.line.unanswered", name=_label(name), question=QUESTIONS[name].text)
            for name in rec.unanswered
        ]
    else:
        lines.append("  - " + text("decide.line.none"))
    return "\n".join(lines)
