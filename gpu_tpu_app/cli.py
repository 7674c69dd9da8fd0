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
import textwrap

from gpu_tpu_app import __version__
from gpu_tpu_app.cliutil import OneLineParser
from gpu_tpu_app.commands import guarded

#: subcommand -> (module, one-line help). Each module has configure(parser) and run(args).
COMMANDS: dict[str, tuple[str, str]] = {
    "explain": ("gpu_tpu_app.commands.explain", "print one explainer topic side by side, or the contents"),
    "catalog": ("gpu_tpu_app.commands.catalog", "print the accelerator catalogue"),
    "decide": ("gpu_tpu_app.commands.decide", "turn an answers file into a GPU / TPU recommendation"),
    "estimate": ("gpu_tpu_app.commands.estimate", "estimate training or inference time per chip"),
    "check-model": ("gpu_tpu_app.commands.check_model", "measure a model file's framework check (runs it in a worker)"),
    "prices": ("gpu_tpu_app.commands.prices", "print the cheapest place per chip and the spread across regions"),
}
#: subcommand -> (what it does, in a few sentences; examples), shown by its --help.
DETAILS: dict[str, tuple[str, list[str]]] = {
    "explain": (
        "Print one explainer topic of the lesson, the GPU side (the workshop) next to the TPU side (the "
        "factory line), with its sources. Without a topic, print the contents.",
        ["gpu-tpu-app explain", "gpu-tpu-app explain flexibility", "gpu-tpu-app explain history --format json"],
    ),
    "catalog": (
        "Print the accelerator catalogue: each GPU and TPU with its dense peaks per number format, memory "
        "and bandwidth, and the source of every figure.",
        ["gpu-tpu-app catalog", "gpu-tpu-app catalog --format json"],
    ),
    "decide": (
        "Turn an answers file (the wizard's questions as JSON) into a GPU or TPU recommendation with its "
        "reasons, sources and what would change it. Unknown answers lower the confidence.",
        [
            "gpu-tpu-app decide --answers examples/answers-jax-llm-pretraining.json",
            "gpu-tpu-app decide --answers answers.json --model my_model.py --format json",
        ],
    ),
    "estimate": (
        "Estimate the time, memory and (with prices you give) cost of training or serving a model on "
        "every catalogue chip, fastest first.",
        [
            "gpu-tpu-app estimate --params 7e9",
            "gpu-tpu-app estimate --params 70B --tokens 1.4T --chips 256",
            "gpu-tpu-app estimate --params 8B --inference --tokens 1e9 --batch 8",
        ],
    ),
    "prices": (
        "Print what each catalogue chip costs per hour: the cheapest cloud region and the dearest, with the "
        "source and age of each price. Prices come from the table shipped with the app and from local "
        "catalogues (SkyPilot's ~/.sky/catalogs/v8, gpuhunt's $GPUHUNT_CATALOG_DIR, or --from PATH); the "
        "newest source wins. Nothing is downloaded.",
        [
            "gpu-tpu-app prices",
            "gpu-tpu-app prices --spot --cloud gcp",
            "gpu-tpu-app prices --chip tpu-v6e --all",
            "gpu-tpu-app prices --from ~/.sky/catalogs/v8 --format json",
        ],
    ),
    "check-model": (
        "Run a model file in a separate worker and check what it needs from the framework: a static "
        "graph, custom operators, changing shapes, float64, and whether it lowers to XLA.",
        [
            "gpu-tpu-app check-model examples/models/torch_transformer.py",
            "gpu-tpu-app check-model my_model.py --format json",
        ],
    ),
}
#: subcommands that take their own argv (their own parser).
PASSTHROUGH: dict[str, tuple[str, str]] = {
    "probe": ("gpu_tpu_app.commands.probe", "detect accelerators and run probe kernels (same as gpu-tpu-probe)"),
    "probe-worker": ("gpu_tpu_app.worker.main", ""),  # internal: one backend's worker process
    "model-check-worker": ("gpu_tpu_app.worker.modelcheck", ""),  # internal: runs one model file
    "tpu-compile-worker": ("gpu_tpu_app.worker.tpu_compile", ""),  # internal: the model check's TPU compiles
    "process-guard": ("gpu_tpu_app.worker.guard", ""),  # internal: nothing an untrusted command starts outlives it
}


def _headless_parser(command: str) -> OneLineParser:
    """Parser for one headless command; only that command's module is imported."""
    parser = OneLineParser(
        prog="gpu-tpu-app",
        description="Decide between GPUs and TPUs for your ML work. Without a subcommand, opens the window.",
    )
    parser.add_argument("--version", action="version", version=f"gpu-tpu-app {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in COMMANDS.items():
        text, examples = DETAILS.get(name, (help_text, []))
        p = sub.add_parser(
            name,
            help=help_text,
            description=textwrap.fill(text, 78),
            epilog="examples:\n" + "\n".join(f"  {e}" for e in examples) if examples else None,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        p.__class__ = OneLineParser
        if name == command:
            importlib.import_module(module).configure(p)
    for name, (_module, help_text) in PASSTHROUGH.items():
        if help_text:
            sub.add_parser(name, help=help_text, add_help=False)
    return parser


def _size(text: str) -> tuple[int, int]:
    """'1024x640' -> (1024, 640), each side 320 to 7680."""
    import argparse

    w, sep, h = text.lower().partition("x")
    if not sep or not w.isdigit() or not h.isdigit() or not (320 <= int(w) <= 7680 and 320 <= int(h) <= 7680):
        raise argparse.ArgumentTypeError(f"{text!r} is not a size like 1024x640 (320 to 7680 each side)")
    return int(w), int(h)


def _gui_parser() -> OneLineParser:
    parser = OneLineParser(
        prog="gpu-tpu-app",
        description="Open the gpu-tpu-app window. Subcommands: " + ", ".join([*COMMANDS, "probe"]) + ".",
        epilog="examples:\n  gpu-tpu-app\n  gpu-tpu-app plan.json\n  gpu-tpu-app --session my-session.json\n"
        "  gpu-tpu-app --screenshot probe.png --page probe --results run.json\n"
        "  gpu-tpu-app decide --answers answers.json\n  gpu-tpu-app probe run --suite quick --out run.json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"gpu-tpu-app {__version__}")
    parser.add_argument("--screenshot", metavar="PATH", help="render the window offscreen at 1280x800 to PATH and exit")
    parser.add_argument("--size", type=_size, metavar="WxH", help="window size for --screenshot (default 1280x800)")
    parser.add_argument(
        "--theme", choices=["light", "dark"], help="colour theme for this start (with --screenshot: instead of light)"
    )
    parser.add_argument(
        "--page", choices=["welcome", "decide", "result", "probe", "learn"], help="page to show (with --screenshot)"
    )
    parser.add_argument(
        "files", nargs="*", metavar="FILE", help="session or probe run files to open (what a file manager passes)"
    )
    parser.add_argument("--session", metavar="FILE", help="open this session file")
    parser.add_argument("--results", metavar="FILE", help="open this probe run file")
    parser.add_argument(
        "--install-desktop-entry", action="store_true", help="add the app to your desktop menu and exit"
    )
    parser.add_argument(
        "--uninstall-desktop-entry", action="store_true", help="remove the app from your desktop menu and exit"
    )
    return parser


def _looks_like_file(arg: str) -> bool:
    """A first argument that names a file rather than a mistyped subcommand: it exists, or has a path
    separator or a suffix (plan.json)."""
    return os.path.exists(arg) or os.sep in arg or "." in os.path.basename(arg)


def main(argv: list[str] | None = None) -> int:
    """Run the app or one subcommand; returns the process exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    return guarded(lambda: _main(argv))


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
        print("\nheadless subcommands:")
        for name, (_m, help_text) in {**COMMANDS, **PASSTHROUGH}.items():
            if help_text:
                print(f"  {name:<12} {help_text}")
        return 0
    if argv and not argv[0].startswith("-") and not _looks_like_file(argv[0]):
        _gui_parser().error(
            f"unknown command {argv[0]!r} (choose from {', '.join([*COMMANDS, 'probe'])}, "
            "or name a session or probe run file to open)"
        )
    args = _gui_parser().parse_args(argv)
    if args.install_desktop_entry or args.uninstall_desktop_entry:
        from gpu_tpu_app import desktop

        return desktop.main(install=bool(args.install_desktop_entry))
    from gpu_tpu_app.ui.app import main as gui_main

    return int(gui_main(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
