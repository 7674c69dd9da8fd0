"""The session controller: one window's session, the file it belongs to and its saved (clean) copy.

`SessionController` holds the state; the window renders it. The window gives it two callables:
`render(session)` shows a whole session on every page and `push_runs(runs)` shows runs on every
page. Either may raise when a page cannot show what it is given: `set_session` and `show_runs` are
all or nothing, so the previous session (and its path) stays and is shown again. Edits made on
the pages come in through `update` (and the `with_*` helpers) and are announced with
`sig_changed`; `sig_state_changed` says the title (file name, modified marker) may differ.
The controller imports no window module, so `SessionFiles` and the window both talk to it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from gpu_tpu_app.core.decision import Recommendation
from gpu_tpu_app.core.report import build_html, build_markdown, collect, session_estimate
from gpu_tpu_app.core.runs import RunFile
from gpu_tpu_app.core.session import Session, new_session

if TYPE_CHECKING:
    from gpu_tpu_app.core.catalog import Catalog
    from gpu_tpu_app.core.lesson import LessonPack
    from gpu_tpu_app.core.prices import PriceBook
    from gpu_tpu_app.ui.result.report_pdf import Progress


class SessionController(QObject):
    """The session as it is now, where it was read from or saved to, and whether it differs from that."""

    sig_changed = Signal()  # the content changed by an edit (answers, check, estimate, notes, runs)
    sig_state_changed = Signal()  # the path or the modified state may differ: redraw the title

    def __init__(
        self,
        render: Callable[[Session], None],
        push_runs: Callable[[list[RunFile]], None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._render = render
        self._push_runs = push_runs
        self._session: Session = new_session()
        self._clean: Session = self._session
        self._path: Path | None = None

    def session(self) -> Session:
        """The session as it is now (answers, notes, runs, estimator inputs)."""
        return self._session

    def path(self) -> Path | None:
        """The file the session was opened from or last saved to."""
        return self._path

    def name(self) -> str | None:
        """The file's stem (a report's title), or None for an unsaved session."""
        return self._path.stem if self._path else None

    def is_modified(self) -> bool:
        """True when the session differs from the file (or from a new, empty session)."""
        return not self._session.same_content(self._clean)

    def recommendation(self) -> Recommendation:
        """The recommendation for the session's answers."""
        return self._session.recommendation()

    def show(self) -> None:
        """Render the session as it is (once, when the window is built)."""
        self._render(self._session)
        self.sig_state_changed.emit()

    def set_session(self, session: Session, path: Path | None = None, modified: bool = False) -> None:
        """Make `session` the session; `path` is where it came from; `modified` marks content not yet saved.

        All or nothing: when the session cannot be shown, the previous one (and its path) stays.
        """
        previous = (self._session, self._path, self._clean)
        self._path = Path(path) if path is not None else None
        self._clean = new_session() if modified else session
        self._session = session
        try:
            self._render(session)
        except Exception:
            self._session, self._path, self._clean = previous
            self._render(previous[0])
            raise
        finally:
            self.sig_state_changed.emit()

    def update(self, session: Session) -> None:
        """An edit on a page: `session` is the session now."""
        self._session = session
        self.sig_state_changed.emit()
        self.sig_changed.emit()

    def mark_saved(self, session: Session, path: Path) -> None:
        """`session` was written to `path`: it is the session now, and its clean copy."""
        self._path = path
        self._session = session
        self._clean = session
        self.sig_state_changed.emit()

    def mark_clean(self) -> None:
        """Take the session as it is for the saved one (nothing left to ask about when closing)."""
        self._clean = self._session
        self.sig_state_changed.emit()

    def show_runs(self, runs: list[RunFile]) -> None:
        """Make `runs` the session's runs, shown on every page.

        All or nothing: when a page cannot show them, every page goes back to the session's runs
        and the error is raised.
        """
        try:
            self._push_runs(runs)
        except Exception:
            self._push_runs(self._session.runs)
            raise
        self.update(self._session.with_runs(runs))

    # ------------------------------------------------------------------ report

    def report_texts(self, lesson: LessonPack, catalog: Catalog, book: PriceBook | None) -> tuple[str, str]:
        """(Markdown, HTML) of the report for the session as it is now."""
        est = session_estimate(self._session, catalog, book)
        name = self.name()
        md = build_markdown(self._session, lesson, catalog, est, name)
        html_text = build_html(self._session, lesson, catalog, est, name)
        return md, html_text

    def report_pdf(
        self, lesson: LessonPack, catalog: Catalog, book: PriceBook | None, progress: Progress | None = None
    ) -> bytes:
        """The report as PDF pages, with the verdict gauge as the Result page draws it; progress hears of each
        step (building, laying out) and may cancel (ReportCancelled)."""
        from gpu_tpu_app.core.decision import has_verdict
        from gpu_tpu_app.ui.result.report_pdf import Gauge, report_pdf, report_step

        report_step(progress, "build", 0.0)
        est = session_estimate(self._session, catalog, book)
        rec = self._session.recommendation()
        data = collect(self._session, lesson, catalog, est, self.name(), rec=rec)
        gauge = Gauge(rec.score, rec.verdict, rec.confidence) if has_verdict(rec) else None
        return report_pdf(data, gauge, progress)
