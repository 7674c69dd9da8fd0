"""The main window: navigation (Decide, Probe, Learn), one session, the File / View / Help menus (`menus`).

The Probe and Learn pages are built the first time they are shown, so pyqtgraph is not
imported at start-up unless Probe is the first page. The session owns the runs: the window
pushes them to the Probe page with `set_runs` and reads them back on `sig_runs_changed`.
The session state (the session, its file, its saved copy) lives in `SessionController`, which
the window renders; Back / Forward lives in `BackForward`, the navigation column in `nav_column`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSettings, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QShowEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QMainWindow,
    QMessageBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from gpu_tpu_app import APP_NAME, i18n
from gpu_tpu_app.core.decision import Answers, Recommendation, has_verdict
from gpu_tpu_app.core.estimate import EstimateRequest
from gpu_tpu_app.core.modelcheck import ModelCheck
from gpu_tpu_app.core.runs import RunFile
from gpu_tpu_app.core.session import Session
from gpu_tpu_app.core.settings import Preferences, save_preferences
from gpu_tpu_app.core.verdict_text import VERDICT_WORDS
from gpu_tpu_app.errors import InputError
from gpu_tpu_app.ui.decide.wizard import DecideWizard
from gpu_tpu_app.ui.result.result_page import ResultPage
from gpu_tpu_app.ui.shell import accessible, mnemonics, translations, wheel_guard
from gpu_tpu_app.ui.shell.about import about_html
from gpu_tpu_app.ui.shell.geometry import MIN_SIZE, keep_on_screen, restore_geometry, save_geometry
from gpu_tpu_app.ui.shell.help import GuideDialog, ShortcutsDialog, shortcut_rows
from gpu_tpu_app.ui.shell.menus import WindowMenus
from gpu_tpu_app.ui.shell.nav_column import PAGES, build_nav_column
from gpu_tpu_app.ui.shell.notice import NoticeBar
from gpu_tpu_app.ui.shell.price_files import PriceFiles
from gpu_tpu_app.ui.shell.session_controller import SessionController
from gpu_tpu_app.ui.shell.session_files import SessionFiles
from gpu_tpu_app.ui.shell.theme import theme_manager
from gpu_tpu_app.ui.shell.welcome import WelcomeCard
from gpu_tpu_app.ui.shell.widgets import message_box, scroll_page, show_error

if TYPE_CHECKING:
    from gpu_tpu_app.core.catalog import Catalog
    from gpu_tpu_app.core.lesson import LessonPack
    from gpu_tpu_app.ui.result.report_pdf import Progress


class MainWindow(QMainWindow):
    """One window, one session: Decide (wizard and result), Probe and Learn."""

    sig_session_changed = Signal()
    sig_page_changed = Signal(str)

    def __init__(
        self,
        prefs: Preferences | None = None,
        lesson: LessonPack | None = None,
        catalog: Catalog | None = None,
        persist: bool = True,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        wheel_guard.install()  # the wheel edits no field the user did not click (wheel_guard.py)
        accessible.install()  # every control the keyboard reaches has a name (accessible.py)
        mnemonics.install()  # every dialog button has an Alt+letter (mnemonics.py)
        self.prefs = prefs or Preferences()
        if lesson is None:
            from gpu_tpu_app.core.lesson import load_lesson

            lesson = load_lesson()
        if catalog is None:
            from gpu_tpu_app.core.catalog import load_catalog

            catalog = load_catalog()
        self.lesson = lesson
        self.catalog = catalog
        self._persist = persist
        self.session_controller = SessionController(self._render_session, self._runs_pushed, self)
        self.session_controller.sig_state_changed.connect(self._update_title)
        self.session_controller.sig_changed.connect(self.sig_session_changed)
        self._rec: Recommendation | None = None
        self.probe_panel: Any = None
        self.probe_warmup: Any = None  # ProbeWarmup once warm_probe_later() asked for it (probe_warmup.py)
        self.learn_page: Any = None
        self.setMinimumSize(MIN_SIZE)
        self._fit_on_show = False

        nav, self.nav, self.nav_status = build_nav_column()
        self._build_pages(lesson, catalog)
        central = QWidget()
        row = QHBoxLayout(central)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(0)
        row.addWidget(nav)
        pages = QVBoxLayout()
        pages.setContentsMargins(0, 0, 0, 0)
        pages.setSpacing(0)
        self.notice = NoticeBar()
        pages.addWidget(self.notice)
        pages.addWidget(self.stack, 1)
        row.addLayout(pages, 1)
        self.setCentralWidget(central)
        self._connect_pages()

        self.files = SessionFiles(self, self.session_controller, self, self._persist)
        self.recent_menu = self.files.recent_menu
        self.prices = PriceFiles(self, local=self._persist)
        self.prices.sig_changed.connect(self.result_page.set_price_book)
        self.result_page.set_price_book(self.prices.book)
        if problems := self.prices.problems():
            self.statusBar().showMessage(problems[0], 15000)  # a catalogue in its default place was left out
        self.menus = WindowMenus(self, self, self.recent_menu, self.prices, self.prefs.theme)
        self.back_forward = self.menus.back_forward
        self.act_back = self.back_forward.act_back
        self.act_forward = self.back_forward.act_forward
        self.files.update_recent_menu()
        self._build_toolbar()
        self.statusBar().setSizeGripEnabled(True)
        self.nav.setCurrentRow(0)
        self._load_state()
        self.session_controller.show()
        if self._persist and not self._settings().value("welcome/seen", False, bool):
            self.show_welcome()  # first start: once, then from Help › Welcome

    def _build_pages(self, lesson: LessonPack, catalog: Catalog) -> None:
        """Decide (wizard, result, welcome) and the slots where Probe and Learn are built on first use."""
        self.wizard = DecideWizard(lesson)
        self.result_page = ResultPage(lesson, catalog)
        self.welcome = WelcomeCard()
        self.decide_stack = QStackedWidget()
        self.decide_stack.addWidget(self.wizard)
        self.decide_stack.addWidget(self.result_page)
        self.decide_stack.addWidget(self.welcome)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.decide_stack)
        self._probe_slot = QWidget()
        self._learn_slot = QWidget()
        self.stack.addWidget(self._probe_slot)
        self.stack.addWidget(self._learn_slot)

    def _connect_pages(self) -> None:
        self.wizard.sig_answers_changed.connect(self._answers_changed)
        self.wizard.sig_show_result.connect(self.show_result)
        self.wizard.sig_learn_more.connect(self.open_topic)
        self.wizard.sig_model_checked.connect(self._model_checked)
        self.result_page.sig_open_topic.connect(self.open_topic)
        self.result_page.sig_edit_question.connect(self.edit_question)
        self.result_page.sig_edit_answers.connect(self.show_wizard)
        self.result_page.sig_export.connect(self.export_report)
        self.result_page.sig_estimate_changed.connect(self._estimate_changed)
        self.result_page.sig_notes_changed.connect(self._notes_changed)
        self.result_page.sig_action.connect(self.run_step_action)
        self.nav.currentRowChanged.connect(self._nav_changed)
        self.welcome.sig_start.connect(lambda: self.show_wizard(0))
        self.welcome.sig_probe.connect(lambda: self.show_page("probe"))
        self.welcome.sig_learn.connect(lambda: self.show_page("learn"))
        self.sig_page_changed.connect(self._note_place)
        self.decide_stack.currentChanged.connect(self._note_place)
        self.wizard.sig_page_changed.connect(self._note_place)

    def _build_toolbar(self) -> None:
        bar = self.addToolBar(self.tr("Navigation"))
        bar.setObjectName("NavigationToolBar")
        bar.setMovable(False)
        bar.setFloatable(False)
        bar.setIconSize(QSize(16, 16))
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        bar.addActions([self.act_back, self.act_forward])
        self.back_forward.update_actions()

    # ------------------------------------------------------------------ back / forward

    def place(self) -> tuple[Any, ...]:
        """Where the user is: ('welcome',), ('wizard', page), ('result',), ('probe',), ('learn', topic)."""
        page = self.current_page()
        if page == "decide":
            current = self.decide_stack.currentWidget()
            if current is self.welcome:
                return ("welcome",)
            if current is self.result_page:
                return ("result",)
            return ("wizard", self.wizard.current_page())
        if page == "learn" and self.learn_page is not None:
            return ("learn", self.learn_page.current_topic())
        return (page,)

    def _note_place(self, *_args: Any) -> None:
        self.back_forward.note()

    def go_back(self) -> None:
        """Back to the previous page (Alt+Left)."""
        self.back_forward.go_back()

    def go_forward(self) -> None:
        """Forward again after going back (Alt+Right)."""
        self.back_forward.go_forward()

    # ------------------------------------------------------------------ pages

    def current_page(self) -> str:
        """'decide', 'probe' or 'learn'."""
        return PAGES[max(0, self.nav.currentRow())]

    def show_page(self, name: str) -> None:
        """Switch to a page by name; builds Probe and Learn on first use."""
        self.nav.setCurrentRow(PAGES.index(name))

    def _nav_changed(self, row: int) -> None:
        if row < 0:
            return
        name = PAGES[row]
        if name == "probe":
            self.ensure_probe_panel()
        elif name == "learn":
            self.ensure_learn_page()
        self.stack.setCurrentIndex(row)
        self.sig_page_changed.emit(name)

    def ensure_probe_panel(self) -> Any:
        """The Probe panel, built (and pyqtgraph imported) the first time it is needed."""
        if self.probe_panel is None:
            from gpu_tpu_app.ui.probe.probe_panel import ProbePanel

            panel = ProbePanel(self.prefs)
            if self.probe_warmup is not None:
                panel.adopt_workers(*self.probe_warmup.take())
            panel.set_runs(list(self.session().runs))
            panel.charts.flush()  # the chart in view drawn before the page shows, not after its workers start
            panel.sig_runs_changed.connect(self._panel_runs_changed)
            panel.sig_preferences_changed.connect(self.set_preferences)
            panel.sig_written.connect(self.confirm)
            panel.sig_imported.connect(lambda what, path: self.confirm(what, path, read=True))
            # in a window shorter than the page's minimum (a 1024x640 screen less the window frame, with
            # Chinese notes wrapping to more lines) the page scrolls instead of cutting off a chart's axis
            self.stack.insertWidget(1, scroll_page(panel))
            self.stack.removeWidget(self._probe_slot)
            self._probe_slot.deleteLater()
            self.probe_panel = panel
        return self.probe_panel

    def warm_probe_later(self) -> None:
        """Start the Probe page's device detection and standby workers a moment after the window shows, or
        at once when the pointer moves onto Probe in the sidebar, so Run answers soon after the page opens."""
        from gpu_tpu_app.ui.probe.probe_warmup import ProbeWarmup

        if self.probe_warmup is None and self.probe_panel is None:
            self.probe_warmup = ProbeWarmup(self)
            self.probe_warmup.start_later(self.prefs)
            self.nav.setMouseTracking(True)
            probe_row = PAGES.index("probe")
            self.nav.itemEntered.connect(
                lambda item: self.nav.row(item) == probe_row and self.probe_warmup.start(self.prefs)
            )

    def ensure_learn_page(self) -> Any:
        """The Learn page, built the first time it is needed."""
        if self.learn_page is None:
            from gpu_tpu_app.ui.learn.learn import LearnPage

            page = LearnPage(self.lesson)
            page.set_runs(list(self.session().runs))
            page.sig_open_probe.connect(lambda: self.show_page("probe"))
            page.sig_topic_changed.connect(self._note_place)
            self.stack.insertWidget(2, page)
            self.stack.removeWidget(self._learn_slot)
            self._learn_slot.deleteLater()
            self.learn_page = page
        return self.learn_page

    def open_topic(self, topic_id: str) -> None:
        """Show one explainer topic in Learn (from a reason, blocker or Learn-more link)."""
        page = self.ensure_learn_page()
        with self.back_forward.one_step():
            self.show_page("learn")
            page.show_topic(topic_id)

    def run_step_action(self, action: str) -> None:
        """A next step's action from the Result page: the in-app way to do what the step says."""
        if action == "probe_quick":
            panel = self.ensure_probe_panel()
            self.show_page("probe")
            if not panel.is_running():
                panel.set_selection(backends=["torch", "jax"], suite="quick", kernels=[], dtypes=[])
                panel.start()
        elif action == "compare_chips":
            panel = self.ensure_probe_panel()
            self.show_page("probe")
            panel.charts.setCurrentWidget(panel.charts.roofline)
        elif action == "check_model":
            self.show_wizard(0)
        elif action == "answer":
            open_questions = self.recommendation().unanswered
            if open_questions:
                self.edit_question(open_questions[0])
        elif action == "estimate":
            self.show_result()
            self.result_page.focus_estimator()

    def show_welcome(self) -> None:
        """The welcome card: what Decide, Probe and Learn do (first start, and Help › Welcome)."""
        with self.back_forward.one_step():
            self.nav.setCurrentRow(0)
            self.decide_stack.setCurrentWidget(self.welcome)
        self.welcome.start_button.setFocus(Qt.FocusReason.OtherFocusReason)
        if self._persist:
            self._settings().setValue("welcome/seen", True)

    def welcome_shown(self) -> bool:
        """True while the welcome card is on screen."""
        return self.current_page() == "decide" and self.decide_stack.currentWidget() is self.welcome

    def show_guide(self) -> None:
        """Help › User Guide."""
        GuideDialog(self).exec()

    def show_shortcuts(self) -> None:
        """Help › Keyboard Shortcuts: every action with a shortcut."""
        ShortcutsDialog(shortcut_rows(self.findChildren(QAction)), self).exec()

    def show_result(self) -> None:
        """Show the recommendation for the current answers."""
        with self.back_forward.one_step():
            self.nav.setCurrentRow(0)
            self.decide_stack.setCurrentWidget(self.result_page)
        self.result_page.scroll_area.verticalScrollBar().setValue(0)
        self.result_page.setFocus(Qt.FocusReason.OtherFocusReason)
        self.result_page.edit_button.setFocus(Qt.FocusReason.OtherFocusReason)

    def show_wizard(self, page: int | None = None) -> None:
        """Back to the questions (on `page` when given)."""
        with self.back_forward.one_step():
            self.nav.setCurrentRow(0)
            self.decide_stack.setCurrentWidget(self.wizard)
            self.wizard.go_to_page(self.wizard.current_page() if page is None else page)

    def edit_question(self, field: str) -> None:
        """Jump to the wizard question that asks `field`."""
        with self.back_forward.one_step():
            self.nav.setCurrentRow(0)
            self.decide_stack.setCurrentWidget(self.wizard)
            self.wizard.focus_question(field)

    # ------------------------------------------------------------------ session

    def session(self) -> Session:
        """The session as it is now (answers, notes, runs, estimator inputs)."""
        return self.session_controller.session()

    def probe_running(self) -> bool:
        """True while the probe panel is measuring."""
        return self.probe_panel is not None and bool(self.probe_panel.is_running())

    def path(self) -> Path | None:
        """The file the session was opened from or last saved to."""
        return self.session_controller.path()

    def is_modified(self) -> bool:
        """True when the session differs from the file (or from a new, empty session)."""
        return self.session_controller.is_modified()

    def set_session(self, session: Session, path: Path | None = None, modified: bool = False) -> None:
        """Show `session` (all or nothing: see `SessionController.set_session`)."""
        self.session_controller.set_session(session, path, modified)

    def mark_saved(self, session: Session, path: Path) -> None:
        """`session` was written to `path`: it is the session now, and its clean copy."""
        self.session_controller.mark_saved(session, path)

    def show_runs(self, runs: list[RunFile]) -> None:
        """Make `runs` the session's runs, shown on every page (all or nothing)."""
        self.session_controller.show_runs(runs)

    def _render_session(self, session: Session) -> None:
        self.wizard.set_answers(session.answers)
        self.wizard.set_model_check(session.model_check)
        self.wizard.reset_progress()
        self.result_page.set_model_check(session.model_check)
        self.result_page.set_estimate_request(session.estimate)
        self.result_page.set_notes(session.notes)
        self._runs_pushed(session.runs)
        self._recompute()

    def _recompute(self) -> None:
        self._rec = self.session().recommendation()
        self.result_page.set_recommendation(self._rec, self.session().answers)
        n = len(self._rec.unanswered)
        verdict = VERDICT_WORDS[self._rec.verdict] if has_verdict(self._rec) else self.tr("none yet")
        if n == 1:
            status = self.tr("Verdict so far: {verdict}\n1 question open")
        else:
            status = self.tr("Verdict so far: {verdict}\n{n} questions open")
        self.nav_status.setText(status.format(verdict=verdict, n=n))

    def recommendation(self) -> Recommendation:
        """The recommendation for the current answers."""
        assert self._rec is not None
        return self._rec

    def _answers_changed(self, answers: Answers) -> None:
        self.session_controller.update(self.session().with_answers(answers))
        self._recompute()

    def _model_checked(self, check: ModelCheck) -> None:
        self.session_controller.update(self.session().with_model_check(check))
        self.result_page.set_model_check(check)

    def _estimate_changed(self, request: EstimateRequest | None) -> None:
        self.session_controller.update(self.session().with_estimate(request))

    def _notes_changed(self, notes: str) -> None:
        if notes != self.session().notes:
            self.session_controller.update(self.session().with_notes(notes))

    def _panel_runs_changed(self) -> None:
        runs = list(self.probe_panel.runs())
        self.session_controller.update(self.session().with_runs(runs))
        self._runs_pushed(runs, skip_panel=True)

    def _runs_pushed(self, runs: list[RunFile], skip_panel: bool = False) -> None:
        self.result_page.set_runs(runs)
        if self.probe_panel is not None and not skip_panel:
            self.probe_panel.set_runs(list(runs))
            self.probe_panel.charts.flush()  # an opened session's chart at once, not blank until the loop is free
        if self.learn_page is not None:
            self.learn_page.set_runs(list(runs))

    def _update_title(self) -> None:
        path = self.path()
        name = path.name if path else self.tr("Untitled")
        self.setWindowTitle(self.tr("{name}[*] — {app}").format(name=name, app=APP_NAME))
        self.setWindowModified(self.is_modified())

    # ------------------------------------------------------------------ file actions (SessionFiles)

    def maybe_save(self) -> bool:
        """Ask to save unsaved changes; False when the user cancels."""
        return self.files.maybe_save()

    def new_session(self) -> bool:
        """Start over with an empty session (after the unsaved-changes prompt)."""
        return self.files.new_session()

    def open_session(self, path: str | Path | None = None) -> bool:
        """Open a session file (asks for one when `path` is None); a broken file is reported, never changed."""
        return self.files.open_session(path)

    def save(self) -> bool:
        """Save to the current file, or ask for one."""
        return self.files.save()

    def save_as(self, path: str | Path | None = None) -> bool:
        """Save under a new name (asks for it when `path` is None)."""
        return self.files.save_as(path)

    def import_run(self, path: str | Path | None = None) -> bool:
        """Add a probe run file (e.g. measured on a TPU VM with gpu-tpu-probe) to the session."""
        return self.files.import_run(path)

    def report_texts(self) -> tuple[str, str]:
        """(Markdown, HTML) of the report for the session as it is now."""
        return self.session_controller.report_texts(self.lesson, self.catalog, self.prices.book)

    def report_pdf(self, progress: Progress | None = None) -> bytes:
        """The report as PDF pages, with the verdict gauge as the Result page draws it (progress: see
        ui/result/report_pdf.Progress)."""
        return self.session_controller.report_pdf(self.lesson, self.catalog, self.prices.book, progress)

    def export_report(self) -> None:
        """Preview the report and save it as Markdown, HTML or PDF."""
        from gpu_tpu_app.ui.result.report_dialog import ReportDialog, report_stem

        try:
            md, html_text = self.report_texts()
        except InputError as exc:
            show_error(self, self.tr("Cannot build the report"), str(exc))
            return
        dialog = ReportDialog(md, html_text, report_stem(self.path()), self, pdf=self.report_pdf)
        if dialog.exec() and dialog.saved_path is not None:
            self.statusBar().showMessage(self.tr("Report saved to {path}").format(path=dialog.saved_path), 5000)
            self.confirm(self.tr("Exported the report"), dialog.saved_path)

    def edit_preferences(self) -> None:
        """Open the preferences dialog; saves and applies the result."""
        from gpu_tpu_app.ui.shell.prefs_dialog import PreferencesDialog

        dialog = PreferencesDialog(self.prefs, self)
        if dialog.exec():
            self.set_preferences(dialog.preferences())

    def set_preferences(self, prefs: Preferences) -> None:
        """Use and save new preferences (theme applies at once, the default suite on the Probe page, the
        language at the next start: said in a message in that language)."""
        language = translations.language_for(prefs.language)
        language_changed = prefs.language != self.prefs.language and language != i18n.current_language()
        self.prefs = prefs
        theme_manager().apply(prefs.theme)
        self.menus.theme_actions[prefs.theme].setChecked(True)
        if self.probe_panel is not None:
            self.probe_panel.set_preferences(prefs)
        if self._persist:
            try:
                save_preferences(prefs)
            except OSError as exc:
                self.statusBar().showMessage(
                    self.tr("Preferences not saved: {error}").format(error=exc.strerror or exc), 8000
                )
        if language_changed:
            self._say_restart_for_language(language)

    def _say_restart_for_language(self, language: str) -> None:
        """The new language applies at the next start: said in that language (the window cannot yet speak it)."""
        from gpu_tpu_app.core.settings import field_text

        body = field_text("restart", "body", language, name=i18n.LANGUAGE_NAMES[language])
        box = message_box(self, QMessageBox.Icon.Information, field_text("restart", "title", language), body)
        box.setModal(False)
        box.open()
        self._restart_box = box

    def set_theme(self, mode: str) -> None:
        """View > Theme: system, light or dark (kept in the preferences)."""
        self.set_preferences(self.prefs.model_copy(update={"theme": mode}))

    def about(self) -> None:
        """Help > About."""
        QMessageBox.about(self, self.tr("About {app}").format(app=APP_NAME), about_html(list(self.session().runs)))

    # ------------------------------------------------------------------ persistence

    def _settings(self) -> QSettings:
        return QSettings()

    def recent_files(self) -> list[str]:
        """Recently opened or saved sessions, newest first."""
        return self.files.recent_files()

    def _load_state(self) -> None:
        """Size and place the window on its screen, a saved geometry clamped to it (ui/shell/geometry.py); fitted
        again once shown and framed."""
        if self._persist:
            restore_geometry(self, self._settings())
            self._fit_on_show = True

    def confirm(self, what: str, path: Path | None = None, read: bool = False) -> None:
        """Confirm a save, export or (`read`) import at the top of the page: `what` and, for a file, its
        path and folder."""
        if path is None:
            self.notice.show_text(what)
        elif read:
            self.notice.show_read(what, path)
        else:
            self.notice.show_written(what, path)

    def fit_to_screen(self) -> None:
        """Keep the framed window inside the screen's available area (once the window manager framed it)."""
        keep_on_screen(self)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._fit_on_show:  # the frame is known only once shown; window managers frame a little later
            self._fit_on_show = False
            for ms in (0, 200, 600):
                QTimer.singleShot(ms, self.fit_to_screen)

    def save_state(self) -> None:
        """Remember the window geometry (QSettings)."""
        if self._persist:
            save_geometry(self, self._settings())

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.confirm_stop_probe() or not self.maybe_save():
            event.ignore()
            return
        self.shutdown()
        self.save_state()
        event.accept()

    def confirm_stop_probe(self) -> bool:
        """True when no probe runs, or the user agrees to stop it (asked before quitting)."""
        if self.probe_panel is None or not self.probe_panel.is_running():
            return True
        answer = QMessageBox.question(
            self,
            self.tr("Quit {app}").format(app=APP_NAME),
            self.tr("A probe is running: stop it and quit?"),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    def shutdown(self) -> None:
        """Stop every probe worker and a running model check now (the window is closing)."""
        self.wizard.model_check_bar.shutdown()
        if self.probe_warmup is not None:
            self.probe_warmup.stop()
        if self.probe_panel is not None:
            self.probe_panel.shutdown()
