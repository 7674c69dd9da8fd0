"""SessionFiles, the window's file actions: a run one page cannot show leaves every page and the session as they were."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from gpu_tpu_app.core.estimate import EstimateRequest
from gpu_tpu_app.core.runs import RunFile, save_run
from gpu_tpu_app.ui.shell.main_window import MainWindow
from gpu_tpu_app.ui.shell.session_files import SessionFiles
from tests.ui.test_app import make_run


def _measured_rows(w: MainWindow) -> int:
    table = w.result_page.estimator.table
    return [table.item(r, 1).text() for r in range(table.rowCount())].count("measured")


def test_a_run_the_learn_page_cannot_show_is_not_imported(
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = MainWindow(persist=False)
    qtbot.addWidget(w)
    assert isinstance(w.files, SessionFiles) and w.recent_menu is w.files.recent_menu
    texts: list[str] = []
    monkeypatch.setattr(
        QMessageBox, "exec", lambda box: (texts.append(box.text()), int(QMessageBox.StandardButton.Ok))[1]
    )
    here = make_run("here")
    w.set_session(w.session().with_estimate(EstimateRequest(params=1e9)).with_runs([here]))
    learn = w.ensure_learn_page()
    real = learn.set_runs

    def fails_on_elsewhere(runs: list[RunFile]) -> None:
        if any(r.host == "elsewhere" for r in runs):
            raise ValueError("cannot draw this")
        real(runs)

    monkeypatch.setattr(learn, "set_runs", fails_on_elsewhere)
    before = _measured_rows(w)
    path = tmp_path / "elsewhere.json"
    save_run(make_run("elsewhere"), path)

    assert not w.import_run(path)
    assert texts == [f"{path}: cannot be shown (cannot draw this)"]
    assert w.session().runs == [here] and not w.is_modified()
    assert _measured_rows(w) == before  # the result page was given the runs first: it has its own back

    other = tmp_path / "other.json"
    save_run(make_run("other"), other)
    assert w.import_run(other)
    assert [r.host for r in w.session().runs] == ["here", "other"] and w.is_modified()
    w.set_session(w.session())  # closing without the unsaved-changes question
