"""Write the field blocks of gpu_tpu_app/worker/wire.py from the pydantic models in gpu_tpu_app/core/runs.py.

core/runs.py declares every record of the worker's JSON-lines protocol once, with its validation. The worker
side may run in the user's own interpreter without pydantic (and decide/CLI start-up must not pay for it), so
worker/wire.py keeps standard-library dataclasses of the same records. Their fields are not written by hand:
each record class in wire.py holds one block between the two marker lines below, and this script rewrites
every block from the model of the same name (same names, same order, same defaults; pydantic's constrained
types become the plain type they constrain, a Literal its value's type, MessageNote a dict), and its
`SCHEMA_VERSION = ...` line from core.runs.SCHEMA_VERSION. Everything outside the blocks (docstrings,
methods, checks) stays hand-written.

Run from the repository root:   python -m tools.gen_wire          (rewrites wire.py)
                                python -m tools.gen_wire --check  (exit 1 when wire.py is not what it writes)
tests/worker/test_wire_generated.py runs the check.
"""

from __future__ import annotations

import argparse
import re
import sys
import types
import typing
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from gpu_tpu_app.core import runs
from gpu_tpu_app.core.note_model import MessageNote

WIRE = Path(__file__).resolve().parent.parent / "gpu_tpu_app" / "worker" / "wire.py"
BEGIN = "    # --- generated from core/runs.py by python -m tools.gen_wire: do not edit ---"
END = "    # --- end of generated fields ---"

#: the records wire.py mirrors, in its order (HostsMsg is sent by worker/collective/report.py, which builds
#: its line from plain dicts: its hosts are core.environments.HostInfo, a model of its own)
RECORDS = (
    "CpuInfo",
    "DeviceInfo",
    "BackendStatus",
    "Stats",
    "DeviceState",
    "CollectiveInfo",
    "ProbeResult",
    "Hello",
    "DeviceMsg",
    "Progress",
    "ResultMsg",
    "ErrorMsg",
    "Done",
)
#: fields of the models that the wire records leave out (dump_message adds the schema version to every line)
SKIPPED = {"schema_version"}

_CLASS = re.compile(r"^class (\w+)\(")


class GenerationError(ValueError):
    """A model field this generator cannot write as a standard-library type, or a wire.py without its blocks."""


def type_text(tp: Any, where: str) -> str:
    """`tp` (a field's annotation) as the standard-library type the wire record declares."""
    if tp is type(None):
        return "None"
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Annotated:  # Count, NonNegative, Text: the constraint is checked on the app's side
        return type_text(args[0], where)
    if origin is typing.Literal:
        kinds = {type(a) for a in args}
        if len(kinds) != 1:
            raise GenerationError(f"{where}: a Literal of mixed types {args!r}")
        return type_text(kinds.pop(), where)
    if origin in (typing.Union, types.UnionType):
        parts = [type_text(a, where) for a in args if a is not type(None)]
        if type(None) in args:
            parts.append("None")
        return " | ".join(dict.fromkeys(parts))
    if origin is list:
        return f"list[{type_text(args[0], where)}]"
    if origin is dict:
        return f"dict[{type_text(args[0], where)}, {type_text(args[1], where)}]"
    if tp is MessageNote:  # a note travels as its dict (shared.notes.to_dicts writes it)
        return "dict[str, Any]"
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        name = str(tp.__name__)
        if name not in RECORDS or getattr(runs, name, None) is not tp:
            raise GenerationError(f"{where}: {name} has no wire record")
        return name
    for plain in (str, int, float, bool):
        if tp is plain:
            return plain.__name__
    raise GenerationError(f"{where}: no standard-library type for {tp!r}")


def default_text(info: FieldInfo, where: str) -> str | None:
    """The field's default as wire.py writes it, or None for a required field."""
    if info.is_required():
        return None
    if info.default_factory is not None:
        raise GenerationError(f"{where}: a default_factory is not supported")
    value = info.default
    if isinstance(value, list) and not value:
        return "field(default_factory=list)"
    if isinstance(value, dict) and not value:
        return "field(default_factory=dict)"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if value is None or isinstance(value, (bool, int, float)):
        return repr(value)
    raise GenerationError(f"{where}: no literal for the default {value!r}")


def field_lines(name: str) -> list[str]:
    """The field block of wire record `name`, one line per field of core.runs' model, in the model's order."""
    model: type[BaseModel] = getattr(runs, name)
    lines = []
    for field_name, info in model.model_fields.items():
        if field_name in SKIPPED:
            continue
        where = f"core.runs.{name}.{field_name}"
        line = f"    {field_name}: {type_text(info.annotation, where)}"
        default = default_text(info, where)
        lines.append(line if default is None else f"{line} = {default}")
    return lines


_VERSION = re.compile(r"^SCHEMA_VERSION = .*$", re.M)


def generate(source: str) -> str:
    """`source` (wire.py's text) with every record's block, and its SCHEMA_VERSION, rewritten from core.runs."""
    versions = _VERSION.findall(source)
    if len(versions) != 1:
        raise GenerationError(f"wire.py: {len(versions)} lines assign SCHEMA_VERSION, not one")
    source = _VERSION.sub(f"SCHEMA_VERSION = {runs.SCHEMA_VERSION!r}", source)
    lines = source.split("\n")
    out: list[str] = []
    current: str | None = None
    seen: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        match = _CLASS.match(line)
        if match:
            current = match.group(1)
        if line != BEGIN:
            if line == END:
                raise GenerationError(f"wire.py line {i + 1}: an end marker without its begin marker")
            out.append(line)
            i += 1
            continue
        if current not in RECORDS:
            raise GenerationError(f"wire.py line {i + 1}: a generated block outside a record class ({current})")
        if current in seen:
            raise GenerationError(f"wire.py line {i + 1}: a second generated block in {current}")
        try:
            end = lines.index(END, i + 1)
        except ValueError:
            raise GenerationError(f"wire.py line {i + 1}: {current}'s block has no end marker") from None
        out += [BEGIN, *field_lines(current), END]
        seen.append(current)
        i = end + 1
    missing = [name for name in RECORDS if name not in seen]
    if missing:
        raise GenerationError(f"wire.py: no generated block in {', '.join(missing)}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.gen_wire", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether wire.py is up to date")
    parser.add_argument("--path", type=Path, default=WIRE, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    current = args.path.read_text(encoding="utf-8")
    try:
        wanted = generate(current)
    except GenerationError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if current == wanted:
        print(f"{args.path.name} is up to date")
        return 0
    if args.check:
        print(f"{args.path.name} is not what core/runs.py generates: run python -m tools.gen_wire", file=sys.stderr)
        return 1
    args.path.write_text(wanted, encoding="utf-8")
    print(f"{args.path.name} rewritten from core/runs.py")
    return 0


if __name__ == "__main__":
    sys.exit(main())
