"""No environment on disk breaks `envs` (issue 22 §3): wrong JSON types, JSON nested 100,000 deep, an endless
answer, a folder name that is not UTF-8 or that holds escape sequences and line breaks, conda's environments
file as a FIFO, linked to /dev/zero, or with a 5,000-character line. Each bad one is listed as unusable with
one line why (or noted), the others still list, and every answer is bounded in size and time."""

from __future__ import annotations

import json
import os
import resource
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gpu_tpu_app.core.environments import PythonEnv
from gpu_tpu_app.probe import envs

META = json.dumps({"part": "meta", "python": "3.12.0", "versions": {"torch": "2.0.0+cpu"}})
TORCH = json.dumps({"part": "torch", "devices": ["cpu"], "versions": {"torch": "2.0.0+cpu"}})
END = json.dumps({"part": "end"})


def _script(path: Path, body: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(("#!/bin/sh\n" + body).encode("utf-8", "surrogateescape"))
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def _answers(path: Path, *lines: str) -> str:
    data = path.with_suffix(".answer")
    data.parent.mkdir(parents=True, exist_ok=True)
    data.write_text("".join(line + "\n" for line in lines))
    return _script(path, f"cat '{data}'\n")


def _venv(home: Path, name: str | bytes, *lines: str) -> Path:
    base = os.fsencode(home / ".virtualenvs") + b"/" + (name if isinstance(name, bytes) else os.fsencode(name))
    prefix = Path(os.fsdecode(base))
    (prefix / "bin").mkdir(parents=True)
    (prefix / "pyvenv.cfg").write_text("home = /usr/bin\n")
    _answers(prefix / "bin" / "python", *(lines or (META, TORCH, END)))
    return prefix / "bin" / "python"


@pytest.mark.parametrize(
    "lines",
    [
        ['{"part": "meta", "python": 3, "versions": [1, 2], "too_old": "no"}', END],
        [META, '{"part": "torch", "devices": 5, "versions": "x", "error": {"a": 1}}', END],
        [META, '{"part": "torch", "devices": [1, null, {"a": 2}, "cpu"], "versions": {"torch": 7, "1": [2]}}', END],
        ['{"part": ["meta"]}', "[1, 2]", '"just a string"', "null", META, TORCH, END],
        [
            '{"part": "meta", "python": "3.12\\n| forged | row |\\u001b[2J", "versions": {"torch": "2\\u001b]0;x\\u0007"}}'
        ],
    ],
)
def test_wrong_json_types_give_a_listed_environment_not_a_traceback(tmp_path: Path, lines: list[str]) -> None:
    env = envs.query_env(_answers(tmp_path / "py", *lines), "venv", "odd", timeout_s=10)
    assert isinstance(env, PythonEnv)
    for text in [env.name, env.problem or "", env.python or "", *env.versions.values(), *env.versions]:
        assert "\n" not in text and "\x1b" not in text and "\x07" not in text
    assert PythonEnv.model_validate_json(env.model_dump_json()) == env  # what the window reads back


def test_json_nested_100000_deep_is_dropped_and_counted(tmp_path: Path) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    env = envs.query_env(_answers(tmp_path / "py", deep, META, deep, TORCH, END), "venv", "deep", timeout_s=10)
    assert env.usable and env.versions["torch"] == "2.0.0+cpu"
    assert env.note == "2 lines of its answer were dropped (first: JSON nested too deeply)"


@pytest.mark.serial  # times the cut against its limit: runs alone (make test's serial part)
def test_an_answer_that_never_ends_is_cut_at_its_limit_quickly(tmp_path: Path) -> None:
    python = _script(tmp_path / "py", 'exec yes \'{"part": "torch", "devices": ["cpu"]}\'\n')
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.monotonic()
    env = envs.query_env(python, "venv", "endless", timeout_s=30)
    took = time.monotonic() - t0
    grew_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert not env.usable and env.problem.endswith("wrote more than 1024 KiB of answer; stopped it")
    assert took < 10 and grew_kib < 64 * 1024  # stopped at 1 MiB, not at the 30 s timeout with gigabytes read


@pytest.mark.serial  # times the cut against its limit: runs alone (make test's serial part)
def test_an_answer_that_trickles_until_the_timeout_is_stopped_at_it(tmp_path: Path) -> None:
    python = _script(tmp_path / "py", f"echo '{META}'\nwhile :; do echo x; sleep 0.1; done\n")
    t0 = time.monotonic()
    env = envs.query_env(python, "venv", "slow", timeout_s=2)
    assert time.monotonic() - t0 < 8 and "did not answer within 2 s" in (env.problem or "")


def _cli_envs(home: Path, tmp_path: Path, *extra: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {
        "HOME": str(home),
        "PATH": "/usr/bin:/bin",
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "LANG": "C.UTF-8",
    }
    return subprocess.run(
        [sys.executable, "-m", "gpu_tpu_app", "probe", "envs", "--timeout-s", "10", *extra],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=tmp_path,
    )


@pytest.mark.slow
def test_one_bad_environment_of_each_kind_and_the_good_one_still_lists(tmp_path: Path) -> None:
    home = tmp_path / "home"
    _venv(home, "good")
    _venv(home, b"latin1-caf\xe9")
    _venv(home, "evil\x1b[2J\n| forged | row | yes |")
    _venv(home, "deep", "[" * 100_000, META, TORCH, END)
    _venv(home, "types", '{"part": "meta", "versions": {"torch": 5}, "python": []}', '{"part": "torch", "devices": 1}')
    (home / ".conda").mkdir()
    (home / ".conda" / "environments.txt").write_text("/x" * 2500 + "\n" + str(home / ".virtualenvs" / "good") + "\n")
    proc = _cli_envs(home, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "\x1b" not in proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 2 + 6  # header, rule, this app and the five environments: one row each
    good = next(ln for ln in lines if ln.startswith("good "))
    assert " yes " in good
    latin = next(ln for ln in lines if ln.startswith("latin1-caf\\xe9"))
    assert " no " in latin and "not plain UTF-8 text on one line; rename the folder" in latin
    evil = next(ln for ln in lines if ln.startswith("evil\\x1b[2J\\n| forged"))
    assert " no " in evil
    assert "dropped (first: JSON nested too deeply)" in next(ln for ln in lines if ln.startswith("deep "))
    assert next(ln for ln in lines if ln.startswith("types "))
    assert "environments.txt: 1 line longer than a path can be (4096 characters) skipped" in proc.stderr

    listing = _cli_envs(home, tmp_path, "--format", "json")
    assert listing.returncode == 0, listing.stderr
    data = json.loads(listing.stdout)
    parsed = envs.parse_envs_json(listing.stdout.encode())  # what the window's selector reads
    assert len(parsed) == 6 and all("\n" not in e.name and "\n" not in e.interpreter for e in parsed)
    assert data["notes"] == [next(ln for ln in proc.stderr.splitlines() if "environments.txt" in ln)[6:]]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_conda_list_as_a_fifo_or_dev_zero_is_refused_at_once(tmp_path: Path, kind: str) -> None:
    home = tmp_path / "home"
    _venv(home, "good")
    (home / ".conda").mkdir()
    listing = home / ".conda" / "environments.txt"
    if kind == "fifo":
        os.mkfifo(listing)
    else:
        listing.symlink_to("/dev/zero")
    t0 = time.monotonic()
    proc = _cli_envs(home, tmp_path, timeout=60)
    assert time.monotonic() - t0 < 45
    assert proc.returncode == 0, proc.stderr
    assert next(ln for ln in proc.stdout.splitlines() if ln.startswith("good "))
    what = "a named pipe (FIFO)" if kind == "fifo" else "a device"
    assert f"note: {listing}: is {what}, not conda's list of environments; not reading it" in proc.stderr


def test_the_answer_parser_counts_only_lines_meant_as_json() -> None:
    from gpu_tpu_app.probe import envanswer

    answer = envanswer.parse_answer(b"Loading CUDA...\n" + META.encode() + b"\n{not json\n" + b"[" * 10 + b"\n")
    assert "meta" in answer.parts and answer.dropped == 2 and answer.first_problem == "not JSON"
    big = b'{"part": "torch", "devices": ["' + b"x" * envanswer.LINE_MAX_BYTES + b'"]}'
    assert envanswer.parse_answer(big).note() == "1 line of its answer was dropped (first: a line over 256 KiB)"


@pytest.mark.slow
def test_a_worker_line_nested_100000_deep_is_dropped_counted_and_the_run_kept(tmp_path: Path) -> None:
    """`run --python` in a real second venv whose sitecustomize writes a line nested 100,000 deep to stdout
    (the worker's message stream) before the worker starts: the run ends normally with its results and
    says how many lines it dropped."""
    from gpu_tpu_app.core.runs import load_run
    from tests.venv_helpers import TORCH_DEPS, link_frameworks, plain_venv, site_dir

    python = plain_venv(tmp_path / "noisy")
    link_frameworks(python, TORCH_DEPS)
    (site_dir(python) / "sitecustomize.py").write_text(
        "import sys\nsys.stdout.write('[' * 100000 + '\\n')\nsys.stdout.write('{\"type\": 5}\\n')\nsys.stdout.flush()\n"
    )
    out = tmp_path / "run.json"
    proc = subprocess.run(
        [
            *(sys.executable, "-m", "gpu_tpu_app", "probe", "run", "--python", str(python), "--suite", "smoke"),
            *("--kernel", "dispatch", "--backend", "torch", "--out", str(out)),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": ""},
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    run = load_run(out)
    assert [r for r in run.results if r.kernel == "dispatch" and r.status in ("ok", "suspect")]
    notes = [e for e in run.errors if "dropped" in e]
    assert notes == [
        "torch: 2 lines from the worker were not probe messages and were dropped (first: JSON nested "
        "too deeply: '" + "[" * 80 + "')"
    ]


def test_the_windows_list_reader_shows_every_text_on_one_line() -> None:
    good = {"interpreter": "/usr/bin/python3", "name": "fine", "kind": "venv"}
    forged = {"interpreter": "/x\n/y", "name": "a\x1b[31m\n| row |" + "n" * 5000, "kind": "venv", "problem": "p\r\n"}
    parsed = envs.parse_envs_json(json.dumps({"environments": [forged, good]}).encode())
    assert [e.name for e in parsed][1] == "fine"
    shown = parsed[0]
    assert shown.interpreter == "/x\\n/y" and shown.problem == "p\\r\\n"
    assert shown.name.startswith("a\\x1b[31m\\n| row |") and len(shown.name) == 200
    with pytest.raises(ValueError, match="could not be read"):
        envs.parse_envs_json(b'{"environments": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")


@pytest.mark.slow
def test_a_ranks_hostile_line_is_dropped_counted_and_the_collective_run_kept(tmp_path: Path) -> None:
    """The same for `collective --python`: each rank's stream drops the line and the run file says so."""
    from gpu_tpu_app.core.runs import load_run
    from tests.venv_helpers import TORCH_DEPS, link_frameworks, plain_venv, site_dir

    python = plain_venv(tmp_path / "noisy")
    link_frameworks(python, (*TORCH_DEPS, "numpy"))
    (site_dir(python) / "sitecustomize.py").write_text(
        "import sys\nsys.stdout.write('[' * 100000 + '\\n')\nsys.stdout.flush()\n"
    )
    out = tmp_path / "run.json"
    proc = subprocess.run(
        [
            *(sys.executable, "-m", "gpu_tpu_app", "probe", "collective", "--processes", "2"),
            *("--python", str(python), "--backend", "torch", "--budget-s", "5", "--max-bytes", "64K"),
            *("--out", str(out)),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": ""},
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    run = load_run(out)
    assert [r for r in run.results if r.status == "ok"]
    notes = sorted(e for e in run.errors if "dropped" in e)
    assert len(notes) == 2 and notes[0].startswith("torch rank 0: 1 line from the worker was not a probe message")
    assert "JSON nested too deeply" in notes[1]


@pytest.mark.serial  # times the cut against its limit: runs alone (make test's serial part)
@pytest.mark.parametrize(
    "body", ['exec yes \'{"envs": ["/a"\'\n', "exec sleep 60\n", "printf '%s' '" + "[" * 100_000 + "'\n"]
)
def test_a_conda_that_writes_forever_hangs_or_nests_deep_falls_back_to_its_file(
    tmp_path: Path, body: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # conda's own time limit (20 s) made 2 s here: the hanging conda proves the same in a tenth of the time
    monkeypatch.setattr(envs, "CONDA_LIST_TIMEOUT_S", 2.0)
    home = tmp_path / "home"
    good = _venv(home, "good")
    conda = _script(tmp_path / "conda", body)
    (home / ".conda").mkdir()
    (home / ".conda" / "environments.txt").write_text(str(good.parent.parent) + "\n")
    t0 = time.monotonic()
    found = envs.discover(home=home, environ={"HOME": str(home), "CONDA_EXE": conda}, cwd=tmp_path, include_app=False)
    assert time.monotonic() - t0 < 12  # conda's time limit is 2 s here; the endless writer is cut at 1 MiB at once
    assert ("conda", "good") in {(k, n) for _p, k, n in found}
