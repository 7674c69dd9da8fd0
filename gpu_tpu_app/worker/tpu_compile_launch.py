"""The parent's half of the model check's TPU compile: start the compiling child (worker/tpu_compile.py,
the TPU compiler in a process of its own), read its lines while the model-check worker runs its own stages,
and turn them into the `tpu_compile` finding within the check's timeout.

`start_child` starts it (or says at once why the compiler cannot run in this interpreter); `CompileChild`
reads its pipes from two threads, `collect`s its lines in order and stops it on `cancel`; `compile_in_child`
does both in one call. Every generation that sent no line is marked failed with the reason (the timeout, or
how the child ended).

Standard library only: this module may run in the user's own interpreter.
"""

from __future__ import annotations

import importlib.util
import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from gpu_tpu_app.worker.notes import note
from gpu_tpu_app.worker.tpu_compile import TPU_ENV, _short, topology_name

#: after the child has ended, how long its pipes' readers may take to hand over what is left.
DRAIN_S = 2.0


def unavailable_reason(framework: str) -> str | None:
    """Why the TPU compiler cannot run in this interpreter (without importing it), or None."""
    if importlib.util.find_spec("libtpu") is None:
        return note("check.no_libtpu")
    if framework == "pytorch" and importlib.util.find_spec("torchax") is None:
        return note("check.no_torchax")
    return None


def child_command(args: list[str]) -> list[str]:
    """argv of the compiling child: this same program (or bundle) with the tpu-compile-worker entry."""
    if getattr(sys, "frozen", False):
        return [sys.executable, "tpu-compile-worker", *args]
    return [sys.executable, "-m", "gpu_tpu_app.worker.tpu_compile", *args]


def _last_words(stderr: bytes) -> str:
    """The last line of the child's stderr that is not one of libtpu's start-up warnings."""
    for line in reversed(stderr.decode("utf-8", "replace").splitlines()):
        text = line.strip()
        if text and not text.startswith(("WARNING", "Failed to find host bounds", "===", "learning/")):
            return _short(text, 240)
    return ""


def compile_in_child(
    path: str,
    framework: str,
    chips: int,
    targets: list[dict[str, Any]],
    timeout_s: float,
    on_stage: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Compile the model file for `targets` in a child process; the `tpu_compile` finding (never raises)."""
    child = start_child(path, framework, chips, targets, timeout_s)
    return child if isinstance(child, dict) else child.collect(on_stage)


def start_child(
    path: str, framework: str, chips: int, targets: list[dict[str, Any]], timeout_s: float
) -> CompileChild | dict[str, Any]:
    """Start compiling in a child process now (the model-check worker goes on with its own stages meanwhile), or
    the `tpu_compile` finding at once when the compiler cannot run here."""
    base: dict[str, Any] = {
        "status": "unavailable",
        "failure": "not_run",
        "detail": "",
        "route": "",
        "libtpu": None,
        "chips": chips,
    }
    reason = unavailable_reason(framework)
    if reason is not None:
        return {**base, "detail": reason}
    if not targets:
        return {**base, "detail": "no TPU generation in the catalogue names a compile target"}
    if timeout_s < 5:
        return {
            **base,
            "status": "failed",
            "failure": "timed_out",
            "detail": "no time was left in the check's timeout to compile for TPUs",
        }
    return CompileChild(path, framework, chips, targets, timeout_s, base)


class CompileChild:
    """One compiling child, started at once. Its pipes are read by two threads from the start, so that libtpu's
    start-up warnings cannot fill a pipe and stall it while the worker runs its own stages; `collect` then
    hands its lines over in order and waits for the rest, within the child's timeout; `cancel` stops it."""

    def __init__(
        self,
        path: str,
        framework: str,
        chips: int,
        targets: list[dict[str, Any]],
        timeout_s: float,
        base: dict[str, Any],
    ) -> None:
        self.chips, self.targets, self.timeout_s, self.base = chips, targets, timeout_s, base
        argv = [
            path,
            "--framework",
            framework,
            "--chips",
            str(chips),
            "--targets",
            json.dumps(targets, allow_nan=False),
        ]
        env = dict(os.environ)
        for name, value in TPU_ENV.items():
            env.setdefault(name, value)
        env["PYTHONUNBUFFERED"] = "1"
        self.start = time.monotonic()
        self.proc = subprocess.Popen(
            child_command(argv), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
        )
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.err_tail = b""
        self._readers = [
            threading.Thread(target=self._read_out, daemon=True),
            threading.Thread(target=self._read_err, daemon=True),
        ]
        for t in self._readers:
            t.start()

    def _read_out(self) -> None:
        assert self.proc.stdout is not None
        buf = b""
        while data := os.read(self.proc.stdout.fileno(), 1 << 16):
            buf += data
            *lines, buf = buf.split(b"\n")
            for raw in lines:
                self.lines.put(raw)
        if buf:
            self.lines.put(buf)
        self.lines.put(None)  # the child's stdout closed

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        while data := os.read(self.proc.stderr.fileno(), 1 << 16):
            self.err_tail = (self.err_tail + data)[-8192:]

    def cancel(self) -> None:
        """Stop the child (its result is not needed) and close its pipes."""
        self._end()

    def _end(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for t in self._readers:
            t.join(timeout=DRAIN_S)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()

    def collect(self, on_stage: Callable[[str], None] | None = None) -> dict[str, Any]:
        """The `tpu_compile` finding: every line the child sent, then its end (or the timeout); never raises."""
        result = dict(self.base)
        generations: list[dict[str, Any]] = []
        timed_out = False
        try:
            while True:
                left = self.timeout_s - (time.monotonic() - self.start)
                if left <= 0:
                    timed_out = True
                    break
                try:
                    raw = self.lines.get(timeout=min(left, 0.5))
                except queue.Empty:
                    continue
                if raw is None:
                    break
                _take(raw, result, generations, on_stage)
            if not timed_out:
                try:
                    self.proc.wait(timeout=max(1.0, self.timeout_s - (time.monotonic() - self.start)))
                except subprocess.TimeoutExpired:
                    timed_out = True
        finally:
            self._end()
        return _finish(
            result,
            generations,
            self.targets,
            self.chips,
            self.proc.returncode,
            timed_out,
            self.timeout_s,
            self.err_tail,
        )


def _take(
    raw: bytes, result: dict[str, Any], generations: list[dict[str, Any]], on_stage: Callable[[str], None] | None
) -> None:
    try:
        msg = json.loads(raw.decode("utf-8", "replace"))
    except ValueError:
        return
    if not isinstance(msg, dict):
        return
    kind = msg.get("type")
    if kind == "stage" and on_stage is not None:
        on_stage(_short(msg.get("stage", ""), 200))
    elif kind == "start":
        result.update(status="ok", failure=None, libtpu=msg.get("libtpu"), route=_short(msg.get("route", ""), 300))
        said = msg.get("said")
        if isinstance(said, dict) and said.get("route"):  # the route's notes (core.notes.mark), kept with it
            result["said"] = {"route": said["route"]}
        if isinstance(msg.get("startup_seconds"), (int, float)):
            result["startup_seconds"] = msg["startup_seconds"]
    elif kind == "generation" and isinstance(msg.get("generation"), dict) and len(generations) < 20:
        generations.append(msg["generation"])
    elif kind == "error":
        result.update(status="failed", failure="check_limit", detail=_short(msg.get("detail", "")))


def _finish(
    result: dict[str, Any],
    generations: list[dict[str, Any]],
    targets: list[dict[str, Any]],
    chips: int,
    returncode: int | None,
    timed_out: bool,
    timeout_s: float,
    err_tail: bytes,
) -> dict[str, Any]:
    """The finding, with every target that sent no line marked failed and why (timeout or the child's end)."""
    if result["status"] == "failed":
        return {**result, "generations": generations}
    done = {g.get("chip") for g in generations}
    failure = "timed_out" if timed_out else "check_limit"
    if timed_out:
        why = f"did not finish within {timeout_s:.0f} s (the rest of the check's timeout); stopped"
    elif returncode:
        how = f"signal {-returncode}" if returncode < 0 else f"exit code {returncode}"
        words = _last_words(err_tail)
        why = f"the TPU compiler's process ended with {how}" + (f" ({words})" if words else "")
    else:
        why = "the TPU compiler's process ended without a result"
    missing = [t for t in targets if t.get("id") not in done]
    if result["status"] != "ok":
        return {**result, "status": "failed", "failure": failure, "detail": why, "generations": []}
    for t in missing:
        name, _ = topology_name(str(t["topology"]), chips, int(t["dims"]))
        generations.append(
            {
                "chip": t["id"],
                "topology": name,
                "chips": chips,
                "status": "failed",
                "failure": failure,
                "detail": why,
                "programs": [],
            }
        )
    result["detail"] = f"{len(targets) - len(missing)} of {len(targets)} generation(s) answered" + (
        f"; {why}" if missing else ""
    )
    return {**result, "generations": generations}
