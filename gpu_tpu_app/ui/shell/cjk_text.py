"""Chinese text on pages Qt draws: the Simplified Chinese font the system has, and where Chinese may wrap.

Chinese is written without spaces, so a rule that wraps "only at spaces" would leave a Chinese line
unbroken: ``break_units`` gives the pieces a line may break between (Latin words at spaces, each
Chinese character, a closing mark kept with the character before it). ``cjk_family`` finds the font
(fontconfig through QFontDatabase: Noto Sans CJK SC from fonts-noto-cjk first); ``font_problem``
says, in one line, when text needs one and the system has none (the PDF would show empty boxes).
"""

from __future__ import annotations

import functools
import re

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QFont, QFontDatabase

BODY_PT = 9.5

LATIN_FAMILY = "DejaVu Sans"
# Simplified Chinese fonts, the preferred first (fonts-noto-cjk, then others Linux distributions ship); when none
# is installed, any family Qt lists for Simplified Chinese.
CJK_FAMILIES = (
    "Noto Sans CJK SC",
    "Noto Sans SC",
    "Source Han Sans SC",
    "Source Han Sans CN",
    "WenQuanYi Micro Hei",
    "WenQuanYi Zen Hei",
    "Droid Sans Fallback",
    "AR PL UMing CN",
)
# CJK ideographs, radicals, punctuation and full-width forms: text that needs a CJK font and wraps without spaces.
CJK = re.compile(r"[\u2e80-\u2fdf\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")
# marks that may not start a line (Chinese line-breaking rules), kept with the character before them.
NO_LINE_START = "，。、；：？！）」』》〉】,.;:?!)]}%"


@functools.cache
def cjk_family() -> str | None:
    """The Simplified Chinese font family the PDF uses, or None when the system has none."""
    available = QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese)
    for family in CJK_FAMILIES:
        if family in available:
            return family
    return next((f for f in available if "mono" not in f.lower()), available[0] if available else None)


def font_problem(text: str) -> str | None:
    """One line when `text` (the report, or its Markdown) has Chinese but the system no font to draw it with;
    None otherwise."""
    if not CJK.search(text) or cjk_family() is not None:
        return None
    return QCoreApplication.translate(
        "ChineseFont",
        "No Chinese font is installed: the PDF would show empty boxes for Chinese text. Install one "
        "(Debian/Ubuntu: sudo apt install fonts-noto-cjk) and export again, or save as HTML or Markdown.",
    )


def body_font(cjk: bool, points: float = BODY_PT, pdf: bool = False) -> QFont:
    """The body font: DejaVu Sans, with the Chinese font behind it for the characters it lacks; for a PDF,
    the copy of the Chinese font whose text copies and searches as the ideographs shown (ui/result/cjk_pdf_font.py)."""
    font = QFont(LATIN_FAMILY)
    family = cjk_family() if cjk else None
    if family and pdf:
        from gpu_tpu_app.ui.result.cjk_pdf_font import pdf_family

        family = pdf_family(family)
    if family:
        font.setFamilies([LATIN_FAMILY, family])
    font.setPointSizeF(points)
    return font


def break_units(text: str) -> list[str]:
    """The pieces a line may break between: words at spaces, and each Chinese character (with a closing mark
    after it) on its own."""
    units: list[str] = []
    for word in text.split():
        current = ""
        for ch in word:
            if CJK.match(ch) and ch not in NO_LINE_START:
                if current:
                    units.append(current)
                current = ch
            elif ch in NO_LINE_START or not (current and CJK.match(current[-1])):
                current += ch
            else:  # a Latin character after a Chinese one starts a new piece
                units.append(current)
                current = ch
        if current:
            units.append(current)
    return units
