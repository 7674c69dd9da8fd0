"""The main window: session files, unsaved changes, recent files, geometry, themes, preferences,
importing runs, report export, and links between Decide and Learn."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QComboBox, QFileDialog, QMessageBox

from gpu_tpu_app.core.decision import Answers, decide
from gpu_tpu_app.core.estimate import EstimateRequest
from gpu_tpu_app.core.runs import RunFile, save_run
from gpu_tpu_app.core.session import load_session
from gpu_tpu_app.core.settings import Preferences, load_preferences
from gpu_tpu_app.ui.result.report_dialog import ReportDialog, format_for, html_to_pdf
from gpu_tpu_app.ui.shell.main_window import MainWindow
from gpu_tpu_app.ui.shell.prefs_dialog import PreferencesDialog
from gpu_tpu_app.ui.shell.theme import DARK, LIGHT, theme_manager
from tests.builders import matmul_run, tpu_answers

ANSWERS = tpu_answers(scale=None)


def make_run(host: str = "tpu-vm") -> RunFile:
    return matmul_run(
        backend="jax", memory_bytes=64 << 30, size=2048, value=4e11, host=host, started=datetime(2025, 2, 3, tzinfo=UTC)
    )


@pytest.fixture(autouse=True)
def no_modal_dialogs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A modal dialog nobody answers would hang the run: fail instead (tests patch the ones they expect)."""

    def refuse(*args: object, **_k: object) -> None:
        raise AssertionError(f"unexpected modal dialog: {args[1:3]}")

    for name in ("warning", "critical", "question", "information", "about"):
        monkeypatch.setattr(QMessageBox, name, refuse)
    monkeypatch.setattr(QMessageBox, "exec", lambda box: refuse(box, box.windowTitle(), box.text()))
    for name in ("getOpenFileName", "getSaveFileName"):
        monkeypatch.setattr(QFileDialog, name, refuse)


class Dialogs:
    """Records message boxes (all plain text) and answers the unsaved-changes question."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, answer=QMessageBox.StandardButton.Cancel) -> None:
        self.answer = answer
        self.warnings: list[str] = []
        self.errors: list[tuple[str, str]] = []
        monkeypatch.setattr(QMessageBox, "exec", lambda box: self._exec(box))

    def _exec(self, box: QMessageBox) -> int:
        assert box.textFormat() == Qt.TextFormat.PlainText, box.text()
        if box.icon() == QMessageBox.Icon.Warning:
            self.warnings.append(box.text())
            return int(self.answer)
        self.errors.append((box.windowTitle(), box.text()))
        return int(QMessageBox.StandardButton.Ok)


def _forget_changes(w: MainWindow) -> None:
    w.session_controller.mark_clean()  # the test is over: close without the unsaved-changes prompt


def add_window(qtbot, w: MainWindow) -> MainWindow:
    qtbot.addWidget(w, before_close_func=_forget_changes)
    return w


@pytest.fixture
def window(qtbot):
    w = add_window(qtbot, MainWindow(persist=False))
    w.resize(1280, 800)
    w.show()
    return w


def test_title_shows_file_name_and_modified_marker(window: MainWindow, tmp_path: Path) -> None:
    assert window.windowTitle() == "Untitled[*] — gpu-tpu-app"
    assert not window.isWindowModified()
    window.wizard.cards["framework"].buttons["jax"].click()
    assert window.isWindowModified() and window.is_modified()
    assert window.session().answers.framework == "jax"
    window.wizard.cards["framework"].buttons[None].click()
    assert not window.isWindowModified()  # back to what the file (here: nothing) holds
    window.wizard.cards["framework"].buttons["jax"].click()
    path = tmp_path / "plan.json"
    assert window.save_as(path)
    assert window.windowTitle() == "plan.json[*] — gpu-tpu-app"
    assert not window.isWindowModified()


def test_save_then_open_round_trip(qtbot, window: MainWindow, tmp_path: Path) -> None:
    window.set_session(
        window.session().model_copy(
            update={
                "answers": ANSWERS,
                "notes": "check quotas",
                "runs": [make_run()],
                "estimate": EstimateRequest(params=7e9, chips=16, prices={"tpu-v5p": 4.2}),
            }
        ),
        modified=True,
    )
    assert window.is_modified()
    path = tmp_path / "session.json"
    assert window.save_as(path)
    other = add_window(qtbot, MainWindow(persist=False))
    assert other.open_session(path)
    s = other.session()
    assert s.answers == ANSWERS and s.notes == "check quotas"
    assert s.runs == [make_run()]
    assert s.estimate == EstimateRequest(params=7e9, chips=16, prices={"tpu-v5p": 4.2})
    assert other.path() == path and not other.is_modified()
    assert other.wizard.answers() == ANSWERS
    assert other.result_page.notes_edit.toPlainText() == "check quotas"
    assert other.result_page.estimator.params_edit.text() == "7B"
    assert other.decide_stack.currentWidget() is other.result_page  # answered sessions open on the result
    assert other.recommendation() == decide(ANSWERS)


def test_corrupted_session_gives_one_line_error_and_file_is_unchanged(
    window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dialogs = Dialogs(monkeypatch)
    good = tmp_path / "good.json"
    window.wizard.cards["stage"].buttons["exploring"].click()
    window.save_as(good)
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"schema_version": 1, "answers": {"framework": "cobol"}, "notes": ')
    before = bad.read_bytes()
    assert not window.open_session(bad)
    assert len(dialogs.errors) == 1
    title, text = dialogs.errors[0]
    assert title == "Cannot open session"
    assert text.startswith(f"{bad}: ") and "\n" not in text
    assert bad.read_bytes() == before
    # the window still shows the session it had, tied to its own file
    assert window.path() == good and window.session().answers.stage == "exploring"
    # saving afterwards writes the good file, never the broken one
    window.wizard.cards["stage"].buttons["production"].click()
    assert window.save()
    assert bad.read_bytes() == before
    assert load_session(good).answers.stage == "production"


def test_foreign_file_is_refused(window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dialogs = Dialogs(monkeypatch)
    run_path = tmp_path / "run.json"
    save_run(make_run(), run_path)
    before = run_path.read_bytes()
    assert not window.open_session(run_path)
    assert "probe run file" in dialogs.errors[0][1]
    assert run_path.read_bytes() == before


def test_unsaved_changes_prompt_on_close(qtbot, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    w = add_window(qtbot, MainWindow(persist=False))
    w.show()
    dialogs = Dialogs(monkeypatch, QMessageBox.StandardButton.Cancel)
    w.wizard.cards["team"].buttons["cuda"].click()
    assert not w.close()  # Cancel keeps the window open
    assert w.isVisible() and len(dialogs.warnings) == 1 and "Untitled" in dialogs.warnings[0]
    dialogs.answer = QMessageBox.StandardButton.Save
    path = tmp_path / "saved-on-close.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    assert w.close()  # Save asks for a name, writes, then closes
    assert load_session(path).answers.team == "cuda"


def test_discard_closes_without_saving(qtbot, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    w = add_window(qtbot, MainWindow(persist=False))
    w.show()
    path = tmp_path / "s.json"
    w.save_as(path)
    before = path.read_bytes()
    w.wizard.cards["team"].buttons["xla"].click()
    Dialogs(monkeypatch, QMessageBox.StandardButton.Discard)
    assert w.close()
    assert path.read_bytes() == before


def test_no_prompt_without_changes(qtbot, monkeypatch: pytest.MonkeyPatch) -> None:
    w = add_window(qtbot, MainWindow(persist=False))
    w.show()
    dialogs = Dialogs(monkeypatch)
    assert w.close()
    assert dialogs.warnings == []


def test_new_and_open_prompt_too(window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    dialogs = Dialogs(monkeypatch, QMessageBox.StandardButton.Cancel)
    window.wizard.cards["batch"].buttons["large"].click()
    assert not window.new_session()
    assert not window.open_session(tmp_path / "whatever.json")
    assert len(dialogs.warnings) == 2
    assert window.session().answers.batch == "large"
    dialogs.answer = QMessageBox.StandardButton.Discard
    assert window.new_session()
    assert window.session().answers == Answers() and window.path() is None
    assert window.wizard.current_page() == 0


def test_recent_files_and_geometry_persist_in_qsettings(qtbot, tmp_path: Path, sandbox_home: str) -> None:
    QApplication.setOrganizationName("gpu-tpu-app")
    QApplication.setApplicationName("gpu-tpu-app")
    QSettings().clear()
    w = add_window(qtbot, MainWindow(persist=True))
    w.show()
    w.resize(1000, 640)
    paths = [tmp_path / f"s{i}.json" for i in range(3)]
    for p in paths:
        assert w.save_as(p)
    assert w.recent_files() == [str(p.resolve()) for p in reversed(paths)]
    recent_texts = [a.text() for a in w.recent_menu.actions() if a.text()]
    assert recent_texts[0] == "&1 s2.json"
    w.close()
    assert QSettings().fileName().startswith(sandbox_home)
    again = add_window(qtbot, MainWindow(persist=True))
    # the offscreen screen is 800 px wide, so Qt clamps the width on restore; the height comes back
    assert again.size().height() == 640  # without saved geometry a new window opens at 1280 x 800
    assert again.recent_files()[0] == str(paths[-1].resolve())
    again.files.clear_recent()
    assert again.recent_files() == []
    QSettings().clear()


@pytest.mark.slow
def test_theme_switch_changes_colours(qtbot, window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("gpu_tpu_app.ui.shell.main_window.save_preferences", lambda prefs: None)
    tm = theme_manager()
    window.set_theme("light")
    assert tm.current() == "light"
    light_bg = QApplication.palette().color(QPalette.ColorRole.Window).name()
    assert light_bg == LIGHT["background"]
    with qtbot.waitSignal(tm.sig_theme_changed) as blocker:
        window.menus.theme_actions["dark"].trigger()
    assert blocker.args == ["dark"]
    assert tm.current() == "dark" and window.prefs.theme == "dark"
    assert QApplication.palette().color(QPalette.ColorRole.Window).name() == DARK["background"]
    assert tm.colors()["gpu"] == DARK["gpu"] != LIGHT["gpu"]
    # pages re-render with the new colours
    window.set_session(window.session().with_answers(ANSWERS))
    assert DARK["tpu"] in window.result_page.reasons_box.itemAt(0).widget().text()
    window.set_theme("light")
    assert LIGHT["tpu"] in window.result_page.reasons_box.itemAt(0).widget().text()
    window.set_theme("system")
    assert tm.mode() == "system" and tm.current() in ("light", "dark")


def test_theme_choice_is_saved_in_preferences(qtbot) -> None:
    window = add_window(qtbot, MainWindow(persist=True))
    window.set_theme("dark")
    assert load_preferences().theme == "dark"
    window.set_theme("system")
    assert load_preferences().theme == "system"


def test_preferences_dialog_is_generated_from_the_model(qtbot) -> None:
    dialog = PreferencesDialog(Preferences(theme="light", default_suite="full"))
    qtbot.addWidget(dialog)
    assert set(dialog.editors) == {"theme", "default_suite", "language"}
    theme = dialog.editors["theme"]
    assert isinstance(theme, QComboBox)
    assert [theme.itemData(i) for i in range(theme.count())] == ["system", "light", "dark"]
    assert [theme.itemText(i) for i in range(theme.count())] == ["System", "Light", "Dark"]
    assert theme.currentData() == "light"
    assert theme.toolTip() == Preferences.model_fields["theme"].description
    theme.setCurrentIndex(theme.findData("dark"))
    language = dialog.editors["language"]
    assert isinstance(language, QComboBox)
    assert [language.itemText(i) for i in range(language.count())] == ["System", "English", "简体中文"]
    assert language.currentData() == "system"
    language.setCurrentIndex(language.findData("zh-Hans"))
    assert dialog.preferences() == Preferences(theme="dark", default_suite="full", language="zh-Hans")


def test_preferences_dialog_default_suite_reaches_a_built_probe_page(
    window: MainWindow, qtbot, monkeypatch: pytest.MonkeyPatch
) -> None:
    window.set_preferences(Preferences(default_suite="smoke"))
    window.show_page("probe")
    panel = window.probe_panel
    assert panel is not None
    assert panel.suite.currentText() == "smoke"

    def choose_full(dialog: PreferencesDialog) -> int:
        suite = dialog.editors["default_suite"]
        assert isinstance(suite, QComboBox)
        suite.setCurrentIndex(suite.findData("full"))
        return 1

    monkeypatch.setattr(PreferencesDialog, "exec", choose_full)
    window.edit_preferences()
    assert window.prefs.default_suite == "full"
    assert panel.suite.currentText() == "full"
    assert panel.prefs == window.prefs


def test_import_run_good_and_broken(window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dialogs = Dialogs(monkeypatch)
    broken = tmp_path / "broken.json"
    broken.write_text('{"schema_version": 1, "results": [], "host": 3}')
    assert not window.import_run(broken)
    assert dialogs.errors and dialogs.errors[0][1].startswith(f"{broken}: ")
    assert window.session().runs == []
    good = tmp_path / "run.json"
    save_run(make_run(), good)
    window.set_session(window.session().with_estimate(EstimateRequest(params=1e9)))
    assert not window.notice.isVisible()
    assert window.import_run(good)
    assert window.session().runs == [make_run()] and window.is_modified()
    # confirmed where it is seen: at the top of the page, with the file's full path and its folder
    assert window.notice.isVisible() and window.notice.folder == good.resolve().parent
    run = make_run()
    assert (
        window.notice.text.text()
        == f"Imported the run of {run.host} ({len(run.results)} results) from {good.resolve()}"
    )
    table = window.result_page.estimator.table
    kinds = [table.item(r, 1).text() for r in range(table.rowCount())]
    assert kinds.count("measured") == 1
    assert not window.import_run(good)  # the same run twice is not added again
    assert len(window.session().runs) == 1
    assert window.notice.text.text() == f"{good}: this run is already in the session"


def test_import_from_the_probe_page_is_confirmed_at_the_top_too(window: MainWindow, tmp_path: Path) -> None:
    good = tmp_path / "from-the-page.json"
    save_run(make_run(), good)
    panel = window.ensure_probe_panel()  # built, not shown: no device listing starts
    assert panel.import_run(good)
    assert window.notice.isVisible() and window.notice.text.text().endswith(f" from {good.resolve()}")
    assert window.notice.text.text().startswith("Imported the run of ")


def test_report_export_in_three_formats(qtbot, window: MainWindow, tmp_path: Path) -> None:
    window.set_session(
        window.session().model_copy(
            update={"answers": ANSWERS, "runs": [make_run()], "estimate": EstimateRequest(params=7e9)}
        )
    )
    md, html_text = window.report_texts()
    assert "TPUs fit this work better" in md and "TPUs fit this work better" in html_text
    for name in ("r.md", "r.html", "r.pdf"):
        dialog = ReportDialog(md, html_text, tmp_path / "r")
        qtbot.addWidget(dialog)
        assert dialog.save_to(tmp_path / name)
    assert (tmp_path / "r.md").read_text() == md
    assert (tmp_path / "r.html").read_text() == html_text
    pdf = (tmp_path / "r.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and len(pdf) > 2000
    assert format_for("x.htm") == "html" and format_for("x.PDF") == "pdf" and format_for("x.txt") == "markdown"
    assert html_to_pdf("<p>hi</p>").startswith(b"%PDF")
    # the window's PDF is laid out from the report data, with the gauge (tests/ui/test_report_pdf.py checks the layout)
    dialog = ReportDialog(md, html_text, tmp_path / "r", pdf=window.report_pdf)
    qtbot.addWidget(dialog)
    assert dialog.save_to(tmp_path / "window.pdf")
    laid_out = (tmp_path / "window.pdf").read_bytes()
    assert laid_out.startswith(b"%PDF") and laid_out != pdf


def test_reason_link_opens_the_topic_in_learn(qtbot, window: MainWindow) -> None:
    window.set_session(window.session().with_answers(ANSWERS))
    window.show_result()
    rec = window.recommendation()
    reason_label = window.result_page.reasons_box.itemAt(1).widget()
    topic = rec.reasons[1].topic
    assert f'href="topic:{topic}"' in reason_label.text()
    reason_label.linkActivated.emit(f"topic:{topic}")
    assert window.current_page() == "learn"
    assert window.learn_page is not None and window.stack.currentWidget() is window.learn_page
    assert window.learn_page.current_topic() == topic


def test_learn_more_in_the_wizard_opens_the_topic(qtbot, window: MainWindow) -> None:
    card = window.wizard.cards["custom_ops"]
    card.learn.click()
    assert window.current_page() == "learn"
    assert window.learn_page.current_topic() == card.topic


def test_open_question_jumps_back_to_the_wizard(qtbot, window: MainWindow) -> None:
    window.set_session(window.session().with_answers(ANSWERS))
    window.show_result()
    field = window.recommendation().unanswered[0]
    window.result_page.open_label.linkActivated.emit(f"question:{field}")
    assert window.decide_stack.currentWidget() is window.wizard
    assert field in [c.field for c in window.wizard.pages[window.wizard.current_page()].cards]


def test_pages_switch_from_the_navigation(qtbot, window: MainWindow) -> None:
    assert window.current_page() == "decide"
    window.menus.page_actions["learn"].trigger()
    assert window.current_page() == "learn" and window.learn_page is not None
    window.nav.setCurrentRow(0)
    assert window.stack.currentWidget() is window.decide_stack


def test_session_runs_reach_learn_and_come_back_from_the_panel(qtbot, window: MainWindow) -> None:
    window.set_session(window.session().with_runs([make_run()]))
    panel = window.ensure_probe_panel()
    assert panel.runs() == [make_run()]
    other = make_run("another-host")
    panel.set_runs([make_run(), other])
    panel.sig_runs_changed.emit()
    assert window.session().runs == [make_run(), other]
    window.shutdown()


def test_example_session_file_loads(window: MainWindow) -> None:
    path = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "example-session.json"
    assert window.open_session(path)
    raw = json.loads(path.read_text())
    assert raw["answers"]["framework"] == "jax" and raw["answers"]["deployment"] == "google_cloud"
    assert window.recommendation().verdict == "tpu"
