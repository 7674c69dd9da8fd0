"""check-model with bad model files: one line naming the file and the function, exit 2, never a traceback."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gpu_tpu_app import cli

pytestmark = pytest.mark.slow


def _fails(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    try:
        code = cli.main(["check-model", *argv])
    except SystemExit as stop:  # a bad flag value ends in the argument parser, as the command line does
        code = stop.code
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = _fails([str(tmp_path / "nope.py")], capsys)
    assert line == f"error: {tmp_path / 'nope.py'}: no such file"


def test_syntax_error_names_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "broken.py", "import os\n\ndef model(:\n    pass\n")
    line = _fails([str(path)], capsys)
    assert line.startswith(f"error: {path}:3")
    assert "SyntaxError" in line


def test_neither_entry_point(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "helpers.py", "def forward(p, x):\n    return x\n")
    line = _fails([str(path)], capsys)
    assert str(path) in line and "defines neither model()" in line and "found only forward()" in line


def test_exception_in_user_code_names_function_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pid_file = tmp_path / "pid"
    path = _write(
        tmp_path,
        "raises.py",
        "import os\n\n"
        "def model():\n"
        f"    open({str(pid_file)!r}, 'w').write(str(os.getpid()))\n"
        "    sizes = {'small': 1}\n"
        "    return sizes['large']\n\n"
        "def example_inputs():\n    return ()\n",
    )
    line = _fails([str(path)], capsys)
    assert line == f"error: {path}:6 in model(): KeyError: 'large'"
    # the user's code ran, but in another process than the CLI's
    assert int(pid_file.read_text()) != os.getpid()


def test_exception_inside_forward(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(
        tmp_path,
        "fwd.py",
        "import torch\n\nclass M(torch.nn.Module):\n    def forward(self, x):\n"
        "        return x @ torch.ones(5, 5)\n\n"
        "def model():\n    return M()\n\ndef example_inputs():\n    return (torch.ones(2, 3),)\n",
    )
    line = _fails([str(path)], capsys)
    assert line.startswith(f"error: {path}:5 in model().forward: RuntimeError:")


def test_hang_is_stopped_by_the_timeout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(
        tmp_path, "hang.py", "def model():\n    while True:\n        pass\n\ndef example_inputs():\n    return ()\n"
    )
    # a file that imports nothing reaches model() at once: 3 s proves the timeout without waiting 20
    line = _fails([str(path), "--timeout", "3"], capsys)
    assert line.startswith(f"error: {path} in model(): did not finish within 3 s")


def test_too_much_memory_is_stopped_by_the_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(
        tmp_path, "hog.py", "def model():\n    return bytearray(64 * 2**30)\n\ndef example_inputs():\n    return ()\n"
    )
    line = _fails([str(path), "--memory-limit", "1024"], capsys)
    assert line.startswith(f"error: {path}:2 in model(): ran out of memory")
    assert "1024 MiB" in line


def test_wrong_return_types_name_the_function(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(
        tmp_path, "wrong.py", "import torch\n\ndef model():\n    return 42\n\ndef example_inputs():\n    return ()\n"
    )
    line = _fails([str(path)], capsys)
    assert "in model(): model() must return a torch.nn.Module, got int" in line


def test_bad_flags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "m.py", "")
    assert "--timeout" in _fails([str(path), "--timeout", "0"], capsys)
    assert "--memory-limit" in _fails([str(path), "--memory-limit", "10"], capsys)


def test_jax_error_in_params_names_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(
        tmp_path,
        "jbad.py",
        "import jax.numpy as jnp\n\ndef params():\n"
        "    return {'w': jnp.ones((4, 4)) @ jnp.ones((5, 5))}\n\n"
        "def forward(p, x):\n    return x\n\n"
        "def example_inputs():\n    return (jnp.ones(3),)\n",
    )
    line = _fails([str(path)], capsys)
    assert line.startswith(f"error: {path}:4 in params(): TypeError: dot_general requires contracting dimensions")
