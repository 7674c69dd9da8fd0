"""Qt's side of the interface language: QTranslators for the window's .qm files and Qt's own.

``install(app, language)`` loads every ``resources/i18n/*.<qt locale>.qm`` of the language (one
per part of the window, built from the .ts files by pyside6-lrelease: see ``gpu_tpu_app.qm``)
and Qt's own ``qtbase_<qt locale>.qm`` from PySide6's translations folder (the standard dialogs'
and buttons' words), and makes that locale QLocale's default. It runs before any window is
built; English needs no translator. Calling it again replaces the translators it installed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from gpu_tpu_app import i18n, qm
from gpu_tpu_app.assets import resource_path

#: the translators installed by install(), kept alive here (Qt does not own them).
_installed: list[QTranslator] = []
#: the language the environment asked for when the window started (before LANG_ENV was set for children).
_system_language: str | None = None


def choose(preference: str, requested: str | None = None) -> str:
    """The window's language: --lang (`requested`), else the saved preference, else ("system") the
    environment's (GPU_TPU_APP_LANG, then the locale). Sets it for this process and its children."""
    global _system_language
    if _system_language is None or os.environ.get(i18n.LANG_ENV) != i18n.current_language():
        _system_language = i18n.language_from_environment()
    language = i18n.set_language(requested or language_for(preference))
    os.environ[i18n.LANG_ENV] = language  # probe and model-check workers, and any command the window starts
    return language


def language_for(preference: str) -> str:
    """The language a Preferences.language value means here: itself, or the environment's for "system"."""
    if preference in i18n.LANGUAGES:
        return preference
    return _system_language or i18n.language_from_environment()


def qm_folder() -> Path:
    """Where the window's .ts and .qm files lie."""
    return resource_path(qm.FOLDER)


def window_qm_files(language: str) -> list[Path]:
    """The window's compiled translations for `language` (none for English)."""
    if language == i18n.DEFAULT_LANGUAGE:
        return []
    locale = i18n.QT_LOCALE_NAMES[language]
    return sorted(qm_folder().glob(f"*.{locale}.qm"))


def qt_translations_folder() -> Path:
    """PySide6's folder of Qt's own translations (qtbase_zh_CN.qm, ...): where QLibraryInfo says, else (a frozen
    bundle whose Qt prefix points elsewhere) PySide6/Qt/translations beside the PySide6 package."""
    told = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))
    if any(told.glob("qtbase_*.qm")):
        return told
    import PySide6

    beside = Path(PySide6.__file__).parent / "Qt" / "translations"
    return beside if any(beside.glob("qtbase_*.qm")) else told


def problems(language: str) -> list[str]:
    """What keeps `language` from showing in full: a .ts not compiled, or compiled before its last edit."""
    if language == i18n.DEFAULT_LANGUAGE:
        return []
    locale = i18n.QT_LOCALE_NAMES[language]
    out = []
    for ts in qm.ts_files(qm_folder()):
        if ts.name.endswith(f".{locale}.ts") and qm.is_stale(ts):
            state = "is older than" if qm.qm_for(ts).is_file() else "has not been compiled from"
            out.append(f"{qm.qm_for(ts).name} {state} {ts.name}: run `make translations`")
    return out


def install(app: QCoreApplication, language: str) -> list[Path]:
    """Install the translators of `language` on `app` and make its locale the default; returns the
    files loaded. A file that does not load is named on stderr; the window shows English there."""
    for old in _installed:
        app.removeTranslator(old)
    _installed.clear()
    QLocale.setDefault(QLocale(i18n.QT_LOCALE_NAMES[language]))
    loaded: list[Path] = []
    if language == i18n.DEFAULT_LANGUAGE:
        return loaded
    for problem in problems(language):
        print(f"warning: {problem}", file=sys.stderr)
    locale = i18n.QT_LOCALE_NAMES[language]
    for path in window_qm_files(language):
        translator = QTranslator(app)
        if translator.load(str(path)):
            _use(app, translator)
            loaded.append(path)
        else:
            print(f"warning: {path}: not a Qt translation file; those words stay in English", file=sys.stderr)
    # Qt's own: qtbase_zh_CN.qm, or the bare language's (qtbase_ja.qm for ja_JP), as QTranslator looks them up
    qt_folder = qt_translations_folder()
    translator = QTranslator(app)
    if translator.load(QLocale(locale), "qtbase", "_", str(qt_folder)):
        _use(app, translator)
        loaded.append(Path(translator.filePath()))
    else:
        print(f"warning: no qtbase_{locale}.qm in {qt_folder}; Qt's own buttons stay in English", file=sys.stderr)
    return loaded


def _use(app: QCoreApplication, translator: QTranslator) -> None:
    app.installTranslator(translator)
    _installed.append(translator)


def installed() -> list[QTranslator]:
    """The translators install() put in place (for tests)."""
    return list(_installed)
