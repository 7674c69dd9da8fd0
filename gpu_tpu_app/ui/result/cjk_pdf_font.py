"""A copy of the system's Chinese font whose text the PDF's readers can copy and search.

Noto Sans CJK (and other CJK fonts) map a Kangxi or CJK radical and the unified ideograph it looks like to
one glyph: U+2F2F ⼯ and U+5DE5 工 draw the same shape. Qt's PDF writer writes each glyph's ToUnicode entry by
looking the glyph up in the font's cmap, and picks the radical, so pdftotext, copy and paste and a viewer's
search see ⼯ where the page shows 工 (a search for 工坊 finds nothing). ``pdf_family`` derives, once, a copy of
the font whose cmap keeps a shared glyph only under its unified ideograph: the radical blocks U+2E80-U+2FDF go,
and so does any other code point (compatibility ideographs) that shares a glyph with a unified ideograph. Only
the cmap and the names change; every other table is copied byte for byte (fontTools, lazily: the CFF outlines
are never parsed). The copy sits in the user's cache folder, keyed by the source file's path, size and
modification time (a copy of an older version of the file is removed), written atomically, and is registered with Qt for the PDF only, on the first Chinese PDF
export, never at the window's start. Without fontconfig's ``fc-match``, fontTools, or a readable font file,
the PDF uses the system font as before.
"""

from __future__ import annotations

import functools
import hashlib
import io
import shutil
import subprocess
from pathlib import Path

from PySide6.QtGui import QFontDatabase

from gpu_tpu_app import APP_NAME, atomic

#: the family name the derived copies are registered under: the system family's name with this after it
SUFFIX = " Searchable"
#: bump when the derivation changes, so caches written by an older one are not reused
VERSION = 1
#: code points that are not ideographs but share their glyphs: CJK Radicals Supplement, Kangxi Radicals
RADICALS = range(0x2E80, 0x2FE0)


def is_unified_ideograph(cp: int) -> bool:
    """CJK Unified Ideographs, Extension A, and the Extensions B onwards (planes 2 and 3)."""
    return 0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x3FFFF


def shadowing_code_points(best_cmap: dict[int, str]) -> set[int]:
    """The code points to drop from a cmap so that each glyph a unified ideograph uses maps back to an
    ideograph: the radical blocks, and any other code point that shares a glyph with a unified ideograph."""
    ideograph_glyphs = {glyph for cp, glyph in best_cmap.items() if is_unified_ideograph(cp)}
    return {
        cp
        for cp, glyph in best_cmap.items()
        if cp in RADICALS or (not is_unified_ideograph(cp) and glyph in ideograph_glyphs)
    }


def font_file(family: str, bold: bool) -> tuple[Path, int] | None:
    """The file (and member of a collection) fontconfig draws `family` from, or None without fontconfig."""
    fc_match = shutil.which("fc-match")
    if fc_match is None:
        return None
    pattern = f"{family}:style={'Bold' if bold else 'Regular'}"
    try:
        out = subprocess.run(
            [fc_match, "-f", "%{file}|%{index}|%{family}", pattern],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    path, _, rest = out.partition("|")
    index, _, families = rest.partition("|")
    if family not in families.split(",") or not index.isdigit() or not Path(path).is_file():
        return None  # fontconfig fell back to another family: not the font Qt draws
    return Path(path), int(index)


def cache_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False)) / "pdf-fonts"


def cached_copy(source: Path, index: int, family: str, folder: Path | None = None) -> Path:
    """The derived copy of member `index` of `source`, made now when the cache has none for this file's
    path, size and modification time. Raises OSError or fontTools' errors when the font cannot be read."""
    stat = source.stat()
    key = f"{VERSION}|{source.resolve()}|{index}|{stat.st_size}|{stat.st_mtime_ns}|{family}"
    folder = folder or cache_dir()
    # one copy per source file and member: a copy made from an older version of the file is removed
    prefix = f"{hashlib.sha256(f'{source.resolve()}|{index}'.encode()).hexdigest()[:12]}-"
    target = folder / f"{prefix}{hashlib.sha256(key.encode()).hexdigest()[:20]}.otf"
    if target.is_file():
        return target
    atomic.write_bytes(target, derive(source, index, family + SUFFIX))  # another export never reads half a font
    for old in folder.glob(f"{prefix}*.otf"):
        if old != target:
            old.unlink(missing_ok=True)
    return target


def derive(source: Path, index: int, new_family: str) -> bytes:
    """Member `index` of `source` with the shadowing code points gone from every cmap subtable
    and its family renamed to `new_family`, as a font file's bytes; every other table is copied as it is."""
    from fontTools.ttLib import TTFont

    with (
        source.open("rb") as file,  # closed by us: fontTools leaves it open when the file is no font
        TTFont(file, fontNumber=index, lazy=True, recalcBBoxes=False, recalcTimestamp=False) as font,
    ):
        cmap = font["cmap"]  # loads the glyph order (for CFF fonts, the CFF table too; it is not written back parsed)
        drop = shadowing_code_points(font.getBestCmap())
        for table in cmap.tables:
            mapping = getattr(table, "cmap", None)
            if mapping:
                for cp in drop & mapping.keys():
                    del mapping[cp]
        names = font["name"]
        old_family = names.getDebugName(16) or names.getDebugName(1) or ""
        for record in names.names:
            if record.nameID in (1, 3, 4, 16, 18, 21):
                text = record.toUnicode()
                if old_family and old_family in text:
                    record.string = text.replace(old_family, new_family)
                elif record.nameID in (1, 16, 21):
                    record.string = new_family
            elif record.nameID == 6:  # the PostScript name: no spaces
                record.string = record.toUnicode() + SUFFIX.replace(" ", "-")
        for tag in list(font.tables):
            if tag not in ("cmap", "name"):
                del font.tables[tag]  # written from the file's bytes, not recompiled (the CFF would take a minute)
        out = io.BytesIO()
        font.save(out, reorderTables=False)
    return out.getvalue()


@functools.cache
def pdf_family(family: str) -> str:
    """The family the PDF draws Chinese with: the searchable copy of `family` (Regular and Bold where the
    system has both), registered with Qt; `family` itself when no copy can be made."""
    registered = None
    for bold in (False, True):
        found = font_file(family, bold)
        if found is None or (bold and registered is None):
            continue
        try:
            path = cached_copy(found[0], found[1], family)
        except Exception:  # an unreadable or unusual font: the PDF keeps the system font
            continue
        font_id = QFontDatabase.addApplicationFont(str(path))
        families = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
        if families:
            registered = registered or families[0]
    return registered or family
