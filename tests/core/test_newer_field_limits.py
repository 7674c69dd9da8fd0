"""The README's limits ("Limits on files the app reads") hold for every field of the newer run-file and session
parts (issue 22 §4): hosts, environment, machine, model-check evidence. Each break is one line naming the field,
in `compare` and in what File > Open reads (load_run, load_session)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gpu_tpu_app.core.runs import load_run
from gpu_tpu_app.core.session import load_session, new_session
from gpu_tpu_app.errors import InputError
from tests.core.test_report import run

HOST = {"host": "node-1", "ranks": [0, 1], "os": "Linux", "python": "3.11.7", "cpu": "x86", "cores": 8}
ENVIRONMENT = {"interpreter": "/usr/bin/python3", "name": "system", "kind": "added", "versions": {"torch": "2.13.0"}}
LONG = "9" * 100_000


def _run_with(**changes: object) -> dict:
    raw = json.loads(run().model_dump_json())
    raw.update({"hosts": [dict(HOST)], "environment": dict(ENVIRONMENT)})
    for path, value in changes.items():
        node = raw
        *parents, leaf = path.split("__")
        for key in parents:
            node = node[int(key)] if key.isdigit() else node[key]
        node[leaf] = value
    return raw


CASES = [
    ({"hosts__0__versions": {"torch": LONG}}, "hosts.0.versions.torch: String should have at most 1000 characters"),
    ({"hosts__0__versions": {LONG: "1"}}, "hosts.0.versions."),
    ({"environment__versions": {"torch": LONG}}, "environment.versions.torch: String should have at most 1000"),
    ({"environment__interpreter": "/" * 5000}, "environment.interpreter: String should have at most 4096"),
    ({"hosts__0__ranks": [0, -1]}, "hosts.0.ranks.1: Input should be greater than or equal to 0"),
    ({"hosts__0__cores": -4}, "hosts.0.cores: Input should be greater than or equal to 0"),
    ({"hosts__0__devices": ["cpu" * 400]}, "hosts.0.devices.0: String should have at most 1000 characters"),
    ({"hosts__0__host": "h" * 300}, "hosts.0.host: String should have at most 255 characters"),
    ({"machine": "m" * 1001}, "machine: String should have at most 1000 characters"),
    (
        {"environment__versions": {f"k{i}": "1" for i in range(300)}},
        "environment.versions: Dictionary should have at most",
    ),
]


@pytest.mark.parametrize(("changes", "needle"), CASES)
def test_a_run_file_over_a_limit_is_refused_in_one_line_naming_the_field(
    tmp_path: Path, changes: dict, needle: str
) -> None:
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(_run_with(**changes)))
    with pytest.raises(InputError) as exc:
        load_run(path)
    message = str(exc.value)
    assert message.startswith(f"{path}: ") and needle in message and "\n" not in message and len(message) < 600


def test_a_run_file_within_the_limits_still_opens(tmp_path: Path) -> None:
    path = tmp_path / "fine.json"
    path.write_text(json.dumps(_run_with(**{"hosts__0__versions": {"torch": "9" * 1000}})))
    assert load_run(path).hosts[0].versions["torch"] == "9" * 1000


def test_compare_refuses_a_run_with_a_negative_rank_in_one_line(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(_run_with()))
    bad.write_text(json.dumps(_run_with(hosts__0__ranks=[-3])))
    proc = subprocess.run(
        [sys.executable, "-m", "gpu_tpu_app", "probe", "compare", str(good), str(bad)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == f"error: {bad}: hosts.0.ranks.0: Input should be greater than or equal to 0\n"


def test_a_session_holding_such_a_run_or_evidence_is_refused_naming_the_field(tmp_path: Path) -> None:
    session = json.loads(new_session().model_dump_json())
    session["runs"] = [_run_with(environment__versions={"jax": LONG})]
    path = tmp_path / "s.json"
    path.write_text(json.dumps(session))
    with pytest.raises(InputError, match=r"runs\.0\.environment\.versions\.jax: String should have at most 1000"):
        load_session(path)
    session["runs"] = []
    session["model_check"] = {
        "file": "model.py",
        "framework": "jax",
        "level": "static_graph_captured",
        "answers": {},
        "evidence": [{"answer": "framework", "value": "jax", "finding": "f" * 3000, "detail": ""}],
        "seconds": 1.0,
    }
    path.write_text(json.dumps(session))
    with pytest.raises(InputError, match=r"model_check\.evidence\.0\.finding: String should have at most 2000"):
        load_session(path)
    session["model_check"]["evidence"][0]["finding"] = "fine"
    session["model_check"]["seconds"] = -1
    path.write_text(json.dumps(session))
    with pytest.raises(InputError, match=r"model_check\.seconds: Input should be greater than or equal to 0"):
        load_session(path)


@pytest.mark.parametrize(
    "argv",
    [
        ["probe", "collective", "--processes", "2", "--max-bytes", "inf"],
        ["probe", "collective", "--processes", "2", "--max-bytes", "nanM"],
        ["check-model", "model.py", "--timeout", "nan"],
        ["decide", "--model", "model.py", "--timeout", "inf"],
    ],
)
def test_number_flags_refuse_nan_and_infinity_up_front(argv: list[str], tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "gpu_tpu_app", *argv], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert ("not a size" in proc.stderr) or ("must be a finite number more than 0" in proc.stderr)
