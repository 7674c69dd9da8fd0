"""Small building blocks the Decide pages share: cards, labels with roles, scrollable page bodies."""

from __future__ import annotations

import html
import math

from PySide6 import QtGui
from PySide6.QtCore import QCoreApplication, QPointF, QRect, QSize, Qt
from PySide6.QtGui import QFontMetricsF, QIcon, QKeyEvent, QPainter, QPaintEvent, QPalette, QPolygonF, QResizeEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QFrame,
    QLabel,
    QLayout,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QStyle,
    QStyleOptionToolButton,
    QStylePainter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)


def set_role(widget: QWidget, name: str, value: str) -> None:
    """Set a style-sheet property (role, lean, step, card) and re-polish so it takes effect now."""
    widget.setProperty(name, value)
    style = widget.style()
    style.unpolish(widget)
    style.polish(widget)


def label(text: str = "", role: str | None = None, wrap: bool = True, rich: bool = False) -> QLabel:
    """A QLabel with an optional style role (title, heading, muted, warning, error)."""
    lab = QLabel(text)
    lab.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
    lab.setWordWrap(wrap)
    if role:
        lab.setProperty("role", role)
    return lab


def message_box(
    parent: QWidget | None,
    icon: QMessageBox.Icon,
    title: str,
    text: str,
    buttons: QMessageBox.StandardButton = QMessageBox.StandardButton.Ok,
    default: QMessageBox.StandardButton = QMessageBox.StandardButton.NoButton,
) -> QMessageBox:
    """A message box whose text is plain text: names and contents of files are never read as HTML."""
    box = QMessageBox(icon, title, text, buttons, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    if default != QMessageBox.StandardButton.NoButton:
        box.setDefaultButton(default)
    return box


def show_error(parent: QWidget | None, title: str, text: str) -> None:
    """A modal error dialog with `text` as plain text."""
    message_box(parent, QMessageBox.Icon.Critical, title, text).exec()


def plain_tip(text: str) -> str:
    """A tooltip that shows `text` as it is: Qt would render text that looks like HTML, so escape it."""
    if not QtGui.Qt.mightBeRichText(text):
        return text
    return "<qt>" + html.escape(text, quote=False).replace("\n", "<br>") + "</qt>"


def link_label(html_text: str, parent: QWidget | None = None) -> QLabel:
    """A rich-text label whose links are reachable with Tab and followed with Enter; emits linkActivated."""
    lab = QLabel(html_text, parent)
    lab.setTextFormat(Qt.TextFormat.RichText)
    lab.setWordWrap(True)
    lab.setOpenExternalLinks(False)
    lab.setTextInteractionFlags(
        Qt.TextInteractionFlag.LinksAccessibleByMouse | Qt.TextInteractionFlag.LinksAccessibleByKeyboard
    )
    lab.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    return lab


class LinkButton(QPushButton):
    """A button that looks like a link: one Tab stop, activated by click, Space or Enter."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setProperty("link", "true")
        self.setFlat(True)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.click()
            event.accept()
            return
        super().keyPressEvent(event)


def anchor(href: str, text: str) -> str:
    """An <a> element with escaped text."""
    return f'<a href="{html.escape(href, quote=True)}">{html.escape(text)}</a>'


class Card(QFrame):
    """A framed panel with an optional heading; kind 'true' (plain) or 'blocker' (warning border)."""

    def __init__(self, title: str | None = None, kind: str = "true", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setProperty("card", kind)
        self.body = QVBoxLayout(self)
        self.body.setContentsMargins(16, 12, 16, 14)
        self.body.setSpacing(8)
        self.heading: QLabel | None = None
        if title:
            self.heading = label(title, "heading", wrap=False)
            self.body.addWidget(self.heading)


def scroll_page(body: QWidget) -> QScrollArea:
    """Wrap a page body in a frameless vertical scroll area."""
    area = QScrollArea()
    area.setObjectName("PageScroll")
    area.setAccessibleName(QCoreApplication.translate("Widgets", "Page content"))
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    body.setObjectName("PageBody")
    area.setWidget(body)
    return area


def clear_layout(layout: QLayout) -> None:
    """Remove and delete every item of a layout (widgets and nested layouts)."""
    while layout.count():
        item = layout.takeAt(0)
        if item is None:
            break
        widget, child = item.widget(), item.layout()
        if widget is not None:
            widget.setParent(None)
            widget.deleteLater()
        elif child is not None:
            clear_layout(child)


class WrapBar(QWidget):
    """A tool bar of two groups side by side that puts the second group under the first when the
    window is too narrow for both, so no button is ever squeezed below its text."""

    def __init__(self, first: QBoxLayout, second: QBoxLayout, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.first = QWidget()
        self.first.setLayout(first)
        self.second = QWidget()
        self.second.setLayout(second)
        for group in (first, second):
            group.setContentsMargins(0, 0, 0, 0)
            for i in range(group.count()):
                item = group.itemAt(i)
                w = item.widget() if item is not None else None
                if w is not None:  # a button never gets narrower than its text (and icon), whatever it says
                    w.setSizePolicy(QSizePolicy.Policy.Minimum, w.sizePolicy().verticalPolicy())
        first.addStretch(1)  # wrapped, the first row keeps its widgets together on the left
        self.box = QBoxLayout(QBoxLayout.Direction.LeftToRight, self)
        self.box.setContentsMargins(0, 0, 0, 0)
        self.box.addWidget(self.first)
        self.box.addWidget(self.second, 1)

    def wide_enough(self, width: int) -> bool:
        """Whether both groups fit side by side in `width` pixels."""
        return width >= self.first.sizeHint().width() + self.second.sizeHint().width() + self.box.spacing()

    def wrapped(self) -> bool:
        """True while the second group sits under the first."""
        return self.box.direction() == QBoxLayout.Direction.TopToBottom

    def minimumSizeHint(self) -> QSize:
        """As narrow as the wider group: below the width of both, the bar wraps."""
        hint = super().minimumSizeHint()
        return QSize(max(self.first.minimumSizeHint().width(), self.second.minimumSizeHint().width()), hint.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        direction = (
            QBoxLayout.Direction.LeftToRight
            if self.wide_enough(event.size().width())
            else QBoxLayout.Direction.TopToBottom
        )
        if direction != self.box.direction():
            self.box.setDirection(direction)
        super().resizeEvent(event)


class MenuButton(QToolButton):
    """A button that opens a menu, its small down arrow drawn beside its words and never over them (Qt's own
    menu indicator, with or without a style sheet, sat over the end of the text in some styles and languages).
    `text_rect()` and `arrow_rect()` say where each goes; the button is never narrower than both side by side."""

    PAD_LEFT = 5
    GAP = 3
    ARROW_W = 7
    ARROW_H = 4
    PAD_RIGHT = 4

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setText(text)
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)

    def shown_text(self) -> str:
        """The words as drawn: a mnemonic's single '&' takes no room, '&&' is one '&'."""
        return self.text().replace("&&", "\0").replace("&", "").replace("\0", "&")

    def text_width(self) -> int:
        """The width of the words as drawn, rounded up (a fraction of a pixel short elides them)."""
        return math.ceil(QFontMetricsF(self.font()).horizontalAdvance(self.shown_text()))

    def sizeHint(self) -> QSize:
        height = super().sizeHint().height()
        return QSize(self.PAD_LEFT + self.text_width() + self.GAP + self.ARROW_W + self.PAD_RIGHT, height)

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def arrow_rect(self) -> QRect:
        """Where the down arrow is drawn: at the right edge, centred in height."""
        return QRect(
            self.width() - self.PAD_RIGHT - self.ARROW_W,
            (self.height() - self.ARROW_H) // 2,
            self.ARROW_W,
            self.ARROW_H,
        )

    def text_rect(self) -> QRect:
        """Where the words are drawn: left of the arrow, a gap between them."""
        right = self.arrow_rect().left() - self.GAP
        return QRect(self.PAD_LEFT, 0, max(0, right - self.PAD_LEFT), self.height())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QStylePainter(self)
        option = QStyleOptionToolButton()
        self.initStyleOption(option)
        # the frame and background as the style draws them, without its text or its menu arrow
        option.features &= ~QStyleOptionToolButton.ToolButtonFeature.HasMenu
        option.text = ""
        option.icon = QIcon()
        painter.drawComplexControl(QStyle.ComplexControl.CC_ToolButton, option)
        area = self.text_rect()
        shown = self.text()
        if area.width() < self.text_width():  # squeezed below its size hint: cut with an ellipsis, never overlap
            shown = self.fontMetrics().elidedText(self.shown_text(), Qt.TextElideMode.ElideRight, area.width())
        align = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextShowMnemonic
        painter.drawItemText(area, int(align), self.palette(), self.isEnabled(), shown, QPalette.ColorRole.ButtonText)
        group = QPalette.ColorGroup.Active if self.isEnabled() else QPalette.ColorGroup.Disabled
        arrow = self.arrow_rect()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self.palette().color(group, QPalette.ColorRole.ButtonText))
        painter.drawPolygon(
            QPolygonF(
                [
                    QPointF(arrow.left(), arrow.top()),
                    QPointF(arrow.left() + self.ARROW_W, arrow.top()),
                    QPointF(arrow.left() + self.ARROW_W / 2, arrow.top() + self.ARROW_H),
                ]
            )
        )
        painter.end()
