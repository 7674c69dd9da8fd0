"""`gpu-tpu-app decide`: an answers file in, a GPU / TPU recommendation out (text or JSON)."""

from __future__ import annotations

import argparse
import json
import sys

from gpu_tpu_app.core.decision import (
    FACTORS,
    QUESTIONS,
    Recommendation,
    decide,
    load_answers,
    read_answers,
)
from gpu_tpu_app.errors import InputError

_VERDICT_WORDS = {
    "gpu": "GPU: the workshop",
    "tpu": "TPU: the factory line",
    "either": "either: the workshop and the factory line fit about equally well",
}


def configure(p: argparse.ArgumentParser) -> None:
    """Add the decide flags to the subcommand's parser."""
    p.add_argument("--answers", required=True, metavar="FILE",
                   help="JSON answers file ('-' reads standard input); missing or null answers count as unknown. "
                        "Fields: " + ", ".join(FACTORS))
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text for people (default), json for tools: the Recommendation model")


def run(args: argparse.Namespace) -> int:
    """Read the answers, decide, print; bad input raises InputError (one line, exit 2 from the CLI)."""
    if args.answers == "-":
        try:
            text = sys.stdin.read()
        except UnicodeDecodeError:
            raise InputError("<stdin>: not UTF-8 text") from None
        answers = load_answers(text, "<stdin>")
    else:
        answers = read_answers(args.answers)
    rec = decide(answers)
    if args.format == "json":
        print(json.dumps(rec.model_dump(mode="json", by_alias=True), indent=2))
    else:
        print(render_text(rec))
    return 0


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
    lines += ["", "Reasons, strongest first:"]
    if rec.reasons:
        for r in rec.reasons:
            lines.append(f"  - [{r.leans.upper()} {r.weight:.2f}] {r.factor} = {r.answer}: {r.message} "
                         f"{_cite(r.topic, r.sources)}")
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
