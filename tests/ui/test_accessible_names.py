"""Every control the keyboard can reach, on every page (each wizard page, the result with its estimator, probe,
learn), has a name a screen reader says: its accessible interface's name is not empty. Icon buttons, tables,
charts, page scroll areas and the line edits inside spin boxes had none."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget

from gpu_tpu_app.core.session import load_session
from gpu_tpu_app.ui.shell.accessible import spoken_name
from gpu_tpu_app.ui.shell.app import _settle
from gpu_tpu_app.ui.shell.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[2]


def _pages(w: MainWindow) -> Iterator[str]:
    for i in range(len(w.wizard.pages)):
        w.show_wizard(i)
        yield f"wizard page {i}"
    w.show_result()
    yield "result"
    w.show_page("probe")
    yield "probe"
    w.show_page("learn")
    yield "learn"


def test_every_control_on_every_page_has_a_spoken_name(qtbot) -> None:
    app = QApplication.instance()
    w = MainWindow(persist=False)
    qtbot.addWidget(w, before_close_func=lambda win: win.session_controller.mark_clean())
    w.set_session(load_session(ROOT / "docs" / "screenshots" / "example-session.json"))
    w.resize(1280, 800)
    w.show()
    nameless: list[str] = []
    counted = 0
    for page in _pages(w):
        _settle(app)
        for c in w.findChildren(QWidget):
            if not c.isVisibleTo(w) or c.focusPolicy() == Qt.FocusPolicy.NoFocus or c.window() is not w:
                continue
            counted += 1
            if not spoken_name(c).strip():
                nameless.append(f"{page}: {type(c).__name__} {c.objectName()!r} in {type(c.parentWidget()).__name__}")
    assert counted > 100
    assert nameless == []
    w.shutdown()


def test_a_name_set_in_code_is_kept_and_a_buddy_label_names_its_field(qtbot) -> None:
    from PySide6.QtWidgets import QLabel, QLineEdit, QToolButton, QVBoxLayout

    from gpu_tpu_app.ui.shell import accessible

    accessible.install()
    box = QWidget()
    qtbot.addWidget(box)
    named = QToolButton()
    named.setAccessibleName("Reload")
    named.setToolTip("Ask again")
    field = QLineEdit()
    label = QLabel("&Host:")
    label.setBuddy(field)
    icon_only = QToolButton()
    icon_only.setToolTip("Ask every environment again\nand more")
    layout = QVBoxLayout(box)
    for widget in (named, label, field, icon_only):
        layout.addWidget(widget)
    box.show()
    assert named.accessibleName() == "Reload"
    assert spoken_name(field).rstrip(":") == "Host"
    assert spoken_name(icon_only) == "Ask every environment again"
