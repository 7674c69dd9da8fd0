"""Back / Forward for the window: the visited places, the two actions, and going to a place.

A place is a tuple that `PlaceView.place` returns: ('welcome',), ('wizard', page), ('result',),
('probe',) or ('learn', topic). The window calls `note` whenever the place may have changed and
wraps a change made of several widget steps in `one_step`; going back or forward shows the place
through the `PlaceView` protocol (MainWindow implements it), so this module does not import the window.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence

from gpu_tpu_app.ui.shell.history import History
from gpu_tpu_app.ui.shell.icons import set_themed_icon


class PlaceView(Protocol):
    """What going back and forward needs of the window."""

    def place(self) -> tuple[Any, ...]: ...
    def show_welcome(self) -> None: ...
    def show_wizard(self, page: int | None = None) -> None: ...
    def show_result(self) -> None: ...
    def open_topic(self, topic_id: str) -> None: ...
    def show_page(self, name: str) -> None: ...


class BackForward(QObject):
    """The window's history of places and its Back (Alt+Left) and Forward (Alt+Right) actions."""

    def __init__(self, view: PlaceView, parent: QObject) -> None:
        super().__init__(parent)
        self._view = view
        self.history: History[tuple[Any, ...]] = History()
        self._navigating = False
        self.act_back = self._action(
            self.tr("&Back"), self.go_back, "Alt+Left", self.tr("Go back to the previous page"), parent
        )
        self.act_forward = self._action(
            self.tr("&Forward"), self.go_forward, "Alt+Right", self.tr("Go forward again"), parent
        )
        set_themed_icon(self.act_back, "back")
        set_themed_icon(self.act_forward, "forward")

    @staticmethod
    def _action(text: str, slot: Any, shortcut: str, tip: str, parent: QObject) -> QAction:
        act = QAction(text, parent)
        act.triggered.connect(slot)
        act.setShortcut(QKeySequence(shortcut))
        act.setStatusTip(tip)
        return act

    def note(self, *_args: Any) -> None:
        """The place may have changed: record it (unless going back or forward brought us there)."""
        if not self._navigating:
            self.history.visit(self._view.place())
            self.update_actions()

    @contextmanager
    def one_step(self) -> Iterator[None]:
        """Several widget changes that make one step in Back / Forward."""
        outer = self._navigating
        self._navigating = True
        try:
            yield
        finally:
            self._navigating = outer
            self.note()

    def update_actions(self) -> None:
        """Enable Back and Forward where there is somewhere to go."""
        self.act_back.setEnabled(self.history.can_back())
        self.act_forward.setEnabled(self.history.can_forward())

    def _go_to(self, place: tuple[Any, ...] | None) -> None:
        if place is None:
            return
        view = self._view
        self._navigating = True
        try:
            kind = place[0]
            if kind == "welcome":
                view.show_welcome()
            elif kind == "wizard":
                view.show_wizard(int(place[1]))
            elif kind == "result":
                view.show_result()
            elif kind == "learn":
                view.open_topic(str(place[1]))
            else:
                view.show_page(str(kind))
        finally:
            self._navigating = False
        self.update_actions()

    def go_back(self) -> None:
        """Back to the previous page (Alt+Left)."""
        self._go_to(self.history.back())

    def go_forward(self) -> None:
        """Forward again after going back (Alt+Right)."""
        self._go_to(self.history.forward())
