"""Atomic writes: old or new file, never half; symlinks, owner and mode kept; folder fsynced; full disks;
temporary files of interrupted saves cleaned up later."""

from __future__ import annotations

import errno
import os
import shutil
import stat
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pytest

from gpu_tpu_app import atomic
from gpu_tpu_app.core.session import load_session, new_session, save_session
from gpu_tpu_app.core.settings import Preferences, load_preferences, save_preferences


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_write_replaces_content_and_leaves_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "a.json"
    atomic.write_text(target, "one")
    atomic.write_text(target, "two")
    assert target.read_text() == "two"
    assert names(tmp_path) == ["a.json"]


def test_new_file_follows_umask_and_existing_mode_is_kept(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        target = tmp_path / "new.txt"
        atomic.write_text(target, "x")
        assert stat.S_IMODE(target.stat().st_mode) == 0o644
        target.chmod(0o600)
        atomic.write_text(target, "y")
        assert stat.S_IMODE(target.stat().st_mode) == 0o600
        os.umask(0o077)
        other = tmp_path / "private.txt"
        atomic.write_text(other, "z")
        assert stat.S_IMODE(other.stat().st_mode) == 0o600
    finally:
        os.umask(old)


def test_failed_rename_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "keep.txt"
    target.write_text("precious")

    def boom(*_a: object) -> None:
        raise OSError(errno.EXDEV, "rename refused")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError) as info:
        atomic.write_text(target, "half")
    assert info.value.filename == str(target)
    assert target.read_text() == "precious"
    assert names(tmp_path) == ["keep.txt"]


# ---------------------------------------------------------------- symlinks


def test_saving_to_a_symlink_writes_its_target_and_keeps_the_link(tmp_path: Path) -> None:
    real_dir = tmp_path / "real"
    real_dir.mkdir()
    real = real_dir / "session.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(os.path.join("real", "session.json"))  # relative, as `ln -s` makes them
    chain = tmp_path / "chain.json"
    chain.symlink_to(link)  # a link to a link

    atomic.write_text(link, "new")
    assert link.is_symlink() and os.readlink(link) == os.path.join("real", "session.json")
    assert real.read_text() == "new" and not real.is_symlink()

    atomic.write_text(chain, "newer")
    assert chain.is_symlink() and link.is_symlink()
    assert real.read_text() == "newer"
    assert names(real_dir) == ["session.json"] and names(tmp_path) == ["chain.json", "link.json", "real"]


def test_a_dangling_symlink_creates_the_file_it_names(tmp_path: Path) -> None:
    link = tmp_path / "prefs.json"
    link.symlink_to(tmp_path / "dotfiles" / "prefs.json")
    atomic.write_text(link, "{}")
    assert link.is_symlink()
    assert (tmp_path / "dotfiles" / "prefs.json").read_text() == "{}"


def test_a_symlink_loop_is_one_oserror_and_nothing_is_written(tmp_path: Path) -> None:
    loop = tmp_path / "loop.json"
    loop.symlink_to("loop.json")
    a, b = tmp_path / "a", tmp_path / "b"
    a.symlink_to("b")
    b.symlink_to("a")
    for path in (loop, a, a / "inside.json"):
        with pytest.raises(OSError) as info:
            atomic.write_text(path, "x")
        assert info.value.errno == errno.ELOOP and info.value.filename == str(path)
    assert names(tmp_path) == ["a", "b", "loop.json"]
    assert all(p.is_symlink() for p in tmp_path.iterdir())


def test_only_regular_files_are_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    null_link = tmp_path / "null.json"
    null_link.symlink_to(os.devnull)
    folder = tmp_path / "folder"
    folder.mkdir()
    for path, err in ((fifo, errno.EINVAL), (null_link, errno.EINVAL), (folder, errno.EISDIR)):
        with pytest.raises(OSError) as info:
            atomic.write_text(path, "x")
        assert info.value.errno == err and info.value.filename == str(path)
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and stat.S_ISCHR(os.stat(os.devnull).st_mode)
    assert names(tmp_path) == ["fifo", "folder", "null.json"] and names(folder) == []


def test_session_and_preferences_saved_through_a_symlink_keep_it(tmp_path: Path) -> None:
    store = tmp_path / "synced"
    store.mkdir()
    (store / "s.json").write_text("")
    (store / "prefs.json").write_text("")
    session_link, prefs_link = tmp_path / "s.json", tmp_path / "prefs.json"
    session_link.symlink_to(store / "s.json")
    prefs_link.symlink_to(store / "prefs.json")
    save_session(new_session(), session_link)
    save_preferences(Preferences(theme="dark"), prefs_link)
    assert session_link.is_symlink() and prefs_link.is_symlink()
    assert load_session(store / "s.json").schema_version == new_session().schema_version
    assert load_preferences(store / "prefs.json").theme == "dark"


# ---------------------------------------------------------------- owner, mode, durability


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a file to another user needs root")
def test_owner_group_and_mode_of_an_existing_file_are_kept(tmp_path: Path) -> None:
    target = tmp_path / "shared.json"
    target.write_text("old")
    os.chown(target, 65534, 65534)
    target.chmod(0o640)
    atomic.write_text(target, "new")
    st = target.stat()
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (65534, 65534, 0o640)
    assert target.read_text() == "new"


def test_the_folder_is_fsynced_after_the_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[tuple[str, str]] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        events.append(("fsync", "folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file"))
        real_fsync(fd)

    def replace(src: str, dst: str) -> None:
        events.append(("rename", Path(dst).name))
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    atomic.write_text(tmp_path / "run.json", "{}")
    assert events == [("fsync", "file"), ("rename", "run.json"), ("fsync", "folder")]


# ---------------------------------------------------------------- full disk


def test_a_full_disk_keeps_the_old_file_and_leaves_nothing(tmp_path: Path, full_disk) -> None:
    target = tmp_path / "run.json"
    target.write_text("the measured run")
    full_disk(4096)
    with pytest.raises(OSError) as info:
        atomic.write_bytes(target, b"x" * 100_000)
    assert info.value.errno == errno.ENOSPC and info.value.filename == str(target)
    assert target.read_text() == "the measured run"
    assert names(tmp_path) == ["run.json"]
    # a save into folders that did not exist removes the folders it made
    with pytest.raises(OSError):
        atomic.write_bytes(tmp_path / "new" / "deeper" / "report.md", b"y" * 100_000)
    assert names(tmp_path) == ["run.json"]


def test_a_failed_fsync_is_a_failed_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "a.txt"
    target.write_text("old")

    def fsync(fd: int) -> None:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(OSError) as info:
        atomic.write_text(target, "new")
    assert info.value.errno == errno.EIO and info.value.filename == str(target)
    assert target.read_text() == "old" and names(tmp_path) == ["a.txt"]


@pytest.fixture
def small_tmpfs(mount_tmpfs) -> Path:
    """A real 64 KiB tmpfs mounted for one test."""
    return mount_tmpfs("64k")


def test_a_real_full_tmpfs_keeps_the_old_file_and_frees_the_space(small_tmpfs: Path) -> None:
    target = small_tmpfs / "session.json"
    atomic.write_text(target, "saved earlier")
    free = shutil.disk_usage(small_tmpfs).free
    with pytest.raises(OSError) as info:
        atomic.write_bytes(target, os.urandom(256 * 1024))
    assert info.value.errno == errno.ENOSPC and info.value.filename == str(target)
    assert target.read_text() == "saved earlier"
    assert names(small_tmpfs) == ["session.json"]
    assert shutil.disk_usage(small_tmpfs).free == free
    atomic.write_text(target, "a small save still works")
    assert target.read_text() == "a small save still works"


# ---------------------------------------------------------------- interrupted saves


def test_temporary_files_of_an_interrupted_save_are_removed_by_a_later_save(tmp_path: Path) -> None:
    target = tmp_path / "big.json"
    target.write_text("old")
    # a save killed between the write and the rename (SIGKILL: no cleanup code runs)
    script = textwrap.dedent(f"""
        import os, signal
        from gpu_tpu_app import atomic
        os.fsync = lambda fd: os.kill(os.getpid(), signal.SIGKILL)
        atomic.write_bytes({str(target)!r}, b"x" * 1_000_000)
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=60)
    assert proc.returncode == -9, proc.stderr.decode()
    left = [p for p in tmp_path.iterdir() if p != target]
    assert len(left) == 1 and left[0].name.startswith(".big.json.") and left[0].name.endswith(atomic.TEMP_SUFFIX)
    assert target.read_text() == "old"

    # a fresh temporary file may belong to a save in progress: kept
    atomic.write_text(target, "new")
    assert left[0].exists()
    # once stale it is removed, as are stale ones of other files of ours; other files are not touched
    other_ours = tmp_path / f".report.md.{uuid.uuid4().hex[:8]}{atomic.TEMP_SUFFIX}"
    not_ours = tmp_path / ".big.json.tmp"
    other_ours.write_text("x")
    not_ours.write_text("x")
    old = time.time() - atomic.STALE_TEMP_S - 60
    for p in (left[0], other_ours, not_ours):
        os.utime(p, (old, old))
    atomic.write_text(target, "newer")
    assert names(tmp_path) == sorted([".big.json.tmp", "big.json"])
    assert target.read_text() == "newer"


def test_an_interrupt_during_a_save_removes_its_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "a.txt"
    target.write_text("old")

    def fsync(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(KeyboardInterrupt):
        atomic.write_text(target, "new")
    assert names(tmp_path) == ["a.txt"] and target.read_text() == "old"


def test_staged_files_are_invisible_until_committed(tmp_path: Path) -> None:
    first = atomic.stage(tmp_path / "sub" / "one.txt", b"1")
    second = atomic.stage(tmp_path / "two.txt", b"2")
    assert not (tmp_path / "sub" / "one.txt").exists() and not (tmp_path / "two.txt").exists()
    first.discard()
    second.commit()
    assert names(tmp_path) == ["two.txt"]  # the folder made for the discarded file is gone too
