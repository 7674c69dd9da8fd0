"""Line icons drawn in the theme's text colour (back, forward, reload), so they stay visible in the dark
theme where the style's standard pixmaps are black on near-black; redrawn when the theme changes."""

from __future__ import annotations

import math

from PySide6.QtCore import QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QAction, QColor, QIcon, QPainter, QPainterPath, QPen, QPixmap
from PySide6.QtWidgets import QAbstractButton

from gpu_tpu_app.ui.shell.theme import theme_manager

NAMES = ("back", "forward", "reload")


def _path(name: str, s: float) -> QPainterPath:
    p = QPainterPath()
    if name in ("back", "forward"):
        y = s / 2
        tip, tail = (s * 0.2, s * 0.8) if name == "back" else (s * 0.8, s * 0.2)
        head = s * 0.28 * (1 if name == "back" else -1)
        p.moveTo(tail, y)
        p.lineTo(tip, y)
        p.moveTo(tip + head, y - abs(head))
        p.lineTo(tip, y)
        p.lineTo(tip + head, y + abs(head))
    elif name == "reload":
        r = s * 0.3
        c = QPointF(s / 2, s / 2)
        p.arcMoveTo(QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r), 60)
        p.arcTo(QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r), 60, 300)
        end = QPointF(c.x() + r * math.cos(math.radians(60)), c.y() - r * math.sin(math.radians(60)))
        p.moveTo(end.x() - s * 0.16, end.y() - s * 0.04)
        p.lineTo(end)
        p.lineTo(end.x() - s * 0.02, end.y() + s * 0.16)
    else:
        raise ValueError(f"no icon named {name!r} (choose from {', '.join(NAMES)})")
    return p


def line_icon(name: str, color: QColor, size: int = 32) -> QIcon:
    """`name` ('back', 'forward', 'reload') stroked in `color` on a transparent square; a greyed copy for
    the disabled state."""
    icon = QIcon()
    for mode, alpha in ((QIcon.Mode.Normal, 255), (QIcon.Mode.Disabled, 110)):
        pix = QPixmap(size, size)
        pix.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pix)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        c = QColor(color)
        c.setAlpha(alpha)
        pen = QPen(c, size * 0.1)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.setPen(pen)
        painter.drawPath(_path(name, size))
        painter.end()
        icon.addPixmap(pix, mode)
    return icon


class _Themed(QObject):
    """Keeps one action's or button's icon in the theme's text colour; goes with its target."""

    def __init__(self, target: QAction | QAbstractButton, name: str) -> None:
        super().__init__(target)
        self._target = target
        self._name = name
        self.refresh()
        theme_manager().sig_theme_changed.connect(self.refresh)

    def refresh(self, *_args: object) -> None:
        self._target.setIcon(line_icon(self._name, theme_manager().color("foreground")))


def set_themed_icon(target: QAction | QAbstractButton, name: str) -> None:
    """Give `target` the line icon `name`, redrawn in the text colour whenever the theme changes."""
    _Themed(target, name)
