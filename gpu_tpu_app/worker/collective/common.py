"""What every rank of a collective run shares: the message sizes, nccl-tests' bus factors, the
launcher's variables, the watchdog, the rendezvous socket and the merging of host information.

Worker side: standard library only (worker/collective.py re-exports the public names).
"""

from __future__ import annotations

import errno
import os
import platform
import socket
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from gpu_tpu_app.worker import detect
from gpu_tpu_app.worker.wire import Done, ErrorMsg

OPS = ("all_reduce", "all_gather", "reduce_scatter")
OP_LABEL = {"all_reduce": "all-reduce", "all_gather": "all-gather", "reduce_scatter": "reduce-scatter"}
MIN_BYTES = 4 * 1024
#: Default largest message: host memory is shared by the local ranks, accelerator memory is not.
CPU_MAX_BYTES = 64 * 1024**2
ACCEL_MAX_BYTES = 1024**3
#: Default seconds to wait for all ranks to join, and for any collective to make progress.
TIMEOUT_S = 60.0
#: The watchdog waits this much longer than the engines' own timeouts, whose messages say more.
WATCHDOG_MARGIN_S = 10.0
DISTRIBUTED_ENV = "GPU_TPU_APP_DISTRIBUTED"
ELEM_BYTES = {"float32": 4, "bfloat16": 2, "float16": 2}


def bus_factor(op: str, ranks: int) -> float:
    """nccl-tests' busbw / algbw: 2(n-1)/n for all-reduce, (n-1)/n for all-gather and reduce-scatter."""
    if ranks < 2:
        return 0.0
    return (2.0 if op == "all_reduce" else 1.0) * (ranks - 1) / ranks


def message_sizes(max_bytes: int, ranks: int, min_bytes: int = MIN_BYTES) -> list[int]:
    """4 KiB, 16 KiB, ... up to max_bytes (x4 steps), each a multiple of ranks x 4 bytes."""
    sizes = []
    size = min_bytes
    quantum = 4 * ranks * 2  # whole float32 elements per rank, for any of the three ops
    while size <= max_bytes:
        sizes.append(max(quantum, size // quantum * quantum))
        size *= 4
    return sorted(set(sizes))


def requested(backend: str, environ: dict[str, str] | None = None) -> bool:
    """True when this process was started as one rank of a group for `backend`."""
    env = os.environ if environ is None else environ
    if backend == "torch":
        return all(env.get(k) for k in ("RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"))
    return bool(env.get("JAX_COORDINATOR_ADDRESS") or env.get(DISTRIBUTED_ENV) == "1")


def this_rank(environ: dict[str, str] | None = None) -> int | None:
    """This process's rank from the launcher's variables (torchrun's RANK, or JAX_PROCESS_ID), or None."""
    env = os.environ if environ is None else environ
    for key in ("RANK", "JAX_PROCESS_ID"):
        value = env.get(key, "")
        if value.isdigit():
            return int(value)
    return None


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:400]}" if text else type(exc).__name__


class Watchdog:
    """Ends the process with one line when nothing moves for `timeout_s`: a rank that never joins,
    a coordinator that is unreachable, or a peer that stopped answering in the middle of a collective."""

    def __init__(self, emit: Callable[[Any], None], backend: str, timeout_s: float) -> None:
        self.emit = emit
        self.backend = backend
        self.timeout_s = timeout_s
        self.what = "joining the group"
        self._last = time.monotonic()
        self._stop = threading.Event()
        threading.Thread(target=self._watch, name="collective-watchdog", daemon=True).start()

    def beat(self, what: str | None = None) -> None:
        self._last = time.monotonic()
        if what:
            self.what = what

    def stop(self) -> None:
        self._stop.set()

    def _watch(self) -> None:
        while not self._stop.wait(0.5):
            if time.monotonic() - self._last > self.timeout_s:
                msg = (
                    f"no progress for {self.timeout_s:.0f} s while {self.what}: a rank is missing, has stopped "
                    "answering, or the coordinator cannot be reached"
                )
                self.emit(ErrorMsg(backend=self.backend, kernel="collective", message=msg))
                self.emit(Done(ok=False, message=msg))
                sys.stderr.flush()
                os._exit(3)


class RendezvousError(Exception):
    """Rank 0 cannot listen where the group meets: the port is taken, or the address is not this machine's."""


def split_address(address: str) -> tuple[str, int]:
    """("host", port) from "host:port" or "[v6]:port"; ValueError naming the address when it is neither."""
    host, sep, port = address.strip().rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise RendezvousError(f"{address!r} is not host:port")
    return host, int(port)


def listen_on(host: str, port: int, what: str) -> socket.socket:
    """A TCP socket listening on host:port only (the address the group was told, never every interface).

    The rendezvous is unauthenticated: whoever reaches this port can join the group while it runs, so
    it listens where the user pointed the ranks (127.0.0.1 when every rank is on this machine). A
    taken port or an address of another machine is one line naming `what` (the variable that set it).
    """
    try:
        family, kind, proto, _, addr = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError) as exc:
        raise RendezvousError(f"{what}: cannot resolve {host!r}: {exc}") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise RendezvousError(
                f"{what}: port {port} on {host} is taken (another program listens there): choose a free port"
            ) from None
        if exc.errno == errno.EADDRNOTAVAIL:
            raise RendezvousError(
                f"{what}: {host} is not an address of this machine, so rank 0 cannot listen there"
            ) from None
        raise RendezvousError(f"{what}: cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def _bind_text(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _host_info(rank: int, devices: list[str], versions: dict[str, str]) -> dict[str, Any]:
    return {
        "host": socket.gethostname(),
        "rank": rank,
        "os": platform.platform(),
        "python": platform.python_version(),
        "cpu": detect.cpu_model(),
        "cores": os.cpu_count(),
        "devices": devices,
        "versions": versions,
    }


def merge_hosts(infos: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One entry per host name, with the ranks it ran (the HostInfo fields)."""
    hosts: dict[str, dict[str, Any]] = {}
    for info in sorted(infos, key=lambda i: int(i.get("rank", 0))):
        name = str(info.get("host", "?"))[:255]
        entry = hosts.setdefault(
            name,
            {
                "host": name,
                "ranks": [],
                "os": info.get("os"),
                "python": info.get("python"),
                "cpu": info.get("cpu"),
                "cores": info.get("cores"),
                "devices": [],
                "versions": dict(info.get("versions") or {}),
            },
        )
        entry["ranks"].append(int(info.get("rank", 0)))
        entry["devices"] += [str(d) for d in info.get("devices") or []]
    return list(hosts.values())
