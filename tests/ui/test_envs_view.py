"""The Probe page's environment selector (a real listing in a QProcess over a fake home with real venvs, a
real probe run in the chosen one) and the collective chart."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from gpu_tpu_app.core.runs import CollectiveInfo, ProbeResult, RunFile
from gpu_tpu_app.core.settings import Preferences
from gpu_tpu_app.probe.envs import parse_envs_json
from gpu_tpu_app.ui.charts.view import ChartData, ChartRun, ChartsView, collective_series
from gpu_tpu_app.ui.shell.theme import theme_manager
from tests.venv_helpers import TORCH_DEPS, link_frameworks, plain_venv

PROBE_TIMEOUT_MS = 240_000


@pytest.fixture
def fake_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A home with two venvs in ~/.virtualenvs: one with torch linked in, one with no framework."""
    home = tmp_path / "home"
    torch_env = plain_venv(home / ".virtualenvs" / "withtorch")
    link_frameworks(torch_env, TORCH_DEPS)
    bare = plain_venv(home / ".virtualenvs" / "bare")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("PYENV_ROOT", str(home / "no-pyenv"))
    monkeypatch.delenv("CONDA_EXE", raising=False)
    monkeypatch.delenv("CONDA_PREFIX", raising=False)
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    return {"torch": str(torch_env), "bare": str(bare), "home": str(home)}


@pytest.mark.slow
def test_selector_lists_environments_and_a_probe_runs_in_the_chosen_one(qtbot, fake_home, monkeypatch) -> None:
    from gpu_tpu_app.ui.probe.probe_panel import ProbePanel

    monkeypatch.chdir(fake_home["home"])  # no ./.venv of the project in the list
    theme_manager().apply("light")
    panel = ProbePanel(Preferences(default_suite="smoke"))
    qtbot.addWidget(panel)
    view = panel.envs
    with qtbot.waitSignal(view.sig_listed, timeout=PROBE_TIMEOUT_MS):
        view.refresh()
    found = {e.interpreter: e for e in view.environments()}
    assert found[fake_home["torch"]].usable and found[fake_home["torch"]].versions["torch"].startswith("2.")
    assert not found[fake_home["bare"]].usable and "neither torch nor jax" in found[fake_home["bare"]].problem
    assert view.combo.itemData(0) is None  # the app's own comes first
    assert not view.select(fake_home["bare"])  # greyed out, with the reason in its tooltip
    assert view.selected() is None

    prefs: list[Preferences] = []
    panel.sig_preferences_changed.connect(prefs.append)
    assert view.select(fake_home["torch"])
    assert prefs[-1].probe_python == fake_home["torch"]  # remembered in the preferences
    note = view.note.text()
    assert note.startswith("torch 2.") and "finds the CPU" in note
    assert "+cpu" not in note and "+cpu" not in view.note.toolTip()  # the build in words, not its version tag

    panel.set_selection(backends=["torch"], kernels=["dispatch"], suite="smoke")
    with qtbot.waitSignal(panel.sig_finished, timeout=PROBE_TIMEOUT_MS) as blocker:
        if panel._lister is not None and panel._lister.is_running():
            qtbot.waitSignal(panel.sig_devices_listed, timeout=PROBE_TIMEOUT_MS).wait()
        assert panel.start()
    run: RunFile = blocker.args[0]
    assert run.environment is not None and run.environment.interpreter == fake_home["torch"]
    assert run.environment.name == "withtorch"
    assert [r.status for r in run.results if r.kernel == "dispatch"] == ["ok"]
    panel.shutdown()


@pytest.mark.slow
def test_a_remembered_environment_that_is_gone_falls_back_to_the_app(qtbot, fake_home, monkeypatch) -> None:
    from gpu_tpu_app.ui.probe.envs_view import EnvsView

    monkeypatch.chdir(fake_home["home"])
    gone = str(Path(fake_home["home"]) / "removed" / "bin" / "python")
    view = EnvsView(selected=gone, added=[gone])
    qtbot.addWidget(view)
    messages: list[tuple[str, str]] = []
    view.sig_message.connect(lambda level, text: messages.append((level, text)))
    with qtbot.waitSignal(view.sig_listed, timeout=PROBE_TIMEOUT_MS):
        view.refresh()
    assert view.selected() is None
    assert any(f"{gone}: no such file" in text for _level, text in messages)  # one line for the bad path


def test_the_listing_output_is_validated() -> None:
    with pytest.raises(ValueError, match="could not be read"):
        parse_envs_json(b'{"environments": [{"interpreter": 5}]}')
    with pytest.raises(ValueError, match="could not be read"):
        parse_envs_json(b"Traceback (most recent call last):")
    assert parse_envs_json(b'{"environments": []}') == []


def _collective_run() -> RunFile:
    """Hand-made test input for drawing; these numbers are not measurements."""
    results = []
    for backend, ranks in (("torch", 2), ("jax", 4)):
        for size in (4096, 65536, 1 << 20):
            busbw = size / 1e-4 * (2 * (ranks - 1) / ranks)
            info = CollectiveInfo(
                op="all_reduce", ranks=ranks, hosts=1, transport="gloo", time_s=1e-4, algbw=size / 1e-4, busbw=busbw
            )
            results.append(
                ProbeResult(
                    kernel="collective",
                    backend=backend,
                    device=f"{backend}:cpu:0",
                    dtype="float32",
                    size=size,
                    variant="all_reduce",
                    metric="bytes_per_s",
                    value=busbw,
                    collective=info,
                )
            )
    return RunFile(
        app_version="0.1.0",
        host="testhost",
        os="Linux",
        python="3.11",
        suite="collective",
        started=datetime(2026, 1, 1, tzinfo=UTC),
        complete=True,
        results=results,
    )


def test_collective_chart_one_line_per_engine_ranks_and_hosts(qtbot) -> None:
    data = ChartData(runs=[ChartRun(run=_collective_run(), label="run 1", index=0)])
    series = collective_series(data, "all_reduce")
    assert set(series) == {(0, "torch", 2, 1, "gloo", "float32"), (0, "jax", 4, 1, "gloo", "float32")}
    assert [s for s, _ in series[(0, "torch", 2, 1, "gloo", "float32")]] == [4096, 65536, 1 << 20]
    assert collective_series(data, "all_gather") == {}
    view = ChartsView(lambda: data)
    qtbot.addWidget(view)
    view.flush_all()
    chart = view.collective
    assert chart.slug == "collective" and chart.has_data
    chart.op.setCurrentIndex(chart.op.findData("reduce_scatter"))  # the user picks it
    assert not chart.has_data


def test_envs_view_runs_alone_without_the_frameworks(qtbot) -> None:
    """The selector's module is part of the window: it must not pull in torch or jax."""
    code = (
        "import sys; import gpu_tpu_app.ui.probe.envs_view; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'torch', 'jax', 'jaxlib'}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert out.returncode == 0 and out.stdout.strip() == "[]", out.stderr


def test_builds_and_devices_are_said_in_words() -> None:
    from gpu_tpu_app.core.environments import PythonEnv, build_flavour
    from gpu_tpu_app.ui.probe.envs_view import build_words, device_words, frameworks_words

    assert build_words(build_flavour({"torch": "2.13.0+cpu", "jaxlib": "0.10.2"}) or "") == (
        "PyTorch CPU-only build, JAX for the CPU"
    )
    assert build_words(build_flavour({"torch": "2.8.0+cu128"}) or "") == "PyTorch CUDA 12.8 build"
    assert build_words("jax TPU (libtpu 0.0.42)") == "JAX TPU build (libtpu 0.0.42)"
    assert [device_words(d) for d in ("cpu", "cpu:0 cpu", "cuda:1 NVIDIA H100 80GB HBM3", "mps")] == [
        "the CPU",
        "the CPU",
        "NVIDIA H100 80GB HBM3",
        "the Apple GPU (MPS)",
    ]
    env = PythonEnv.model_validate(
        {
            "interpreter": "/venv/bin/python",
            "name": "venv",
            "kind": "venv",
            "usable": True,
            "versions": {"torch": "2.13.0+cpu", "jax": "0.10.2"},
            "frameworks": [
                {"framework": "torch", "devices": ["cpu", "cuda:0 NVIDIA L4"]},
                {"framework": "jax", "devices": [], "error": "no jaxlib"},
            ],
        }
    )
    assert frameworks_words(env) == (
        "torch 2.13.0 (CPU-only build) finds the CPU, NVIDIA L4; jax 0.10.2 finds no device (no jaxlib)"
    )


def test_the_listing_says_what_it_does_with_its_time_and_stops_at_once(qtbot, fake_home) -> None:
    """Long work shows what it does, the time so far and the most it may take, and a Stop that ends it now
    (its process killed: the test fixture fails on any process left running)."""
    import time as _time

    from gpu_tpu_app.ui.probe.envs_view import EnvsView

    view = EnvsView()
    qtbot.addWidget(view)
    view.show()
    view.refresh(force=True)
    assert view.is_listing() and view.cancel_button.isVisible() and not view.refresh_button.isEnabled()
    note = view.note.text()
    assert "asking each for its torch and JAX" in note and "s so far" in note and "s at most" in note
    started = _time.monotonic()
    with qtbot.waitSignal(view.sig_listed, timeout=5000):
        view.cancel_button.click()
    assert _time.monotonic() - started < 3.0
    assert not view.is_listing() and not view.cancel_button.isVisible() and view.refresh_button.isEnabled()
    assert view.note.text().startswith("Stopped looking for environments")
