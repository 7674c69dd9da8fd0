"""Output that cannot fail on what a path or a message holds: the CLI's stdout and stderr write a file name
that is not valid UTF-8 (Python reads such bytes from argv and the file system as lone surrogates,
U+DC80..U+DCFF) as `\\xNN` escapes, and anything else the stream cannot encode as a backslash escape.

Without it a terminal whose locale is not C/POSIX has a strict stdout, and printing such a name (`probe
compare` lists its run files) ended the command with a UnicodeEncodeError traceback. Standard library only.
"""

from __future__ import annotations

import codecs
import contextlib
import sys

#: the codec error handler registered here (name in codecs' registry).
HANDLER = "gpu_tpu_app.shown"


def _escape(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    bad = exc.object[exc.start : exc.end]
    out = []
    for ch in bad:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8, as surrogateescape carries it
            out.append(f"\\x{code - 0xDC00:02x}")
        else:
            out.append(ch.encode("ascii", "backslashreplace").decode("ascii"))
    return "".join(out), exc.end


codecs.register_error(HANDLER, _escape)


def shown(text: str) -> str:
    """`text` as it is printed: a byte that was not UTF-8 as `\\xNN`, other lone surrogates escaped."""
    return text.encode("utf-8", HANDLER).decode("utf-8")


def use() -> None:
    """Make sys.stdout and sys.stderr write what they cannot encode as escapes instead of raising."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", None) != "surrogateescape":
            with contextlib.suppress(ValueError, OSError, AttributeError):
                reconfigure(errors=HANDLER)
