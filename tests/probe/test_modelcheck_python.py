"""check-model --python: the stdlib-only worker runs in the user's own interpreter, with the user's packages.

The second environments are real venvs: one with torch linked in and no pydantic (the app's own packages
must not be needed there), one that also has a small layer package built into it here and installed
from its wheel (a package the app's venv lacks), and one without torch at all.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gpu_tpu_app import cli
from gpu_tpu_app.core.modelcheck import ModelCheck
from gpu_tpu_app.probe.modelcheck_launch import run_check, run_check_detailed
from tests.venv_helpers import TORCH_DEPS, link_frameworks, plain_venv

pytestmark = pytest.mark.slow

DATA = Path(__file__).resolve().parents[1] / "data"
NEEDS_EXTRA = DATA / "models" / "torch_needs_extra_package.py"
PACKAGE = DATA / "packages" / "demo_layers"


@pytest.fixture(scope="module")
def torch_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv with torch (linked from ours) and without pydantic or this app."""
    python = plain_venv(tmp_path_factory.mktemp("envs") / "torch-only")
    link_frameworks(python, TORCH_DEPS)
    probe = "import importlib.util as u; print(u.find_spec('pydantic') is None, u.find_spec('gpu_tpu_app') is None)"
    out = subprocess.run(
        [str(python), "-c", probe], capture_output=True, text=True, timeout=60, check=True, cwd=python.parent
    )
    assert out.stdout.split() == ["True", "True"]
    return python


@pytest.fixture(scope="module")
def extra_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv with torch and the demo layer package, built into a wheel here and installed from it."""
    root = tmp_path_factory.mktemp("extra")
    python = plain_venv(root / "with-extra")
    link_frameworks(python, TORCH_DEPS)
    wheels = root / "wheels"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    build = [*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(wheels), str(PACKAGE)]
    subprocess.run(build, check=True, capture_output=True, timeout=300)
    (wheel,) = wheels.glob("gpu_tpu_demo_layers-*.whl")
    install = [*pip, "--python", str(python), "install", "--no-index", "--no-deps", str(wheel)]
    subprocess.run(install, check=True, capture_output=True, timeout=300)
    return python


def test_check_runs_in_a_venv_without_pydantic(torch_venv: Path) -> None:
    result, findings = run_check_detailed(DATA / "models" / "torch_mha_pool.py", timeout_s=300, python=str(torch_venv))
    assert isinstance(result, ModelCheck), result
    assert findings is not None and findings.interpreter is not None
    assert Path(findings.interpreter).parent == torch_venv.parent  # it ran there, not in the app's Python
    assert result.answers.matmul_share == "dominant"
    assert str(torch_venv.parent) in result.evidence_for("framework")[0].detail


def test_a_package_only_the_users_venv_has_is_found_there(extra_venv: Path) -> None:
    ours = run_check(NEEDS_EXTRA, timeout_s=300)
    assert isinstance(ours, str)
    assert "No module named 'gpu_tpu_demo_layers'" in ours
    assert f"in the Python at {sys.executable}" in ours  # names the interpreter it ran in
    assert "--python PATH" in ours  # and how to choose another
    theirs = run_check(NEEDS_EXTRA, timeout_s=300, python=str(extra_venv))
    assert isinstance(theirs, ModelCheck), theirs
    assert theirs.answers.framework == "pytorch" and theirs.answers.matmul_share == "dominant"
    assert "2 x" not in theirs.evidence_for("matmul_share")[0].finding  # a plausible, complete count


def test_a_venv_without_the_framework_names_that_interpreter(tmp_path: Path) -> None:
    bare = plain_venv(tmp_path / "bare")
    result = run_check(NEEDS_EXTRA, timeout_s=120, python=str(bare))
    assert isinstance(result, str)
    assert "No module named 'torch'" in result and str(tmp_path / "bare") in result


def test_cli_python_flag_and_a_bad_interpreter(
    torch_venv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = str(DATA / "models" / "torch_cond_router.py")
    code = cli.main(["check-model", model, "--python", str(torch_venv), "--format", "json", "--timeout", "300"])
    out, _err = capsys.readouterr()
    assert code == 0
    assert json.loads(out)["answers"]["framework"] == "pytorch"
    code = cli.main(["check-model", model, "--python", str(tmp_path / "nope" / "python")])
    _out, err = capsys.readouterr()
    assert code == 2 and "no such interpreter" in err and len(err.strip().splitlines()) == 1


def test_json_format_prints_an_error_object_for_a_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "broken.py"
    bad.write_text("def model(:\n")
    code = cli.main(["check-model", str(bad), "--format", "json"])
    out, err = capsys.readouterr()
    assert code == 2
    data = json.loads(out)
    assert data["file"] == str(bad) and "SyntaxError" in data["error"] and f"{bad}:1" in data["error"]
    assert "SyntaxError" in err
