"""The optional parts of the install (pyproject.toml's extras) and the line that names one a user lacks.

The base install has no framework. `probe run`, `check-model` and the Probe page run PyTorch and JAX in worker
processes, in the app's own Python or in another one the user names (`--python PATH`, the Probe page's list of
Pythons). Where a framework is missing they say which extra adds it to the app's own Python, or to choose a
Python that has it. Standard library and core.texts only (no Qt): the commands and the window share it.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Iterable
from typing import Any

from gpu_tpu_app.core.texts import text

#: importable module -> the extra that installs it (pyproject.toml [project.optional-dependencies])
EXTRA_FOR: dict[str, str] = {
    "torch": "torch",
    "jax": "jax",
    "libtpu": "tpu",
    "torchax": "tpu",
    "pynvml": "nvidia",
}
#: the worker's note for a backend it could not import (worker/detect.py)
NOT_INSTALLED_NOTE = "worker.detect.not_installed"
_NO_MODULE = re.compile(r"No module named '([A-Za-z_][A-Za-z0-9_]*)")


def installed_here(module: str) -> bool:
    """Whether `module` can be imported in this (the app's own) Python, without importing it."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def missing_here(modules: Iterable[str]) -> list[str]:
    """Those of `modules` this Python cannot import, in order."""
    return [m for m in modules if not installed_here(m)]


def install_hint(module: str, language: str | None = None) -> str:
    """One line: which extra adds `module` to the app's own Python, or to use a Python that has it."""
    if is_bundle():
        return text("extras.missing_bundle", language=language, module=module)
    extra = EXTRA_FOR.get(module, "all")
    return text("extras.missing", language=language, module=module, extra=extra, python=sys.executable)


def page_hint(module: str, language: str | None = None) -> str:
    """The Probe page's line under a framework that is not installed: the extra, or in a bundle another Python."""
    key = "extras.page_bundle" if is_bundle() else "extras.page"
    return text(key, language=language, module=module, extra=EXTRA_FOR.get(module, "all"))


def is_bundle() -> bool:
    """Whether the app runs from a frozen bundle (PyInstaller), which pip cannot add a framework to."""
    return bool(getattr(sys, "frozen", False))


def missing_in_error(message: str) -> str | None:
    """The framework module a worker's error says was not found ("No module named 'torch'"), if it is one an
    extra installs and this Python lacks it too; None otherwise."""
    for name in _NO_MODULE.findall(message):
        top = name.split(".", 1)[0]
        if top in EXTRA_FOR and not installed_here(top):
            return top
    return None


def backend_not_installed(status: Any) -> bool:
    """Whether a backend's status (core.runs.BackendStatus) says its framework is not installed."""
    if getattr(status, "available", True):
        return False
    return any(getattr(n, "id", None) == NOT_INSTALLED_NOTE for n in getattr(status, "notes", None) or ())
