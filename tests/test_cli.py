"""The top-level command line: dispatch, one-line errors, no tracebacks."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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


def test_decide_without_model_does_not_import_the_model_check() -> None:
    """`decide` offers the model-check flags but imports the model check only for --model."""
    answers = "examples/answers-jax-llm-pretraining.json"
    code = (
        "import sys, contextlib, io\n"
        "from gpu_tpu_app import cli\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        f"    rc = cli.main(['decide', '--answers', {answers!r}])\n"
        "heavy = ('gpu_tpu_app.core.modelcheck', 'gpu_tpu_app.probe.modelcheck_launch', "
        "'gpu_tpu_app.probe.protocol', 'gpu_tpu_app.core.tpu_compile', 'gpu_tpu_app.core.catalog', "
        "'gpu_tpu_app.core.runs')\n"
        "print(rc, 'Verdict:' in out.getvalue(), [m for m in heavy if m in sys.modules])\n"
    )
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=root)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "0 True []"


def test_decide_help_still_shows_the_model_check_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    from gpu_tpu_app.core.check_limits import DEFAULT_TIMEOUT_S, MAX_CHIPS

    with pytest.raises(SystemExit):
        cli.main(["decide", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert f"(default {DEFAULT_TIMEOUT_S:g})" in out and f"up to {MAX_CHIPS}" in out
