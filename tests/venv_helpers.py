"""Second Python environments for tests: plain venvs (no pip, no frameworks) and ones with torch linked in."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

#: torch and what `import torch` needs, linked from this venv into the second one.
TORCH_DEPS = (
    "torch",
    "functorch",
    "torchgen",
    "typing_extensions",
    "sympy",
    "mpmath",
    "networkx",
    "jinja2",
    "markupsafe",
    "fsspec",
    "filelock",
)


def plain_venv(path: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True, timeout=120)
    return path / "bin" / "python"


def site_dir(python: Path) -> Path:
    out = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return Path(out.stdout.strip())


def link_frameworks(python: Path, names: tuple[str, ...]) -> None:
    """Give a plain venv these packages (and their metadata) from ours, through a .pth to a folder of links."""
    ours = Path(sysconfig.get_paths()["purelib"])
    linked = python.parent.parent / "linked"
    linked.mkdir()
    for entry in ours.iterdir():
        stem = entry.name.split("-")[0].removesuffix(".py")
        if stem.lower() in names:
            (linked / entry.name).symlink_to(entry)
    (site_dir(python) / "linked.pth").write_text(str(linked) + "\n")
