"""A saved session: the wizard's answers, notes, probe runs and the estimator's inputs.

The recommendation is derived from the answers every time (the engine is fast and
deterministic); a session file stores the verdict only as a convenience for other tools
and ignores it on load. Files are versioned JSON, written atomically. Pure Python: no Qt.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gpu_tpu_app import __version__
from gpu_tpu_app.atomic import write_text
from gpu_tpu_app.core.decision import Answers, Recommendation, decide, migrate_answers
from gpu_tpu_app.core.estimate import EstimateRequest, MeasuredDevice
from gpu_tpu_app.core.modelcheck import ModelCheck
from gpu_tpu_app.core.modelcheck.contract import FROM_FILE
from gpu_tpu_app.core.runs import RunFile
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.core.texts import text as _text  # where `text` is the file read
from gpu_tpu_app.errors import InputError, check_schema_version, from_validation, json_object
from gpu_tpu_app.safe_read import MAX_DATA_FILE_BYTES, NAME_CHARS, NOTES_CHARS, read_json_object, read_text
from gpu_tpu_app.shared.terms import functional_check_suffix
from gpu_tpu_app.shared.trust import is_functional_check, trusted_results

#: version 2: answers of schema 2 (high_precision "fp64" | "fp32" | "no", embeddings, other_cloud).
#: version 3: the model check may carry `tpu_compile`, the TPU compiler's outcome per generation.
#: version 4: its runs may be run files of schema 2 (each result's `notes`); an app that reads sessions up
#: to version 3 says the version is newer than it reads, rather than "unknown field" deep in a run.
SCHEMA_VERSION = 4
#: every session version this app opens; older files are migrated on load and saved as the current one.
SCHEMA_VERSIONS = (1, 2, 3, 4)
#: file-dialog filter and suffix of session files.
SUFFIX = ".json"


def _now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


class Session(BaseModel):
    """Everything the user worked on in one window; what File > Save writes."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, str_max_length=NAME_CHARS)

    schema_version: int = SCHEMA_VERSION
    app_version: str = __version__
    created: datetime = Field(default_factory=_now)
    modified: datetime = Field(default_factory=_now)
    answers: Answers = Answers()
    notes: str = Field("", max_length=NOTES_CHARS)
    runs: list[RunFile] = []
    estimate: EstimateRequest | None = None
    #: the last model check (Check my model…): the evidence shown beside the answers it measured.
    model_check: ModelCheck | None = None
    #: the verdict when the file was saved; informative only, recomputed from the answers on load.
    verdict: Literal["gpu", "tpu", "either"] | None = None

    def recommendation(self, flips: bool = True) -> Recommendation:
        """The engine's recommendation for these answers."""
        return decide(self.answers, flips=flips)

    def with_answers(self, answers: Answers) -> Session:
        """A copy with other answers."""
        return self.model_copy(update={"answers": answers})

    def with_runs(self, runs: list[RunFile]) -> Session:
        """A copy with other probe runs."""
        return self.model_copy(update={"runs": list(runs)})

    def with_notes(self, notes: str) -> Session:
        """A copy with other notes."""
        return self.model_copy(update={"notes": notes})

    def with_model_check(self, check: ModelCheck | None) -> Session:
        """A copy with another model check."""
        return self.model_copy(update={"model_check": check})

    def with_estimate(self, request: EstimateRequest | None) -> Session:
        """A copy with other estimator inputs."""
        return self.model_copy(update={"estimate": request})

    def measured_devices(self) -> list[MeasuredDevice]:
        """Each probed device's best successful matmul across the runs: the estimator's extra rows."""
        return measured_devices(self.runs)

    def same_content(self, other: Session) -> bool:
        """True when both hold the same answers, notes, runs and estimator inputs (times aside)."""
        keys = ("answers", "notes", "runs", "estimate", "model_check")
        return all(getattr(self, k) == getattr(other, k) for k in keys)


def measured_devices(runs: list[RunFile]) -> list[MeasuredDevice]:
    """Best trusted matmul (FLOP/s, any dtype) per device and host across `runs` (core.trust: flagged points
    never count); a figure from a smoke run says that it is a functional check, not a benchmark."""
    best: dict[tuple[str, str], tuple[float, str, RunFile]] = {}
    for run in runs:
        for r in trusted_results(run):
            if r.kernel != "matmul" or r.metric != "flops" or r.status != "ok" or not r.value or r.value <= 0:
                continue
            key = (run.host, r.device)
            if key not in best or r.value > best[key][0]:
                best[key] = (float(r.value), r.dtype or "", run)
    hosts = {run.host for run in runs}
    out = []
    for (host, dev_key), (flops, dtype, run) in best.items():
        dev = run.device(dev_key)
        name = dev.name if dev else dev_key
        backend = dev.backend if dev else dev_key.split(":")[0]
        detail = text("session.measured.detail_separator").join(x for x in (backend, dtype) if x)
        memory = float(dev.memory_bytes) if dev is not None and dev.memory_bytes else None
        check = functional_check_suffix() if is_functional_check(run) else ""
        ident = "session.measured.device_on_host" if len(hosts) > 1 else "session.measured.device"
        shown = text(ident, name=name, detail=detail, check=check, host=host)
        out.append(MeasuredDevice(name=shown, flops=flops, memory_bytes=memory, key=f"{host}/{dev_key}"))
    return out


def new_session() -> Session:
    """An empty session, created now."""
    return Session()


def dumps_session(session: Session) -> str:
    """The JSON text of a session file."""
    return session.model_dump_json(indent=2, by_alias=True) + "\n"


def save_session(session: Session, path: str | Path) -> Session:
    """Write `session` to `path` atomically; returns it with the save time and verdict filled in."""
    saved = session.model_copy(
        update={"modified": _now(), "app_version": __version__, "verdict": session.recommendation(flips=False).verdict}
    )
    write_text(path, dumps_session(saved))
    return saved


def loads_session(text: str, source: str | Path = "session") -> Session:
    """Parse session JSON; InputError '<source>: <field>: <problem>' for anything that is not one."""
    raw = json_object(text, source, _text("errors.what.session"))
    if "answers" not in raw or "schema_version" not in raw:
        if "results" in raw and "devices" in raw:
            raise InputError(f"{source}: answers: missing; this is a probe run file, open it with File > Import run")
        missing = "schema_version" if "schema_version" not in raw else "answers"
        raise InputError(f"{source}: {missing}: missing; this is not a gpu-tpu-app session file")
    version = raw["schema_version"]
    if isinstance(version, bool) or version not in SCHEMA_VERSIONS:
        check_schema_version(version, source, SCHEMA_VERSION)  # raises: names the file and the version read
    raw = dict(raw)
    raw.pop("verdict", None)  # derived, never trusted from a file
    if version < 2 and isinstance(raw["answers"], dict):
        # a version-1 file: its answers are version-1 answers (high_precision "yes" reads as "fp64")
        raw["answers"] = migrate_answers(raw["answers"], 1)
    # versions 2 to 3 and 3 to 4 added optional fields (model_check.tpu_compile, a run's result notes): nothing
    # to change
    raw["schema_version"] = SCHEMA_VERSION
    try:
        return Session.model_validate(raw, context=FROM_FILE)
    except ValidationError as exc:
        raise from_validation(source, exc) from None


def load_session(path: str | Path) -> Session:
    """Read a session file; InputError naming the file and field when it is broken or foreign."""
    path = Path(path)
    return loads_session(read_text(path, _text("errors.what.session"), MAX_DATA_FILE_BYTES), path)


def file_kind(path: str | Path) -> Literal["session", "run"]:
    """Whether `path` is a session file (it has answers) or a probe run file (it has results), as a file
    manager or `gpu-tpu-app FILE` hands it over; InputError naming the file when it is neither."""
    raw = read_json_object(path, _text("errors.what.session_or_run"), MAX_DATA_FILE_BYTES)
    if "answers" in raw:
        return "session"
    if "results" in raw:
        return "run"
    raise InputError(f"{path}: neither a gpu-tpu-app session (no answers) nor a probe run file (no results)")
