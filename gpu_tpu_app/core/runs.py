"""Probe run files and the worker's JSON-lines stream, as versioned pydantic models.

A worker process writes one `Message` per line; the CLI and the GUI turn that stream into
a `RunFile`, which is what gets saved, opened, compared and exported. Pure Python: no Qt,
no torch, no jax.
"""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from gpu_tpu_app.atomic import write_text
from gpu_tpu_app.core.environments import EnvironmentInfo, HostInfo
from gpu_tpu_app.core.note_model import MessageNote
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.core.texts import text as _text
from gpu_tpu_app.errors import InputError, from_validation, shown
from gpu_tpu_app.safe_read import MAX_DATA_FILE_BYTES, NAME_CHARS, TEXT_CHARS, read_json_object
from gpu_tpu_app.shared.terms import Backend, Metric

#: The version this app writes. 2 added each result's `notes` (its message's parts with their text ids);
#: files and worker lines of version 1 are read as they are (their messages show in English).
SCHEMA_VERSION = 2
SCHEMA_VERSIONS = (1, 2)

Status = Literal["ok", "timeout", "error", "skipped", "suspect"]


#: a count or a size in bytes or elements: 0 or more, and small enough to be a float.
Count = Annotated[int, Field(ge=0, le=2**63 - 1)]
#: a rate (FLOP/s, B/s), a time in seconds or a percentage: finite (the model forbids NaN and
#: Infinity) and never negative.
NonNegative = Annotated[float, Field(ge=0)]
#: a message, a reason or an environment value: longer than a name, still bounded.
Text = Annotated[str, Field(max_length=TEXT_CHARS)]


class _Model(BaseModel):
    # every number finite, every string at most NAME_CHARS unless its field says otherwise
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, str_max_length=NAME_CHARS)


class CpuInfo(_Model):
    """The host CPU as the worker saw it: model, cores, threads used, ISA flags, cache sizes in bytes."""

    model: str
    cores: Count | None = None
    threads_used: Count | None = None
    flags: list[str] = []
    caches: dict[str, Count] = {}


class DeviceInfo(_Model):
    """One device a backend can measure, e.g. torch's CUDA device 0 or JAX's CPU."""

    backend: Backend
    platform: str
    name: str
    index: Count = 0
    count: Count = 1
    memory_bytes: Count | None = None
    versions: dict[str, Text] = {}
    catalog_id: str | None = None
    cpu: CpuInfo | None = None
    #: the device's own last-level cache in bytes where its runtime says (accelerators; CPUs: cpu.caches)
    cache_bytes: Count | None = None
    #: what memory_bytes is when it is not the device's total (e.g. JAX's allocator limit)
    memory_note: Text | None = None
    #: the memory note's parts with their text ids (schema 2), as a result's `notes` are its message's
    memory_note_notes: list[MessageNote] = Field([], max_length=8)
    #: seconds the worker's warm-up took before point 1 (context, BLAS handles, first compile), outside every cap
    first_use_s: NonNegative | None = None

    @property
    def key(self) -> str:
        """Stable id used by results: 'torch:cuda:0'."""
        return f"{self.backend}:{self.platform}:{self.index}"


class BackendStatus(_Model):
    """Whether a backend could be used in this run, and why not when it could not."""

    backend: Backend
    available: bool
    reason: Text | None = None
    versions: dict[str, Text] = {}
    #: the text's parts with their text ids (schema 2; core.note_text shows them in the language in use)
    notes: list[MessageNote] = Field([], max_length=64)


class Stats(_Model):
    """Repetition statistics of one point, in the result's SI unit (FLOP/s, B/s or s)."""

    median: NonNegative
    min: NonNegative
    max: NonNegative
    q1: NonNegative
    q3: NonNegative
    iqr: NonNegative
    cv: NonNegative
    reps: Count
    seconds: NonNegative


class DeviceState(_Model):
    """A device's state at one moment: clocks, temperature, power and throttle reasons (NVML on
    NVIDIA), memory in use (the JAX runtime on a TPU or GPU); what is not exposed stays None."""

    sm_clock_mhz: NonNegative | None = None
    mem_clock_mhz: NonNegative | None = None
    temperature_c: float | None = None
    power_w: NonNegative | None = None
    throttle: list[str] = []
    #: what the framework's runtime says of the device's memory (JAX memory_stats on a TPU or GPU)
    memory_in_use_bytes: Count | None = None
    peak_memory_bytes: Count | None = None


class CollectiveInfo(_Model):
    """A collective across processes (and hosts): op, who took part, and the three figures people quote.

    time_s is the median time of one operation (the latency, for small messages); algbw is the
    message size over that time; busbw is algbw scaled as nccl-tests do (all-reduce x 2(n-1)/n,
    all-gather and reduce-scatter x (n-1)/n), comparable with a link's bandwidth.
    """

    op: Literal["all_reduce", "all_gather", "reduce_scatter"]
    ranks: int = Field(ge=1)
    hosts: int = Field(ge=1)
    transport: str
    time_s: float = Field(gt=0, allow_inf_nan=False)
    algbw: float = Field(ge=0, allow_inf_nan=False)
    busbw: float = Field(ge=0, allow_inf_nan=False)


class ProbeResult(_Model):
    """One measured (or failed, timed out, skipped) point."""

    kernel: str
    backend: Backend
    device: str
    dtype: str | None = None
    size: Count | None = None
    variant: str | None = None
    metric: Metric
    value: NonNegative | None = None
    unit: str = ""
    stats: Stats | None = None
    math_mode: str | None = None
    #: the math mode's parts with their text ids (schema 2), as `notes` are the message's
    math_mode_notes: list[MessageNote] = Field([], max_length=8)
    status: Status = "ok"
    message: Text | None = None
    #: the message's parts with their text ids (schema 2; empty in older files and for plain messages)
    notes: list[MessageNote] = Field([], max_length=64)
    pct_spec: NonNegative | None = None
    pct_ceiling: NonNegative | None = None
    #: the device's state just before and just after the point (NVIDIA with nvidia-ml-py installed)
    before: DeviceState | None = None
    after: DeviceState | None = None
    collective: CollectiveInfo | None = None

    @property
    def measured(self) -> float:
        """The measured value, for a result the caller already knows has one (else ValueError)."""
        if self.value is None:
            raise ValueError(f"{self.label()}: no measured value")
        return float(self.value)

    def label(self) -> str:
        """Short human label: 'matmul float32 4096'."""
        parts = [self.kernel, self.variant, self.dtype, None if self.size is None else str(self.size)]
        return " ".join(p for p in parts if p)


# ---------------------------------------------------------------- stream messages


class _Msg(_Model):
    schema_version: int = SCHEMA_VERSION


class Hello(_Msg):
    """First line of a worker: its backend, library versions, kernel-changing environment and host CPU."""

    type: Literal["hello"] = "hello"
    backend: Backend | None = None
    versions: dict[str, Text] = {}
    env: dict[str, Text] = {}
    pid: Count | None = None
    cpu: CpuInfo | None = None


class DeviceMsg(_Msg):
    """A device the worker found."""

    type: Literal["device"] = "device"
    device: DeviceInfo


class Progress(_Msg):
    """The worker is starting point number `done + 1` of `total`; `point`.. describe it."""

    type: Literal["progress"] = "progress"
    done: Count
    total: Count
    kernel: str
    eta_s: NonNegative | None = None
    point: str | None = None
    backend: Backend | None = None
    device: str | None = None
    dtype: str | None = None
    size: Count | None = None
    variant: str | None = None
    cap_s: NonNegative | None = None


class ResultMsg(_Msg):
    """One result."""

    type: Literal["result"] = "result"
    result: ProbeResult


class ErrorMsg(_Msg):
    """A problem not tied to one result. With kernel=None before any device: the backend is unusable."""

    type: Literal["error"] = "error"
    backend: Backend | None = None
    kernel: str | None = None
    message: Text
    #: the text's parts with their text ids (schema 2; core.note_text shows them in the language in use)
    notes: list[MessageNote] = Field([], max_length=64)


class Done(_Msg):
    """Last line of a worker. ok=False when it stopped early (cancel, budget, missing backend)."""

    type: Literal["done"] = "done"
    ok: bool
    message: Text | None = None
    #: the text's parts with their text ids (schema 2; core.note_text shows them in the language in use)
    notes: list[MessageNote] = Field([], max_length=64)


class HostsMsg(_Msg):
    """A run across processes: every host with its ranks and provenance (sent once, by rank 0)."""

    type: Literal["hosts"] = "hosts"
    hosts: list[HostInfo] = Field(max_length=4096)


Message = Annotated[
    Hello | DeviceMsg | Progress | ResultMsg | ErrorMsg | Done | HostsMsg,
    Field(discriminator="type"),
]
_MESSAGE = TypeAdapter(Message)


class ProtocolError(ValueError):
    """A line on the worker stream that is not a message of this schema version."""


def parse_message(line: str | bytes) -> Message:
    """Parse one line of the worker stream into a Message; raises ProtocolError otherwise."""
    text = line.decode("utf-8", "replace") if isinstance(line, (bytes, bytearray)) else line
    text = text.strip()
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProtocolError(f"not a JSON line: {text[:80]!r}") from exc
    except RecursionError:
        raise ProtocolError(f"JSON nested too deeply: {text[:80]!r}") from None
    if not isinstance(raw, dict) or "type" not in raw:
        raise ProtocolError(f"not a probe message: {text[:80]!r}")
    version = raw.get("schema_version", SCHEMA_VERSION)
    if type(version) is not int or version not in SCHEMA_VERSIONS:
        raise ProtocolError(f"schema_version: {version!r} is not supported (this app reads {_versions()})")
    try:
        return _MESSAGE.validate_python(raw)
    except ValidationError as exc:
        raise ProtocolError(str(from_validation(f"{raw.get('type')} message", exc))) from exc


def dump_message(msg: _Msg) -> str:
    """One line of JSON for `msg`, without the trailing newline."""
    return msg.model_dump_json()


# ---------------------------------------------------------------- run file


class RunFile(_Model):
    """A whole probe run with its provenance; the file users save, open and compare."""

    schema_version: int = SCHEMA_VERSION
    app_version: str
    host: str
    #: hashed machine id + CPU model (core.machine.machine_id); None in files from before it was recorded
    machine: str | None = None
    os: str
    python: str
    cpu: CpuInfo | None = None
    devices: list[DeviceInfo] = []
    backends: list[BackendStatus] = []
    versions: dict[str, Text] = {}
    threads: Count | None = None
    env: dict[str, Text] = {}
    suite: str
    started: datetime
    ended: datetime | None = None
    complete: bool = False
    results: list[ProbeResult] = []
    errors: list[Text] = []
    #: the interpreter the workers ran in (files written before it was recorded have none)
    environment: EnvironmentInfo | None = None
    #: a run across processes: each host with its ranks and provenance (empty for one process)
    hosts: list[HostInfo] = []

    def device(self, key: str) -> DeviceInfo | None:
        """The device with this key ('torch:cpu:0'), or None."""
        return next((d for d in self.devices if d.key == key), None)

    def device_name(self, key: str) -> str:
        """The device's own name when this run describes it, else its key."""
        dev = self.device(key)
        return dev.name if dev else key


def load_run(path: str | Path) -> RunFile:
    """Read and validate a run file; InputError '<file>: <field>: <problem>' when it is not one we can read."""
    path = Path(path)
    raw = read_json_object(path, _text("errors.what.run"), MAX_DATA_FILE_BYTES)
    if "schema_version" not in raw or "results" not in raw:
        raise InputError(f"{path}: schema_version: {text('probe_app.run_file.missing')}")
    version = raw["schema_version"]
    if type(version) is not int or version not in SCHEMA_VERSIONS:
        supported = text("probe_app.run_file.versions", first=SCHEMA_VERSIONS[0], second=SCHEMA_VERSIONS[-1])
        problem = text("errors.version_not_supported", version=shown(json.dumps(version)), supported=supported)
        raise InputError(f"{path}: schema_version: {problem}")
    try:
        return RunFile.model_validate(raw)
    except ValidationError as exc:
        raise from_validation(path, exc) from None


def _versions() -> str:
    return text("probe_app.run_file.versions", first=SCHEMA_VERSIONS[0], second=SCHEMA_VERSIONS[-1])


def save_run(run: RunFile, path: str | Path) -> None:
    """Write `run` as indented JSON, atomically (readers never see half a file)."""
    current = run.model_copy(update={"schema_version": SCHEMA_VERSION})  # what it holds now is version 2's
    write_text(path, current.model_dump_json(indent=2) + "\n")


CSV_COLUMNS = (
    "host",
    "backend",
    "device",
    "device_name",
    "kernel",
    "variant",
    "dtype",
    "size",
    "metric",
    "value",
    "unit",
    "status",
    "message",
    "math_mode",
    "pct_spec",
    "pct_ceiling",
    "median",
    "min",
    "max",
    "q1",
    "q3",
    "iqr",
    "cv",
    "reps",
    "seconds",
)


#: what a spreadsheet reads as the start of a formula (or strips before one): a cell that begins with
#: one of these is written behind a single quote, so it stays text (OWASP, "CSV Injection").
FORMULA_LEADS = ("=", "+", "-", "@", "\t", "\r")


def inert_cell(value: object) -> object:
    """`value` as a CSV cell no spreadsheet runs: text that begins like a formula gets a leading quote;
    numbers (a negative one included) stay numbers. A carriage return inside the text becomes a line
    feed: the writer's rows end in "\n", so it quotes a cell holding "\n" but would leave a bare "\r"
    unquoted, and readers take that for the end of the row."""
    if not isinstance(value, str):
        return value
    if value.startswith(FORMULA_LEADS):
        value = "'" + value
    return value.replace("\r\n", "\n").replace("\r", "\n")


def to_csv(run: RunFile) -> str:
    """One CSV row per result (SI units), with a header; for spreadsheets and other tools. Text from the
    run (a host, a device name, a message: a shared run file may say anything) never starts a formula."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for r in run.results:
        dev = run.device(r.device)
        s = r.stats
        stats = [None] * 9 if s is None else [s.median, s.min, s.max, s.q1, s.q3, s.iqr, s.cv, s.reps, s.seconds]
        row = [
            run.host,
            r.backend,
            r.device,
            dev.name if dev else "",
            r.kernel,
            r.variant,
            r.dtype,
            r.size,
            r.metric,
            r.value,
            r.unit,
            r.status,
            r.message,
            r.math_mode,
            r.pct_spec,
            r.pct_ceiling,
            *stats,
        ]
        writer.writerow(["" if v is None else inert_cell(v) for v in row])
    return out.getvalue()
