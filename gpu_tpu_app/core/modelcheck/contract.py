"""The model check's two JSON contracts: what the worker sends (`Findings`, one line per message) and what
the check answers (`ModelCheck`, `check-model --format json`).

The worker (gpu_tpu_app.worker.modelcheck) runs the user's model file in its own process and prints JSON
lines; everything here validates them on the app's side of that line, with the README's limits on what
the app reads. Pure: pydantic and the standard library.
"""

from __future__ import annotations

import json
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator

from gpu_tpu_app.core.decision import CustomOps, Framework, HighPrecision, MatmulShare, YesNo
from gpu_tpu_app.core.note_model import Said
from gpu_tpu_app.core.tpu_compile import TpuCompile
from gpu_tpu_app.safe_read import NAME_CHARS

#: the value of `high_precision` that float64 in the model maps to. One place, so that the answer
#: model's change of this field's values is a one-line change here.
HIGH_PRECISION_FP64 = "fp64"
#: the answers the check can measure, in wizard order.
ANSWER_FIELDS: tuple[str, ...] = (
    "framework",
    "xla_verified",
    "custom_ops",
    "dynamic_shapes",
    "high_precision",
    "matmul_share",
)

Level = Literal[
    "compiled_for_tpu",
    "lowered_for_tpu",
    "lowered_for_tpu_torchax",
    "ran_under_torch_xla",
    "static_graph_captured",
    "dynamic_graph_captured",
    "failed",
]

#: the longest free text one field of the contract carries.
TEXT_CHARS = 2000
_Text = Field(default="", max_length=TEXT_CHARS)


def clip(value: object, limit: int = TEXT_CHARS) -> str:
    """`value` as text of at most `limit` characters, cut with "…" (a text is bounded where it is made, so
    that no joined reason can make a result fail its own contract); never raises, even for an object whose
    __str__ does."""
    try:
        text = value if isinstance(value, str) else str(value)
    except Exception as exc:
        text = f"(cannot be shown: its __str__ raised {type(exc).__name__})"
    return text if len(text) <= limit else text[: limit - 1] + "…"


class _Model(BaseModel):
    # the README's limits on what the app reads: a text without its own limit is a name (NAME_CHARS),
    # numbers are finite
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, str_max_length=NAME_CHARS)


class Located(_Model):
    """One thing found (a layout, a higher-order operator), where it is: file:line or "input N"."""

    name: str = Field(max_length=500)
    location: str | None = Field(default=None, max_length=500)


class CustomOp(_Model):
    name: str = Field(max_length=500)
    kind: str = Field(max_length=200)
    location: str | None = Field(default=None, max_length=500)


class Flops(_Model):
    matmul: int = Field(ge=0)
    other: int = Field(ge=0)
    method: str = _Text
    #: the work split by kind ("matrix multiplies", "FFTs", ...), as counted.
    kinds: dict[str, int] = Field(default_factory=dict, max_length=16)
    #: parameters an operator read during the pass, and tokens in the first input: the plausibility check.
    parameters_used: int | None = Field(default=None, ge=0)
    tokens: int | None = Field(default=None, ge=0)
    #: the notes of its text fields, so they show in the language in use (core.note_model.said)
    said: Said = Field(default_factory=dict)


class Stage(_Model):
    status: Literal["ok", "failed"]
    detail: str = _Text
    location: str | None = Field(default=None, max_length=500)
    #: sizes known only at run time in the captured graph (u0, u1, ... from .item(), .tolist(), nonzero).
    unbacked: list[str] = Field(default_factory=list, max_length=50)


class Lowering(_Model):
    status: Literal["ok", "failed", "unavailable"]
    route: str | None = Field(default=None, max_length=200)
    detail: str = _Text
    location: str | None = Field(default=None, max_length=500)
    custom_calls: list[str] = Field(default_factory=list, max_length=50)
    #: the notes of its text fields, so they show in the language in use (core.note_model.said)
    said: Said = Field(default_factory=dict)


class GraphBreak(_Model):
    reason: str = _Text
    location: str | None = Field(default=None, max_length=500)


class GraphBreaks(_Model):
    status: Literal["ok", "failed"]
    graphs: int | None = Field(default=None, ge=0)
    breaks: list[GraphBreak] = Field(default_factory=list, max_length=50)
    detail: str = _Text


class Programs(_Model):
    status: Literal["ok", "failed"]
    input_sets: int = Field(default=0, ge=0)
    shapes: int = Field(default=0, ge=0)
    programs_first: int = Field(default=0, ge=0)
    programs: int = Field(default=0, ge=0)
    method: str = _Text
    detail: str = _Text
    #: the notes of its text fields, so they show in the language in use (core.note_model.said)
    said: Said = Field(default_factory=dict)


class Fallback(_Model):
    name: str = Field(max_length=200)
    count: int = Field(default=0, ge=0)


class XlaRun(_Model):
    """One step under torch_xla on XLA's CPU device: the operators that fell back to the CPU, compiles."""

    status: Literal["ok", "failed", "unavailable"]
    detail: str = _Text
    location: str | None = Field(default=None, max_length=500)
    device: str | None = Field(default=None, max_length=100)
    fallbacks: list[Fallback] = Field(default_factory=list, max_length=50)
    compiles: int | None = Field(default=None, ge=0)
    compile_seconds: float | None = Field(default=None, ge=0, allow_inf_nan=False)
    #: the notes of its text fields, so they show in the language in use (core.note_model.said)
    said: Said = Field(default_factory=dict)


class Float64Use(_Model):
    op: str = Field(max_length=200)
    location: str | None = Field(default=None, max_length=500)


class DataDependent(_Model):
    what: str = _Text
    location: str | None = Field(default=None, max_length=500)
    #: the notes of its text fields, so they show in the language in use (core.note_model.said)
    said: Said = Field(default_factory=dict)


class HostCallback(_Model):
    name: str = Field(max_length=200)
    location: str | None = Field(default=None, max_length=500)


class Findings(_Model):
    """What the worker measured, validated on the app's side of the line."""

    framework: Literal["pytorch", "jax"]
    versions: dict[str, str] = Field(default_factory=dict, max_length=10)
    notes: list[Annotated[str, Field(max_length=2000)]] = Field(default_factory=list, max_length=20)
    parameters: int = Field(default=0, ge=0)
    parameter_bytes: int = Field(default=0, ge=0)
    inputs: str = _Text
    flops: Flops | None = None
    custom_ops: list[CustomOp] = Field(default_factory=list, max_length=50)
    float64: list[Float64Use] = Field(default_factory=list, max_length=50)
    float64_requested: list[str | None] | None = Field(default=None, max_length=50)
    data_dependent: list[DataDependent] = Field(default_factory=list, max_length=50)
    non_core_ops: list[str] = Field(default_factory=list, max_length=50)
    static_graph: Stage | None = None
    graph_breaks: GraphBreaks | None = None
    programs: Programs | None = None
    tpu_lowering: Lowering | None = None
    cuda_lowering: Lowering | None = None
    xla_run: XlaRun | None = None
    #: the TPU compiler's outcome per generation (core.tpu_compile); None when the worker did not try.
    tpu_compile: TpuCompile | None = None
    host_callbacks: list[HostCallback] = Field(default_factory=list, max_length=50)
    #: tensor layouts other than plain dense ones (sparse COO/CSR, nested, channels-last), with where.
    layouts: list[Located] = Field(default_factory=list, max_length=50)
    #: higher-order operators followed (torch.cond, while_loop, scan, flex_attention, ...).
    higher_order_ops: list[Located] = Field(default_factory=list, max_length=50)
    #: model() returned a torch.compile'd module: the check ran its original module (`_orig_mod`).
    compiled_module: bool = False
    #: the Python the worker ran in (the app's own, or the user's with --python).
    interpreter: str | None = Field(default=None, max_length=4096)
    #: an error raised inside the check's own instrumentation (the model itself ran).
    instrumentation_error: str | None = Field(default=None, max_length=2000)
    worker_seconds: float = Field(default=0.0, ge=0, allow_inf_nan=False)
    peak_rss_mb: float | None = Field(default=None, ge=0, allow_inf_nan=False)


class MeasuredAnswers(_Model):
    """The framework-check answers the measurements support; None where they cannot decide."""

    # the same types as the answer model's fields, so a measured value is always a valid answer
    framework: Framework | None = None
    xla_verified: YesNo | None = None
    custom_ops: CustomOps | None = None
    dynamic_shapes: YesNo | None = None
    high_precision: HighPrecision | None = None
    matmul_share: MatmulShare | None = None


#: validation context for a model check read from a file (a session, --model-check): its texts are refused
#: past their limits, naming the field, where a check made here cuts its own texts
FROM_FILE_KEY = "from_file"
FROM_FILE = {FROM_FILE_KEY: True}


class Evidence(_Model):
    """Why one answer has its value (or none): the finding and its detail, with file:line where known."""

    answer: str = Field(max_length=40)
    value: str | None = Field(default=None, max_length=40)
    finding: str = Field(max_length=TEXT_CHARS)
    detail: str = _Text

    @field_validator("finding", "detail", mode="before")
    @classmethod
    def _bounded(cls, value: object, info: ValidationInfo) -> object:
        # joined reasons (one per TPU generation, a route's detail) are cut where they are made, never rejected;
        # a file read back (FROM_FILE) is held to the limit instead, and an over-long field is named
        if isinstance(info.context, dict) and info.context.get(FROM_FILE_KEY):
            return value
        return clip(value) if isinstance(value, str) else value


class ModelCheck(_Model):
    """The result of `check-model`: the JSON contract (file, framework, level, answers, evidence, seconds)."""

    file: str = Field(max_length=4096)
    framework: Literal["pytorch", "jax"]
    level: Level
    answers: MeasuredAnswers
    evidence: list[Evidence] = Field(max_length=200)
    seconds: float = Field(ge=0, allow_inf_nan=False)
    #: compiled for the catalogue's TPU generations: per-chip memory, flops and bytes per generation
    #: (core.tpu_compile); None in checks made before the compile step existed, or when it was not tried.
    tpu_compile: TpuCompile | None = None

    def evidence_for(self, answer: str) -> list[Evidence]:
        """The evidence rows of one answer."""
        return [e for e in self.evidence if e.answer == answer]


# --------------------------------------------------------------------------- worker lines


class WorkerStage(_Model):
    type: Literal["stage"]
    stage: str = Field(max_length=200)
    function: str | None = Field(default=None, max_length=200)


class WorkerError(_Model):
    type: Literal["error"]
    kind: str = Field(max_length=40)
    message: str = Field(max_length=2000)
    function: str | None = Field(default=None, max_length=200)
    line: int | None = Field(default=None, ge=0)


class WorkerFindings(_Model):
    type: Literal["findings"]
    findings: Findings


def parse_worker_line(text: str) -> WorkerStage | WorkerError | WorkerFindings | None:
    """One line of the worker's stdout as a message; None for a line that is not one (never raises)."""
    text = text.strip()
    if not text.startswith("{") or len(text) > 1_000_000:
        return None
    try:
        raw = json.loads(text)
        kind = str(raw.get("type")) if isinstance(raw, dict) else ""
        models: dict[str, type[WorkerStage] | type[WorkerError] | type[WorkerFindings]] = {
            "stage": WorkerStage,
            "error": WorkerError,
            "findings": WorkerFindings,
        }
        model = models.get(kind)
        return model.model_validate(raw) if model is not None else None
    except (ValueError, RecursionError, ValidationError):
        return None


def findings_problem(raw: bytes) -> str:
    """The first field problem of a findings line that does not validate, in one line."""
    try:
        WorkerFindings.model_validate_json(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ()))
        return f"{where}: {first.get('msg', 'invalid')}"[:300]
    except ValueError as exc:
        return str(exc)[:300]
    return "unreadable"
