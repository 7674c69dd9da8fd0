"""What gpu-tpu-probe's subcommands share: checking --out and --csv before measuring, saving them (with a
fallback file when the place asked for refuses), --python, the flag checks and the help text's wrapping."""

from __future__ import annotations

import argparse
import contextlib
import os
import stat
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any

from gpu_tpu_app import APP_NAME
from gpu_tpu_app.atomic import resolve_target, write_text
from gpu_tpu_app.core.runs import CSV_COLUMNS, RunFile, load_run, to_csv
from gpu_tpu_app.core.texts import text
from gpu_tpu_app.errors import InputError
from gpu_tpu_app.probe import envs

CSV_HEADER = ",".join(CSV_COLUMNS).encode()


def _error(ident: str, **values: Any) -> str:
    """One of the flag and output-file problems (resources/text/cli.* [probe_commands.errors]) in the language in use."""
    return text(f"cli.probe_commands.errors.{ident}", **values)


def paragraphs(*texts: str, width: int = 78) -> str:
    """Help text paragraphs, each wrapped to `width` terminal columns (Chinese between characters too) and kept
    apart by a blank line: for RawDescriptionHelpFormatter."""
    from gpu_tpu_app.clilang import fill

    return "\n\n".join(fill(" ".join(p.split()), width) for p in texts)


def check_output(path: str, flag: str) -> Path:
    """Refuse, before measuring anything, an output path that cannot be written or would overwrite a
    foreign file; returns the file a save will write (symlinks followed)."""
    p = Path(path)
    try:
        target = resolve_target(p)
        st: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise InputError(_error("cannot_write_there", path=p, flag=flag, problem=exc.strerror or exc)) from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise InputError(_error("is_folder", path=p, flag=flag))
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise InputError(_error("not_regular", path=p, flag=flag))
    if st is not None and st.st_size and flag == "--out":
        try:
            load_run(target)
        except InputError:
            raise InputError(_error("not_a_run", path=p, flag=flag)) from None
    if st is not None and st.st_size and flag == "--csv":
        try:
            with open(target, "rb") as fh:
                head = fh.read(len(CSV_HEADER) + 1)
        except OSError as exc:
            raise InputError(_error("cannot_read", path=p, flag=flag, problem=exc.strerror or exc)) from None
        if head.rstrip(b"\r\n") != CSV_HEADER:
            raise InputError(_error("not_a_csv", path=p, flag=flag))
    parent = target.parent if str(target.parent) else Path(".")
    while not os.path.lexists(parent) and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise InputError(_error("parent_not_folder", path=p, flag=flag, parent=parent))
    if not os.access(parent, os.W_OK):
        raise InputError(_error("parent_not_writable", path=p, flag=flag, parent=parent))
    return target


def check_outputs(args: argparse.Namespace) -> None:
    """check_output for --out and --csv, and refuse the two naming one file; before anything is measured."""
    if args.out:
        out_target = check_output(args.out, "--out")
    if args.csv:
        csv_target = check_output(args.csv, "--csv")
        if args.out and os.path.abspath(csv_target) == os.path.abspath(out_target):
            raise InputError(_error("same_file", path=args.csv))


def check_positive(value: float | None, flag: str) -> None:
    """InputError naming `flag` for a number of seconds that is not more than 0 (None: not given)."""
    if value is not None and value <= 0:
        raise InputError(_error("not_positive", flag=flag))


def fallback_dirs() -> list[Path]:
    """Where a run is kept when the file asked for cannot be written: the user's state folder, then a
    private folder in the temp folder."""
    import platformdirs

    return [Path(platformdirs.user_state_dir(APP_NAME, appauthor=False)) / "unsaved-runs", Path(tempfile.gettempdir())]


def save_fallback(data: str, wanted: str, dirs: list[Path] | None = None) -> tuple[Path | None, str]:
    """Save `data` (what could not be written to `wanted`) in the first fallback folder that takes it.

    Returns (the path written, "") or (None, why the last folder refused too).
    """
    name = Path(wanted).name
    stem = "".join(c for c in Path(name).stem if c.isalnum() or c in "._-")[:40].strip(".") or "run"
    suffix = Path(name).suffix if Path(name).suffix in (".json", ".csv") else ".json"
    stamp = time.strftime("%Y%m%d-%H%M%S")
    why = "no fallback folder"
    for folder in fallback_dirs() if dirs is None else dirs:
        try:
            if folder == Path(tempfile.gettempdir()):
                # shared and world-writable: a private folder, so no one can plant a link at a guessed name
                folder = Path(tempfile.mkdtemp(prefix=f"{APP_NAME}-unsaved-", dir=folder))
            path = folder / f"{stem}-{stamp}-{os.getpid()}{suffix}"
            count = 1
            while os.path.lexists(path):
                count += 1
                path = folder / f"{stem}-{stamp}-{os.getpid()}-{count}{suffix}"
            write_text(path, data)
            return path, ""
        except OSError as exc:
            why = f"{exc.filename or folder}: {exc.strerror or exc}"
    return None, why


def say(text: str, stream: IO[str] | None = None) -> bool:
    """Print a line; False when the stream is gone (a closed pipe or terminal), which never stops a save."""
    stream = stream or sys.stderr
    try:
        print(text, file=stream, flush=True)
        return True
    except (OSError, ValueError):
        if stream is sys.stdout:  # keep the interpreter's last flush of a dead stdout quiet
            with contextlib.suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return False


def save_outputs(run: RunFile, args: argparse.Namespace) -> tuple[list[str], dict[str, str]]:
    """Write --out and --csv; a file that cannot be written goes to a fallback file instead.

    Returns one error line per file that could not be written where asked, and where each
    flag's file went (the path asked for, or its fallback).
    """
    errors: list[str] = []
    written: dict[str, str] = {}
    for flag, wanted, render in (("--out", args.out, run_json), ("--csv", args.csv, to_csv)):
        if not wanted:
            continue
        data = render(run)
        try:
            write_text(wanted, data)
            written[flag] = wanted
            continue
        except OSError as exc:
            problem = exc.strerror or str(exc)
        kept, why = save_fallback(data, wanted)
        if kept is not None:
            written[flag] = str(kept)
            errors.append(_error("saved_instead", path=wanted, flag=flag, problem=problem, kept=kept))
        else:
            errors.append(_error("nothing_saved", path=wanted, flag=flag, problem=problem, why=why))
    return errors, written


def run_json(run: RunFile) -> str:
    return run.model_dump_json(indent=2) + "\n"


def check_python(path: str | None) -> str | None:
    """The interpreter --python names, after asking it what it has; InputError (one line) when it cannot run a probe."""
    if not path or envs.is_own(path):
        return None
    found = envs.lookup(path)
    if not found.usable:
        from gpu_tpu_app.core.environments import problem_words

        problem = problem_words(found.problem) if found.problem else _error("python_not_usable", path=path)
        raise InputError(_error("python", problem=problem))
    return found.interpreter
