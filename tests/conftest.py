"""Test set-up: offscreen Qt, and a private home so tests never touch the user's files."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable

# Both must happen before Qt, platformdirs or QSettings are imported anywhere.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_SANDBOX = tempfile.mkdtemp(prefix="gpu-tpu-app-tests-")
for _var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
    os.environ[_var] = os.path.join(_SANDBOX, _var.lower())
    os.makedirs(os.environ[_var], exist_ok=True)
os.environ["GPU_TPU_APP_TEST_SANDBOX"] = _SANDBOX

import pytest  # noqa: E402  # the environment above must be set first


@pytest.fixture
def sandbox_home() -> str:
    """The private folder that stands in for the user's home during tests."""
    return _SANDBOX


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    """Run `gpu-tpu-app ARGS...` in this process: returns (exit code, stdout, stderr)."""
    from gpu_tpu_app import cli

    def run(*argv: str) -> tuple[int, str, str]:
        code = cli.main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return run
