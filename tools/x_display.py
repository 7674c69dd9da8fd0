"""A real X display for the window's tests and screenshots: Xvfb at a given screen size with the openbox
window manager (so windows get real frames, title bars and placement), torn down afterwards."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def x_display(width: int, height: int, window_manager: bool = True) -> Iterator[str]:
    """Start Xvfb (and openbox) on a free display; yields ':N'."""
    xvfb = shutil.which("Xvfb")
    assert xvfb, "Xvfb is missing: `make test` installs the Debian package xvfb"
    read_fd, write_fd = os.pipe()
    server = subprocess.Popen(
        [xvfb, "-displayfd", str(write_fd), "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp"],
        pass_fds=(write_fd,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_fd)
    with os.fdopen(read_fd) as fh:
        number = fh.readline().strip()
    wm = None
    try:
        assert number.isdigit(), "Xvfb did not report a display"
        display = f":{number}"
        if window_manager:
            openbox = shutil.which("openbox")
            assert openbox, "openbox is missing: `make test` installs the Debian package openbox"
            env = {**os.environ, "DISPLAY": display}
            wm = subprocess.Popen(
                [openbox, "--sm-disable"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            time.sleep(0.8)  # openbox takes the screen before the first window maps
        yield display
    finally:
        for proc in (wm, server):
            if proc is not None:
                proc.terminate()
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
