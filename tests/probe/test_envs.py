"""Python environments: discovery over fake layouts, the query's verdicts on bad interpreters, the cache,
and a real probe run in a second interpreter that has torch but no pydantic."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from gpu_tpu_app.core.environments import build_flavour
from gpu_tpu_app.core.runs import load_run
from gpu_tpu_app.probe import envs
from tests.venv_helpers import TORCH_DEPS, link_frameworks, plain_venv, site_dir

ROOT = Path(__file__).resolve().parent.parent.parent


def _fake_prefix(root: Path, name: str, *, venv: bool = True) -> Path:
    prefix = root / name
    (prefix / "bin").mkdir(parents=True)
    (prefix / "bin" / "python").write_text("#!/bin/sh\nexit 1\n")
    (prefix / "bin" / "python").chmod(0o755)
    if venv:
        (prefix / "pyvenv.cfg").write_text("home = /usr/bin\n")
    return prefix


def _script(path: Path, body: str) -> str:
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_discovery_over_fake_layouts(tmp_path: Path) -> None:
    home = tmp_path / "home"
    _fake_prefix(home / ".virtualenvs", "train")
    _fake_prefix(home / "venvs", "infer")
    (home / "venvs" / "not-a-venv").mkdir(parents=True)  # no pyvenv.cfg: ignored
    conda_a = _fake_prefix(tmp_path / "miniconda" / "envs", "cuda12", venv=False)
    (conda_a / "conda-meta").mkdir()
    gone = tmp_path / "miniconda" / "envs" / "deleted"  # listed but removed: ignored
    (home / ".conda").mkdir()
    (home / ".conda" / "environments.txt").write_text(f"{conda_a}\n{gone}\n\n")
    for version in ("3.12.1", "3.9.18", "3.10.13"):
        _fake_prefix(home / ".pyenv" / "versions", version, venv=False)
    active = _fake_prefix(tmp_path, "active-venv")
    project = tmp_path / "project"
    _fake_prefix(project, ".venv")
    added = _fake_prefix(tmp_path, "mine")
    environ = {"HOME": str(home), "PATH": str(tmp_path / "no-conda-here"), "VIRTUAL_ENV": str(active)}

    found = envs.discover([str(added / "bin" / "python")], home=home, environ=environ, cwd=project)
    rows = {(kind, name) for _path, kind, name in found}
    assert found[0][1:] == ("app", "this app")
    assert ("active", "active-venv") in rows
    assert ("conda", "cuda12") in rows
    assert [n for _p, k, n in found if k == "pyenv"] == ["pyenv 3.9.18", "pyenv 3.10.13", "pyenv 3.12.1"]
    assert ("venv", "train") in rows and ("venv", "infer") in rows
    assert ("venv", "project/.venv") in rows
    assert ("added", "mine") in rows
    assert not any("deleted" in p or "not-a-venv" in p for p, _k, _n in found)
    assert len({p for p, _k, _n in found}) == len(found)  # no duplicates


def test_conda_itself_is_asked_first(tmp_path: Path) -> None:
    env_a = _fake_prefix(tmp_path, "from-conda", venv=False)
    conda = _script(tmp_path / "conda", f"echo '{json.dumps({'envs': [str(env_a)]})}'\n")
    home = tmp_path / "home"
    (home / ".conda").mkdir(parents=True)
    (home / ".conda" / "environments.txt").write_text(str(_fake_prefix(tmp_path, "from-file", venv=False)) + "\n")
    found = envs.discover(home=home, environ={"HOME": str(home), "CONDA_EXE": conda}, cwd=tmp_path, include_app=False)
    assert [(k, n) for _p, k, n in found] == [("conda", "from-conda")]


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda d: str(d / "missing"), "no such file"),
        (lambda d: str(d), "is a folder"),
        (lambda d: str(d / "text.txt") if (d / "text.txt").write_text("hi") else "", "not executable"),
        (lambda d: _script(d / "liar", "echo hello\n"), "not a usable Python interpreter: gave no answer"),
        (lambda d: _script(d / "crasher", "kill -SEGV $$\n"), "crashed (SIGSEGV)"),
        (lambda d: _script(d / "hangs", "exec sleep 30\n"), "did not answer within 2 s"),
    ],
)
def test_bad_interpreters_get_one_line_and_are_unusable(tmp_path: Path, make, expected: str) -> None:
    path = make(tmp_path)
    env = envs.query_env(path, timeout_s=2.0)
    assert not env.usable and expected in env.problem and "\n" not in env.problem


def test_too_old_python_is_named(tmp_path: Path) -> None:
    old = Path(os.path.expanduser("~/.pyenv/versions")).glob("3.[6-9].*/bin/python")
    real = next(iter(sorted(old)), None)
    if real is None:
        pytest.skip("no Python older than 3.10 on this machine")
    env = envs.query_env(str(real), timeout_s=30)
    assert not env.usable and "is too old (the probe needs 3.10 or newer)" in env.problem


def _fake_framework(python: Path, body: str) -> None:
    """A 'torch' whose import does `body` (crash, hang), with metadata so the query tries to import it."""
    site = site_dir(python)
    (site / "torch").mkdir()
    (site / "torch" / "__init__.py").write_text(body)
    meta = site / "torch-9.9.9.dist-info"
    meta.mkdir()
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: torch\nVersion: 9.9.9\n")


def test_python_without_frameworks_and_ones_that_crash_or_hang_at_import(tmp_path: Path) -> None:
    plain = plain_venv(tmp_path / "plain")
    env = envs.query_env(str(plain), timeout_s=30)
    assert not env.usable and "has neither torch nor jax installed" in env.problem
    assert env.python == f"{sys.version_info.major}.{sys.version_info.minor}.{sys.version_info.micro}"

    crash = plain_venv(tmp_path / "crash")
    _fake_framework(crash, "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n")
    env = envs.query_env(str(crash), timeout_s=30)
    assert not env.usable and "importing torch crashed (SIGSEGV)" in env.problem

    hang = plain_venv(tmp_path / "hang")
    _fake_framework(hang, "import time\ntime.sleep(60)\n")
    env = envs.query_env(str(hang), timeout_s=3)
    assert not env.usable and "importing torch did not answer within 3 s" in env.problem

    broken = plain_venv(tmp_path / "broken")
    _fake_framework(broken, "raise ImportError('libcudart.so.12: cannot open shared object file')\n")
    env = envs.query_env(str(broken), timeout_s=30)
    assert not env.usable and "libcudart.so.12" in env.problem


def test_cache_by_interpreter_and_mtime_validated_on_read(tmp_path: Path) -> None:
    calls = tmp_path / "calls"
    meta = json.dumps({"part": "meta", "python": "3.12.0", "versions": {"torch": "2.0.0+cpu"}})
    torch = json.dumps({"part": "torch", "devices": ["cpu"]})
    fake = _script(
        tmp_path / "python", f"echo x >> {calls}\necho '{meta}'\necho '{torch}'\necho '{{\"part\": \"end\"}}'\n"
    )
    cache = tmp_path / "cache.json"
    first = envs.lookup(fake, cache=cache)
    second = envs.lookup(fake, cache=cache)
    assert first.usable and first == second and first.flavour == "torch +cpu"
    assert calls.read_text().count("x") == 1  # the second answer came from the cache
    os.utime(fake, (1, 1))  # the interpreter changed: asked again
    envs.lookup(fake, cache=cache)
    assert calls.read_text().count("x") == 2
    cache.write_text('{"schema_version": 1, "entries": {"x": {"mtime": "soon"}}}')  # not ours any more
    assert envs.lookup(fake, cache=cache) == first
    assert calls.read_text().count("x") == 3
    assert json.loads(cache.read_text())["entries"][fake]["env"]["versions"] == {"torch": "2.0.0+cpu"}


def test_build_flavour() -> None:
    assert build_flavour({"torch": "2.13.0+cpu", "jaxlib": "0.10.2"}) == "torch +cpu, jax cpu"
    assert build_flavour({"torch": "2.8.0+cu128"}) == "torch CUDA 12.8"
    assert build_flavour({"torch": "2.8.0", "torch_cuda": "12.6"}) == "torch CUDA 12.6"
    assert build_flavour({"torch": "2.5.1+rocm6.2"}) == "torch ROCm 6.2"
    assert build_flavour({"jax": "0.7", "jaxlib": "0.7", "libtpu": "0.0.20"}) == "jax TPU (libtpu 0.0.20)"
    assert build_flavour({}) is None


def test_catalogue_digest_matches_like_the_catalogue(monkeypatch: pytest.MonkeyPatch) -> None:
    from gpu_tpu_app.core.catalog import load_catalog
    from gpu_tpu_app.shared.devicematch import match_device_name
    from gpu_tpu_app.worker import detect

    catalog = load_catalog()
    names = ["NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-80GB", "TPU v5 lite", "NVIDIA GeForce RTX 4090", "Toaster"]
    rows = [(c.id, c.match) for c in catalog.chips]
    expected = {n: match_device_name(n, rows) for n in names}
    monkeypatch.setenv(detect.CATALOG_ENV, envs.catalog_digest())
    assert {n: detect.catalog_match(n) for n in names} == expected
    assert sum(v is not None for v in expected.values()) >= 2
    chip = next(v for v in expected.values() if v)
    peaks, bw = detect.catalog_peaks(chip)
    assert peaks and bw == catalog.chip(chip).mem_bw_bytes_per_s()


@pytest.mark.slow
def test_real_probe_run_in_a_venv_with_torch_linked_in_and_no_pydantic(tmp_path: Path) -> None:
    python = plain_venv(tmp_path / "torch-only")
    link_frameworks(python, TORCH_DEPS)
    check = subprocess.run([str(python), "-c", "import pydantic"], capture_output=True, timeout=60)
    assert check.returncode != 0  # the second interpreter really has no pydantic

    found = envs.lookup(str(python), cache=tmp_path / "cache.json", timeout_s=120)
    assert found.usable and found.versions["torch"].startswith("2.") and found.name == "torch-only"
    assert [f.devices for f in found.frameworks if f.framework == "torch"] == [["cpu"]]

    out = tmp_path / "run.json"
    env = {**os.environ, "PYTHONPATH": ""}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "gpu_tpu_app",
            "probe",
            "run",
            "--python",
            str(python),
            "--suite",
            "smoke",
            "--kernel",
            "matmul",
            "dispatch",
            "--backend",
            "torch",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    run = load_run(out)
    ok = [r for r in run.results if r.status in ("ok", "suspect")]
    assert {r.kernel for r in ok} == {"matmul", "dispatch"} and all(r.value and r.value > 0 for r in ok)
    assert run.environment is not None
    assert run.environment.interpreter == str(python) and run.environment.name == "torch-only"
    assert run.environment.versions["torch"] == found.versions["torch"] and run.environment.flavour

    dev = subprocess.run(
        [
            sys.executable,
            "-m",
            "gpu_tpu_app",
            "probe",
            "devices",
            "--python",
            str(python),
            "--backend",
            "torch",
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=tmp_path,
    )
    assert dev.returncode == 0, dev.stderr
    assert [d["key"] for d in json.loads(dev.stdout)["devices"]] == ["torch:cpu:0"]

    # what the worker imported there: the standard library, torch and what torch brings; nothing of the app's
    probe = (
        "import json, sys; import gpu_tpu_app.worker.main, gpu_tpu_app.worker.kernels.torch_kernels, "
        "gpu_tpu_app.worker.collective; print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))"
    )
    env = envs.foreign_env(dict(os.environ))
    mods = json.loads(
        subprocess.run(
            [str(python), "-c", probe], capture_output=True, text=True, check=True, timeout=120, env=env
        ).stdout
    )
    assert not {"pydantic", "pydantic_core", "PySide6", "pyqtgraph", "platformdirs", "numpy"} & set(mods)
    assert "torch" in mods and "gpu_tpu_app" in mods


def test_worker_records_carry_the_same_fields_as_the_run_file_models() -> None:
    """worker/wire.py mirrors core/runs.py for interpreters without pydantic: a field added to one must reach both."""
    import dataclasses

    from gpu_tpu_app.core import runs
    from gpu_tpu_app.worker import wire

    names = (
        "CpuInfo",
        "DeviceInfo",
        "BackendStatus",
        "Stats",
        "DeviceState",
        "CollectiveInfo",
        "ProbeResult",
        "Hello",
        "DeviceMsg",
        "Progress",
        "ResultMsg",
        "ErrorMsg",
        "Done",
    )
    drift = {}
    for name in names:
        model = set(getattr(runs, name).model_fields) - {"schema_version"}
        record = {f.name for f in dataclasses.fields(getattr(wire, name))}
        if model != record:
            drift[name] = {"only in core.runs": sorted(model - record), "only in wire": sorted(record - model)}
    assert drift == {}


def test_the_digest_knows_amd_parts_and_caches_from_the_catalogue(monkeypatch: pytest.MonkeyPatch) -> None:
    from gpu_tpu_app.core.catalog import load_catalog
    from gpu_tpu_app.shared.devicematch import ROCM_MEMORY_RANGE
    from gpu_tpu_app.worker import detect

    monkeypatch.setenv(detect.CATALOG_ENV, envs.catalog_digest())
    catalog = load_catalog()
    amd = [c for c in catalog.chips if c.rocm is not None]
    assert {c.id for c in amd} >= {"mi300x", "mi325x"}
    low, high = ROCM_MEMORY_RANGE
    for chip in amd:
        assert chip.rocm is not None
        published = chip.memory_bytes()
        assert published
        arch, cus = f"{chip.rocm.target}:sramecc+:xnack-", chip.rocm.compute_units
        assert detect._rocm_match(arch, cus, int(published)) == chip.id
        assert detect._rocm_match(arch, cus, int(published * (high + 0.01))) != chip.id
        assert detect._rocm_match(arch, cus, int(published * (low - 0.01))) != chip.id
        assert detect._rocm_match(arch, cus + 1, int(published)) is None
    assert detect._rocm_match("gfx942", 228, 200e9) is None  # an MI300A fits no row
    for chip in catalog.chips:
        assert detect.device_llc(None, chip.id) == chip.llc_bytes()
        assert detect.device_llc(1, chip.id) == (chip.llc_bytes() or 1)


@pytest.mark.parametrize("command", ["run", "devices"])
def test_python_flag_names_a_bad_interpreter_in_one_line(tmp_path: Path, command: str) -> None:
    not_python = tmp_path / "notes.txt"
    not_python.write_text("hello")
    proc = subprocess.run(
        [sys.executable, "-m", "gpu_tpu_app", "probe", command, "--python", str(not_python)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == f"error: --python: {not_python}: not executable, not a Python interpreter\n"


def test_the_workers_message_limit_is_the_run_files() -> None:
    from gpu_tpu_app.safe_read import TEXT_CHARS
    from gpu_tpu_app.worker import main as worker

    assert worker.TEXT_CHARS == TEXT_CHARS


def _worker_contract() -> dict:
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"][
        "contracts"
    ]
    return next(c for c in contracts if "gpu_tpu_app.worker" in c["source_modules"])


def test_the_staged_worker_sources_hold_every_module_the_worker_imports() -> None:
    import grimp

    graph = grimp.build_graph("gpu_tpu_app", include_external_packages=False, exclude_type_checking_imports=True)
    # the imports the worker contract (pyproject.toml) ignores are made inside functions only the app calls
    for edge in _worker_contract()["ignore_imports"]:
        importer, imported = (part.strip() for part in edge.split("->"))
        graph.remove_import(importer=importer, imported=imported)

    def rel(module: str) -> str:
        path = "/".join(module.split(".")[1:])
        if (ROOT / "gpu_tpu_app" / path).is_dir():
            return f"{path}/__init__.py".lstrip("/")
        return f"{path}.py"

    staged = set(envs.WORKER_MODULES)
    needed = {"gpu_tpu_app.worker.main", "gpu_tpu_app.worker.collective", "gpu_tpu_app.worker.envquery"}
    for module in list(needed):
        needed |= graph.find_upstream_modules(module)
    assert {"worker/kernels/planner.py", "worker/main.py"} <= {rel(m) for m in needed}
    assert sorted(rel(m) for m in needed if rel(m) not in staged) == []
