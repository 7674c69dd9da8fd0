"""The built wheel carries its resources: installed into a fresh venv, the commands find them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
INCIDENTAL = "example.com/" + "not-" + "a-source"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(ROOT)],
        check=True,
        timeout=300,
        cwd=out,
    )
    (whl,) = out.glob("gpu_tpu_app-*.whl")
    return whl


def test_wheel_contains_resources_and_entry_points(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        assert "gpu_tpu_app/resources/lesson/lesson.en.toml" in names
        assert "gpu_tpu_app/resources/lesson/lesson.zh-Hans.toml" in names
        assert "gpu_tpu_app/resources/text/learn.zh-Hans.toml" in names
        assert "gpu_tpu_app/resources/catalog/chips.toml" in names
        assert "gpu_tpu_app/resources/decision/decision.en.toml" in names
        assert "gpu_tpu_app/resources/prices/prices.toml" in names
        assert "gpu_tpu_app/core/decision/engine.py" in names
        assert any(n.startswith("gpu_tpu_app/resources/icons/") and n.endswith(".svg") for n in names)
        # the window's translations, compiled (the .ts sources stay out)
        for ts in (ROOT / "resources" / "i18n").glob("*.ts"):
            qm = f"gpu_tpu_app/resources/i18n/{ts.with_suffix('.qm').name}"
            assert qm in names and zf.read(qm)[:16] == bytes.fromhex("3cb86418caef9c95cd211cbf60a1bddd"), qm
        assert not any(n.endswith(".ts") for n in names)
        assert "gpu_tpu_app/resources/text/cli.zh-Hans.toml" in names
        entry_points = next(n for n in names if n.endswith("entry_points.txt"))
        text = zf.read(entry_points).decode()
        assert "[gui_scripts]" in text and "gpu-tpu-app = gpu_tpu_app.cli:main" in text
        assert "gpu-tpu-probe = gpu_tpu_app.commands.probe:main" in text
        for name in names:
            assert INCIDENTAL not in zf.read(name).decode("utf-8", "replace"), name


def test_fresh_venv_loads_lesson_and_catalog_from_the_wheel(wheel: Path, tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    # Third-party dependencies come from this test venv's site-packages, added as a plain path
    # (a .pth line does not run the editable finder), so only the wheel provides gpu_tpu_app.
    site = Path(sysconfig.get_paths()["purelib"])
    target_site = Path(
        subprocess.run(
            [py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    (target_site / "deps.pth").write_text(f"{site}\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps", "-q", str(wheel)],
        check=True,
        timeout=300,
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    code = (
        "import gpu_tpu_app, json\n"
        "from gpu_tpu_app.core.lesson import load_lesson\n"
        "from gpu_tpu_app.core.catalog import load_catalog\n"
        "print(json.dumps({'file': gpu_tpu_app.__file__, 'topics': len(load_lesson().topics),"
        " 'chips': len(load_catalog().chips)}))\n"
        "from gpu_tpu_app.core.decision import Answers, decide\n"
        "print(decide(Answers(framework='jax')).reasons[0].message)\n"
    )
    proc = subprocess.run([py, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    info = json.loads(proc.stdout.splitlines()[0])
    assert proc.stdout.splitlines()[1].startswith("JAX compiles through XLA")
    assert info["file"].startswith(str(target_site))
    assert info["topics"] >= 8 and info["chips"] >= 13
    script = env_dir / "bin" / "gpu-tpu-app"
    assert script.exists()
    proc = subprocess.run([script, "explain"], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "history" in proc.stdout
    # a fresh machine: no SkyPilot or gpuhunt catalogue, yet every chip the shipped table prices has a cost
    home = tmp_path / "fresh-home"
    home.mkdir()
    fresh = {**{k: v for k, v in env.items() if k != "GPUHUNT_CATALOG_DIR"}, "HOME": str(home)}
    proc = subprocess.run(
        [script, "estimate", "--params", "7e9", "--chips", "64"],
        capture_output=True,
        text=True,
        env=fresh,
        cwd=tmp_path,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "tpu-v6e: on-demand $" in proc.stdout and "(shipped table, read 20" in proc.stdout


def test_every_subpackage_is_listed_for_the_wheel() -> None:
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "gpu_tpu_app").rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    assert found - listed == set(), "add these packages to pyproject.toml"
