"""A window that explains itself: welcome card, no verdict yet, Back / Forward, Help menu, quitting
during a probe, empty charts."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox

from gpu_tpu_app.core.decision import MIN_ANSWERS_FOR_VERDICT, QUESTIONS, Answers
from gpu_tpu_app.core.runs import DeviceInfo, RunFile
from gpu_tpu_app.ui.shell.about import about_html
from gpu_tpu_app.ui.shell.help import GuideDialog, ShortcutsDialog, guide_markdown, shortcut_rows
from gpu_tpu_app.ui.shell.history import History
from gpu_tpu_app.ui.shell.main_window import MainWindow


@pytest.fixture
def window(qtbot):
    w = MainWindow(persist=False)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    return w


def test_welcome_card_shows_once_at_first_start_and_from_help(qtbot, sandbox_home):
    QApplication.setOrganizationName("gpu-tpu-app")
    QApplication.setApplicationName("gpu-tpu-app")
    QSettings().clear()
    first = MainWindow(persist=True)
    qtbot.addWidget(first)
    assert first.welcome_shown()
    assert any(f"{len(QUESTIONS)} questions" in lab.text() for lab in first.welcome.findChildren(QLabel))
    first.welcome.start_button.click()
    assert not first.welcome_shown() and first.decide_stack.currentWidget() is first.wizard
    second = MainWindow(persist=True)
    qtbot.addWidget(second)
    assert not second.welcome_shown()  # shown once
    second.menus.act_welcome.trigger()
    assert second.welcome_shown()
    second.welcome.probe_button.click()
    assert second.current_page() == "probe"
    second.shutdown()
    QSettings().clear()


def test_no_verdict_until_enough_answers(window):
    page = window.result_page
    window.show_result()
    assert page.headline.text() == "No verdict yet"
    assert not page.gauge.isVisibleTo(page) and not page.flips_card.isVisibleTo(page)
    assert "none yet" in window.nav_status.text()
    few = {"framework": "jax", "stage": "production"}
    assert len(few) < MIN_ANSWERS_FOR_VERDICT
    window.set_session(window.session().with_answers(Answers(**few)))
    assert page.headline.text() == "No verdict yet"
    enough = {**few, "architecture_changes": "locked"}
    window.set_session(window.session().with_answers(Answers(**enough)))
    assert page.headline.text() != "No verdict yet"
    assert page.gauge.isVisibleTo(page) and page.flips_card.isVisibleTo(page)
    # a blocker decides on its own, so one answer is enough then
    window.set_session(window.session().with_answers(Answers(deployment="on_premises")))
    assert window.recommendation().blockers and page.headline.text() != "No verdict yet"


def test_history_drops_forward_places_after_a_new_visit():
    h: History[str] = History(limit=3)
    assert h.back() is None and h.forward() is None
    for place in ("a", "b", "b", "c"):
        h.visit(place)
    assert h.back() == "b" and h.back() == "a" and h.back() is None
    assert h.forward() == "b"
    h.visit("d")
    assert not h.can_forward() and h.current() == "d"
    h.visit("e")
    assert h.back() == "d" and h.back() == "b" and not h.can_back()  # only the newest 3 are kept


def test_back_and_forward_retrace_pages_and_a_learn_link(window, qtbot):
    window.set_session(window.session().with_answers(Answers(framework="jax", stage="production", batch="large")))
    window.show_wizard(1)
    window.show_result()
    topic = window.recommendation().reasons[0].topic
    window.result_page.sig_open_topic.emit(topic)  # "Open in Learn" on a reason
    assert window.place() == ("learn", topic)
    assert window.act_back.isEnabled() and not window.act_forward.isEnabled()
    qtbot.keyClick(window, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    assert window.place() == ("result",)
    window.go_back()
    assert window.place() == ("wizard", 1)
    assert window.act_forward.isEnabled()
    qtbot.keyClick(window, Qt.Key.Key_Right, Qt.KeyboardModifier.AltModifier)
    assert window.place() == ("result",)
    window.go_forward()
    assert window.place() == ("learn", topic)
    window.show_page("probe")
    window.go_back()
    assert window.place() == ("learn", topic)
    window.shutdown()


def test_help_menu_guide_shortcuts_and_about(window):
    titles = [a.text().replace("&", "") for a in window.menuBar().actions()[-1].menu().actions() if a.text()]
    assert titles[:3] == ["User Guide", "Keyboard Shortcuts", "Welcome"] and titles[-1] == "About gpu-tpu-app"
    guide = GuideDialog(window)
    assert "# Using gpu-tpu-app" in guide_markdown()
    assert "Back" in guide.browser.toPlainText() and not guide.browser.openLinks()
    rows = dict(shortcut_rows(window.findChildren(type(window.act_back))))
    assert rows["Back"] == "Alt+Left" and rows["Forward"] == "Alt+Right" and rows["Save"] == "Ctrl+S"
    table = ShortcutsDialog(list(rows.items()), window).table
    assert table.rowCount() == len(rows) and table.item(0, 0).text()


def test_about_names_the_versions_and_escapes_what_came_from_a_file():
    dev = DeviceInfo(backend="torch", platform="cpu", name="cpu")
    run = RunFile(
        app_version="0.1.0",
        host="<b>vm</b>",
        os="Linux",
        python="3.11",
        devices=[dev],
        suite="smoke",
        started=datetime(2026, 11, 1, tzinfo=UTC),
        complete=True,
        results=[],
        versions={"torch": "2.13.0+cpu", "jax": "0.10.2"},
    )
    text = about_html([run])
    for name in ("Qt", "PySide6", "pyqtgraph", "PyTorch", "JAX"):
        assert f"<td>{name}</td>" in text
    assert "2.13.0+cpu" in text and "0.10.2" in text
    assert "&lt;b&gt;vm&lt;/b&gt;" in text and "<b>vm</b>" not in text
    assert "no probe run yet" in about_html([])


class _RunningPanel:
    def is_running(self) -> bool:
        return True

    def shutdown(self) -> None:
        pass


@pytest.mark.parametrize(
    ("answer", "closes"), [(QMessageBox.StandardButton.No, False), (QMessageBox.StandardButton.Yes, True)]
)
def test_quitting_during_a_probe_asks_first(window, monkeypatch, answer, closes):
    asked: list[str] = []

    def question(_parent, _title, text, *_a, **_k):
        asked.append(text)
        return answer

    monkeypatch.setattr(QMessageBox, "question", question)
    real_panel = window.probe_panel
    window.probe_panel = _RunningPanel()
    try:
        assert window.close() is closes
    finally:
        window.probe_panel = real_panel
    assert asked == ["A probe is running: stop it and quit?"]


def test_empty_charts_show_a_placeholder_without_axes(qtbot):
    from gpu_tpu_app.ui.charts.view import ChartData, ThroughputChart

    chart = ThroughputChart()
    qtbot.addWidget(chart)
    chart.redraw(ChartData(runs=[]))
    assert not chart.has_data
    assert not chart.item.getAxis("left").isVisible() and not chart.item.getAxis("bottom").isVisible()


def _many_recommendations():
    import random

    from gpu_tpu_app.core.decision import decide

    rng = random.Random(7)
    for _ in range(300):
        answers = {f: rng.choice(q.choices)[0] for f, q in QUESTIONS.items() if rng.random() < 0.6}
        yield decide(Answers(**answers), flips=False)


def test_next_steps_in_the_window_are_actions_not_commands():
    from gpu_tpu_app.core.next_steps import ACTION_TEXT, window_step

    seen_actions = set()
    for rec in _many_recommendations():
        assert [step.line for step in rec.steps] == rec.next_steps
        for step in rec.steps:
            shown = window_step(step)
            assert "gpu-tpu-" not in shown.text and "aten::" not in shown.text, shown.text
            assert shown.text and shown.text[0].isupper() and shown.text.endswith((".", ")"))
            if "gpu-tpu-" in step.line:
                assert shown.action is not None, step
            seen_actions.add(shown.action)
    assert {"estimate", "probe_quick", "check_model", "answer"} <= seen_actions
    assert set(ACTION_TEXT) >= seen_actions - {None}


def test_a_next_step_action_link_does_what_it_says(window, monkeypatch):
    window.set_session(window.session().with_answers(Answers(framework="jax", stage="production", batch="large")))
    window.show_result()
    text = window.result_page.steps_label.text()
    assert "action:check_model" in text and "gpu-tpu-" not in text
    window.result_page.steps_label.linkActivated.emit("action:check_model")
    assert window.place() == ("wizard", 0)
    window.show_result()
    window.result_page.steps_label.linkActivated.emit("action:answer")
    assert window.decide_stack.currentWidget() is window.wizard
    started: list[str] = []
    panel = window.ensure_probe_panel()
    monkeypatch.setattr(panel, "start", lambda: started.append(panel.suite.currentText()) or True)
    window.result_page.steps_label.linkActivated.emit("action:probe_quick")
    assert window.current_page() == "probe" and started == ["quick"]
    window.result_page.steps_label.linkActivated.emit("action:compare_chips")
    assert panel.charts.currentWidget() is panel.charts.roofline
    window.shutdown()


def _tab_through(window, presses: int) -> list[tuple[object, str]]:
    from PySide6.QtTest import QTest

    app = QApplication.instance()
    seen = []
    for _ in range(presses):
        widget = app.focusWidget()
        seen.append((widget, widget.selectedText() if isinstance(widget, QLabel) else ""))
        QTest.keyClick(widget, Qt.Key.Key_Tab)
    return seen


def test_tab_on_the_result_page_follows_reading_order_and_leaves_the_table(window):
    window.set_session(
        window.session().with_answers(
            Answers(framework="jax", stage="production", batch="large", deployment="on_premises", team="cuda")
        )
    )
    window.show_result()
    page = window.result_page
    rec = window.recommendation()
    assert rec.blockers and len(rec.reasons) >= 2
    seen = _tab_through(window, 80)
    learn_links = [text for _w, text in seen if text.startswith("Open in Learn")]
    expected = [f"Open in Learn: {page._topic_title(x.topic)}" for x in [*rec.blockers, *rec.reasons[:4]]]
    assert learn_links[: len(expected)] == expected  # blockers first, then reasons, in reading order
    widgets = [w for w, _t in seen]
    first_learn = next(i for i, (_w, t) in enumerate(seen) if t.startswith("Open in Learn"))
    assert first_learn < widgets.index(page.flips_label) < widgets.index(page.notes_edit)
    table_at = widgets.index(page.estimator.table)
    assert widgets[table_at + 1] is not page.estimator.table  # Tab leaves the table at once
    assert widgets.count(page.estimator.table) <= 2
