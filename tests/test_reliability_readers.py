"""Every reader of a user's file against broken, hostile and odd files.

Readers: answers (`decide --answers`), sessions (`--session` and the window's Open), run
files (`probe compare`, `estimate --results`, `--results`, the window's Import and the Probe
page's Import) and preferences. Each case must give exactly one line that names the file
(and the field, where there is one): exit 2 in a command line, a plain-text dialog in the
window, never a traceback, and the file must be left exactly as it was.

One file of about 840 lines on purpose: every section, the writers' NaN and Infinity checks included, uses
the same valid files (`valid`, `make_run`), hostile cases (`CASES`, `Bad`), the snapshot that proves a file
untouched and the module-scoped window and Probe page; split, each part would import all of them back.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import stat
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from PySide6 import QtGui
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QAbstractItemView, QLabel, QMessageBox, QWidget

from gpu_tpu_app import cli
from gpu_tpu_app.core.runs import DeviceInfo, ProbeResult, RunFile, Stats, load_run, save_run
from gpu_tpu_app.core.session import Session, dumps_session, load_session, new_session
from gpu_tpu_app.core.settings import Preferences, load_preferences, save_preferences
from gpu_tpu_app.errors import InputError
from gpu_tpu_app.safe_read import (
    MAX_DATA_FILE_BYTES,
    MAX_SMALL_FILE_BYTES,
    NAME_CHARS,
    NOTES_CHARS,
    read_bytes,
)

HTML = '<img src="gpu-tpu-app-probe.png">'
ROOT = os.geteuid() == 0

# ---------------------------------------------------------------- valid files of each kind


def make_run(host: str = "tpu-vm-1", results: int = 2) -> RunFile:
    dev = DeviceInfo(backend="jax", platform="tpu", name="TPU v5 lite", memory_bytes=16 << 30)
    stats = Stats(median=1e14, min=9e13, max=1.1e14, q1=9.5e13, q3=1.05e14, iqr=1e13, cv=0.05, reps=5, seconds=0.5)
    res = [
        ProbeResult(
            kernel="matmul",
            backend="jax",
            device=dev.key,
            dtype="bfloat16",
            size=1024 * (i + 1),
            metric="flops",
            value=1e14 + i,
            unit="FLOP/s",
            stats=stats,
        )
        for i in range(results)
    ]
    return RunFile(
        app_version="0.1.0",
        host=host,
        os="Linux",
        python="3.11.9",
        devices=[dev],
        suite="quick",
        started=datetime(2025, 3, 1, tzinfo=UTC),
        complete=True,
        results=res,
    )


def valid(kind: str) -> dict:
    """A valid file of `kind` as a JSON object."""
    if kind == "run":
        return json.loads(make_run().model_dump_json())
    if kind == "session":
        return json.loads(dumps_session(Session(runs=[make_run()], notes="my notes")))
    if kind == "answers":
        return {"schema_version": 1, "stage": "production", "framework": "jax"}
    return json.loads(Preferences(theme="dark").model_dump_json())


#: where each kind keeps the field a mutation breaks: (a string field, a number inside a run).
STRING_FIELD = {"run": "host", "session": "notes", "answers": "stage", "preferences": "theme"}
RUN_PREFIX = {"run": "", "session": "runs.0."}


def mutate(kind: str, case: str) -> tuple[object, str | None]:
    """(new JSON object, field the message must name) for the cases that edit a valid file."""
    raw = valid(kind)
    sfield = STRING_FIELD[kind]
    if case == "future_schema_version":
        raw["schema_version"] = 99
        return raw, "schema_version"
    if case == "unknown_field":
        raw["bogus_field"] = 1
        return raw, "bogus_field"
    if case == "html_key":
        raw[HTML] = 1
        return raw, HTML
    if case == "control_characters_key":  # a line break or a terminal escape in a key stays on the line, escaped
        raw["bad\nkey\x1b[31m"] = 1
        return raw, "bad\\nkey\\x1b[31m"
    if case == "wrong_types":
        raw[sfield] = {"a": [1, 2]}
        return raw, sfield
    if case == "oversized_string":
        raw[sfield] = "x" * ((NOTES_CHARS if kind == "session" else NAME_CHARS) + 1)
        return raw, sfield
    if case == "html_value":  # where a value is quoted in the message
        if kind in RUN_PREFIX:
            target = raw if kind == "run" else raw["runs"][0]
            target["results"][0]["metric"] = HTML
            return raw, RUN_PREFIX[kind] + "results.0.metric"
        raw[sfield] = HTML
        return raw, sfield
    number = {"nan": math.nan, "infinity": math.inf, "negative": -1.0}[case]
    if kind in RUN_PREFIX:
        target = raw if kind == "run" else raw["runs"][0]
        target["results"][0]["value"] = number
        return raw, RUN_PREFIX[kind] + "results.0.value"
    raw[sfield] = number
    return raw, sfield


EDIT_CASES = (
    "future_schema_version",
    "unknown_field",
    "html_key",
    "control_characters_key",
    "wrong_types",
    "oversized_string",
    "html_value",
    "nan",
    "infinity",
    "negative",
    "overflowing_number",
)
FILE_CASES = (
    "empty",
    "truncated",
    "binary",
    "non_utf8",
    "json_array",
    "deep_nesting",
    "folder",
    "missing",
    "no_read_permission",
    "symlink_loop",
    "device",
    "fifo",
    "oversized_file",
    "huge_integer",
)
CASES = FILE_CASES + EDIT_CASES
#: what the line must say for the cases that have no field.
SAYS = {
    "empty": "not valid JSON",
    "truncated": "not valid JSON",
    "binary": "not UTF-8",
    "non_utf8": "not UTF-8",
    "json_array": "(top level)",
    "deep_nesting": "nested too deeply",
    "folder": "is a folder",
    "missing": "no such file",
    "no_read_permission": "Permission denied",
    "symlink_loop": "loops",
    "device": "is a device",
    "fifo": "named pipe",
    "oversized_file": "limit",
    "huge_integer": "not valid JSON (Exceeds",
}


@dataclass
class Bad:
    """A broken file on disk: where it is, what the one line must name, how it looked before."""

    path: Path
    field: str | None
    says: str | None
    before: tuple | None

    def unchanged(self) -> bool:
        return snapshot(self.path) == self.before


def snapshot(path: Path) -> tuple | None:
    """Type, size, mtime and (for regular files up to 64 MiB) a hash; None when nothing is there."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    digest = None
    if stat.S_ISREG(st.st_mode) and st.st_size <= 64 << 20 and os.access(path, os.R_OK):
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
    return (st.st_mode, st.st_size, st.st_mtime_ns, digest)


def make_bad(kind: str, case: str, folder: Path) -> Bad:
    """Write the broken file for (kind, case) under `folder`."""
    path = folder / f"{kind}-{case}.json"
    field = None
    text = json.dumps(valid(kind)).encode()
    if case == "empty":
        path.write_bytes(b"")
    elif case == "truncated":
        path.write_bytes(text[: len(text) // 2])
    elif case == "binary":
        path.write_bytes(bytes(range(256)) * 8)
    elif case == "non_utf8":
        path.write_bytes(text[:-1] + b', "x": "caf\xe9"}')
    elif case == "json_array":
        path.write_bytes(b"[" + text + b"]")
    elif case == "deep_nesting":
        path.write_bytes(b'{"a": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")
    elif case == "folder":
        path.mkdir()
    elif case == "missing":
        pass
    elif case == "no_read_permission":  # in a folder others may enter, so that opening is what fails
        path = Path(tempfile.mkdtemp(prefix="gpu-tpu-app-test-")) / path.name
        path.parent.chmod(0o755)
        path.write_bytes(text)
        path.chmod(0)
    elif case == "symlink_loop":
        path.symlink_to(path.name)
    elif case == "device":
        path = Path("/dev/zero")
    elif case == "fifo":
        os.mkfifo(path)
    elif case == "oversized_file":
        limit = MAX_DATA_FILE_BYTES if kind in ("run", "session") else MAX_SMALL_FILE_BYTES
        path.write_bytes(text)
        os.truncate(path, limit + 1)  # sparse: no disk space used
    elif case == "huge_integer":  # more digits than Python converts
        raw, _field = mutate(kind, "nan")
        path.write_text(json.dumps(raw).replace("NaN", "1" * 5000), encoding="utf-8")
    elif case == "overflowing_number":  # 1e999 parses as Infinity
        raw, field = mutate(kind, "nan")
        path.write_text(json.dumps(raw).replace("NaN", "1e999"), encoding="utf-8")
    else:
        raw, field = mutate(kind, case)
        path.write_text(json.dumps(raw), encoding="utf-8")  # json.dumps writes NaN and Infinity as such
    return Bad(path, field, SAYS.get(case), snapshot(path))


@pytest.fixture
def unblock_fifos(tmp_path: Path) -> Iterator[None]:
    """If a reader ever blocks on a FIFO, open its other end after a while so the test fails instead of hanging."""
    done = threading.Event()

    def release() -> None:
        if done.wait(20):
            return
        for fifo in tmp_path.glob("*.json"):
            if stat.S_ISFIFO(os.lstat(fifo).st_mode):
                try:
                    os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
                except OSError:
                    pass

    thread = threading.Thread(target=release, daemon=True)
    thread.start()
    yield
    done.set()
    thread.join()


@contextmanager
def reading_as_user(case: str) -> Iterator[None]:
    """For the no-read-permission case under root (who reads any file): read as the user nobody."""
    if case != "no_read_permission" or not ROOT:
        yield
        return
    os.setegid(65534)
    os.seteuid(65534)
    try:
        yield
    finally:
        os.seteuid(0)
        os.setegid(0)


def check_line(line: str, bad: Bad) -> None:
    """One line that names the file, the field (where there is one) and the problem; bounded in length."""
    assert "\n" not in line.rstrip("\n"), line
    assert "Traceback" not in line
    assert str(bad.path) in line, line
    if bad.field is not None:
        assert f": {bad.field[:60]}" in line, line
    if bad.says is not None:
        assert bad.says in line, line
    assert len(line) < len(str(bad.path)) + 600, line[:300]
    assert bad.unchanged()


# ---------------------------------------------------------------- command lines, in process


def _cli_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    rc = cli.main(argv)
    out, err = capsys.readouterr()
    assert rc == 2, (out, err)
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    return lines[0]


COMMANDS: dict[str, tuple[str, Callable[[Path], list[str]]]] = {
    "decide --answers": ("answers", lambda p: ["decide", "--answers", str(p)]),
    "--session": ("session", lambda p: ["--session", str(p)]),
    "--results": ("run", lambda p: ["--results", str(p)]),
    "estimate --results": ("run", lambda p: ["estimate", "--params", "7e9", "--results", str(p)]),
    "probe compare": ("run", lambda p: ["probe", "compare", str(p)]),
}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("command", list(COMMANDS))
def test_command_line_readers_refuse_with_one_line(
    command: str,
    case: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    unblock_fifos: None,
) -> None:
    monkeypatch.setenv("GPU_TPU_APP_QUIT_AFTER_PAINT", "1")  # were a file ever accepted, the window would close itself
    kind, argv = COMMANDS[command]
    bad = make_bad(kind, case, tmp_path)
    with reading_as_user(case):
        line = _cli_line(argv(bad.path), capsys)
    check_line(line, bad)


@pytest.mark.parametrize("case", CASES)
def test_preferences_reader_refuses_with_one_line(case: str, tmp_path: Path, unblock_fifos: None) -> None:
    bad = make_bad("preferences", case, tmp_path)
    if case == "missing":  # no preferences yet is the first start: defaults, not an error
        assert load_preferences(bad.path) == Preferences()
        return
    with pytest.raises(InputError) as info, reading_as_user(case):
        load_preferences(bad.path)
    check_line(str(info.value), bad)


def test_a_broken_preferences_file_is_one_warning_at_start_and_defaults(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "XDG_CONFIG_HOME": str(tmp_path),
        "GPU_TPU_APP_QUIT_AFTER_PAINT": "1",
        "QT_QPA_PLATFORM": "offscreen",
    }
    prefs = tmp_path / "gpu-tpu-app" / "preferences.json"
    prefs.parent.mkdir()
    prefs.write_text(json.dumps({"schema_version": 1, "theme": "x" * 5000}))
    before = snapshot(prefs)
    proc = subprocess.run([sys.executable, "-m", "gpu_tpu_app"], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    warnings = [line for line in proc.stderr.splitlines() if line.startswith("warning: ")]
    assert len(warnings) == 1 and f"{prefs}: theme: " in warnings[0] and "using default preferences" in warnings[0]
    assert "Traceback" not in proc.stderr
    assert snapshot(prefs) == before


# ---------------------------------------------------------------- real processes: nothing reaches stderr but the line


@pytest.mark.parametrize(
    ("argv", "kind", "case"),
    [
        (["decide", "--answers"], "answers", "device"),
        (["--session"], "session", "fifo"),
        (["probe", "compare"], "run", "nan"),
        (["estimate", "--params", "7e9", "--results"], "run", "deep_nesting"),
        (["--results"], "run", "html_key"),
    ],
)
def test_real_processes_print_one_line_and_exit_2(argv: list[str], kind: str, case: str, tmp_path: Path) -> None:
    bad = make_bad(kind, case, tmp_path)
    env = {**os.environ, "GPU_TPU_APP_QUIT_AFTER_PAINT": "1", "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run(
        [sys.executable, "-m", "gpu_tpu_app", *argv, str(bad.path)], env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1, proc.stderr
    check_line(proc.stderr.splitlines()[0], bad)


def test_answers_on_stdin_are_bounded(tmp_path: Path) -> None:
    with open("/dev/zero", "rb") as zero:
        proc = subprocess.run(
            [sys.executable, "-m", "gpu_tpu_app", "decide", "--answers", "-"],
            stdin=zero,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert proc.returncode == 2
    assert proc.stderr == "error: <stdin>: over the 1 MiB limit for an answers file; not reading it\n"


# ---------------------------------------------------------------- the window


class Boxes:
    """Captures every message box the window shows (modal or not) instead of showing it."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.shown: list[QMessageBox] = []
        self.texts: list[str] = []

        def capture(box: QMessageBox) -> int:
            assert box.textFormat() == Qt.TextFormat.PlainText, box.text()
            self.shown.append(box)
            self.texts.append(box.text())
            return int(QMessageBox.StandardButton.Ok)

        monkeypatch.setattr(QMessageBox, "exec", capture)
        monkeypatch.setattr(QMessageBox, "open", capture)
        for name in ("warning", "critical", "question", "information", "about"):
            monkeypatch.setattr(QMessageBox, name, lambda *a, **k: pytest.fail(f"a rich-text dialog: {a[1:3]}"))


@pytest.fixture(scope="module")
def window(qapp) -> Iterator[QWidget]:
    from gpu_tpu_app.ui.shell.main_window import MainWindow

    w = MainWindow(persist=False)
    yield w
    w.session_controller.mark_clean()
    w.shutdown()
    w.deleteLater()


@pytest.fixture(scope="module")
def probe_panel(qapp) -> Iterator[QWidget]:
    from gpu_tpu_app.ui.probe.probe_panel import ProbePanel

    p = ProbePanel(Preferences(default_suite="smoke"))
    yield p
    p.shutdown()
    p.deleteLater()


@pytest.mark.parametrize("case", CASES)
def test_window_open_is_all_or_nothing(
    case: str, window, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unblock_fifos: None
) -> None:
    boxes = Boxes(monkeypatch)
    good = tmp_path / "good.json"
    window.set_session(new_session().with_notes(f"before {case}"))
    assert window.save_as(good)
    title = window.windowTitle()
    bad = make_bad("session", case, tmp_path)
    with reading_as_user(case):
        assert not window.open_session(bad.path)
    assert len(boxes.texts) == 1
    check_line(boxes.texts[0], bad)
    # the window keeps its session, its path and its title; saving writes the good file only
    assert window.path() == good and window.session().notes == f"before {case}" and window.windowTitle() == title
    window._notes_changed("changed after the failed open")
    assert window.save()
    assert bad.unchanged()
    assert load_session(good).notes == "changed after the failed open"


@pytest.mark.parametrize("case", CASES)
def test_window_import_is_all_or_nothing(
    case: str, window, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unblock_fifos: None
) -> None:
    boxes = Boxes(monkeypatch)
    window.set_session(new_session().with_runs([make_run("kept")]))
    before = window.session()
    bad = make_bad("run", case, tmp_path)
    with reading_as_user(case):
        assert not window.import_run(bad.path)
    assert len(boxes.texts) == 1
    check_line(boxes.texts[0], bad)
    assert window.session() == before


@pytest.mark.parametrize("case", CASES)
def test_probe_page_import_refuses(
    case: str, probe_panel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unblock_fifos: None
) -> None:
    boxes = Boxes(monkeypatch)
    runs = list(probe_panel.runs())
    bad = make_bad("run", case, tmp_path)
    with reading_as_user(case):
        assert not probe_panel.import_run(bad.path)
    assert len(boxes.texts) == 1
    check_line(boxes.texts[0], bad)
    assert list(probe_panel.runs()) == runs


def test_a_session_that_cannot_be_shown_leaves_the_window_as_it_was(
    window, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Defence in depth: even an unexpected failure while showing a valid file changes nothing."""
    boxes = Boxes(monkeypatch)
    good, other = tmp_path / "good.json", tmp_path / "other.json"
    window.set_session(new_session().with_notes("kept"))
    assert window.save_as(good)
    other.write_text(dumps_session(Session(runs=[make_run("elsewhere")], notes="other")), encoding="utf-8")
    before = snapshot(other)
    real = window.result_page.set_runs

    def fails_on_other(runs: list[RunFile]) -> None:
        if any(r.host == "elsewhere" for r in runs):
            raise ValueError("cannot draw this")
        real(runs)

    monkeypatch.setattr(window.result_page, "set_runs", fails_on_other)
    assert not window.open_session(other)
    assert len(boxes.texts) == 1 and boxes.texts[0] == f"{other}: cannot be shown (cannot draw this)"
    assert window.path() == good and window.session().notes == "kept" and window.session().runs == []
    assert window.save() and snapshot(other) == before


def _rich_texts(root: QWidget) -> list[str]:
    """Every text under `root` that Qt would render as HTML although it holds file text."""
    found = []
    widgets = [root, *root.findChildren(QWidget)]
    for w in widgets:
        if isinstance(w, QLabel) and HTML in w.text() and w.textFormat() != Qt.TextFormat.PlainText:
            found.append(f"label {w.text()[:80]}")
        tip = w.toolTip()
        if HTML in tip and QtGui.Qt.mightBeRichText(tip):
            found.append(f"tooltip {tip[:80]}")
        if isinstance(w, QAbstractItemView) and w.model() is not None:
            found += [
                f"item tooltip {tip[:80]}"
                for tip in _item_tips(w.model(), QModelIndex())
                if HTML in tip and QtGui.Qt.mightBeRichText(tip)
            ]
    return found


def _item_tips(model, parent) -> Iterator[str]:
    """The tooltips of every item of a list, table or tree model."""
    for row in range(model.rowCount(parent)):
        for col in range(1000):  # columnCount is private on list models: walk until there is no such cell
            index = model.index(row, col, parent)
            if not index.isValid():
                break
            tip = index.data(Qt.ItemDataRole.ToolTipRole)
            if isinstance(tip, str):
                yield tip
            if col == 0:
                yield from _item_tips(model, index)


def test_html_in_a_valid_run_is_shown_as_text(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Host, device, OS and messages holding HTML: every label, tooltip and legend shows it as text."""
    import pyqtgraph as pg

    from gpu_tpu_app.ui.probe.probe_panel import ProbePanel
    from gpu_tpu_app.ui.shell.main_window import MainWindow

    Boxes(monkeypatch)
    monkeypatch.setattr(ProbePanel, "list_devices", lambda self: None)  # no worker processes needed here
    run = make_run(host=HTML)
    dev = run.devices[0].model_copy(update={"name": HTML})
    results = [r.model_copy(update={"message": HTML}) for r in run.results]
    results.append(results[0].model_copy(update={"status": "error", "value": None, "stats": None, "size": 99}))
    run = run.model_copy(update={"devices": [dev], "results": results, "os": HTML, "errors": [HTML]})
    path = tmp_path / "html.json"
    save_run(run, path)
    w = MainWindow(persist=False)
    qtbot.addWidget(w, before_close_func=lambda win: win.session_controller.mark_clean())
    w.resize(1280, 800)
    w.show()
    assert w.import_run(path)
    panel = w.ensure_probe_panel()
    panel.log("error", HTML)
    for page in ("probe", "learn", "decide"):
        w.show_page(page)
        qtbot.wait(50)
    w.show_result()
    assert _rich_texts(w) == []
    legends = [it for it in panel.findChildren(pg.GraphicsLayoutWidget)]
    texts = []
    for glw in legends:
        for item in glw.scene().items():
            if isinstance(item, pg.LabelItem):
                texts.append(item.text)
    assert texts and not [t for t in texts if HTML in t], texts
    panel.shutdown()


# ---------------------------------------------------------------- the reader itself


def test_reader_never_opens_a_fifo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    opened: list[str] = []
    real_open = os.open
    monkeypatch.setattr(os, "open", lambda p, *a, **k: opened.append(str(p)) or real_open(p, *a, **k))
    with pytest.raises(InputError, match="named pipe"):
        read_bytes(fifo, "a test file", 100)
    assert opened == []


def test_a_file_that_grows_past_the_limit_while_read_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "grows.json"
    path.write_bytes(b"x" * 10)
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: real_read(fd, n) + b"y" * 200 if n > 0 else b"")
    with pytest.raises(InputError, match=r"grows\.json: grew over the 100 bytes limit"):
        read_bytes(path, "a test file", 100)


def test_a_large_run_file_still_loads(tmp_path: Path) -> None:
    """Caps never bite a real user: 20,000 results (about 13 MB) load; the 300 MB case is in benchmarks/."""
    run = make_run(results=20_000)
    path = tmp_path / "large.json"
    save_run(run, path)
    assert path.stat().st_size > 10 << 20
    assert load_run(path) == run


def test_notes_at_the_cap_save_and_open_again(tmp_path: Path) -> None:
    path = tmp_path / "long-notes.json"
    session = Session(notes="n" * NOTES_CHARS)
    path.write_text(dumps_session(session), encoding="utf-8")
    assert load_session(path).notes == session.notes


def test_window_refuses_to_save_notes_it_could_not_open_again(
    window, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    boxes = Boxes(monkeypatch)
    path = tmp_path / "too-long.json"
    window.set_session(new_session())
    window._notes_changed("n" * (NOTES_CHARS + 1))
    assert not window.save_as(path)
    assert not path.exists()
    assert len(boxes.texts) == 1 and boxes.texts[0].startswith(f"{path}: notes: 1,048,577 characters")


# ---------------------------------------------------------------- nothing the app writes holds NaN or Infinity


def _strict(text: str) -> object:
    def refuse(name: str) -> None:
        raise AssertionError(f"{name} in JSON the app wrote")

    return json.loads(text, parse_constant=refuse)


def test_models_refuse_nan_and_infinity_so_files_cannot_hold_them() -> None:
    from pydantic import ValidationError

    for bad in (math.nan, math.inf, -math.inf):
        with pytest.raises(ValidationError):
            ProbeResult(kernel="matmul", backend="jax", device="jax:cpu:0", metric="flops", value=bad)
        with pytest.raises(ValidationError):
            Stats(median=bad, min=1, max=1, q1=1, q3=1, iqr=0, cv=0, reps=1, seconds=1)


def test_json_the_app_writes_is_strict_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_path, session_path, prefs_path = tmp_path / "run.json", tmp_path / "s.json", tmp_path / "p.json"
    # a value that slipped past validation (model_copy does not validate) is written as null, never NaN
    run = make_run()
    run = run.model_copy(update={"results": [run.results[0].model_copy(update={"value": math.nan}), *run.results[1:]]})
    save_run(run, run_path)
    _strict(run_path.read_text())
    path_ok = tmp_path / "ok.json"
    save_run(make_run(), path_ok)
    from gpu_tpu_app.core.session import save_session

    save_session(Session(runs=[run]), session_path)
    _strict(session_path.read_text())
    save_preferences(Preferences(), prefs_path)
    _strict(prefs_path.read_text())
    answers = tmp_path / "a.json"
    answers.write_text('{"stage": "production"}')
    for argv in (
        ["probe", "compare", "--format", "json", str(path_ok), str(path_ok)],
        ["decide", "--answers", str(answers), "--format", "json"],
        ["estimate", "--params", "7e9", "--results", str(path_ok), "--format", "json"],
        ["explain", "--format", "json"],
    ):
        assert cli.main(argv) == 0
        _strict(capsys.readouterr().out)


def test_estimate_request_bounds_keep_the_estimate_finite(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["estimate", "--params", "1e300", "--tokens", "1e300"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --params: ") and len(err.splitlines()) == 1


def test_a_run_the_probe_page_cannot_show_leaves_the_page_as_it_was(
    probe_panel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    boxes = Boxes(monkeypatch)
    path = tmp_path / "elsewhere.json"
    save_run(make_run("elsewhere"), path)
    runs = list(probe_panel.runs())
    real = probe_panel.model.set_runs

    def fails_on_elsewhere(runs: list[RunFile], *args: object) -> None:
        if any(r.host == "elsewhere" for r in runs):
            raise ValueError("cannot draw this")
        real(runs, *args)

    monkeypatch.setattr(probe_panel.model, "set_runs", fails_on_elsewhere)
    assert not probe_panel.import_run(path)
    assert boxes.texts == [f"{path}: cannot be shown (cannot draw this)"]
    assert list(probe_panel.runs()) == runs and probe_panel.runs_list.count() == len(runs)


def test_a_byte_order_mark_is_not_content(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "answers.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(valid("answers")).encode())
    assert cli.main(["decide", "--answers", str(path), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"]


def test_a_session_price_that_would_overflow_the_cost_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = valid("session")
    raw["estimate"] = {"params": 7e9, "prices": {"h100-sxm": 1e308}}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    bad = Bad(path, "estimate", "USD per chip-hour", snapshot(path))
    check_line(_cli_line(["--session", str(path)], capsys), bad)


def test_recent_files_from_a_hand_edited_settings_file(qtbot) -> None:
    from gpu_tpu_app.ui.shell.main_window import MainWindow

    w = MainWindow(persist=True)
    qtbot.addWidget(w)
    settings = w._settings()
    try:
        settings.setValue("recent", 5)
        assert w.recent_files() == []
        settings.setValue("recent", ["/a/session.json", "x" * 5000, "", "/b/other.json"])
        assert w.recent_files() == ["/a/session.json", "/b/other.json"]
        w.files.update_recent_menu()
    finally:
        settings.remove("recent")


def test_every_json_dump_in_the_app_refuses_nan() -> None:
    """json.dumps writes NaN and Infinity unless told not to: every call that writes JSON says allow_nan=False.

    Exempt: calls that quote a value inside an error message, and what worker processes hand
    back to the app (the model-check stream, a timing file), which the app validates on its
    side (finite numbers only) before anything is kept.
    """
    import ast

    import gpu_tpu_app

    root = Path(gpu_tpu_app.__file__).parent
    missing = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        quoting: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr) or (
                isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("quoted", "shown")
            ):
                quoting.update(id(n) for n in ast.walk(node))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("dumps", "dump")
                and getattr(node.func.value, "id", "") == "json"
                and id(node) not in quoting
            ):
                strict = any(
                    k.arg == "allow_nan" and isinstance(k.value, ast.Constant) and k.value.value is False
                    for k in node.keywords
                )
                where = f"{path.relative_to(root)}:{node.lineno}"
                if not strict and where.split(":")[0] not in (
                    "worker/modelcheck/base.py",  # the model-check worker's stream
                    "worker/kernels/torch_collective.py",  # rank 0's timing file
                ):
                    missing.append(where)
    assert missing == []


def test_a_host_name_from_a_file_never_points_the_export_dialog_elsewhere(
    probe_panel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtWidgets import QFileDialog

    path = tmp_path / "odd-host.json"
    save_run(make_run(host="../../etc/<b>x</b>\n"), path)
    assert probe_panel.import_run(path)
    probe_panel.runs_list.setCurrentRow(probe_panel.runs_list.count() - 1)
    asked: list[str] = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda _p, _t, name, _f: (asked.append(name), ("", ""))[1])
    probe_panel._export_run_dialog("json")
    assert asked == ["probe-etc-b-x-b-20250301-0000.json"]


def test_a_broken_preferences_file_is_said_in_the_window(qapp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse

    from gpu_tpu_app.ui.shell import app as app_module

    boxes = Boxes(monkeypatch)
    prefs = tmp_path / "gpu-tpu-app" / "preferences.json"
    prefs.parent.mkdir()
    prefs.write_text('{"schema_version": 1, "theme": "<b>neon</b>"}')
    before = snapshot(prefs)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setenv(app_module.STARTUP_ENV, "1")  # the window closes after its first paint
    args = argparse.Namespace(screenshot=None, page=None, session=None, results=None)
    assert app_module.main(args) == 0
    assert len(boxes.texts) == 1 and boxes.texts[0].startswith(f"{prefs}: theme: ")
    assert boxes.texts[0].endswith(
        "; using default preferences. The file stays as it is until you change a preference."
    )
    assert snapshot(prefs) == before
