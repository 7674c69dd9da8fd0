"""The window in Simplified Chinese: the QTranslators (the window's .qm files and Qt's own qtbase_zh_CN.qm),
the language chosen from --lang, the preference or the locale, the About box, and the restart message."""

from __future__ import annotations

import argparse
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QLocale
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QMessageBox

from gpu_tpu_app import i18n, qm
from gpu_tpu_app.core.settings import Preferences
from gpu_tpu_app.ui.shell import app as ui_app
from gpu_tpu_app.ui.shell import translations
from gpu_tpu_app.ui.shell.about import about_html
from gpu_tpu_app.ui.shell.main_window import MainWindow


@pytest.fixture
def english_after(qapp: QApplication) -> Iterator[QApplication]:
    """Whatever a test switches to, the next one starts in English again."""
    yield qapp
    translations.install(qapp, "en")
    i18n.set_language("en")
    os.environ[i18n.LANG_ENV] = "en"


def test_chinese_installs_the_window_files_and_qts_own(english_after: QApplication) -> None:
    loaded = translations.install(english_after, "zh-Hans")
    names = [p.name for p in loaded]
    assert "qtbase_zh_CN.qm" in names
    assert set(translations.window_qm_files("zh-Hans")) <= set(loaded)
    assert "gpu_tpu_app_shell.zh_CN.qm" in names
    assert QLocale().name() == "zh_CN"
    # Qt's own words (standard buttons) and the window's
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    assert sorted(b.text() for b in buttons.buttons()) == sorted(["确定", "取消"])
    assert QCoreApplication.translate("About", "Language") == "语言"
    # back to English: every translator removed
    assert translations.install(english_after, "en") == []
    assert translations.installed() == []
    assert QCoreApplication.translate("About", "Language") == "Language"
    assert QLocale().name() == "en_US"


def test_about_box_speaks_the_language_in_use(english_after: QApplication) -> None:
    english = about_html([])
    assert "no probe run yet" in english and "English" in english
    i18n.set_language("zh-Hans")
    translations.install(english_after, "zh-Hans")
    chinese = about_html([])
    assert "尚无探测运行" in chinese and "简体中文" in chinese and "工坊" in chinese and "流水线" in chinese
    assert "no probe run yet" not in chinese


def test_the_window_starts_in_the_language_of_lang_then_the_preference_then_the_locale(
    english_after: QApplication, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(translations, "_system_language", None)
    monkeypatch.setenv(i18n.LANG_ENV, "zh-Hans")  # the environment asks for Chinese
    assert translations.choose("system") == "zh-Hans"
    assert translations.choose("en") == "en"  # the saved preference wins over the environment
    assert os.environ[i18n.LANG_ENV] == "en"  # and the workers the window starts inherit it
    assert translations.choose("en", requested="zh-Hans") == "zh-Hans"  # --lang wins over both
    assert translations.language_for("system") == "zh-Hans"  # the environment as it was at start
    shot = tmp_path / "about.png"
    args = argparse.Namespace(screenshot=str(shot), page="welcome", session=None, results=None, lang="zh-Hans")
    assert ui_app.main(args) == 0 and shot.stat().st_size > 0
    assert i18n.current_language() == "zh-Hans" and os.environ[i18n.LANG_ENV] == "zh-Hans"
    assert any(p.name == "qtbase_zh_CN.qm" for p in (Path(t.filePath()) for t in translations.installed()))


def test_choosing_another_language_says_it_applies_at_the_next_start_in_that_language(
    english_after: QApplication, qtbot, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[QMessageBox] = []
    monkeypatch.setattr(QMessageBox, "open", lambda box: opened.append(box))
    window = MainWindow(Preferences(), persist=False)
    qtbot.addWidget(window)
    window.set_preferences(Preferences(theme="dark"))  # no language change: no message
    assert opened == []
    window.set_preferences(Preferences(language="zh-Hans"))
    assert len(opened) == 1
    assert opened[0].windowTitle() == "语言已更改"
    assert "简体中文" in opened[0].text() and "下次启动" in opened[0].text()
    window.set_preferences(Preferences(language="zh-Hans", theme="light"))  # unchanged language: no second one
    assert len(opened) == 1
    window.set_preferences(Preferences(language="en"))  # back to the language in use: nothing to restart for
    assert len(opened) == 1


def test_a_ts_edited_after_its_qm_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shipped = translations.qm_folder() / "gpu_tpu_app_shell.zh_CN.ts"
    ts = tmp_path / shipped.name
    shutil.copy(shipped, ts)
    monkeypatch.setattr(translations, "qm_folder", lambda: tmp_path)
    assert translations.problems("zh-Hans") == [
        "gpu_tpu_app_shell.zh_CN.qm has not been compiled from gpu_tpu_app_shell.zh_CN.ts: run `make translations`"
    ]
    assert qm.build_stale(tmp_path) == [tmp_path / "gpu_tpu_app_shell.zh_CN.qm"]
    assert translations.problems("zh-Hans") == [] and qm.stale(tmp_path) == []
    later = time.time() + 5
    os.utime(ts, (later, later))  # a developer edits the .ts
    assert translations.problems("zh-Hans") == [
        "gpu_tpu_app_shell.zh_CN.qm is older than gpu_tpu_app_shell.zh_CN.ts: run `make translations`"
    ]
    assert translations.problems("en") == []
