"""The window in Simplified Chinese as in English: nothing clipped at 1024x640, 1280x800 and at 2x device
pixel ratio (the Probe and Result pages' checks of test_layout.py, and every visible button and one-line
label of every page given the room its text needs), and no user-visible widget text left in English on
any page (tools/i18n_allow.py's left_in_english). Each language runs in its own process
(tests/ui/zh_walk.py) with the translators a real start installs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WALK = Path(__file__).with_name("zh_walk.py")
SESSION = ROOT / "docs" / "screenshots" / "example-session.json"

pytestmark = pytest.mark.slow


def walk(language: str, size: str, scale: int = 1) -> dict:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    if scale != 1:
        env["QT_SCALE_FACTOR"] = str(scale)
    proc = subprocess.run(
        [sys.executable, str(WALK), str(SESSION), language, size],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    lines = [x for x in proc.stdout.splitlines() if x.startswith("{")]
    assert proc.returncode == 0 and lines, proc.stderr[-3000:]
    report = json.loads(lines[-1])
    assert report["ratio"] == float(scale)
    return report


@pytest.mark.parametrize(
    ("language", "size", "scale"),
    [
        ("zh-Hans", "1024x640", 1),
        ("zh-Hans", "1280x800", 1),
        ("zh-Hans", "1280x800", 2),
        ("en", "1024x640", 1),
        ("en", "1280x800", 1),
    ],
)
def test_nothing_is_clipped(language: str, size: str, scale: int) -> None:
    report = walk(language, size, scale)
    assert report["problems"] == [], "\n".join(report["problems"])


def test_no_page_shows_english_in_chinese() -> None:
    report = walk("zh-Hans", "1280x800")
    assert report["english"] == [], "\n".join(report["english"])
    # the check sees English where there is English: the same walk in English finds plenty
    assert len(walk("en", "1280x800")["english"]) > 50
