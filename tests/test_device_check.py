"""tools/device_check.sh is a runnable script, and its checker refuses to confirm anything from a CPU-only run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_script_parses_and_has_a_time_limit() -> None:
    script = ROOT / "tools" / "device_check.sh"
    assert subprocess.run(["bash", "-n", str(script)], capture_output=True).returncode == 0
    text = script.read_text()
    assert "timeout" in text and "LIMIT" in text and "device_check.py" in text


@pytest.mark.slow
def test_checker_on_a_cpu_run_says_nothing_was_confirmed(tmp_path: Path) -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "gpu_tpu_app",
            "probe",
            "run",
            "--suite",
            "smoke",
            "--backend",
            "torch",
            "--kernel",
            "dispatch",
            "--out",
            str(tmp_path / "quick.json"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    check = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "device_check.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert check.returncode == 1
    assert "problem  accelerator found: no GPU or TPU" in check.stdout
    assert (tmp_path / "summary.json").is_file()
    missing = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "device_check.py"), str(tmp_path / "none")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1
