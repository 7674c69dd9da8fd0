"""Entry point: the window by default, headless subcommands otherwise.

`gpu-tpu-app` (or `python -m gpu_tpu_app`) with no arguments opens the window. A first
argument naming a subcommand runs it without Qt: explain, catalog, decide, estimate, prices,
check-model, probe (the same as `gpu-tpu-probe`).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from gpu_tpu_app import __version__, i18n
from gpu_tpu_app.clilang import LANG_OPTION, add_lang_option, fill, use_language
from gpu_tpu_app.commands import guarded
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.shared.cliutil import OneLineParser

#: subcommand -> (module, examples for its --help). Each module has configure(parser) and run(args); its
#: one-line help and description are texts cli.commands.<name>.help / .details (resources/text/cli.<lang>.toml).
COMMANDS: dict[str, tuple[str, list[str]]] = {
    "explain": (
        "gpu_tpu_app.commands.explain",
        ["gpu-tpu-app explain", "gpu-tpu-app explain flexibility", "gpu-tpu-app explain history --format json"],
    ),
    "catalog": ("gpu_tpu_app.commands.catalog", ["gpu-tpu-app catalog", "gpu-tpu-app catalog --format json"]),
    "decide": (
        "gpu_tpu_app.commands.decide",
        [
            "gpu-tpu-app decide --answers examples/answers-jax-llm-pretraining.json",
            "gpu-tpu-app decide --answers answers.json --model my_model.py --format json",
        ],
    ),
    "estimate": (
        "gpu_tpu_app.commands.estimate",
        [
            "gpu-tpu-app estimate --params 7e9",
            "gpu-tpu-app estimate --params 70B --tokens 1.4T --chips 256",
            "gpu-tpu-app estimate --params 8B --inference --tokens 1e9 --batch 8",
        ],
    ),
    "check-model": (
        "gpu_tpu_app.commands.check_model",
        [
            "gpu-tpu-app check-model examples/models/torch_transformer.py",
            "gpu-tpu-app check-model my_model.py --format json",
        ],
    ),
    "prices": (
        "gpu_tpu_app.commands.prices",
        [
            "gpu-tpu-app prices",
            "gpu-tpu-app prices --spot --cloud gcp",
            "gpu-tpu-app prices --chip tpu-v6e --all",
            "gpu-tpu-app prices --from ~/.sky/catalogs/v8 --format json",
        ],
    ),
}
#: subcommands that take their own argv (their own parser): name -> (module, listed in --help).
PASSTHROUGH: dict[str, tuple[str, bool]] = {
    "probe": ("gpu_tpu_app.commands.probe", True),
    "probe-worker": ("gpu_tpu_app.worker.main", False),  # internal: one backend's worker process
    "model-check-worker": ("gpu_tpu_app.worker.modelcheck", False),  # internal: runs one model file
    "tpu-compile-worker": ("gpu_tpu_app.worker.tpu_compile", False),  # internal: the model check's TPU compiles
    "process-guard": ("gpu_tpu_app.worker.guard", False),  # internal: nothing an untrusted command starts outlives it
}


def _help(name: str) -> str:
    """A subcommand's one-line help in the interface language."""
    return text(f"cli.commands.{name}.help")


def _examples(examples: list[str]) -> str | None:
    return text("cli.examples") + "\n" + "\n".join(f"  {e}" for e in examples) if examples else None


class _CommandParser(OneLineParser):
    """A subcommand's parser: its description (a paragraph wrapped for the terminal) is made when its help is."""

    details: str | None = None

    def format_help(self) -> str:
        if self.details is not None and self.description is None:
            self.description = fill(text(self.details), 78)
        return super().format_help()


def _headless_parser(command: str) -> OneLineParser:
    """Parser for one headless command; only that command's module is imported, and only its parser gets the
    description and examples of its --help (the others are listed by name and one line)."""
    parser = OneLineParser(prog="gpu-tpu-app", description=text("cli.description"))
    parser.add_argument(
        "--version", action="version", version=f"gpu-tpu-app {__version__}", help=text("cli.argparse.version")
    )
    add_lang_option(parser, top=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_CommandParser)
    for name, (module, examples) in COMMANDS.items():
        chosen = name == command
        p = sub.add_parser(
            name,
            help=_help(name),
            epilog=_examples(examples) if chosen else None,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        if chosen:
            p.details = f"cli.commands.{name}.details"
            importlib.import_module(module).configure(p)
            add_lang_option(p)
    for name, (_module, listed) in PASSTHROUGH.items():
        if listed:
            sub.add_parser(name, help=_help(name), add_help=False)
    return parser


def _size(size: str) -> tuple[int, int]:
    """'1024x640' -> (1024, 640), each side 320 to 7680."""
    w, sep, h = size.lower().partition("x")
    if not sep or not w.isdigit() or not h.isdigit() or not (320 <= int(w) <= 7680 and 320 <= int(h) <= 7680):
        raise argparse.ArgumentTypeError(text("cli.bad_size", value=repr(size)))
    return int(w), int(h)


GUI_EXAMPLES = [
    "gpu-tpu-app",
    "gpu-tpu-app plan.json",
    "gpu-tpu-app --session my-session.json",
    "gpu-tpu-app --screenshot probe.png --page probe --results run.json",
    "gpu-tpu-app --lang zh-Hans",
    "gpu-tpu-app decide --answers answers.json",
    "gpu-tpu-app probe run --suite quick --out run.json",
]


def _gui_parser() -> OneLineParser:
    parser = OneLineParser(
        prog="gpu-tpu-app",
        description=text("cli.gui_description", commands=", ".join([*COMMANDS, "probe"])),
        epilog=_examples(GUI_EXAMPLES),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version", action="version", version=f"gpu-tpu-app {__version__}", help=text("cli.argparse.version")
    )
    parser.add_argument("--screenshot", metavar="PATH", help=text("cli.gui.screenshot"))
    parser.add_argument("--size", type=_size, metavar="WxH", help=text("cli.gui.size"))
    parser.add_argument("--theme", choices=["light", "dark"], help=text("cli.gui.theme"))
    parser.add_argument("--page", choices=["welcome", "decide", "result", "probe", "learn"], help=text("cli.gui.page"))
    add_lang_option(parser, top=True, help_id="cli.gui.lang")
    parser.add_argument("files", nargs="*", metavar="FILE", help=text("cli.gui.files"))
    parser.add_argument("--session", metavar="FILE", help=text("cli.gui.session"))
    parser.add_argument("--results", metavar="FILE", help=text("cli.gui.results"))
    parser.add_argument("--install-desktop-entry", action="store_true", help=text("cli.gui.install_desktop_entry"))
    parser.add_argument("--uninstall-desktop-entry", action="store_true", help=text("cli.gui.uninstall_desktop_entry"))
    return parser


def _looks_like_file(arg: str) -> bool:
    """A first argument that names a file rather than a mistyped subcommand: it exists, or has a path
    separator or a suffix (plan.json)."""
    return os.path.exists(arg) or os.sep in arg or "." in os.path.basename(arg)


def main(argv: list[str] | None = None) -> int:
    """Run the app or one subcommand; returns the process exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    use_language(argv)  # before any parser is built or anything prints
    return guarded(lambda: _main(_without_leading_lang(argv)))


def _without_leading_lang(argv: list[str]) -> list[str]:
    """`argv` without a --lang given before the subcommand (`gpu-tpu-app --lang zh-Hans decide ...`): applied
    already, it would hide the subcommand. A bad language stays, for the parser to refuse."""
    if argv[:1] == [LANG_OPTION] and len(argv) > 1 and argv[1] in i18n.LANGUAGES:
        return argv[2:]
    if argv[:1] and argv[0].startswith(LANG_OPTION + "=") and argv[0].partition("=")[2] in i18n.LANGUAGES:
        return argv[1:]
    return argv


def _main(argv: list[str]) -> int:
    """main without the error handling: a passthrough, a headless command or the window."""
    if argv and argv[0] in PASSTHROUGH:
        module = importlib.import_module(PASSTHROUGH[argv[0]][0])
        return int(module.main(argv[1:]) or 0)
    if argv and argv[0] in COMMANDS:
        args = _headless_parser(argv[0]).parse_args(argv)
        module = importlib.import_module(COMMANDS[args.command][0])
        return int(module.run(args) or 0)
    if argv and argv[0] in ("-h", "--help"):
        _gui_parser().print_help()
        print("\n" + text("cli.headless_heading"))
        listed = [*COMMANDS, *(name for name, (_m, shown) in PASSTHROUGH.items() if shown)]
        for name in listed:
            print(f"  {name:<12} {_help(name)}")
        return 0
    if argv and not argv[0].startswith("-") and not _looks_like_file(argv[0]):
        _gui_parser().error(
            text("cli.unknown_command", command=repr(argv[0]), commands=", ".join([*COMMANDS, "probe"]))
        )
    return _window(argv)


def window(argv: list[str] | None = None) -> int:
    """The `gpu-tpu-app-window` GUI script: the window and its options only (no subcommands: on Windows a GUI
    script has no console to print to, so the commands are the `gpu-tpu-app` console script's)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    use_language(argv)
    return guarded(lambda: _window(_without_leading_lang(argv)))


def _window(argv: list[str]) -> int:
    """The window (or its desktop-entry options) with `argv` parsed by the window's parser."""
    args = _gui_parser().parse_args(argv)
    if args.install_desktop_entry or args.uninstall_desktop_entry:
        from gpu_tpu_app import desktop

        return desktop.main(install=bool(args.install_desktop_entry))
    from gpu_tpu_app.ui.shell.app import main as gui_main

    return int(gui_main(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
