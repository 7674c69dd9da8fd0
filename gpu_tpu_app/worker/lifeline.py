"""Tie a worker process to its parent's life: when the CLI or the window dies, its workers die too.

A worker left running after its parent is gone measures for nobody and may hold a GPU for
good (a hung point never ends). Standard library only: this runs in the worker.

- Linux: prctl(PR_SET_PDEATHSIG, SIGKILL), so the kernel kills the worker the moment the
  thread that started it ends (the CLI's main thread, the window's GUI thread).
- Everywhere on POSIX (and as a second line on Linux): a daemon thread that watches os.getppid()
  (and the pid of the program that asked for the worker, in case a launcher sits between) and
  ends the worker, with its process group when it leads one, once the parent has changed.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable

#: The parent sets this to its pid in the worker's environment (protocol.worker_env), so a
#: worker whose parent died before the worker could look still notices.
PARENT_ENV = "GPU_TPU_APP_WORKER_PARENT"
#: How often the portable watcher looks at the parent pid.
POLL_S = 0.2
PR_SET_PDEATHSIG = 1


def _anchor() -> int | None:
    """The pid of the program that asked for this worker (PARENT_ENV), when it is a valid pid."""
    value = os.environ.get(PARENT_ENV, "")
    return int(value) if value.isdigit() and int(value) > 0 else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # POSIX only: on Windows os.kill would end the process
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True


def _set_pdeathsig(sig: int) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _end() -> None:
    """End this worker now; with the process group it leads, so helpers it started go too."""
    try:
        if os.getpgrp() == os.getpid():
            os.killpg(os.getpid(), signal.SIGKILL)
    except OSError:
        pass
    os._exit(1)


def _orphaned(parent: int, anchor: int | None) -> bool:
    """True once the parent has changed, or the program that asked for this worker is gone."""
    if os.getppid() != parent:
        return True
    return anchor is not None and anchor != parent and not _alive(anchor)


def _watch(parent: int, anchor: int | None, on_orphaned: Callable[[], None]) -> None:
    stop = threading.Event()
    while not stop.wait(POLL_S):
        if _orphaned(parent, anchor):
            on_orphaned()
            return


def tie_to_parent(sig: int = signal.SIGKILL, on_orphaned: Callable[[], None] | None = None) -> bool:
    """Make this worker end when its parent does (or the program that asked for it, when a launcher
    sits between them). Call first thing in the worker; returns False where this OS has no way.

    `sig` is what the kernel sends at the parent's death (SIGKILL; a process that must clean up first,
    like worker/guard.py, asks for SIGTERM and handles it); `on_orphaned` is what the watcher does
    once it sees the parent gone (default: end this process and the group it leads).
    Parent already gone: `on_orphaned` at once.
    """
    if os.name != "posix":
        return False
    end = on_orphaned or _end
    parent = os.getppid()
    anchor = _anchor()
    _set_pdeathsig(sig)
    # the parent may have died before prctl took effect, or even before this process looked
    if _orphaned(parent, anchor):
        end()
    threading.Thread(target=_watch, args=(parent, anchor, end), name="parent-watch", daemon=True).start()
    return True
