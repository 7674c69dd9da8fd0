"""Screenshots of the Help dialogs and the quit question (`make screenshots` runs it).

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python tools/screenshots/dialogs.py SESSION.json OUT_DIR [LANGUAGE]
Saves guide.png, shortcuts.png, about.png and quit-during-probe.png: each dialog on its own, as the
window shows it, with the session's runs (for the versions in About), in LANGUAGE (en unless given).
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtWidgets import QApplication, QMessageBox, QWidget


def _save(widget: QWidget, path: Path) -> None:
    widget.show()
    for _ in range(4):
        QApplication.processEvents()
    if not widget.grab().save(str(path)):
        raise SystemExit(f"error: {path}: could not save the screenshot")
    widget.hide()


def main(argv: list[str]) -> int:
    session_file, out_dir = Path(argv[0]), Path(argv[1])
    language = argv[2] if len(argv) > 2 else "en"
    app = QApplication([])
    from PySide6.QtCore import QCoreApplication

    from gpu_tpu_app import APP_NAME
    from gpu_tpu_app.core.session import load_session
    from gpu_tpu_app.ui.shell import translations
    from gpu_tpu_app.ui.shell.about import about_html
    from gpu_tpu_app.ui.shell.help import GuideDialog, ShortcutsDialog, shortcut_rows
    from gpu_tpu_app.ui.shell.main_window import MainWindow
    from gpu_tpu_app.ui.shell.theme import theme_manager

    def tr(text: str) -> str:  # the window's own words for its dialogs' titles and question
        return QCoreApplication.translate("MainWindow", text).format(app=APP_NAME)

    translations.install(app, translations.choose("system", language))

    theme_manager().apply("light")
    window = MainWindow(persist=False)
    window.set_session(load_session(session_file))
    window.resize(1280, 800)
    _save(GuideDialog(window), out_dir / "guide.png")
    _save(ShortcutsDialog(shortcut_rows(window.findChildren(type(window.act_back))), window), out_dir / "shortcuts.png")
    about = QMessageBox(
        QMessageBox.Icon.NoIcon,
        tr("About {app}"),
        about_html(list(window.session().runs)),
        QMessageBox.StandardButton.Ok,
        window,
    )
    _save(about, out_dir / "about.png")
    ask = QMessageBox(
        QMessageBox.Icon.Question,
        tr("Quit {app}"),
        tr("A probe is running: stop it and quit?"),
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        window,
    )
    _save(ask, out_dir / "quit-during-probe.png")
    window.shutdown()
    app.processEvents()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
