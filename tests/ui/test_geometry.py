"""The window fits the screen: a first start is sized and placed from the screen's available geometry, a
restored geometry saved on a bigger screen is clamped to it. On a real 1024x640 X display with a window
manager (Xvfb + openbox), so the frame, title bar and close button are the real ones."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QMargins, QRect, QSize

from gpu_tpu_app.ui.shell.geometry import DEFAULT_SIZE, clamp_geometry, first_geometry, minimum_size
from tools.x_display import x_display

FRAME = QMargins(2, 24, 2, 2)


def test_first_geometry_is_the_default_where_it_fits_and_the_room_where_not() -> None:
    big = QRect(0, 0, 1920, 1080)
    g = first_geometry(big, FRAME)
    assert g.size() == DEFAULT_SIZE and big.contains(g.marginsAdded(FRAME))
    small = QRect(0, 28, 1024, 612)  # a 1024x640 screen with a 28-pixel panel on top
    g = first_geometry(small, FRAME)
    assert small.contains(g.marginsAdded(FRAME)) and g.width() == 1024 - 4 and g.height() == 612 - 26
    assert minimum_size(small, FRAME).boundedTo(g.size()) == minimum_size(small, FRAME)


def test_clamp_moves_and_shrinks_a_geometry_saved_on_another_screen() -> None:
    available = QRect(0, 0, 1024, 640)
    for saved in (QRect(1500, 900, 1800, 1000), QRect(-400, -300, 800, 500), QRect(100, 100, 700, 500)):
        g = clamp_geometry(saved, available, FRAME)
        assert available.contains(g.marginsAdded(FRAME)), saved
        assert g.width() <= saved.width() and g.height() <= saved.height()
    inside = QRect(100, 100, 700, 500)
    assert clamp_geometry(inside, available, FRAME) == inside  # one that fits is left where the user put it
    assert minimum_size(QRect(0, 0, 800, 480), FRAME) == QSize(800 - 4, 480 - 26)


SCRIPT = r"""
import json, sys, time
from PySide6.QtWidgets import QApplication
from gpu_tpu_app.ui.shell.app import _application
app = _application()
from gpu_tpu_app.ui.shell.main_window import MainWindow
w = MainWindow()
w.show()
end = time.monotonic() + 2.0
while time.monotonic() < end:
    app.processEvents()
    time.sleep(0.02)
if sys.argv[1] == "save-huge":
    w.showNormal()
    w.setGeometry(1500, 900, 1800, 1000)  # as saved on a 4K screen, then started on this one
    app.processEvents()
    w.save_state()
    print(json.dumps({"saved": True}))
else:
    f, a = w.frameGeometry(), w.screen().availableGeometry()
    print(json.dumps({"frame": [f.x(), f.y(), f.width(), f.height()], "available": [a.x(), a.y(), a.width(), a.height()],
                      "client": [w.geometry().x(), w.geometry().y(), w.width(), w.height()]}))
w.close()
"""


@pytest.mark.slow
def test_on_a_1024x640_screen_the_whole_window_is_on_the_screen(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    env.update({"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config")})
    env["XDG_DATA_HOME"] = str(tmp_path / "data")

    def run(display: str, mode: str) -> dict:
        proc = subprocess.run(
            [sys.executable, "-c", SCRIPT, mode],
            env={**env, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb"},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        return json.loads(proc.stdout.strip().splitlines()[-1])

    with x_display(1024, 640) as display:
        first = run(display, "show")
        available = QRect(*first["available"])
        frame = QRect(*first["frame"])
        assert available.contains(frame), first  # title bar, close button and status bar all on the screen
        assert frame.height() > QRect(*first["client"]).height()  # a real frame: the window manager's
        run(display, "save-huge")
        restored = run(display, "show")
        assert QRect(*restored["available"]).contains(QRect(*restored["frame"])), restored
