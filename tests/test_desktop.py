"""Desktop integration: --install-desktop-entry / --uninstall-desktop-entry in a private XDG data dir."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gpu_tpu_app import APP_ID, cli, desktop


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh $XDG_DATA_HOME for one test."""
    root = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(root))
    return root


def all_files(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if p.is_file()}


def unquote_exec(value: str) -> list[str]:
    """Split an Exec value back into arguments, following the Desktop Entry Specification."""
    # First the string-value escapes, then the Exec quoting rules.
    text, i = "", 0
    while i < len(value):
        if value[i] == "\\" and i + 1 < len(value):
            text += {"s": " ", "n": "\n", "t": "\t", "r": "\r", "\\": "\\"}.get(value[i + 1], "\\" + value[i + 1])
            i += 2
        else:
            text += value[i]
            i += 1
    args, cur, quoted, i, started = [], "", False, 0, False
    while i < len(text):
        ch = text[i]
        if quoted:
            if ch == "\\" and i + 1 < len(text) and text[i + 1] in '"`$\\':
                cur += text[i + 1]
                i += 1
            elif ch == '"':
                quoted = False
            else:
                cur += ch
        elif ch == '"':
            quoted, started = True, True
        elif ch == " ":
            if started or cur:
                args.append(cur)
            cur, started = "", False
        else:
            cur += ch
        i += 1
    if started or cur:
        args.append(cur)
    return [a.replace("%%", "%") for a in args]


def entry_value(text: str, key: str) -> str:
    for line in text.splitlines():
        if line.startswith(key + "="):
            return line[len(key) + 1 :]
    raise AssertionError(f"no {key}= line in the desktop entry")


def test_install_writes_exactly_the_planned_files(data_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert desktop.main(install=True) == 0
    out = capsys.readouterr().out
    expected = set(desktop.installed_paths(data_home))
    assert all_files(data_home) == expected
    assert len(expected) == 3 + len(desktop.ICON_SIZES)
    for path, data in desktop.planned_files(data_home).items():
        assert path.read_bytes() == data
        assert f"wrote {path}" in out
    for size in desktop.ICON_SIZES:
        assert (data_home / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png").is_file()
    assert (data_home / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg").is_file()
    assert (data_home / "metainfo" / f"{APP_ID}.metainfo.xml").is_file()


def test_exec_is_this_installs_absolute_launcher(data_home: Path) -> None:
    desktop.install_entry()
    text = (data_home / "applications" / f"{APP_ID}.desktop").read_text()
    args = unquote_exec(entry_value(text, "Exec"))
    assert args == desktop.launcher_command()
    launcher = Path(args[0])
    assert launcher.is_absolute() and launcher.is_file() and os.access(launcher, os.X_OK)
    assert unquote_exec(entry_value(text, "TryExec")) == [args[0]]
    assert entry_value(text, "Icon") == APP_ID


def test_launcher_in_a_venv_is_the_script_next_to_python() -> None:
    script = Path(sys.executable).absolute().parent / "gpu-tpu-app"
    if not script.is_file():
        pytest.skip(f"{script} is not installed (the package is not pip-installed in this interpreter)")
    assert desktop.launcher_command() == [str(script)]


def test_launcher_fallbacks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_python = tmp_path / "bin" / "python3"
    fake_python.parent.mkdir()
    fake_python.write_text("")
    monkeypatch.setattr(sys, "executable", str(fake_python))
    assert desktop.launcher_command() == [str(fake_python), "-m", "gpu_tpu_app"]
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert desktop.launcher_command() == [str(fake_python)]


def test_reinstall_is_harmless(data_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert desktop.main(install=True) == 0
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in all_files(data_home)}
    capsys.readouterr()
    assert desktop.main(install=True) == 0
    out = capsys.readouterr().out
    after = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in all_files(data_home)}
    assert after == before
    assert "wrote" not in out and out.count("unchanged ") == len(before)


def test_install_repairs_a_changed_file(data_home: Path) -> None:
    desktop.install_entry()
    entry = data_home / "applications" / f"{APP_ID}.desktop"
    entry.write_text("[Desktop Entry]\nExec=/old/path\n")
    assert desktop.install_entry() == [entry]
    assert "/old/path" not in entry.read_text()


def test_uninstall_removes_exactly_those_files(data_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    others = [
        data_home / "applications" / "other.desktop",
        data_home / "icons" / "hicolor" / "48x48" / "apps" / "other.png",
        data_home / "metainfo" / "other.metainfo.xml",
    ]
    for path in others:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("someone else's file")
    assert desktop.main(install=True) == 0
    capsys.readouterr()
    assert desktop.main(install=False) == 0
    out = capsys.readouterr().out
    assert all_files(data_home) == set(others)
    assert out.count("removed ") == len(desktop.installed_paths(data_home))
    assert desktop.main(install=False) == 0
    assert "nothing to remove" in capsys.readouterr().out
    assert all_files(data_home) == set(others)


def test_cli_flags_reach_the_installer(data_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--install-desktop-entry"]) == 0
    assert (data_home / "applications" / f"{APP_ID}.desktop").is_file()
    assert cli.main(["--uninstall-desktop-entry"]) == 0
    assert all_files(data_home) == set()
    capsys.readouterr()


def test_default_is_home_local_share(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_DATA_HOME")
    assert desktop.data_home() == tmp_path / ".local" / "share"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/dir")  # the XDG spec says: ignore relative paths
    assert desktop.data_home() == tmp_path / ".local" / "share"


def test_unwritable_data_home_is_a_one_line_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where a folder should be")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocker))
    assert desktop.main(install=True) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1
    assert blocker.read_text() == "a file where a folder should be"


def test_exec_quoting_round_trips() -> None:
    awkward = ['/opt/my apps/gpu "tpu" $HOME`x`\\y', "--flag=50%", "plain"]
    entry = desktop.desktop_entry(awkward)
    assert unquote_exec(entry_value(entry, "Exec")) == awkward
    assert desktop.exec_quote("/usr/bin/gpu-tpu-app") == "/usr/bin/gpu-tpu-app"


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None, reason="desktop-file-validate is not installed")
def test_installed_entry_passes_desktop_file_validate(data_home: Path, tmp_path: Path) -> None:
    desktop.install_entry()
    installed = data_home / "applications" / f"{APP_ID}.desktop"
    result = subprocess.run(["desktop-file-validate", str(installed)], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.strip() == "", result.stdout + result.stderr
    # An awkward launcher path still gives a valid entry.
    awkward = tmp_path / f"{APP_ID}.desktop"
    awkward.write_text(desktop.desktop_entry(['/opt/my apps/gpu "tpu" $x', "-m", "gpu_tpu_app"]))
    result = subprocess.run(["desktop-file-validate", str(awkward)], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.strip() == "", result.stdout + result.stderr


@pytest.mark.skipif(shutil.which("gtk-update-icon-cache") is None, reason="gtk-update-icon-cache is not installed")
def test_an_existing_icon_cache_is_refreshed(data_home: Path) -> None:
    hicolor = data_home / "icons" / "hicolor"
    other = hicolor / "48x48" / "apps" / "other-app.png"
    other.parent.mkdir(parents=True)
    shutil.copy(desktop.resource_path("icons", "png", "gpu-tpu-app-48.png"), other)
    subprocess.run(["gtk-update-icon-cache", "-q", "-t", "-f", str(hicolor)], check=True)
    cache = hicolor / "icon-theme.cache"
    assert b"other-app" in cache.read_bytes() and APP_ID.encode() not in cache.read_bytes()
    desktop.install_entry()
    assert APP_ID.encode() in cache.read_bytes()
    desktop.uninstall_entry()
    assert APP_ID.encode() not in cache.read_bytes() and b"other-app" in cache.read_bytes()
    assert all_files(data_home) == {cache, other}


def test_no_cache_is_created_where_there_was_none(data_home: Path) -> None:
    desktop.install_entry()
    assert not (data_home / "icons" / "hicolor" / "icon-theme.cache").exists()
    assert not (data_home / "applications" / "mimeinfo.cache").exists()
