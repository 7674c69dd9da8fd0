"""Run a probe headless: one worker process per backend, one after another, read with subprocess.

The decisions (budgets, caps, restarts, the run file) live in protocol.ProbeSession, which
the window drives with QProcess instead; this module only moves bytes and signals.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import json
import os
import select
import selectors
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator

from gpu_tpu_app.core.runs import DeviceInfo, Message, RunFile
from gpu_tpu_app.probe import guarded
from gpu_tpu_app.probe.protocol import (
    CANCEL_WAIT_S,
    SUITE_BUDGET_S,
    LineDecoder,
    ProbeRequest,
    ProbeSession,
    RunAssembler,
    WorkerLaunch,
    worker_command,
    worker_env,
)
from gpu_tpu_app.shared.terms import BACKENDS

__all__ = [
    "BACKENDS",
    "STOP_SIGNALS",
    "SUITE_BUDGET_S",
    "CancelEvent",
    "LineDecoder",
    "ProbeRequest",
    "ProbeSession",
    "RunAssembler",
    "list_devices",
    "run_probe",
    "stop_on_signals",
    "worker_command",
    "worker_env",
]

OnMessage = Callable[[Message], None]

#: Signals that stop a run as Ctrl-C does (the results so far are kept): Ctrl-C, `kill`, a closed terminal.
STOP_SIGNALS: tuple[int, ...] = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n))


class CancelEvent(threading.Event):
    """A cancel flag that remembers the first stop signal that set it (None when code set it)."""

    def __init__(self) -> None:
        super().__init__()
        self.signum: int | None = None


@contextlib.contextmanager
def stop_on_signals(cancel: threading.Event, *, escalate: bool = True) -> Iterator[None]:
    """While inside, each of STOP_SIGNALS sets `cancel` instead of ending the process.

    With `escalate`, a second one raises KeyboardInterrupt (to break out of a wait). Only in the
    main thread (elsewhere this does nothing); a signal the process ignores (`nohup`) stays ignored.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: object) -> None:
        if cancel.is_set() and escalate:
            raise KeyboardInterrupt
        if isinstance(cancel, CancelEvent) and cancel.signum is None:
            cancel.signum = signum
        cancel.set()

    previous: dict[int, object] = {}
    try:
        for sig in STOP_SIGNALS:
            if signal.getsignal(sig) is not signal.SIG_IGN:
                previous[sig] = signal.signal(sig, handler)
        yield
    finally:
        for sig, old in previous.items():
            if old is not None:
                signal.signal(sig, old)  # type: ignore[arg-type]  # a handler signal.getsignal returned


class _Stderr:
    """Drains a worker's stderr on a thread, keeping the last lines for crash messages."""

    def __init__(self, stream, echo: bool) -> None:
        self.lines: collections.deque[str] = collections.deque(maxlen=40)
        self._echo = echo
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream) -> None:
        with stream:
            for raw in iter(stream.readline, b""):
                line = raw.decode("utf-8", "replace").rstrip()
                if line:
                    self.lines.append(line)
                    if self._echo:
                        os.write(2, raw)

    def tail(self) -> str:
        """The last few ordinary log lines, once the stream has ended (or after 0.5 s)."""
        self._thread.join(timeout=0.5)
        # faulthandler's dump is noise for the one-line message; keep the last ordinary line
        useful = [
            x
            for x in self.lines
            if not x.startswith(("  File ", "Extension modules", "Current thread", "Thread 0x", "Fatal Python error"))
        ]
        return "\n".join(useful[-3:])


#: after a worker has exited, how long its pipes may take to deliver what is left.
DRAIN_S = 1.0


def _signal_group(proc: subprocess.Popen, sig: int) -> None:
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


#: Most seconds the first backend's run waits for the workers started beside it to load (import their
#: framework, find and first use their devices), so that no framework loads while a backend measures.
AHEAD_WAIT_S = 30.0
STANDBY_FLAG = "--standby"


def _echo() -> bool:
    return os.environ.get("GPU_TPU_APP_PROBE_LOG") == "1"


class _Ahead:
    """A worker started before its turn (`--standby`, as the window's standby workers are): it loads its
    framework, finds its devices, lists them (Hello, devices, Done: read here and dropped, the run's own
    stream says the same again), then waits for the run's arguments on stdin. So each backend's import
    runs beside the others' imports, all before the first point, instead of one after another."""

    def __init__(self, backend: str, request: ProbeRequest) -> None:
        self.backend = backend
        self.proc = subprocess.Popen(
            [*worker_command(backend, request), STANDBY_FLAG],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=worker_env(backend, request),
            start_new_session=True,
        )
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self.errlog = _Stderr(self.proc.stderr, _echo())
        self.fd = self.proc.stdout.fileno()
        os.set_blocking(self.fd, False)
        self.rest = bytearray()  # bytes after the listing's Done line
        self.listed = False
        self.ended = False

    def read(self) -> int:
        """Read what the worker wrote so far (never blocks); notes the listing's end or the process's.
        Returns the bytes read."""
        try:
            data = os.read(self.fd, 1 << 16)
        except BlockingIOError:
            return 0
        if not data:
            self.ended = True
            return 0
        self.rest += data
        while not self.listed and (nl := self.rest.find(b"\n")) >= 0:
            line = bytes(self.rest[:nl])
            del self.rest[: nl + 1]
            self.listed = _is_done(line)
        return len(data)

    def catch_up(self) -> None:
        """Read all it wrote since the gate (a listing that came after AHEAD_WAIT_S counts too)."""
        while not self.ended and select.select([self.fd], [], [], 0)[0] and self.read():
            pass

    def ready(self) -> bool:
        return self.listed or self.ended or self.proc.poll() is not None

    def stop(self) -> None:
        """End a worker no run took: end of input ends it; its group is killed all the same."""
        with contextlib.suppress(OSError):
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        _signal_group(self.proc, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def _is_done(line: bytes) -> bool:
    try:
        return bool(json.loads(line).get("type") == "done")
    except (ValueError, AttributeError):
        return False


def _start_ahead(request: ProbeRequest, cancel: threading.Event) -> dict[str, _Ahead]:
    """With two or more backends, start each one's worker now and wait (up to AHEAD_WAIT_S) until all have
    loaded; {} for one backend, where there is nothing to load beside."""
    if len(request.backends) < 2:
        return {}
    ahead = {b: _Ahead(b, request) for b in request.backends}
    sel = selectors.DefaultSelector()
    for a in ahead.values():
        sel.register(a.fd, selectors.EVENT_READ, a)
    end = time.monotonic() + AHEAD_WAIT_S
    try:
        while not cancel.is_set() and time.monotonic() < end:
            pending = [a for a in ahead.values() if not a.ready()]
            if not pending:
                break
            for key, _ in sel.select(0.05):
                key.data.read()
    finally:
        sel.close()
    return ahead


def _run_worker(
    session: ProbeSession,
    launch: WorkerLaunch,
    on_message: OnMessage,
    cancel: threading.Event,
    ahead: _Ahead | None = None,
) -> None:
    """Start one worker (or hand its arguments to one started `ahead`), pass its messages on, stop it on
    cancel or when it hangs, report how it ended."""
    first = b""
    if ahead is not None:
        ahead.catch_up()
    if ahead is not None and ahead.listed and ahead.proc.poll() is None and ahead.proc.stdin is not None:
        proc, errlog, fd, first = ahead.proc, ahead.errlog, ahead.fd, bytes(ahead.rest)
        own = launch.argv[launch.argv.index("--backend") :]
        try:
            ahead.proc.stdin.write((json.dumps(own, allow_nan=False) + "\n").encode())
            ahead.proc.stdin.close()
        except OSError:  # it ended meanwhile: what it said (and its exit) is read below
            pass
    else:
        if ahead is not None:
            ahead.stop()
        proc = subprocess.Popen(
            launch.argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=launch.env,
            start_new_session=True,  # its own process group: Ctrl-C reaches the parent, kills reach helpers too
        )
        assert proc.stdout is not None and proc.stderr is not None
        errlog = _Stderr(proc.stderr, _echo())
        fd = proc.stdout.fileno()
        os.set_blocking(fd, False)
    assert proc.stdout is not None
    for msg in session.feed(first):
        on_message(msg)
    sel = selectors.DefaultSelector()
    sel.register(fd, selectors.EVENT_READ)
    stop_sent: float | None = None
    timed_out = False
    exited_at: float | None = None
    try:
        while True:
            now = time.monotonic()
            if exited_at is None and proc.poll() is not None:
                exited_at = now
            if exited_at is not None and now - exited_at > DRAIN_S:
                break  # the worker is gone: a helper it left holding its pipes (swept at the run's end) says nothing
            if cancel.is_set() and stop_sent is None:
                session.cancel()
                _signal_group(proc, signal.SIGINT)
                stop_sent = now
            if stop_sent is not None and (now - stop_sent > CANCEL_WAIT_S or session.assembler.done is not None):
                break  # cancelled, and it said done (or took too long to): no need to wait for its exit
            if stop_sent is None and session.timed_out():
                timed_out = True
                break
            if not sel.select(0.05):
                continue
            try:
                data = os.read(fd, 1 << 16)
            except BlockingIOError:
                continue
            if not data:
                break
            for msg in session.feed(data):
                on_message(msg)
    finally:
        if proc.poll() is None and (timed_out or stop_sent is not None):
            _signal_group(proc, signal.SIGKILL)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            _signal_group(proc, signal.SIGKILL)
            proc.wait()
        _signal_group(proc, signal.SIGKILL)  # helpers it may have left behind
        sel.close()
        proc.stdout.close()
    tail = errlog.tail()
    for msg in session.worker_exited(proc.returncode, timed_out=timed_out, stderr_tail=tail):
        on_message(msg)


def run_probe(
    request: ProbeRequest, on_message: OnMessage | None = None, cancel_event: threading.Event | None = None
) -> RunFile:
    """Probe every requested backend in turn and return the run, partial when cancelled.

    `on_message` sees every message as it arrives (results with pct_ceiling filled).
    Setting `cancel_event` (or Ctrl-C, SIGTERM or SIGHUP, when called from the main thread)
    stops within about a second and keeps every result already received; a CancelEvent
    records which signal it was.
    """
    cancel = cancel_event or threading.Event()
    callback = on_message or (lambda _m: None)
    # every worker of this run carries one marker: what one started that outlived it (a setsid helper, out
    # of reach of the group kill) is swept when the run ends
    mark = guarded.new_mark()
    request = dataclasses.replace(request, env={**request.env, guarded.MARK_ENV: mark})
    session = ProbeSession(request)
    ahead: dict[str, _Ahead] = {}
    try:
        with stop_on_signals(cancel):
            ahead = _start_ahead(request, cancel)
            while not cancel.is_set() and (launch := session.next_launch()) is not None:
                # a backend's first launch takes its worker started ahead; a restart starts a new one
                _run_worker(session, launch, callback, cancel, ahead.pop(launch.backend, None))
    except KeyboardInterrupt:
        cancel.set()
    finally:
        for a in ahead.values():
            a.stop()
        guarded.sweep(mark)
    if cancel.is_set():
        session.cancel()
    return session.finish()


def list_devices(
    backends: tuple[str, ...] = BACKENDS,
    env: dict[str, str] | None = None,
    timeout_s: float = 180.0,
    python: str | None = None,
) -> tuple[list[DeviceInfo], list]:
    """Devices and BackendStatus of each backend, each detected in its own worker (in `python` if given)."""
    request = ProbeRequest(suite="smoke", backends=backends, env=env or {}, python=python)
    assembler = RunAssembler("smoke", python=python)
    for backend in backends:
        assembler.start_worker(backend)
        argv = worker_command(backend, request, list_devices=True)
        try:
            proc = subprocess.run(
                argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout_s, env=worker_env(backend, request)
            )
        except subprocess.TimeoutExpired:
            assembler.worker_exited(None, timed_out=True)
            continue
        decoder = LineDecoder()
        for msg in decoder.feed(proc.stdout) + decoder.flush():
            assembler.add(msg)
        tail = proc.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] if proc.stderr else []
        assembler.worker_exited(proc.returncode, stderr_tail="\n".join(tail))
    return list(assembler.devices.values()), list(assembler.backends.values())
