"""`gpu-tpu-probe envs --progress` streams one line per interpreter it asks ("step k of n" and which), on
stderr, while its JSON on stdout stays as it was; the window's environment list shows that step, the time so
far and an estimate. Real venvs, a real listing process."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from gpu_tpu_app.probe.envs import PROGRESS_PREFIX, envs_command, parse_envs_json, parse_progress_line, progress_line
from tests.venv_helpers import plain_venv


@pytest.fixture
def three_venvs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    home = tmp_path / "home"
    pythons = [str(plain_venv(home / ".virtualenvs" / f"env{i}")) for i in range(3)]
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("PYENV_ROOT", str(home / "no-pyenv"))
    for name in ("CONDA_EXE", "CONDA_PREFIX", "VIRTUAL_ENV"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(home)
    return pythons


def _run(refresh: bool, progress: bool, added: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    argv = envs_command(added, refresh=refresh, progress=progress)
    return subprocess.run(argv, capture_output=True, text=True, timeout=180, check=False)


def test_the_listing_streams_step_k_of_n_and_keeps_its_json(three_venvs: list[str], tmp_path: Path) -> None:
    added = str(plain_venv(tmp_path / "elsewhere"))
    done = _run(refresh=True, progress=True, added=(added,))
    assert done.returncode == 0, done.stderr
    steps = [s for s in map(parse_progress_line, done.stderr.splitlines()) if s is not None]
    n = steps[0][1]
    assert [k for k, _n, _i in steps] == list(range(1, n + 1)) and {of for _k, of, _i in steps} == {n}
    asked = {i for _k, _n, i in steps}
    assert {*three_venvs, added} <= asked
    found = parse_envs_json(done.stdout.encode())  # the JSON contract: unchanged, nothing else on stdout
    assert {e.interpreter for e in found} >= set(three_venvs)
    assert PROGRESS_PREFIX not in done.stdout and set(json.loads(done.stdout)) == {"environments", "notes"}
    # the other lines are still there for a reader (an added venv without torch or jax says so)
    assert any("neither torch nor jax" in line for line in done.stderr.splitlines())

    # answers from the cache are not asked again: no step lines; without --progress none either
    cached = _run(refresh=False, progress=True)
    assert not [s for s in map(parse_progress_line, cached.stderr.splitlines()) if s is not None]
    plain = _run(refresh=True, progress=False)
    assert PROGRESS_PREFIX not in plain.stderr and parse_envs_json(plain.stdout.encode())


def test_a_progress_line_is_read_back_bounded_and_other_lines_are_not_progress() -> None:
    assert parse_progress_line(progress_line(3, 7, "/home/u/venvs/x/bin/python")) == (
        3,
        7,
        "/home/u/venvs/x/bin/python",
    )
    for bad in (
        "warning: something",
        PROGRESS_PREFIX + "{not json",
        PROGRESS_PREFIX + json.dumps({"step": 8, "of": 7, "interpreter": "p"}),
        PROGRESS_PREFIX + json.dumps({"step": 0, "of": 7, "interpreter": "p"}),
        PROGRESS_PREFIX + json.dumps({"step": "1", "of": 7, "interpreter": "p"}),
        PROGRESS_PREFIX + json.dumps({"step": 1, "of": 7}),
        PROGRESS_PREFIX + json.dumps([1, 2, 3]),
        PROGRESS_PREFIX + "[" * 5000,
    ):
        assert parse_progress_line(bad) is None, bad
    step = parse_progress_line(PROGRESS_PREFIX + json.dumps({"step": 1, "of": 1, "interpreter": "a\nb" + "x" * 900}))
    assert step is not None and "\n" not in step[2] and len(step[2]) <= 300


def test_the_window_shows_step_k_of_n_with_time_and_estimate(qtbot, three_venvs: list[str]) -> None:
    from gpu_tpu_app.ui.probe.envs_view import EnvsView

    view = EnvsView()
    qtbot.addWidget(view)
    view.show()
    notes: list[str] = []
    orig = view.note.setText

    def record(text: str) -> None:
        notes.append(text)
        orig(text)

    view.note.setText = record  # type: ignore[method-assign]
    with qtbot.waitSignal(view.sig_listed, timeout=180_000):
        view.refresh(force=True)
    stepped = [t for t in notes if t.startswith("Step ")]
    assert stepped, notes
    assert any(f"asking {p} which torch and JAX it has" in t for t in stepped for p in three_venvs), stepped
    assert all(" of " in t and " s so far" in t and (" s left" in t or " s at most" in t) for t in stepped)
    assert any(" s left" in t for t in stepped), stepped  # from the second step on, an estimate
    assert {e.interpreter for e in view.environments()} >= set(three_venvs)
