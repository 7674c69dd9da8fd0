"""Keyboard focus is visible beyond a change of colour, in both themes: a focused choice, check box and link
button draw a ring (a 2-px frame in the accent colour) around themselves; unfocused, none."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QCheckBox, QPushButton, QRadioButton, QVBoxLayout, QWidget

from gpu_tpu_app.ui.shell.theme import theme_manager
from gpu_tpu_app.ui.shell.widgets import set_role


def _ring_share(image: QImage, color: QColor) -> float:
    """The share of the image's outermost pixels (its four edges, one pixel in) drawn near `color`."""
    w, h = image.width(), image.height()
    edge = [(x, 1) for x in range(2, w - 2)] + [(x, h - 2) for x in range(2, w - 2)]
    edge += [(1, y) for y in range(2, h - 2)] + [(w - 2, y) for y in range(2, h - 2)]

    def near(px: QColor) -> bool:
        return abs(px.red() - color.red()) + abs(px.green() - color.green()) + abs(px.blue() - color.blue()) < 60

    return sum(near(image.pixelColor(x, y)) for x, y in edge) / len(edge)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_focused_control_draws_a_ring_in_both_themes(qtbot, theme: str) -> None:
    theme_manager().apply(theme)
    accent = theme_manager().color("accent")
    box = QWidget()
    qtbot.addWidget(box)
    link = QPushButton("Learn more")
    set_role(link, "link", "true")
    controls = [QRadioButton("Training"), QCheckBox("torch"), link]
    layout = QVBoxLayout(box)
    for c in controls:
        layout.addWidget(c)
    box.show()
    box.activateWindow()
    qtbot.waitUntil(box.isActiveWindow)
    for control in controls:
        box.setFocus()
        qtbot.wait(5)
        assert not control.hasFocus()
        unfocused = _ring_share(control.grab().toImage(), accent)
        control.setFocus()
        qtbot.wait(5)
        assert control.hasFocus()
        focused = _ring_share(control.grab().toImage(), accent)
        assert focused > 0.8 and unfocused < 0.2, (type(control).__name__, theme, focused, unfocused)
