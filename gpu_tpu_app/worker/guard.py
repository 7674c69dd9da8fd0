"""Run one untrusted command so that nothing it starts outlives it: `process-guard [options] -- CMD...`.

The CLI and the window start the model-check worker (and each interpreter `envs` queries, and the window
its probe workers) through this guard, a small standard-library process between them and the command:

- The guard is a child subreaper (Linux, PR_SET_CHILD_SUBREAPER): whatever the command starts, even a
  grandchild that called setsid() and was orphaned, becomes the guard's child when its parent ends.
  When the command exits, or the guard is told to stop, it kills every descendant it finds in /proc
  (and the command's process group where /proc is missing) and only then exits. So the pipes the
  launcher reads reach end-of-file once the command is done: a grandchild cannot hold them open.
- The guard is tied to its parent (lifeline, with SIGTERM so it can clean up): kill -9 of the CLI or
  the window ends the guard, which ends everything below it. The command runs in its own session and
  process group, with PR_SET_PDEATHSIG=SIGKILL towards the guard.
- `--memory-limit-mb N` sets RLIMIT_AS (soft and hard) before the command starts, and takes away the
  ability to raise it back: no_new_privs and CAP_SYS_RESOURCE dropped from the bounding set, so even a
  command started by root cannot lift the hard limit after exec.
- `--forward-interrupt 1`: SIGINT goes on to the command's process group instead of stopping it all (the
  window's Cancel: a probe worker keeps what it measured and says done).
- `--status-fd FD`: the guard writes b"ok" there once the command was executed, or b"E<errno>" when
  it could not be, then closes it; the launcher turns the latter into the OSError Popen would raise.

The guard exits with the command's status (re-raising the signal that ended it), or 128+N when it was
stopped by signal N. Standard library only.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from typing import Any

from gpu_tpu_app.shared.procutil import GUARD_SIGNAL_LINE
from gpu_tpu_app.worker import lifeline

PR_SET_NO_NEW_PRIVS = 38
PR_CAPBSET_DROP = 24
PR_SET_CHILD_SUBREAPER = 36
CAP_SYS_RESOURCE = 24
#: set by `--report-signal 1`: say on stderr which signal ended the command (procutil.GUARD_SIGNAL_LINE).
_REPORT_SIGNAL: list[bool] = []
#: set by `--forward-interrupt 1`: SIGINT is passed to the command's group (a probe worker keeps what it
#: measured and says done) instead of stopping everything.
_FORWARD_INT: list[bool] = []
#: the command's pid once forked (a stop signal may come at any moment after the fork).
_CHILD: list[int] = []
#: how long the guard keeps killing descendants that keep appearing before it gives up.
END_WITHIN_S = 5.0


class _Stop(Exception):
    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _libc() -> Any:
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True)
    except (OSError, AttributeError):
        return None


_LIBC = _libc() if sys.platform.startswith("linux") else None


def _prctl(option: int, arg: int) -> bool:
    return _LIBC is not None and _LIBC.prctl(option, arg, 0, 0, 0) == 0


def _confine(memory_limit_mb: int, guard_pid: int) -> None:
    """In the forked child, before exec: own session, death with the guard, a memory limit that stays."""
    os.setsid()
    _prctl(lifeline.PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != guard_pid:  # the guard died before prctl took effect
        os._exit(1)
    if memory_limit_mb > 0:
        import resource

        limit = memory_limit_mb * 1024 * 1024
        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        # root (or CAP_SYS_RESOURCE) could raise the hard limit again: drop that before the command runs
        _prctl(PR_SET_NO_NEW_PRIVS, 1)
        _prctl(PR_CAPBSET_DROP, CAP_SYS_RESOURCE)


def _children_table() -> dict[int, list[tuple[int, str]]]:
    """ppid -> [(pid, state)] from /proc; empty where there is no /proc."""
    table: dict[int, list[tuple[int, str]]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return table
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read().decode("ascii", "replace")
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[-1].split()
        if len(fields) >= 2 and fields[1].lstrip("-").isdigit():
            table.setdefault(int(fields[1]), []).append((int(name), fields[0]))
    return table


def descendants(root: int) -> list[tuple[int, str]]:
    """Every process below `root` (pid, state), found through /proc."""
    table = _children_table()
    found: list[tuple[int, str]] = []
    todo = [root]
    while todo:
        for pid, state in table.get(todo.pop(), []):
            found.append((pid, state))
            todo.append(pid)
    return found


def _reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def end_all(child: int) -> None:
    """Kill the command's group and every descendant of this guard, until none is left (or END_WITHIN_S)."""
    try:
        os.killpg(child, signal.SIGKILL)
    except OSError:
        pass
    me = os.getpid()
    deadline = time.monotonic() + END_WITHIN_S
    while time.monotonic() < deadline:
        below = descendants(me)
        living = [pid for pid, state in below if state not in ("Z", "X")]
        for pid in living:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        _reap()
        if not below:
            return
        time.sleep(0.01)


def _parse(argv: list[str]) -> tuple[int, int | None, list[str]]:
    if "--" not in argv:
        raise SystemExit(
            "process-guard: usage: process-guard [--memory-limit-mb N] [--status-fd FD] [--report-signal 1]"
            " [--forward-interrupt 1] -- CMD..."
        )
    cut = argv.index("--")
    opts, cmd = argv[:cut], argv[cut + 1 :]
    memory, status = 0, None
    for i in range(0, len(opts) - 1, 2):
        if opts[i] == "--memory-limit-mb" and opts[i + 1].isdigit():
            memory = int(opts[i + 1])
        elif opts[i] == "--status-fd" and opts[i + 1].isdigit():
            status = int(opts[i + 1])
        elif opts[i] == "--report-signal" and opts[i + 1] == "1":
            _REPORT_SIGNAL.append(True)
        elif opts[i] == "--forward-interrupt" and opts[i + 1] == "1":
            _FORWARD_INT.append(True)
    if not cmd:
        raise SystemExit("process-guard: no command after --")
    return memory, status, cmd


def _spawn(cmd: list[str], memory: int, status: int | None) -> int | None:
    """Fork and exec the command; its pid, or None after reporting why it could not run."""
    me = os.getpid()
    err_r, err_w = os.pipe()  # both close-on-exec: EOF means the exec happened
    pid = os.fork()
    if pid == 0:
        try:
            os.close(err_r)
            _confine(memory, me)
            os.execvp(cmd[0], cmd)
        except OSError as exc:
            os.write(err_w, str(exc.errno or 0).encode())
        finally:
            os._exit(127)
    _CHILD.append(pid)
    os.close(err_w)
    with os.fdopen(err_r, "rb") as f:
        failed = f.read()
    if status is not None:
        os.write(status, b"E" + failed if failed else b"ok")
        os.close(status)
    if failed:
        os.waitpid(pid, 0)
        return None
    return pid


def _wait(child: int) -> int:
    """The command's wait status; orphans reparented to this guard are reaped meanwhile."""
    while True:
        pid, code = os.wait()
        if pid == child:
            return code


def _exit_like(code: int) -> None:
    if os.WIFSIGNALED(code):
        sig = os.WTERMSIG(code)
        if _REPORT_SIGNAL:
            try:
                os.write(2, f"\n{GUARD_SIGNAL_LINE}{sig}\n".encode())
            except OSError:
                pass
        try:
            import resource

            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # the command's crash, not a guard core file
        except (ImportError, ValueError, OSError):
            pass
        try:
            signal.signal(sig, signal.SIG_DFL)
        except (OSError, ValueError):
            pass  # SIGKILL and SIGSTOP have no handler to reset (EINVAL): the guard ended with exit 1 here
        os.kill(os.getpid(), sig)
        os._exit(128 + sig)
    os._exit(os.WEXITSTATUS(code) if os.WIFEXITED(code) else 1)


def main(argv: list[str] | None = None) -> int:
    """Entry point of `gpu-tpu-app process-guard`."""
    memory, status, cmd = _parse(sys.argv[1:] if argv is None else argv)
    if status is not None:
        os.set_inheritable(status, False)  # for the launcher only, never the command

    stopping: list[int] = []

    def stop(signum: int, _frame: object) -> None:
        # once only: the kernel's parent-death signal and the watcher's may both come, and a second
        # _Stop raised inside the cleanup below would end the guard before it killed anything
        if not stopping:
            stopping.append(signum)
            raise _Stop(signum)

    def forward(signum: int, _frame: object) -> None:
        if _CHILD and not stopping:
            try:
                os.killpg(_CHILD[0], signum)
            except OSError:
                pass

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, forward if sig == signal.SIGINT and _FORWARD_INT else stop)
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    try:
        # SIGTERM at the parent's death, so that the cleanup below runs; the watcher thread starts
        # after the fork (tie_to_parent starts it), so the child is forked from one thread
        lifeline._set_pdeathsig(signal.SIGTERM)
        if lifeline._orphaned(os.getppid(), lifeline._anchor()):
            return 1
        child = _spawn(cmd, memory, status)
        if child is None:
            return 127
        lifeline.tie_to_parent(signal.SIGTERM, on_orphaned=lambda: os.kill(os.getpid(), signal.SIGTERM))
        code = _wait(child)
    except _Stop as stopped:
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)
        if _CHILD:
            end_all(_CHILD[0])
        return 128 + stopped.signum
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)
    end_all(child)
    _exit_like(code)
    return 1


if __name__ == "__main__":
    sys.exit(main())
