"""Nothing a model file (or a queried interpreter) starts outlives the check, whatever it does.

Each hostile file writes the pids of what it started into a folder, so these tests find them whether or
not the launcher marks its processes; the suite's leftover check (tests/conftest.py) looks for marked
ones after every test besides.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from gpu_tpu_app.probe.envs import query_env
from gpu_tpu_app.probe.modelcheck_launch import run_check
from gpu_tpu_app.worker.guard import descendants
from tests.leftovers import leftovers, marked

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc"),
    pytest.mark.serial,  # what the file started must be gone within a second: runs alone (make test's serial part)
]

SETSID_CHILD = (
    "import os, sys, time\n"
    "os.setsid()\n"
    "open(os.path.join(sys.argv[1], f'{os.getpid()}.pid'), 'w').close()\n"
    "time.sleep(300)\n"
)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _pids(folder: Path, count: int, within_s: float = 60.0) -> list[int]:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        found = [int(p.stem) for p in folder.glob("*.pid")]
        if len(found) >= count:
            return found
        time.sleep(0.05)
    raise AssertionError(f"only {sorted(folder.glob('*.pid'))} started within {within_s} s")


def _gone(pids: list[int], within_s: float = 5.0) -> list[int]:
    """The pids among `pids` still alive after `within_s` (killed, so a failing test leaves nothing)."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline and any(_alive(p) for p in pids):
        time.sleep(0.05)
    left = [p for p in pids if _alive(p)]
    for p in left:
        os.kill(p, signal.SIGKILL)
    return left


def _model(tmp_path: Path, body: str) -> tuple[Path, Path]:
    pids = tmp_path / "pids"
    pids.mkdir()
    child = tmp_path / "child.py"
    child.write_text(SETSID_CHILD)
    file = tmp_path / "model.py"
    file.write_text(
        "import os, subprocess, sys\n"
        f"PIDS = {str(pids)!r}\n"
        f"CHILD = [sys.executable, {str(child)!r}, PIDS]\n"
        "open(os.path.join(PIDS, f'{os.getpid()}.pid'), 'w').close()\n"
        "def wait_for(count):  # until that many processes have written their pid (python starts slowly)\n"
        "    import time\n"
        "    while len([n for n in os.listdir(PIDS) if n.endswith('.pid')]) < count:\n"
        "        time.sleep(0.02)\n" + textwrap.dedent(body)
    )
    return file, pids


def test_a_setsid_grandchild_holding_the_pipes_ends_with_the_check_and_the_error_is_immediate(tmp_path: Path) -> None:
    # the grandchild inherits stdout and stderr, starts its own session, and would sleep for minutes
    file, pids = _model(tmp_path, "subprocess.Popen(CHILD)\nwait_for(2)\nraise RuntimeError('at once')\n")
    start = time.monotonic()
    result = run_check(file, timeout_s=40)
    took = time.monotonic() - start
    assert isinstance(result, str) and "RuntimeError: at once" in result, result
    assert took < 30, f"an immediate error took {took:.1f} s (read as a time-out?)"
    started = _pids(pids, 2, within_s=1)
    assert _gone(started, within_s=0.5) == [], "a process the model file started outlived the check"
    assert marked() == {}


def test_a_double_forked_orphan_ends_with_the_check(tmp_path: Path) -> None:
    body = """
    if os.fork() == 0:  # the middle process exits at once, so the grandchild is reparented
        subprocess.Popen(CHILD, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os._exit(0)
    wait_for(2)
    raise SystemExit(0)
    """
    file, pids = _model(tmp_path, body)
    run_check(file, timeout_s=40)
    started = _pids(pids, 2, within_s=1)
    assert _gone(started, within_s=0.5) == []


KEEP_GOING = """
subprocess.Popen(CHILD)
wait_for(2)
open(os.path.join(PIDS, 'ready'), 'w').close()
import time
time.sleep(300)
"""


def _kill_9_once_ready(argv: list[str], file: Path, pids: Path, ready_within_s: float) -> list[int]:
    """Start `argv FILE` in a session of its own, wait for the model file's 'ready' mark, kill -9 the launcher:
    the pids the model file wrote (it and what it started), to check that they are gone."""
    launcher = subprocess.Popen(
        [*argv, str(file)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        deadline = time.monotonic() + ready_within_s
        while not (pids / "ready").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        started = _pids(pids, 2, within_s=5)
        os.kill(launcher.pid, signal.SIGKILL)
    finally:
        if launcher.poll() is None:
            launcher.kill()
        launcher.wait()
    return started


def _kill_launcher_mid_check(tmp_path: Path, argv: list[str]) -> None:
    file, pids = _model(tmp_path, KEEP_GOING)
    started = _kill_9_once_ready(argv, file, pids, ready_within_s=90)
    assert _gone(started, within_s=5) == [], "the model check ran on after kill -9 of the program that started it"


def test_kill_9_of_the_cli_ends_the_check_and_what_the_file_started(tmp_path: Path) -> None:
    _kill_launcher_mid_check(tmp_path, [sys.executable, "-m", "gpu_tpu_app", "check-model", "--timeout", "300"])


def test_kill_9_of_a_program_that_checks_from_a_thread_like_the_window_ends_the_check(tmp_path: Path) -> None:
    # the window runs run_check in a worker thread; the thread lives until the check returns
    script = (
        "import sys, threading\n"
        "from gpu_tpu_app.probe.modelcheck_launch import run_check\n"
        "t = threading.Thread(target=run_check, args=(sys.argv[1], 300.0))\n"
        "t.start(); t.join()\n"
    )
    _kill_launcher_mid_check(tmp_path, [sys.executable, "-c", script])


def test_a_file_cannot_raise_its_memory_limit_back(tmp_path: Path) -> None:
    report = tmp_path / "raised.txt"
    status = tmp_path / "status.txt"
    file = tmp_path / "model.py"
    file.write_text(
        "import resource, shutil\n"
        f"shutil.copy('/proc/self/status', {str(status)!r})\n"
        "try:\n"
        "    resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))\n"
        "    raised = 'raised'\n"
        "except (ValueError, OSError) as exc:\n"
        "    raised = f'refused: {exc}'\n"
        f"open({str(report)!r}, 'w').write(raised)\n"
        "block = bytearray(3 * 1024**3)  # past the 1.5 GiB limit\n"
        "block[::4096] = b'x' * len(block[::4096])\n"
    )
    result = run_check(file, timeout_s=60, memory_limit_mb=1536)
    assert report.read_text().startswith("refused"), report.read_text()
    assert isinstance(result, str) and "memory" in result, result
    # the ability to lift the hard limit is gone before the file runs, even where the check runs as root:
    # CAP_SYS_RESOURCE (bit 24) out of the bounding and effective sets, and no setuid program can bring it back
    fields = dict(line.split(":", 1) for line in status.read_text().splitlines() if ":" in line)
    assert fields["NoNewPrivs"].strip() == "1"
    for caps in ("CapBnd", "CapEff", "CapPrm"):
        assert not int(fields[caps], 16) & (1 << 24), f"{caps} still holds CAP_SYS_RESOURCE"


def _wrapper(tmp_path: Path, tail: str) -> tuple[Path, Path]:
    """An interpreter like conda's wrappers: a script that starts the real Python as its child (no exec)."""
    pids = tmp_path / "pids"
    pids.mkdir()
    child = tmp_path / "child.py"
    child.write_text(SETSID_CHILD)
    wrapper = tmp_path / "python"
    wrapper.write_text(
        f"#!/bin/sh\ntouch {pids}/$$.pid\n{sys.executable} {child} {pids} &\n"
        f'while [ "$(ls {pids} | wc -l)" -lt 2 ]; do sleep 0.05; done\n{tail}\n',
    )
    wrapper.chmod(0o755)
    return wrapper, pids


def test_an_interpreter_that_leaves_a_setsid_child_leaves_nothing_after_envs_asked_it(tmp_path: Path) -> None:
    wrapper, pids = _wrapper(tmp_path, "echo not json\nexit 0")
    start = time.monotonic()
    env = query_env(str(wrapper), timeout_s=30)
    assert time.monotonic() - start < 20, "the answer waited on the child holding its pipes"
    assert env.problem
    started = _pids(pids, 2, within_s=5)
    assert _gone(started, within_s=0.5) == []


def test_kill_9_of_envs_ends_the_interpreter_it_asked_and_its_child(tmp_path: Path) -> None:
    wrapper, pids = _wrapper(tmp_path, f'{sys.executable} -c "import time; time.sleep(300)" "$@"')
    cli = subprocess.Popen(
        [sys.executable, "-m", "gpu_tpu_app", "probe", "envs", "--refresh", str(wrapper)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        started = _pids(pids, 2, within_s=60)
        time.sleep(0.5)  # the wrapper's own python child is running too
        os.kill(cli.pid, signal.SIGKILL)
    finally:
        if cli.poll() is None:
            cli.kill()
        cli.wait()
    assert _gone(started, within_s=5) == [], "an interpreter envs asked ran on after kill -9 of envs"


def test_kill_9_of_the_window_side_check_ends_the_check(tmp_path: Path) -> None:
    # the window's own driver (ui/model_check.ModelCheckProcess, a QProcess) in a Qt event loop
    script = (
        "import sys\n"
        "from PySide6.QtCore import QCoreApplication\n"
        "from gpu_tpu_app.ui.probe.model_check import ModelCheckProcess\n"
        "app = QCoreApplication([])\n"
        "check = ModelCheckProcess(sys.argv[1], timeout_s=300.0)\n"
        "check.start()\n"
        "app.exec()\n"
    )
    _kill_launcher_mid_check(tmp_path, [sys.executable, "-c", script])


def test_cancel_in_the_window_ends_what_the_file_started(tmp_path: Path, qtbot) -> None:
    from gpu_tpu_app.ui.probe.model_check import ModelCheckProcess

    file, pids = _model(tmp_path, KEEP_GOING)
    check = ModelCheckProcess(str(file), timeout_s=300.0)
    check.start()
    deadline = time.monotonic() + 90
    while not (pids / "ready").exists() and time.monotonic() < deadline:
        qtbot.wait(50)
    started = _pids(pids, 2, within_s=5)
    with qtbot.waitSignal(check.sig_finished, timeout=10_000) as finished:
        check.cancel()
    assert finished.args == [None]
    assert _gone(started, within_s=1) == []


def test_the_guard_cleans_up_when_told_to_stop_twice_at_once(tmp_path: Path) -> None:
    # the parent-death signal and the lifeline watcher's can both arrive: the second must not cut the cleanup short
    from gpu_tpu_app.probe import guarded

    pids = tmp_path / "pids"
    pids.mkdir()
    child = tmp_path / "child.py"
    child.write_text(SETSID_CHILD)
    parent = f"import subprocess, sys, time; subprocess.Popen([sys.executable, {str(child)!r}, {str(pids)!r}]); time.sleep(300)"
    proc = guarded.start([sys.executable, "-c", parent], env=dict(os.environ), stderr=subprocess.PIPE)
    try:
        started = _pids(pids, 1)
        proc.send_signal(signal.SIGTERM)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert b"Traceback" not in err
    assert _gone(started, within_s=0.5) == []


def test_a_command_that_cannot_be_executed_is_an_oserror_like_popen(tmp_path: Path) -> None:
    from gpu_tpu_app.probe import guarded

    text = tmp_path / "not-a-program"
    text.write_text("just text\n")
    text.chmod(0o755)
    with pytest.raises(OSError) as err:
        guarded.start([str(text)], env=dict(os.environ))
    assert err.value.errno == 8  # ENOEXEC, as subprocess.Popen raises it


# A model file that double-forks a setsid daemon listening on a socket, then kills its parent: the guard.
# The guard cannot clean up after kill -9; its launcher sweeps what carries the launch's marker.
DAEMON = """
import socket, time
with open(os.path.join(PIDS, "worker"), "w") as f:
    f.write(str(os.getpid()))
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen()
        with open(os.path.join(PIDS, "port"), "w") as f:
            f.write(str(server.getsockname()[1]))
        open(os.path.join(PIDS, f"{os.getpid()}.pid"), "w").close()
        time.sleep(300)
    os._exit(0)
wait_for(2)
while not os.path.exists(os.path.join(PIDS, "port")):
    time.sleep(0.02)
open(os.path.join(PIDS, "ready"), "w").close()
"""
KILL_THE_GUARD = DAEMON + "os.kill(os.getppid(), 9)\ntime.sleep(300)\n"


def _daemon_gone(pids: Path, started: list[int], within_s: float = 2.0) -> None:
    import socket

    assert _gone(started, within_s=within_s) == [], "the daemon the model file started outlived its guard"
    port = int((pids / "port").read_text())
    with socket.socket() as probe, pytest.raises(ConnectionRefusedError):
        probe.connect(("127.0.0.1", port))
    assert leftovers(grace_s=2.0) == {}  # the guard too, once it has finished its clean-up


def _not_memory(line: str) -> None:
    assert "memory" not in line and "MiB" not in line, line
    assert "guard" in line and "\n" not in line, line


def test_a_file_that_kills_its_guard_leaves_no_daemon_and_is_not_blamed_on_memory(tmp_path: Path) -> None:
    file, pids = _model(tmp_path, KILL_THE_GUARD)
    result = run_check(file, timeout_s=120)
    started = _pids(pids, 2, within_s=1)
    assert isinstance(result, str), result
    _not_memory(result)
    _daemon_gone(pids, started)


def test_check_model_in_the_cli_after_the_file_killed_its_guard(tmp_path: Path) -> None:
    file, pids = _model(tmp_path, KILL_THE_GUARD)
    proc = subprocess.run(
        [sys.executable, "-m", "gpu_tpu_app", "check-model", str(file), "--timeout", "120"],
        capture_output=True,
        text=True,
        timeout=180,
    )
    started = _pids(pids, 2, within_s=1)
    _daemon_gone(pids, started)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    _not_memory(proc.stderr.strip().splitlines()[-1])


def test_the_window_check_after_the_file_killed_its_guard(tmp_path: Path, qtbot) -> None:
    from gpu_tpu_app.ui.probe.model_check import ModelCheckProcess

    file, pids = _model(tmp_path, KILL_THE_GUARD)
    check = ModelCheckProcess(str(file), timeout_s=120.0)
    with qtbot.waitSignal(check.sig_finished, timeout=150_000) as finished:
        check.start()
    started = _pids(pids, 2, within_s=1)
    _daemon_gone(pids, started)
    assert isinstance(finished.args[0], str)
    _not_memory(finished.args[0])


def test_kill_9_of_the_guard_from_outside_ends_the_daemon_within_2_s(tmp_path: Path) -> None:
    import threading

    file, pids = _model(tmp_path, DAEMON + "time.sleep(300)\n")
    out: list[object] = []
    thread = threading.Thread(target=lambda: out.append(run_check(file, timeout_s=300)))
    thread.start()
    deadline = time.monotonic() + 120
    while not (pids / "ready").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    started = _pids(pids, 2, within_s=5)
    model = int((pids / "worker").read_text())
    guard = int(Path(f"/proc/{model}/stat").read_text().rsplit(")", 1)[1].split()[1])
    os.kill(guard, signal.SIGKILL)
    killed_at = time.monotonic()
    thread.join(30)
    assert not thread.is_alive()
    left = [p for p in started if _alive(p)]
    took = time.monotonic() - killed_at
    _daemon_gone(pids, started, within_s=0)
    assert left == [] and took < 2.0, (left, took)  # the launcher notices, drains (DRAIN_S), sweeps
    print(f"daemon gone {took:.2f} s after kill -9 of its guard")
    assert isinstance(out[0], str)
    _not_memory(out[0])


def test_kill_9_of_the_window_ends_its_environment_listing_within_2_s(tmp_path: Path) -> None:
    # the window's listing (ui/envs_view.EnvsView: `probe envs` in a QProcess) asks a hanging interpreter
    wrapper, pids = _wrapper(tmp_path, f'{sys.executable} -c "import time; time.sleep(300)" "$@"')
    script = (
        "import sys\n"
        "from PySide6.QtWidgets import QApplication\n"
        "from gpu_tpu_app.ui.probe.envs_view import EnvsView\n"
        "app = QApplication(['x', '-platform', 'offscreen'])\n"
        "view = EnvsView(None, [])\n"
        "view.add(sys.argv[1])\n"
        "app.exec()\n"
    )
    window = subprocess.Popen(
        [sys.executable, "-c", script, str(wrapper)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        started = _pids(pids, 2, within_s=90)
        time.sleep(0.5)  # the wrapper's own python child is running too
        below = [p for p, _ in descendants(window.pid)]
        assert len(below) >= 4, below  # guard, probe envs, its guard, the wrapper (and their children)
        os.kill(window.pid, signal.SIGKILL)
    finally:
        if window.poll() is None:
            window.kill()
        window.wait()
    assert _gone(started + below, within_s=2) == [], "the environment listing ran on after kill -9 of the window"


def test_the_window_listing_gives_up_on_a_hanging_interpreter_and_leaves_nothing(
    tmp_path: Path, qtbot, monkeypatch
) -> None:
    from gpu_tpu_app.ui.probe import envs_view

    wrapper, pids = _wrapper(tmp_path, f'{sys.executable} -c "import time; time.sleep(300)" "$@"')
    monkeypatch.setattr(envs_view, "LIST_TIMEOUT_S", 1.0)
    view = envs_view.EnvsView(None, [])
    qtbot.addWidget(view)
    view.add(str(wrapper))
    started = _pids(pids, 2, within_s=90)
    with qtbot.waitSignal(view.sig_listed, timeout=30_000):
        pass
    assert not view.is_listing()
    assert _gone(started, within_s=1) == [] and marked() == {}


def test_a_worker_killed_by_sigkill_is_still_read_as_memory_and_only_the_model_check_asks_the_guard(
    tmp_path: Path,
) -> None:
    # the worker itself killed (as the kernel's OOM killer does): the guard says so, and the line may blame memory
    file, _pids_dir = _model(tmp_path, "os.kill(os.getpid(), 9)\n")
    result = run_check(file, timeout_s=120)
    assert isinstance(result, str) and "out of memory?" in result and "guard" not in result, result
    # other guarded commands (envs' interpreter queries) keep their own stderr: no guard line there
    from gpu_tpu_app.probe import guarded
    from gpu_tpu_app.shared.procutil import GUARD_SIGNAL_LINE

    proc = guarded.start(
        [sys.executable, "-c", "import os; os.kill(os.getpid(), 9)"], env=dict(os.environ), stderr=subprocess.PIPE
    )
    _, err = proc.communicate(timeout=60)
    guarded.stop(proc)
    assert proc.returncode == -signal.SIGKILL and GUARD_SIGNAL_LINE.encode() not in err


@pytest.mark.parametrize("launcher", ["cli", "window"])
def test_kill_9_of_the_cli_or_the_window_ends_a_listening_daemon_within_2_s(tmp_path: Path, launcher: str) -> None:
    """The double-forked setsid daemon that listens on a socket, with the CLI (or the window's QProcess
    driver) killed: the guard's lifeline ends it, within 2 s."""
    file, pids = _model(tmp_path, DAEMON + "time.sleep(300)\n")
    script = (
        "import sys\n"
        "from PySide6.QtCore import QCoreApplication\n"
        "from gpu_tpu_app.ui.probe.model_check import ModelCheckProcess\n"
        "app = QCoreApplication([])\n"
        "check = ModelCheckProcess(sys.argv[1], timeout_s=300.0)\n"
        "check.start()\n"
        "app.exec()\n"
    )
    argv = (
        [sys.executable, "-m", "gpu_tpu_app", "check-model", "--timeout", "300"]
        if launcher == "cli"
        else [sys.executable, "-c", script]
    )
    started = _kill_9_once_ready(argv, file, pids, ready_within_s=120)
    _daemon_gone(pids, started, within_s=2.0)


PROBE_RUN = [sys.executable, "-m", "gpu_tpu_app", "probe", "run", "--suite", "smoke", "--backend", "torch"]
PROBE_RUN += ["--kernel", "dispatch"]


def test_a_probe_worker_that_leaves_a_setsid_child_leaves_nothing_after_the_run(tmp_path: Path) -> None:
    """A worker's interpreter (--python: a wrapper, as conda's are) starts a setsid child that the group kill
    cannot reach, and which holds the worker's pipes: the run goes on once the worker exits, and its sweep
    ends the child."""
    wrapper, pids = _wrapper(tmp_path, f'exec {sys.executable} "$@"')
    proc = subprocess.run(
        [*PROBE_RUN, "--python", str(wrapper), "--format", "json"],
        capture_output=True,
        timeout=240,
    )
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    started = [int(p.stem) for p in pids.glob("*.pid")]
    assert len(started) >= 4, started  # the interpreter query's pair and the worker's pair at least
    assert _gone(started, within_s=0.5) == [], "a process a probe worker started outlived the run"


def test_a_window_probe_worker_that_leaves_a_setsid_child_leaves_nothing_after_the_run(tmp_path: Path, qtbot) -> None:
    """The window's run, as the CLI's: its workers carry the run's marker and the run sweeps it at its end, so
    a setsid child of the worker's interpreter (a --python wrapper), out of reach of the group kill, is ended."""
    from gpu_tpu_app.probe.protocol import ProbeRequest
    from gpu_tpu_app.ui.probe.probe_process import ProbeProcess

    wrapper, pids = _wrapper(tmp_path, f'exec {sys.executable} "$@"')
    request = ProbeRequest(suite="smoke", backends=("torch",), kernels=("dispatch",), python=str(wrapper))
    run = ProbeProcess(request)
    with qtbot.waitSignal(run.sig_finished, timeout=240_000) as done:
        run.start()
    assert done.args[0].results, done.args[0].errors
    started = [int(p.stem) for p in pids.glob("*.pid")]
    assert len(started) >= 2, started  # the wrapper and its setsid child
    assert _gone(started, within_s=0.5) == [], "a process a window probe worker started outlived the run"


RANK_CHILD = (
    "import os, sys, time\n"
    "os.setsid()\n"
    "open(os.path.join(sys.argv[1], f'{os.getpid()}.pid'), 'w').close()\n"
    "open(os.path.join(sys.argv[1], f'ready-{os.getppid()}'), 'w').close()\n"
    "time.sleep(300)\n"
)


@pytest.mark.slow  # a real probe run / collective
def test_collective_ranks_that_leave_setsid_children_leave_nothing_after_the_run(tmp_path: Path) -> None:
    """Each rank's interpreter (a --python wrapper) starts a setsid child that holds the rank's pipes and is out
    of reach of the group kill: the run ends once the ranks have exited, and its sweep ends the children."""
    from gpu_tpu_app.probe.group import GroupRequest, run_group

    pids = tmp_path / "pids"
    pids.mkdir()
    child = tmp_path / "child.py"
    child.write_text(RANK_CHILD)
    wrapper = tmp_path / "python"
    wrapper.write_text(
        f"#!/bin/sh\ntouch {pids}/$$.pid\n{sys.executable} {child} {pids} &\n"
        f'while [ ! -e {pids}/ready-$$ ]; do sleep 0.05; done\nexec {sys.executable} "$@"\n',
    )
    wrapper.chmod(0o755)
    start = time.monotonic()
    run = run_group(
        GroupRequest(
            processes=2, backends=("torch",), max_bytes=1 << 12, budget_s=60, timeout_s=60, python=str(wrapper)
        )
    )
    took = time.monotonic() - start
    assert [r for r in run.results if r.kernel == "collective" and r.status == "ok"], run.errors
    started = [int(p.stem) for p in pids.glob("*.pid")]
    assert len(started) >= 4, started  # two ranks: each wrapper and its setsid child
    assert _gone(started, within_s=0.5) == [], "a process a collective rank started outlived the run"
    print(f"collective run with the wrappers: {took:.1f} s")


def test_marks_of_two_processes_in_one_session_differ() -> None:
    """A CLI the window (or the test suite) starts inherits its session; its first mark must not be its parent's,
    or its sweep would end the parent's processes."""
    from gpu_tpu_app.probe import guarded

    code = "from gpu_tpu_app.probe import guarded; print(guarded.new_mark())"
    theirs = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    ours = guarded.new_mark()
    assert theirs.split(":")[0] == ours.split(":")[0]  # one session (tests/leftovers.py finds both)
    assert theirs != ours and theirs.rsplit("-", 1)[1] == "1"


LISTENING_DAEMON = """
import os, socket, sys, time
PIDS = sys.argv[1]
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen()
        open(os.path.join(PIDS, f"{os.getpid()}.pid"), "w").close()
        with open(os.path.join(PIDS, "port.tmp"), "w") as f:
            f.write(str(server.getsockname()[1]))
        os.rename(os.path.join(PIDS, "port.tmp"), os.path.join(PIDS, "port"))
        time.sleep(300)
    os._exit(0)
"""


@pytest.mark.slow  # a real probe run / collective
def test_kill_9_of_the_window_mid_probe_run_ends_a_listening_daemon_within_2_s(tmp_path: Path) -> None:
    """The window's probe worker runs under the guard: its interpreter (a --python wrapper) double-forks a setsid
    daemon that listens, and the window is killed: the guard's lifeline ends the daemon, within 2 s."""
    pids = tmp_path / "pids"
    pids.mkdir()
    daemon = tmp_path / "daemon.py"
    daemon.write_text(LISTENING_DAEMON)
    wrapper = tmp_path / "python"
    wrapper.write_text(
        f"#!/bin/sh\n{sys.executable} {daemon} {pids}\n"
        f"while [ ! -e {pids}/port ]; do sleep 0.05; done\n"
        f'exec {sys.executable} -c "import time; time.sleep(300)"\n'
    )
    wrapper.chmod(0o755)
    script = (
        "import sys\n"
        "from PySide6.QtCore import QCoreApplication\n"
        "from gpu_tpu_app.probe.protocol import ProbeRequest\n"
        "from gpu_tpu_app.ui.probe.probe_process import ProbeProcess\n"
        "app = QCoreApplication([])\n"
        "run = ProbeProcess(ProbeRequest(suite='smoke', backends=('torch',), python=sys.argv[1]))\n"
        "run.start()\n"
        "app.exec()\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script, str(wrapper)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while not (pids / "port").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        started = _pids(pids, 1, within_s=5)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    _daemon_gone(pids, started, within_s=2.0)


@pytest.mark.slow  # a real probe run / collective
def test_cancel_of_a_guarded_window_worker_reaches_the_worker_and_keeps_its_results(qtbot) -> None:
    """Under the guard the window's Cancel still interrupts the worker itself (the guard passes SIGINT on): it
    keeps what it measured, says done, and no point is recorded as crashed or killed."""
    from gpu_tpu_app.probe.protocol import ProbeRequest
    from gpu_tpu_app.ui.probe.probe_process import ProbeProcess

    run = ProbeProcess(ProbeRequest(suite="quick", backends=("torch",)))
    run.start()
    qtbot.waitUntil(lambda: bool(run.session.assembler.results), timeout=240_000)
    with qtbot.waitSignal(run.sig_finished, timeout=30_000) as done:
        run.cancel()
    qtbot.wait(300)  # queued events (the worker's QProcess deleteLater) run before `run` goes
    finished = done.args[0]
    assert run.session.assembler.done is not None, "the worker was ended before it could say done"
    assert finished.results and "cancelled before the end" in finished.errors
    assert all(r.status not in ("crash", "crashed", "killed", "timeout") for r in finished.results), [
        (r.kernel, r.status) for r in finished.results
    ]
    assert not [e for e in finished.errors if "exit" in e or "signal" in e or "crash" in e], finished.errors


def _listing_wrapper(tmp_path: Path) -> tuple[Path, Path]:
    """A --python wrapper that double-forks a listening setsid daemon, then runs the real interpreter (exec): a
    standby worker started through it lists its devices and waits for the run as usual."""
    pids = tmp_path / "pids"
    pids.mkdir()
    daemon = tmp_path / "daemon.py"
    daemon.write_text(LISTENING_DAEMON)
    wrapper = tmp_path / "python"
    wrapper.write_text(
        f"#!/bin/sh\n{sys.executable} {daemon} {pids}\n"
        f"while [ ! -e {pids}/port ]; do sleep 0.05; done\n"
        f'exec {sys.executable} "$@"\n'
    )
    wrapper.chmod(0o755)
    return wrapper, pids


@pytest.mark.slow  # a real probe run
def test_kill_9_of_the_window_mid_run_on_a_taken_standby_worker_ends_a_listening_daemon_within_2_s(
    tmp_path: Path,
) -> None:
    """The run takes a standby worker (started while the user read the page) whose --python wrapper double-forked a
    setsid daemon that listens; the window is killed mid-run: the daemon is gone and its port closed within 2 s,
    as for a worker the run started itself (the standby runs under the same guard, with a marker)."""
    wrapper, pids = _listing_wrapper(tmp_path)
    script = (
        "import sys\n"
        "from PySide6.QtCore import QCoreApplication\n"
        "from gpu_tpu_app.probe.protocol import ProbeRequest\n"
        "from gpu_tpu_app.ui.probe.probe_process import ProbeProcess\n"
        "from gpu_tpu_app.ui.shell.standby_workers import StandbyWorkers\n"
        "app = QCoreApplication([])\n"
        "request = ProbeRequest(suite='quick', backends=('torch',), python=sys.argv[1])\n"
        "standby = StandbyWorkers()\n"
        "runs = []\n"
        "def on_result(msg):\n"
        "    if type(msg).__name__ == 'ResultMsg':\n"
        "        print('measured', runs[0].warm_starts, flush=True)\n"
        "def listed(*_):\n"
        "    run = ProbeProcess(request, standby=standby)\n"
        "    run.sig_message.connect(on_result)\n"
        "    runs.append(run)\n"
        "    run.start()\n"
        "standby.sig_listed.connect(listed)\n"
        "standby.prepare(request)\n"
        "app.exec()\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script, str(wrapper)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # the first measured point: the run is under way on the standby worker
        assert line.split() == ["measured", "1"], line
        started = _pids(pids, 1, within_s=5)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
    _daemon_gone(pids, started, within_s=2.0)


@pytest.mark.slow  # a real probe run
def test_a_taken_standby_worker_that_leaves_a_setsid_child_leaves_nothing_after_the_run(tmp_path: Path, qtbot) -> None:
    """A standby worker runs under the guard: the setsid child its --python wrapper started ends with it, and the
    run that took it sweeps the standby's marker (the suite's leftover check finds any marked process)."""
    from gpu_tpu_app.probe.protocol import ProbeRequest
    from gpu_tpu_app.ui.probe.probe_process import ProbeProcess
    from gpu_tpu_app.ui.shell.standby_workers import StandbyWorkers

    wrapper, pids = _wrapper(tmp_path, f'exec {sys.executable} "$@"')
    request = ProbeRequest(suite="smoke", backends=("torch",), kernels=("dispatch",), python=str(wrapper))
    standby = StandbyWorkers()
    with qtbot.waitSignal(standby.sig_listed, timeout=240_000):
        assert standby.prepare(request) == ["torch"]
    [waiting] = standby._procs.values()
    cmdline = Path(f"/proc/{waiting.proc.processId()}/cmdline").read_bytes().split(b"\0")
    assert b"gpu_tpu_app.worker.guard" in cmdline and b"--forward-interrupt" in cmdline, cmdline
    assert int(waiting.proc.processId()) in marked(), "the standby worker carries no marker"
    run = ProbeProcess(request, standby=standby)
    with qtbot.waitSignal(run.sig_finished, timeout=240_000) as done:
        run.start()
    assert run.warm_starts == 1 and done.args[0].results, done.args[0].errors
    started = [int(p.stem) for p in pids.glob("*.pid")]
    assert len(started) >= 2, started  # the wrapper and its setsid child
    assert _gone(started, within_s=0.5) == [], "a process a standby worker's interpreter started outlived the run"


@pytest.mark.slow  # a real probe run
def test_cancel_of_a_run_on_a_taken_standby_worker_keeps_its_results(qtbot) -> None:
    """Cancel reaches a standby worker under the guard (SIGINT passed on) as it reaches a fresh one: the worker
    keeps what it measured and says done; no point is recorded as crashed or killed."""
    from gpu_tpu_app.probe.protocol import ProbeRequest
    from gpu_tpu_app.ui.probe.probe_process import ProbeProcess
    from gpu_tpu_app.ui.shell.standby_workers import StandbyWorkers

    request = ProbeRequest(suite="quick", backends=("torch",))
    standby = StandbyWorkers()
    with qtbot.waitSignal(standby.sig_listed, timeout=240_000):
        standby.prepare(request)
    run = ProbeProcess(request, standby=standby)
    run.start()
    assert run.warm_starts == 1
    qtbot.waitUntil(lambda: bool(run.session.assembler.results), timeout=240_000)
    with qtbot.waitSignal(run.sig_finished, timeout=30_000) as done:
        run.cancel()
    qtbot.wait(300)
    finished = done.args[0]
    assert run.session.assembler.done is not None, "the standby worker was ended before it could say done"
    assert finished.results and "cancelled before the end" in finished.errors
    assert all(r.status not in ("crash", "crashed", "killed", "timeout") for r in finished.results), [
        (r.kernel, r.status) for r in finished.results
    ]


@pytest.mark.slow  # a real collective
def test_kill_9_of_the_window_mid_collective_run_ends_the_ranks_listening_daemons_within_2_s(tmp_path: Path) -> None:
    """The command line the window starts for a collective run runs under the guard: each rank's interpreter (a
    --python wrapper) double-forks a setsid daemon that listens, and the window is killed mid-run: the daemons are
    gone and their ports closed within 2 s (before, they lived until the command line's run ended)."""
    pids = tmp_path / "pids"
    pids.mkdir()
    daemon = tmp_path / "daemon.py"
    daemon.write_text(LISTENING_DAEMON.replace('"port.tmp"', 'f"port-{os.getpid()}.tmp"'))
    wrapper = tmp_path / "python"
    wrapper.write_text(  # only the ranks (probe workers) start a daemon, not the interpreter query before them
        f'#!/bin/sh\ncase "$*" in *--backend*) {sys.executable} {daemon} {pids} ;; esac\nexec {sys.executable} "$@"\n'
    )
    wrapper.chmod(0o755)
    script = (
        "import sys\n"
        "from PySide6.QtCore import QCoreApplication\n"
        "from gpu_tpu_app.ui.probe.collective_run import CollectiveRun\n"
        "app = QCoreApplication([])\n"
        "run = CollectiveRun(['torch'], python=sys.argv[1])\n"
        "run.start()\n"
        "app.exec()\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script, str(wrapper)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        started = _pids(pids, 2, within_s=120)  # both ranks' daemons listen
        deadline = time.monotonic() + 5
        while not (pids / "port").exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    _daemon_gone(pids, started, within_s=2.0)


@pytest.mark.slow  # a real collective
def test_cancel_of_the_window_collective_run_ends_its_ranks_and_adds_nothing(qtbot) -> None:
    """Cancel of a guarded collective run: SIGTERM to the guard, which ends the command line and both ranks; the run
    reports the cancel (nothing added) and nothing it started is alive 2 s later."""
    from gpu_tpu_app.ui.probe.collective_run import CollectiveRun

    run = CollectiveRun(["torch"])
    run.start()
    assert run._proc is not None and run._proc.waitForStarted(30_000)
    guard = int(run._proc.processId())

    def ranks() -> list[int]:
        found = []
        for pid, _ in descendants(guard):
            try:
                args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
                if b"probe-worker" in args or b"gpu_tpu_app.worker.main" in args:  # a rank, not the command line
                    found.append(pid)
            except OSError:
                pass
        return found

    ended: list[str] = []
    run.sig_finished.connect(lambda _run, text: ended.append(text))
    qtbot.waitUntil(lambda: len(ranks()) == 2 or bool(ended), timeout=120_000)
    assert not ended, ended  # the run was still going when cancelled
    below = [pid for pid, _ in descendants(guard)]
    with qtbot.waitSignal(run.sig_finished, timeout=30_000) as done:
        run.cancel()
    assert done.args[0] is None and done.args[1].startswith("Cancelled"), done.args
    assert _gone([guard, *below], within_s=2.0) == [], "a process of the cancelled collective run outlived it"
