"""The model-check worker's shared basics: its output lines, the user's file as a module, the user's errors.

Worker side: the standard library only. gpu_tpu_app.worker.modelcheck (the entry point),
gpu_tpu_app.worker.modelcheck.jax_check (the JAX stages) and gpu_tpu_app.worker.modelcheck.torch_check (the PyTorch
stages) build on it.
"""

from __future__ import annotations

import json
import os
import re
import sys
import traceback
import types
from collections.abc import Callable
from typing import IO, Any, NoReturn

from gpu_tpu_app.shared.notes import mark

#: how many items of one kind (ops, locations, breaks) a finding lists at most.
MAX_ITEMS = 20
#: the longest text one finding carries.
MAX_TEXT = 400
#: pytree leaves / tensors one input tuple may have before the worker refuses it.
MAX_LEAVES = 10_000

_OUT: IO[str] = sys.stdout


def set_output(stream: IO[str]) -> None:
    """Send the worker's JSON lines to `stream` (the real stdout, kept aside from what the model prints)."""
    global _OUT
    _OUT = stream


def _emit(obj: dict[str, Any]) -> None:
    _OUT.write(json.dumps(mark(obj), default=str) + "\n")
    _OUT.flush()


def _stage(stage: str, function: str | None = None) -> None:
    _emit({"type": "stage", "stage": stage, "function": function})


def printable(value: object) -> str:
    """str(value), or what it is when its __str__ raises (an exception from the user's code may): never raises."""
    try:
        return value if isinstance(value, str) else str(value)
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        try:
            name = type(exc).__name__
        except BaseException:
            name = "an exception"
        return f"(its message cannot be shown: {type(value).__name__}.__str__ raised {name})"


def _short(text: object, limit: int = MAX_TEXT) -> str:
    s = " ".join(printable(text).split())
    return s if len(s) <= limit else s[: limit - 1] + "…"


def _raising(exc: BaseException) -> Callable[[], NoReturn]:
    """A callable that raises `exc` again, so loader._run reports it as the user's error."""

    def again() -> NoReturn:
        raise exc

    return again


def _first_line(text: object) -> str:
    for line in printable(text).splitlines():
        if line.strip():
            return _short(line.strip())
    return ""


class UserError(Exception):
    """Something in the user's file: message, the function it happened in, the line in their file."""

    def __init__(self, kind: str, message: str, function: str | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.function = function
        self.line = line


class Loader:
    """The user's file as a module, and calls into it that turn exceptions into UserError."""

    def __init__(self, path: str) -> None:
        self.path = os.path.abspath(path)
        self.module: types.ModuleType | None = None

    def user_line(self, tb: types.TracebackType | None) -> int | None:
        """The deepest line of the traceback that lies in the user's file."""
        line = None
        for frame in traceback.extract_tb(tb):
            if os.path.abspath(frame.filename) == self.path:
                line = frame.lineno
        return line

    def user_location(self) -> str | None:
        """file:line of the innermost frame of the current stack inside the user's file."""
        for frame in reversed(traceback.extract_stack()):
            if os.path.abspath(frame.filename) == self.path:
                return f"{os.path.basename(self.path)}:{frame.lineno}"
        return None

    def location_in(self, text: str) -> str | None:
        """file:line of the last mention of the user's file in an error text (export errors quote it)."""
        name = re.escape(self.path)
        hits = re.findall(rf'{name}"?(?:, line |:)(\d+)', text)
        return f"{os.path.basename(self.path)}:{hits[-1]}" if hits else None

    def load(self) -> types.ModuleType:
        _stage("loading the file", None)
        try:
            with open(self.path, "rb") as fh:
                source = fh.read(4 * 1024 * 1024 + 1)
        except FileNotFoundError:
            raise UserError("file", "no such file") from None
        except IsADirectoryError:
            raise UserError("file", "is a folder, not a Python file") from None
        except OSError as exc:
            raise UserError("file", f"cannot read: {exc.strerror or exc}") from None
        if len(source) > 4 * 1024 * 1024:
            raise UserError("file", "larger than 4 MiB; a model file is expected to be small")
        try:
            code = compile(source, self.path, "exec")
        except SyntaxError as exc:
            raise UserError("syntax", f"SyntaxError: {exc.msg}", None, exc.lineno) from None
        except ValueError as exc:  # null bytes
            raise UserError("syntax", f"not Python source: {exc}") from None
        module = types.ModuleType("gpu_tpu_app_user_model")
        module.__file__ = self.path
        sys.modules[module.__name__] = module
        sys.path.insert(0, os.path.dirname(self.path))
        self._run(lambda: exec(code, module.__dict__), "(module level)")
        self.module = module
        return module

    def has(self, name: str) -> bool:
        return callable(getattr(self.module, name, None))

    def call(self, name: str, *args: Any) -> Any:
        """Call the user's function `name`, reporting where it failed in their file."""
        fn = getattr(self.module, name)
        _stage(f"calling {name}()", f"{name}()")
        return self._run(lambda: fn(*args), f"{name}()")

    def _run(self, thunk: Callable[[], Any], function: str) -> Any:
        try:
            return thunk()
        except UserError:
            raise
        except MemoryError:
            raise UserError(
                "memory",
                "ran out of memory (MemoryError) under the check's memory limit",
                function,
                self.user_line(sys.exc_info()[2]),
            ) from None
        except RecursionError as exc:
            raise UserError(
                "user", f"RecursionError: {_short(exc)}", function, self.user_line(exc.__traceback__)
            ) from None
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            text = _first_line(exc) or "(no message)"
            kind = "memory" if _is_oom(text) else "user"
            if isinstance(exc, ImportError):  # the package is missing here: say which Python looked for it
                raise UserError(
                    "module",
                    f"{type(exc).__name__}: {text} (in the Python at {sys.executable})",
                    function,
                    self.user_line(exc.__traceback__),
                ) from None
            if kind == "memory":
                text = f"ran out of memory under the check's memory limit ({text})"
            else:
                text = f"{type(exc).__name__}: {text}"
            raise UserError(kind, text, function, self.user_line(exc.__traceback__)) from None


def _is_oom(text: str) -> bool:
    low = text.lower()
    return any(
        s in low
        for s in (
            "can't allocate memory",
            "cannot allocate memory",
            "out of memory",
            "resource_exhausted",
            "bad_alloc",
            "failed to allocate",
        )
    )


def _framework(loader: Loader) -> str:
    has = loader.has
    if has("model") and has("example_inputs"):
        return "pytorch"
    if has("params") and has("forward") and has("example_inputs"):
        return "jax"
    found = [n for n in ("model", "params", "forward", "example_inputs") if has(n)]
    raise UserError(
        "entry",
        "defines neither model() and example_inputs() (PyTorch) nor params(), "
        "forward(params, *inputs) and example_inputs() (JAX)"
        + (f"; found only {', '.join(n + '()' for n in found)}" if found else ""),
    )


def _other_inputs(loader: Loader) -> list[Any]:
    if not loader.has("other_inputs"):
        return []
    value = loader.call("other_inputs")
    if not isinstance(value, (list, tuple)):
        raise UserError(
            "contract",
            f"other_inputs() must return a list of input tuples, got {type(value).__name__}",
            "other_inputs()",
        )
    if len(value) > 32:
        raise UserError(
            "contract", f"other_inputs() returned {len(value)} input tuples; at most 32 are checked", "other_inputs()"
        )
    return list(value)


def _as_tuple(value: Any, function: str) -> tuple:
    if isinstance(value, list):
        value = tuple(value)
    if not isinstance(value, tuple):
        raise UserError("contract", f"{function} must return a tuple of inputs, got {type(value).__name__}", function)
    return value
