"""`gpu-tpu-probe` (also `gpu-tpu-app probe`): list devices, run probes, compare run files, headless.

One module per subcommand (devices, run, envs, collective, compare), each with `configure(sub)`,
which adds its subparser, and `run(args)`; what they share (the --out and --csv checks and saves,
--python, the flag checks) is `common.py`, their one-line errors `gpu_tpu_app.commands.guarded`.
Each backend is measured in its own worker process; this process never imports torch or jax.
"""

from __future__ import annotations

import argparse
import sys
from types import ModuleType

from gpu_tpu_app import __version__, safe_output
from gpu_tpu_app.clilang import add_lang_option, use_language
from gpu_tpu_app.commands import guarded
from gpu_tpu_app.commands.probe import collective, compare, devices, envs, run
from gpu_tpu_app.commands.probe.collective import collective_table, parse_bytes
from gpu_tpu_app.commands.probe.common import save_fallback
from gpu_tpu_app.commands.probe.devices import devices_table
from gpu_tpu_app.commands.probe.envs import envs_table
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.shared.cliutil import OneLineParser

__all__ = ["build_parser", "collective_table", "devices_table", "envs_table", "main", "parse_bytes", "save_fallback"]

#: The subcommands, in the order --help lists them: name -> its module (configure(sub), run(args)).
SUBCOMMANDS: dict[str, ModuleType] = {
    "devices": devices,
    "run": run,
    "envs": envs,
    "collective": collective,
    "compare": compare,
}


def build_parser() -> OneLineParser:
    """The gpu-tpu-probe argument parser; every subcommand's --help has a description and examples."""
    parser = OneLineParser(
        prog="gpu-tpu-probe",
        description=text("probe.help.description"),
        epilog=text("cli.examples") + "\n  gpu-tpu-probe devices\n  gpu-tpu-probe run --suite quick --out run.json\n"
        "  gpu-tpu-probe compare laptop.json tpu-vm.json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version", action="version", version=f"gpu-tpu-probe {__version__}", help=text("cli.argparse.version")
    )
    add_lang_option(parser, top=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    sub.required = True
    for command in SUBCOMMANDS.values():
        command.configure(sub)
    for subparser in sub.choices.values():
        add_lang_option(subparser)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of gpu-tpu-probe; returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    use_language(argv)  # before the parser is built or anything prints
    safe_output.use()  # a file name that is not UTF-8, in a parser error too, prints as \xNN escapes
    args = build_parser().parse_args(argv)
    command = SUBCOMMANDS[args.command]
    return guarded(lambda: int(command.run(args)))


if __name__ == "__main__":
    sys.exit(main())
