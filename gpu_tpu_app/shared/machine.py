"""Which machine a run was measured on: a hashed machine id with the CPU model, not the host name alone.

Two machines may share a host name (every cloud VM called `vm`); the OS's machine id tells
them apart. The id is hashed with the CPU model before it is written to a run file, so a
shared file does not carry the raw id. Run files from before the field existed have
`machine` unset: they count as this machine only when both the host name and the CPU model
match (a run of another machine is then at worst listed as imported, never as local).
Pure Python: reads /proc and /etc only.
"""

from __future__ import annotations

import hashlib
import platform
import socket
import sys
from functools import lru_cache
from pathlib import Path
from typing import Protocol

#: Where Linux (systemd, then D-Bus) keeps the machine id.
MACHINE_ID_FILES = ("/etc/machine-id", "/var/lib/dbus/machine-id")
_MAX_ID = 256


def cpuinfo_fields(path: str | Path = "/proc/cpuinfo") -> dict[str, str]:
    """The fields of the first processor in /proc/cpuinfo ({} where the OS has none)."""
    fields: dict[str, str] = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read(1 << 20)
    except OSError:
        return fields
    for line in text.splitlines():
        if not line.strip():
            if fields:
                break  # the first processor is enough
            continue
        key, _, value = line.partition(":")
        fields.setdefault(key.strip(), value.strip())
    return fields


def cpu_model() -> str:
    """The CPU's marketing name, as the OS reports it."""
    fields = cpuinfo_fields()
    for key in ("model name", "Model Name", "Hardware", "cpu model"):
        if fields.get(key):
            return fields[key]
    return platform.processor() or platform.machine() or "unknown CPU"


def _raw_machine_id(files: tuple[str, ...] = MACHINE_ID_FILES) -> str | None:
    for name in files:
        try:
            with open(name, encoding="ascii", errors="replace") as fh:
                text = fh.read(_MAX_ID).strip()
        except OSError:
            continue
        if text:
            return text
    if sys.platform == "win32":
        try:
            import winreg

            with winreg.OpenKey(winreg.HKEY_LOCAL_MACHINE, r"SOFTWARE\Microsoft\Cryptography") as key:
                return str(winreg.QueryValueEx(key, "MachineGuid")[0])[:_MAX_ID]
        except OSError:
            return None
    return None


def machine_id(
    raw_id: str | None = None, cpu: str | None = None, *, files: tuple[str, ...] = MACHINE_ID_FILES
) -> str | None:
    """'m1-<16 hex>': the OS machine id hashed with the CPU model; None where the OS has no machine id."""
    raw = raw_id if raw_id is not None else _raw_machine_id(files)
    if not raw:
        return None
    digest = hashlib.sha256(f"gpu-tpu-app\n{raw}\n{cpu if cpu is not None else cpu_model()}".encode()).hexdigest()
    return f"m1-{digest[:16]}"


@lru_cache(maxsize=1)
def this_machine() -> str | None:
    """This machine's id (computed once per process)."""
    return machine_id()


class _RunLike(Protocol):
    @property
    def host(self) -> str: ...

    @property
    def machine(self) -> str | None: ...

    @property
    def cpu(self) -> object: ...


def is_this_machine(run: _RunLike, *, here: str | None = None, host: str | None = None, cpu: str | None = None) -> bool:
    """Whether `run` was measured on this machine.

    With a machine id on both sides they decide. Otherwise (an old file, or an OS without a
    machine id) the host name and the CPU model must both match.
    """
    here = this_machine() if here is None else here
    if run.machine and here:
        return run.machine == here
    host = socket.gethostname() if host is None else host
    cpu = cpu_model() if cpu is None else cpu
    model = getattr(run.cpu, "model", None)
    return run.host == host and model is not None and model == cpu
