"""Start an untrusted command under the process guard (worker/guard.py), and end it: the launcher side.

Used for the model-check worker (probe/modelcheck_launch.py) and for each interpreter `envs` queries
(probe/envs.py): the guard ends everything the command starts, dies with the CLI or window that
started it, and can hold the command to a memory limit it cannot lift.

Every guarded process carries MARK_ENV in its environment ("<session>:<n>", the session being
SESSION_ENV when set, else the launcher's pid), so a test (or a user with
`grep -l GPU_TPU_APP_GUARD_MARK /proc/*/environ`) can find anything left behind.
"""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from gpu_tpu_app.shared import procutil
from gpu_tpu_app.shared.procutil import MARK_ENV
from gpu_tpu_app.worker.lifeline import PARENT_ENV

__all__ = ["MARK_ENV", "guard_command", "marked", "new_mark", "start", "stop", "sweep"]
#: names the marker's session (the test suite sets it, so that its CLI subprocesses' checks are found too).
SESSION_ENV = "GPU_TPU_APP_GUARD_SESSION"
#: how long the guard gets to end its command's processes after SIGTERM before it is killed itself.
STOP_GRACE_S = 3.0
#: how long the guard may take to start its command (one Python start-up, on a busy machine).
START_TIMEOUT_S = 60.0
_COUNT = itertools.count(1)


def guard_command(
    argv: Sequence[str],
    memory_limit_mb: int = 0,
    status_fd: int | None = None,
    report_signal: bool = False,
    forward_interrupt: bool = False,
) -> list[str]:
    """argv that runs `argv` under the guard: this same program with the hidden process-guard subcommand.
    `report_signal`: the guard's last stderr line names the signal that ended the command (procutil.
    GUARD_SIGNAL_LINE), so that the launcher tells a killed command from a killed guard."""
    base = (
        [sys.executable, "process-guard"]
        if getattr(sys, "frozen", False)  # a PyInstaller bundle (protocol.frozen; imported here it would cycle)
        else [sys.executable, "-m", "gpu_tpu_app.worker.guard"]
    )
    opts = ["--memory-limit-mb", str(int(memory_limit_mb))] if memory_limit_mb > 0 else []
    if status_fd is not None:
        opts += ["--status-fd", str(status_fd)]
    if report_signal:
        opts += ["--report-signal", "1"]
    if forward_interrupt:  # SIGINT reaches the command's group (a probe worker stops and says done)
        opts += ["--forward-interrupt", "1"]
    return [*base, *opts, "--", *map(str, argv)]


def new_mark() -> str:
    """A marker value no other launch uses: "<session>:<pid>-<n>". The pid keeps launches of different
    processes apart when they share a session (a CLI the window or the test suite started inherits it, and
    its counter starts at 1 as its parent's did): one's sweep must never end the other's processes."""
    return f"{os.environ.get(SESSION_ENV) or os.getpid()}:{os.getpid()}-{next(_COUNT)}"


def marked(env: Mapping[str, str]) -> dict[str, str]:
    """`env` with this launch's marker and the launcher's pid (the guard's lifeline anchor)."""
    out = dict(env)
    out[MARK_ENV] = new_mark()
    out.setdefault(PARENT_ENV, str(os.getpid()))
    return out


def start(
    argv: Sequence[str], *, env: Mapping[str, str], memory_limit_mb: int = 0, report_signal: bool = False, **popen: Any
) -> subprocess.Popen:
    """Popen of `argv` under the guard, in a session of its own. Raises OSError as Popen would when
    `argv` cannot be executed (the guard reports the errno once it tried)."""
    read_fd, write_fd = os.pipe()
    env = marked(env)
    try:
        proc = subprocess.Popen(
            guard_command(argv, memory_limit_mb, write_fd, report_signal),
            env=env,
            pass_fds=(write_fd,),
            start_new_session=True,
            **popen,
        )
    finally:
        os.close(write_fd)
    proc.guard_mark = env[MARK_ENV]  # type: ignore[attr-defined]  # for stop()'s sweep
    try:
        status = _read_status(read_fd, proc)
    finally:
        os.close(read_fd)
    if status.startswith(b"E"):
        stop(proc)
        number = int(status[1:]) if status[1:].isdigit() else 0
        raise OSError(number, os.strerror(number) if number else "cannot be executed", str(argv[0]))
    return proc


def _read_status(fd: int, proc: subprocess.Popen) -> bytes:
    import selectors

    data = b""
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        while sel.select(START_TIMEOUT_S):
            chunk = os.read(fd, 64)
            if not chunk:
                break
            data += chunk
    if not data and proc.poll() is not None:
        return b"E0"  # the guard itself did not start
    return data


def sweep(mark: str | None) -> list[int]:
    """After a guard has exited: kill whatever of its launch is still alive (it was killed before it could
    clean up: by kill -9, or by the model file it guarded). The pids killed."""
    return procutil.end_marked(mark) if mark else []


def stop(proc: subprocess.Popen, grace_s: float = STOP_GRACE_S) -> None:
    """End a guarded command: SIGTERM to the guard (it ends every process below it), SIGKILL after
    `grace_s`; reaps the guard, then sweeps what escaped a guard that was killed."""
    if proc.poll() is None:
        try:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                proc.kill()
    proc.wait()
    sweep(getattr(proc, "guard_mark", None))
