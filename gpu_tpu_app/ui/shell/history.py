"""Back / Forward across the window's pages: a plain list of places and a cursor."""

from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")


class History(Generic[T]):
    """Places visited, newest last; going back and then somewhere new drops the forward places."""

    def __init__(self, limit: int = 100) -> None:
        self._items: list[T] = []
        self._index = -1
        self._limit = limit

    def visit(self, place: T) -> None:
        """Record a place the user went to (a repeat of the current place is ignored)."""
        if self._index >= 0 and self._items[self._index] == place:
            return
        del self._items[self._index + 1 :]
        self._items.append(place)
        if len(self._items) > self._limit:
            del self._items[0]
        self._index = len(self._items) - 1

    def can_back(self) -> bool:
        return self._index > 0

    def can_forward(self) -> bool:
        return 0 <= self._index < len(self._items) - 1

    def back(self) -> T | None:
        """The previous place (and move there), or None at the start."""
        if not self.can_back():
            return None
        self._index -= 1
        return self._items[self._index]

    def forward(self) -> T | None:
        """The next place (and move there), or None at the end."""
        if not self.can_forward():
            return None
        self._index += 1
        return self._items[self._index]

    def current(self) -> T | None:
        return self._items[self._index] if self._index >= 0 else None
