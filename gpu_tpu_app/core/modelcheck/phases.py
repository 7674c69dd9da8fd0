"""The model check's phases: the one registry the CLI's progress lines, the window's step line and the timeout
error word a running check by.

The worker names what runs now in its stage lines (worker/modelcheck*.py, worker/tpu_compile.py: English, the
wire protocol, e.g. "lower through torchax" or "compiling for TPU v6e:1x1"). Each phase below lists the stages
that belong to it, by prefix, and has its words under its text id, modelcheck.phase.<id>, in every language;
`progress` turns a stage into "step 5 of 6: lowering for TPU", `estimate_left` says about how long is left
from the steps so far. Pure: the standard library and the text tables.
"""

from __future__ import annotations

from dataclasses import dataclass

from gpu_tpu_app.core.texts import text


@dataclass(frozen=True)
class Phase:
    """One phase of a check: its id (the text id modelcheck.phase.<id>), its step number, its worker stages."""

    id: str
    step: int
    stages: tuple[str, ...]


#: the phases in the order a check runs them; `stages` are the worker's stage names, matched by prefix.
PHASES: tuple[Phase, ...] = (
    Phase("load", 1, ("loading the file",)),
    Phase("call", 2, ("calling ",)),
    Phase("run", 3, ("eager forward", "trace with jax.make_jaxpr")),
    Phase("graph", 4, ("torch.export", "torch._dynamo.explain", "recompiles across", "trace other_inputs")),
    Phase(
        "lower",
        5,
        ("lower for ", "import torchax", "lower through torchax", "import torch_xla", "one step under torch_xla"),
    ),
    Phase("compile", 6, ("loading the model for the TPU compiler", "compiling for TPU ")),
)
#: how many steps a check has.
STEPS = len(PHASES)
#: the stage prefix whose rest names the TPU topology compiled for now.
_COMPILING = "compiling for TPU "


def phase_of(stage: str) -> Phase | None:
    """The phase a worker stage belongs to (None for a stage no phase lists)."""
    for phase in PHASES:
        if any(stage.startswith(s) for s in phase.stages):
            return phase
    return None


def phase_words(stage: str, function: str | None = None, language: str | None = None) -> str:
    """What runs now, in words: the phase's text with its detail (the function called, the TPU generation
    compiled for); a stage no phase lists is shown as the worker named it."""
    phase = phase_of(stage)
    if phase is None:
        return stage
    if phase.id == "call":
        name = function or stage.removeprefix("calling ")
        return text("modelcheck.phase.call", language=language, function=name)
    if phase.id == "compile" and stage.startswith(_COMPILING):
        target = stage.removeprefix(_COMPILING).split(":")[0]
        return text("modelcheck.phase.compile_for", language=language, target=target)
    return text(f"modelcheck.phase.{phase.id}", language=language)


def progress(stage: str, function: str | None = None, language: str | None = None) -> str:
    """ "step 5 of 6: lowering for TPU", for the CLI's progress and the window's step line."""
    phase = phase_of(stage)
    words = phase_words(stage, function, language)
    if phase is None:
        return words
    return text("modelcheck.phase.step", language=language, step=phase.step, steps=STEPS, words=words)


def estimate_left(step: int, elapsed_s: float) -> float | None:
    """Seconds likely left, from the time the steps so far took (their average per step, times the steps to
    go); None before a step has finished (nothing to go by yet)."""
    done = step - 1
    if done < 1 or elapsed_s <= 0:
        return None
    return elapsed_s / done * (STEPS - done)
