"""The window's check of a path that is not UTF-8: the same one line as the CLI, before any process starts."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from gpu_tpu_app.ui.probe.model_check import ModelCheckProcess

MODELS = Path(__file__).resolve().parents[1] / "data" / "models"


def test_a_path_that_is_not_utf8_ends_the_windows_check_with_the_clis_line(qtbot, tmp_path: Path) -> None:
    if os.name == "nt":  # pragma: no cover - bytes names are a POSIX thing
        pytest.skip("file names are bytes only on POSIX")
    name = os.fsdecode(b"mod\xff.py")
    try:
        shutil.copy(MODELS / "torch_unprintable_error.py", tmp_path / name)
    except (OSError, UnicodeError):  # pragma: no cover - a file system that refuses such names
        pytest.skip("this file system refuses names that are not UTF-8")
    process = ModelCheckProcess(str(tmp_path / name))
    with qtbot.waitSignal(process.sig_finished, timeout=5000) as blocker:
        process.start()
    (line,) = blocker.args
    assert line == (
        f"{tmp_path}/mod\\xff.py: the path is not valid UTF-8, which the check's worker cannot pass on; "
        "rename the file or its folder and check again"
    )
