"""The headless run starts every backend's worker at once (`--standby`), so their frameworks load side by side,
and the first backend measures only after all of them have loaded: loading never overlaps measuring.
Real workers, real torch and JAX; the smoke suite's dispatch point keeps each run short."""

from __future__ import annotations

import importlib.util
import subprocess
import time

import pytest

from gpu_tpu_app.core.runs import Progress, ResultMsg
from gpu_tpu_app.probe import runner
from gpu_tpu_app.probe.runner import ProbeRequest, run_probe

pytestmark = [
    pytest.mark.slow,  # each run imports torch and JAX: over 2 s of CPU
    pytest.mark.skipif(
        not (importlib.util.find_spec("torch") and importlib.util.find_spec("jax")), reason="needs torch and JAX"
    ),
]


def _spy(monkeypatch: pytest.MonkeyPatch) -> tuple[list[tuple[float, list[str]]], list[dict[str, bool]]]:
    """Every process the runner starts (time, argv), and which workers had loaded when the gate opened."""
    starts: list[tuple[float, list[str]]] = []
    gates: list[dict[str, bool]] = []
    real_popen, real_ahead = subprocess.Popen, runner._start_ahead

    def popen(argv, *a, **kw):
        if "--backend" in argv:  # a worker (the module is shared: other processes pass through too)
            starts.append((time.monotonic(), list(argv)))
        return real_popen(argv, *a, **kw)

    def start_ahead(request, cancel):
        ahead = real_ahead(request, cancel)
        gates.append({b: w.listed for b, w in ahead.items()})
        return ahead

    monkeypatch.setattr(runner.subprocess, "Popen", popen)
    monkeypatch.setattr(runner, "_start_ahead", start_ahead)
    return starts, gates


def _run(backends: tuple[str, ...]) -> tuple[list[tuple[float, object]], object]:
    seen: list[tuple[float, object]] = []
    run = run_probe(
        ProbeRequest(suite="smoke", backends=backends, kernels=("dispatch",)),
        lambda m: seen.append((time.monotonic(), m)),
    )
    return seen, run


def test_both_workers_load_at_once_and_the_first_measures_only_after_both_loaded(monkeypatch) -> None:
    starts, gates = _spy(monkeypatch)
    seen, run = _run(("torch", "jax"))
    assert [argv[argv.index("--backend") + 1] for _, argv in starts] == ["torch", "jax"]
    assert all(argv[-1] == "--standby" for _, argv in starts)  # no other process: each run took its worker
    first_point = min(t for t, m in seen if isinstance(m, Progress))
    assert all(t < first_point for t, _ in starts)
    assert gates == [{"torch": True, "jax": True}]  # both had listed their devices before torch's first point
    ok = {(r.backend, r.kernel) for r in run.results if r.status == "ok"}
    assert ok == {("torch", "dispatch"), ("jax", "dispatch")}
    assert not run.errors and run.complete
    # JAX measures after torch is done: its first point comes after torch's last result
    torch_last = max(t for t, m in seen if isinstance(m, ResultMsg) and m.result.backend == "torch")
    jax_first = min(t for t, m in seen if isinstance(m, Progress) and m.backend == "jax")
    assert jax_first > torch_last


def test_a_worker_started_ahead_that_died_is_started_again_and_one_backend_starts_none(monkeypatch) -> None:
    starts, _ = _spy(monkeypatch)
    real_ahead = runner._start_ahead

    def kill_jax(request, cancel):
        ahead = real_ahead(request, cancel)
        if "jax" in ahead:
            ahead["jax"].proc.kill()
            ahead["jax"].proc.wait()
        return ahead

    monkeypatch.setattr(runner, "_start_ahead", kill_jax)
    _, run = _run(("torch", "jax"))
    assert {(r.backend, r.status) for r in run.results} == {("torch", "ok"), ("jax", "ok")}
    assert [argv[-1] == "--standby" for _, argv in starts] == [True, True, False]  # jax started once more
    starts.clear()
    _, run = _run(("torch",))
    assert len(starts) == 1 and "--standby" not in starts[0][1]
    assert [r.status for r in run.results] == ["ok"]


def test_a_worker_that_listed_only_after_the_gate_gave_up_waiting_is_still_taken(monkeypatch) -> None:
    starts, _ = _spy(monkeypatch)
    monkeypatch.setattr(runner, "AHEAD_WAIT_S", 0.0)  # the gate opens at once: neither has listed yet
    _, run = _run(("torch", "jax"))
    assert {(r.backend, r.status) for r in run.results} == {("torch", "ok"), ("jax", "ok")}
    backends = [(argv[argv.index("--backend") + 1], argv[-1] == "--standby") for _, argv in starts]
    # JAX had long listed when its turn came, after torch's points: its standby worker ran them
    assert [b for b in backends if b[0] == "jax"] == [("jax", True)]
