"""Dialog buttons have mnemonics (Alt+letter), each its own letter, in English and in Chinese ("保存(&S)"):
Qt's standard "OK", "Save", "Discard", "Cancel" had none."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QMessageBox, QVBoxLayout

from gpu_tpu_app.ui.shell.main_window import MainWindow
from gpu_tpu_app.ui.shell.mnemonics import mnemonic


def test_a_dialog_opened_from_the_window_has_a_letter_on_every_button(qtbot) -> None:
    w = MainWindow(persist=False)  # the window installs the filter
    qtbot.addWidget(w, before_close_func=lambda win: win.session_controller.mark_clean())
    box = QMessageBox(QMessageBox.Icon.Warning, "Unsaved changes", "Save the session?", parent=w)
    box.setStandardButtons(
        QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel
    )
    box.show()
    letters = [mnemonic(b.text()) for b in box.buttons()]
    assert None not in letters and len(set(letters)) == len(letters), [b.text() for b in box.buttons()]
    box.close()
    dialog = QDialog(w)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    QVBoxLayout(dialog).addWidget(buttons)
    dialog.show()
    assert [mnemonic(b.text()) for b in buttons.buttons()].count(None) == 0
    assert not buttons.button(QDialogButtonBox.StandardButton.Ok).shortcut().isEmpty()
    dialog.close()
    w.shutdown()


def test_chinese_buttons_get_the_letter_of_their_role_in_brackets(qtbot) -> None:
    from gpu_tpu_app.ui.shell.mnemonics import add_mnemonics

    box = QMessageBox()
    qtbot.addWidget(box)
    box.setStandardButtons(QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Cancel)
    box.button(QMessageBox.StandardButton.Save).setText("保存")
    box.button(QMessageBox.StandardButton.Cancel).setText("取消")
    add_mnemonics(box)
    assert box.button(QMessageBox.StandardButton.Save).text() == "保存(&S)"
    assert box.button(QMessageBox.StandardButton.Cancel).text() == "取消(&C)"
    add_mnemonics(box)  # a second show adds nothing
    assert box.button(QMessageBox.StandardButton.Save).text() == "保存(&S)"
