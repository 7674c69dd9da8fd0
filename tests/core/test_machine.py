"""'This machine' is told by a hashed machine id with the CPU model, not by the host name alone."""

from __future__ import annotations

import json
import socket
from datetime import UTC, datetime
from pathlib import Path

from gpu_tpu_app.core.runs import CpuInfo, RunFile, load_run
from gpu_tpu_app.shared import machine
from gpu_tpu_app.shared.machine import is_this_machine, machine_id

WHEN = datetime(2026, 3, 4, 5, 6, tzinfo=UTC)


def run_of(host: str, cpu: str | None, machine_field: str | None) -> RunFile:
    """A hand-written run header (no results): what the panel reads to sort local from imported runs."""
    return RunFile(
        app_version="0.1.0",
        host=host,
        machine=machine_field,
        os="Linux",
        python="3.11",
        cpu=CpuInfo(model=cpu) if cpu else None,
        suite="quick",
        started=WHEN,
    )


def test_machine_id_is_a_hash_of_the_os_id_and_the_cpu_model() -> None:
    a = machine_id("0123456789abcdef0123456789abcdef", "AMD EPYC 7B13")
    assert a is not None and a.startswith("m1-") and len(a) == 19
    assert "0123456789abcdef" not in a  # the raw id is never written out
    assert machine_id("0123456789abcdef0123456789abcdef", "AMD EPYC 7B13") == a  # stable
    assert machine_id("0123456789abcdef0123456789abcdef", "Intel Xeon Platinum 8481C") != a
    assert machine_id("fedcba9876543210fedcba9876543210", "AMD EPYC 7B13") != a


def test_machine_id_reads_the_first_id_file_and_is_none_without_one(tmp_path: Path) -> None:
    empty, real = tmp_path / "empty", tmp_path / "machine-id"
    empty.write_text("\n")
    real.write_text("0123456789abcdef0123456789abcdef\n")
    files = (str(tmp_path / "missing"), str(empty), str(real))
    assert machine_id(cpu="X", files=files) == machine_id("0123456789abcdef0123456789abcdef", "X")
    if machine.sys.platform != "win32":
        assert machine_id(cpu="X", files=(str(tmp_path / "missing"),)) is None


def test_two_machines_called_vm_are_not_the_same_machine() -> None:
    here = machine_id("1" * 32, "Intel Xeon Platinum 8481C")
    mine = run_of("vm", "Intel Xeon Platinum 8481C", here)
    other = run_of("vm", "AMD EPYC 7B13", machine_id("2" * 32, "AMD EPYC 7B13"))
    same_cpu_other_box = run_of("vm", "Intel Xeon Platinum 8481C", machine_id("3" * 32, "Intel Xeon Platinum 8481C"))
    kw = {"here": here, "host": "vm", "cpu": "Intel Xeon Platinum 8481C"}
    assert is_this_machine(mine, **kw)
    assert not is_this_machine(other, **kw)
    assert not is_this_machine(same_cpu_other_box, **kw)
    # a renamed host is still this machine
    assert is_this_machine(run_of("renamed", "Intel Xeon Platinum 8481C", here), **kw)


def test_old_files_without_the_field_need_host_and_cpu_to_match() -> None:
    kw = {"here": machine_id("1" * 32, "Intel Xeon Platinum 8481C"), "host": "vm", "cpu": "Intel Xeon Platinum 8481C"}
    assert is_this_machine(run_of("vm", "Intel Xeon Platinum 8481C", None), **kw)
    assert not is_this_machine(run_of("vm", "AMD EPYC 7B13", None), **kw)  # the case from issue 8
    assert not is_this_machine(run_of("vm", None, None), **kw)  # nothing to tell by: imported
    assert not is_this_machine(run_of("other", "Intel Xeon Platinum 8481C", None), **kw)


def test_a_run_file_without_machine_still_loads(tmp_path: Path) -> None:
    raw = json.loads(run_of(socket.gethostname(), "X", None).model_dump_json())
    del raw["machine"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(raw))
    assert load_run(path).machine is None


def test_runs_written_here_carry_this_machines_id() -> None:
    from gpu_tpu_app.probe.protocol import RunAssembler

    run = RunAssembler("smoke").finish()
    assert run.machine == machine.this_machine()
    assert is_this_machine(run)
