"""Next steps as the window shows them: the same advice without command lines, plus the action
inside the app that does what the command would (the CLI and the report keep the commands)."""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

Action = Literal["estimate", "probe_quick", "compare_chips", "check_model", "answer"]

ACTION_TEXT: dict[Action, str] = {
    "estimate": "Open the estimator",
    "probe_quick": "Run the quick probe on this machine",
    "compare_chips": "Compare with the catalogue's chips",
    "check_model": "Check my model…",
    "answer": "Answer the next open question",
}

#: command names as a step may mention them
_COMMAND = r"gpu-tpu-(?:app|probe)\b"
_PARENTHESES = re.compile(r"\s*\([^()]*" + _COMMAND + r"[^()]*\)")
_CLAUSE = re.compile(r"\s*(?:;|,?\s+with)\s+[^.;]*" + _COMMAND + r"[^.;]*")
_LEFTOVER = re.compile(_COMMAND + r"(?:\s+[a-z-]+)*")


class WindowStep(NamedTuple):
    """One next step for the window: plain text, and the in-app action that goes with it (or None)."""

    text: str
    action: Action | None


def _action(step: str) -> Action | None:
    if step.startswith("Framework check:"):
        return "check_model"
    if step.startswith("Answer the open questions"):
        return "answer"
    if "gpu-tpu-app estimate" in step or "catalog and estimate" in step or "catalog, estimate" in step:
        return "estimate"
    if "gpu-tpu-probe" in step:
        return "probe_quick"
    if "gpu-tpu-app catalog" in step:
        return "compare_chips"
    return None


def window_step(step: str) -> WindowStep:
    """A next step without command lines, with its action in the window."""
    text = _PARENTHESES.sub("", step)
    text = _CLAUSE.sub("", text)
    text = _LEFTOVER.sub("this app", text)
    text = re.sub(r"\s+([.,;:])", r"\1", text).strip()
    return WindowStep(text=text, action=_action(step))
