"""The window's translation files: the .ts sources in resources/i18n/ and the .qm files built from them.

Each ``resources/i18n/<name>.<qt locale>.ts`` (``gpu_tpu_app_shell.zh_CN.ts``: one part per folder
of gpu_tpu_app/ui/) is kept with ``pyside6-lupdate`` (``make ts``) and compiled by ``pyside6-lrelease`` into the ``.qm`` beside it, which
``QTranslator`` loads (``ui/shell/translations.py``). The Makefile builds them (``make translations``,
part of ``make run``, ``make test`` and ``make bundle``), the wheel build does (``setup.py``), and
the tests do when a .ts is newer than its .qm (tests/conftest.py). Pure Python: no Qt import, so
the build and the tests can use it without a QApplication.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

FOLDER = "i18n"


class TranslationBuildError(RuntimeError):
    """lrelease is missing or failed: one line naming the .ts file."""


def ts_files(folder: Path) -> list[Path]:
    """The .ts files in `folder`, sorted."""
    return sorted(folder.glob("*.ts")) if folder.is_dir() else []


def qm_for(ts: Path) -> Path:
    """The .qm file built from `ts` (beside it)."""
    return ts.with_suffix(".qm")


def is_stale(ts: Path) -> bool:
    """True when `ts` has no .qm yet or was edited after its .qm was built."""
    qm = qm_for(ts)
    try:
        return not qm.is_file() or qm.stat().st_mtime < ts.stat().st_mtime
    except OSError:
        return True


def stale(folder: Path) -> list[Path]:
    """The .ts files in `folder` whose .qm is missing or older."""
    return [ts for ts in ts_files(folder) if is_stale(ts)]


def find_tool(name: str) -> Path | None:
    """PySide6's `name` tool (lrelease, lupdate): the pyside6-<name> script beside this interpreter,
    the binary inside the PySide6 package, or pyside6-<name> on PATH; None when there is none."""
    beside = Path(sys.executable).parent / f"pyside6-{name}"
    if beside.is_file() and os.access(beside, os.X_OK):
        return beside
    import importlib.util

    spec = importlib.util.find_spec("PySide6")
    for root in (spec.submodule_search_locations or []) if spec else []:
        for candidate in (Path(root) / name, Path(root) / "Qt" / "libexec" / name):
            if candidate.is_file() and os.access(candidate, os.X_OK):
                return candidate
    found = shutil.which(f"pyside6-{name}")
    return Path(found) if found else None


def compile_ts(ts: Path, qm: Path | None = None, lrelease: Path | None = None) -> Path:
    """Compile one .ts into its .qm (or `qm`); TranslationBuildError with lrelease's message otherwise."""
    tool = lrelease or find_tool("lrelease")
    if tool is None:
        raise TranslationBuildError(f"{ts}: pyside6-lrelease not found (it ships with PySide6; `make` installs it)")
    out = qm or qm_for(ts)
    proc = subprocess.run(
        [str(tool), "-silent", str(ts), "-qm", str(out)], capture_output=True, text=True, timeout=120, check=False
    )
    if proc.returncode != 0 or not out.is_file():
        message = (proc.stderr or proc.stdout).strip().splitlines()
        raise TranslationBuildError(f"{ts}: pyside6-lrelease failed: {message[-1] if message else proc.returncode}")
    return out


def build_stale(folder: Path) -> list[Path]:
    """Compile every .ts in `folder` whose .qm is missing or older; returns the .qm files written."""
    return [compile_ts(ts) for ts in stale(folder)]
