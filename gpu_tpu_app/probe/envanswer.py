"""An environment's answer to the query, read as untrusted input: bounded in size and time, validated.

Whatever an interpreter prints (envquery.py's JSON lines, or anything its site-packages or a framework
import writes instead) may be wrong: JSON of the wrong types, nested 100,000 deep, lines of megabytes,
an endless stream, escape sequences in names. `read_process` reads at most ANSWER_MAX_BYTES of its
stdout within the timeout and stops it past either; `parse_answer` keeps only well-formed parts, each
value checked for its type and cut to its field's length on one line, and counts the lines it drops.
App side, standard library only (the result is turned into a PythonEnv by envs.py).
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import time
from dataclasses import dataclass, field

from gpu_tpu_app.probe import guarded
from gpu_tpu_app.shared.cliutil import one_line

#: The most an interpreter's answer may take (a real one is under 10 KB).
ANSWER_MAX_BYTES = 1024 * 1024
#: The most of its stderr kept (for the last line of a crash).
STDERR_MAX_BYTES = 64 * 1024
#: One answer line longer than this is dropped unread (a part with 256 device names is under 64 KB).
LINE_MAX_BYTES = 256 * 1024
#: Devices kept per framework, and the lengths of the texts kept (the PythonEnv fields' limits).
MAX_DEVICES = 256
DEVICE_CHARS = 200
VERSION_KEY_CHARS = 40
VERSION_CHARS = 80
MAX_VERSIONS = 64
ERROR_CHARS = 500
PYTHON_CHARS = 40


@dataclass
class Output:
    """What a query process wrote and how it ended; `verdict` is None when it exited with status 0."""

    stdout: bytes = b""
    stderr: str = ""
    verdict: str | None = None


def _signal_name(code: int) -> str:
    try:
        return signal.Signals(-code).name
    except ValueError:
        return f"signal {-code}"


def _kill_group(proc: subprocess.Popen) -> None:
    """End the interpreter: it runs under the process guard (probe/guarded.py), which ends it and all
    it started when told to stop (SIGTERM), and is killed with its group when it does not in time."""
    guarded.stop(proc)


def read_process(proc: subprocess.Popen, timeout_s: float, limit: int = ANSWER_MAX_BYTES) -> Output:
    """Read `proc`'s stdout and stderr pipes until it closes them, for at most `timeout_s` seconds and
    `limit` bytes of stdout; past either, its process group is killed. Never raises for what it wrote."""
    assert proc.stdout is not None and proc.stderr is not None
    out, err = bytearray(), bytearray()
    sel = selectors.DefaultSelector()
    for stream in (proc.stdout, proc.stderr):
        os.set_blocking(stream.fileno(), False)
        sel.register(stream.fileno(), selectors.EVENT_READ)
    deadline = time.monotonic() + timeout_s
    verdict: str | None = None
    try:
        while sel.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                verdict = f"did not answer within {timeout_s:.0f} s"
                break
            for key, _ in sel.select(min(left, 0.5)):
                try:
                    chunk = os.read(key.fd, 1 << 16)
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b""
                if not chunk:
                    sel.unregister(key.fd)
                elif key.fd == proc.stdout.fileno():
                    out += chunk
                else:
                    err += chunk
                    del err[:-STDERR_MAX_BYTES]
            if len(out) > limit:
                verdict = f"wrote more than {limit // 1024} KiB of answer; stopped it"
                break
    finally:
        sel.close()
    if verdict is not None:
        _kill_group(proc)
    try:
        code = proc.wait(timeout=max(0.5, deadline - time.monotonic()) if verdict is None else 5)
    except subprocess.TimeoutExpired:  # closed its pipes but kept running
        _kill_group(proc)
        code = proc.wait(timeout=5)
        verdict = verdict or f"did not answer within {timeout_s:.0f} s"
    for stream in (proc.stdout, proc.stderr):
        stream.close()
    if verdict is None and code < 0:
        verdict = f"crashed ({_signal_name(code)})"
    elif verdict is None and code:
        verdict = f"exited with status {code}"
    data = bytes(out[:limit])
    if len(out) > limit:  # cut mid-line: only whole lines are part of the answer
        data = data[: data.rfind(b"\n") + 1]
    return Output(data, err.decode("utf-8", "replace"), verdict)


# ---------------------------------------------------------------- the answer's lines


def text(value: object, limit: int) -> str | None:
    """A string value on one line, cut to `limit` characters; None for anything that is not a string."""
    if not isinstance(value, str):
        return None
    shown = one_line(value.encode("utf-8", "backslashreplace").decode("utf-8"))
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def versions_of(value: object) -> dict[str, str]:
    """A part's "versions": string keys to string values only, each on one line and cut."""
    if not isinstance(value, dict):
        return {}
    out: dict[str, str] = {}
    for k, v in list(value.items())[:MAX_VERSIONS]:
        key, val = text(k, VERSION_KEY_CHARS), text(v, VERSION_CHARS)
        if key and val is not None:
            out[key] = val
    return out


def devices_of(value: object) -> list[str]:
    """A part's "devices": the strings in a list, each on one line and cut, at most MAX_DEVICES."""
    if not isinstance(value, list):
        return []
    return [t for d in value[:MAX_DEVICES] if (t := text(d, DEVICE_CHARS))]


@dataclass
class Answer:
    """The well-formed parts of an answer ('meta', 'torch', 'jax', 'end'), the framework whose import
    started but never finished, and the lines dropped (a count, and the first one's problem)."""

    parts: dict[str, dict] = field(default_factory=dict)
    started: str | None = None
    dropped: int = 0
    first_problem: str = ""

    def drop(self, problem: str) -> None:
        self.dropped += 1
        self.first_problem = self.first_problem or problem

    def note(self) -> str | None:
        """'2 lines of its answer were dropped (first: nested too deeply)', or None."""
        if not self.dropped:
            return None
        lines = "1 line of its answer was" if self.dropped == 1 else f"{self.dropped} lines of its answer were"
        return f"{lines} dropped (first: {self.first_problem})"


PARTS = ("meta", "start", "torch", "jax", "end")


def parse_answer(stdout: bytes) -> Answer:
    """The query's JSON lines in `stdout`; other lines are skipped (a framework may print a banner),
    and those that claim to be JSON but are not a well-formed part are counted as dropped."""
    answer = Answer()
    for raw in stdout.split(b"\n"):
        line = raw.strip()
        if not line.startswith((b"{", b"[")):
            continue  # not meant as part of the answer
        if len(line) > LINE_MAX_BYTES:
            answer.drop(f"a line over {LINE_MAX_BYTES // 1024} KiB")
            continue
        try:
            obj = json.loads(line.decode("utf-8", "replace"))
        except RecursionError:
            answer.drop("JSON nested too deeply")
            continue
        except ValueError:
            answer.drop("not JSON")
            continue
        part = obj.get("part") if isinstance(obj, dict) else None
        if part not in PARTS:
            answer.drop("not a part of the query's answer")
            continue
        if part == "start":
            fw = obj.get("framework")
            answer.started = fw if fw in ("torch", "jax") else None
            continue
        answer.parts[part] = obj
        if part == answer.started:
            answer.started = None
    return answer
