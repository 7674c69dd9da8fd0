"""Where the main window goes: sized and placed from the screen's available geometry (the screen less its
panels), and a restored geometry clamped to it, so the title bar, the close button and the status bar are
always on the screen, whatever screen the window was saved on."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QMargins, QRect, QSettings, QSize
from PySide6.QtWidgets import QWidget

#: The window's size on a first start, where the screen has room for it.
DEFAULT_SIZE = QSize(1280, 800)
#: The smallest the window may be made, bounded by what the screen can show.
MIN_SIZE = QSize(900, 600)
#: A window manager's frame before the window is shown (title bar, borders); the real one replaces it after.
TYPICAL_FRAME = QMargins(4, 30, 4, 4)
#: Where the window's geometry is kept (QSettings).
GEOMETRY_KEY = "window/geometry"


def room(available: QRect, frame: QMargins) -> QSize:
    """The largest client size whose frame fits the available area."""
    return QSize(
        max(1, available.width() - frame.left() - frame.right()),
        max(1, available.height() - frame.top() - frame.bottom()),
    )


def first_geometry(available: QRect, frame: QMargins = TYPICAL_FRAME, wanted: QSize = DEFAULT_SIZE) -> QRect:
    """The client rectangle of a first start: `wanted` where it fits, else all the room there is, centred."""
    space = room(available, frame)
    size = wanted.boundedTo(space)
    x = available.x() + frame.left() + (space.width() - size.width()) // 2
    y = available.y() + frame.top() + (space.height() - size.height()) // 2
    return QRect(x, y, size.width(), size.height())


def clamp_geometry(client: QRect, available: QRect, frame: QMargins = TYPICAL_FRAME) -> QRect:
    """`client` made to fit: no larger than the room, moved so its frame lies inside the available area."""
    space = room(available, frame)
    size = client.size().boundedTo(space)
    left = available.x() + frame.left()
    top = available.y() + frame.top()
    right = available.x() + available.width() - frame.right() - size.width()
    bottom = available.y() + available.height() - frame.bottom() - size.height()
    x = min(max(client.x(), left), right)
    y = min(max(client.y(), top), bottom)
    return QRect(x, y, size.width(), size.height())


def minimum_size(available: QRect, frame: QMargins = TYPICAL_FRAME) -> QSize:
    """MIN_SIZE, or less on a screen too small for it."""
    return MIN_SIZE.boundedTo(room(available, frame))


def frame_of(frame_rect: QRect, client: QRect) -> QMargins:
    """The frame a window manager put around `client` (from the window's frame geometry); TYPICAL_FRAME
    until the window is shown and framed."""
    m = QMargins(
        client.left() - frame_rect.left(),
        client.top() - frame_rect.top(),
        frame_rect.right() - client.right(),
        frame_rect.bottom() - client.bottom(),
    )
    if m.isNull() or min(m.left(), m.top(), m.right(), m.bottom()) < 0:
        return TYPICAL_FRAME
    return m


def restore_geometry(window: QWidget, settings: QSettings) -> None:
    """Size and place `window` from its screen's available geometry; a geometry saved in `settings` (on
    another screen, perhaps) is clamped to it."""
    available = window.screen().availableGeometry()
    window.setMinimumSize(minimum_size(available))
    saved = settings.value(GEOMETRY_KEY)
    if isinstance(saved, QByteArray) and not saved.isEmpty() and window.restoreGeometry(saved):
        window.setGeometry(clamp_geometry(window.geometry(), available))
    else:
        window.setGeometry(first_geometry(available))


def keep_on_screen(window: QWidget) -> None:
    """Keep the framed `window` inside its screen's available area (once the window manager framed it);
    a maximized, full-screen or hidden window is left alone."""
    if window.isMaximized() or window.isFullScreen() or not window.isVisible():
        return
    available = window.screen().availableGeometry()
    frame = frame_of(window.frameGeometry(), window.geometry())
    window.setMinimumSize(minimum_size(available, frame))
    fitted = clamp_geometry(window.geometry(), available, frame)
    if fitted != window.geometry():
        window.setGeometry(fitted)


def save_geometry(window: QWidget, settings: QSettings) -> None:
    """Keep `window`'s geometry in `settings`, for restore_geometry at the next start."""
    settings.setValue(GEOMETRY_KEY, window.saveGeometry())
