"""Next steps: concrete checks for a verdict and its answers, most urgent first.

Each step is structured: an id, its words as the window shows them, the in-app action that does
what the step says (the window's button) and the command line the CLI and the report cite. The
words are content (resources/decision, `steps.<id>`); here are the ids, actions, commands and the
rules that pick the steps.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Literal, NamedTuple, get_args

from gpu_tpu_app import i18n
from gpu_tpu_app.core.decision.content import DecisionText, packaged_text
from gpu_tpu_app.core.decision.fields import Verdict, open_questions
from gpu_tpu_app.core.localized import InLanguage

#: what a step's button does in the window.
Action = Literal["estimate", "probe_quick", "compare_chips", "check_model", "answer"]
ACTIONS: tuple[Action, ...] = get_args(Action)


class Step(NamedTuple):
    """One next step: `text` is what the window shows beside the button for `action`; `line` is what
    the CLI and the report print, naming `command` where the step has one."""

    id: str
    text: str
    action: Action | None
    command: str | None
    line: str


class _Spec(NamedTuple):
    action: Action | None
    command: str | None


#: the framework check's step id per framework (any other framework, or none stated: the general one).
_FRAMEWORK_CHECK = {
    "pytorch": "framework_check_pytorch",
    "jax": "framework_check_jax",
    "tensorflow": "framework_check_tensorflow",
}
#: the software route onto a TPU per framework; PyTorch's as its own project tracker states it (checked in
#: November 2026: pytorch/xla issue 9684, torchax on PyPI), not from memory.
_ROUTE = {"pytorch": "route_pytorch", "jax": "route_jax", "tensorflow": "route_tensorflow"}

_CATALOG = "gpu-tpu-app catalog"
_ESTIMATE = "gpu-tpu-app estimate"
_PROBE = "gpu-tpu-probe"

#: step id -> (the window's action, the command the CLI and report name); words: steps.<id>.
_STEPS: dict[str, _Spec] = {
    **{
        sid: _Spec("check_model", None)
        for sid in (*_FRAMEWORK_CHECK.values(), "framework_check", "framework_check_as_is")
    },
    **{sid: _Spec(None, None) for sid in _ROUTE.values()},
    "generation_serving": _Spec("estimate", _CATALOG),
    "generation_large": _Spec("compare_chips", _CATALOG),
    "capacity": _Spec(None, None),
    "custom_ops": _Spec(None, None),
    "shapes": _Spec(None, None),
    "pilot": _Spec("probe_quick", _PROBE),
    "pilot_serving": _Spec("estimate", f"{_ESTIMATE} --inference"),
    "data_pipeline": _Spec(None, None),
    "queue": _Spec(None, None),
    "porting": _Spec("estimate", _ESTIMATE),
    "utilization": _Spec(None, None),
    "gpu_memory": _Spec("estimate", _ESTIMATE),
    "gpu_fp64": _Spec("compare_chips", _CATALOG),
    "gpu_links": _Spec(None, None),
    "gpu_quant": _Spec(None, None),
    "revisit": _Spec(None, None),
    "gpu_choice": _Spec("estimate", _CATALOG),
    "aws_trainium": _Spec("estimate", _CATALOG),
    "fp32_pilot": _Spec(None, None),
    "rewrite_recommender": _Spec("estimate", _ESTIMATE),
    "answer": _Spec("answer", None),
    "gather_pilot": _Spec("probe_quick", None),
    "fallback_pilot": _Spec(None, None),
    "not_bottleneck_cpu": _Spec(None, None),
    "not_bottleneck_input": _Spec(None, None),
    "route_vllm": _Spec(None, None),
    "serving_port": _Spec(None, None),
    "answer_again": _Spec("answer", None),
    "spot": _Spec(None, None),
}
#: steps whose words hold {step}: the framework check, in the workload's own terms.
_WITH_STEP_WORDS = frozenset({*_FRAMEWORK_CHECK.values(), "framework_check", "framework_check_as_is"})


def step_ids() -> list[str]:
    """Every step id whose words the content file must hold."""
    return list(_STEPS)


class StepSet(NamedTuple):
    """The steps with the words of one language."""

    #: (step id, for serving) -> step; only the framework checks differ between the two
    steps: dict[tuple[str, bool], Step]
    #: what each action's button says
    action_words: dict[Action, str]


def build_steps(text: DecisionText) -> StepSet:
    """The steps with the words of `text`; InputError naming the file and field when one is missing or wrong."""
    text.require("steps", text.steps, _STEPS)
    text.require("actions", text.actions, ACTIONS)
    steps: dict[tuple[str, bool], Step] = {}
    for sid, spec in _STEPS.items():
        words = text.steps[sid]
        fill = ("step",) if sid in _WITH_STEP_WORDS else ()
        plain = text.template(f"steps.{sid}.text", words.text, fill)
        if spec.command is None:
            if words.cli is not None:
                text.template(f"steps.{sid}.cli", words.cli, ())  # a step without a command has no cli form
            cli = words.cli or plain
        elif words.cli is None:
            raise text.problem(f"steps.{sid}.cli", "the step names a command: its cli form must hold {command}")
        else:
            cli = text.template(f"steps.{sid}.cli", words.cli, (*fill, "command"))
        for serving in (False, True):
            step_words = text.step_words.serving_step if serving else text.step_words.training_step
            steps[(sid, serving)] = Step(
                id=sid,
                text=plain.format(step=step_words),
                action=spec.action,
                command=spec.command,
                line=cli.format(step=step_words, command=spec.command),
            )
    action_words: dict[Action, str] = {action: text.actions[action] for action in ACTIONS}
    return StepSet(steps, action_words)


def steps_for(language: str | None = None) -> StepSet:
    """The steps with the words of `language` (None: the language in use), built once per language."""
    return _steps_for(language or i18n.current_language())


@functools.lru_cache(maxsize=8)
def _steps_for(language: str) -> StepSet:
    return build_steps(packaged_text(language))


#: what each action's button says in the window, in the language in use.
ACTION_WORDS: Mapping[Action, str] = InLanguage(lambda lang: _steps_for(lang).action_words)


@functools.lru_cache(maxsize=8)
def _by_line(language: str) -> dict[str, Step]:
    """Each step of one language by the line it prints (lines are unique: a test holds it)."""
    return {step.line: step for step in _steps_for(language).steps.values()}


def step_of_line(line: str) -> Step:
    """The step that prints `line` (a recommendation read back from JSON), in whichever shipped language
    it was written (the one in use first); a line no language knows (written by another version)
    becomes a step of its own words, with no action or command."""
    current = i18n.current_language()
    for language in (current, *(lang for lang in i18n.LANGUAGES if lang != current)):
        known = _by_line(language).get(line)
        if known is not None:
            return known
    return Step(id="unlisted", text=line, action=None, command=None, line=line)


def next_steps(
    values: dict[str, str | None],
    verdict: Verdict,
    blocker_factors: list[str],
    steps: StepSet | None = None,
    conflicts: list[tuple[str, ...]] | None = None,
) -> list[Step]:
    """Concrete checks for this verdict and these answers (and the factors of the blockers that apply, and
    the pairs of answers that contradict each other), in the words of `steps` (None: the language in use).
    Each step is listed only when the answers say it applies (tests/core/decision/test_steps_apply.py)."""
    steps = steps if steps is not None else steps_for()
    ids: list[str] = []
    tpu_possible = not blocker_factors
    inference = values["workload"] == "inference"
    serving = values["workload"] in ("inference", "both")
    large = values["scale"] in ("large", "massive")
    no_porting_time = values["porting_budget"] == "none"
    # the accelerator is not the bottleneck: that comes first, whatever the verdict
    if values["bottleneck"] == "cpu":
        ids.append("not_bottleneck_cpu")
    elif values["bottleneck"] == "input":
        ids.append("not_bottleneck_input")
    if len(conflicts or ()) >= 2:
        ids.append("answer_again")
    # code that already runs under XLA has no port to estimate: JAX or TensorFlow/Keras that ran cleanly, or
    # inference under a serving stack with its own TPU backend
    tpu_serving_stack = inference and values["serving_stack"] in ("vllm", "jetstream")
    runs_under_xla = (values["framework"] in ("jax", "tensorflow") and values["xla_verified"] == "yes") or (
        tpu_serving_stack
    )
    # an unfamiliar framework blocks only until the framework check says otherwise
    check_can_unblock = bool(blocker_factors) and all(f == "framework" for f in blocker_factors)
    # a PyTorch recommender reaches SparseCore only through a rewrite: a check of today's code misses the point
    torch_recommender = values["framework"] == "pytorch" and values["embeddings"] == "ultra_large"
    if torch_recommender and tpu_possible and verdict != "gpu":
        ids.append("rewrite_recommender")
    elif values["xla_verified"] is None and (check_can_unblock or (tpu_possible and verdict != "gpu")):
        # with no time to port, the check is of the code as it stands (no torch_xla port to try)
        general = "framework_check_as_is" if no_porting_time else "framework_check"
        ids.append(_FRAMEWORK_CHECK.get(values["framework"] or "", general))
    if verdict == "tpu" and tpu_possible:
        ids.append("generation_large" if large and not inference else "generation_serving")
        if serving and values["serving_stack"] == "vllm":
            ids.append("route_vllm")  # vLLM's own TPU backend, not a torch_xla port of the model
        elif values["framework"] in _ROUTE and not (
            values["framework"] == "pytorch" and (no_porting_time or torch_recommender)
        ):
            ids.append(_ROUTE[values["framework"] or ""])  # no torch_xla route for a team with no time to port
        ids.append("capacity")
    if tpu_possible and verdict != "gpu" and serving and values["serving_stack"] in ("tensorrt_llm", "sglang"):
        ids.append("serving_port")
    if tpu_possible and values["custom_ops"] == "some" and verdict != "gpu":
        ids.append("custom_ops")
    if tpu_possible and values["dynamic_shapes"] == "yes" and verdict != "gpu":
        ids.append("shapes")
    if tpu_possible and verdict != "gpu":
        ids.append("pilot_serving" if inference else "pilot")
        if values["high_precision"] == "fp32":
            ids.append("fp32_pilot")
        if values["matmul_share"] == "irregular":
            ids.append("gather_pilot")
        if values["xla_verified"] == "with_fallbacks":
            ids.append("fallback_pilot")
    if tpu_possible and verdict != "gpu" and values["data_pipeline"] != "fast" and not inference:
        ids.append("data_pipeline")
    # quota, queues and regions are a cloud's: not for one's own machines or a workstation
    in_cloud = values["deployment"] not in ("on_premises", "local")
    # a Spot user holds no reserved slice (no idle-slice warning) and is told about preemption instead
    spot = values["rental"] == "spot"
    if verdict == "either" and in_cloud:
        ids.append("queue")
    ported_easily = values["team"] == "xla" and values["porting_budget"] == "ample"
    if tpu_possible and verdict != "gpu" and not (ported_easily or runs_under_xla or no_porting_time):
        ids.append("porting")
    if tpu_possible and verdict == "tpu" and values["utilization"] != "steady" and not spot:
        ids.append("utilization")
    if spot and in_cloud:
        ids.append("spot")
    if verdict == "gpu":
        ids.append("gpu_memory")
        if values["high_precision"] == "fp64":
            ids.append("gpu_fp64")
        if (large or values["scale"] is None) and values["deployment"] != "local":
            ids.append("gpu_links")  # boards of 8 and racks: a data centre's, not a workstation's
        if serving:
            ids.append("gpu_quant")
        if values["burst_capacity"] == "yes" and in_cloud:
            ids.append("queue")
        not_settled = values["architecture_changes"] != "locked" and values["stage"] != "production"
        if tpu_possible and not_settled:
            ids.append("revisit")
        ids.append("gpu_choice")
    if values["deployment"] in ("other_cloud", "aws"):
        # AWS, the cloud most teams mean here, rents its own accelerators beside GPUs: named as a step to
        # weigh, never as a third verdict
        ids.append("aws_trainium")
    if open_questions(values):
        ids.append("answer")
    return [steps.steps[(sid, inference)] for sid in ids]
