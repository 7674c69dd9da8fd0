"""Find processes that a guarded launch (probe/guarded.py) left behind: those carrying its marker in
their environment, read from /proc. Used by the suite's leftover check (tests/conftest.py)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

#: this test process's marker session, inherited by the CLI subprocesses the tests start. Each pytest-xdist
#: worker is a process of its own, so each has its own marker, named after its worker id and pid: a worker's
#: check never sees (nor kills) what the other worker's running test started.
SESSION = f"tests-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}-{os.getpid()}"


def marked(session: str = SESSION) -> dict[int, str]:
    """pid -> command line of every living process whose environment carries this session's marker."""
    from gpu_tpu_app.probe.guarded import MARK_ENV

    needle = f"{MARK_ENV}={session}:".encode()
    found: dict[int, str] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                environ = f.read()
            if needle not in environ or not any(item.startswith(needle) for item in environ.split(b"\0")):
                continue
            stat = Path(f"/proc/{name}/stat").read_text()
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes()
        except OSError:
            continue
        if stat.rsplit(")", 1)[-1].split()[0] not in ("Z", "X"):
            found[int(name)] = cmdline.replace(b"\0", b" ").decode("utf-8", "replace")[:200]
    return found


def leftovers(grace_s: float = 2.0) -> dict[int, str]:
    """The marked processes still alive after `grace_s` (a guard may be finishing its cleanup); killed."""
    deadline = time.monotonic() + grace_s
    found = marked()
    while found and time.monotonic() < deadline:
        time.sleep(0.05)
        found = marked()
    for pid in found:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    return found


def install() -> None:
    """Mark this run's guarded launches (and its CLI subprocesses') with SESSION."""
    from gpu_tpu_app.probe.guarded import SESSION_ENV

    os.environ[SESSION_ENV] = SESSION
