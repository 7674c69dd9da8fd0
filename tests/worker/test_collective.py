"""Collectives across processes over loopback: 2 and 4 ranks for torch.distributed (gloo) and jax.distributed
(gloo CPU collectives), torchrun as the launcher, and the failures: an unreachable coordinator, a missing
rank, a rank that crashes in the middle. Messages stay small (4 KiB to 16 KiB) so this is quick on 2 cores."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gpu_tpu_app.core.runs import RunFile, load_run, save_run
from gpu_tpu_app.probe.group import GroupRequest, free_port, run_group
from gpu_tpu_app.worker import collective

SMALL = 16 * 1024


def test_bus_bandwidth_factors_follow_nccl_tests() -> None:
    assert collective.bus_factor("all_reduce", 2) == 1.0
    assert collective.bus_factor("all_reduce", 4) == 1.5
    assert collective.bus_factor("all_gather", 4) == 0.75
    assert collective.bus_factor("reduce_scatter", 8) == 0.875
    assert collective.bus_factor("all_reduce", 1) == 0.0


def test_message_sizes_from_4_kib_in_steps_of_4_up_to_the_limit() -> None:
    assert collective.message_sizes(64 * 1024**2, 2) == [4096 * 4**k for k in range(8)]
    assert collective.message_sizes(SMALL, 4) == [4096, 16384]
    assert all(s % (4 * 3 * 2) == 0 for s in collective.message_sizes(1024**2, 3))  # whole elements per rank


def test_merge_hosts_keeps_each_hosts_ranks() -> None:
    infos = [
        {"host": "b", "rank": 2, "devices": ["cuda:0"]},
        {"host": "a", "rank": 0, "devices": ["cuda:0"]},
        {"host": "a", "rank": 1, "devices": ["cuda:1"]},
    ]
    hosts = collective.merge_hosts(infos)
    assert [(h["host"], h["ranks"], h["devices"]) for h in hosts] == [
        ("a", [0, 1], ["cuda:0", "cuda:1"]),
        ("b", [2], ["cuda:0"]),
    ]


@pytest.fixture(scope="module")
def local_groups() -> dict[int, RunFile]:
    """One real group per size, 2 and 4 ranks, each running both engines in turn: the four cases below read
    these two runs instead of starting ranks four times."""
    return {
        ranks: run_group(
            GroupRequest(processes=ranks, backends=("torch", "jax"), max_bytes=SMALL, budget_s=120, timeout_s=120)
        )
        for ranks in (2, 4)
    }


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["torch", "jax"])
@pytest.mark.parametrize("ranks", [2, 4])
def test_local_group_measures_three_collectives(
    local_groups: dict[int, RunFile], backend: str, ranks: int, tmp_path: Path
) -> None:
    run = local_groups[ranks]
    assert run.errors == [] and run.complete
    ok = [r for r in run.results if r.status == "ok" and r.backend == backend]
    assert {(r.variant, r.size) for r in ok} == {(op, s) for op in collective.OPS for s in (4096, SMALL)}
    for r in ok:
        c = r.collective
        assert c is not None and c.ranks == ranks and c.hosts == 1 and c.transport == "gloo"
        assert r.value == pytest.approx(c.busbw) and c.busbw == pytest.approx(
            c.algbw * collective.bus_factor(c.op, ranks)
        )
        assert c.time_s == pytest.approx(r.size / c.algbw) and c.time_s > 0
    [host] = run.hosts
    assert host.ranks == list(range(ranks)) and host.python and host.versions.get("transport") == "gloo"
    assert len(host.devices) == ranks
    path = tmp_path / "collective.json"
    save_run(run, path)
    assert load_run(path) == run  # opens like any other run file


@pytest.mark.slow
def test_cli_collective_writes_a_run_that_compare_opens(tmp_path: Path) -> None:
    out = tmp_path / "c.json"
    cmd = [
        sys.executable,
        "-m",
        "gpu_tpu_app",
        "probe",
        "collective",
        "--processes",
        "2",
        "--backend",
        "torch",
        "--max-bytes",
        "4K",
        "--out",
        str(out),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "all_reduce" in proc.stdout and "busbw" in proc.stdout and f"saved {out}" in proc.stderr
    cmp_ = subprocess.run(
        [sys.executable, "-m", "gpu_tpu_app", "probe", "compare", str(out), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert cmp_.returncode == 0, cmp_.stderr
    rows = json.loads(cmp_.stdout)["rows"]
    assert {r["variant"] for r in rows if r["kernel"] == "collective"} == set(collective.OPS)


def test_bad_max_bytes_is_one_line() -> None:
    cmd = [sys.executable, "-m", "gpu_tpu_app", "probe", "collective", "--processes", "2", "--max-bytes", "lots"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "--max-bytes: 'lots' is not a size" in proc.stderr


@pytest.mark.slow
def test_torchrun_launches_the_run_command_once_per_process(tmp_path: Path) -> None:
    out = tmp_path / "torchrun.json"
    env = {
        **os.environ,
        "GPU_TPU_APP_COLLECTIVE_MAX_BYTES": "4096",
        "GPU_TPU_APP_COLLECTIVE_CPU": "1",
        "GLOO_SOCKET_IFNAME": "lo",
    }
    cmd = [
        sys.executable,
        "-m",
        "torch.distributed.run",
        "--standalone",
        "--nproc-per-node",
        "2",
        "-m",
        "gpu_tpu_app",
        "probe",
        "run",
        "--kernel",
        "collective",
        "--backend",
        "torch",
        "--out",
        str(out),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "rank 1: done; rank 0 writes the run file" in proc.stderr
    run = load_run(out)
    ok = [r for r in run.results if r.status == "ok"]
    assert {r.variant for r in ok} == set(collective.OPS) and all(r.collective.ranks == 2 for r in ok)
    assert run.hosts[0].ranks == [0, 1]


def _rank_alone(backend: str, rank: int, port: int) -> subprocess.CompletedProcess:
    env = {**os.environ, "GPU_TPU_APP_COLLECTIVE_TIMEOUT_S": "3", "GPU_TPU_APP_COLLECTIVE_CPU": "1"}
    if backend == "torch":
        env.update(RANK=str(rank), WORLD_SIZE="2", MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    else:
        env.update(
            JAX_PROCESS_ID=str(rank),
            JAX_NUM_PROCESSES="2",
            JAX_COORDINATOR_ADDRESS=f"127.0.0.1:{port}",
            JAX_PLATFORMS="cpu",
        )
    cmd = [sys.executable, "-m", "gpu_tpu_app", "probe", "run", "--kernel", "collective", "--backend", backend]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)


@pytest.mark.parametrize("backend", ["torch", "jax"])
@pytest.mark.parametrize(("rank", "case"), [(1, "unreachable coordinator"), (0, "missing rank")])
def test_an_incomplete_group_ends_with_one_line(backend: str, rank: int, case: str) -> None:
    proc = _rank_alone(backend, rank, free_port())  # nobody listens there / nobody else joins
    assert proc.returncode == 1, case
    lines = [x for x in proc.stderr.splitlines() if x.startswith(f"{backend}: ")]
    assert len(lines) == 1, proc.stderr[-2000:]
    assert "could not join the torch group within 3 s" in lines[0] or "s while joining the group" in lines[0]
    assert "Traceback" not in proc.stderr


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["torch", "jax"])
def test_a_crashed_rank_ends_the_others_and_keeps_what_was_measured(backend: str, monkeypatch) -> None:
    monkeypatch.setenv("GPU_TPU_APP_TEST_KERNELS", "1")
    monkeypatch.setenv("GPU_TPU_APP_TEST_CRASH_RANK", "1:3")  # rank 1 dies before the fourth point
    run = run_group(GroupRequest(processes=2, backends=(backend,), max_bytes=SMALL, budget_s=60, timeout_s=20))
    ok = [r for r in run.results if r.status == "ok"]
    assert [r.variant for r in ok] == list(collective.OPS)  # the first three points, all kept
    assert any("rank 1 crashed (SIGKILL)" in e for e in run.errors)
    assert not any(r.status == "ok" and r.size == SMALL for r in run.results)


def test_stalled_operations_are_said_and_jax_gloo_stalls_are_put_down_to_jax() -> None:
    """Issue 24: JAX's gloo all-reduce at 64-256 KiB took ~90 ms per operation in a plain jax.distributed
    loop as in the probe, while most operations took under a millisecond (times below as measured there)."""
    from gpu_tpu_app.worker.collective.report import _measured_result, stall_note

    steady = [0.0005, 0.00052, 0.00049, 0.0006, 0.0011]
    assert stall_note("jax", "gloo", steady) is None
    assert stall_note("jax", "gloo", [*steady, 0.09]) is None  # one slow operation is not a pattern
    stalled = [*steady, 0.0875, 0.1896, 0.052]
    note = stall_note("jax", "gloo", stalled) or ""
    assert note.startswith("3 of 8 operations stalled (up to 190 ms, the fastest took 0.49 ms)")
    assert "JAX's own gloo transport" in note
    torch_note = stall_note("torch", "gloo", stalled) or ""
    assert torch_note.startswith("3 of 8 operations stalled") and "JAX" not in torch_note
    r = _measured_result("jax", "jax:cpu:0", "all_reduce", "float32", 262144, 2, 1, "gloo", stalled, 1.0)
    assert r.message is not None and r.message.endswith("so this figure is JAX's, not the probe's")
