"""Python environments the probe can run in, and the provenance a run file keeps of them.

`PythonEnv` is one row of `gpu-tpu-probe envs` (and of the Probe page's environment list): an
interpreter, where it was found, and what its query reported. `EnvironmentInfo` is what a run
file records of the interpreter its workers ran in; `HostInfo` is one host of a collective run.
Pure Python + pydantic: no Qt, no torch, no jax.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from gpu_tpu_app import i18n
from gpu_tpu_app.core.texts import area_texts, reword, text
from gpu_tpu_app.safe_read import NAME_CHARS
from gpu_tpu_app.shared.cliutil import one_line

#: Where an environment was found, in the order the list shows them.
EnvKind = Literal["app", "active", "conda", "pyenv", "venv", "added"]
#: The frameworks whose versions the query reports.
FRAMEWORKS = ("torch", "jax", "jaxlib", "torch_xla")
#: The most framework and library versions one environment or host records.
MAX_VERSIONS = 256
#: Ranks of a run across processes are 0 .. MAX_RANK (a group of 65,536 processes).
MAX_RANK = 65_535
#: CPU cores of one host (today's largest machines have a few thousand).
MAX_CORES = 1_000_000
#: Oldest Python the worker code runs on (its syntax and the frameworks' own floor).
MIN_PYTHON = (3, 10)


class _Model(BaseModel):
    # the README's limits on what the app reads (run files hold EnvironmentInfo and HostInfo): a text
    # without its own limit is a name (NAME_CHARS), numbers are finite
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, str_max_length=NAME_CHARS)


def _shown(limit: int) -> BeforeValidator:
    """Text shown in a list: on one line (control characters, line breaks and bytes that are not UTF-8
    as escapes) and cut to `limit` characters, so no environment's answer can forge a row or a line."""

    def fix(value: object) -> object:
        if not isinstance(value, str):
            return value
        text = one_line(value.encode("utf-8", "backslashreplace").decode("utf-8"))
        return text if len(text) <= limit else text[: limit - 1] + "…"

    return BeforeValidator(fix)


Line40 = Annotated[str, _shown(40), Field(max_length=40)]
Line80 = Annotated[str, _shown(80), Field(max_length=80)]
Line100 = Annotated[str, _shown(100), Field(max_length=100)]
Line200 = Annotated[str, _shown(200), Field(max_length=200)]
Line500 = Annotated[str, _shown(500), Field(max_length=500)]
Path4096 = Annotated[str, _shown(4096), Field(max_length=4096)]


class FrameworkDevices(_Model):
    """What one framework sees in an environment: its devices, or why it sees none (texts on one line)."""

    framework: Literal["torch", "jax"]
    devices: list[Line200] = Field(default=[], max_length=256)
    error: Line500 | None = None


class PythonEnv(_Model):
    """One interpreter: where it is, how it was found, and what it can measure.

    Every text is on one line and within its length (an interpreter's answer, a folder's name, a
    cache file are untrusted): a longer or multi-line value is escaped and cut, never refused, so
    one odd environment cannot take the list down."""

    interpreter: Path4096
    name: Line200
    kind: EnvKind
    usable: bool = False
    problem: Line500 | None = None
    #: what was wrong with its answer without making it unusable (lines dropped), one line
    note: Line500 | None = None
    python: Line40 | None = None
    versions: dict[Line40, Line80] = Field(default={}, max_length=64)
    frameworks: list[FrameworkDevices] = Field(default=[], max_length=2)
    flavour: Line100 | None = None

    def summary(self) -> str:
        """'torch 2.13.0+cpu (cpu); jax 0.10.2 (cpu)' or the problem, in the language in use (a problem is
        the interpreter's own error line, kept in English like the other error lines)."""
        if not self.usable:
            return problem_words(self.problem) if self.problem else text("probe_app.envs.not_usable")
        parts = []
        for fw in self.frameworks:
            version = self.versions.get(fw.framework, "?")
            seen = ", ".join(fw.devices) if fw.devices else (fw.error or text("probe_app.envs.no_devices"))
            parts.append(text("probe_app.envs.framework", framework=fw.framework, version=version, seen=seen))
        return text("probe_app.envs.separator").join(parts)


def kind_words(kind: str, language: str | None = None) -> str:
    """How an environment was found, in the language in use: 'app', 'venv', 'conda' ... in English (the ids
    the cache and JSON keep), '本应用', '手动添加' ... in zh-Hans; an unknown kind as it is."""
    if f"envs.kind.{kind}" not in area_texts("probe_app", i18n.DEFAULT_LANGUAGE):
        return kind
    return text(f"probe_app.envs.kind.{kind}", language=language)


def problem_words(problem: str, language: str | None = None) -> str:
    """An environment's problem (kept in English: the cache, run files, JSON) in the language in use: a problem
    the app words itself is said again in that language, anything else (an OS error, a query's last line) as it is."""
    return reword("probe_app.envs.problem.", problem, language)


class EnvironmentInfo(_Model):
    """The interpreter a run's workers ran in: path, name, Python, framework versions, build flavour."""

    interpreter: str = Field(max_length=4096)
    name: str = Field(max_length=200)
    kind: str = Field(default="app", max_length=20)
    python: str | None = Field(default=None, max_length=40)
    versions: dict[str, str] = Field(default={}, max_length=MAX_VERSIONS)
    flavour: str | None = Field(default=None, max_length=100)


class HostInfo(_Model):
    """One host of a run across processes: its name, the ranks it ran, and its provenance."""

    host: str = Field(max_length=255)
    ranks: list[Annotated[int, Field(ge=0, le=MAX_RANK)]] = Field(min_length=1, max_length=MAX_RANK + 1)
    os: str | None = Field(default=None, max_length=300)
    python: str | None = Field(default=None, max_length=40)
    cpu: str | None = Field(default=None, max_length=300)
    cores: int | None = Field(default=None, ge=0, le=MAX_CORES)
    devices: list[str] = Field(default=[], max_length=256)
    versions: dict[str, str] = Field(default={}, max_length=MAX_VERSIONS)


_CUDA_TAG = re.compile(r"\+cu(\d+?)(\d)$")
_ROCM_TAG = re.compile(r"\+rocm([0-9.]+)$")


def build_flavour(versions: dict[str, str]) -> str | None:
    """The build a framework version names: '+cpu', 'CUDA 12.8', 'ROCm 6.2', 'TPU', from versions or tags.

    Reads torch's local version tag (2.13.0+cpu, 2.13.0+cu128, 2.5.1+rocm6.2), torch.version.cuda /
    hip, JAX's CUDA plugin and libtpu; None when nothing says.
    """
    parts: list[str] = []
    torch = versions.get("torch", "")
    if versions.get("torch_cuda") or versions.get("cuda_runtime"):
        parts.append(f"torch CUDA {versions.get('torch_cuda') or versions.get('cuda_runtime')}")
    elif versions.get("torch_hip") or versions.get("hip"):
        parts.append(f"torch ROCm {versions.get('torch_hip') or versions.get('hip')}")
    elif m := _CUDA_TAG.search(torch):
        parts.append(f"torch CUDA {m.group(1)}.{m.group(2)}")
    elif m := _ROCM_TAG.search(torch):
        parts.append(f"torch ROCm {m.group(1)}")
    elif torch.endswith("+cpu"):
        parts.append("torch +cpu")
    elif torch:
        parts.append(f"torch {torch}")
    for key, label in (("jax_cuda_plugin", "jax CUDA"), ("jax_rocm_plugin", "jax ROCm"), ("libtpu", "jax TPU")):
        if versions.get(key):
            parts.append(f"{label} ({key} {versions[key]})")
            break
    else:
        if versions.get("jaxlib"):
            parts.append("jax cpu")
    if versions.get("torch_xla"):
        parts.append(f"torch_xla {versions['torch_xla']}")
    return ", ".join(parts) or None
