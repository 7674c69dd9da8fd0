"""The parent's side of the worker protocol, free of any process API so the CLI and the GUI share it.

- `LineDecoder`: raw bytes from a worker's stdout -> Messages.
- `RunAssembler`: Messages (plus crash / timeout notices) -> a RunFile.
- `ProbeSession`: which worker to start next, with which budget, when a point has run past its
  cap, and whether a dead worker is restarted after the failed point.

The CLI drives a ProbeSession with subprocess (probe/runner.py); the GUI drives the same
object with QProcess and a timer. Nothing here imports torch, jax or Qt.
"""

from __future__ import annotations

import os
import platform
import signal
import socket
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from gpu_tpu_app import __version__
from gpu_tpu_app.core.ceilings import CeilingTracker, with_ceilings
from gpu_tpu_app.core.runs import SCHEMA_VERSION as RUN_SCHEMA_VERSION
from gpu_tpu_app.core.runs import (
    BackendStatus,
    CpuInfo,
    DeviceInfo,
    Done,
    ErrorMsg,
    Hello,
    HostsMsg,
    Message,
    ProbeResult,
    Progress,
    ProtocolError,
    ResultMsg,
    RunFile,
    parse_message,
)
from gpu_tpu_app.probe import envs
from gpu_tpu_app.shared.cliutil import one_line
from gpu_tpu_app.shared.machine import this_machine
from gpu_tpu_app.shared.terms import BACKENDS, CATALOG_ENV, SUITE_BUDGET_S, SUITES, metric_for, point_words
from gpu_tpu_app.worker import lifeline

#: A point may run this long past its cap (plus GRACE_FACTOR x cap) before its worker is killed.
GRACE_S = 2.0
GRACE_FACTOR = 0.5
#: Time a worker may take to import its backend and find devices before it is given up on.
STARTUP_TIMEOUT_S = 180.0
#: A worker asked to stop gets this long to say done before it is killed.
CANCEL_WAIT_S = 0.7
#: Restarts after crashes or timeouts, per backend, before the backend is given up on.
MAX_RESTARTS = 25


def signal_name(returncode: int) -> str:
    """'SIGSEGV' for a process that died with returncode -11."""
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return f"signal {-returncode}"


# ---------------------------------------------------------------- bytes -> messages


#: The longest line a worker may write: far above any message (a hosts message of 4,096 hosts is
#: about 2 MB); a longer line is dropped without being kept whole in memory.
MAX_LINE_BYTES = 16 * 1024 * 1024
#: How many dropped lines keep their problem text (the count covers them all).
KEPT_BAD_LINES = 20


class LineDecoder:
    """Split a worker's stdout (bytes chunks of any size) into Messages, one per JSON line.

    Lines that are not messages (not JSON, nested too deeply, over MAX_LINE_BYTES, not of this
    schema) are skipped and counted in `dropped`; the first KEPT_BAD_LINES keep their problem in
    `bad_lines`. `dropped_note()` says it in one line.
    """

    def __init__(self, max_line_bytes: int = MAX_LINE_BYTES) -> None:
        self._buf = bytearray()
        self._max = max_line_bytes
        self._skipping = False  # inside a line already over the limit: drop up to its newline
        self.bad_lines: list[str] = []
        self.dropped = 0

    def feed(self, data: bytes) -> list[Message]:
        """Add a chunk; return the messages of every line it completed."""
        out: list[Message] = []
        start = 0
        while start < len(data):
            nl = data.find(b"\n", start)
            end = len(data) if nl < 0 else nl
            if self._skipping:
                if nl >= 0:
                    self._skipping = False
            elif len(self._buf) + (end - start) > self._max:
                self._buf.clear()
                self._bad(f"a line longer than {self._max:,} bytes")
                self._skipping = nl < 0
            else:
                self._buf += data[start:end]
                if nl >= 0:
                    line = bytes(self._buf)
                    self._buf.clear()
                    out.extend(self._parse(line))
            if nl < 0:
                break
            start = nl + 1
        return out

    def flush(self) -> list[Message]:
        """The message of a last line without a newline, if any (call at end of stream)."""
        line = bytes(self._buf)
        self._buf.clear()
        self._skipping = False
        return self._parse(line)

    def _bad(self, problem: str) -> None:
        self.dropped += 1
        if len(self.bad_lines) < KEPT_BAD_LINES:
            self.bad_lines.append(problem)

    def _parse(self, line: bytes) -> list[Message]:
        if not line.strip():
            return []
        try:
            return [parse_message(line)]
        except ProtocolError as exc:
            self._bad(str(exc))
            return []

    def dropped_note(self, who: str) -> str | None:
        """'torch: 2 lines from the worker were not probe messages and were dropped (first: ...)', or None."""
        if not self.dropped:
            return None
        lines = "1 line" if self.dropped == 1 else f"{self.dropped} lines"
        verb = "was not a probe message and was" if self.dropped == 1 else "were not probe messages and were"
        first = one_line(self.bad_lines[0])[:200] if self.bad_lines else ""
        return f"{who}: {lines} from the worker {verb} dropped (first: {first})"


def is_dropped_note(text: str) -> bool:
    """True for a run's note that a worker wrote lines that were not messages (LineDecoder.dropped_note):
    said, but not a failure of the run."""
    return " from the worker " in text and " dropped (first: " in text


# ---------------------------------------------------------------- messages -> run file


def _now() -> datetime:
    return datetime.now(UTC).astimezone()


#: the language of the messages a run file keeps (results', errors', backends'): read on any machine, in any language.
RUN_FILE_LANGUAGE = "en"


def point_label(p: Progress, language: str | None = None) -> str:
    """'matmul float32 4096×4096', 'copy float32 512 Mi elements' for the point a Progress message announced,
    in the language in use (progress on screen) or `language` (the run file's messages: "en")."""
    return point_words(p.kernel, p.variant, p.dtype, p.size, language=language)


class RunAssembler:
    """Collect one run's messages, from one worker after another, into a RunFile.

    Call `start_worker(backend)` before feeding a worker's messages to `add`, and
    `worker_exited(...)` when its process ends; `finish()` returns the RunFile.
    """

    def __init__(self, suite: str, started: datetime | None = None, python: str | None = None) -> None:
        self.suite = suite
        self.python = python  # the interpreter the workers run in (None: the app's own)
        self.hosts: list = []  # HostInfo of a run across processes
        self.started = started or _now()
        self.results: list[ProbeResult] = []
        self.devices: dict[str, DeviceInfo] = {}
        self.backends: dict[str, BackendStatus] = {}
        self.versions: dict[str, str] = {}
        self.env: dict[str, str] = {}
        self.cpu: CpuInfo | None = None  # the host CPU as the first worker that said hello saw it
        self.errors: list[str] = []
        self.backend: str | None = None
        self.current: Progress | None = None
        self.current_results = 0
        self.done: Done | None = None
        self.aborted = False
        self._tracker = CeilingTracker(self.devices)

    # -- per worker
    def start_worker(self, backend: str) -> None:
        """A new worker process for `backend` is starting (first start or restart)."""
        self.backend = backend
        self.current = None
        self.current_results = 0
        self.done = None

    def add(self, msg: Message) -> Message:
        """Record one message; returns it, results with pct_ceiling filled against the best so far."""
        backend = getattr(msg, "backend", None) or self.backend
        if isinstance(msg, Hello):
            self.versions.update(msg.versions)
            self.env.update(msg.env)
            if self.cpu is None:
                self.cpu = msg.cpu
            if msg.backend and msg.backend not in self.backends:
                self.backends[msg.backend] = BackendStatus(
                    backend=msg.backend, available=False, reason="no device reported", versions=msg.versions
                )
        elif msg.type == "device":
            dev = msg.device
            self.devices[dev.key] = dev
            old = self.backends.get(dev.backend)
            versions = old.versions if old else {}
            note = old.reason if old and old.available else None
            notes = old.notes if old and old.available else []
            self.backends[dev.backend] = BackendStatus(
                backend=dev.backend, available=True, reason=note, versions=versions, notes=notes
            )
        elif isinstance(msg, ErrorMsg):
            where = f"{backend}" + (f" {msg.kernel}" if msg.kernel else "")
            text = f"{where}: {msg.message}"
            if text not in self.errors:
                self.errors.append(text)
            if backend in BACKENDS and msg.kernel is None:
                old = self.backends.get(backend)
                if old is None or not old.available:
                    self.backends[backend] = BackendStatus(
                        backend=backend,
                        available=False,
                        reason=msg.message,
                        versions=old.versions if old else {},
                        notes=msg.notes,
                    )
                elif old.reason is None:
                    self.backends[backend] = old.model_copy(update={"reason": msg.message, "notes": msg.notes})
        elif isinstance(msg, Progress):
            self.current = msg
            self.current_results = 0
        elif isinstance(msg, ResultMsg):
            result = self._tracker.add(msg.result)
            again = self._measured_again(result)
            if again is None:
                self.results.append(result)
            else:  # the worker measured this point once more (found stalled later): the try it kept
                self.results[again] = result
            self.current_results += 1
            if result is not msg.result:
                msg = msg.model_copy(update={"result": result})
        elif isinstance(msg, Done):
            self.done = msg
            self.current = None
        elif isinstance(msg, HostsMsg):  # one per engine of a run across processes: merged by host name
            known = {h.host: h for h in self.hosts}
            for h in msg.hosts:
                old = known.get(h.host)
                known[h.host] = (
                    h if old is None else old.model_copy(update={"versions": {**old.versions, **h.versions}})
                )
            self.hosts = list(known.values())
        return msg

    def _measured_again(self, r: ProbeResult) -> int | None:
        """Index of this worker's earlier result for the same point, when `r` is a measured second try of it."""
        if r.status not in ("ok", "suspect") or r.value is None:
            return None
        same = (r.backend, r.device, r.kernel, r.variant, r.dtype, r.size, r.metric)
        for i in range(len(self.results) - 1, -1, -1):
            o = self.results[i]
            if (o.backend, o.device, o.kernel, o.variant, o.dtype, o.size, o.metric) == same:
                return i
        return None

    def worker_exited(
        self, returncode: int | None, *, timed_out: bool = False, cancelled: bool = False, stderr_tail: str = ""
    ) -> tuple[list[Message], int | None]:
        """The worker process ended. Returns (messages this made, point index to restart from or None).

        A worker that ended before saying done failed: the point it was running becomes an
        "error" (crash) or "timeout" result, and it is restarted after that point.
        """
        if self.done is not None or cancelled:
            return [], None
        backend = self.backend or "torch"
        point = self.current
        if timed_out and point is not None:
            cap = point.cap_s or 0.0
            what = f"timed out: no result within the {cap:.3g} s cap, worker stopped"
        elif timed_out:
            what = "worker did not start within its start-up time"
        elif returncode is None:  # a process API that does not tell the signal (QProcess.CrashExit)
            what = "worker crashed"
        elif returncode < 0:
            what = f"worker crashed ({signal_name(returncode)})"
            if returncode == -signal.SIGKILL:
                what += ", possibly killed for using too much memory"
        else:
            what = f"worker exited with status {returncode} before finishing"
        last = stderr_tail.strip().splitlines()[-1:] if stderr_tail.strip() else []
        out: list[Message] = []
        if point is not None and self.current_results == 0:
            message = f"{what} during {point_label(point, RUN_FILE_LANGUAGE)}" + (
                f" (last log line: {last[0][:200]})" if last else ""
            )
            result = ProbeResult(
                kernel=point.kernel,
                backend=point.backend or backend,
                device=point.device or "",
                dtype=point.dtype,
                size=point.size,
                variant=point.variant,
                metric=metric_for(point.kernel),
                status="timeout" if timed_out else "error",
                message=message,
            )
            out.append(self.add(ResultMsg(result=result)))
            return out, point.done + 1
        if point is not None:  # died between points: the announced point already reported
            err = ErrorMsg(
                backend=backend, kernel=point.kernel, message=f"{what} after {point_label(point, RUN_FILE_LANGUAGE)}"
            )
            out.append(self.add(err))
            return out, point.done + 1
        reason = what + (f": {last[0][:200]}" if last else "")
        out.append(self.add(ErrorMsg(backend=backend, kernel=None, message=reason)))
        self.aborted = True
        return out, None

    def snapshot(self) -> RunFile:
        """The run so far, cheaply (not validated, no provenance read), for live tables and charts; the
        same schema as finish(), which is the one place a run in progress becomes a file."""
        return RunFile.model_construct(
            schema_version=RUN_SCHEMA_VERSION,
            app_version=__version__,
            host=socket.gethostname(),
            machine=this_machine(),
            os=sys.platform,
            python=sys.version.split()[0],
            cpu=None,
            devices=list(self.devices.values()),
            backends=list(self.backends.values()),
            versions=dict(self.versions),
            threads=None,
            env={},
            suite=self.suite,
            started=self.started,
            ended=None,
            complete=False,
            results=list(self.results),
            errors=list(self.errors),
        )

    def finish(self, *, cancelled: bool = False, ended: datetime | None = None) -> RunFile:
        """The run so far as a RunFile, with provenance; complete unless cancelled or a backend was lost."""
        cpu = None
        for preferred in ("torch", "jax"):
            cpu = next((d.cpu for d in self.devices.values() if d.backend == preferred and d.cpu), None)
            if cpu:
                break
        if cpu is None:
            cpu = self.cpu
        versions = {"app": __version__, "python": platform.python_version(), **self.versions}
        for dev in self.devices.values():  # drivers, runtimes, BLAS / oneDNN: first device's word wins
            for key, value in dev.versions.items():
                versions.setdefault(key, value)
        env = dict(self.env)
        errors = list(self.errors)
        if cancelled and "cancelled before the end" not in errors:
            errors.append("cancelled before the end")
        return RunFile(
            app_version=__version__,
            host=socket.gethostname(),
            machine=this_machine(),
            os=platform.platform(),
            python=f"{platform.python_implementation()} {platform.python_version()}",
            cpu=cpu,
            devices=list(self.devices.values()),
            backends=list(self.backends.values()),
            versions=versions,
            threads=cpu.threads_used if cpu else None,
            env=env,
            suite=self.suite,
            started=self.started,
            ended=ended or _now(),
            complete=not cancelled and not self.aborted,
            results=with_ceilings(self.results, list(self.devices.values())),
            errors=errors,
            environment=envs.environment_info(self.python, versions, self.versions.get("python")),
            hosts=self.hosts,
        )


# ---------------------------------------------------------------- orchestration


@dataclass(frozen=True)
class ProbeRequest:
    """What to probe: suite, backends (each in its own worker, one after another), filters and limits."""

    suite: str = "quick"
    backends: Sequence[str] = BACKENDS
    kernels: Sequence[str] | None = None
    dtypes: Sequence[str] | None = None
    budget_s: float | None = None  # whole run; None: the suite's budget
    point_cap_s: float | None = None  # lowers every point's cap
    env: Mapping[str, str] = field(default_factory=dict)  # extra environment for the workers
    python: str | None = None  # run the workers in this interpreter (None: the app's own)

    def __post_init__(self) -> None:
        if self.suite not in SUITES:
            raise ValueError(f"unknown suite {self.suite!r} (choose from {', '.join(SUITES)})")
        bad = [b for b in self.backends if b not in BACKENDS]
        if bad or not self.backends:
            raise ValueError(f"unknown backend {bad[0] if bad else '(none)'!r} (choose from {', '.join(BACKENDS)})")
        object.__setattr__(self, "backends", tuple(self.backends))
        if self.kernels is not None:
            object.__setattr__(self, "kernels", tuple(self.kernels))
        if self.dtypes is not None:
            object.__setattr__(self, "dtypes", tuple(self.dtypes))

    @property
    def total_budget_s(self) -> float:
        """The whole run's budget in seconds."""
        return float(self.budget_s if self.budget_s is not None else SUITE_BUDGET_S[self.suite])


def frozen() -> bool:
    """True inside a PyInstaller bundle, where sys.executable is the app itself."""
    return bool(getattr(sys, "frozen", False))


def worker_command(
    backend: str,
    request: ProbeRequest,
    *,
    skip_points: int = 0,
    budget_s: float | None = None,
    time_left_s: float | None = None,
    list_devices: bool = False,
) -> list[str]:
    """argv that starts one worker: this same program with the hidden probe-worker subcommand."""
    if not envs.is_own(request.python):  # the user's interpreter: only the worker-side modules (envs.staged_source)
        base = [os.path.abspath(str(request.python)), "-m", "gpu_tpu_app.worker.main"]
    elif frozen():
        base = [sys.executable, "probe-worker"]
    else:
        base = [sys.executable, "-m", "gpu_tpu_app", "probe-worker"]
    argv = [*base, "--backend", backend, "--suite", request.suite]
    for k in request.kernels or ():
        argv += ["--kernel", k]
    for d in request.dtypes or ():
        argv += ["--dtype", d]
    argv += ["--budget-s", f"{budget_s if budget_s is not None else request.total_budget_s:.3f}"]
    if time_left_s is not None:
        argv += ["--time-left-s", f"{max(0.0, time_left_s):.3f}"]
    if skip_points:
        argv += ["--skip-points", str(skip_points)]
    if request.point_cap_s is not None:
        argv += ["--point-cap-s", f"{request.point_cap_s:g}"]
    if list_devices:
        argv.append("--list-devices")
    return argv


def worker_env(
    backend: str, request: ProbeRequest | None = None, base: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Environment for a worker: the caller's, the request's extras, the catalogue digest, no JAX GPU
    preallocation; for another interpreter, the staged worker sources on PYTHONPATH."""
    env = dict(os.environ if base is None else base)
    if request is not None:
        env.update(request.env)
    env["PYTHONUNBUFFERED"] = "1"
    env[lifeline.PARENT_ENV] = str(os.getpid())  # the worker ends when this process does
    env[CATALOG_ENV] = envs.catalog_digest()
    if request is not None and not envs.is_own(request.python):
        env = envs.foreign_env(env)
    if backend == "jax":
        env.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    return env


@dataclass(frozen=True)
class WorkerLaunch:
    """One worker to start: backend, argv, environment."""

    backend: str
    argv: list[str]
    env: dict[str, str]


class ProbeSession:
    """A probe run as a state machine: start `next_launch()`, `feed()` its stdout, ask `timed_out()`
    on a timer, report `worker_exited()`, repeat until next_launch() is None, then `finish()`.
    """

    def __init__(self, request: ProbeRequest, clock=time.monotonic) -> None:
        self.request = request
        self.assembler = RunAssembler(request.suite, python=request.python)
        self.clock = clock
        self.cancelled = False
        self._t0 = clock()
        self._queue = list(request.backends)
        self._backend: str | None = None
        self._share = 0.0
        self._backend_t0 = 0.0
        self._restart_from: int | None = None
        self._skip = 0
        self._restarts = 0
        self._worker_t0 = 0.0
        self._point_t0 = 0.0
        self._decoder = LineDecoder()

    def next_launch(self) -> WorkerLaunch | None:
        """The next worker to start (a restart after a failed point, or the next backend), or None when done."""
        if self.cancelled:
            return None
        now = self.clock()
        if self._backend is not None and self._restart_from is not None and self._restarts < MAX_RESTARTS:
            self._restarts += 1
            self._skip = self._restart_from
            backend = self._backend
        else:
            if self._backend is not None and self._restart_from is not None:
                self.assembler.errors.append(f"{self._backend}: gave up after {self._restarts} worker restarts")
                self.assembler.aborted = True
            if not self._queue:
                return None
            backend = self._queue.pop(0)
            self._backend = backend
            left = self.request.total_budget_s - (now - self._t0)
            self._share = max(1.0, left / (len(self._queue) + 1))
            self._backend_t0 = now
            self._skip = 0
            self._restarts = 0
        self._restart_from = None
        self._decoder = LineDecoder()
        self._worker_t0 = now
        self.assembler.start_worker(backend)
        time_left = self._share - (now - self._backend_t0)
        argv = worker_command(
            backend, self.request, skip_points=self._skip, budget_s=self._share, time_left_s=time_left
        )
        return WorkerLaunch(backend=backend, argv=argv, env=worker_env(backend, self.request))

    def feed(self, data: bytes) -> list[Message]:
        """Bytes from the running worker's stdout -> the messages they completed (already recorded)."""
        return [self._record(m) for m in self._decoder.feed(data)]

    def _record(self, msg: Message) -> Message:
        if isinstance(msg, Progress):
            self._point_t0 = self.clock()
        return self.assembler.add(msg)

    def deadline(self) -> float:
        """Clock time after which the running worker counts as hung."""
        cur = self.assembler.current
        if self.assembler.done is not None:
            return float("inf")
        if cur is None:  # importing the backend, finding devices, planning
            return self._worker_t0 + STARTUP_TIMEOUT_S
        cap = cur.cap_s if cur.cap_s is not None else 60.0
        return self._point_t0 + cap * (1.0 + GRACE_FACTOR) + GRACE_S

    def timed_out(self) -> bool:
        """True when the running worker has gone silent past its point's cap and grace: kill it."""
        return self.clock() > self.deadline()

    def worker_exited(self, returncode: int | None, *, timed_out: bool = False, stderr_tail: str = "") -> list[Message]:
        """The worker process ended; returns the messages this produced (a crash or timeout result)."""
        msgs = [self._record(m) for m in self._decoder.flush()]
        note = self._decoder.dropped_note(self._backend or "worker")
        if note:
            self.assembler.errors.append(note)
        made, restart = self.assembler.worker_exited(
            returncode, timed_out=timed_out, cancelled=self.cancelled, stderr_tail=stderr_tail
        )
        self._restart_from = restart
        return msgs + made

    def backend_status(self, backend: str) -> BackendStatus | None:
        """What this run has learnt about `backend` so far (available or why not), or None."""
        return self.assembler.backends.get(backend)

    def cancel(self) -> None:
        """Stop after the running worker: the caller signals it (SIGINT / terminate) and kills it after CANCEL_WAIT_S."""
        self.cancelled = True

    def finish(self) -> RunFile:
        """The RunFile of everything received."""
        return self.assembler.finish(cancelled=self.cancelled)
