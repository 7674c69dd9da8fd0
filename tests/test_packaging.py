"""Packaging files: icons rendered from the SVG master, desktop entry and metainfo, the PyInstaller spec.

The built bundle itself is checked by `make bundle-check` (packaging/pyinstaller/bundle_check.py).
"""

from __future__ import annotations

import ast
import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gpu_tpu_app import APP_ID, desktop
from gpu_tpu_app.assets import resource_path

ROOT = Path(__file__).resolve().parents[1]
DESKTOP = ROOT / "resources" / "desktop"
SPEC = ROOT / "packaging" / "pyinstaller" / "gpu-tpu-app.spec"


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_icons = _load("make_icons", ROOT / "packaging" / "make_icons.py")


@pytest.fixture(autouse=True)
def _qt_application(qapp):
    """Qt rendering in these tests runs on pytest-qt's QApplication, so later widget tests can share it."""
    return qapp


@pytest.fixture(scope="module")
def fresh_icons(qapp) -> dict[Path, bytes]:
    """Every icon file as make_icons.py renders it now from the SVG."""
    return make_icons.generate()


def test_every_png_size_is_present_decodes_to_its_size_and_is_not_blank() -> None:
    import numpy as np

    for size in make_icons.SIZES:
        path = resource_path("icons", "png", make_icons.png_name(size))
        assert path.is_file(), f"{path} missing: run python packaging/make_icons.py"
        image = make_icons.decode_png(path.read_bytes())
        assert (image.width(), image.height()) == (size, size)
        px = make_icons.pixels(image)
        alpha = px[..., 3]
        assert alpha[0, 0] == 0, f"{size}px: the corner should be transparent"
        assert (alpha >= 200).mean() > 0.3, f"{size}px: the chip should cover the middle"
        opaque = px[alpha >= 200][:, :3]
        assert len(np.unique(opaque, axis=0)) >= 3, f"{size}px: expected several colours"
    assert set(make_icons.SIZES) == set(desktop.ICON_SIZES)


def test_generated_icons_match_the_svg(fresh_icons: dict[Path, bytes]) -> None:
    assert make_icons.stale() == []
    for path, data in fresh_icons.items():
        if path.suffix == ".png":
            assert make_icons.difference(path.read_bytes(), data) <= make_icons.TOLERANCE


def test_stale_detects_a_changed_or_missing_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    other_svg = tmp_path / "other.svg"
    other_svg.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16" fill="red"/></svg>'
    )
    problems = make_icons.stale(other_svg)
    assert len(problems) == len(make_icons.SIZES) + len(make_icons.ICO_SIZES) + len(make_icons.ICNS_TYPES)
    monkeypatch.setattr(make_icons, "PNG_DIR", tmp_path / "png")
    assert any("missing" in p for p in make_icons.stale())


def test_ico_holds_every_windows_size() -> None:
    entries = make_icons.read_ico(make_icons.ICO.read_bytes())
    assert sorted(entries) == sorted(make_icons.ICO_SIZES)
    for size, data in entries.items():
        image = make_icons.decode_png(data)
        assert (image.width(), image.height()) == (size, size)


def test_icns_holds_every_macos_entry() -> None:
    data = make_icons.ICNS.read_bytes()
    entries = make_icons.read_icns(data)
    assert list(entries) == list(make_icons.ICNS_TYPES)
    for kind, png in entries.items():
        image = make_icons.decode_png(png)
        assert image.width() == image.height() == make_icons.ICNS_TYPES[kind]
    with pytest.raises(ValueError):
        make_icons.read_icns(data[:-1])  # the header's total length no longer matches


def test_ico_round_trip_and_limits() -> None:
    pngs = {16: make_icons.render_png(16), 256: make_icons.render_png(256)}
    assert make_icons.read_ico(make_icons.build_ico(pngs)) == pngs
    with pytest.raises(ValueError):
        make_icons.build_ico({512: b""})
    with pytest.raises(ValueError):
        make_icons.read_ico(b"\x00\x00\x02\x00\x00\x00")  # type 2 is a cursor file


def test_window_icon_resource_renders() -> None:
    from PySide6.QtSvg import QSvgRenderer

    svg = resource_path("icons", "gpu-tpu-app.svg")
    assert svg.is_file()
    assert QSvgRenderer(str(svg)).isValid()


def test_installed_entry_is_the_packaged_one_with_this_launcher() -> None:
    entry = (DESKTOP / f"{APP_ID}.desktop").read_text()
    assert desktop.desktop_entry(["gpu-tpu-app"]) == entry
    custom = desktop.desktop_entry(["/opt/my apps/gpu-tpu-app"])
    assert 'Exec="/opt/my apps/gpu-tpu-app" %F\n' in custom  # %F: the session or run files opened
    assert "TryExec=/opt/my apps/gpu-tpu-app\n" in custom  # a plain path: the spec does not unquote TryExec
    same = custom.replace('"/opt/my apps/gpu-tpu-app"', "gpu-tpu-app").replace(
        "/opt/my apps/gpu-tpu-app", "gpu-tpu-app"
    )
    assert same == entry


@pytest.mark.skipif(
    shutil.which("desktop-file-validate") is None,
    reason="desktop-file-validate is not installed (make system-deps installs desktop-file-utils)",
)
def test_desktop_entry_validates() -> None:
    result = subprocess.run(
        ["desktop-file-validate", str(DESKTOP / f"{APP_ID}.desktop")], capture_output=True, text=True
    )
    assert result.returncode == 0 and result.stdout.strip() == "", result.stdout + result.stderr


@pytest.mark.skipif(
    shutil.which("appstreamcli") is None, reason="appstreamcli is not installed (make system-deps installs appstream)"
)
def test_metainfo_validates() -> None:
    path = DESKTOP / f"{APP_ID}.metainfo.xml"
    result = subprocess.run(
        ["appstreamcli", "validate", "--no-net", "--strict", str(path)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_metainfo_and_entry_agree() -> None:
    import xml.etree.ElementTree as ET

    root = ET.fromstring(desktop.metainfo())
    assert root.findtext("id") == APP_ID
    assert root.findtext("launchable") == f"{APP_ID}.desktop"
    from gpu_tpu_app import __version__

    assert root.find("releases/release").get("version") == __version__
    entry = desktop.desktop_entry(["gpu-tpu-app"])
    assert f"Name={root.findtext('name')}\n" in entry


def _spec_list(name: str) -> list[str]:
    """A list literal assigned at the top level of the spec (read without running PyInstaller)."""
    for node in ast.parse(SPEC.read_text()).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return list(ast.literal_eval(node.value))
    raise AssertionError(f"{name} not found in {SPEC}")


def test_spec_names_entry_icons_resources_and_excludes() -> None:
    text = SPEC.read_text()
    ast.parse(text)
    excludes = _spec_list("EXCLUDES")
    for module in (
        "scipy",
        "matplotlib",
        "OpenGL",
        "pyqtgraph.opengl",
        "h5py",
        "cupy",
        "numba",
        "IPython",
        "tkinter",
        "PyQt5",
        "PyQt6",
        "PySide2",
        "pytest",
        "hypothesis",
        "PySide6.QtQml",
        "PySide6.QtQuick",
        "PySide6.QtWebEngineCore",
        "PySide6.Qt3DCore",
        "PySide6.QtMultimedia",
    ):
        assert module in excludes
    for needed in ("torch", "jax", "numpy", "pydantic", "pyqtgraph", "PySide6", "gpu_tpu_app"):
        assert not any(needed == e or needed.startswith(e + ".") for e in excludes), needed
    assert "excludes=EXCLUDES" in text and "datas=resource_datas()" in text
    assert '"gpu-tpu-app.ico"' in text and '"gpu-tpu-app.icns"' in text and "bundle_identifier=APP_ID" in text
    assert (SPEC.parent / "entry.py").is_file()
    entry = (SPEC.parent / "entry.py").read_text()
    assert "freeze_support()" in entry and "from gpu_tpu_app.cli import main" in entry


@pytest.mark.slow
def test_app_never_imports_an_excluded_module() -> None:
    """Import every module of the app (not running probes) and check none of the spec's excludes loads."""
    excludes = _spec_list("EXCLUDES")
    code = (
        "import importlib, json, pkgutil, sys, gpu_tpu_app\n"
        "for m in pkgutil.walk_packages(gpu_tpu_app.__path__, 'gpu_tpu_app.'):\n"
        "    importlib.import_module(m.name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"},
        timeout=240,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    loaded = set(json.loads(result.stdout.strip().splitlines()[-1]))
    hits = sorted(m for m in loaded for e in excludes if m == e or m.startswith(e + "."))
    assert hits == [], f"the bundle excludes modules the app imports: {hits}"


def test_resource_datas_cover_the_resources_package() -> None:
    text = SPEC.read_text()
    assert 'ROOT / "resources"' in text and '"gpu_tpu_app", "resources"' in text
    # the frozen app looks for its resources exactly there
    from gpu_tpu_app import assets

    assert "_MEIPASS" in Path(assets.__file__).read_text()
    assert resource_path("icons", "gpu-tpu-app.svg").relative_to(assets.resource_root()) == Path(
        "icons", "gpu-tpu-app.svg"
    )


def test_makefile_has_bundle_targets() -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert "\nbundle:" in makefile and "\nbundle-check:" in makefile
    assert "packaging/pyinstaller/gpu-tpu-app.spec" in makefile
    assert "packaging/pyinstaller/bundle_check.py" in makefile and "packaging/linux/check.sh" in makefile
    constraints = (ROOT / "constraints.txt").read_text().splitlines()
    assert any(line.startswith("pyinstaller==") for line in constraints)


def test_makefile_dist_builds_every_release_file_with_its_sum() -> None:
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\ndist:", 1)[1].split("\n\n", 1)[0]
    for step in (
        "git archive --format=tar HEAD",
        "-m build --outdir dist",
        "twine check --strict",
        "GPU_TPU_APP_BUNDLE_FRAMEWORKS=no",
        "packaging/linux/FIRST-RUN.txt",
        "bundle_check.py --no-frameworks",
        "sha256sum",
    ):
        assert step in recipe, step
    assert '-e ".[test,torch,jax,tpu]"' in makefile  # the development venv keeps every framework
    assert {"torch", "jax", "jaxlib", "torchax"} <= set(_spec_list("FRAMEWORK_MODULES"))


def _load_setup():
    return _load("setup_hook", ROOT / "setup.py")  # setup() itself runs only as __main__


def test_one_version_source_and_the_changelog_and_metainfo_follow_it() -> None:
    import re
    import tomllib

    from gpu_tpu_app import __version__

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "gpu_tpu_app.__version__"}
    changelog = (ROOT / "CHANGELOG.md").read_text()
    releases = re.findall(r"^## \[(\d[^\]]*)\] - (\d{4}-\d\d-\d\d)$", changelog, re.M)
    assert releases and releases[0][0] == __version__
    assert "## [Unreleased]" in changelog and f"[{__version__}]: https://" in changelog
    assert "keepachangelog.com" in changelog


def test_the_license_is_the_declared_mit() -> None:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "WITHOUT WARRANTY OF ANY KIND" in text


def test_the_long_description_makes_relative_links_absolute() -> None:
    setup = _load_setup()
    text = (
        "![shot](docs/screenshots/probe.png) [guide](docs/install.md) [run](./examples/a.json#x)\n"
        '[web](https://example.org/a.png) [here](#install) <img src="docs/x.svg" width="40">'
    )
    out = setup.long_description(text)
    assert f"![shot]({setup.RAW}docs/screenshots/probe.png)" in out
    assert f"[guide]({setup.PAGE}docs/install.md)" in out and f"[run]({setup.PAGE}examples/a.json#x)" in out
    assert "[web](https://example.org/a.png)" in out and "[here](#install)" in out
    assert f'<img src="{setup.RAW}docs/x.svg" width="40">' in out
    import re

    readme = setup.long_description((ROOT / "README.md").read_text())
    targets = re.findall(r"\]\(([^)\s]+)", readme)
    assert targets and all(t.startswith(("https://", "http://", "#", "mailto:")) for t in targets), [
        t for t in targets if not t.startswith(("https://", "http://", "#", "mailto:"))
    ][:5]
