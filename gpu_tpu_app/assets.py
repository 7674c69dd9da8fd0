"""Access to the files shipped in the package (lesson, catalogue, icons, reference runs)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

PACKAGE = "gpu_tpu_app.resources"


def resource_root() -> Path:
    """The folder that holds the packaged resources (also inside a frozen bundle).

    The folder the import system finds for the resources package: what importlib.resources.files gives
    for a package on disk, without importing importlib.resources (tempfile, zipfile and the compressors
    behind it), so a command's start stays quick. Anything else (a package in a zip) goes through it.
    """
    if getattr(sys, "frozen", False) and hasattr(sys, "_MEIPASS"):
        return Path(sys._MEIPASS) / "gpu_tpu_app" / "resources"
    spec = importlib.util.find_spec(PACKAGE)
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    if len(locations) == 1 and Path(locations[0]).is_dir():
        return Path(locations[0])
    from importlib import resources

    return Path(str(resources.files(PACKAGE)))


def resource_path(*parts: str) -> Path:
    """Path of one packaged resource, e.g. resource_path("lesson", "lesson.toml")."""
    return resource_root().joinpath(*parts)
