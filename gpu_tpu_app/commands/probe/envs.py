"""`gpu-tpu-probe envs`: the Python environments found here and what each can measure."""

from __future__ import annotations

import argparse
import json
import sys

from gpu_tpu_app.commands.probe.common import check_positive
from gpu_tpu_app.core.environments import kind_words
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.errors import InputError
from gpu_tpu_app.probe import envs
from gpu_tpu_app.probe.cli_output import table
from gpu_tpu_app.shared.cliutil import OneLineParser, one_line, positive_number


def configure(sub: argparse._SubParsersAction[OneLineParser]) -> None:
    """Add the `envs` subcommand."""
    env = sub.add_parser("envs", help=text("probe.help.envs"))
    env.add_argument("extra", nargs="*", metavar="PYTHON", help=text("probe.help.envs_extra"))
    env.add_argument("--format", choices=("table", "json"), default="table")
    env.add_argument("--refresh", action="store_true", help=text("probe.help.envs_refresh"))
    env.add_argument("--progress", action="store_true", help=text("cli.probe_commands.envs_progress"))
    env.add_argument(
        "--timeout-s",
        type=positive_number,
        default=envs.QUERY_TIMEOUT_S,
        metavar="SECONDS",
        help=text("cli.probe_commands.envs_timeout", seconds=f"{envs.QUERY_TIMEOUT_S:.0f}"),
    )


def _added_envs() -> list[str]:
    from gpu_tpu_app.core.settings import load_preferences

    try:
        return list(load_preferences().python_envs)
    except InputError as exc:
        print(text("probe_app.envs.added_not_listed", problem=exc), file=sys.stderr)
        return []


def cell(ident: str) -> str:
    """A word of the envs table (resources/text/probe_app.* [envs.table]) in the language in use."""
    return text(f"probe_app.envs.table.{ident}")


def envs_table(found: list) -> str:
    """The `envs` listing: one row per interpreter, with what each framework sees."""
    rows = []
    for e in found:
        mark = cell("yes" if e.usable and not e.problem else ("partly" if e.usable else "no"))
        versions = " ".join(f"{k} {e.versions[k]}" for k in ("torch", "jax", "jaxlib", "torch_xla") if k in e.versions)
        sees = e.summary().removeprefix(f"{e.interpreter}: ").removeprefix(f"{e.interpreter}：")  # its own column
        if e.note:
            sees = text("probe_app.envs.with_note", sees=sees, note=e.note)
        name = text("probe_app.envs.this_app") if e.kind == "app" and e.name == "this app" else e.name
        rows.append(
            [name, kind_words(e.kind), e.python or "-", mark, versions or "-", e.flavour or "-", sees, e.interpreter]
        )
    return table(
        [cell(h) for h in ("name", "kind", "python", "usable", "versions", "build", "sees", "interpreter")], rows
    )


def run(args: argparse.Namespace) -> int:
    """List the environments (cached answers unless --refresh); an added one that fails says why on stderr."""
    check_positive(args.timeout_s, "--timeout-s")
    notes: list[str] = []

    def progress(step: int, of: int, interpreter: str) -> None:
        print(envs.progress_line(step, of, interpreter), file=sys.stderr, flush=True)

    found = envs.list_envs(
        [*_added_envs(), *args.extra],
        refresh=args.refresh,
        timeout_s=args.timeout_s,
        notes=notes,
        progress=progress if args.progress else None,
    )
    if args.format == "json":
        listing = {"environments": [e.model_dump(mode="json") for e in found], "notes": [one_line(n) for n in notes]}
        print(json.dumps(listing, indent=2, allow_nan=False))
    else:
        print(envs_table(found))
    for note in notes:
        print(text("probe_app.envs.note", note=one_line(note)), file=sys.stderr)
    for e in found:
        if e.problem and e.kind == "added":
            print(e.problem, file=sys.stderr)
        elif e.note:
            print(text("probe_app.envs.named_note", name=e.name, note=e.note), file=sys.stderr)
    return 0
