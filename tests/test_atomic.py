"""Atomic writes keep the old file on failure and respect permissions."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from gpu_tpu_app import atomic


def test_write_replaces_content_and_leaves_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "a.json"
    atomic.write_text(target, "one")
    atomic.write_text(target, "two")
    assert target.read_text() == "two"
    assert [p.name for p in tmp_path.iterdir()] == ["a.json"]


def test_new_file_follows_umask_and_existing_mode_is_kept(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        target = tmp_path / "new.txt"
        atomic.write_text(target, "x")
        assert stat.S_IMODE(target.stat().st_mode) == 0o644
        target.chmod(0o600)
        atomic.write_text(target, "y")
        assert stat.S_IMODE(target.stat().st_mode) == 0o600
    finally:
        os.umask(old)


def test_failed_write_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "keep.txt"
    target.write_text("precious")

    def boom(*_a: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        atomic.write_text(target, "half")
    assert target.read_text() == "precious"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]
