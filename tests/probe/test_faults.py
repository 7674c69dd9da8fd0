"""Faults the probe must survive: a segfault, a hang past the cap, an OOM, a cancel, a missing backend."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from gpu_tpu_app.core.runs import Progress, ResultMsg, load_run
from gpu_tpu_app.probe.runner import ProbeRequest, run_probe
from gpu_tpu_app.worker import detect, testkernels
from tests.terminal import as_from_a_terminal

pytestmark = pytest.mark.slow
TEST_ENV = {testkernels.ENV: "1"}


def cli(*args: str, env: dict[str, str] | None = None, **kw) -> subprocess.Popen:
    return subprocess.Popen(
        as_from_a_terminal([sys.executable, "-m", "gpu_tpu_app", "probe", *args]),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **(env or {})},
        **kw,
    )


def test_segfault_hang_and_oom_become_results_and_both_backends_finish(tmp_path) -> None:
    out = tmp_path / "run.json"
    # a roomy budget: restarts after the faults must not crowd the second backend's points out
    proc = cli(
        "run",
        "--suite",
        "smoke",
        "--backend",
        "all",
        "--kernel",
        "dispatch",
        "test_segfault",
        "test_sleep",
        "test_oom",
        "--budget-s",
        "120",
        "--out",
        str(out),
        env=TEST_ENV,
    )
    stdout, stderr = proc.communicate(timeout=240)
    assert proc.returncode == 0, stderr.decode()
    run = load_run(out)
    assert run.complete and not run.errors
    got = {(r.backend, r.kernel): r for r in run.results}
    for backend in ("torch", "jax"):
        seg, hang, oom = (got[(backend, k)] for k in ("test_segfault", "test_sleep", "test_oom"))
        assert seg.status == "error" and seg.message.startswith("worker crashed (SIGSEGV) during test_segfault")
        assert hang.status == "timeout" and "1 s cap" in hang.message and "test_sleep" in hang.message
        assert oom.status == "error" and oom.message == "MemoryError: out of memory"
        # the kernel planned before the faults was measured for real on both backends
        dispatch = got[(backend, "dispatch")]
        assert dispatch.status == "ok" and 0 < dispatch.value < 0.1 and dispatch.stats.reps >= 3
    order = [(r.backend, r.kernel) for r in run.results]
    assert order.index(("torch", "test_oom")) < order.index(("jax", "dispatch"))  # the next backend ran after
    text = stdout.decode()
    assert "worker crashed (SIGSEGV)" in text and "timeout" in text
    assert "6 points failed or timed out" in stderr.decode()


def test_cancel_keeps_results_and_returns_within_a_second() -> None:
    request = ProbeRequest(suite="smoke", backends=("torch", "jax"), kernels=("dispatch", "test_sleep"), env=TEST_ENV)
    cancel = threading.Event()
    seen: list = []
    asked: list[float] = []

    def on_message(msg) -> None:
        seen.append(msg)
        if isinstance(msg, Progress) and msg.kernel == "test_sleep":
            threading.Timer(0.3, lambda: (asked.append(time.monotonic()), cancel.set())).start()

    run = run_probe(request, on_message=on_message, cancel_event=cancel)
    latency = time.monotonic() - asked[0]
    assert latency < 3.0, latency  # goal 1 s; headroom for a loaded machine
    assert not run.complete and "cancelled before the end" in run.errors
    assert [(r.backend, r.kernel, r.status) for r in run.results] == [("torch", "dispatch", "ok")]
    assert run.results[0] == next(m.result for m in seen if isinstance(m, ResultMsg))
    assert not any(d.backend == "jax" for d in run.devices)  # stopped before the next backend


def test_ctrl_c_writes_the_partial_run_and_exits_130(tmp_path) -> None:
    out = tmp_path / "partial.json"
    proc = cli(
        "run",
        "--suite",
        "smoke",
        "--backend",
        "all",
        "--kernel",
        "dispatch",
        "test_sleep",
        "--out",
        str(out),
        env=TEST_ENV,
    )
    assert proc.stderr is not None
    for line in proc.stderr:  # plain progress lines: stderr is not a terminal
        if b"test_sleep" in line:
            break
    time.sleep(0.3)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=30)
    latency = time.monotonic() - t0
    assert proc.returncode == 130
    assert latency < 3.0, latency
    assert f"cancelled: partial run (1 results) saved to {out}" in stderr.decode()
    run = load_run(out)
    assert not run.complete and [(r.kernel, r.status) for r in run.results] == [("dispatch", "ok")]
    assert b"dispatch" in stdout


def test_ctrl_c_without_out_says_nothing_was_saved() -> None:
    proc = cli("run", "--suite", "smoke", "--backend", "torch", "--kernel", "test_sleep", env=TEST_ENV)
    assert proc.stderr is not None
    for line in proc.stderr:
        if b"test_sleep" in line:
            break
    proc.send_signal(signal.SIGINT)
    _stdout, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 130 and "cancelled: nothing saved (no --out given)" in stderr.decode()


def test_missing_backend_is_reported_and_the_run_goes_on(tmp_path) -> None:
    out = tmp_path / "run.json"
    proc = cli(
        "run",
        "--suite",
        "smoke",
        "--backend",
        "all",
        "--kernel",
        "test_oom",
        "--out",
        str(out),
        env={**TEST_ENV, detect.DISABLE_ENV: "jax"},
    )
    _stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 0, stderr.decode()
    assert "jax: jax is not installed" in stderr.decode()
    run = load_run(out)
    assert run.complete
    status = {b.backend: b for b in run.backends}
    assert status["jax"].available is False and "not installed" in status["jax"].reason
    assert [(r.backend, r.kernel) for r in run.results] == [("torch", "test_oom")]
    assert run.env[detect.DISABLE_ENV] == "jax"
