"""A file name that is not UTF-8, and an error whose text cannot be had, are one clear line: never a
UnicodeEncodeError traceback, even on a terminal whose stdout is strict UTF-8 (any locale but C/POSIX)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gpu_tpu_app import safe_output
from gpu_tpu_app.commands import guarded
from gpu_tpu_app.core.runs import save_run
from gpu_tpu_app.errors import InputError

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="file names that are not UTF-8 (Linux)")

BAD = os.fsdecode(b"\xff")  # how Python carries a byte that is not UTF-8: U+DCFF


def _cli(tool: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    # PYTHONIOENCODING=utf-8: a strict stdout, as under en_US.UTF-8 (C.UTF-8 would write the raw bytes back)
    argv = [sys.executable, "-m", "gpu_tpu_app"] if tool == "app" else [str(Path(sys.executable).parent / tool)]
    return subprocess.run(
        [*argv, *args],
        capture_output=True,
        cwd=cwd,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        timeout=120,
    )


def test_shown_writes_a_byte_that_is_not_utf8_as_an_escape() -> None:
    assert safe_output.shown(f"run{BAD}.json") == "run\\xff.json"
    assert safe_output.shown("\ud800 plain é 中") == "\\ud800 plain é 中"


def test_a_run_file_whose_name_is_not_utf8_is_compared_not_a_traceback(tmp_path: Path) -> None:
    from tests.core.test_runs import run_file

    save_run(run_file(), tmp_path / f"run{BAD}.json")
    proc = _cli("gpu-tpu-probe", "compare", f"run{BAD}.json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert b"run\\xff.json" in proc.stdout and b"Traceback" not in proc.stderr


@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        ("app", ["decide", "--answers", f"missing{BAD}.json"], b"error: missing\\xff.json: no such file\n"),
        ("gpu-tpu-probe", ["compare", f"gone{BAD}.json"], b"error: gone\\xff.json: no such file\n"),
        (
            "app",
            ["estimate", "--params", "7e9", "--prices-from", f"none{BAD}"],
            b"error: --prices-from: none\\xff: no such file\n",
        ),
        ("gpu-tpu-probe", ["compare", "a.json", f"--bogus=x{BAD}"], b"--bogus=x\\xff (see --help)\n"),
    ],
    ids=["answers", "run-file", "price-folder", "parser"],
)
def test_a_path_that_is_not_utf8_is_one_line_and_exit_2(tool: str, args: list[str], expected: bytes, tmp_path) -> None:
    proc = _cli(tool, *args, cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.endswith(expected) and proc.stderr.count(b"\n") == 1, proc.stderr


def test_an_error_whose_text_raises_is_still_one_line(capsys) -> None:
    class Unprintable(InputError):
        def __str__(self) -> str:
            raise RuntimeError("no text")

    def fails() -> int:
        raise Unprintable("x")

    assert guarded(fails) == 2
    assert capsys.readouterr().err == "error: Unprintable\n"
