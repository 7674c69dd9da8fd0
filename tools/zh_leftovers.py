"""Find the words still in English when the app speaks Simplified Chinese: every page of the window and
every headless command in zh-Hans, each visible text checked, each leftover named with where it comes from.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python tools/zh_leftovers.py [--window] [--commands] [--json]
                                  [--session docs/screenshots/example-session.json]

Two kinds of leftover are listed:
- ``english``: a text with no Chinese character that still holds a Latin word which is not a name, unit
  or format (``tools/i18n_allow.py``'s ``left_in_english``): a sentence, label or button left untranslated.
- ``mixed``: a Chinese text that still holds Latin words which are neither allowed names nor the
  project's own ids (answer fields and values, topic and source ids, chip names, kernel ids, command
  names, file names): usually an English fragment built into a translated sentence.

What counts as a leftover is decided in zh_classify.py; this file collects the texts and names sources.
The window is built in-process with the translators installed (the .qm files compiled from the .ts
first when stale), the example session loaded, and visited page by page (welcome, every wizard step,
the result, the probe panel and each chart tab, the Learn page and each topic, Preferences, the
report dialog, the guide, the shortcuts, About); every widget's text, tooltip, placeholder, item,
header, cell, tab and plot label is read. The commands run as subprocesses with ``--lang zh-Hans``.
"Where" is the page or command and the widget; "source" is the file and line holding that English
text, found by searching the package and its resources. Exit code: 0 (a report, not a test).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

#: what counts as a leftover lives in zh_classify; its names are imported from here by the tests too
from tools.zh_classify import (  # noqa: E402
    VERBATIM,
    Leftover,
    _strip_markup,
    classify,
    data_words,
    machine_words,
    project_ids,
    user_texts,
    verbatim_titles,
)

SESSION = ROOT / "docs" / "screenshots" / "example-session.json"
#: the most cells read from one table or tree (a run has thousands of points; the first rows show the words).
MAX_CELLS = 400


# ---------------------------------------------------------------- where a text comes from


class SourceIndex:
    """The package's source and English resource files, searched for the English a leftover holds."""

    def __init__(self) -> None:
        files = [p for p in (ROOT / "gpu_tpu_app").rglob("*.py")]
        res = ROOT / "resources"
        files += [p for p in res.rglob("*") if p.is_file() and p.suffix in (".toml", ".md", ".json", ".ts")]
        files = [p for p in files if "zh-Hans" not in p.name and "zh_CN" not in p.name]
        self.lines: list[tuple[str, int, str]] = []
        for p in files:
            try:
                for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
                    self.lines.append((str(p.relative_to(ROOT)), i, line))
            except (OSError, UnicodeDecodeError):
                continue

    def find(self, leftover: Leftover, limit: int = 3) -> list[str]:
        """file:line of the source lines holding the leftover's longest English run."""
        runs = re.findall(r"[A-Za-z][A-Za-z' ,-]*[A-Za-z]", _strip_markup(leftover.text))
        runs = sorted({r.strip() for r in runs if any(w in r for w in leftover.words)}, key=len, reverse=True)
        for run in runs[:3]:
            needle = run[:60]
            if len(needle) < 3:
                continue
            # a text file's id is where the words live when the code says text("area.id"): those first
            hits = sorted(
                (f"{f}:{n}" for f, n, line in self.lines if needle in line),
                key=lambda h: not h.startswith("resources/text/"),
            )
            if hits:
                return hits[:limit] + ([f"(+{len(hits) - limit} more)"] if len(hits) > limit else [])
        return []


# ---------------------------------------------------------------- the window


def widget_texts(root) -> Iterator[tuple[str, str]]:  # root: QWidget
    """(widget description, text) for every visible-to-the-user text under `root`."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import (
        QAbstractButton,
        QAbstractItemView,
        QComboBox,
        QGraphicsView,
        QGroupBox,
        QLabel,
        QLineEdit,
        QPlainTextEdit,
        QTabWidget,
        QTextEdit,
        QWidget,
    )

    def name(w: QWidget) -> str:
        chain = []
        cur = w
        while cur is not None and len(chain) < 3:
            chain.append(cur.objectName() or type(cur).__name__)
            cur = cur.parentWidget()
        return "/".join(reversed(chain))

    widgets = [root, *root.findChildren(QWidget)]
    for w in widgets:
        n = name(w)
        if w.toolTip():
            yield f"{n} tooltip", w.toolTip()
        if w.isWindow() and w.windowTitle():
            yield f"{n} title", w.windowTitle()
        if w.accessibleName():
            yield f"{n} accessibleName", w.accessibleName()
        if w.accessibleDescription():
            yield f"{n} accessibleDescription", w.accessibleDescription()
        if (isinstance(w, QLabel) and w.text()) or (isinstance(w, QAbstractButton) and w.text()):
            yield n, w.text()
        elif isinstance(w, QGroupBox) and w.title():
            yield n, w.title()
        elif isinstance(w, QLineEdit) and w.placeholderText():
            yield f"{n} placeholder", w.placeholderText()
        elif isinstance(w, QComboBox):
            for i in range(w.count()):
                yield f"{n} item", w.itemText(i)
        elif isinstance(w, (QTextEdit, QPlainTextEdit)):
            if w.placeholderText():
                yield f"{n} placeholder", w.placeholderText()
            if w.isReadOnly():  # an editable one holds the user's own words (notes)
                yield n, w.toPlainText()
        if isinstance(w, QTabWidget):
            for i in range(w.count()):
                yield f"{n} tab", w.tabText(i)
        if isinstance(w, QAbstractItemView) and w.model() is not None:
            yield from _model_texts(n, w.model(), Qt)
        if isinstance(w, QGraphicsView) and w.scene() is not None:
            for item in w.scene().items():
                if hasattr(item, "toPlainText") and item.isVisible():
                    yield f"{n} plot", item.toPlainText()
    for action in root.findChildren(_qaction()):
        for what, t in (("action", action.text()), ("tip", action.toolTip()), ("status", action.statusTip())):
            if t:
                yield f"action {action.objectName() or action.text()} {what}", t.replace("&", "")


def _qaction():
    from PySide6.QtGui import QAction

    return QAction


def _model_texts(n: str, model, Qt) -> Iterator[tuple[str, str]]:
    from PySide6.QtCore import QModelIndex

    def columns(parent) -> int:
        try:
            return int(model.columnCount(parent))
        except TypeError:  # a list model keeps columnCount private: one column
            return 1

    for section in range(columns(QModelIndex())):
        h = model.headerData(section, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole)
        if h:
            yield f"{n} header", str(h)
        tip = model.headerData(section, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
        if tip:
            yield f"{n} header tooltip", str(tip)
    seen = 0

    def walk(parent) -> Iterator[tuple[str, str]]:
        nonlocal seen
        for row in range(model.rowCount(parent)):
            for col in range(columns(parent)):
                if seen >= MAX_CELLS:
                    return
                seen += 1
                idx = model.index(row, col, parent)
                for role, what in ((Qt.ItemDataRole.DisplayRole, "cell"), (Qt.ItemDataRole.ToolTipRole, "cell tip")):
                    value = model.data(idx, role)
                    if isinstance(value, str) and value:
                        yield f"{n} {what}", value
                if col == 0 and idx.isValid() and _has_children(model, idx):
                    yield from walk(idx)

    yield from walk(QModelIndex())


def _has_children(model, idx) -> bool:
    try:
        return bool(model.hasChildren(idx))
    except TypeError:  # a list or table model keeps it private: flat
        return False


def _settle(app, rounds: int = 4) -> None:
    for _ in range(rounds):
        app.processEvents()


def window_leftovers(session_file: Path, ids: set[str]) -> list[Leftover]:
    """Every page and dialog of the window in zh-Hans, with the session loaded."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from gpu_tpu_app import i18n, qm

    i18n.set_language("zh-Hans")
    os.environ[i18n.LANG_ENV] = "zh-Hans"
    from gpu_tpu_app.ui.shell import translations

    for ts in qm.stale(translations.qm_folder()):
        qm.compile_ts(ts)
    from PySide6.QtWidgets import QApplication, QMessageBox

    app = QApplication.instance() or QApplication(["zh_leftovers"])
    translations.install(app, "zh-Hans")
    from gpu_tpu_app.core.session import load_session
    from gpu_tpu_app.ui.shell.main_window import MainWindow

    window = MainWindow(persist=False)
    window.set_session(load_session(session_file))
    window.resize(1280, 800)
    window.show()
    _settle(app)
    found: list[Leftover] = []
    seen: set[str] = set()

    def sweep(page: str, root=None) -> None:
        _settle(app)
        for where, t in widget_texts(root or window):
            if t in seen:  # each text once, on the first page that shows it
                continue
            seen.add(t)
            found.extend(classify(f"window {page}: {where}", t, ids))

    visits: list[tuple[str, Callable[[], object]]] = [("welcome", window.show_welcome)]
    for i in range(len(window.wizard.pages)):
        visits.append((f"wizard step {i + 1}", lambda i=i: window.show_wizard(i)))
    visits.append(("result", window.show_result))
    visits.append(("probe", lambda: window.show_page("probe")))
    visits.append(("learn", lambda: window.show_page("learn")))
    for name, visit in visits:
        try:
            visit()
        except Exception as exc:
            print(f"note: {name}: {exc}", file=sys.stderr)
            continue
        sweep(name)
    panel = window.probe_panel
    if panel is not None and hasattr(panel, "charts"):
        for i in range(panel.charts.count()):
            panel.charts.setCurrentIndex(i)
            _settle(app)
            sweep(f"probe chart {panel.charts.tabText(i)}")
    learn = window.learn_page
    if learn is not None:
        for topic in [t.id for t in window.lesson.topics]:
            learn.show_topic(topic)
            sweep(f"learn topic {topic}")
    for name, make in _dialogs(window):
        try:
            dialog = make()
        except Exception as exc:
            print(f"note: dialog {name}: {exc}", file=sys.stderr)
            continue
        dialog.show()
        sweep(f"dialog {name}", dialog)
        dialog.hide()
        dialog.deleteLater()
    about = QMessageBox(window)
    from gpu_tpu_app.ui.shell.about import about_html

    about.setText(about_html(list(window.session().runs)))
    sweep("dialog about", about)
    about.deleteLater()
    window.shutdown()
    window.hide()
    window.deleteLater()
    _settle(app)
    return found


def _dialogs(window) -> list[tuple[str, Callable[[], object]]]:
    out: list[tuple[str, Callable[[], object]]] = []
    from gpu_tpu_app.ui.shell.help import GuideDialog, ShortcutsDialog, shortcut_rows

    out.append(("guide", lambda: GuideDialog(window)))
    out.append(("shortcuts", lambda: ShortcutsDialog(shortcut_rows(window.findChildren(_qaction())), window)))
    try:
        from gpu_tpu_app.ui.shell.prefs_dialog import PreferencesDialog

        out.append(("preferences", lambda: PreferencesDialog(window.prefs, window)))
    except ImportError:
        pass
    from gpu_tpu_app.ui.result.report_dialog import ReportDialog, report_stem

    def report() -> object:
        md, html_text = window.report_texts()
        return ReportDialog(md, html_text, report_stem(None), window)

    out.append(("report", report))
    return out


# ---------------------------------------------------------------- the commands


def commands() -> list[list[str]]:
    """The headless commands a zh-Hans user runs, each with an example input."""
    app = [sys.executable, "-m", "gpu_tpu_app"]
    probe = [sys.executable, "-m", "gpu_tpu_app", "probe"]
    ex = ROOT / "examples"
    out = [
        [*app, "--help"],
        [*app, "explain"],
        [*app, "explain", "flexibility"],
        [*app, "explain", "history"],
        [*app, "catalog"],
        [*app, "catalog", "--chip", "a10g"],
        [*app, "catalog", "--chip", "tpu-v5e"],
        [*app, "decide", "--answers", str(ex / "answers-jax-llm-pretraining.json")],
        [*app, "decide", "--answers", str(ex / "answers-mixed-unknowns.json")],
        [*app, "decide", "--answers", str(ex / "answers-pytorch-moe-no-porting-time.json")],
        [*app, "estimate", "--params", "7e9"],
        [*app, "estimate", "--params", "70B", "--tokens", "1.4T", "--chips", "256"],
        [*app, "estimate", "--params", "8B", "--inference", "--tokens", "1e9", "--batch", "8"],
        [*app, "prices"],
        [*app, "prices", "--chip", "tpu-v6e", "--all"],
        [*app, "check-model", str(ex / "models" / "torch_elementwise.py")],
        [*app, "check-model", str(ex / "models" / "jax_boolean_mask.py")],
        [*probe, "--help"],
        [*probe, "devices"],
        [*probe, "envs"],
        [*probe, "run", "--suite", "smoke", "--backend", "torch"],
        [*probe, "compare", str(ROOT / "docs" / "screenshots" / "example-session.json")],
    ]
    for name in ("explain", "catalog", "decide", "estimate", "prices", "check-model"):
        out.append([*app, name, "--help"])
    for name in ("devices", "run", "envs", "collective", "compare"):
        out.append([*probe, name, "--help"])
    return out


def shown_command(argv: list[str]) -> str:
    """A command line as the report names it: the arguments after the interpreter, files by their names."""
    return " ".join(Path(a).name if "/" in a else a for a in argv[2:])


def command_output(argv: list[str], timeout_s: float = 240.0) -> tuple[str, str] | None:
    """(stdout, stderr) of one command run in zh-Hans, None when it ran past `timeout_s`."""
    env = {**os.environ, "GPU_TPU_APP_LANG": "zh-Hans", "COLUMNS": "120"}
    try:
        proc = subprocess.run(
            [*argv, "--lang", "zh-Hans"] if "--help" not in argv else argv,
            capture_output=True,
            text=True,
            timeout=timeout_s,
            cwd=ROOT,
            env=env,
            check=False,
        )
    except subprocess.TimeoutExpired:
        print(f"note: {shown_command(argv)}: over {timeout_s:.0f} s", file=sys.stderr)
        return None
    return proc.stdout, proc.stderr


def output_leftovers(argv: list[str], stdout: str, stderr: str, ids: set[str]) -> list[Leftover]:
    """The leftovers in one command's output."""
    shown = shown_command(argv)
    return [
        lo
        for stream, out in (("stdout", stdout), ("stderr", stderr))
        for lo in classify(f"command {shown} ({stream})", out, ids)
    ]


def command_leftovers(ids: set[str], timeout_s: float = 240.0) -> list[Leftover]:
    found: list[Leftover] = []
    for argv in commands():
        out = command_output(argv, timeout_s)
        if out is not None:
            found += output_leftovers(argv, *out, ids)
    return found


def prepare(session_file: Path = SESSION) -> set[str]:
    """The words a zh-Hans text may keep (project ids, the session's data) with the verbatim titles and the
    session's notes set aside: call before `classify`."""
    VERBATIM[:] = sorted([*verbatim_titles(), *user_texts(session_file)], key=len, reverse=True)
    return project_ids() | data_words(session_file) | machine_words()


# ---------------------------------------------------------------- report


def report(found: Iterable[Leftover], as_json: bool) -> str:
    """The leftovers grouped by the file their English comes from, English-only texts first."""
    items = list(found)
    if as_json:
        return json.dumps([asdict(x) for x in items], ensure_ascii=False, indent=1)
    lines = [
        f"{len(items)} texts: {sum(x.kind == 'english' for x in items)} english, "
        f"{sum(x.kind == 'mixed' for x in items)} mixed"
    ]
    for kind in ("english", "mixed"):
        by_file: dict[str, list[Leftover]] = {}
        for x in items:
            if x.kind == kind:
                by_file.setdefault(x.source[0].split(":")[0] if x.source else "?", []).append(x)
        lines.append(f"\n== {kind}: {sum(len(v) for v in by_file.values())} texts in {len(by_file)} files")
        for file, group in sorted(by_file.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            lines.append(f"\n--- {file} ({len(group)})")
            for x in group:
                lines.append(
                    f"- {x.text[:160]!r}\n    where: {x.where}\n    words: {' '.join(x.words[:8])}"
                    f"\n    source: {', '.join(x.source) or '?'}"
                )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--window", action="store_true", help="the window's pages only")
    parser.add_argument("--commands", action="store_true", help="the headless commands only")
    parser.add_argument("--session", type=Path, default=SESSION)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    both = not args.window and not args.commands
    ids = prepare(args.session)
    found: list[Leftover] = []
    if args.commands or both:
        found += command_leftovers(ids)
    if args.window or both:
        found += window_leftovers(args.session, ids)
    index = SourceIndex()
    unique: dict[tuple[str, str], Leftover] = {}
    for x in found:  # each text once, where it was first seen (and how often elsewhere)
        first = unique.setdefault((x.kind, x.text), x)
        if first is not x and "(and elsewhere)" not in first.where:
            first.where += " (and elsewhere)"
    for x in unique.values():
        x.source = index.find(x)
    print(report(unique.values(), args.json))
    return 0


if __name__ == "__main__":
    sys.exit(main())
