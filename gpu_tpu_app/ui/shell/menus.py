"""The window's File / View / Help menus and their actions.

`WindowMenus` builds the menu bar of the main window and holds its actions; what the actions do
is the `MenuView` protocol (MainWindow implements it), so this module does not import the window.
The window's Back / Forward (`BackForward`) is made here, between the page and Help actions, so
the shortcuts list keeps menu order. Its words go through `self.tr` (context "WindowMenus").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from gpu_tpu_app import APP_NAME
from gpu_tpu_app.ui.shell.back_forward import BackForward, PlaceView
from gpu_tpu_app.ui.shell.nav_column import PAGES
from gpu_tpu_app.ui.shell.price_files import PriceFiles


class MenuView(PlaceView, Protocol):
    """What the menu actions do in the window."""

    def new_session(self) -> bool: ...
    def open_session(self, path: str | Path | None = None) -> bool: ...
    def save(self) -> bool: ...
    def save_as(self, path: str | Path | None = None) -> bool: ...
    def import_run(self, path: str | Path | None = None) -> bool: ...
    def export_report(self) -> None: ...
    def edit_preferences(self) -> None: ...
    def set_theme(self, mode: str) -> None: ...
    def show_guide(self) -> None: ...
    def show_shortcuts(self) -> None: ...
    def about(self) -> None: ...


class WindowMenus(QObject):
    """The menu bar of `parent` (the main window): its actions, and Back / Forward.

    `view` does what the actions ask (it is the main window too); `recent_menu` is File › Open Recent;
    `prices` imports price catalogues; `theme` is the checked View › Theme entry.
    """

    def __init__(self, view: MenuView, parent: QMainWindow, recent_menu: QMenu, prices: PriceFiles, theme: str) -> None:
        super().__init__(parent)
        self._parent = parent
        bar = parent.menuBar()
        file_menu = bar.addMenu(self.tr("&File"))
        self.act_new = self._action(
            self.tr("&New"), view.new_session, QKeySequence.StandardKey.New, self.tr("Start a new session")
        )
        self.act_open = self._action(
            self.tr("&Open…"),
            lambda: view.open_session(),
            QKeySequence.StandardKey.Open,
            self.tr("Open a saved session"),
        )
        self.act_save = self._action(
            self.tr("&Save"), lambda: view.save(), QKeySequence.StandardKey.Save, self.tr("Save the session")
        )
        self.act_save_as = self._action(
            self.tr("Save &As…"), lambda: view.save_as(), "Ctrl+Shift+S", self.tr("Save the session under a new name")
        )
        self.act_import = self._action(
            self.tr("&Import Run…"),
            lambda: view.import_run(),
            "Ctrl+I",
            self.tr("Add a probe run file measured here or elsewhere"),
        )
        self.act_import_prices = self._action(
            self.tr("Import &Prices…"),
            lambda: prices.import_prices(),
            None,
            self.tr("Add a SkyPilot or gpuhunt price catalogue from this machine (nothing is downloaded)"),
        )
        self.act_export = self._action(
            self.tr("&Export Report…"),
            view.export_report,
            "Ctrl+E",
            self.tr("Save the recommendation as Markdown, HTML or PDF"),
        )
        prefs_key = QKeySequence(QKeySequence.StandardKey.Preferences)
        self.act_prefs = self._action(
            self.tr("&Preferences…"), view.edit_preferences, prefs_key if not prefs_key.isEmpty() else "Ctrl+,"
        )
        self.act_prefs.setMenuRole(QAction.MenuRole.PreferencesRole)
        self.act_quit = self._action(self.tr("&Quit"), parent.close, QKeySequence.StandardKey.Quit)
        self.act_quit.setMenuRole(QAction.MenuRole.QuitRole)
        file_menu.addActions([self.act_new, self.act_open])
        file_menu.addMenu(recent_menu)
        file_menu.addActions([self.act_save, self.act_save_as])
        file_menu.addSeparator()
        file_menu.addActions([self.act_import, self.act_import_prices, self.act_export])
        file_menu.addSeparator()
        file_menu.addAction(self.act_prefs)
        file_menu.addSeparator()
        file_menu.addAction(self.act_quit)

        view_menu = bar.addMenu(self.tr("&View"))
        self.page_actions: dict[str, QAction] = {}
        page_texts = {"decide": self.tr("&Decide"), "probe": self.tr("&Probe"), "learn": self.tr("&Learn")}
        for i, name in enumerate(PAGES, 1):
            act = self._action(page_texts[name], lambda _c=False, n=name: view.show_page(n), f"Ctrl+{i}")
            view_menu.addAction(act)
            self.page_actions[name] = act
        view_menu.addSeparator()
        theme_menu = view_menu.addMenu(self.tr("&Theme"))
        self.theme_group = QActionGroup(parent)
        self.theme_actions: dict[str, QAction] = {}
        for mode, text in (
            ("system", self.tr("Follow &system")),
            ("light", self.tr("&Light")),
            ("dark", self.tr("&Dark")),
        ):
            act = QAction(text, parent, checkable=True)
            act.setChecked(mode == theme)
            act.triggered.connect(lambda _c=False, m=mode: view.set_theme(m))
            self.theme_group.addAction(act)
            theme_menu.addAction(act)
            self.theme_actions[mode] = act

        view_menu.addSeparator()
        self.back_forward = BackForward(view, parent)
        view_menu.addActions([self.back_forward.act_back, self.back_forward.act_forward])

        help_menu = bar.addMenu(self.tr("&Help"))
        self.act_guide = self._action(
            self.tr("&User Guide"),
            view.show_guide,
            QKeySequence.StandardKey.HelpContents,
            self.tr("How to use the app"),
        )
        self.act_shortcuts = self._action(
            self.tr("&Keyboard Shortcuts"), view.show_shortcuts, "Ctrl+/", self.tr("Every shortcut of the window")
        )
        self.act_welcome = self._action(
            self.tr("&Welcome"), view.show_welcome, tip=self.tr("What Decide, Probe and Learn do")
        )
        self.act_about = self._action(self.tr("&About {app}").format(app=APP_NAME), view.about)
        self.act_about.setMenuRole(QAction.MenuRole.AboutRole)
        help_menu.addActions([self.act_guide, self.act_shortcuts, self.act_welcome])
        help_menu.addSeparator()
        help_menu.addAction(self.act_about)

    def _action(
        self, text: str, slot: Any, shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None, tip: str = ""
    ) -> QAction:
        act = QAction(text, self._parent)  # the window's child: the shortcuts list finds it there
        act.triggered.connect(slot)
        if shortcut is not None:
            act.setShortcut(QKeySequence(shortcut))
        if tip:
            act.setStatusTip(tip)
        return act
