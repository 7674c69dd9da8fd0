"""`gpu-tpu-probe devices`: the devices torch and JAX can measure here, each backend asked in its own worker."""

from __future__ import annotations

import argparse
import json
import sys

from gpu_tpu_app.commands.probe.common import check_python, paragraphs
from gpu_tpu_app.core.note_text import reason_text, shown_message
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.core.wording import MISSING
from gpu_tpu_app.probe.cli_output import table
from gpu_tpu_app.probe.runner import list_devices
from gpu_tpu_app.shared.cliutil import OneLineParser
from gpu_tpu_app.shared.terms import BACKENDS


def configure(sub: argparse._SubParsersAction[OneLineParser]) -> None:
    """Add the `devices` subcommand."""
    raw = argparse.RawDescriptionHelpFormatter
    dev = sub.add_parser(
        "devices",
        help=text("probe.help.devices"),
        formatter_class=raw,
        description=paragraphs(text("cli.probe_commands.devices")),
        epilog=text("cli.examples") + "\n  gpu-tpu-probe devices\n  gpu-tpu-probe devices --backend jax --format json",
    )
    dev.add_argument("--format", choices=("table", "json"), default="table")
    dev.add_argument("--backend", choices=(*BACKENDS, "all"), default="all")
    dev.add_argument("--python", metavar="PATH", help=text("probe.options.python_devices"))


def _gib(n: int | None) -> str:
    return MISSING if n is None else f"{n / 1024**3:.1f} GiB"


def devices_table(devices: list, backends: list) -> str:
    """The `devices` listing: one row per device, then the backends that are missing."""
    rows = []
    for d in devices:
        versions = " ".join(f"{k} {v}" for k, v in d.versions.items())
        memory = _gib(d.memory_bytes) + (" *" if d.memory_note and d.memory_bytes else "")
        rows.append([d.key, d.name, str(d.count), memory, d.catalog_id or MISSING, versions])
    names = [text(f"probe.devices.{h}") for h in ("device", "name", "count", "memory", "catalogue", "versions")]
    lines = [table(names, rows)] if rows else [text("probe.devices.none")]
    cpu = next((d.cpu for d in devices if d.cpu), None)
    if cpu:
        caches = ", ".join(f"{k} {v // 1024} KiB" for k, v in cpu.caches.items())
        lines.append(
            "\n"
            + text(
                "probe.devices.cpu",
                model=cpu.model,
                cores=cpu.cores,
                threads=cpu.threads_used,
                isa=" ".join(cpu.flags) or MISSING,
                caches=caches or MISSING,
            )
        )
    for d in devices:
        if d.memory_note:
            note = shown_message(d.memory_note, d.memory_note_notes) or d.memory_note
            lines.append(text("probe.devices.memory_note", key=d.key, note=note))
    for b in backends:
        if not b.available:
            lines.append(text("probe.devices.unavailable", backend=b.backend, reason=reason_text(b)))
        elif b.reason:
            lines.append(text("probe.devices.note", backend=b.backend, reason=reason_text(b)))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """List the devices; exit 1 when none was found."""
    backends = BACKENDS if args.backend == "all" else (args.backend,)
    python = check_python(args.python)
    if python is None:  # the app's own Python: a framework the base install left out is named with its extra
        from gpu_tpu_app.extras import install_hint, missing_here

        for module in missing_here(backends):
            print(install_hint(module), file=sys.stderr)
    devices, statuses = list_devices(backends, python=python)
    if args.format == "json":
        print(
            json.dumps(
                {
                    "devices": [d.model_dump(mode="json") | {"key": d.key} for d in devices],
                    "backends": [b.model_dump(mode="json") for b in statuses],
                },
                indent=2,
                allow_nan=False,
            )
        )
    else:
        print(devices_table(devices, statuses))
    return 0 if devices else 1
