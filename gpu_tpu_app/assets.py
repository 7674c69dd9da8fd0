"""Access to the files shipped in the package (lesson, catalogue, icons, reference runs)."""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path


def resource_root() -> Path:
    """The folder that holds the packaged resources (also inside a frozen bundle)."""
    if getattr(sys, "frozen", False) and hasattr(sys, "_MEIPASS"):
        return Path(sys._MEIPASS) / "gpu_tpu_app" / "resources"
    return Path(str(resources.files("gpu_tpu_app.resources")))


def resource_path(*parts: str) -> Path:
    """Path of one packaged resource, e.g. resource_path("lesson", "lesson.toml")."""
    return resource_root().joinpath(*parts)
