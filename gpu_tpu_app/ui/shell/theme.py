"""Light and dark themes for the whole window, charts included.

`theme_manager()` returns the one ThemeManager: `apply(mode)` ("system" follows the desktop
live, or "light" / "dark"), `colors()` for painting, and `sig_theme_changed` to redraw on.
"""

from __future__ import annotations

from typing import Literal

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

Mode = Literal["system", "light", "dark"]

LIGHT: dict[str, str] = {
    "background": "#f4f5f8",
    "surface": "#ffffff",
    "foreground": "#1c2230",
    "muted": "#5a6376",
    "border": "#d5d9e1",
    "accent": "#4f46c8",
    "accent_text": "#ffffff",
    "gpu": "#1f8a4c",
    "tpu": "#2f66d0",
    "grid": "#dde1e8",
    "warning": "#7a4300",  # 4.5:1 also on the warning tint of a flagged table row, thin glyphs included
    "error": "#c0262d",
    "ok": "#2a7a36",
    "selection": "#e4e2fb",
    "scroll": "#7d8596",  # scroll bar thumb: 3:1 against the background, as WCAG asks of controls
}

DARK: dict[str, str] = {
    "background": "#17191e",
    "surface": "#21242b",
    "foreground": "#e7e9ee",
    "muted": "#9ba3b3",
    "border": "#373b45",
    "accent": "#9a93ff",
    "accent_text": "#14161b",
    "gpu": "#4cc884",
    "tpu": "#74a2ff",
    "grid": "#33373f",
    "warning": "#f2a641",
    "error": "#ff7474",
    "ok": "#62d08a",
    "selection": "#34325a",
    "scroll": "#6b7384",
}

PALETTES: dict[str, dict[str, str]] = {"light": LIGHT, "dark": DARK}


def _qss(c: dict[str, str]) -> str:
    """Style sheet for the few widgets that need more than the palette (by object name or property)."""
    return f"""
QWidget#NavBar {{ background: {c["surface"]}; border-right: 1px solid {c["border"]}; }}
QLabel#AppTitle {{ font-size: 15px; font-weight: 600; padding: 14px 16px 2px 16px; }}
QLabel#AppSubtitle {{ color: {c["muted"]}; padding: 0 16px 10px 16px; }}
QListWidget#NavList {{ background: transparent; border: none; outline: none; font-size: 14px; }}
QListWidget#NavList::item {{ padding: 9px 14px; margin: 2px 8px; border-radius: 6px; color: {c["foreground"]}; }}
QListWidget#NavList::item:hover {{ background: {c["selection"]}; }}
QListWidget#NavList::item:selected {{ background: {c["accent"]}; color: {c["accent_text"]}; }}
QFrame[card="true"] {{ background: {c["surface"]}; border: 1px solid {c["border"]}; border-radius: 8px; }}
QFrame[card="blocker"] {{ background: {c["surface"]}; border: 1px solid {c["warning"]};
    border-left: 5px solid {c["warning"]}; border-radius: 6px; }}
QLabel[role="title"] {{ font-size: 20px; font-weight: 600; }}
QLabel[role="heading"] {{ font-size: 14px; font-weight: 600; }}
QLabel[role="muted"], QRadioButton[role="muted"] {{ color: {c["muted"]}; }}
QLabel[role="warning"] {{ color: {c["warning"]}; font-weight: 600; }}
QLabel[role="error"] {{ color: {c["error"]}; }}
QLabel[role="measured"] {{ color: {c["ok"]}; font-weight: 600; }}
QLabel[lean="gpu"] {{ color: {c["gpu"]}; font-weight: 600; }}
QLabel[lean="tpu"] {{ color: {c["tpu"]}; font-weight: 600; }}
QLabel[step="done"] {{ color: {c["foreground"]}; }}
QLabel[step="todo"] {{ color: {c["muted"]}; }}
QLabel[step="current"] {{ color: {c["accent_text"]}; background: {c["accent"]}; border-radius: 10px;
    padding: 2px 8px; font-weight: 600; }}
QPushButton[link="true"] {{ border: 2px solid transparent; background: transparent; color: {c["accent"]};
    text-decoration: underline; text-align: left; padding: 0 1px; border-radius: 3px; }}
QPushButton[link="true"]:focus {{ background: {c["selection"]}; border-color: {c["accent"]}; }}
QPushButton[link="true"]:hover {{ color: {c["foreground"]}; }}
QRadioButton {{ spacing: 8px; padding: 0 1px; border: 2px solid transparent; border-radius: 4px; }}
QCheckBox {{ border: 2px solid transparent; border-radius: 4px; }}
QCheckBox:focus {{ border-color: {c["accent"]}; background: {c["selection"]}; }}
QRadioButton::indicator {{ width: 12px; height: 12px; border-radius: 7px; border: 1px solid {c["muted"]};
    background: {c["surface"]}; }}
QRadioButton::indicator:hover {{ border-color: {c["accent"]}; }}
QRadioButton::indicator:checked {{ border: 1px solid {c["accent"]}; background: qradialgradient(cx:0.5, cy:0.5,
    radius:0.5, fx:0.5, fy:0.5, stop:0 {c["accent"]}, stop:0.55 {c["accent"]}, stop:0.65 {c["surface"]},
    stop:1 {c["surface"]}); }}
QRadioButton:focus {{ background: {c["selection"]}; border-color: {c["accent"]}; }}
QScrollArea#PageScroll {{ background: transparent; border: none; }}
QWidget#PageBody {{ background: transparent; }}
QTableWidget {{ gridline-color: {c["grid"]}; }}
QFrame[card="notice"] {{ background: {c["surface"]}; border-bottom: 2px solid {c["ok"]}; }}
QPushButton:default {{ background: {c["accent"]}; color: {c["accent_text"]}; border: 1px solid {c["accent"]};
    border-radius: 4px; padding: 4px 12px; }}
QPushButton:default:disabled {{ background: {c["border"]}; color: {c["muted"]}; border-color: {c["border"]}; }}
QPushButton:default:focus {{ border: 2px solid {c["foreground"]}; }}
QScrollBar:vertical {{ background: {c["background"]}; width: 12px; margin: 0; }}
QScrollBar:horizontal {{ background: {c["background"]}; height: 12px; margin: 0; }}
QScrollBar::handle:vertical {{ background: {c["scroll"]}; min-height: 28px; border-radius: 4px; margin: 2px; }}
QScrollBar::handle:horizontal {{ background: {c["scroll"]}; min-width: 28px; border-radius: 4px; margin: 2px; }}
QScrollBar::handle:hover {{ background: {c["muted"]}; }}
QScrollBar::add-line, QScrollBar::sub-line {{ width: 0; height: 0; border: none; background: none; }}
QScrollBar::add-page, QScrollBar::sub-page {{ background: none; }}
"""


class ThemeManager(QObject):
    """Holds the chosen mode, resolves 'system' to light or dark, and applies palette and style."""

    sig_theme_changed = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self._mode: Mode = "system"
        self._current = "light"
        self._applied = False
        self._watching = False

    def mode(self) -> Mode:
        """The mode the user chose: system, light or dark."""
        return self._mode

    def current(self) -> str:
        """The theme in use now: 'light' or 'dark'."""
        return self._current

    def colors(self) -> dict[str, str]:
        """Named colours of the current theme, as '#rrggbb' strings."""
        return dict(PALETTES[self._current])

    def color(self, name: str) -> QColor:
        """One named colour as a QColor."""
        return QColor(PALETTES[self._current][name])

    @staticmethod
    def system_scheme() -> str:
        """'dark' when the desktop asks for dark colours, else 'light'."""
        app = QGuiApplication.instance()
        if app is None:
            return "light"
        scheme = QGuiApplication.styleHints().colorScheme()
        return "dark" if scheme == Qt.ColorScheme.Dark else "light"

    def apply(self, mode: Mode = "system") -> None:
        """Use `mode` from now on; when the resolved theme changes (or on the first call), installs palette and
        style sheet and emits sig_theme_changed. The same theme again changes nothing."""
        if mode not in ("system", "light", "dark"):
            raise ValueError(f"theme mode must be system, light or dark, not {mode!r}")
        self._mode = mode
        if not self._watching and QGuiApplication.instance() is not None:
            QGuiApplication.styleHints().colorSchemeChanged.connect(self._on_system_scheme)
            self._watching = True
        resolved = self.system_scheme() if mode == "system" else mode
        changed = resolved != self._current or not self._applied
        self._current = resolved
        if changed:
            # Re-styling walks every live widget: only when the theme really changes.
            self._install()
            self.sig_theme_changed.emit(resolved)

    def _on_system_scheme(self, *_args: object) -> None:
        if self._mode == "system":
            self.apply("system")

    def _install(self) -> None:
        app = QApplication.instance()
        if not isinstance(app, QApplication):
            return
        if not self._applied:
            app.setStyle("Fusion")
        self._applied = True
        c = PALETTES[self._current]
        app.setPalette(_palette(c))
        app.setStyleSheet(_qss(c))


def _palette(c: dict[str, str]) -> QPalette:
    pal = QPalette()
    role = QPalette.ColorRole
    pairs = {
        role.Window: c["background"],
        role.WindowText: c["foreground"],
        role.Base: c["surface"],
        role.AlternateBase: c["background"],
        role.ToolTipBase: c["surface"],
        role.ToolTipText: c["foreground"],
        role.PlaceholderText: c["muted"],
        role.Text: c["foreground"],
        role.Button: c["surface"],
        role.ButtonText: c["foreground"],
        role.BrightText: c["error"],
        role.Highlight: c["accent"],
        role.HighlightedText: c["accent_text"],
        role.Link: c["accent"],
        role.LinkVisited: c["accent"],
        role.Light: c["surface"],
        role.Midlight: c["border"],
        role.Mid: c["border"],
        role.Dark: c["muted"],
        role.Shadow: c["border"],
    }
    for r, value in pairs.items():
        pal.setColor(r, QColor(value))
    muted = QColor(c["muted"])
    for r in (role.WindowText, role.Text, role.ButtonText):
        pal.setColor(QPalette.ColorGroup.Disabled, r, muted)
    return pal


_MANAGER: ThemeManager | None = None


def theme_manager() -> ThemeManager:
    """The one ThemeManager of this process."""
    global _MANAGER
    if _MANAGER is None:
        _MANAGER = ThemeManager()
    return _MANAGER
