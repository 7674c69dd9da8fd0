"""Every dialog button has a keyboard mnemonic (Alt+letter): one application-wide filter.

Qt's standard buttons read "OK", "Save", "Discard", "Cancel" with no underlined letter, so a dialog could not be
answered with Alt+letter. When a dialog is shown, each button of its button box that has no mnemonic gets one: the
first letter of its text that no other button of the dialog uses; a text with no Latin letter to mark (Chinese)
gets the letter of its standard role in brackets, as Chinese menus write it: "保存(&S)".
"""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication, QEvent, QObject
from PySide6.QtWidgets import QAbstractButton, QDialog, QDialogButtonBox, QMessageBox

_MARK = re.compile(r"&([^&\s])")


def mnemonic(text: str) -> str | None:
    """The letter `text` marks with '&' (lower case), or None."""
    found = _MARK.search(text.replace("&&", ""))
    return found.group(1).lower() if found else None


def _role_name(box: QDialogButtonBox | QMessageBox, button: QAbstractButton) -> str:
    """The English name of a standard button's role ('Save', 'Cancel'); '' for a button of the dialog's own."""
    standard = box.standardButton(button)
    name = getattr(standard, "name", "") or ""
    return "" if name in ("NoButton", "") else name


def add_mnemonics(dialog: QDialog) -> None:
    """Give each button box button of `dialog` without a mnemonic a free one (see the module's docstring)."""
    boxes: list[QDialogButtonBox | QMessageBox] = list(dialog.findChildren(QDialogButtonBox))
    if isinstance(dialog, QMessageBox):
        boxes.append(dialog)
    buttons: list[tuple[QDialogButtonBox | QMessageBox, QAbstractButton]] = []
    for box in boxes:
        for button in box.buttons():
            if all(button is not b for _x, b in buttons):
                buttons.append((box, button))
    used = {m for b in dialog.findChildren(QAbstractButton) if (m := mnemonic(b.text()))}
    for box, button in buttons:
        text = button.text()
        if not text or mnemonic(text):
            continue
        for i, ch in enumerate(text):
            if ch.isascii() and ch.isalpha() and ch.lower() not in used:
                button.setText(text[:i] + "&" + text[i:])
                used.add(ch.lower())
                break
        else:
            role = _role_name(box, button)
            letter = next((c for c in role if c.isalpha() and c.lower() not in used), None)
            if letter is not None:
                button.setText(f"{text}(&{letter.upper()})")
                used.add(letter.lower())


class DialogMnemonics(QObject):
    """The filter: install() puts one on the application."""

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Show and isinstance(obj, QDialog):
            add_mnemonics(obj)
        return False


_filter: DialogMnemonics | None = None


def install() -> DialogMnemonics:
    """Put the filter on the running application (once)."""
    global _filter
    app = QCoreApplication.instance()
    assert app is not None, "a QApplication must exist first"
    if _filter is None or _filter.parent() is not app:
        _filter = DialogMnemonics(app)
        app.installEventFilter(_filter)
    return _filter
