"""A reader of desktop entries that follows the Desktop Entry Specification 1.5 ("Basic format of the file",
"Possible value types", "The Exec key"): what a loader that follows it starts for an entry, or SpecError where
it ignores the entry. Used by tests/test_desktop.py to read the entries the app installs."""

from __future__ import annotations

import os
import shutil

_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")


class SpecError(ValueError):
    """The entry breaks the specification (a loader may ignore it)."""


def string_value(raw: str) -> str:
    """A value of type string: ASCII or UTF-8 text without control characters; escapes \\s \\n \\t \\r \\\\."""
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in raw):
        raise SpecError(f"control character in {raw!r}")
    out, i = "", 0
    while i < len(raw):
        if raw[i] == "\\":
            if i + 1 == len(raw):
                raise SpecError(f"lone backslash at the end of {raw!r}")
            out += {"s": " ", "n": "\n", "t": "\t", "r": "\r", "\\": "\\"}.get(raw[i + 1], "\\" + raw[i + 1])
            i += 2
        else:
            out += raw[i]
            i += 1
    return out


def parse_entry(text: str) -> dict[str, str]:
    """The [Desktop Entry] group's keys with their raw values."""
    group, entries = None, {}
    for n, line in enumerate(text.split("\n"), 1):
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            if not line.endswith("]"):
                raise SpecError(f"line {n}: bad group header")
            group = line[1:-1]
            continue
        if group is None:
            raise SpecError(f"line {n}: key before the first group")
        if "=" not in line:
            raise SpecError(f"line {n}: not key=value")
        key, value = line.split("=", 1)
        key = key.rstrip(" ")
        if group == "Desktop Entry":
            if key in entries:
                raise SpecError(f"line {n}: {key} twice")
            entries[key] = value.lstrip(" ")
    if not entries:
        raise SpecError("no [Desktop Entry] group")
    return entries


def exec_argv(raw: str) -> list[str]:
    """The Exec key: a string value, then arguments split on spaces; an argument with a reserved character
    must be double-quoted, and inside quotes \\" \\` \\$ \\\\ are escapes; %% is a literal %."""
    text = string_value(raw)
    args, cur, quoted, started, i = [], "", False, False, 0
    while i < len(text):
        ch = text[i]
        if quoted:
            if ch == "\\" and i + 1 < len(text) and text[i + 1] in '"`$\\':
                cur += text[i + 1]
                i += 1
            elif ch == '"':
                quoted = False
            elif ch in "`$" or ch == "\\":
                raise SpecError(f"unescaped {ch!r} inside quotes in {text!r}")
            else:
                cur += ch
        elif ch == '"':
            quoted, started = True, True
        elif ch == " ":
            if started or cur:
                args.append(cur)
            cur, started = "", False
        elif ch in _RESERVED:
            raise SpecError(f"reserved character {ch!r} outside quotes in {text!r}")
        else:
            cur += ch
        i += 1
    if quoted:
        raise SpecError(f"unterminated quote in {text!r}")
    if started or cur:
        args.append(cur)
    if args and args[-1] == "%F":  # the files to open: a loader puts them there (none from a menu)
        args = args[:-1]
    for a in args:
        if "%" in a.replace("%%", ""):
            raise SpecError(f"field code in {a!r}: this app's entry has only a final %F")
    return [a.replace("%%", "%") for a in args]


def _program(name: str) -> str | None:
    """The executable a key names: an absolute path, or looked up in $PATH (as the specification says)."""
    if os.path.isabs(name):
        return name if os.path.isfile(name) and os.access(name, os.X_OK) else None
    return shutil.which(name)


def spec_loader(text: str) -> list[str]:
    """What a loader that follows the specification starts for this entry; SpecError when it ignores it
    (TryExec names no executable file, Exec is malformed or its program does not exist)."""
    entries = parse_entry(text)
    if "TryExec" in entries:
        try_exec = string_value(entries["TryExec"])
        if _program(try_exec) is None:
            raise SpecError(f"TryExec {try_exec!r} is not an executable file: the entry is ignored")
    argv = exec_argv(entries["Exec"])
    if not argv or _program(argv[0]) is None:
        raise SpecError(f"Exec program {argv[:1]!r} not found")
    return argv


def unquote_exec(value: str) -> list[str]:
    """Split an Exec value back into arguments, following the Desktop Entry Specification."""
    return exec_argv(value)


def entry_value(text: str, key: str) -> str:
    return parse_entry(text)[key]
