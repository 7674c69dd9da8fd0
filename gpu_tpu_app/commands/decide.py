"""`gpu-tpu-app decide`: an answers file in, a GPU / TPU recommendation out (text or JSON)."""

from __future__ import annotations

import argparse
import json
import sys

from gpu_tpu_app import i18n
from gpu_tpu_app.core.decision import (
    FACTORS,
    QUESTIONS,
    Recommendation,
    decide,
    leans_only,
    load_answers,
    read_answers,
)
from gpu_tpu_app.core.decision.rules import FULL_ENOUGH
from gpu_tpu_app.errors import InputError
from gpu_tpu_app.safe_read import MAX_SMALL_FILE_BYTES

_VERDICT_WORDS = {
    "gpu": "GPU: the workshop",
    "tpu": "TPU: the factory line",
    "either": "either: the workshop and the factory line fit about equally well",
}


def configure(p: argparse.ArgumentParser) -> None:
    """Add the decide flags to the subcommand's parser."""
    p.add_argument(
        "--answers",
        required=True,
        metavar="FILE",
        help="JSON answers file ('-' reads standard input); missing or null answers count as unknown. "
        "Fields: " + ", ".join(FACTORS),
    )
    p.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text for people (default), json for tools: the Recommendation model (with --model, "
        "plus answer_sources and model_check)",
    )
    p.add_argument(
        "--model",
        metavar="FILE",
        help="also check this model file (as check-model does); measured answers fill the ones the "
        "answers file leaves unset, stated answers win",
    )
    from gpu_tpu_app.commands.check_model import add_check_flags

    add_check_flags(p)


def run(args: argparse.Namespace) -> int:
    """Read the answers, decide, print; bad input raises InputError (one line, exit 2 from the CLI)."""
    if args.answers == "-":
        data = sys.stdin.buffer.read(MAX_SMALL_FILE_BYTES + 1)
        if len(data) > MAX_SMALL_FILE_BYTES:
            raise InputError("<stdin>: over the 1 MiB limit for an answers file; not reading it")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError("<stdin>: not UTF-8 text") from None
        answers = load_answers(text, "<stdin>")
    else:
        answers = read_answers(args.answers)
    check = sources = None
    if getattr(args, "model", None):
        from gpu_tpu_app.commands.check_model import measure
        from gpu_tpu_app.core.modelcheck import combine

        check = measure(args.model, args.timeout, args.memory_limit, tpu_chips=args.tpu_chips, python=args.python)
        answers, sources = combine(answers, check)
    # JSON is for tools: its keys and values, the words included, are English in every language
    rec = decide(answers, language=i18n.DEFAULT_LANGUAGE if args.format == "json" else None)
    if args.format == "json":
        data = rec.model_dump(mode="json", by_alias=True)
        if check is not None:
            data["answer_sources"] = sources
            data["model_check"] = check.model_dump(mode="json")
        print(json.dumps(data, indent=2, allow_nan=False))
    else:
        text = render_text(rec)
        if check is not None and sources is not None:
            text = render_sources(check, sources, answers) + "\n\n" + text
        print(text)
    return 0


def render_sources(check, sources: dict[str, str], answers) -> str:
    """Which answers came from the model check and which from the answers file."""
    from gpu_tpu_app.core.modelcheck import level_text

    lines = [
        f"Model check of {check.file}: {level_text(check)}, {check.seconds:.1f} s",
        "Answers it could measure (measured values fill unset answers; stated ones win):",
    ]
    for name, source in sources.items():
        value = getattr(answers, name)
        first = next((e for e in check.evidence_for(name)), None)
        why = f" ({first.finding})" if first is not None and source != "stated" else ""
        if source == "unknown":
            lines.append(f"  - {name}: neither stated nor decided by the check{why}")
        else:
            lines.append(f"  - {name} = {value}: {source}{why}")
    return "\n".join(lines)


def _cite(topic: str, sources: list[str]) -> str:
    return f"(topic {topic}; sources {', '.join(sources)})"


def render_text(rec: Recommendation) -> str:
    """The recommendation as plain text: verdict, blockers, reasons, flips, next steps, open questions."""
    lines = [
        f"Verdict: {_VERDICT_WORDS[rec.verdict]}",
        f"Score {rec.score:+.2f} (-1 = all GPU, +1 = all TPU), confidence {rec.confidence}",
    ]
    if rec.blockers:
        lines += ["", "Blockers (each decides on its own):"]
        for b in rec.blockers:
            lines.append(f"  - {b.factor} = {b.answer} -> {b.verdict.upper()}: {b.message} {_cite(b.topic, b.sources)}")
    if leans_only(rec):
        lines.append(f"Fewer than {FULL_ENOUGH} answers and no blocker: they lean, but decide nothing yet.")
    if rec.conflicts:
        lines += ["", "Answers that contradict each other (the confidence is one level lower):"]
        for c in rec.conflicts:
            pair = " and ".join(f"{f} = {a}" for f, a in zip(c.factors, c.answers))
            lines.append(f"  - {pair}: {c.message}")
    lines += ["", "Reasons, strongest first:"]
    if rec.reasons:
        for r in rec.reasons:
            lines.append(
                f"  - [{r.leans.upper()} {r.weight:.2f}] {r.factor} = {r.answer}: {r.message} "
                f"{_cite(r.topic, r.sources)}"
            )
    else:
        lines.append("  - none: no answer leans either way yet")
    lines += ["", "What would flip it:"]
    if rec.flips:
        for f in rec.flips:
            lines.append(f"  - {f.factor}: {f.from_} -> {f.to} gives {f.verdict}")
    else:
        lines.append("  - no single changed answer changes the verdict")
    lines += ["", "Next steps:"]
    lines += [f"  {i}. {step}" for i, step in enumerate(rec.next_steps, 1)]
    lines += ["", "Unanswered:"]
    if rec.unanswered:
        lines += [f"  - {name}: {QUESTIONS[name].text}" for name in rec.unanswered]
    else:
        lines.append("  - none")
    return "\n".join(lines)
