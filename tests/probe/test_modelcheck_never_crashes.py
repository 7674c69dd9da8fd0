"""The check never crashes on a model file: what cannot be printed or passed on is one line and exit 2, in the
text and JSON output alike, through the real worker."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from gpu_tpu_app import cli

MODELS = Path(__file__).resolve().parents[1] / "data" / "models"


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(["check-model", *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.mark.slow
def test_an_exception_whose_str_raises_is_the_files_error(capsys: pytest.CaptureFixture[str]) -> None:
    file = str(MODELS / "torch_unprintable_error.py")
    code, out, err = _run([file, "--tpu-chips", "0"], capsys)
    assert code == 2 and out == ""
    (line,) = err.strip().splitlines()
    # the user's file, the line that raised, the function, and the exception named though its message is not
    assert line.startswith(f"error: {file}:20 in model()"), line
    assert "ShapeMismatch" in line and "cannot be shown" in line and "AttributeError" in line
    code, out, _ = _run([file, "--tpu-chips", "0", "--format", "json"], capsys)
    assert code == 2 and json.loads(out)["error"] == line.removeprefix("error: ")


def test_a_path_that_is_not_utf8_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if os.fsencode("x") != b"x" or os.name == "nt":  # pragma: no cover - bytes names are a POSIX thing
        pytest.skip("file names are bytes only on POSIX")
    name = os.fsdecode(b"mod\xff.py")
    try:
        shutil.copy(MODELS / "torch_unprintable_error.py", tmp_path / name)
    except (OSError, UnicodeError):  # pragma: no cover - a file system that refuses such names
        pytest.skip("this file system refuses names that are not UTF-8")
    file = str(tmp_path / name)
    code, out, err = _run([file], capsys)
    assert code == 2 and out == ""
    shown = f"{tmp_path}/mod\\xff.py"
    assert err.strip() == (
        f"error: {shown}: the path is not valid UTF-8, which the check's worker cannot pass on; "
        "rename the file or its folder and check again"
    )
    code, out, _ = _run([file, "--format", "json"], capsys)
    assert code == 2 and json.loads(out) == {"error": err.strip().removeprefix("error: "), "file": shown}


@pytest.mark.slow
def test_a_torch_cond_model_is_a_result_that_blames_the_route_not_a_crash(capsys: pytest.CaptureFixture[str]) -> None:
    # before: the compile child kept running after torchax said "unavailable", and its four 600-character
    # reasons joined in one evidence detail raised out of the contract (exit 1, a traceback, no JSON)
    file = str(MODELS / "torch_cond_gate.py")
    code, out, err = _run([file, "--format", "json"], capsys)
    assert code == 0, err
    result = json.loads(out)
    assert result["answers"]["xla_verified"] is None  # not "no": the model is not shown to be the cause
    details = " ".join(e["detail"] for e in result["evidence"] if e["answer"] == "xla_verified")
    assert "a limit of this route, not a verdict on the model" in details
    assert result["tpu_compile"]["status"] == "failed" and result["tpu_compile"]["failure"] == "not_run"
    assert all(len(e["detail"]) <= 2000 for e in result["evidence"])
