"""The worker process: its stream is JSON lines only, it skips and budgets points, and stops on a signal."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time

import pytest

from gpu_tpu_app.core.runs import Done, ErrorMsg, Hello, Progress, ResultMsg, parse_message
from gpu_tpu_app.probe.protocol import ProbeRequest, worker_command, worker_env
from gpu_tpu_app.worker import detect, testkernels

TEST_ENV = {testkernels.ENV: "1"}


def worker(
    *args: str, env: dict[str, str] | None = None, timeout: float = 120
) -> tuple[list, subprocess.CompletedProcess]:
    argv = [sys.executable, "-m", "gpu_tpu_app", "probe-worker", *args]
    proc = subprocess.run(argv, capture_output=True, timeout=timeout, env={**os.environ, **(env or {})})
    lines = proc.stdout.decode().splitlines()
    return [parse_message(line) for line in lines], proc  # every stdout line must be a message


def test_list_devices_stream_is_hello_devices_done() -> None:
    msgs, proc = worker("--backend", "torch", "--list-devices")
    assert proc.returncode == 0
    assert isinstance(msgs[0], Hello) and msgs[0].backend == "torch" and msgs[0].versions["torch"]
    assert [m.type for m in msgs[1:-1]] == ["device"] * (len(msgs) - 2)
    assert msgs[1].device.key == "torch:cpu:0"
    assert isinstance(msgs[-1], Done) and msgs[-1].ok


def test_missing_backend_gives_error_and_done_not_a_traceback() -> None:
    msgs, proc = worker("--backend", "jax", "--suite", "smoke", env={detect.DISABLE_ENV: "jax"})
    assert [m.type for m in msgs] == ["hello", "error", "done"]
    assert "not installed" in msgs[1].message and msgs[1].kernel is None
    assert msgs[2].ok is False and proc.returncode == 1
    assert b"Traceback" not in proc.stderr


@pytest.mark.slow
def test_exception_in_a_point_becomes_an_error_result_and_the_run_goes_on() -> None:
    msgs, proc = worker("--backend", "torch", "--suite", "smoke", "--kernel", "test_oom", "dispatch", env=TEST_ENV)
    results = [m.result for m in msgs if isinstance(m, ResultMsg)]
    oom = next(r for r in results if r.kernel == "test_oom")
    assert oom.status == "error" and oom.message.startswith("MemoryError")
    assert any(r.kernel == "dispatch" for r in results)
    assert isinstance(msgs[-1], Done) and msgs[-1].ok and proc.returncode == 0


def test_skip_points_starts_after_the_failed_point() -> None:
    msgs, proc = worker(
        "--backend",
        "torch",
        "--suite",
        "smoke",
        "--kernel",
        "test_segfault",
        "test_oom",
        "--skip-points",
        "1",
        env=TEST_ENV,
    )
    progress = [m for m in msgs if isinstance(m, Progress)]
    assert [(p.done, p.total, p.kernel) for p in progress] == [(1, 2, "test_oom")]
    assert progress[0].point == "torch:cpu:0/test_oom" and progress[0].cap_s == testkernels.CAP_S
    assert proc.returncode == 0  # the segfault kernel was skipped, not run


def test_no_time_left_reports_every_point_as_skipped() -> None:
    msgs, _proc = worker(
        "--backend",
        "torch",
        "--suite",
        "smoke",
        "--kernel",
        "test_oom",
        "test_sleep",
        "--time-left-s",
        "0",
        env=TEST_ENV,
    )
    results = [m.result for m in msgs if isinstance(m, ResultMsg)]
    assert [(r.kernel, r.status) for r in results] == [("test_oom", "skipped"), ("test_sleep", "skipped")]
    assert all("budget" in r.message for r in results)
    assert not any(isinstance(m, Progress) for m in msgs)
    assert msgs[-1].ok and "2 points skipped" in msgs[-1].message


def test_unknown_or_disabled_kernel_is_a_usage_error() -> None:
    _msgs, proc = worker("--backend", "torch", "--kernel", "test_sleep", env={testkernels.ENV: "0"})
    assert proc.returncode == 2 and proc.stdout == b""
    assert proc.stderr.decode().count("\n") == 1 and "unknown kernel 'test_sleep'" in proc.stderr.decode()


@pytest.mark.serial  # times the stop: runs alone (make test's serial part)
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_signal_during_a_hung_point_ends_the_worker_quickly(sig: int) -> None:
    request = ProbeRequest(suite="smoke", backends=("torch",), kernels=("test_sleep",), env=TEST_ENV)
    proc = subprocess.Popen(
        worker_command("torch", request),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=worker_env("torch", request),
    )
    with proc:
        assert proc.stdout is not None
        for raw in proc.stdout:
            if isinstance(parse_message(raw), Progress):
                break
        time.sleep(0.2)  # inside time.sleep of the kernel
        t0 = time.monotonic()
        proc.send_signal(sig)
        rest = [parse_message(line) for line in proc.stdout]
        proc.wait(timeout=10)
        elapsed = time.monotonic() - t0
    assert elapsed < 2.0, elapsed  # goal 1 s (measured about 0.35 s); headroom for a loaded machine
    assert isinstance(rest[-1], Done) and rest[-1].ok is False and rest[-1].message == "cancelled"
    assert proc.returncode == 130


def test_claimed_stdout_keeps_library_prints_off_the_stream() -> None:
    code = (
        "import os; from gpu_tpu_app.worker.main import claim_stdout\n"
        "out = claim_stdout()\nprint('library chatter')\nos.write(1, b'C-level chatter\\n')\n"
        'out.write(\'{"type": "done", "ok": true}\\n\')\n'
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == b'{"type": "done", "ok": true}\n'
    assert b"library chatter" in proc.stderr and b"C-level chatter" in proc.stderr


def test_errors_in_a_point_are_reported_by_name() -> None:
    msgs, _proc = worker("--backend", "jax", "--suite", "smoke", "--kernel", "test_oom", env=TEST_ENV)
    assert not any(isinstance(m, ErrorMsg) for m in msgs)
    (res,) = [m.result for m in msgs if isinstance(m, ResultMsg)]
    assert (res.backend, res.device, res.metric) == ("jax", "jax:cpu:0", "seconds")
    assert res.message == "MemoryError: out of memory"


@pytest.mark.serial  # the plan of a 3 s budget depends on the clock: runs alone (make test's serial part)
def test_points_the_plan_leaves_out_reach_the_table_and_the_run_file_as_skipped(monkeypatch, tmp_path) -> None:
    """A fake device description plans the points; the kernels are never called, so nothing is measured."""
    import io
    import threading
    from types import SimpleNamespace

    from gpu_tpu_app.core.runs import BackendStatus, CpuInfo, DeviceInfo, load_run, save_run
    from gpu_tpu_app.probe.cli_output import results_table
    from gpu_tpu_app.probe.protocol import RunAssembler
    from gpu_tpu_app.worker import kernels
    from gpu_tpu_app.worker import main as worker

    vm = DeviceInfo(
        backend="torch",
        platform="cpu",
        name="Virtual CPU",
        memory_bytes=16 * 1024**3,
        cpu=CpuInfo(model="Virtual CPU", cores=2, caches={"L2": 1024**2, "L3": 260 * 1024**2}),
    )
    monkeypatch.setattr(detect, "detect", lambda backend: (BackendStatus(backend="torch", available=True), [vm]))
    called: list[str] = []
    monkeypatch.setattr(kernels, "run_point", lambda point, ctx: called.append(point.id) or [])
    args = worker._parser().parse_args(
        ["--backend", "torch", "--suite", "quick", "--kernel", "matmul", "triad", "--budget-s", "3"]
    )
    out = io.StringIO()
    stop = SimpleNamespace(is_set=lambda: False, event=threading.Event())
    assert worker.run(args, worker.Emitter(out), stop) == 0  # type: ignore[arg-type]
    msgs = [parse_message(line) for line in out.getvalue().splitlines()]
    planned = kernels.plan("torch", [vm], "quick", ["matmul", "triad"], None, 3.0)
    left_out = [p for p in planned if p.skip]
    assert left_out and not {p.id for p in left_out} & set(called)  # never run
    skipped = [m.result for m in msgs if isinstance(m, ResultMsg) and m.result.status == "skipped"]
    assert {(r.kernel, r.dtype, r.size) for r in skipped} >= {(p.kernel, p.dtype, p.size) for p in left_out}
    assert all("--budget-s" in (r.message or "") for r in skipped)
    assembler = RunAssembler("quick")
    assembler.start_worker("torch")
    for m in msgs:
        assembler.add(m)
    run = assembler.finish()
    table = results_table(run)
    assert "skipped" in table and "--budget-s" in table
    save_run(run, tmp_path / "run.json")
    back = load_run(tmp_path / "run.json")
    assert [r.message for r in back.results if r.status == "skipped"] == [r.message for r in skipped]


def test_on_a_busy_machine_each_point_gets_its_share_of_the_time_left() -> None:
    from gpu_tpu_app.worker.kernels.point import Point
    from gpu_tpu_app.worker.main import _capped

    args = argparse.Namespace(point_cap_s=None)

    def pt(est: float, cap: float) -> Point:
        return Point("x", "matmul", "torch", "torch:cpu:0", "float32", 512, None, est_s=est, cap_s=cap)

    assert _capped(args, pt(0.5, 0.9), 100.0, 5.0).cap_s == 0.9  # time to spare: the plan's cap
    assert _capped(args, pt(0.5, 0.9), 6.0, 5.0).cap_s == 0.6  # 10 % of the estimates left, 10 % of the time
    assert _capped(args, pt(0.5, 0.9), 1.0, 5.0).cap_s == 0.5  # never below the point's own estimate
    assert _capped(args, pt(0.0, 5.0), 10.0, 5.0).cap_s == 5.0  # a point answered without measuring: no share
    assert _capped(argparse.Namespace(point_cap_s=0.3), pt(0.5, 0.9), 100.0, 5.0).cap_s == 0.3
