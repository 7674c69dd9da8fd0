"""Screenshots of every page on a real X display: Xvfb at the given screen size with the openbox window
manager, the app started as a user starts it (`gpu-tpu-app SESSION --page PAGE`, fresh config), so the
window sizes and places itself and the window manager frames it; the whole screen is captured.

Run: .venv/bin/python tools/screenshots/real_display.py SESSION.json OUT_DIR 1024x640 1280x800 [--lang zh-Hans]
Saves OUT_DIR/<page>-<W>x<H>.png for welcome, decide, result, probe and learn (`make screenshots` runs it,
once in English and once in Simplified Chinese, into x11/ and x11/zh-Hans/).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tools.x_display import x_display  # noqa: E402  (the repository root is on the path just above)

PAGES = ("welcome", "decide", "result", "probe", "learn")
#: How long each page is given to settle (the Probe page lists the devices in its workers first).
SETTLE_S = {"probe": 12.0}
DEFAULT_SETTLE_S = 3.0

GRAB = r"""
import sys
from PySide6.QtGui import QGuiApplication
app = QGuiApplication(sys.argv[:1])
image = QGuiApplication.primaryScreen().grabWindow(0).toImage()
colours = {image.pixel(x, y) for x in range(0, image.width(), 16) for y in range(0, image.height(), 16)}
if len(colours) < 8:
    sys.exit(3)  # the bare screen: the window is not shown yet
sys.exit(0 if image.save(sys.argv[1]) else 1)
"""
#: How long a page may take to appear on a loaded machine, and how often the screen is looked at.
APPEAR_S = 90.0
POLL_S = 2.0


def shoot(display: str, session: Path, page: str, out: Path, lang: str | None = None) -> None:
    """Start the app on `display` showing `page`, capture the screen into `out`, stop the app."""
    home = tempfile.mkdtemp(prefix="gpu-tpu-shot-")
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    env.update({"DISPLAY": display, "QT_QPA_PLATFORM": "xcb", "HOME": home})
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        env[var] = os.path.join(home, var.lower())
    argv = [sys.executable, "-m", "gpu_tpu_app"]
    if lang:
        argv += ["--lang", lang]
    if page != "welcome":  # a first start shows the welcome card; the other pages open the session there
        argv += [str(session), "--page", page]
    app = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + APPEAR_S
        while True:  # first the window on the screen, then the page's own time to settle, then the shot
            if app.poll() is not None:
                raise SystemExit(f"error: the app ended early on {page}: {app.stderr.read().decode()[-500:]}")
            if subprocess.run([sys.executable, "-c", GRAB, str(out)], env=env, timeout=60).returncode == 0:
                break
            if time.monotonic() > deadline:
                raise SystemExit(f"error: {out}: the window did not appear within {APPEAR_S:.0f} s")
            time.sleep(POLL_S)
        time.sleep(SETTLE_S.get(page, DEFAULT_SETTLE_S))
        done = subprocess.run([sys.executable, "-c", GRAB, str(out)], env=env, timeout=60)
        if done.returncode != 0:
            raise SystemExit(f"error: {out}: the screen could not be captured")
    finally:
        app.kill()
        app.wait(timeout=30)


def main(argv: list[str]) -> int:
    lang = None
    if "--lang" in argv:
        i = argv.index("--lang")
        lang, argv = argv[i + 1], argv[:i] + argv[i + 2 :]
    session, out_dir, sizes = Path(argv[0]).resolve(), Path(argv[1]), argv[2:]
    out_dir.mkdir(parents=True, exist_ok=True)
    for size in sizes:
        width, height = (int(v) for v in size.split("x"))
        with x_display(width, height) as display:
            for page in PAGES:
                out = out_dir / f"{page}-{width}x{height}.png"
                shoot(display, session, page, out, lang)
                print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
