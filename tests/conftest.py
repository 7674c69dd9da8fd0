"""Test set-up: offscreen Qt, and a private home so tests never touch the user's files."""

from __future__ import annotations

import os
import tempfile

# Both must happen before Qt, platformdirs or QSettings are imported anywhere.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_SANDBOX = tempfile.mkdtemp(prefix="gpu-tpu-app-tests-")
for _var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
    os.environ[_var] = os.path.join(_SANDBOX, _var.lower())
    os.makedirs(os.environ[_var], exist_ok=True)
os.environ["GPU_TPU_APP_TEST_SANDBOX"] = _SANDBOX

import pytest  # noqa: E402


@pytest.fixture
def sandbox_home() -> str:
    """The private folder that stands in for the user's home during tests."""
    return _SANDBOX
