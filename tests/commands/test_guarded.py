"""commands.guarded: the one place where a command's errors become one line and an exit code."""

from __future__ import annotations

import pytest

from gpu_tpu_app.commands import guarded
from gpu_tpu_app.errors import InputError


def _raise(exc: BaseException) -> int:
    raise exc


def test_bad_input_is_one_line_on_stderr_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert guarded(lambda: _raise(InputError("run.json: results[0].value: not a number"))) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == "error: run.json: results[0].value: not a number\n"


def test_ctrl_c_is_exit_130_and_a_closed_pipe_ends_quietly(capsys: pytest.CaptureFixture[str]) -> None:
    assert guarded(lambda: _raise(KeyboardInterrupt())) == 130
    assert guarded(lambda: _raise(BrokenPipeError())) == 0
    assert capsys.readouterr().err == ""


def test_the_command_s_own_code_and_other_errors_pass_through() -> None:
    assert guarded(lambda: 1) == 1
    with pytest.raises(ZeroDivisionError):  # a bug is not turned into a quiet exit code
        guarded(lambda: 1 // 0)
