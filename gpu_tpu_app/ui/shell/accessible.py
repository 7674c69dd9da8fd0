"""Every control the keyboard can reach has a name a screen reader can say: one application-wide filter.

Qt names a button by its text and a field by the label whose buddy it is; a control with neither (an icon
button, a table, a search box with only a placeholder, the line edit inside a spin box) had no name. When such a
widget is polished, the filter gives it one, from what the user sees of it:
its text, the label that is its buddy, its placeholder, its parent's name (a spin box's line edit, a view's drawing
area), the first line of its tool tip. A name set in code is never replaced.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QAbstractSpinBox,
    QApplication,
    QLabel,
    QLineEdit,
    QWidget,
)


def derived_name(widget: QWidget) -> str:
    """A name for `widget` from what it shows; '' when it shows nothing to name it by."""
    if isinstance(widget, QAbstractButton) and widget.text().strip():
        return widget.text().replace("&&", "\0").replace("&", "").replace("\0", "&").strip()
    top = widget.window()
    for label in top.findChildren(QLabel):
        if label.buddy() is widget and label.text().strip():
            return label.text().replace("&", "").strip().rstrip(":：")
    if isinstance(widget, QLineEdit):
        parent = widget.parentWidget()
        if isinstance(parent, QAbstractSpinBox):
            return parent.accessibleName() or derived_name(parent)
        if widget.placeholderText().strip():
            return widget.placeholderText().strip()
    parent = widget.parentWidget()
    if isinstance(parent, QAbstractScrollArea) and parent.viewport() is widget:  # a view's drawing area
        return parent.accessibleName() or derived_name(parent)
    tip = widget.toolTip().strip()
    if tip and not tip.lstrip().startswith("<"):  # plain text only: a rich tip is no name
        return tip.splitlines()[0][:120]
    return ""


def spoken_name(widget: QWidget) -> str:
    """What a screen reader says for `widget` (its accessible interface's name)."""
    iface = QAccessible.queryAccessibleInterface(widget)
    return (iface.text(QAccessible.Text.Name) if iface is not None else "") or ""


def name_if_missing(widget: QWidget) -> None:
    """Give `widget` a derived name when it can take focus and has none."""
    if widget.focusPolicy() == Qt.FocusPolicy.NoFocus or widget.accessibleName():
        return
    if spoken_name(widget).strip():
        return
    name = derived_name(widget)
    if name:
        widget.setAccessibleName(name)


class AccessibleNames(QObject):
    """The filter: install() puts one on the application."""

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.Polish, QEvent.Type.Show) and isinstance(obj, QWidget):
            name_if_missing(obj)
        return False


_filter: AccessibleNames | None = None


def install() -> AccessibleNames:
    """Put the filter on the running application (once) and name the widgets that exist already."""
    global _filter
    app = QCoreApplication.instance()
    assert app is not None, "a QApplication must exist first"
    if _filter is None or _filter.parent() is not app:
        _filter = AccessibleNames(app)
        app.installEventFilter(_filter)
        for widget in QApplication.allWidgets():
            name_if_missing(widget)
    return _filter
