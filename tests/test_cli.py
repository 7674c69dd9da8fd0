"""The top-level command line: dispatch, one-line errors, no tracebacks."""

from __future__ import annotations

import subprocess
import sys

import pytest

from gpu_tpu_app import __version__, cli


def test_unknown_command_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main(["frobnicate"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "frobnicate" in err and "explain" in err


def test_bad_flag_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main(["--no-such-flag"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "--no-such-flag" in err


def test_bad_page_choice_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main(["--screenshot", "x.png", "--page", "nowhere"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "nowhere" in err


def test_help_lists_headless_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in ("explain", "catalog", "decide", "estimate", "probe"):
        assert name in out
    assert "probe-worker" not in out


def test_module_entry_point_reports_version() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "gpu_tpu_app", "--version"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"gpu-tpu-app {__version__}"


def test_headless_command_does_not_import_qt() -> None:
    code = (
        "import sys, contextlib, io\n"
        "from gpu_tpu_app import cli\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    rc = cli.main(['catalog', '--format', 'json'])\n"
        "bad = [m for m in ('PySide6', 'pyqtgraph', 'torch', 'jax') if m in sys.modules]\n"
        "print(rc, bad)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "0 []"
