"""The worker's side of the JSON-lines protocol: plain records, standard library only.

Workers may run in the user's own interpreter (a conda env or venv with CUDA, ROCm or TPU builds),
which has the frameworks but not this app's dependencies. So what runs there builds these
dataclasses and writes them as JSON; the app's side parses every line with the pydantic models in
core/runs.py (protocol.LineDecoder), where validation lives.

core/runs.py is the one declaration of the fields: each record's block between the "generated" marker
lines is written from the model of the same name by `python -m tools.gen_wire` (same names, order and
defaults; a test fails when this file is not what it writes). Edit a field in core/runs.py and run it;
the docstrings, methods and checks outside the blocks are written by hand. Records are keyword-only,
as pydantic's are. The to_dict methods leave out empty `notes` (and the other newer fields) so apps
that predate them still read the line, and write a text's notes from the text itself (a
shared.notes.Notes) when the record's own list is empty. `model_copy(update=...)` matches pydantic's so
kernel code reads the same.
"""

from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass, field
from typing import Any

from gpu_tpu_app.shared.notes import to_dicts

#: core.runs.SCHEMA_VERSION, written by python -m tools.gen_wire: 2 added each result's `notes`.
SCHEMA_VERSION = 2


class _Record:
    """Shared helpers: a copy with some fields changed, and a JSON-ready dict."""

    def model_copy(self, update: dict[str, Any] | None = None) -> Any:
        """A copy with the fields in `update` replaced."""
        return dataclasses.replace(self, **(update or {}))  # type: ignore[type-var]  # every record is a dataclass

    def to_dict(self) -> dict[str, Any]:
        """Every field, nested records as dicts, non-finite floats as None."""
        return _clean(dataclasses.asdict(self))  # type: ignore[call-overload]  # every record is a dataclass

    def model_dump(self, mode: str = "python") -> dict[str, Any]:
        """The same as to_dict (pydantic's name, for code that reads both kinds of record)."""
        return self.to_dict()


def _clean(value: Any) -> Any:
    if hasattr(value, "model_dump"):  # a pydantic model handed in by in-process callers (tests)
        value = value.model_dump(mode="json")
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


@dataclass(frozen=True, kw_only=True)
class CpuInfo(_Record):
    # --- generated from core/runs.py by python -m tools.gen_wire: do not edit ---
    model: str
    cores: int | None = None
    threads_used: int | None = None
    flags: list[str] = field(default_factory=list)
    caches: dict[str, int] = field(default_factory=dict)
    # --- end of generated fields ---


@dataclass(frozen=True, kw_only=True)
class DeviceInfo(_Record):
    # --- generated from core/runs.py by python -m tools.gen_wire: do not edit ---
    backend: str
    platform: str
    name: str
    index: int = 0
    count: int = 1
    memory_bytes: int | None = None
    versions: dict[str, str] = field(default_factory=dict)
    catalog_id: str | None = None
    cpu: CpuInfo | None = None
    cache_bytes: int | None = None
    memory_note: str | None = None
    memory_note_notes: list[dict[str, Any]] = field(default_factory=list)
    first_use_s: float | None = None
    # --- end of generated fields ---

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        found = to_dicts(self.memory_note) or self.memory_note_notes
        if found:
            out["memory_note_notes"] = found
        else:
            out.pop("memory_note_notes", None)  # a newer field: apps that predate it still read the line
        return out

    @property
    def key(self) -> str:
        """Stable id used by results: 'torch:cuda:0'."""
        return f"{self.backend}:{self.platform}:{self.index}"


def _with_notes(out: dict[str, Any], text: str | None, notes: list[dict[str, Any]]) -> dict[str, Any]:
    """`out` with the notes of `text` (core.notes) under "notes", or without the key when it has none."""
    found = to_dicts(text) or notes
    if found:
        out["notes"] = found
    else:
        out.pop("notes", None)  # a newer field: apps that predate it still read the line
    return out


@dataclass(frozen=True, kw_only=True)
class BackendStatus(_Record):
    # --- generated from core/runs.py by python -m tools.gen_wire: do not edit ---
    backend: str
    available: bool
    reason: str | None = None
    versions: dict[str, str] = field(default_factory=dict)
    notes: list[dict[str, Any]] = field(default_factory=list)
    # --- end of generated fields ---

    def to_dict(self) -> dict[str, Any]:
        return _with_notes(super().to_dict(), self.reason, self.notes)


@dataclass(frozen=True, kw_only=True)
class Stats(_Record):
    # --- generated from core/runs.py by python -m tools.gen_wire: do not edit ---
    median: float
    min: float
    max: float
    q1: float
    q3: float
    iqr: float
    cv: float
    reps: int
    seconds: float
    # --- end of generated fields ---


@dataclass(frozen=True, kw_only=True)
class DeviceState(_Record):
    """An NVIDIA device's clocks, temperature, power and throttle reasons at one moment (NVML)."""

    # --- generated from core/runs.py by python -m tools.gen_wire: do not edit ---
    sm_clock_mhz: float | None = None
    mem_clock_mhz: float | None = None
    temperature_c: float | None = None
    power_w: float | None = None
    throttle: list[str] = field(default_factory=list)
    memory_in_use_bytes: int | None = None
    peak_memory_bytes: int | None = None
    # --- end of generated fields ---

    def __post_init__(self) -> None:
        # the run file's rules (core.runs.DeviceState): a driver's odd reading is refused here, as there
        for name in ("sm_clock_mhz", "mem_clock_mhz", "power_w", "memory_in_use_bytes", "peak_memory_bytes"):
            value = getattr(self, name)
            if value is not None and not (isinstance(value, (int, float)) and math.isfinite(value) and value >= 0):
                raise ValueError(f"{name}: {value!r} is not a finite number of at least 0")
        if self.temperature_c is not None and not math.isfinite(self.temperature_c):
            raise ValueError(f"temperature_c: {self.temperature_c!r} is not finite")


@dataclass(frozen=True, kw_only=True)
class CollectiveInfo(_Record):
    """One collective point across processes: see core.runs.CollectiveInfo."""

    # --- generated from core/runs.py by python -m tools.gen_wire: do not edit ---
    op: str
    ranks: int
    hosts: int
    transport: str
    time_s: float
    algbw: float
    busbw: float
    # --- end of generated fields ---


@dataclass(frozen=True, kw_only=True)
class ProbeResult(_Record):
    # --- generated from core/runs.py by python -m tools.gen_wire: do not edit ---
    kernel: str
    backend: str
    device: str
    dtype: str | None = None
    size: int | None = None
    variant: str | None = None
    metric: str
    value: float | None = None
    unit: str = ""
    stats: Stats | None = None
    math_mode: str | None = None
    math_mode_notes: list[dict[str, Any]] = field(default_factory=list)
    status: str = "ok"
    message: str | None = None
    notes: list[dict[str, Any]] = field(default_factory=list)
    pct_spec: float | None = None
    pct_ceiling: float | None = None
    before: DeviceState | None = None
    after: DeviceState | None = None
    collective: CollectiveInfo | None = None
    # --- end of generated fields ---

    def label(self) -> str:
        """Short human label: 'matmul float32 4096'."""
        parts = [self.kernel, self.variant, self.dtype, None if self.size is None else str(self.size)]
        return " ".join(p for p in parts if p)

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        for key in ("before", "after", "collective"):  # newer fields: apps that predate them still read the line
            if out.get(key) is None:
                out.pop(key, None)
        notes = to_dicts(self.message) or self.notes  # the message's parts with their text ids (core.notes)
        if notes:
            out["notes"] = notes
        else:
            out.pop("notes", None)  # a newer field too
        mode_notes = to_dicts(self.math_mode) or self.math_mode_notes
        if mode_notes:
            out["math_mode_notes"] = mode_notes
        else:
            out.pop("math_mode_notes", None)
        return out


# ---------------------------------------------------------------- messages


@dataclass(frozen=True, kw_only=True)
class Hello(_Record):
    # --- generated from core/runs.py by python -m tools.gen_wire: do not edit ---
    type: str = "hello"
    backend: str | None = None
    versions: dict[str, str] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    pid: int | None = None
    cpu: CpuInfo | None = None
    # --- end of generated fields ---


@dataclass(frozen=True, kw_only=True)
class DeviceMsg(_Record):
    # --- generated from core/runs.py by python -m tools.gen_wire: do not edit ---
    type: str = "device"
    device: DeviceInfo
    # --- end of generated fields ---


@dataclass(frozen=True, kw_only=True)
class Progress(_Record):
    # --- generated from core/runs.py by python -m tools.gen_wire: do not edit ---
    type: str = "progress"
    done: int
    total: int
    kernel: str
    eta_s: float | None = None
    point: str | None = None
    backend: str | None = None
    device: str | None = None
    dtype: str | None = None
    size: int | None = None
    variant: str | None = None
    cap_s: float | None = None
    # --- end of generated fields ---


@dataclass(frozen=True, kw_only=True)
class ResultMsg(_Record):
    # --- generated from core/runs.py by python -m tools.gen_wire: do not edit ---
    type: str = "result"
    result: ProbeResult
    # --- end of generated fields ---

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "result": self.result.to_dict()}


@dataclass(frozen=True, kw_only=True)
class ErrorMsg(_Record):
    # --- generated from core/runs.py by python -m tools.gen_wire: do not edit ---
    type: str = "error"
    backend: str | None = None
    kernel: str | None = None
    message: str
    notes: list[dict[str, Any]] = field(default_factory=list)
    # --- end of generated fields ---

    def to_dict(self) -> dict[str, Any]:
        return _with_notes(super().to_dict(), self.message, self.notes)


@dataclass(frozen=True, kw_only=True)
class Done(_Record):
    # --- generated from core/runs.py by python -m tools.gen_wire: do not edit ---
    type: str = "done"
    ok: bool
    message: str | None = None
    notes: list[dict[str, Any]] = field(default_factory=list)
    # --- end of generated fields ---

    def to_dict(self) -> dict[str, Any]:
        return _with_notes(super().to_dict(), self.message, self.notes)


def dump_message(msg: _Record) -> str:
    """One line of JSON for a message, without the trailing newline."""
    return json.dumps({"schema_version": SCHEMA_VERSION, **msg.to_dict()}, separators=(",", ":"), allow_nan=False)
