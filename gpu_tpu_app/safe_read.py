"""The one way the app reads a user's file: bounded, regular files only, never blocking.

Every reader (run files, sessions, answers, preferences, content packs) goes through
`read_text`, `read_json_object` or (content packs) `read_toml_model`, so every one refuses the same things with one line
naming the file: a folder, a device, a named pipe, a socket, a symlink loop, a file over
its size cap, text that is not UTF-8, JSON nested too deeply. The caps are chosen so that
no real file meets them (see README, "Limits on files the app reads").
"""

from __future__ import annotations

import errno
import os
import stat
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from gpu_tpu_app.core.texts import text as _text
from gpu_tpu_app.errors import PROBLEM, InputError, from_validation, json_object

if TYPE_CHECKING:  # pydantic only where a content pack is validated: reading an answers file needs none
    from pydantic import BaseModel

M = TypeVar("M", bound="BaseModel")

KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB

#: run files and sessions (a session holds runs): a 520,000-result run file is about 300 MB.
MAX_DATA_FILE_BYTES = 1 * GIB
#: answers and preferences files: a full answers file is under 1 KB.
MAX_SMALL_FILE_BYTES = 1 * MIB
#: the lesson pack and the catalogue (shipped with the app, read the same way).
MAX_CONTENT_FILE_BYTES = 16 * MIB

#: any string read from a file unless a field says otherwise: names, hosts, kernels, versions.
NAME_CHARS = 1_000
#: messages, reasons, error texts and environment values (a worker's error can quote a traceback).
TEXT_CHARS = 65_536
#: the notes of a session (typed by the user).
NOTES_CHARS = 1_048_576


def _size(n: int) -> str:
    for unit, scale in (("GiB", GIB), ("MiB", MIB), ("KiB", KIB)):
        if n >= scale:
            return f"{n / scale:.3g} {unit}"
    return _text("errors.read.bytes", n=n)


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return _text("errors.read.kind.fifo")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return _text("errors.read.kind.device")
    if stat.S_ISSOCK(mode):
        return _text("errors.read.kind.socket")
    return _text("errors.read.kind.other")


def _os_problem(path: Path, exc: OSError) -> InputError:
    if isinstance(exc, FileNotFoundError) or exc.errno == errno.ENOTDIR:
        return InputError(f"{path}: {_text('errors.read.no_such_file')}")
    if exc.errno == errno.ELOOP:
        return InputError(f"{path}: {_text('errors.read.link_loop')}")
    return InputError(f"{path}: {_text('errors.read.cannot_read', problem=exc.strerror or exc)}")


def _check(path: Path, st: os.stat_result, what: str, limit: int) -> None:
    if stat.S_ISDIR(st.st_mode):
        raise InputError(f"{path}: {_text('errors.read.is_folder', what=what)}")
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"{path}: {_text('errors.read.is_kind', kind=_kind(st.st_mode), what=what)}")
    if st.st_size > limit:
        too_big = _text("errors.read.too_big", size=_size(st.st_size), limit=_size(limit), what=what)
        raise InputError(f"{path}: {too_big}")


def read_bytes(path: str | Path, what: str, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; InputError '<file>: <problem>' otherwise.

    The file is checked with stat before it is opened (a FIFO is never opened), opened
    non-blocking, checked again on the open descriptor, and read no further than `limit`.
    """
    path = Path(path)
    try:
        _check(path, os.stat(path), what, limit)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except InputError:
        raise
    except ValueError:  # a NUL byte in the path
        raise InputError(f"{path!r}: {_text('errors.read.bad_name')}") from None
    except OSError as exc:
        raise _os_problem(path, exc) from None
    try:
        _check(path, os.fstat(fd), what, limit)  # the same file, even if the name moved meanwhile
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(16 * MIB, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise _os_problem(path, exc) from None
    finally:
        os.close(fd)
    if total > limit:
        raise InputError(f"{path}: {_text('errors.read.grew', limit=_size(limit), what=what)}")
    return b"".join(chunks)


def read_text(path: str | Path, what: str, limit: int) -> str:
    """`read_bytes` decoded as UTF-8; InputError naming the file when it is not UTF-8 text."""
    data = read_bytes(path, what, limit)
    try:
        return data.decode("utf-8-sig")  # a byte-order mark (as some Windows editors write) is not content
    except UnicodeDecodeError as exc:
        raise InputError(f"{Path(path)}: {_text('errors.read.not_utf8', byte=exc.start, what=what)}") from None


def read_json_object(path: str | Path, what: str, limit: int) -> dict[str, Any]:
    """A file that must hold one JSON object, read with `read_text`; InputError otherwise."""
    return json_object(read_text(path, what, limit), Path(path), what)


def read_toml_model(path: Path, model: type[M], what: str) -> M:
    """Read a TOML content file into `model`; any problem is one InputError naming the file and field."""
    return validate_toml_model(path, read_toml(path, what), model)


def read_toml(path: Path, what: str) -> dict[str, Any]:
    """A TOML content file's tables, read with `read_text`; InputError naming the file when it is not TOML."""
    text = read_text(path, f"the {what}", MAX_CONTENT_FILE_BYTES)
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise InputError(f"{path}: not valid TOML (nested too deeply)") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: not valid TOML: {exc}") from None


def validate_toml_model(path: Path, data: dict[str, Any], model: type[M]) -> M:
    """`data` (a content file's tables) as `model`; any problem is one InputError naming the file and field."""
    from pydantic import ValidationError

    try:
        return model.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        first: dict[str, Any] = dict(errors[0]) if errors else {}
        if first.get("type") == PROBLEM:
            ctx = first.get("ctx") or {}
            more = int(ctx.get("count", 1)) - 1
            tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
            raise InputError(f"{path}: {ctx.get('path')}: {ctx.get('problem')}{tail}") from None
        raise from_validation(path, exc) from None
