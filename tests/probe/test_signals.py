"""A stopped run is never lost and never leaves a worker behind: SIGTERM / SIGHUP like Ctrl-C, kill -9 of
the CLI ends its worker, and the worker's tie to its parent holds without prctl and through a launcher."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from gpu_tpu_app.core.runs import load_run
from gpu_tpu_app.worker import lifeline, testkernels
from tests.terminal import as_from_a_terminal

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads process state from /proc (Linux)"),
]
TEST_ENV = {testkernels.ENV: "1"}
#: Upper bound on how long a process may take to go away; the test polls and returns as soon as it has.
GONE_WITHIN_S = 10.0


def cli(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        as_from_a_terminal([sys.executable, "-m", "gpu_tpu_app", "probe", *args]),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **TEST_ENV},
    )


def wait_for_line(proc: subprocess.Popen, needle: bytes) -> None:
    assert proc.stderr is not None
    for line in proc.stderr:  # plain progress lines: stderr is not a terminal
        if needle in line:
            return
    raise AssertionError(f"{needle!r} never appeared; exit {proc.wait()}")


def children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def running(pid: int) -> bool:
    """True while `pid` exists and is not a zombie (a dead child its new parent has not reaped yet)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def gone_within(pids: list[int], limit_s: float) -> list[int]:
    """Poll until none of `pids` runs or `limit_s` passes; returns the ones still running."""
    end = time.monotonic() + limit_s
    while True:
        alive = [p for p in pids if running(p)]
        if not alive or time.monotonic() > end:
            return alive
        time.sleep(0.05)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_write_the_partial_run_and_exit_128_plus_signal(sig: int, tmp_path: Path) -> None:
    out, table = tmp_path / "partial.json", tmp_path / "partial.csv"
    proc = cli(
        "run",
        "--suite",
        "smoke",
        "--backend",
        "torch",
        "--kernel",
        "dispatch",
        "test_sleep",
        "--out",
        str(out),
        "--csv",
        str(table),
    )
    wait_for_line(proc, b"test_sleep")
    workers = children(proc.pid)
    proc.send_signal(sig)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 128 + sig, stderr.decode()
    name = signal.Signals(sig).name
    assert f"cancelled ({name}): partial run (1 results) saved to {out}" in stderr.decode()
    run = load_run(out)
    assert not run.complete and [(r.kernel, r.status) for r in run.results] == [("dispatch", "ok")]
    assert table.read_text().count("\n") == 2  # header and the one result
    assert b"dispatch" in stdout and b"Traceback" not in stderr
    assert workers and not gone_within(workers, GONE_WITHIN_S)


def test_kill_9_of_the_cli_ends_its_worker(tmp_path: Path) -> None:
    proc = cli(
        "run", "--suite", "smoke", "--backend", "torch", "--kernel", "test_sleep", "--out", str(tmp_path / "never.json")
    )
    wait_for_line(proc, b"test_sleep")  # the worker sits in a point that would sleep for 10 minutes
    workers = children(proc.pid)
    assert workers and all(running(p) for p in workers)
    proc.kill()
    proc.communicate(timeout=30)
    alive = gone_within(workers, GONE_WITHIN_S)
    for pid in alive:  # do not leave a 10-minute sleeper behind when this fails
        os.kill(pid, signal.SIGKILL)
    assert not alive, "the worker outlived its killed parent"


CHILD = """
import sys, time
from gpu_tpu_app.worker import lifeline
if "--no-prctl" in sys.argv:
    lifeline._set_pdeathsig = lambda sig: False  # only the portable watcher is left
lifeline.tie_to_parent()
print("tied", flush=True)
time.sleep(600)
"""


def _parent_script(child_argv: list[str]) -> str:
    """A parent that starts the child (with the worker environment), prints its pid and waits forever."""
    return textwrap.dedent(f"""
        import os, subprocess, sys, time
        env = {{**os.environ, {lifeline.PARENT_ENV!r}: str(os.getpid())}}
        child = subprocess.Popen({child_argv!r}, stdout=subprocess.PIPE, env=env)
        assert child.stdout.readline() == b"tied\\n"
        print(child.pid, flush=True)
        time.sleep(600)
    """)


def _spawn_and_kill_parent(child_argv: list[str]) -> int:
    parent = subprocess.Popen([sys.executable, "-c", _parent_script(child_argv)], stdout=subprocess.PIPE)
    assert parent.stdout is not None
    line = parent.stdout.readline()
    assert line.strip().isdigit(), "the parent did not start its child"
    child = int(line)
    assert running(child)
    parent.kill()
    parent.communicate(timeout=30)
    return child


def test_the_portable_watcher_ends_a_worker_without_prctl() -> None:
    child = _spawn_and_kill_parent([sys.executable, "-c", CHILD, "--no-prctl"])
    assert not gone_within([child], GONE_WITHIN_S)


def test_a_worker_behind_a_launcher_ends_with_the_program_that_asked_for_it() -> None:
    # `sh -c '...; true'` stays in between (no exec): the worker's parent is the shell, which lives on
    script = f"{sys.executable} -c '{CHILD}'; true"
    assert "'" not in CHILD
    child = _spawn_and_kill_parent(["sh", "-c", script])
    assert not gone_within([child], GONE_WITHIN_S)


def test_a_worker_whose_parent_is_alive_keeps_running() -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, "--no-prctl"],
        stdout=subprocess.PIPE,
        env={**os.environ, lifeline.PARENT_ENV: str(os.getpid())},
    )
    try:
        assert child.stdout is not None and child.stdout.readline() == b"tied\n"
        # several watcher polls later it still runs (the watcher never mistakes a live parent for a dead one)
        with pytest.raises(subprocess.TimeoutExpired):
            child.wait(timeout=10 * lifeline.POLL_S)
    finally:
        child.kill()
        child.communicate()


WINDOW_SIDE = """
import os, sys
from PySide6.QtCore import QCoreApplication
from gpu_tpu_app.probe.protocol import ProbeRequest
from gpu_tpu_app.ui.probe.probe_process import ProbeProcess
app = QCoreApplication([])
run = ProbeProcess(ProbeRequest(suite="smoke", backends=("torch",), kernels=("test_sleep",)))
def on_progress(msg, i, n):
    if msg.kernel == "test_sleep":
        print(run._pid, flush=True)  # the worker is now inside a point that sleeps for 10 minutes
run.sig_progress.connect(on_progress)
run.start()
app.exec()
"""


def test_kill_9_of_the_window_ends_its_worker() -> None:
    # the window's way of running workers (QProcess), in a process that is then killed without warning
    proc = subprocess.Popen(
        [sys.executable, "-c", WINDOW_SIDE],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **TEST_ENV, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.strip().isdigit(), proc.stderr.read() if proc.poll() is not None else line  # type: ignore[union-attr]
    worker = int(line)
    assert running(worker) and worker in children(proc.pid)
    proc.kill()
    proc.communicate(timeout=30)
    alive = gone_within([worker], GONE_WITHIN_S)
    for pid in alive:
        os.kill(pid, signal.SIGKILL)
    assert not alive, "the worker outlived the killed window"


def test_a_closed_terminal_still_gets_the_partial_run_saved(tmp_path: Path) -> None:
    # SIGHUP as when an ssh session drops: stdout and stderr lead nowhere any more
    out = tmp_path / "partial.json"
    proc = cli("run", "--suite", "smoke", "--backend", "torch", "--kernel", "dispatch", "test_sleep", "--out", str(out))
    wait_for_line(proc, b"test_sleep")
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    proc.stderr.close()
    proc.send_signal(signal.SIGHUP)
    assert proc.wait(timeout=60) == 128 + signal.SIGHUP
    run = load_run(out)
    assert not run.complete and [(r.kernel, r.status) for r in run.results] == [("dispatch", "ok")]


def test_under_nohup_sighup_does_not_stop_the_run(tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    argv = [
        sys.executable,
        "-m",
        "gpu_tpu_app",
        "probe",
        "run",
        "--suite",
        "smoke",
        "--backend",
        "torch",
        "--kernel",
        "dispatch",
        "test_sleep",
        "--out",
        str(out),
    ]
    if shutil.which("nohup") is None:
        pytest.skip("nohup(1) is not installed")
    proc = subprocess.Popen(
        ["nohup", *argv],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **TEST_ENV},
    )
    wait_for_line(proc, b"test_sleep")
    proc.send_signal(signal.SIGHUP)
    _stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode != 128 + signal.SIGHUP and b"cancelled" not in stderr, stderr.decode()
    run = load_run(out)
    # the run went on to its end: the sleeping point was stopped by its own time cap, not by the signal
    assert run.complete
    assert [(r.kernel, r.status) for r in run.results] == [("dispatch", "ok"), ("test_sleep", "timeout")]


WINDOW_SCRIPT = """
import argparse, sys
from PySide6.QtCore import QTimer
from gpu_tpu_app.ui.shell import app, main_window

def start(window):
    panel = window.ensure_probe_panel()
    panel.set_selection(backends=["torch"], suite="smoke", kernels=["dispatch", "test_sleep"], dtypes=[])
    panel.sig_result.connect(lambda r: print("RESULT", r.kernel, flush=True))
    assert panel.start()

main_window.MainWindow.warm_probe_later = lambda self: QTimer.singleShot(0, lambda: start(self))
sys.exit(app.main(argparse.Namespace(screenshot=None, page="probe", session=None, results=None, lang=None)))
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_the_window_keeps_the_measured_points_on_sigterm_and_sighup(sig: int, tmp_path: Path) -> None:
    """The real window process, mid-run, gets a real signal: the run so far is saved, marked partial."""
    state = tmp_path / "state"
    env = {
        **os.environ,
        **TEST_ENV,
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_STATE_HOME": str(state),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }
    window = subprocess.Popen(
        [sys.executable, "-c", WINDOW_SCRIPT], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    try:
        assert window.stdout is not None
        line = window.stdout.readline()  # the first point measured (dispatch); test_sleep runs on
        assert line.startswith(b"RESULT dispatch"), (line, window.stderr.read() if window.poll() is not None else "")
        workers = [p for p in children(window.pid) if running(p)]
        window.send_signal(sig)
        _out, err = window.communicate(timeout=60)
    finally:
        if window.poll() is None:
            window.kill()
            window.communicate()
    name = signal.Signals(sig).name
    assert window.returncode == 128 + sig, err.decode()
    saved = sorted((state / "gpu-tpu-app" / "unsaved-runs").glob("*.json"))
    assert len(saved) == 1, (saved, err.decode())
    assert f"stopped by {name} before the end: partial probe run (1 results) saved to {saved[0]}" in err.decode()
    run = load_run(saved[0])
    assert not run.complete and [(r.kernel, r.status) for r in run.results] == [("dispatch", "ok")]
    assert f"the window was stopped by {name} before the end" in run.errors
    assert b"Traceback" not in err
    assert not gone_within(workers, GONE_WITHIN_S)


def test_a_closing_desktop_session_saves_the_run_in_progress_as_partial(qtbot, tmp_path: Path, monkeypatch) -> None:
    """What the session manager's commitDataRequest does (stop_signals.install connects it): the run so far,
    validated and marked partial, in the unsaved-runs folder; the run itself goes on."""
    from gpu_tpu_app.ui.probe.probe_panel import ProbePanel

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    monkeypatch.setenv(testkernels.ENV, "1")
    panel = ProbePanel()
    qtbot.addWidget(panel)
    try:
        _keep_mid_run(qtbot, panel, tmp_path)
    finally:
        panel.shutdown()


def _keep_mid_run(qtbot, panel, tmp_path: Path) -> None:
    from types import SimpleNamespace

    from gpu_tpu_app.ui.shell import stop_signals

    assert stop_signals.keep_measured(SimpleNamespace(probe_panel=panel), stop_signals.WHY_SESSION) is None
    panel.set_selection(backends=["torch"], suite="smoke", kernels=["dispatch", "test_sleep"], dtypes=[])
    with qtbot.waitSignal(panel.sig_result, timeout=120_000):
        assert panel.start()
    path = stop_signals.keep_measured(SimpleNamespace(probe_panel=panel), stop_signals.WHY_SESSION)
    assert path is not None and path.parent == tmp_path / "gpu-tpu-app" / "unsaved-runs"
    run = load_run(path)
    assert not run.complete and [r.kernel for r in run.results] == ["dispatch"]
    assert stop_signals.WHY_SESSION in run.errors and run.schema_version == 2
    assert panel.is_running()
    with qtbot.waitSignal(panel.sig_finished, timeout=30_000):
        panel.cancel()
