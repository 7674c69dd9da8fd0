"""The package as a user gets it: built the standard way (`python -m build`, isolated) from a clean copy of the
tree, checked by twine, installed with its dependencies from the package index into a fresh venv of its own
(the base install: no torch, no JAX), and run there: the commands, the missing-framework lines, and the window
in Simplified Chinese with its compiled translations.

The slow tests need the package index (pip's configuration: PyPI or a mirror), as the CI machine has.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tarfile
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
INCIDENTAL = "example.com/" + "not-" + "a-source"
QM_MAGIC = bytes.fromhex("3cb86418caef9c95cd211cbf60a1bddd")
CJK = re.compile(r"[\u4e00-\u9fff]")


def _bin(env_dir: Path, name: str) -> Path:
    return env_dir / ("Scripts" if os.name == "nt" else "bin") / name


def _new_venv(path: Path) -> Path:
    venv.EnvBuilder(with_pip=True).create(path)
    return _bin(path, "python")


def _clean_env(home: Path) -> dict[str, str]:
    """The environment of a user's shell: no PYTHONPATH, a fresh home, no display (Qt offscreen)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GPUHUNT_CATALOG_DIR", "VIRTUAL_ENV")}
    home.mkdir(parents=True, exist_ok=True)
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local/share"))
    env.update(XDG_CACHE_HOME=str(home / ".cache"), QT_QPA_PLATFORM="offscreen")
    return env


def _clean_copy(dest: Path) -> Path:
    """The tree as a clean clone has it (_listed), copied to `dest`."""
    for rel in _listed():
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, dest / rel)
    return dest


def _listed() -> list[str]:
    """The files a clean clone of the tree has: git's tracked and not-ignored ones (no venv, no built .qm)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
        timeout=60,
    ).stdout.split(b"\0")
    return [p.decode() for p in listed if p and (ROOT / p.decode()).is_file()]


def _source_resources() -> set[str]:
    """Every file under resources/ a clean clone has, with each .ts as the .qm the wheel must carry."""
    return {re.sub(r"\.ts$", ".qm", p.removeprefix("resources/")) for p in _listed() if p.startswith("resources/")}


@pytest.fixture(scope="module")
def tools(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv with the release tools (build, twine) from the package index."""
    py = _new_venv(tmp_path_factory.mktemp("tools") / "venv")
    subprocess.run(
        [py, "-m", "pip", "install", "-q", "--disable-pip-version-check", "build>=1.2", "twine>=6"],
        check=True,
        timeout=600,
    )
    return py


@pytest.fixture(scope="module")
def dist(tools: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """`python -m build` (isolated: its own build environment from pyproject.toml's requirements) on a clean copy."""
    src = _clean_copy(tmp_path_factory.mktemp("clone"))
    out = tmp_path_factory.mktemp("dist")
    proc = subprocess.run(
        [tools, "-m", "build", "-o", str(out), str(src)], capture_output=True, text=True, timeout=900, cwd=src
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    (wheel,) = out.glob("gpu_tpu_app-*.whl")
    (sdist,) = out.glob("gpu_tpu_app-*.tar.gz")
    return {"wheel": wheel, "sdist": sdist}


@pytest.fixture(scope="module")
def base(dist: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The base install: the wheel and its dependencies from the package index, in a fresh venv."""
    env_dir = tmp_path_factory.mktemp("base") / "venv"
    py = _new_venv(env_dir)
    subprocess.run(
        [py, "-m", "pip", "install", "-q", "--disable-pip-version-check", str(dist["wheel"])],
        check=True,
        timeout=900,
    )
    return env_dir


@pytest.mark.slow
def test_the_wheel_carries_every_resource_and_the_compiled_translations(dist: dict[str, Path]) -> None:
    with zipfile.ZipFile(dist["wheel"]) as zf:
        names = set(zf.namelist())
        shipped = {n.removeprefix("gpu_tpu_app/resources/") for n in names if n.startswith("gpu_tpu_app/resources/")}
        assert shipped == _source_resources()
        qms = [n for n in names if n.endswith(".qm")]
        assert len(qms) == len(list((ROOT / "resources" / "i18n").glob("*.ts"))) >= 5
        for qm in qms:
            assert zf.read(qm)[:16] == QM_MAGIC, qm
        assert not any(n.endswith(".ts") for n in names)
        for name in names:
            assert INCIDENTAL not in zf.read(name).decode("utf-8", "replace"), name
        info = next(n.rsplit("/", 1)[0] for n in names if n.endswith(".dist-info/METADATA"))
        assert f"{info}/licenses/LICENSE" in names
        entry_points = zf.read(f"{info}/entry_points.txt").decode()
        metadata = zf.read(f"{info}/METADATA").decode()
    # the commands are a console script (they print in a Windows console), the window a GUI script
    console, _, gui = entry_points.partition("[gui_scripts]")
    assert "[console_scripts]" in console and "gpu-tpu-app = gpu_tpu_app.cli:main" in console
    assert "gpu-tpu-probe = gpu_tpu_app.commands.probe:main" in console
    assert gui.strip() == "gpu-tpu-app-window = gpu_tpu_app.cli:window"
    # the base install has no framework; the extras name them
    requires = re.findall(r"^Requires-Dist: (.+)$", metadata, re.M)
    base = [r for r in requires if "extra ==" not in r]
    assert not any(r.startswith(("torch", "jax", "libtpu", "torchax")) for r in base), base
    assert set(re.findall(r"^Provides-Extra: (\S+)$", metadata, re.M)) >= {"torch", "jax", "tpu", "nvidia", "all"}
    assert any(r.startswith("nvidia-ml-py") and 'extra == "nvidia"' in r for r in requires)
    from gpu_tpu_app import __version__

    assert re.search(r"^Version: (.+)$", metadata, re.M)[1] == __version__  # type: ignore[index]
    assert "License-Expression: MIT" in metadata and "Requires-Python: >=3.11" in metadata
    for classifier in ("Operating System :: POSIX :: Linux", "Programming Language :: Python :: 3.11"):
        assert f"Classifier: {classifier}" in metadata
    # the long description is the README, its images absolute (they render on the package index)
    body = metadata.partition("\n\n")[2]
    assert "# gpu-tpu-app" in body
    images = re.findall(r"!\[[^\]]*\]\(([^)\s]+)", body)
    assert images and all(i.startswith("https://") for i in images), images


@pytest.mark.slow
def test_the_sdist_builds_the_wheel_again_and_twine_accepts_both(dist: dict[str, Path], tools: Path) -> None:
    with tarfile.open(dist["sdist"]) as tf:
        names = {n.split("/", 1)[1] for n in tf.getnames() if "/" in n}
    assert {"LICENSE", "CHANGELOG.md", "README.md", "setup.py", "pyproject.toml", "MANIFEST.in"} <= names
    assert {f"resources/i18n/{ts.name}" for ts in (ROOT / "resources" / "i18n").glob("*.ts")} <= names
    proc = subprocess.run(
        [tools, "-m", "twine", "check", "--strict", str(dist["wheel"]), str(dist["sdist"])],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0 and proc.stdout.count("PASSED") == 2, proc.stdout + proc.stderr


@pytest.mark.slow
def test_the_base_install_has_no_framework_and_every_other_command_works(base: Path, tmp_path: Path) -> None:
    py = _bin(base, "python")
    env = _clean_env(tmp_path / "home")
    found = subprocess.run(
        [py, "-c", "import importlib.util as u, json; print(json.dumps([u.find_spec(m) is None for m in "
         "('torch', 'jax', 'libtpu', 'torchax', 'gpu_tpu_app')]))"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60, check=True,
    )  # fmt: skip
    assert json.loads(found.stdout) == [True, True, True, True, False]
    app = _bin(base, "gpu-tpu-app")
    answers = ROOT / "examples" / "answers-jax-llm-pretraining.json"
    for argv, expect in [
        (["explain"], "history"),
        (["catalog"], "tpu-v6e"),
        (["estimate", "--params", "7e9", "--chips", "64"], "(shipped table, read 20"),
        (["prices", "--chip", "tpu-v6e"], "Google TPU v6e"),
        (["decide", "--answers", str(answers)], "Verdict: TPU"),
    ]:
        proc = subprocess.run([app, *argv], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
        assert proc.returncode == 0 and expect in proc.stdout, (argv, proc.stdout[-500:], proc.stderr[-500:])
    # the probe: each missing framework named with the extra that adds it; the devices list says what it can
    probe = _bin(base, "gpu-tpu-probe")
    proc = subprocess.run(
        [probe, "run", "--suite", "quick"], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    for module in ("torch", "jax"):
        assert f"{module} is not installed in the app's Python ({py}" in proc.stderr, proc.stderr
        assert f"pip install 'gpu-tpu-app[{module}]'" in proc.stderr
    proc = subprocess.run([probe, "devices"], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert "torch: not available: torch is not installed" in proc.stdout, proc.stdout
    assert "pip install 'gpu-tpu-app[jax]' adds it" in proc.stderr and "Traceback" not in proc.stderr
    # the model check: the model's framework is missing here, so the line names the extra
    model = ROOT / "examples" / "models" / "torch_transformer.py"
    proc = subprocess.run(
        [app, "check-model", str(model)], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert "No module named 'torch'" in proc.stderr and "pip install 'gpu-tpu-app[torch]' adds it" in proc.stderr


WINDOW_CHECK = """
import json, sys
from PySide6.QtWidgets import QApplication
from gpu_tpu_app.ui.shell import translations
app = QApplication(sys.argv[:1])
translations.install(app, translations.choose(None, "zh-Hans"))
from gpu_tpu_app.ui.shell.main_window import MainWindow
window = MainWindow(persist=False)
def texts(menu):
    out = []
    for act in menu.actions():
        if not act.isSeparator():
            out.append(act.text())
            if act.menu() is not None:
                out += texts(act.menu())
    return out
menus = [a.text() for a in window.menuBar().actions()]
items = [t for a in window.menuBar().actions() for t in texts(a.menu())]
nav = [window.nav.item(i).text() for i in range(window.nav.count())]
print(json.dumps({"menus": menus, "items": items, "nav": nav}))
window.shutdown()
"""


@pytest.mark.slow
def test_the_installed_window_starts_in_chinese_with_no_english_left_in_its_menus(base: Path, tmp_path: Path) -> None:
    env = _clean_env(tmp_path / "home")
    proc = subprocess.run(
        [_bin(base, "python"), "-c", WINDOW_CHECK], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=180
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    shown = json.loads(proc.stdout.strip().splitlines()[-1])
    assert shown["menus"] == ["文件(&F)", "视图(&V)", "帮助(&H)"]
    assert len(shown["items"]) >= 10 and [t for t in shown["items"] if not CJK.search(t)] == []
    assert shown["nav"] == ["决策", "探测", "学习"]
    # the GUI script opens the window (here rendering one page to a file, then closing)
    shot = tmp_path / "learn.png"
    proc = subprocess.run(
        [_bin(base, "gpu-tpu-app-window"), "--lang", "zh-Hans", "--screenshot", str(shot), "--page", "learn"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=180,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_every_subpackage_is_listed_for_the_wheel() -> None:
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "gpu_tpu_app").rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    assert found - listed == set(), "add these packages to pyproject.toml"
