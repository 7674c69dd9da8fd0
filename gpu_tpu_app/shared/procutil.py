"""Process calls the launchers share, with a fallback where the platform lacks them, and the sweep that ends
whatever a guarded launch left behind.

The process guard (worker/guard.py) ends everything below it when its command exits or it is told to
stop. It cannot when it is killed itself (`kill -9`, or a model file that kills its parent): what its
command started, a double-forked setsid daemon say, is then reparented away from it. Every guarded
process carries its launch's marker in its environment (probe/guarded.py, MARK_ENV), and a daemon forked
from the command inherits it, so once the guard has exited its launcher sweeps: every process that still
carries the marker is killed (end_marked). Linux reads /proc; where there is none the sweep finds nothing
and the guard's own clean-up is all there is.

Standard library only.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time

#: in every guarded process's environment: "<session>:<n>", one value per launch (probe/guarded.py).
MARK_ENV = "GPU_TPU_APP_GUARD_MARK"
#: the guard's last line on stderr when its command was ended by a signal (the number follows): a launcher
#: that sees the guard end by SIGKILL without this line knows the guard itself was killed (by its command,
#: which may kill its parent, or from outside) and does not blame the command's memory.
GUARD_SIGNAL_LINE = "process-guard: the command ended by signal "
#: the signal that cannot be caught, or the strongest there is on this platform.
SIGKILL: int = getattr(signal, "SIGKILL", signal.SIGTERM)
#: how long end_marked keeps killing processes that keep appearing before it gives up.
SWEEP_WITHIN_S = 2.0


def kill(pid: int, sig: int = SIGKILL) -> bool:
    """Send `sig` to `pid`; False when it is gone or not ours."""
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError, OSError):
        return False
    return True


def killpg(pgid: int, sig: int = SIGKILL) -> bool:
    """Send `sig` to the process group `pgid` (to the process alone where there are no groups)."""
    if not hasattr(os, "killpg"):
        return kill(pgid, sig)
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError, OSError):
        return False
    return True


def marked_pids(mark: str) -> list[int]:
    """Every process (but this one) whose environment carries MARK_ENV=`mark`; empty without /proc."""
    if not mark:
        return []
    needle = f"{MARK_ENV}={mark}".encode()
    me = os.getpid()
    found: list[int] = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if not name.isdigit() or int(name) == me:
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                environ = f.read(1 << 20)
        except OSError:
            continue  # gone, or someone else's
        if needle in environ.split(b"\0"):
            found.append(int(name))
    return found


def _reap(pid: int) -> None:
    with contextlib.suppress(ChildProcessError, OSError):
        os.waitpid(pid, os.WNOHANG)  # only when it is our child (adopted, or the guard itself)


def end_marked(mark: str, within_s: float = SWEEP_WITHIN_S) -> list[int]:
    """Kill every process that carries `mark` until none is left (or `within_s` has passed); the pids killed.

    Call it once the launch's guard has exited: anything still marked then escaped the guard."""
    killed: list[int] = []
    deadline = time.monotonic() + within_s
    while True:
        living = marked_pids(mark)
        if not living:
            return killed
        for pid in living:
            if kill(pid, SIGKILL) and pid not in killed:
                killed.append(pid)
            _reap(pid)
        if time.monotonic() > deadline:
            return killed
        time.sleep(0.01)
