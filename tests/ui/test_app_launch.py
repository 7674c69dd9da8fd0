"""Launching the window as a user does: on a real X display, with no display, with a missing library."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gpu_tpu_app.ui.shell.app import debian_package, display_problem, headless_hint

_NO_DISPLAY_VARS = ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _NO_DISPLAY_VARS}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local/share"))
    env.update(extra)
    return env


def test_no_display_is_one_line_and_exit_2(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "gpu_tpu_app"], env=_env(tmp_path), capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: no display") and "gpu-tpu-probe run" in lines[0]
    assert "Traceback" not in proc.stderr and "plugin" not in proc.stderr


def test_no_display_check_leaves_offscreen_and_screenshots_alone():
    assert display_problem({}) is not None
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}) is None
    assert display_problem({"QT_QPA_PLATFORM": "vnc"}) is None


@pytest.mark.parametrize(
    ("soname", "package"),
    [
        ("libxcb-icccm.so.4", "libxcb-icccm4"),
        ("libxcb-render-util.so.0", "libxcb-render-util0"),
        ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"),
        ("libX11-xcb.so.1", "libx11-xcb1"),
        ("libwayland-cursor.so.0", "libwayland-cursor0"),
        ("libxcb-cursor.so.0.0.0", "libxcb-cursor0"),
    ],
)
def test_debian_package_names(soname, package):
    assert debian_package(soname) == package


def _compile(tmp: Path, name: str, source: str, *args: str) -> Path:
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler to build a plugin with a missing library")
    out = tmp / name
    src = tmp / f"{name}.c"
    src.write_text(source)
    subprocess.run([cc, "-shared", "-fPIC", "-o", str(out), str(src), *args], check=True, capture_output=True)
    return out


def test_a_platform_plugin_with_a_missing_library_is_named(tmp_path):
    """A stand-in plugin linked against a library that is then removed: the message names that library."""
    libdir = tmp_path / "lib"
    libdir.mkdir()
    _compile(libdir, "libgtpgone.so.7", "int gtp_gone(void) { return 7; }\n", "-Wl,-soname,libgtpgone.so.7")
    plugins = tmp_path / "platforms"
    plugins.mkdir()
    _compile(
        plugins,
        "libqxcb.so",
        "int gtp_gone(void);\nint probe(void) { return gtp_gone(); }\n",
        str(libdir / "libgtpgone.so.7"),
    )
    (libdir / "libgtpgone.so.7").unlink()
    problem = display_problem({"DISPLAY": ":0"}, plugins_dir=plugins)
    assert problem is not None
    assert "xcb platform plugin cannot load" in problem
    assert "libgtpgone.so.7 is missing" in problem and "package libgtpgone7" in problem
    assert problem.endswith(headless_hint())
    # with Wayland as well, one platform that loads is enough
    _compile(plugins, "libqwayland.so", "int fine(void) { return 1; }\n")
    assert display_problem({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}, plugins_dir=plugins) is None


def test_the_real_platform_plugins_load_here():
    """`make test` installs what Qt's xcb and Wayland plugins link; nothing may be missing."""
    assert display_problem({"DISPLAY": ":0"}) is None
    assert display_problem({"QT_QPA_PLATFORM": "wayland"}) is None


@pytest.fixture
def xvfb_display():
    xvfb = shutil.which("Xvfb")
    assert xvfb, "Xvfb is missing: `make test` installs the Debian package xvfb"
    read_fd, write_fd = os.pipe()
    proc = subprocess.Popen(
        [xvfb, "-displayfd", str(write_fd), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        pass_fds=(write_fd,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_fd)
    with os.fdopen(read_fd) as fh:
        number = fh.readline().strip()
    try:
        assert number.isdigit(), "Xvfb did not report a display"
        yield f":{number}"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.mark.slow
def test_the_window_comes_up_on_a_real_x_display(xvfb_display, tmp_path):
    """The README's main command on an X server: the xcb platform loads and the window paints."""
    env = _env(tmp_path, DISPLAY=xvfb_display, GPU_TPU_APP_QUIT_AFTER_PAINT="1")
    proc = subprocess.run([sys.executable, "-m", "gpu_tpu_app"], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "first-paint-seconds" in proc.stdout
    assert "platform xcb" in proc.stdout
    assert "Traceback" not in proc.stderr


@pytest.mark.slow
def test_a_session_file_named_on_the_command_line_opens(xvfb_display, tmp_path):
    """`gpu-tpu-app plan.json` (what a file manager runs for a session): the window opens that session; a
    run file is added to a new session; a missing file or a mistyped command is one line, exit 2."""
    session = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "example-session.json"
    plan = tmp_path / "plan.json"
    shutil.copy(session, plan)
    env = _env(tmp_path, DISPLAY=xvfb_display, GPU_TPU_APP_QUIT_AFTER_PAINT="1")
    proc = subprocess.run(
        [sys.executable, "-m", "gpu_tpu_app", str(plan)], env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "window plan.json" in proc.stdout and "page decide" in proc.stdout, proc.stdout
    assert "session runs 1" in proc.stdout
    from gpu_tpu_app.core.runs import save_run
    from gpu_tpu_app.core.session import load_session

    run = tmp_path / "run.json"
    save_run(load_session(session).runs[0], run)
    proc = subprocess.run(
        [sys.executable, "-m", "gpu_tpu_app", str(run)], env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "session runs 1" in proc.stdout and "window plan.json" not in proc.stdout
    for argv, expected in (
        ([str(tmp_path / "missing.json")], "missing.json"),
        (["decde"], "unknown command 'decde'"),
    ):
        bad = subprocess.run(
            [sys.executable, "-m", "gpu_tpu_app", *argv], env=env, capture_output=True, text=True, timeout=120
        )
        assert bad.returncode == 2 and expected in bad.stderr and bad.stderr.count("\n") == 1, bad.stderr
