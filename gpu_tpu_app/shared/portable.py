"""POSIX-only calls with their fallback on other platforms (Windows), in one place.

Linux is where the app is tested; macOS has every call here; on Windows there are no process groups, no
SIGKILL and (before Python 3.13) no os.fchmod, so each helper says what it does there instead. Standard
library only: the worker side may import it.
"""

from __future__ import annotations

import os
import signal
import subprocess

#: the signal that ends a process at once: SIGKILL, or on Windows SIGTERM (which os.kill turns into
#: TerminateProcess there, the same unconditional end)
KILL_SIGNAL: int = int(getattr(signal, "SIGKILL", signal.SIGTERM))


def has_process_groups() -> bool:
    """Whether this platform can signal a whole process group (os.killpg)."""
    return hasattr(os, "killpg")


def kill_group(pid: int, sig: int = KILL_SIGNAL) -> bool:
    """Send `sig` to the process group led by `pid` (started with start_new_session / setsid), so what the
    process started goes with it. Without process groups (Windows): `taskkill /T /F` ends the process and its
    children; failing that, the process alone. False when the process was already gone."""
    try:
        if has_process_groups():
            os.killpg(pid, sig)
            return True
        if os.name == "nt":
            done = subprocess.run(
                ["taskkill", "/T", "/F", "/PID", str(pid)], capture_output=True, timeout=10, check=False
            )
            if done.returncode == 0:
                return True
        os.kill(pid, sig)
        return True
    except (ProcessLookupError, OSError, subprocess.SubprocessError):
        return False


def killed_exit_code() -> int:
    """The exit code a killed process reports (-SIGKILL on POSIX), for a QProcess crash without one."""
    return -KILL_SIGNAL


def fchmod(fd: int, mode: int) -> bool:
    """os.fchmod where the platform has it; False (the mode left as the platform made it) where it has not
    (Windows before Python 3.13, whose files have only a read-only flag)."""
    if not hasattr(os, "fchmod"):
        return False
    os.fchmod(fd, mode)
    return True
