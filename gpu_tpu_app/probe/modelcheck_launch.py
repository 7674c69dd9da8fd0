"""Start the model-check worker and read it: the light side, used by the CLI and the window.

Nothing here imports torch, jax or the user's file: the worker (gpu_tpu_app.worker.modelcheck) runs
them under the process guard (worker/guard.py, started through probe/guarded.py), in its own session
and process group, under a memory limit it cannot lift, and is stopped when it runs past the timeout.
Whatever the file starts ends with the check: the guard kills every descendant before it exits, and it
dies with the CLI or window. The result is read until the guard has exited, so a grandchild that holds
the worker's pipes cannot turn an immediate answer into a time-out.
"""

from __future__ import annotations

import functools
import json
import os
import selectors
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.check_limits import DEFAULT_MEMORY_LIMIT_MB, DEFAULT_TIMEOUT_S, DEFAULT_TPU_CHIPS
from gpu_tpu_app.core.modelcheck import CheckSession, Findings, ModelCheck, WorkerStage
from gpu_tpu_app.core.tpu_compile import targets
from gpu_tpu_app.probe import envs, guarded
from gpu_tpu_app.probe.protocol import frozen


@functools.lru_cache(maxsize=1)
def tpu_targets_json() -> str:
    """The catalogue's TPU compile targets (core.tpu_compile.targets) as the worker takes them."""
    try:
        return json.dumps(targets(load_catalog()), separators=(",", ":"), allow_nan=False)
    except Exception:  # a broken catalogue is reported where it is shown; the check then compiles for none
        return "[]"


def worker_command(
    file: str | Path,
    memory_limit_mb: int = DEFAULT_MEMORY_LIMIT_MB,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    tpu_chips: int = DEFAULT_TPU_CHIPS,
    python: str | None = None,
) -> list[str]:
    """argv that checks one model file: this same program with the hidden model-check-worker subcommand,
    or, in the user's own interpreter `python`, the stdlib-only worker module (staged by worker_env)."""
    if not envs.is_own(python):
        base = [os.path.abspath(str(python)), "-m", "gpu_tpu_app.worker.modelcheck"]
    elif frozen():
        base = [sys.executable, "model-check-worker"]
    else:
        base = [sys.executable, "-m", "gpu_tpu_app", "model-check-worker"]
    return [
        *base,
        str(file),
        "--memory-limit-mb",
        str(int(memory_limit_mb)),
        "--timeout",
        f"{float(timeout_s):g}",
        "--tpu-chips",
        str(int(tpu_chips)),
        "--tpu-targets",
        tpu_targets_json(),
    ]


def worker_env(base: dict[str, str] | None = None, python: str | None = None) -> dict[str, str]:
    """The worker's environment: the caller's, unbuffered, JAX on the CPU (lowering and compiling for TPU
    need no TPU); for another interpreter, only the staged worker sources on PYTHONPATH (its own packages
    come first)."""
    env = dict(os.environ if base is None else base)
    if not envs.is_own(python):
        env = envs.foreign_env(env)
    env["PYTHONUNBUFFERED"] = "1"
    env.setdefault("JAX_PLATFORMS", "cpu")
    env.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    env.setdefault("TORCHDYNAMO_VERBOSE", "0")
    env.setdefault("TPU_SKIP_MDS_QUERY", "1")  # libtpu on a host without TPUs: no metadata-server query
    return env


def utf8_path(file: str | Path) -> bool:
    """Whether a path is valid UTF-8 (a name in another encoding reaches Python with lone surrogates, which the
    worker's JSON lines cannot carry)."""
    try:
        str(file).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def shown_path(file: str | Path) -> str:
    """A path as printable text: bytes that are not UTF-8 written as \\xNN."""
    return os.fsencode(str(file)).decode("utf-8", "backslashreplace")


def precheck(file: str | Path, python: str | None = None, language: str | None = None) -> str | None:
    """The one-line error for a path that cannot be a model file (or a Python that cannot run), before any
    process starts; in `language` (None: the one in use)."""
    from gpu_tpu_app.core.texts import text

    def say(ident: str, **values: object) -> str:
        return text(f"cli.check_model.{ident}", language=language, **values)

    if not envs.is_own(python):
        interpreter = Path(str(python))
        if not interpreter.is_file():
            return say("no_interpreter", python=python)
        if not os.access(interpreter, os.X_OK):
            return say("not_executable", python=python)
    if not utf8_path(file):
        return say("path_not_utf8", file=shown_path(file))
    path = Path(file)
    if not path.exists():
        return say("no_file", file=file)
    if path.is_dir():
        return say("is_folder", file=file)
    return None


#: after the guard has exited, how long its pipes may take to deliver what is left.
DRAIN_S = 1.0


def run_check(
    file: str | Path,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    memory_limit_mb: int = DEFAULT_MEMORY_LIMIT_MB,
    on_stage: Callable[[WorkerStage], None] | None = None,
    tpu_chips: int = DEFAULT_TPU_CHIPS,
    python: str | None = None,
    language: str | None = None,
) -> ModelCheck | str:
    """Check one model file in a worker process (in `python` when given); the ModelCheck, or the one-line
    error as a str, in `language` (None: the interface language in use)."""
    return run_check_detailed(file, timeout_s, memory_limit_mb, on_stage, tpu_chips, python, language)[0]


def run_check_detailed(
    file: str | Path,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    memory_limit_mb: int = DEFAULT_MEMORY_LIMIT_MB,
    on_stage: Callable[[WorkerStage], None] | None = None,
    tpu_chips: int = DEFAULT_TPU_CHIPS,
    python: str | None = None,
    language: str | None = None,
) -> tuple[ModelCheck | str, Findings | None]:
    """run_check, plus the worker's raw findings (parameters, peak memory, worker time) when it sent them."""
    bad = precheck(file, python, language)
    if bad:
        return bad, None
    session = CheckSession(str(file), timeout_s, memory_limit_mb, language)
    start = time.monotonic()
    try:
        proc = guarded.start(
            worker_command(file, memory_limit_mb, timeout_s, tpu_chips, python),
            env=worker_env(python=python),
            memory_limit_mb=memory_limit_mb,
            report_signal=True,  # SIGKILL of the worker may be memory; of the guard itself, never
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    except OSError as exc:
        return f"{file}: the check's worker could not start: {exc.strerror or exc}", None
    assert proc.stdout is not None and proc.stderr is not None
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ, "out")
    sel.register(proc.stderr, selectors.EVENT_READ, "err")
    err_tail = b""
    open_streams = 2
    timed_out = False
    ended_at: float | None = None  # when the guard (and so everything below it) had exited
    try:
        while open_streams:
            now = time.monotonic()
            left = timeout_s - (now - start)
            if left <= 0:
                timed_out = True
                break
            if ended_at is None and proc.poll() is not None:
                ended_at = now
                guarded.sweep(getattr(proc, "guard_mark", None))  # a killed guard's leftovers: their pipes close
            if ended_at is not None and now - ended_at > DRAIN_S:
                break  # nothing that could still write is alive
            for key, _ in sel.select(min(left, 0.1 if ended_at is not None else 0.5)):
                data = os.read(key.fileobj.fileno(), 1 << 16)  # type: ignore[union-attr]  # only pipes are registered, never raw descriptors
                if not data:
                    sel.unregister(key.fileobj)
                    open_streams -= 1
                elif key.data == "out":
                    for msg in session.feed(data):
                        if isinstance(msg, WorkerStage) and on_stage is not None:
                            on_stage(msg)
                else:
                    err_tail = (err_tail + data)[-4096:]
        if not timed_out:
            try:
                proc.wait(timeout=max(1.0, timeout_s - (time.monotonic() - start)))
            except subprocess.TimeoutExpired:
                timed_out = True
    except KeyboardInterrupt:
        guarded.stop(proc)
        raise
    finally:
        guarded.stop(proc)
        sel.close()
        proc.stdout.close()
        proc.stderr.close()
    result = session.finish(
        proc.returncode, time.monotonic() - start, timed_out=timed_out, stderr_tail=err_tail.decode("utf-8", "replace")
    )
    return result, session.findings
