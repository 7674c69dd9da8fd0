"""Text laid out in terminal columns, for English and Chinese alike. Standard library only.

A Chinese character takes two columns of a terminal and Chinese text has no spaces between
words, so `len()` and `textwrap` lay it out wrongly: a line of Chinese would be twice as wide as
counted and would never break. `display_width` counts columns and `pad` fills a cell to a width
(both gpu_tpu_app.shared.cliutil's, the one home of that count, re-exported here); `wrap` breaks between
Chinese characters (and at spaces), keeps closing punctuation off the start of a line and opening
punctuation off its end. Text without wide characters is wrapped by `textwrap` exactly as before.
"""

from __future__ import annotations

import re
import textwrap

from gpu_tpu_app.shared.cliutil import display_width, pad

__all__ = ["NO_LINE_END", "NO_LINE_START", "display_width", "pad", "wrap"]

#: closing punctuation: never the first thing on a line (it stays with the word before it).
NO_LINE_START = frozenset("，。、；：？！）」』】》〉…,.;:!?)]}%")
#: opening punctuation: never the last thing on a line (it goes with the word after it).
NO_LINE_END = frozenset("（「『【《〈([{")
_WIDE = "\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6"
_HAS_WIDE = re.compile(f"[{_WIDE}]")
#: a run of spaces, one wide character, or a run of anything else (a Latin word with its punctuation).
_TOKEN = re.compile(rf"\s+|[{_WIDE}]|[^\s{_WIDE}]+")


def _split_long(token: str, width: int) -> list[str]:
    """A token wider than `width` cut into pieces that fit."""
    pieces, piece = [], ""
    for ch in token:
        if piece and display_width(piece + ch) > width:
            pieces.append(piece)
            piece = ""
        piece += ch
    return [*pieces, piece] if piece else pieces


def _units(text: str) -> list[tuple[str, bool]]:
    """(unit, space before it) pairs: the pieces a line may break between, punctuation attached."""
    units: list[tuple[str, bool]] = []
    space = False
    glue_next = False
    for token in _TOKEN.findall(text):
        if token.isspace():
            space = True
            continue
        if units and not space and (glue_next or token[0] in NO_LINE_START):
            units[-1] = (units[-1][0] + token, units[-1][1])
        else:
            units.append((token, space))
        glue_next = token[-1] in NO_LINE_END
        space = False
    return units


def wrap(text: str, width: int, initial_indent: str = "", subsequent_indent: str = "") -> list[str]:
    """`text` broken into lines of at most `width` columns (indents included); at least one line."""
    width = max(width, 8)
    if not _HAS_WIDE.search(text):
        return textwrap.wrap(
            text,
            width=width,
            initial_indent=initial_indent,
            subsequent_indent=subsequent_indent,
            break_on_hyphens=False,
        ) or [initial_indent.rstrip()]
    lines: list[str] = []
    line, filled = initial_indent, False
    for unit, space in _units(text):
        gap = " " if space and filled else ""
        if filled and display_width(line + gap + unit) > width:
            lines.append(line)
            line, filled, gap = subsequent_indent, False, ""
        if not filled and display_width(line + unit) > width:  # too wide even on a line of its own
            room = max(1, width - max(display_width(line), display_width(subsequent_indent)))
            *whole, unit = _split_long(unit, room)
            for piece in whole:
                lines.append(line + piece)
                line = subsequent_indent
        line, filled = line + gap + unit, True
    lines.append(line)
    return lines
