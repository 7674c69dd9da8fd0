"""Desktop integration: --install-desktop-entry / --uninstall-desktop-entry in a private XDG data dir."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gpu_tpu_app import APP_ID, APP_NAME, cli, desktop
from tests.desktop_spec import SpecError, entry_value, spec_loader, string_value, unquote_exec


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh $XDG_DATA_HOME for one test."""
    root = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(root))
    return root


def all_files(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if p.is_file()}


def generated(root: Path, path: Path) -> bool:
    """A file-type cache the desktop's tools make from the installed files (mimeinfo.cache, the MIME database)."""
    rel = path.relative_to(root).parts
    return path.name == "mimeinfo.cache" or (rel[0] == "mime" and rel[1:2] != ("packages",))


def test_install_writes_exactly_the_planned_files(data_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert desktop.main(install=True) == 0
    out = capsys.readouterr().out
    expected = set(desktop.installed_paths(data_home))
    assert {p for p in all_files(data_home) if not generated(data_home, p)} == expected
    assert len(expected) == 4 + len(desktop.ICON_SIZES)
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
    assert string_value(entry_value(text, "TryExec")) == args[0]
    assert spec_loader(text) == args
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
    assert "wrote" not in out and out.count("unchanged ") == len([p for p in before if not generated(data_home, p)])


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


def test_no_icon_cache_is_made_and_the_file_type_caches_go_with_the_app(data_home: Path) -> None:
    desktop.install_entry()
    assert not (data_home / "icons" / "hicolor" / "icon-theme.cache").exists()
    desktop.uninstall_entry()
    assert all_files(data_home) == set()  # nothing left behind, the caches that indexed the app included


@pytest.mark.skipif(
    not (shutil.which("gio") and shutil.which("update-mime-database") and shutil.which("update-desktop-database")),
    reason="gio, update-mime-database or update-desktop-database is not installed",
)
def test_a_file_manager_opens_sessions_and_runs_with_the_app(data_home: Path, tmp_path: Path) -> None:
    """GIO (what GNOME's file manager asks) reads the installed MIME package: a session and a run are
    told from other JSON by their content, and this app is the application registered for both."""
    from gpu_tpu_app.core.runs import save_run
    from gpu_tpu_app.core.session import load_session

    desktop.install_entry()
    session = Path(__file__).resolve().parents[1] / "docs" / "screenshots" / "example-session.json"
    run = tmp_path / "run.json"
    save_run(load_session(session).runs[0], run)
    plain = tmp_path / "other.json"
    plain.write_text('{"schema_version": 1, "name": "not ours"}\n')
    env = {**os.environ, "XDG_DATA_HOME": str(data_home), "XDG_DATA_DIRS": "/usr/share", "HOME": str(tmp_path)}

    def gio(*args: str) -> str:
        return subprocess.run(["gio", *args], env=env, capture_output=True, text=True, timeout=60).stdout

    def content_type(path: Path) -> str:
        return gio("info", "-a", "standard::content-type", str(path)).strip().rsplit(" ", 1)[-1]

    assert content_type(session) == desktop.SESSION_MIME
    assert content_type(run) == desktop.RUN_MIME
    assert content_type(plain) == "application/json"
    for mime in (desktop.SESSION_MIME, desktop.RUN_MIME):
        assert f"{APP_ID}.desktop" in gio("mime", mime)
    desktop.uninstall_entry()
    assert content_type(session) == "application/json"


# ---------------------------------------------------------------- loaders accept awkward install paths


def _glib():  # type: ignore[no-untyped-def]
    """GLib's own desktop-entry loader (libgio, from libglib2.0-0 in the Makefile's DEB_PACKAGES), or None."""
    import ctypes

    try:
        gio = ctypes.CDLL("libgio-2.0.so.0")
    except OSError:
        return None
    gio.g_desktop_app_info_new_from_filename.restype = ctypes.c_void_p
    gio.g_desktop_app_info_new_from_filename.argtypes = [ctypes.c_char_p]
    gio.g_app_info_get_commandline.restype = ctypes.c_char_p
    gio.g_app_info_get_commandline.argtypes = [ctypes.c_void_p]
    gio.g_shell_parse_argv.restype = ctypes.c_int
    gio.g_shell_parse_argv.argtypes = [
        ctypes.c_char_p,
        ctypes.POINTER(ctypes.c_int),
        ctypes.POINTER(ctypes.POINTER(ctypes.c_char_p)),
        ctypes.c_void_p,
    ]
    gio.g_strfreev.argtypes = [ctypes.POINTER(ctypes.c_char_p)]
    gio.g_object_unref.argtypes = [ctypes.c_void_p]
    return gio


def glib_argv(gio, path: Path) -> list[str] | None:  # type: ignore[no-untyped-def]
    """The command GLib would start for the entry at `path` (its loader, then the same shell parsing
    g_app_info_launch does), or None when GLib's loader rejects the entry (it leaves the menu)."""
    import ctypes

    info = gio.g_desktop_app_info_new_from_filename(os.fsencode(path))
    if not info:
        return None
    try:
        line = gio.g_app_info_get_commandline(info)
        argc, argv = ctypes.c_int(), ctypes.POINTER(ctypes.c_char_p)()
        assert gio.g_shell_parse_argv(line, ctypes.byref(argc), ctypes.byref(argv), None)
        try:
            args = [os.fsdecode(argv[i]) for i in range(argc.value)]
            return args[:-1] if args[-1:] == ["%F"] else args  # %F: the files opened (none from the menu)
        finally:
            gio.g_strfreev(argv)
    finally:
        gio.g_object_unref(info)


AWKWARD_FOLDERS = ["my apps", 'gpu "tpu" $HOME `x`', "back\\slash; & (x)", "naïve ünïcode"]


@pytest.fixture(params=AWKWARD_FOLDERS)
def awkward_launcher(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """A real executable launcher installed under a folder whose name needs quoting in Exec."""
    launcher = tmp_path / request.param / "bin" / "gpu-tpu-app"
    launcher.parent.mkdir(parents=True)
    launcher.write_text("#!/bin/sh\nexit 0\n")
    launcher.chmod(0o755)
    return launcher


def test_tryexec_is_a_plain_path_that_a_spec_following_loader_accepts(awkward_launcher: Path) -> None:
    command = [str(awkward_launcher), "-m", "gpu_tpu_app"]
    text = desktop.desktop_entry(command)
    assert string_value(entry_value(text, "TryExec")) == str(awkward_launcher)
    assert not entry_value(text, "TryExec").startswith('"')
    assert spec_loader(text) == command


@pytest.mark.skipif(_glib() is None, reason="libgio-2.0.so.0 (Debian package libglib2.0-0) is not installed")
def test_glib_accepts_the_entry_for_an_install_path_that_needs_quoting(awkward_launcher: Path, tmp_path: Path) -> None:
    gio = _glib()
    entry = tmp_path / f"{APP_ID}.desktop"
    entry.write_text(desktop.desktop_entry([str(awkward_launcher)]), encoding="utf-8")
    assert glib_argv(gio, entry) == [str(awkward_launcher)]
    # the harness can tell: the entry as it was written before (TryExec quoted like Exec) is rejected
    quoted = desktop.exec_quote(str(awkward_launcher))
    if quoted != str(awkward_launcher):
        old = entry.read_text(encoding="utf-8").replace(
            f"TryExec={desktop.string_escape(str(awkward_launcher))}\n", f"TryExec={quoted}\n"
        )
        assert old != entry.read_text(encoding="utf-8")
        entry.write_text(old, encoding="utf-8")
        assert glib_argv(gio, entry) is None
        with pytest.raises(SpecError, match="TryExec"):
            spec_loader(old)


@pytest.mark.skipif(_glib() is None, reason="libgio-2.0.so.0 (Debian package libglib2.0-0) is not installed")
def test_glib_accepts_the_installed_entry(data_home: Path) -> None:
    desktop.install_entry()
    entry = data_home / "applications" / f"{APP_ID}.desktop"
    assert glib_argv(_glib(), entry) == desktop.launcher_command()


@pytest.mark.parametrize(
    "launcher",
    [
        "/opt/new\nline/gpu-tpu-app",
        "/opt/tab\there/gpu-tpu-app",
        "/opt/esc\x1b[31m/gpu-tpu-app",
        "/opt/bad\udcffbyte/gpu-tpu-app",
        "/opt/100%/gpu-tpu-app",
    ],
)
def test_a_launcher_path_a_desktop_entry_cannot_hold_is_refused_in_one_line(
    launcher: str, data_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(desktop, "launcher_command", lambda: [launcher])
    assert desktop.main(install=True) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("error: ") and captured.err.count("\n") == 1
    assert all(c.isprintable() for c in captured.err.rstrip("\n")), captured.err
    assert "launcher path" in captured.err and "Traceback" not in captured.err
    assert not data_home.exists()


# ---------------------------------------------------------------- a failed install takes back what it wrote


def _fail(monkeypatch: pytest.MonkeyPatch, needle: str) -> None:
    """os.write to the temporary file for a path containing `needle` fails with ENOSPC."""
    import errno

    real = os.write

    def write(fd: int, data: bytes) -> int:
        try:
            name = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            name = ""
        if needle in name and name.endswith(desktop.atomic.TEMP_SUFFIX):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd, data)

    monkeypatch.setattr(os, "write", write)


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="the injected error finds the file via /proc/self/fd")
def test_a_full_disk_during_install_leaves_nothing_and_names_the_file(
    data_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _fail(monkeypatch, "/256x256/")
    assert desktop.main(install=True) == 1
    err = capsys.readouterr().err
    failed = data_home / "icons" / "hicolor" / "256x256" / "apps" / f"{APP_ID}.png"
    assert (
        err == f"error: {failed}: No space left on device (nothing was installed: the files written before it "
        "were removed)\n"
    )
    assert not data_home.exists()  # not a file, not a temporary file, not a folder


def test_a_failed_rename_during_an_upgrade_restores_the_previous_install(
    data_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import errno

    monkeypatch.setattr(desktop, "launcher_command", lambda: ["/opt/old/gpu-tpu-app"])
    desktop.install_entry()
    (data_home / "icons" / "hicolor" / "512x512" / "apps" / f"{APP_ID}.png").unlink()  # one file missing
    before = {p: p.read_bytes() for p in all_files(data_home)}
    monkeypatch.setattr(desktop, "launcher_command", lambda: ["/opt/new/gpu-tpu-app"])
    real = os.replace

    def replace(src: str, dst: str) -> None:
        if str(dst).endswith(".metainfo.xml"):
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real(src, dst)

    # the new entry and the missing icon go in first, then the metainfo rename fails
    monkeypatch.setattr(desktop, "planned_files", _metainfo_last(desktop.planned_files))
    (data_home / "metainfo" / f"{APP_ID}.metainfo.xml").write_text("an older metainfo")
    before[data_home / "metainfo" / f"{APP_ID}.metainfo.xml"] = b"an older metainfo"
    monkeypatch.setattr(os, "replace", replace)
    assert desktop.main(install=True) == 1
    assert f"{APP_ID}.metainfo.xml: Input/output error" in capsys.readouterr().err
    monkeypatch.setattr(os, "replace", real)
    after = {p: p.read_bytes() for p in all_files(data_home)}
    assert after == before
    assert not [p for p in data_home.rglob("*") if p.name.endswith(desktop.atomic.TEMP_SUFFIX)]


def _metainfo_last(planned):  # type: ignore[no-untyped-def]
    def reordered(root=None):  # type: ignore[no-untyped-def]
        files = planned(root)
        meta = [p for p in files if p.name.endswith(".metainfo.xml")]
        return {**{p: d for p, d in files.items() if p not in meta}, **{p: files[p] for p in meta}}

    return reordered


def test_a_real_full_disk_during_install_leaves_nothing(
    mount_tmpfs, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tiny = mount_tmpfs("24k")
    try:
        monkeypatch.setenv("XDG_DATA_HOME", str(tiny / "share"))
        assert desktop.main(install=True) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"error: {tiny / 'share'}/") and "No space left on device" in err and err.count("\n") == 1
        assert list(tiny.iterdir()) == []
    finally:
        subprocess.run(["umount", str(tiny)], check=False)


# ---------------------------------------------------------------- a symlink at the entry's path (issue 22 §6)


def test_install_replaces_a_symlinked_entry_and_never_writes_through_it(data_home: Path, tmp_path: Path) -> None:
    precious = tmp_path / "dotfiles" / "my-notes.txt"
    precious.parent.mkdir()
    precious.write_text("the user's own file\n")
    entry = data_home / "applications" / f"{APP_ID}.desktop"
    icon = data_home / "icons" / "hicolor" / "48x48" / "apps" / f"{APP_ID}.png"
    for link in (entry, icon):
        link.parent.mkdir(parents=True)
        link.symlink_to(precious)
    changed = desktop.install_entry()
    assert precious.read_text() == "the user's own file\n"
    assert entry in changed and icon in changed
    for link in (entry, icon):
        assert not link.is_symlink() and link.is_file()
    assert entry.read_text().startswith("[Desktop Entry]")
    assert not [p for p in tmp_path.rglob("*") if p.name.endswith(desktop.atomic.TEMP_SUFFIX)]


def test_install_replaces_a_symlink_to_an_identical_file(data_home: Path, tmp_path: Path) -> None:
    desktop.install_entry(tmp_path / "elsewhere")
    other = tmp_path / "elsewhere" / "applications" / f"{APP_ID}.desktop"
    entry = data_home / "applications" / f"{APP_ID}.desktop"
    entry.parent.mkdir(parents=True)
    entry.symlink_to(other)
    assert entry in desktop.install_entry()
    assert not entry.is_symlink()
    other.write_text("changed later")
    assert entry.read_text().startswith("[Desktop Entry]")


def test_uninstall_leaves_a_symlink_and_its_file_alone(
    data_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    desktop.install_entry()
    precious = tmp_path / "keep.desktop"
    precious.write_text("someone else's entry\n")
    entry = data_home / "applications" / f"{APP_ID}.desktop"
    entry.unlink()
    entry.symlink_to(precious)
    assert desktop.main(install=False) == 0
    out = capsys.readouterr().out
    assert entry.is_symlink() and precious.read_text() == "someone else's entry\n"
    assert f"left alone {entry} (not a file the app installed)" in out
    assert f"removed {entry}\n" not in out
    assert not (data_home / "metainfo" / f"{APP_ID}.metainfo.xml").exists()  # the app's own files went


def test_a_failed_install_puts_a_replaced_symlink_back(
    data_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    precious = tmp_path / "target.txt"
    precious.write_text("linked\n")
    entry = data_home / "applications" / f"{APP_ID}.desktop"
    entry.parent.mkdir(parents=True)
    entry.symlink_to(precious)
    monkeypatch.setattr(desktop, "planned_files", _metainfo_last(desktop.planned_files))
    real = os.replace

    def replace(src: str, dst: str) -> None:
        if str(dst).endswith(".metainfo.xml"):
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(OSError):
        desktop.install_entry()
    assert entry.is_symlink() and os.readlink(entry) == str(precious)
    assert precious.read_text() == "linked\n"


def test_what_the_installer_says_is_in_the_language_in_use(data_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from gpu_tpu_app import i18n

    i18n.set_language("zh-Hans")
    try:
        assert desktop.main(install=True) == 0
        out = capsys.readouterr().out
        assert all(f"已写入 {path}" in out for path in desktop.planned_files(data_home))
        assert f"{APP_NAME} 已在你的桌面菜单中" in out
        assert desktop.main(install=False) == 0
        assert capsys.readouterr().out.count("已删除 ") == len(desktop.installed_paths(data_home))
        assert desktop.main(install=False) == 0
        assert capsys.readouterr().out.strip() == f"{data_home} 下没有要删除的内容"
    finally:
        i18n.set_language(None)
