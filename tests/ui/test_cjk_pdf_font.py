"""The PDF's searchable copy of the Chinese font: which code points go, what the copy keeps, and its cache."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from gpu_tpu_app.ui.result import cjk_pdf_font
from gpu_tpu_app.ui.shell import cjk_text


@pytest.fixture(scope="module")
def system_font(qapp) -> tuple[Path, int, str]:
    family = cjk_text.cjk_family()
    assert family is not None, "no Simplified Chinese font: make system-deps installs fonts-noto-cjk"
    found = cjk_pdf_font.font_file(family, bold=False)
    assert found is not None, "fontconfig (fc-match) does not name the Chinese font's file"
    return found[0], found[1], family


def test_radicals_and_other_twins_of_ideographs_are_dropped_and_nothing_else() -> None:
    best = {
        0x2F2F: "g1",  # ⼯ KANGXI RADICAL WORK, the glyph of 工
        0x5DE5: "g1",  # 工
        0xF900: "g2",  # a compatibility ideograph drawn as 豈
        0x8C48: "g2",  # 豈
        0x2E80: "g3",  # a radical with a glyph of its own: still not an ideograph
        0xF901: "g4",  # a compatibility ideograph with a glyph of its own: kept
        0x41: "A",
        0x20000: "g5",  # an Extension B ideograph
        0x3405: "g6",  # an Extension A ideograph
    }
    assert cjk_pdf_font.shadowing_code_points(best) == {0x2F2F, 0xF900, 0x2E80}


def test_the_copy_maps_each_ideograph_to_its_glyph_and_no_radical(system_font, tmp_path: Path) -> None:
    source, index, family = system_font
    copy = cjk_pdf_font.cached_copy(source, index, family, tmp_path)
    with TTFont(str(source), fontNumber=index, lazy=True) as old, TTFont(str(copy), lazy=True) as new:
        before, after = old.getBestCmap(), new.getBestCmap()
        assert not [cp for cp in after if 0x2E80 <= cp <= 0x2FDF]
        assert any(0x2E80 <= cp <= 0x2FDF for cp in before)  # the system font did map radicals
        ideographs = {cp: g for cp, g in before.items() if cjk_pdf_font.is_unified_ideograph(cp)}
        assert {cp: after[cp] for cp in ideographs} == ideographs  # every ideograph keeps its glyph
        assert before[0x5DE5] == before[0x2F2F] and 0x5DE5 in after  # 工 and ⼯ shared one glyph
        glyph_users: dict[str, list[int]] = {}
        for cp, glyph in after.items():
            glyph_users.setdefault(glyph, []).append(cp)
        shared = [
            cps for cps in glyph_users.values() if len(cps) > 1 and any(map(cjk_pdf_font.is_unified_ideograph, cps))
        ]
        assert all(all(map(cjk_pdf_font.is_unified_ideograph, cps)) for cps in shared), shared[:5]
        assert new["name"].getDebugName(1) == family + cjk_pdf_font.SUFFIX
        assert new["name"].getDebugName(6).endswith("-Searchable")
        for tag in old.reader.tables:  # every other table is the source's bytes, not a recompiled one
            if tag == "head":  # but for the whole file's checksum (bytes 8-11)
                assert new.reader[tag][:8] + new.reader[tag][12:] == old.reader[tag][:8] + old.reader[tag][12:]
            elif tag not in ("cmap", "name"):
                assert new.reader[tag] == old.reader[tag], tag


def test_the_copy_is_made_once_per_source_file_version(system_font, tmp_path: Path) -> None:
    source, index, family = system_font
    local = tmp_path / source.name
    shutil.copyfile(source, local)
    cache = tmp_path / "cache"
    first = cjk_pdf_font.cached_copy(local, index, family, cache)
    made = first.stat().st_mtime_ns
    assert cjk_pdf_font.cached_copy(local, index, family, cache) == first
    assert first.stat().st_mtime_ns == made  # reused, not written again
    os.utime(local, ns=(made, made + 10**9))  # the font package was updated
    second = cjk_pdf_font.cached_copy(local, index, family, cache)
    assert second != first and second.is_file()
    assert [p.name for p in cache.iterdir()] == [second.name]  # the stale copy went; no temporary file is left
    other = tmp_path / "other.ttc"
    shutil.copyfile(source, other)
    third = cjk_pdf_font.cached_copy(other, index, family, cache)
    assert sorted(p.name for p in cache.iterdir()) == sorted([second.name, third.name])  # another file's copy stays


WINDOW_START = r"""
import json, sys
from PySide6.QtWidgets import QApplication
app = QApplication([])
from gpu_tpu_app import i18n
from gpu_tpu_app.core.settings import Preferences
from gpu_tpu_app.ui.shell import translations
from gpu_tpu_app.ui.shell.main_window import MainWindow
i18n.set_language("zh-Hans")
translations.install(app, "zh-Hans")
w = MainWindow(Preferences(default_suite="smoke"), persist=False)
w.show()
app.processEvents()
w.show_result()
app.processEvents()
print(json.dumps(sorted(k for k in sys.modules if k.startswith(("fontTools", "gpu_tpu_app.ui.result.cjk_pdf_font")))))
w.shutdown()
"""


def test_the_window_starts_without_deriving_the_font(tmp_path: Path) -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CACHE_HOME=str(tmp_path))
    proc = subprocess.run(
        [sys.executable, "-c", WINDOW_START], capture_output=True, text=True, env=env, timeout=300, check=False
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == []  # only a Chinese PDF export loads fontTools
    assert not (tmp_path / "gpu-tpu-app" / "pdf-fonts").exists()


def test_the_pdf_registers_the_copy_under_its_own_family(system_font, qapp) -> None:
    _, _, family = system_font
    assert cjk_pdf_font.pdf_family(family) == family + cjk_pdf_font.SUFFIX
    assert cjk_text.body_font(cjk=True, pdf=True).families()[1] == family + cjk_pdf_font.SUFFIX
    assert cjk_text.body_font(cjk=True).families()[1] == family  # the window keeps the system font


def test_without_fontconfig_the_pdf_keeps_the_system_font(monkeypatch: pytest.MonkeyPatch, qapp) -> None:
    monkeypatch.setattr(cjk_pdf_font.shutil, "which", lambda name: None)
    assert cjk_pdf_font.font_file("Noto Sans CJK SC", bold=False) is None
    assert cjk_pdf_font.pdf_family.__wrapped__("Noto Sans CJK SC") == "Noto Sans CJK SC"


def test_an_unreadable_font_keeps_the_system_font(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, qapp) -> None:
    broken = tmp_path / "broken.ttc"
    broken.write_bytes(b"not a font")
    monkeypatch.setattr(cjk_pdf_font, "font_file", lambda family, bold: (broken, 0))
    monkeypatch.setattr(cjk_pdf_font, "cache_dir", lambda: tmp_path / "cache")
    assert cjk_pdf_font.pdf_family.__wrapped__("Noto Sans CJK SC") == "Noto Sans CJK SC"
