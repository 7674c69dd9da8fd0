"""Atomic file writes: a temporary file in the same folder, then a rename."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_bytes(path: str | Path, data: bytes) -> None:
    """Write `data` to `path` so that readers see the old file or the new one, never half of one."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, _target_mode(path))
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def _target_mode(path: Path) -> int:
    """Keep an existing file's permissions; a new file gets the usual 0666 less the umask."""
    try:
        return path.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_text(path: str | Path, text: str) -> None:
    """Atomic UTF-8 text write."""
    write_bytes(path, text.encode("utf-8"))
