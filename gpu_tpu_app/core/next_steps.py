"""Next steps as the window shows them: each step's words without command lines, and the action
inside the app that does what the command would. Both are fields of the step (core.decision.Step);
the CLI and the report print the step's `line`, which names its command."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from gpu_tpu_app.core.decision import ACTION_WORDS, Action, Step

#: what each action's button says, in the language in use.
ACTION_TEXT: Mapping[Action, str] = ACTION_WORDS


class WindowStep(NamedTuple):
    """One next step for the window: plain text, and the in-app action that goes with it (or None)."""

    text: str
    action: Action | None


def window_step(step: Step) -> WindowStep:
    """A next step without command lines, with its action in the window."""
    return WindowStep(text=step.text, action=step.action)
