"""The command lines' language: --lang on every command, their words from resources/text/cli.<lang>.toml.

``use_language(argv)`` reads ``--lang`` (``en`` or ``zh-Hans``) before any parser is built, else
the environment (``GPU_TPU_APP_LANG``, then the locale: ``gpu_tpu_app.i18n``), so the help, the
errors and the output are in that language from the first line; argparse's own words ("usage:",
"options", its error messages) are looked up there too. ``add_lang_option`` lists --lang in a
parser's --help and refuses an unknown language. ``--format json`` stays English (a contract).
Standard library and ``core.texts`` (tomllib) only: a command's start-up stays quick.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import Any

from gpu_tpu_app import i18n
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.shared import cliutil

LANG_OPTION = "--lang"

#: argparse's own messages (its gettext ids) -> their ids in resources/text/cli.<lang>.toml [argparse].
ARGPARSE_IDS: dict[str, str] = {
    "usage: ": "usage",
    "positional arguments": "positional",
    "options": "options",
    "show this help message and exit": "help",
    "show program's version number and exit": "version",
    "the following arguments are required: %s": "required",
    "invalid choice: %(value)r (choose from %(choices)s)": "invalid_choice",
    "unrecognized arguments: %s": "unrecognized",
    "expected one argument": "expected_one",
    "expected at least one argument": "expected_at_least_one",
    "expected at most one argument": "expected_at_most_one",
    "argument %(argument_name)s: %(message)s": "argument",
    "invalid %(type)s value: %(value)r": "invalid_value",
    "one of the arguments %s is required": "one_of_required",
    "not allowed with argument %s": "not_allowed_with",
    "ambiguous option: %(option)s could match %(matches)s": "ambiguous",
    "ignored explicit argument %r": "ignored_explicit",
    "can't open '%(filename)s': %(error)s": "cannot_open",
}


def _argparse_text(message: str) -> str:
    """argparse's gettext: its known messages in the interface language, any other as it is."""
    ident = ARGPARSE_IDS.get(message)
    return text(f"cli.argparse.{ident}") if ident else message


def requested_language(argv: Sequence[str]) -> str | None:
    """The language `--lang X` or `--lang=X` names in `argv` (before a bare `--`), or None when it names
    none or one that is not shipped (the parser then says so)."""
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        value = None
        if arg == LANG_OPTION and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith(LANG_OPTION + "="):
            value = arg.partition("=")[2]
        if value is not None:
            return value if value in i18n.LANGUAGES else None
    return None


def use_language(argv: Sequence[str]) -> str:
    """Set the language of this command from --lang in `argv`, else the environment (GPU_TPU_APP_LANG, the
    locale); its child processes inherit a --lang (GPU_TPU_APP_LANG). Call before any parser is built."""
    requested = requested_language(argv)
    language = i18n.set_language(requested)
    if requested is not None:  # otherwise the children read the same environment this process did
        os.environ[i18n.LANG_ENV] = language
    cliutil.translate = text
    argparse._ = _argparse_text  # type: ignore[attr-defined]  # argparse looks its words up through gettext
    argparse.HelpFormatter._split_lines = _split_lines  # type: ignore[method-assign]  # Chinese help wraps too
    argparse.HelpFormatter._format_usage = _format_usage  # type: ignore[method-assign]  # a wide "usage:"
    argparse.HelpFormatter.format_help = _format_help  # type: ignore[method-assign]  # "选项：", not "选项:"
    return language


_format_help_as_argparse = argparse.HelpFormatter.format_help


def _format_help(self: argparse.HelpFormatter) -> str:
    """argparse's help with its section headings ended as the language ends them (argparse always writes ':')."""
    out = _format_help_as_argparse(self)
    end = text("cli.argparse.heading_end")
    if end == ":":
        return out
    for heading in (text("cli.argparse.positional"), text("cli.argparse.options")):
        out = out.replace(f"\n{heading}:\n", f"\n{heading}{end}\n")
    return out


_format_usage_by_chars = argparse.HelpFormatter._format_usage


def _format_usage(self: argparse.HelpFormatter, usage: Any, actions: Any, groups: Any, prefix: str | None) -> str:
    """argparse's usage lines, where "usage: " is wider on screen than it is long (用法：): the lines stay within
    the width and the continuation lines under the first argument."""
    if prefix is None:
        prefix = _argparse_text("usage: ")
    extra = cliutil.display_width(prefix) - len(prefix)
    if extra <= 0:
        return _format_usage_by_chars(self, usage, actions, groups, prefix)
    width = self._width
    self._width = width - extra
    try:
        formatted = _format_usage_by_chars(self, usage, actions, groups, prefix)
    finally:
        self._width = width
    first, *rest = formatted.split("\n")
    return "\n".join([first, *((" " * extra + line) if line.strip() else line for line in rest)])


_split_lines_by_spaces = argparse.HelpFormatter._split_lines


def _split_lines(self: argparse.HelpFormatter, text: str, width: int) -> list[str]:
    """argparse's wrapping of an option's help: at spaces, and for Chinese text between characters too."""
    if all(cliutil.display_width(ch) == 1 for ch in text):
        return _split_lines_by_spaces(self, text, width)
    return fill(" ".join(text.split()), width).splitlines()


def add_lang_option(parser: argparse.ArgumentParser, top: bool = False, help_id: str = "cli.lang_help") -> None:
    """--lang on `parser` (applied by use_language before parsing; here it is validated and listed in --help).
    On a subcommand's parser the default is left out, so it never undoes a --lang given before the command."""
    parser.add_argument(
        LANG_OPTION,
        choices=list(i18n.LANGUAGES),
        default=None if top else argparse.SUPPRESS,
        metavar="|".join(i18n.LANGUAGES),
        help=text(help_id, env=i18n.LANG_ENV),
    )


#: punctuation that may not start a line (Chinese line-breaking rules: 避头尾).
_NO_LINE_START = set("，。、；：？！）」』》〉】,.;:?!)]}%")


def _is_word(token: str) -> bool:
    """A token of narrow characters that a following narrow character continues."""
    return bool(token) and not token.isspace() and cliutil.display_width(token[-1]) == 1


def fill(paragraph: str, width: int) -> str:
    """`paragraph` wrapped to `width` terminal columns: at spaces (textwrap, for text with no wide characters),
    and between Chinese characters too, never before a closing mark."""
    if all(cliutil.display_width(ch) == 1 for ch in paragraph):
        import textwrap  # only when help is shown: its wrapper compiles its patterns at import

        return textwrap.fill(paragraph, width)
    # tokens: runs of narrow non-space characters stay whole (words, numbers, paths), each wide character
    # stands alone, a closing mark stays with what it closes
    tokens: list[str] = []
    for ch in paragraph:
        last = tokens[-1] if tokens else ""
        joins_word = cliutil.display_width(ch) == 1 and not ch.isspace() and _is_word(last)
        if last and not last.isspace() and (joins_word or ch in _NO_LINE_START):
            tokens[-1] += ch
        else:
            tokens.append(ch)
    lines: list[str] = []
    line = ""
    for token in tokens:
        if token.isspace():
            token = " "
        if line and cliutil.display_width(line + token) > width:
            lines.append(line.rstrip())
            line = "" if token == " " else token
        else:
            line = "" if (not line and token == " ") else line + token
    if line.strip():
        lines.append(line.rstrip())
    return "\n".join(lines)
