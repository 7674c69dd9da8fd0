"""The mouse wheel never edits a field the user did not click: one application-wide event filter.

Scrolling a page with the wheel used to change whichever combo box or spin box passed under the pointer
(Training became Inference, Chips 1 became 2). With the guard installed:
- combo boxes, spin boxes and sliders no longer take focus from the wheel (WheelFocus becomes StrongFocus);
- a wheel event over one of them without keyboard focus never reaches it: it goes to the scroll area the
  field sits in, so the page scrolls as if the field were not there;
- once the user has clicked or tabbed into the field, the wheel changes it as before.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QAbstractScrollArea, QAbstractSlider, QAbstractSpinBox, QComboBox, QScrollBar, QWidget

GUARDED = (QComboBox, QAbstractSpinBox, QAbstractSlider)


def _guarded(obj: QObject) -> bool:
    # a scroll bar is a slider too, and the wheel is what it is for
    return isinstance(obj, GUARDED) and not isinstance(obj, QScrollBar)


def _no_wheel_focus(widget: QWidget) -> None:
    if widget.focusPolicy() == Qt.FocusPolicy.WheelFocus:
        widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)


class WheelGuard(QObject):
    """The filter: install() puts one on the application."""

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.Polish and _guarded(obj):
            _no_wheel_focus(obj)  # type: ignore[arg-type]
        elif kind == QEvent.Type.Wheel and _guarded(obj) and not obj.hasFocus():  # type: ignore[attr-defined]
            area = _scroll_area(obj)  # type: ignore[arg-type]
            if area is not None:  # the page scrolls as if the field were not there
                wheel: QWheelEvent = event  # type: ignore[assignment]
                viewport = area.viewport()
                at = viewport.mapFromGlobal(wheel.globalPosition())
                copy = QWheelEvent(
                    at,
                    wheel.globalPosition(),
                    wheel.pixelDelta(),
                    wheel.angleDelta(),
                    wheel.buttons(),
                    wheel.modifiers(),
                    wheel.phase(),
                    wheel.inverted(),
                )
                QCoreApplication.sendEvent(viewport, copy)
            event.accept()  # and the field itself never sees it
            return True
        return False


def _scroll_area(widget: QWidget) -> QAbstractScrollArea | None:
    """The nearest scroll area around `widget` (the page it sits on), or None."""
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea):
            return parent
        parent = parent.parentWidget()
    return None


_guard: WheelGuard | None = None


def install() -> WheelGuard:
    """Put the guard on the running application (once) and on the widgets that exist already."""
    global _guard
    app = QCoreApplication.instance()
    assert app is not None, "a QApplication must exist first"
    if _guard is None or _guard.parent() is not app:
        _guard = WheelGuard(app)
        app.installEventFilter(_guard)
        from PySide6.QtWidgets import QApplication

        for widget in QApplication.allWidgets():
            if _guarded(widget):
                _no_wheel_focus(widget)
    return _guard
