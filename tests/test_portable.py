"""gpu_tpu_app/shared/portable.py: the POSIX calls, and the fallback each takes where the platform lacks them (the
attribute removed from `os`, as on Windows), on real processes and real files."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gpu_tpu_app import atomic
from gpu_tpu_app.shared import portable

# a parent that starts a child and prints its pid, then both sleep: a process group of two
PARENT = (
    "import subprocess, sys, time\n"
    "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
    "print(child.pid, flush=True)\n"
    "time.sleep(60)\n"
)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[-1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def _gone_within(pid: int, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not _alive(pid):
            return True
        time.sleep(0.02)
    return False


@pytest.fixture
def group():
    proc = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True, start_new_session=True)
    child = int(proc.stdout.readline())
    yield proc, child
    for pid in (proc.pid, child):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait(10)
    proc.stdout.close()


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="POSIX process groups")
def test_kill_group_ends_the_process_and_what_it_started(group) -> None:
    proc, child = group
    assert portable.kill_group(proc.pid)
    assert proc.wait(10) == -signal.SIGKILL
    assert _gone_within(child, 5)


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_without_process_groups_kill_group_ends_the_process_itself(group, monkeypatch: pytest.MonkeyPatch) -> None:
    proc, child = group
    monkeypatch.delattr(portable.os, "killpg")
    assert not portable.has_process_groups()
    assert portable.kill_group(proc.pid)
    assert proc.wait(10) == -portable.KILL_SIGNAL
    assert _alive(child)  # the fallback reaches the process alone (Windows uses taskkill /T for the tree)


def test_the_kill_signal_falls_back_to_sigterm_without_sigkill(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    assert int(getattr(signal, "SIGKILL", signal.SIGTERM)) == portable.KILL_SIGNAL
    assert portable.killed_exit_code() == -portable.KILL_SIGNAL
    if hasattr(signal, "SIGKILL"):
        monkeypatch.delattr(signal, "SIGKILL")
        reloaded = importlib.reload(portable)
        try:
            assert int(signal.SIGTERM) == reloaded.KILL_SIGNAL
        finally:
            monkeypatch.undo()
            importlib.reload(portable)
        assert int(signal.SIGKILL) == portable.KILL_SIGNAL


def test_fchmod_sets_the_mode_or_says_it_could_not(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "f"
    fd = os.open(path, os.O_CREAT | os.O_WRONLY, 0o600)
    try:
        assert portable.fchmod(fd, 0o640) is hasattr(os, "fchmod")
        if hasattr(os, "fchmod"):
            assert stat.S_IMODE(path.stat().st_mode) == 0o640
        monkeypatch.delattr(portable.os, "fchmod", raising=False)
        assert portable.fchmod(fd, 0o644) is False
        assert stat.S_IMODE(path.stat().st_mode) in (0o640, 0o600)  # left as it was
    finally:
        os.close(fd)


def test_an_atomic_write_works_without_fchmod(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "session.json"
    target.write_text("old")
    monkeypatch.delattr(portable.os, "fchmod", raising=False)
    atomic.write_text(target, "new")
    assert target.read_text() == "new"
    atomic.write_text(tmp_path / "fresh.json", "{}")  # a new file: its mode from the umask, where it can be set
    assert (tmp_path / "fresh.json").read_text() == "{}"
