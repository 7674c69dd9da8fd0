"""Start the window: QApplication, theme, main window, the files named on the command line.

`--screenshot PATH [--page decide|result|probe|learn]` renders the window offscreen at
1280×800, saves a PNG and exits; the README's screenshots are made this way.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from gpu_tpu_app import APP_ID, APP_NAME, __version__, i18n
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.errors import InputError

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

    from gpu_tpu_app.core.settings import Preferences

SCREENSHOT_SIZE = (1280, 800)
# set to 1 to print the seconds from process start to the first painted window, then quit.
STARTUP_ENV = "GPU_TPU_APP_QUIT_AFTER_PAINT"
_T0 = time.monotonic()


def seconds_since_process_start() -> float:
    """Seconds since this process started (Linux: from /proc; elsewhere: since this module loaded)."""
    try:
        with open("/proc/self/stat", encoding="ascii") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        start_ticks = int(fields[19])  # field 22 of stat(5), counted after the command name
        with open("/proc/uptime", encoding="ascii") as fh:
            uptime = float(fh.read().split()[0])
        return uptime - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return time.monotonic() - _T0


def headless_hint() -> str:
    """Which commands work without a display (the end of every "no window here" line)."""
    return text("window.headless_hint")


def debian_package(soname: str) -> str:
    """The Debian/Ubuntu package that usually ships a library: libxcb-icccm.so.4 -> libxcb-icccm4."""
    stem, _, version = soname.partition(".so.")
    stem = stem.lower()
    major = version.split(".")[0]
    if not major:
        return stem
    return f"{stem}-{major}" if stem[-1:].isdigit() else f"{stem}{major}"


def plugin_load_problem(plugin: Path) -> str | None:
    """Why the shared library `plugin` cannot be loaded (the missing library named), or None when it loads."""
    import ctypes
    import re

    try:
        ctypes.CDLL(str(plugin))
    except OSError as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        missing = re.match(r"(?:.*: )?(lib[^:\s]+\.so[.\d]*): cannot open shared object file", first)
        if missing:
            lib = missing.group(1)
            return text("window.library_missing", lib=lib, package=debian_package(lib))
        return first
    return None


def _platform_plugins_dir() -> Path | None:
    """PySide6's platform plugins folder, found without importing Qt (importing PySide6 before the
    pydantic models are loaded breaks pydantic's lazy imports through shiboken's import hook)."""
    import importlib.util

    spec = importlib.util.find_spec("PySide6")
    for root in (spec.submodule_search_locations or []) if spec else []:
        folder = Path(root) / "Qt" / "plugins" / "platforms"
        if folder.is_dir():
            return folder
    return None


def display_problem(environ: dict[str, str] | None = None, plugins_dir: Path | None = None) -> str | None:
    """One line saying why no window can open here (no display, or a platform plugin that cannot
    load), or None. Qt itself would print a plugin message and abort the process instead."""
    env = os.environ if environ is None else environ
    if not sys.platform.startswith("linux"):
        return None
    requested = [p.split(":")[0].strip() for p in env.get("QT_QPA_PLATFORM", "").split(";") if p.strip()]
    if not requested:
        if not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
            return text("window.no_display", hint=headless_hint())
        requested = (["wayland"] if env.get("WAYLAND_DISPLAY") else []) + (["xcb"] if env.get("DISPLAY") else [])
    if plugins_dir is None:
        plugins_dir = _platform_plugins_dir()
        if plugins_dir is None:
            return None
    problems = []
    for name in requested:
        plugin = plugins_dir / f"libq{name}.so"
        if name not in ("xcb", "wayland") or not plugin.is_file():
            return None  # a platform we do not check (offscreen, vnc, eglfs...): Qt decides
        problem = plugin_load_problem(plugin)
        if problem is None:
            return None  # Qt takes the first platform that loads
        problems.append(text("window.plugin_cannot_load", name=name, problem=problem))
    return text("window.plugin_problems", problems="; ".join(problems), hint=headless_hint())


def _load_inputs(args: argparse.Namespace):  # -> tuple[Session, Path | None, bool]
    """The session to show: from --session, plus the run from --results; InputError when a file is bad."""
    from gpu_tpu_app.core.runs import load_run
    from gpu_tpu_app.core.session import file_kind, load_session, new_session

    path = Path(args.session) if getattr(args, "session", None) else None
    runs = [args.results] if getattr(args, "results", None) else []
    for name in getattr(args, "files", None) or []:  # `gpu-tpu-app plan.json`, or what a file manager opens
        if file_kind(name) == "run":
            runs.append(name)
        elif path is None:
            path = Path(name)
        else:
            raise InputError(text("window.one_session", name=name, path=path))
    session = load_session(path) if path is not None else new_session()
    modified = False
    for results in runs:
        run = load_run(results)
        if run not in session.runs:
            session = session.with_runs([*session.runs, run])
            modified = True
    return session, path, modified


def _icon():  # -> QIcon
    from PySide6.QtGui import QIcon

    from gpu_tpu_app.assets import resource_path

    icon = QIcon()
    png_dir = resource_path("icons", "png")
    if png_dir.is_dir():
        for png in sorted(png_dir.glob("gpu-tpu-app-*.png")):
            icon.addFile(str(png))
    svg = resource_path("icons", "gpu-tpu-app.svg")
    if icon.isNull() and svg.is_file():
        icon.addFile(str(svg))
    return icon


def _settle(app, rounds: int = 4) -> None:
    """Let layouts, polish and deferred updates run (no fixed sleeps)."""
    from PySide6.QtCore import QEventLoop

    for _ in range(rounds):
        app.sendPostedEvents()
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)


def _run_timers(app, ms: int) -> None:
    """Run the event loop for `ms` so timer-driven redraws (charts at ~30 Hz) happen once."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()
    _settle(app, 2)


def show_page(window, page: str | None) -> None:
    """Show one of decide, result, probe, learn."""
    if page is None:
        if window.welcome_shown():
            return  # first start: the welcome card stays
        answered = any(v is not None for v in window.session().answers.model_dump().values())
        page = "result" if answered else "decide"
    if page == "welcome":
        window.show_welcome()
    elif page == "decide":
        window.show_wizard(0)
    elif page == "result":
        window.show_result()
    elif page == "probe":
        window.show_page("probe")
    elif page == "learn":
        rec = window.recommendation()
        topic = rec.blockers[0].topic if rec.blockers else rec.reasons[0].topic if rec.reasons else None
        if topic:
            window.open_topic(topic)
        else:
            window.show_page("learn")


def screenshot(app, window, path: str | Path, page: str | None, size: tuple[int, int] = SCREENSHOT_SIZE) -> None:
    """Render the window at `size` (1280×800 unless asked) and save it as PNG at `path`."""
    window.resize(*size)
    window.show()
    show_page(window, page)
    _settle(app)
    if page == "probe":
        _run_timers(app, 150)
    window.resize(*size)
    _settle(app)
    image = window.grab().toImage()
    # encoded in memory, then written atomically: a path that cannot be written leaves no empty file
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    from gpu_tpu_app.atomic import write_bytes

    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    ok = image.save(buf, "PNG")
    buf.close()
    if not ok:
        raise InputError(text("window.screenshot_not_encoded", path=path))
    try:
        write_bytes(path, bytes(data.data()))
    except OSError as exc:
        raise InputError(text("window.screenshot_not_written", path=path, error=exc.strerror or exc)) from None


def _read_preferences(shot: str | None) -> tuple[Preferences, str | None]:
    """The user's preferences (defaults for a screenshot), and a problem reading them, if any."""
    from gpu_tpu_app.core.settings import Preferences, load_preferences

    prefs = Preferences()
    prefs_problem = None
    if not shot:  # screenshots do not depend on the user's own preferences
        try:
            prefs = load_preferences()
        except InputError as exc:
            prefs_problem = text("window.preferences_not_read", problem=exc)
            print(text("window.warning", message=prefs_problem), file=sys.stderr)
    return prefs, prefs_problem


def _application() -> QApplication:
    """The QApplication (the one running already, if any), named for QSettings and the desktop."""
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtWidgets import QApplication

    QCoreApplication.setOrganizationName(APP_NAME)
    QCoreApplication.setApplicationName(APP_NAME)
    QCoreApplication.setApplicationVersion(__version__)
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication([sys.argv[0] if sys.argv else APP_NAME])
    app.setApplicationDisplayName(APP_NAME)
    app.setDesktopFileName(APP_ID)
    app.setWindowIcon(_icon())
    return app


def _close_after_first_paint(window) -> None:
    """Start-up timing: print the seconds to the first paint and the platform, then close the window."""
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication

    from gpu_tpu_app.ui.shell import translations

    class _FirstPaint(QObject):
        def eventFilter(self, obj: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint:
                window.removeEventFilter(self)
                QTimer.singleShot(0, self._done)
            return False

        def _done(self) -> None:
            print(f"first-paint-seconds {seconds_since_process_start():.3f}", flush=True)
            print(f"platform {QApplication.platformName()}", flush=True)
            print(f"window {window.windowTitle()} · page {window.current_page()}", flush=True)
            print(f"session runs {len(window.session().runs)}", flush=True)
            print(f"language {i18n.current_language()} · translations {len(translations.installed())}", flush=True)
            window.setWindowModified(False)
            window.session_controller.mark_clean()
            window.close()

    watcher = _FirstPaint(window)
    window.installEventFilter(watcher)


def _say_preferences_problem(window, prefs_problem: str) -> None:
    """The preferences problem in the window too, where a user started from the menu sees it."""
    from PySide6.QtCore import QCoreApplication, QTimer
    from PySide6.QtWidgets import QMessageBox

    from gpu_tpu_app.ui.shell.widgets import message_box

    box = message_box(
        window,
        QMessageBox.Icon.Warning,
        QCoreApplication.translate("App", "Preferences not read"),
        QCoreApplication.translate("App", "{problem}. The file stays as it is until you change a preference.").format(
            problem=prefs_problem
        ),
    )
    box.setModal(False)
    QTimer.singleShot(0, box.open)


def main(args: argparse.Namespace | None = None) -> int:
    """Open the window (or render a screenshot); returns the exit code."""
    if args is None:
        args = argparse.Namespace(screenshot=None, page=None, session=None, results=None, lang=None)
    shot = getattr(args, "screenshot", None)
    page = getattr(args, "page", None)
    if shot:
        # deterministic size and no window manager in the way, unless the caller chose a platform
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    if not shot:
        problem = display_problem()
        if problem:
            raise InputError(problem)  # one line, exit 2, instead of Qt's abort

    session, path, modified = _load_inputs(args)  # bad files: InputError -> one line, exit 2
    prefs, prefs_problem = _read_preferences(shot)
    from gpu_tpu_app.ui.shell import translations

    # --lang, else the saved choice, else the locale: set before any window (or Qt dialog) is built
    language = translations.choose(prefs.language, getattr(args, "lang", None))
    app = _application()
    translations.install(app, language)

    from gpu_tpu_app.ui.shell.main_window import MainWindow
    from gpu_tpu_app.ui.shell.theme import theme_manager

    theme_manager().apply(getattr(args, "theme", None) or prefs.theme)
    window = MainWindow(prefs, persist=not shot)
    window.set_session(session, path, modified=modified)
    if path is not None and not shot:
        window.files.add_recent(path)

    if shot:
        try:
            screenshot(app, window, shot, page, getattr(args, "size", None) or SCREENSHOT_SIZE)
        finally:
            window.shutdown()  # no unsaved-changes prompt here: nothing was edited
            window.hide()
            window.deleteLater()  # done with it: a caller that goes on (the tests) keeps no window behind
            _settle(app, 2)
        return 0

    if os.environ.get(STARTUP_ENV):
        _close_after_first_paint(window)
    show_page(window, page)
    window.show()
    window.warm_probe_later()  # the Probe page's workers load while the user reads (probe_warmup.py)
    if prefs_problem:  # said in the window too, where a user started from the menu sees it
        _say_preferences_problem(window, prefs_problem)
    from gpu_tpu_app.ui.shell import stop_signals

    stop_signals.install(app, window)  # SIGTERM, SIGHUP, the session closing: the measured points are kept
    try:
        return int(app.exec())
    finally:
        window.deleteLater()  # the loop is over: a caller that goes on (the tests) keeps no window behind
