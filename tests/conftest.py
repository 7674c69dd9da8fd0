"""Test set-up: offscreen Qt, and a private home so tests never touch the user's files."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

# Both must happen before Qt, platformdirs or QSettings are imported anywhere.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_SANDBOX = tempfile.mkdtemp(prefix="gpu-tpu-app-tests-")
for _var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
    os.environ[_var] = os.path.join(_SANDBOX, _var.lower())
    os.makedirs(os.environ[_var], exist_ok=True)
os.environ["GPU_TPU_APP_TEST_SANDBOX"] = _SANDBOX

import pytest  # noqa: E402  # the environment above must be set first


@pytest.fixture
def sandbox_home() -> str:
    """The private folder that stands in for the user's home during tests."""
    return _SANDBOX


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    """Run `gpu-tpu-app ARGS...` in this process: returns (exit code, stdout, stderr)."""
    from gpu_tpu_app import cli

    def run(*argv: str) -> tuple[int, str, str]:
        code = cli.main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture
def mount_tmpfs(tmp_path: Path) -> Iterator[Callable[[str], Path]]:
    """mount_tmpfs("64k"): a real tmpfs of that size for this test, unmounted afterwards; the test is
    skipped where mounting is not permitted (it needs Linux, mount(8) and root or CAP_SYS_ADMIN)."""
    mounted: list[Path] = []

    def mount(size: str) -> Path:
        if not sys.platform.startswith("linux") or shutil.which("mount") is None:
            pytest.skip("mounting a tmpfs needs Linux and mount(8)")
        mnt = tmp_path / f"tmpfs-{len(mounted)}"
        mnt.mkdir()
        proc = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0777", "tmpfs", str(mnt)], capture_output=True, text=True
        )
        if proc.returncode != 0:
            pytest.skip(f"mount -t tmpfs is not permitted here: {proc.stderr.strip() or proc.returncode}")
        mounted.append(mnt)
        return mnt

    yield mount
    for mnt in mounted:
        subprocess.run(["umount", str(mnt)], check=False)


@pytest.fixture
def full_disk(monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """full_disk(limit=0, err=ENOSPC): from now on, writes to the app's temporary files (atomic.py) store
    `limit` bytes in all and then fail with `err`, as a disk that runs full. Other files are untouched."""
    from gpu_tpu_app import atomic

    if not os.path.isdir("/proc/self/fd"):
        pytest.skip("the injected full disk tells the temporary file apart through /proc/self/fd")

    def fail(limit: int = 0, err: int = errno.ENOSPC) -> None:
        real = os.write
        written = {"n": 0}

        def write(fd: int, data: bytes) -> int:
            try:
                ours = os.readlink(f"/proc/self/fd/{fd}").endswith(atomic.TEMP_SUFFIX)
            except OSError:
                ours = False
            if not ours:
                return real(fd, data)
            room = limit - written["n"]
            if room <= 0:
                raise OSError(err, os.strerror(err))
            n = real(fd, bytes(data[:room]))
            written["n"] += n
            return n

        monkeypatch.setattr(os, "write", write)

    return fail
