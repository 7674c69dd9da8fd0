"""Workers started while the user reads the page: a run takes the one that waits for its backend (no
framework import, no device detection, no first use left before its first point) and records what
the standby measured; a run that finds none starts its worker as before; closing ends a waiting one."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from gpu_tpu_app.probe.protocol import ProbeRequest, worker_command, worker_env
from gpu_tpu_app.ui.probe.probe_process import ProbeProcess
from gpu_tpu_app.ui.shell.standby_workers import StandbyWorkers

pytestmark = pytest.mark.slow
REQUEST = ProbeRequest(suite="smoke", backends=["torch"], kernels=["dispatch"])


def test_a_run_takes_the_worker_that_loaded_while_the_user_read(qtbot) -> None:
    standby = StandbyWorkers()
    assert standby.prepare(REQUEST) == ["torch"]
    assert standby.prepare(REQUEST) == []  # one waiting worker per backend, interpreter and environment
    probe = ProbeProcess(REQUEST, standby=standby)
    with qtbot.waitSignal(probe.sig_finished, timeout=240_000) as blocker:
        probe.start()
    run = blocker.args[0]
    assert probe.warm_starts == 1 and standby.count() == 0
    assert [r.status for r in run.results if r.kernel == "dispatch"] == ["ok"]
    [device] = run.devices
    assert device.first_use_s is not None  # measured in standby, kept in the run's record
    # the next run finds none waiting: it starts its worker as before, and measures as well
    again = ProbeProcess(REQUEST, standby=standby)
    with qtbot.waitSignal(again.sig_finished, timeout=240_000) as blocker:
        again.start()
    assert again.warm_starts == 0 and [r.status for r in blocker.args[0].results] == ["ok"]


def test_a_waiting_worker_ends_with_the_window_and_refuses_other_arguments(qtbot) -> None:
    standby = StandbyWorkers()
    standby.prepare(REQUEST)
    [proc] = [w.proc for w in standby._procs.values()]
    assert proc.waitForStarted(30_000)
    pid = int(proc.processId())
    standby.stop()  # the window closes: the waiting worker goes

    def gone() -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        return False

    qtbot.waitUntil(gone, timeout=60_000)
    assert standby.count() == 0
    argv = worker_command("torch", REQUEST)
    i = argv.index("--backend")
    env = worker_env("torch", REQUEST)
    bad = subprocess.run(
        [*argv[: i + 2], "--standby"],
        input=json.dumps(["--backend", "jax"]) + "\n",
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert bad.returncode == 2 and "started for torch, not jax" in bad.stderr
    assert [json.loads(x)["type"] for x in bad.stdout.splitlines()] == ["hello", "device", "done"]  # its listing
    quiet = subprocess.run([*argv[: i + 2], "--standby"], input="", env=env, capture_output=True, timeout=240)
    said = [json.loads(x) for x in quiet.stdout.splitlines()]
    # no run came: it said what it found, as --list-devices does, and measured nothing
    assert quiet.returncode == 0 and [m["type"] for m in said] == ["hello", "device", "done"]
    assert said[1]["device"]["backend"] == "torch" and said[-1]["ok"] is True


def test_an_interpreter_that_cannot_start_is_listed_with_its_reason(qtbot, tmp_path) -> None:
    from gpu_tpu_app.ui.shell.standby_workers import StandbyListing

    missing = tmp_path / "gone" / "bin" / "python"
    request = ProbeRequest(suite="smoke", backends=["torch"], python=str(missing))
    standby = StandbyWorkers()
    assert standby.prepare(request) == ["torch"]
    listing = StandbyListing(standby, request)
    qtbot.waitUntil(lambda: not listing.is_running(), timeout=30_000)
    status, devices = listing.results["torch"]
    assert not status.available and devices == []
    assert status.reason.startswith("could not start the worker") and standby.count() == 0
