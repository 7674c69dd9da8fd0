"""`gpu-tpu-app --screenshot`: every page renders offscreen at 1280x800 and is not blank; bad input files
give one line and exit 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "screenshots" / "example-session.json"


def run_app(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.run(
        [sys.executable, "-m", "gpu_tpu_app", *args], capture_output=True, text=True, timeout=timeout, env=env, cwd=ROOT
    )


def pixel_spread(image: QImage) -> tuple[float, int]:
    """(variance of grey levels, number of distinct grey levels) over a grid of samples."""
    points = [(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)]
    values = [image.pixelColor(x, y).lightness() for x, y in points]
    mean = sum(values) / len(values)
    return sum((v - mean) ** 2 for v in values) / len(values), len(set(values))


@pytest.mark.parametrize("page", ["decide", "result", pytest.param("probe", marks=pytest.mark.slow), "learn"])
def test_every_page_renders_at_1280x800(tmp_path: Path, qapp, page: str) -> None:
    out = tmp_path / f"{page}.png"
    proc = run_app("--screenshot", str(out), "--page", page, "--session", str(EXAMPLE))
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    image = QImage(str(out))
    assert not image.isNull()
    assert (image.width(), image.height()) == (1280, 800)
    variance, levels = pixel_spread(image)
    assert variance > 100 and levels > 20, (variance, levels)


def test_screenshot_without_a_session(tmp_path: Path, qapp) -> None:
    out = tmp_path / "empty.png"
    proc = run_app("--screenshot", str(out))
    assert proc.returncode == 0, proc.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1280, 800)
    assert pixel_spread(image)[0] > 100


@pytest.mark.slow
def test_pages_differ(tmp_path: Path, qapp) -> None:
    images = {}
    for page in ("decide", "result"):
        out = tmp_path / f"{page}.png"
        assert run_app("--screenshot", str(out), "--page", page, "--session", str(EXAMPLE)).returncode == 0
        images[page] = QImage(str(out))
    assert images["decide"] != images["result"]


@pytest.mark.parametrize(
    ("flag", "content", "expected"),
    [
        ("--session", '{"schema_version": 1, "answers": {"stage": "someday"}}', "answers.stage"),
        ("--session", "not json at all", "not valid JSON"),
        ("--results", '{"schema_version": 1, "results": [], "host": 5}', ""),
        ("--results", '{"anything": 1}', "not a gpu-tpu-app probe run file"),
    ],
)
def test_bad_input_file_is_one_line_and_exit_2(tmp_path: Path, flag: str, content: str, expected: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    before = bad.read_bytes()
    out = tmp_path / "never.png"
    proc = run_app("--screenshot", str(out), flag, str(bad))
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"error: {bad}: ") and expected in lines[0]
    assert not out.exists()
    assert bad.read_bytes() == before


def test_missing_session_file(tmp_path: Path) -> None:
    proc = run_app("--screenshot", str(tmp_path / "x.png"), "--session", str(tmp_path / "nope.json"))
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"error: {tmp_path / 'nope.json'}: no such file"


def _unwritable(tmp_path: Path, case: str) -> Path:
    if case == "a folder":
        (tmp_path / "shots.png").mkdir()
        return tmp_path / "shots.png"
    if case == "under a file":
        (tmp_path / "a-file").write_text("x")
        return tmp_path / "a-file" / "shots" / "decide.png"
    loop = tmp_path / "loop.png"
    loop.symlink_to(loop.name)
    return loop


@pytest.mark.parametrize("case", ["a folder", "under a file", "a symlink loop"])
def test_a_path_that_cannot_be_written_is_one_line_and_exit_2(tmp_path: Path, case: str) -> None:
    target = _unwritable(tmp_path, case)
    before = sorted(p.name for p in tmp_path.rglob("*"))
    proc = run_app("--screenshot", str(target), "--page", "decide")
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {target}: cannot write the screenshot there"), proc.stderr
    assert sorted(p.name for p in tmp_path.rglob("*")) == before  # no empty file, no temporary file


def test_a_full_disk_leaves_no_empty_file(tmp_path: Path, mount_tmpfs) -> None:
    tiny = mount_tmpfs("32k")
    try:
        proc = run_app("--screenshot", str(tiny / "decide.png"), "--page", "decide")  # a PNG of ~100 KB
        assert proc.returncode == 2, proc.stderr
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and "No space left on device" in lines[0], proc.stderr
        assert list(tiny.iterdir()) == []
    finally:
        subprocess.run(["umount", str(tiny)], check=False)


def test_an_injected_full_disk_is_an_input_error_and_leaves_nothing(tmp_path: Path, qapp, full_disk) -> None:
    import argparse

    from gpu_tpu_app.errors import InputError
    from gpu_tpu_app.ui.shell import app

    full_disk()
    target = tmp_path / "shots" / "decide.png"
    args = argparse.Namespace(screenshot=str(target), page="decide", session=None, results=None)
    with pytest.raises(InputError) as info:
        app.main(args)
    assert str(info.value) == f"{target}: cannot write the screenshot there (No space left on device)"
    assert list(tmp_path.iterdir()) == []  # not even the folder it would have made
