"""Test set-up: offscreen Qt, a private home so tests never touch the user's files, English unless a test
asks for another language (GPU_TPU_APP_LANG=en: the tester's own locale does not change what the tests
read), and the window's .qm translations rebuilt when a .ts file is newer (a developer edited one)."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

# Both must happen before Qt, platformdirs or QSettings are imported anywhere.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_SANDBOX = tempfile.mkdtemp(prefix="gpu-tpu-app-tests-")
for _var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
    os.environ[_var] = os.path.join(_SANDBOX, _var.lower())
    os.makedirs(os.environ[_var], exist_ok=True)
os.environ["GPU_TPU_APP_TEST_SANDBOX"] = _SANDBOX
os.environ["GPU_TPU_APP_LANG"] = "en"

import pytest  # noqa: E402  # the environment above must be set first


@pytest.fixture(scope="session", autouse=True)
def _translations_built() -> None:
    """The .qm files as their .ts files say: a stale or missing one is compiled with pyside6-lrelease first, so
    the window's tests see the translations as they are now (a missing lrelease fails here, by name)."""
    import fcntl

    from gpu_tpu_app import qm
    from gpu_tpu_app.assets import resource_path

    folder = resource_path(qm.FOLDER)
    # make test's two pytest-xdist workers both come here: one compiles while the other waits on the lock,
    # then finds nothing stale (lrelease writes the .qm in place, so a reader must not see it half written)
    with open(os.path.join(tempfile.gettempdir(), "gpu-tpu-app-tests-qm.lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if qm.stale(folder):
            try:
                qm.build_stale(folder)
            except qm.TranslationBuildError as exc:
                pytest.fail(f"the window's translations cannot be built: {exc}", pytrace=False)


@pytest.fixture(scope="session")
def compiled_qm(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Path], Path]:
    """compiled_qm(ts): the .qm that pyside6-lrelease compiles from the .ts file `ts` as it is now, built into a
    private folder once per session (not once per test) and shared by the tests that install it."""
    from gpu_tpu_app import qm

    folder = tmp_path_factory.mktemp("qm")
    built: dict[Path, Path] = {}

    def compile_once(ts: Path) -> Path:
        if ts not in built:
            built[ts] = qm.compile_ts(ts, folder / qm.qm_for(ts).name)
        return built[ts]

    return compile_once


@pytest.fixture
def sandbox_home() -> str:
    """The private folder that stands in for the user's home during tests."""
    return _SANDBOX


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    """Run `gpu-tpu-app ARGS...` in this process: returns (exit code, stdout, stderr)."""
    from gpu_tpu_app import cli

    def run(*argv: str) -> tuple[int, str, str]:
        code = cli.main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture
def mount_tmpfs(tmp_path: Path) -> Iterator[Callable[[str], Path]]:
    """mount_tmpfs("64k"): a real tmpfs of that size for this test, unmounted afterwards; the test is
    skipped where mounting is not permitted (it needs Linux, mount(8) and root or CAP_SYS_ADMIN)."""
    mounted: list[Path] = []

    def mount(size: str) -> Path:
        if not sys.platform.startswith("linux") or shutil.which("mount") is None:
            pytest.skip("mounting a tmpfs needs Linux and mount(8)")
        mnt = tmp_path / f"tmpfs-{len(mounted)}"
        mnt.mkdir()
        proc = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0777", "tmpfs", str(mnt)], capture_output=True, text=True
        )
        if proc.returncode != 0:
            pytest.skip(f"mount -t tmpfs is not permitted here: {proc.stderr.strip() or proc.returncode}")
        mounted.append(mnt)
        return mnt

    yield mount
    for mnt in mounted:
        subprocess.run(["umount", str(mnt)], check=False)


@pytest.fixture
def full_disk(monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """full_disk(limit=0, err=ENOSPC): from now on, writes to the app's temporary files (atomic.py) store
    `limit` bytes in all and then fail with `err`, as a disk that runs full. Other files are untouched."""
    from gpu_tpu_app import atomic

    if not os.path.isdir("/proc/self/fd"):
        pytest.skip("the injected full disk tells the temporary file apart through /proc/self/fd")

    def fail(limit: int = 0, err: int = errno.ENOSPC) -> None:
        real = os.write
        written = {"n": 0}

        def write(fd: int, data: bytes) -> int:
            try:
                ours = os.readlink(f"/proc/self/fd/{fd}").endswith(atomic.TEMP_SUFFIX)
            except OSError:
                ours = False
            if not ours:
                return real(fd, data)
            room = limit - written["n"]
            if room <= 0:
                raise OSError(err, os.strerror(err))
            n = real(fd, bytes(data[:room]))
            written["n"] += n
            return n

        monkeypatch.setattr(os, "write", write)

    return fail


# --- Qt widgets: deleted after each test, and none left behind ---------------------------------------------
# pytest-qt closes the widgets a test registered and calls deleteLater() on them, but a deferred delete posted
# outside a running event loop is never delivered: without the flush below every closed window stays alive,
# and each later theme change or style polish walks all of them (a fixture that takes 0.1 s alone took 6-13 s
# by the end of the UI tests). The leak check, after napari's conftest, fails a test that leaves a parentless
# top-level widget alive after its teardown, so a leak is found where it starts.
_TOP_LEVEL_BEFORE = pytest.StashKey[set[int]]()


def _qt_app() -> object | None:
    """The QApplication when a test has created one (Qt is never imported here for the others)."""
    widgets = sys.modules.get("PySide6.QtWidgets")
    return None if widgets is None else widgets.QApplication.instance()


def _flush_deferred_deletes(collect: bool = False) -> None:
    """Deliver pending deleteLater()s; with `collect`, first collect Python garbage (a full collection takes
    about 0.2 s with torch and jax loaded, so only when a widget is left to explain)."""
    import gc

    from PySide6.QtCore import QCoreApplication, QEvent

    if collect:
        gc.collect()  # pyqtgraph's parentless context menus die with their view boxes, which sit in cycles
    for _ in range(3):  # a deletion can post further deletions (children, timers)
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        QCoreApplication.processEvents()


def _live_top_level() -> dict[int, Any]:
    """Parentless top-level widgets alive now, by the address of their C++ object (a Python wrapper can be
    collected and made anew, so its id() is no identity)."""
    import shiboken6
    from PySide6.QtWidgets import QApplication

    # Only widgets the Python side made count: Qt makes parentless helpers of its own (the tooltip label,
    # hidden internal QWidgets) that live for the process. pyqtgraph's plot context menus are parentless QMenus
    # that live as long as the Python side of their plot item does: not the test's either.
    return {
        shiboken6.getCppPointer(w)[0]: w
        for w in QApplication.topLevelWidgets()
        if w.parent() is None and shiboken6.createdByPython(w) and w.metaObject().className() != "QMenu"
    }


def _describe(w: Any) -> str:
    """A leaked widget as a reader can find it: its class, object name, and title or first actions."""
    label = w.objectName() or w.windowTitle() or ""
    if hasattr(w, "actions") and not label:
        label = "/".join(a.text() for a in w.actions()[:3])
    kind = w.metaObject().className()
    if not label:
        label = "children: " + "/".join(c.metaObject().className() for c in w.children()[:4])
    return f"{kind}({label or '-'})"


# Widgets that module- or session-scoped fixtures made: they outlive the test that first asked for them on
# purpose, and their fixture's own teardown ends them.
_LONG_LIVED: set[int] = set()


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(fixturedef: pytest.FixtureDef[Any], request: pytest.FixtureRequest) -> Iterator[Any]:
    if fixturedef.scope == "function":
        return (yield)
    before = set(_live_top_level()) if _qt_app() is not None else set()
    result = yield
    if _qt_app() is not None:
        _LONG_LIVED.update(set(_live_top_level()) - before)
    return result


# --- Qt warnings that mean a bug: a QProcess destroyed while its process runs (a worker not reaped) -------
# pytest-qt captures Qt's messages during each test's call (and fails nothing on warnings by default); a
# handler of ours sees what comes outside it (set-up, teardown, garbage collected later). Either way such a
# message fails the test it came in.
FATAL_QT_MESSAGES = ("Destroyed while process",)
_QT_FATAL_SEEN: list[str] = []
_QT_HANDLER: list[Any] = []


def _install_qt_message_check() -> None:
    if _QT_HANDLER or "PySide6.QtCore" not in sys.modules:
        return
    from PySide6.QtCore import qInstallMessageHandler

    def handler(_kind: Any, _context: Any, message: str) -> None:
        if any(text in message for text in FATAL_QT_MESSAGES):
            _QT_FATAL_SEEN.append(message)
        sys.stderr.write(message + "\n")

    _QT_HANDLER.append(handler)
    qInstallMessageHandler(handler)


def _fail_on_fatal_qt_messages(item: pytest.Item, when: str) -> None:
    if _QT_FATAL_SEEN:
        seen = "; ".join(sorted(set(_QT_FATAL_SEEN)))
        _QT_FATAL_SEEN.clear()
        pytest.fail(f"{item.nodeid}: Qt said, in its {when}: {seen} (a process was not ended and reaped)")


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[Any]:
    report = yield
    capture = getattr(item, "qt_log_capture", None)  # pytest-qt's, still there: this wrapper runs inside its
    if call.when == "call" and capture is not None and report.outcome != "failed":
        bad = [r.message for r in capture.records if any(t in r.message for t in FATAL_QT_MESSAGES)]
        if bad:
            report.outcome = "failed"
            report.longrepr = f"Qt said, during the test: {'; '.join(sorted(set(bad)))} (a process was not reaped)"
    return report


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    _install_qt_message_check()
    app = _qt_app()
    item.stash[_TOP_LEVEL_BEFORE] = set(_live_top_level()) if app is not None else set()
    result = yield
    _fail_on_fatal_qt_messages(item, "set-up")
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    result = yield
    if _qt_app() is None:
        return result
    # The fixtures are torn down: drop the test's references to their values now (pytest does it only after
    # this hook), so what only the test held is collected before the check.
    funcargs = getattr(item, "funcargs", None)
    if isinstance(funcargs, dict):
        funcargs.clear()
    _flush_deferred_deletes()
    before = item.stash.get(_TOP_LEVEL_BEFORE, set()) | _LONG_LIVED
    leaked = [w for address, w in _live_top_level().items() if address not in before]
    if leaked:  # what only garbage still holds is not a leak: collect, then look again
        del leaked
        _flush_deferred_deletes(collect=True)
        leaked = [w for address, w in _live_top_level().items() if address not in before]
    if leaked:
        names = ", ".join(sorted(_describe(w) for w in leaked))
        for w in leaked:  # end them, so one leak is reported once and does not slow the tests after it
            w.close()
            w.deleteLater()
        _flush_deferred_deletes()
        pytest.fail(f"{item.nodeid} left {len(leaked)} top-level widget(s) alive: {names} (use qtbot.addWidget)")
    _install_qt_message_check()
    _fail_on_fatal_qt_messages(item, "teardown")
    return result


# --- How long each test takes, in wall and CPU seconds (opt-in) ---------------------------------------------
# GPU_TPU_APP_TEST_TIMES=FILE appends one JSON line per test: its node id, wall seconds of setup + call +
# teardown, the CPU seconds this process and its finished children spent meanwhile, and the pytest-xdist
# worker that ran it ("gw0", "gw1"; "main" without xdist). CPU time hardly changes with the machine's load,
# so it is what decides which tests are marked slow (over about 2 s).
_TIMES_FILE = os.environ.get("GPU_TPU_APP_TEST_TIMES")


def _cpu_seconds() -> float:
    import resource

    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[object]:
    if not _TIMES_FILE:
        return (yield)
    import json
    import time

    wall, cpu = time.perf_counter(), _cpu_seconds()
    result = yield
    row = {"test": item.nodeid, "wall_s": round(time.perf_counter() - wall, 3), "cpu_s": round(_cpu_seconds() - cpu, 3)}
    row["slow"] = item.get_closest_marker("slow") is not None
    row["worker"] = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with open(_TIMES_FILE, "a", encoding="utf-8") as f:
        f.write(json.dumps(row) + "\n")
    return result


@pytest.fixture(autouse=True)
def no_leftover_processes() -> Iterator[None]:
    """After every test: no process that a guarded launch started (a model check's worker and whatever
    the model file forked, an interpreter `envs` queried) is still alive. They carry the guard's marker
    in their environment (tests/leftovers.py), one marker per pytest process, so each pytest-xdist worker
    looks only at what its own tests started; found ones are killed and the test fails."""
    from tests import leftovers

    leftovers.install()
    yield
    left = leftovers.leftovers()
    if left:
        pytest.fail("processes left running after the test: " + "; ".join(f"{p} {c}" for p, c in sorted(left.items())))


@pytest.fixture
def zh(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The interface in zh-Hans for one test, as GPU_TPU_APP_LANG=zh-Hans sets it (commands the test starts
    inherit it); `_language_restored` below puts the language and the variable back after the test."""
    from gpu_tpu_app import i18n

    monkeypatch.setenv(i18n.LANG_ENV, "zh-Hans")
    i18n.set_language("zh-Hans")
    yield


@pytest.fixture(autouse=True)
def _language_restored() -> Iterator[None]:
    """After every test: the interface language as it was before it. `--lang` writes GPU_TPU_APP_LANG into
    os.environ and `i18n.set_language` sets a process global, so a test that runs a command in-process with
    `--lang zh-Hans` would otherwise leave every later test speaking Chinese (tests/test_language_restored.py)."""
    from gpu_tpu_app import i18n

    before_current = i18n._current
    before_env = os.environ.get(i18n.LANG_ENV)
    yield
    i18n._current = before_current
    if before_env is None:
        os.environ.pop(i18n.LANG_ENV, None)
    else:
        os.environ[i18n.LANG_ENV] = before_env
