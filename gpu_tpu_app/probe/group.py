"""`gpu-tpu-probe collective --processes N`: start N local ranks through the engines, keep rank 0's run.

Each rank is an ordinary probe worker asked for the `collective` kernel, given the variables the
engines' launchers set (torchrun's RANK / WORLD_SIZE / MASTER_ADDR / MASTER_PORT; JAX's
coordinator address, process count and id), so the measuring code is the one that runs under
torchrun or on a TPU slice (worker/collective.py). Rank 0's messages make the run file; the other
ranks' problems become its errors. A rank that dies ends the others after a short grace, and
what rank 0 measured before that is kept.
"""

from __future__ import annotations

import os
import selectors
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gpu_tpu_app.core.runs import Done, ErrorMsg, Message, ProbeResult, ResultMsg, RunFile
from gpu_tpu_app.probe import guarded
from gpu_tpu_app.probe.protocol import (
    RUN_FILE_LANGUAGE,
    LineDecoder,
    ProbeRequest,
    RunAssembler,
    point_label,
    signal_name,
    worker_command,
    worker_env,
)
from gpu_tpu_app.probe.runner import DRAIN_S, _Stderr, stop_on_signals

#: Default seconds to wait for the ranks to join and for any collective to make progress.
TIMEOUT_S = 60.0
#: After one rank ends badly, the others get this long to say what they saw before they are stopped.
RANK_GRACE_S = 5.0
#: The budget per engine when none is given.
BUDGET_S = 60.0


@dataclass(frozen=True)
class GroupRequest:
    """N local ranks per engine, one engine after another."""

    processes: int
    backends: Sequence[str] = ("torch",)
    timeout_s: float = TIMEOUT_S
    max_bytes: int | None = None
    dtypes: Sequence[str] | None = None
    budget_s: float = BUDGET_S
    python: str | None = None
    accelerator: bool = False  # one accelerator per rank (NCCL / JAX GPU) instead of the CPU over gloo

    def __post_init__(self) -> None:
        if not 2 <= self.processes <= 64:
            raise ValueError("--processes: must be between 2 and 64")
        if self.timeout_s <= 0:
            raise ValueError("--timeout-s: must be more than 0")


def free_port() -> int:
    """A TCP port on the loopback interface that nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rank_env(backend: str, rank: int, size: int, port: int, request: GroupRequest) -> dict[str, str]:
    """The launcher's variables for one local rank."""
    env = {
        "GPU_TPU_APP_COLLECTIVE_TIMEOUT_S": f"{request.timeout_s:g}",
        "LOCAL_RANK": str(rank),
        "LOCAL_WORLD_SIZE": str(size),
    }
    if request.max_bytes:
        env["GPU_TPU_APP_COLLECTIVE_MAX_BYTES"] = str(int(request.max_bytes))
    if not request.accelerator:
        env["GPU_TPU_APP_COLLECTIVE_CPU"] = "1"
        env["GLOO_SOCKET_IFNAME"] = "lo"
    if backend == "torch":
        env.update(RANK=str(rank), WORLD_SIZE=str(size), MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    else:
        env.update(JAX_COORDINATOR_ADDRESS=f"127.0.0.1:{port}", JAX_NUM_PROCESSES=str(size), JAX_PROCESS_ID=str(rank))
        if not request.accelerator:
            env["JAX_PLATFORMS"] = "cpu"
    return env


def _how(code: int | None) -> str:
    if code is None:
        return "still running"
    if code < 0:
        return f"crashed ({signal_name(code)})"
    return f"exited with status {code}"


def _kill(procs: list[subprocess.Popen], sig: int) -> None:
    for p in procs:
        if p.poll() is None:
            try:
                os.killpg(p.pid, sig)
            except (ProcessLookupError, PermissionError):
                pass


def _start_ranks(backend: str, request: GroupRequest, mark: str = "") -> tuple[list[subprocess.Popen], list[_Stderr]]:
    """Start the group's worker processes, one per rank, each in its own session and carrying `mark` (the
    run's sweep marker); their stderr is drained."""
    size = request.processes
    port = free_port()
    probe = ProbeRequest(
        suite="quick",
        backends=(backend,),
        kernels=("collective",),
        dtypes=request.dtypes,
        budget_s=request.budget_s,
        python=request.python,
    )
    argv = worker_command(backend, probe, budget_s=request.budget_s)
    procs: list[subprocess.Popen] = []
    logs: list[_Stderr] = []
    for rank in range(size):
        env = worker_env(backend, probe)
        env.update(rank_env(backend, rank, size, port, request))
        if mark:
            env[guarded.MARK_ENV] = mark
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            start_new_session=True,
        )
        procs.append(proc)
        logs.append(_Stderr(proc.stderr, os.environ.get("GPU_TPU_APP_PROBE_LOG") == "1"))
    return procs, logs


def _end_ranks(procs: list[subprocess.Popen], sel: selectors.BaseSelector, cancelled: bool) -> None:
    """End every rank (SIGTERM after a cancel, else SIGKILL), reap them and close their pipes."""
    _kill(procs, signal.SIGKILL if not cancelled else signal.SIGTERM)
    for proc in procs:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            _kill([proc], signal.SIGKILL)
            proc.wait()
    sel.close()
    for proc in procs:
        if proc.stdout:
            proc.stdout.close()


def _report_end(
    backend: str,
    asm: RunAssembler,
    on_message: Callable[[Message], None],
    procs: list[subprocess.Popen],
    log0: _Stderr,
    said_done: list[bool],
    first_failure: float | None,
    stopped: str | None,
) -> None:
    """Say how the group ended: failed ranks, a time-out, and rank 0's end when it did not say it was done."""
    for rank in range(1, len(procs)):
        if not said_done[rank] and procs[rank].returncode not in (0, None) and first_failure is None:
            on_message(
                asm.add(
                    ErrorMsg(
                        backend=backend, kernel="collective", message=f"rank {rank} {_how(procs[rank].returncode)}"
                    )
                )
            )
    if stopped and stopped != "cancelled":
        on_message(asm.add(ErrorMsg(backend=backend, kernel="collective", message=stopped)))
    if said_done[0]:
        return
    code = procs[0].returncode
    ended_by_us = first_failure is not None and code == -signal.SIGKILL and asm.done is None
    point = asm.current
    if ended_by_us and point is not None and asm.current_results == 0:
        # rank 0 was stopped because another rank failed: say so, not "crashed"
        result = ProbeResult(
            kernel="collective",
            backend=backend,
            device=point.device or "",
            dtype=point.dtype,
            size=point.size,
            variant=point.variant,
            metric="bytes_per_s",
            status="error",
            message=f"stopped: another rank failed during {point_label(point, RUN_FILE_LANGUAGE)}",
        )
        on_message(asm.add(ResultMsg(result=result)))
        asm.aborted = True
    elif not ended_by_us:
        made, _restart = asm.worker_exited(
            code,
            timed_out=bool(stopped and stopped != "cancelled"),
            cancelled=stopped == "cancelled",
            stderr_tail=log0.tail(),
        )
        for msg in made:  # worker_exited returns (messages, restart point): iterate the messages only
            on_message(msg)
    else:
        asm.aborted = True


def _run_engine(
    backend: str,
    request: GroupRequest,
    asm: RunAssembler,
    on_message: Callable[[Message], None],
    cancel: threading.Event,
) -> None:
    size = request.processes
    # every rank carries one marker: what a rank (or its --python wrapper) left out of reach of the group kill,
    # a setsid helper say, is swept when the engine's ranks are ended
    mark = guarded.new_mark()
    procs, logs = _start_ranks(backend, request, mark)
    asm.start_worker(backend)
    decoders = [LineDecoder() for _ in procs]
    said_done = [False] * size
    sel = selectors.DefaultSelector()
    for rank, proc in enumerate(procs):
        assert proc.stdout is not None
        os.set_blocking(proc.stdout.fileno(), False)
        sel.register(proc.stdout.fileno(), selectors.EVENT_READ, rank)
    open_fds = size
    # joining, every point (each bounded by the ranks' own watchdog) and the teardown
    limit = request.timeout_s + request.budget_s + request.timeout_s + 30.0
    deadline = time.monotonic() + limit
    first_failure: float | None = None
    stopped: str | None = None
    exited_at: float | None = None

    def take(rank: int, msgs: list[Message]) -> None:
        for msg in msgs:
            if isinstance(msg, Done):
                said_done[rank] = True
            if rank == 0:
                on_message(asm.add(msg))
            elif isinstance(msg, ErrorMsg):
                text = msg.message if msg.message.startswith("rank ") else f"rank {rank}: {msg.message}"
                note = ErrorMsg(backend=msg.backend, kernel=msg.kernel, message=text)
                on_message(asm.add(note))

    try:
        while open_fds:
            now = time.monotonic()
            if cancel.is_set() and stopped is None:
                stopped = "cancelled"
                _kill(procs, signal.SIGINT)
                deadline = min(deadline, now + 2.0)
            if now > deadline:
                if stopped is None:
                    stopped = f"the ranks did not finish within {limit:.0f} s"
                break
            if exited_at is None and all(p.poll() is not None for p in procs):
                exited_at = now
            if exited_at is not None and now - exited_at > DRAIN_S:
                break  # every rank is gone: a helper one left holding its pipes (swept below) says nothing
            for rank, proc in enumerate(procs):
                code = proc.poll()
                if code not in (None, 0) and not said_done[rank] and first_failure is None:
                    first_failure = now
                    if rank != 0:
                        on_message(
                            asm.add(ErrorMsg(backend=backend, kernel="collective", message=f"rank {rank} {_how(code)}"))
                        )
            if first_failure is not None and now - first_failure > RANK_GRACE_S:
                break  # the others had their chance to report: end them
            for key, _ in sel.select(0.05):
                rank = key.data
                try:
                    data = os.read(key.fd, 1 << 16)
                except BlockingIOError:
                    continue
                if not data:
                    sel.unregister(key.fd)
                    open_fds -= 1
                    take(rank, decoders[rank].flush())
                    continue
                take(rank, decoders[rank].feed(data))
    finally:
        _end_ranks(procs, sel, cancelled=stopped == "cancelled")
        guarded.sweep(mark)
    for rank, decoder in enumerate(decoders):  # lines that were not messages: counted and said, not silent
        if note := decoder.dropped_note(f"{backend} rank {rank}"):
            asm.errors.append(note)
    _report_end(backend, asm, on_message, procs, logs[0], said_done, first_failure, stopped)


def run_group(
    request: GroupRequest,
    on_message: Callable[[Message], None] | None = None,
    cancel_event: threading.Event | None = None,
) -> RunFile:
    """Run the collective probe with N local ranks for each engine in turn; rank 0's run, with every rank's problems."""
    cancel = cancel_event or threading.Event()
    callback = on_message or (lambda _m: None)
    asm = RunAssembler("collective", python=request.python)
    try:
        with stop_on_signals(cancel):
            for backend in request.backends:
                if cancel.is_set():
                    break
                _run_engine(backend, request, asm, callback, cancel)
    except KeyboardInterrupt:
        cancel.set()
    return asm.finish(cancelled=cancel.is_set())
