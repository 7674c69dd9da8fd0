"""Collectives across processes and hosts, measured with the engines people already run.

Worker side: standard library and the frameworks only. A worker asked for the `collective` kernel
runs here when it was started as one rank of a group:

- torch.distributed: the variables torchrun sets (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT,
  LOCAL_RANK); gloo on CPU, NCCL on CUDA.
- jax.distributed: JAX_COORDINATOR_ADDRESS with JAX_NUM_PROCESSES and JAX_PROCESS_ID, or
  GPU_TPU_APP_DISTRIBUTED=1 to let jax.distributed.initialize() find a TPU slice or a SLURM job
  itself. CPU collectives go through gloo (jax_cpu_collectives_implementation).

It measures all-reduce, all-gather and reduce-scatter over message sizes from 4 KiB up to a
memory-sensible maximum, reporting per point the time of one operation (the latency for small
messages), the algorithm bandwidth (size / time) and the bus bandwidth (nccl-tests' convention:
all-reduce x 2(n-1)/n, all-gather and reduce-scatter x (n-1)/n). Every rank times every sample;
the slowest rank's time counts. Rank 0 reports results and the hosts; the others report only
problems. A joining or a collective that makes no progress within the timeout ends with one line.
"""

from __future__ import annotations

import errno
import json
import math
import os
import platform
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from gpu_tpu_app import __version__
from gpu_tpu_app.core.terms import TEST_KERNELS_ENV
from gpu_tpu_app.worker import detect
from gpu_tpu_app.worker.kernels.stats import summarize
from gpu_tpu_app.worker.wire import (
    CollectiveInfo,
    DeviceInfo,
    DeviceMsg,
    Done,
    ErrorMsg,
    Hello,
    ProbeResult,
    Progress,
    ResultMsg,
)

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


# ---------------------------------------------------------------- engines


class _TorchGroup:
    """torch.distributed from the launcher's environment (env://)."""

    engine = "torch"

    def __init__(self, timeout_s: float) -> None:
        import torch
        import torch.distributed as dist

        self.torch, self.dist = torch, dist
        local = int(os.environ.get("LOCAL_RANK", "0") or 0)
        use_cuda = torch.cuda.is_available() and os.environ.get("GPU_TPU_APP_COLLECTIVE_CPU") != "1"
        self.transport = "nccl" if use_cuda and dist.is_nccl_available() else "gloo"
        if self.transport == "gloo" and os.environ.get("MASTER_ADDR") in ("127.0.0.1", "localhost"):
            os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo0" if platform.system() == "Darwin" else "lo")
        if self.transport == "nccl":
            self.device = torch.device("cuda", local % max(1, torch.cuda.device_count()))
            torch.cuda.set_device(self.device)
        else:
            self.device = torch.device("cpu")
            torch.set_num_threads(max(1, (os.cpu_count() or 1) // max(1, int(os.environ.get("LOCAL_WORLD_SIZE", "1")))))
        rank, size = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
        host, port = os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"])
        # env:// would listen on every interface; rank 0 listens on MASTER_ADDR only. Under torchrun the
        # agent already serves the store there (TORCHELASTIC_USE_AGENT_STORE), and every rank is its client.
        serve = rank == 0 and os.environ.get("TORCHELASTIC_USE_AGENT_STORE") != "True"
        listen_fd = listen_on(host, port, "MASTER_ADDR/MASTER_PORT").detach() if serve else None
        store = dist.TCPStore(
            host,
            port,
            size,
            is_master=serve,
            timeout=timedelta(seconds=timeout_s),
            wait_for_workers=False,
            master_listen_fd=listen_fd,
        )
        dist.init_process_group(
            self.transport, store=store, rank=rank, world_size=size, timeout=timedelta(seconds=timeout_s)
        )
        self.rank, self.size = dist.get_rank(), dist.get_world_size()
        self.platform = self.device.type
        self.device_name = torch.cuda.get_device_name(self.device) if self.transport == "nccl" else detect.cpu_model()

    def versions(self) -> dict[str, str]:
        out = {"torch": str(self.torch.__version__), "transport": self.transport}
        if self.transport == "nccl":
            out["cuda_runtime"] = str(self.torch.version.cuda)
            try:
                out["nccl"] = ".".join(map(str, self.torch.cuda.nccl.version()))
            except Exception:
                pass
        return out

    def devices(self) -> list[str]:
        return [f"{self.device} {self.device_name}"]

    def gather_objects(self, obj: Any) -> list[Any]:
        out: list[Any] = [None] * self.size
        self.dist.all_gather_object(out, obj)
        return out

    def max_floats(self, values: list[float]) -> list[float]:
        t = self.torch.tensor(values, dtype=self.torch.float64, device=self.device)
        self.dist.all_reduce(t, op=self.dist.ReduceOp.MAX)
        return [float(v) for v in t.tolist()]

    def check_sum(self) -> str | None:
        x = self.torch.full((8,), float(self.rank + 1), dtype=self.torch.float32, device=self.device)
        self.dist.all_reduce(x)
        want = self.size * (self.size + 1) / 2
        return None if float(x[0]) == want else f"all-reduce of 1..{self.size} gave {float(x[0])}, not {want}"

    def dtype_ok(self, dtype: str) -> bool:
        return dtype == "float32" or self.transport == "nccl"

    def prepare(self, op: str, nbytes: int, dtype: str) -> Callable[[], None]:
        torch, dist = self.torch, self.dist
        tdtype = getattr(torch, dtype)
        count = nbytes // ELEM_BYTES[dtype]
        n = self.size
        if op == "all_reduce":
            x = torch.ones(count, dtype=tdtype, device=self.device)
            return lambda: dist.all_reduce(x)
        if op == "all_gather":
            inp = torch.ones(count // n, dtype=tdtype, device=self.device)
            out = torch.empty(count // n * n, dtype=tdtype, device=self.device)
            gather = getattr(dist, "all_gather_single", None) or dist.all_gather_into_tensor
            return lambda: gather(out, inp)
        inp = torch.ones(count // n * n, dtype=tdtype, device=self.device)
        out = torch.empty(count // n, dtype=tdtype, device=self.device)
        scatter = getattr(dist, "reduce_scatter_single", None) or dist.reduce_scatter_tensor
        return lambda: scatter(out, inp)

    def sync(self) -> None:
        if self.transport == "nccl":
            self.torch.cuda.synchronize(self.device)

    def close(self) -> None:
        try:
            self.dist.destroy_process_group()
        except Exception:
            pass


class _JaxGroup:
    """jax.distributed from JAX_COORDINATOR_ADDRESS / JAX_NUM_PROCESSES / JAX_PROCESS_ID, or auto-detected."""

    engine = "jax"

    def __init__(self, timeout_s: float) -> None:
        os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
        import jax

        self.jax = jax
        platforms = os.environ.get("JAX_PLATFORMS", "")
        cpu_only = platforms.strip() == "cpu"
        try:
            jax.config.update("jax_cpu_collectives_implementation", "gloo")
        except Exception as exc:  # older JAX: CPU collectives across processes are not there
            print(f"jax_cpu_collectives_implementation: {exc}", file=sys.stderr)
        # JAX ends the process (abort) when these run out; the watchdog's clearer line comes first
        late = max(1, int(timeout_s + 2 * WATCHDOG_MARGIN_S))
        kwargs: dict[str, Any] = {"initialization_timeout": late}
        if os.environ.get("JAX_COORDINATOR_ADDRESS"):
            kwargs.update(
                coordinator_address=os.environ["JAX_COORDINATOR_ADDRESS"],
                num_processes=int(os.environ.get("JAX_NUM_PROCESSES", "1")),
                process_id=int(os.environ.get("JAX_PROCESS_ID", "0")),
            )
            if cpu_only or os.environ.get("GPU_TPU_APP_COLLECTIVE_CPU") == "1":
                kwargs["local_device_ids"] = [0]
            if kwargs["process_id"] == 0:
                kwargs["coordinator_bind_address"] = self._bind_address(kwargs["coordinator_address"])
        try:
            try:
                jax.distributed.initialize(heartbeat_timeout_seconds=late, **kwargs)
            except TypeError:  # a JAX without heartbeat_timeout_seconds
                jax.distributed.initialize(**kwargs)
        except Exception as exc:  # the port was taken between our look and JAX's bind
            if "Failed to start RPC server" in str(exc) and "coordinator_bind_address" in kwargs:
                host, port = split_address(kwargs["coordinator_bind_address"])
                raise RendezvousError(
                    f"JAX_COORDINATOR_ADDRESS: port {port} on {host} is taken (another program listens there): "
                    "choose a free port"
                ) from None
            raise
        self.rank, self.size = jax.process_index(), jax.process_count()
        self.global_devices = jax.devices()
        self.local_devices = jax.local_devices()
        self.platform = self.local_devices[0].platform
        self.transport = (
            "gloo" if self.platform == "cpu" else {"gpu": "nccl", "tpu": "ici/dcn"}.get(self.platform, self.platform)
        )
        self.device_name = detect.cpu_model() if self.platform == "cpu" else str(self.local_devices[0].device_kind)
        import numpy as np
        from jax.sharding import Mesh, NamedSharding
        from jax.sharding import PartitionSpec as P

        self.np, self.P = np, P
        self.mesh = Mesh(np.array(self.global_devices), ("i",))
        self.sharded = NamedSharding(self.mesh, P("i"))
        shard_map: Any = getattr(jax, "shard_map", None)
        if shard_map is None:  # jax before 0.7 has it under experimental only
            from jax.experimental.shard_map import shard_map
        self.shard_map: Any = shard_map
        self._max = None

    @property
    def ranks(self) -> int:
        """Devices taking part (a process may drive several)."""
        return len(self.global_devices)

    @staticmethod
    def _bind_address(coordinator: str) -> str:
        """Where process 0's coordinator listens: JAX_COORDINATOR_BIND_ADDRESS when the user set it, else
        the coordinator address's own host (JAX's default is every interface, [::])."""
        named = os.environ.get("JAX_COORDINATOR_BIND_ADDRESS", "").strip()
        what = "JAX_COORDINATOR_BIND_ADDRESS" if named else "JAX_COORDINATOR_ADDRESS"
        host, port = split_address(named or coordinator)
        with listen_on(host, port, what) as sock:  # says "taken" in one line; JAX's own error does not
            return _bind_text(sock)

    def versions(self) -> dict[str, str]:
        import jaxlib

        return {"jax": str(self.jax.__version__), "jaxlib": str(jaxlib.__version__), "transport": self.transport}

    def devices(self) -> list[str]:
        return [f"{d.platform}:{d.id} {self.device_name}" for d in self.local_devices]

    def _global(self, per_device: Any) -> Any:
        """A global array whose every local shard is `per_device` (a 1-D numpy array)."""
        local = self.np.concatenate([per_device] * len(self.local_devices))
        return self.jax.make_array_from_process_local_data(self.sharded, local)

    def gather_objects(self, obj: Any) -> list[Any]:
        from jax.experimental import multihost_utils

        raw = json.dumps(obj, allow_nan=False).encode()[:65536]
        length = multihost_utils.process_allgather(self.np.array([len(raw)], dtype=self.np.int32))
        width = int(self.np.max(length))
        buf = self.np.zeros(width, dtype=self.np.uint8)
        buf[: len(raw)] = self.np.frombuffer(raw, dtype=self.np.uint8)
        rows = self.np.asarray(multihost_utils.process_allgather(buf)).reshape(self.size, width)
        lengths = self.np.asarray(length).reshape(self.size)
        return [json.loads(bytes(rows[i, : int(lengths[i])]).decode()) for i in range(self.size)]

    def max_floats(self, values: list[float]) -> list[float]:
        from jax.experimental import multihost_utils

        arr = self.np.asarray(multihost_utils.process_allgather(self.np.array(values, dtype=self.np.float64)))
        return [float(v) for v in arr.reshape(self.size, len(values)).max(axis=0)]

    def check_sum(self) -> str | None:
        f = self.jax.jit(
            self.shard_map(
                lambda s: self.jax.lax.psum(s, "i"), mesh=self.mesh, in_specs=self.P("i"), out_specs=self.P("i")
            )
        )
        first = self.local_devices[0].id
        ids = [d.id for d in self.global_devices]
        x = self._global(self.np.full(8, float(ids.index(first) + 1), dtype=self.np.float32))
        got = float(self.np.asarray(f(x).addressable_shards[0].data)[0])
        n = self.ranks
        want = n * (n + 1) / 2 if len(self.local_devices) == 1 else None
        return None if want is None or got == want else f"all-reduce of 1..{n} gave {got}, not {want}"

    def dtype_ok(self, dtype: str) -> bool:
        return dtype == "float32" or self.platform != "cpu"

    def prepare(self, op: str, nbytes: int, dtype: str) -> Callable[[], None]:
        jax, P, np = self.jax, self.P, self.np
        jdtype = jax.numpy.dtype(dtype)
        n = self.ranks
        count = nbytes // ELEM_BYTES[dtype]
        if op == "all_reduce":
            body, per = (lambda s: jax.lax.psum(s, "i")), count
        elif op == "all_gather":
            body, per = (lambda s: jax.lax.all_gather(s, "i", tiled=True)), count // n
        else:
            body, per = (lambda s: jax.lax.psum_scatter(s, "i", scatter_dimension=0, tiled=True)), count // n * n
        f = jax.jit(self.shard_map(body, mesh=self.mesh, in_specs=P("i"), out_specs=P("i")))
        x = self._global(np.ones(per, dtype=np.float32).astype(jdtype))
        last: list[Any] = [None]

        def call() -> None:
            last[0] = f(x)

        self._last = last
        return call

    def sync(self) -> None:
        last = getattr(self, "_last", [None])[0]
        if last is not None:
            last.block_until_ready()

    def close(self) -> None:
        try:
            self.jax.distributed.shutdown()
        except Exception:
            pass


# ---------------------------------------------------------------- measuring


def _measure(group: Any, call: Callable[[], None], target_s: float, dog: Watchdog) -> tuple[list[float], float]:
    """Per-sample seconds of one operation (the slowest rank's), and the wall time spent.

    Every rank runs the same number of calls: the burst length comes from the slowest rank's
    first timing, so no rank waits for a collective the others never start.
    """
    t_start = time.perf_counter()
    call()  # warm-up: connections, buffers, compilation
    group.sync()
    t0 = time.perf_counter()
    call()
    group.sync()
    first = group.max_floats([time.perf_counter() - t0])[0]
    dog.beat()
    inner = max(1, min(64, math.ceil(2e-3 / max(first, 1e-7))))
    reps = max(3, min(25, int(target_s / max(first * inner, 1e-7))))
    local: list[float] = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(inner):
            call()
        group.sync()
        local.append((time.perf_counter() - t0) / inner)
        dog.beat()
    slowest = group.max_floats(local)
    return slowest, time.perf_counter() - t_start


def _measured_result(
    backend: str,
    key: str,
    op: str,
    dtype: str,
    size: int,
    ranks: int,
    n_hosts: int,
    transport: str,
    times: list[float],
    seconds: float,
) -> ProbeResult:
    """One collective point's result: bus bandwidth (median of the slowest rank's times), algorithm bandwidth, time."""
    stats = summarize([size / t * bus_factor(op, ranks) for t in times], seconds)
    busbw = stats.median
    algbw = busbw / bus_factor(op, ranks)
    med = size / algbw
    info = CollectiveInfo(op=op, ranks=ranks, hosts=n_hosts, transport=transport, time_s=med, algbw=algbw, busbw=busbw)
    msg = (
        f"{OP_LABEL[op]} of {_size(size)} across {ranks} ranks on {n_hosts} host{'s' if n_hosts > 1 else ''} "
        f"({backend} {transport}); {med * 1e6:.1f} µs per operation; algorithm bandwidth {algbw / 1e9:.3g} GB/s; "
        f"bus bandwidth = algbw × {bus_factor(op, ranks):.3g}"
    )
    return ProbeResult(
        kernel="collective",
        backend=backend,
        device=key,
        dtype=dtype,
        size=size,
        variant=op,
        metric="bytes_per_s",
        value=busbw,
        unit="B/s",
        stats=stats,
        message=msg,
        collective=info,
    )


def _skip_rest(
    emit: Callable[[Any], None], points: list[tuple[int, str, str]], backend: str, key: str, why: str
) -> None:
    """Report every point not run as skipped, with the reason."""
    for size2, op2, dt2 in points:
        emit(ResultMsg(result=_result(backend, key, op2, dt2, size2, status="skipped", message=f"not run: {why}")))


def _measure_point(
    group: Any,
    point: tuple[int, str, str],
    label: str,
    emit: Callable[[Any], None],
    dog: Watchdog,
    *,
    backend: str,
    key: str,
    ranks: int,
    n_hosts: int,
    target_s: float,
) -> bool:
    """Measure one point (rank 0 reports it). False when the group is no longer whole (this rank said why)."""
    size, op, dtype = point
    rank, lead, transport = group.rank, group.rank == 0, group.transport
    if not group.dtype_ok(dtype):
        if lead:
            emit(
                ResultMsg(
                    result=_result(
                        backend,
                        key,
                        op,
                        dtype,
                        size,
                        status="skipped",
                        message=f"{transport} on {group.platform} does not reduce {dtype}",
                    )
                )
            )
        return True
    try:
        call = group.prepare(op, size, dtype)
        times, seconds = _measure(group, call, target_s, dog)
    except Exception as exc:  # a peer that went away, an op the transport lacks, out of memory
        msg = _one_line(exc)
        if lead:
            emit(ResultMsg(result=_result(backend, key, op, dtype, size, status="error", message=msg)))
        if "not supported" in msg.lower() or "unsupported" in msg.lower():
            return True  # the group is still whole: go on with the next point
        emit(ErrorMsg(backend=backend, kernel="collective", message=f"rank {rank}: {label}: {msg}"))
        return False
    if lead:
        emit(
            ResultMsg(result=_measured_result(backend, key, op, dtype, size, ranks, n_hosts, transport, times, seconds))
        )
    return True


def _run_points(
    group: Any,
    points: list[tuple[int, str, str]],
    emit: Callable[[Any], None],
    cancelled: Callable[[], bool],
    dog: Watchdog,
    *,
    backend: str,
    key: str,
    ranks: int,
    n_hosts: int,
    deadline: float,
    timeout_s: float,
    target_s: float,
) -> int:
    """Measure every point on this rank (rank 0 reports); all ranks stop together. Returns the exit code."""
    rank, lead = group.rank, group.rank == 0
    crash_at = _test_crash_point(rank)
    for i, (size, op, dtype) in enumerate(points):
        if i == crash_at:
            os.kill(os.getpid(), signal.SIGKILL)  # the tests' stand-in for a rank that dies mid-run
        label = f"{OP_LABEL[op]} {dtype} {size} B"
        try:  # every rank stops at the same point: cancelled or out of time anywhere means everywhere
            stop = group.max_floats([1.0 if cancelled() or time.monotonic() > deadline else 0.0])[0]
        except Exception as exc:  # a peer that went away between points
            emit(
                ErrorMsg(backend=backend, kernel="collective", message=f"rank {rank}: before {label}: {_one_line(exc)}")
            )
            return 1
        if stop:
            if lead:
                _skip_rest(
                    emit, points[i:], backend, key, "cancelled" if cancelled() else "the time budget was used up"
                )
            return 0
        dog.beat(f"measuring {label}")
        if lead:
            emit(
                Progress(
                    done=i,
                    total=len(points),
                    kernel="collective",
                    point=f"{key}/collective/{op}/{dtype}/{size}",
                    backend=backend,
                    device=key,
                    dtype=dtype,
                    size=size,
                    variant=op,
                    cap_s=timeout_s,
                )
            )
        if not _measure_point(
            group,
            (size, op, dtype),
            label,
            emit,
            dog,
            backend=backend,
            key=key,
            ranks=ranks,
            n_hosts=n_hosts,
            target_s=target_s,
        ):
            return 1
    return 0


def _join(backend: str, emit: Callable[[Any], None], timeout_s: float) -> Any:
    """This process's place in the torch or JAX group, or None after reporting why it could not join."""
    try:
        return _TorchGroup(timeout_s) if backend == "torch" else _JaxGroup(timeout_s)
    except RendezvousError as exc:
        emit(ErrorMsg(backend=backend, kernel="collective", message=str(exc)))
        emit(Done(ok=False, message=str(exc)))
        return None
    except Exception as exc:
        msg = f"could not join the {backend} group within {timeout_s:.0f} s: {_one_line(exc)}"
        emit(ErrorMsg(backend=backend, kernel="collective", message=msg))
        emit(Done(ok=False, message=msg))
        return None


def _introduce(group: Any, backend: str, ranks: int, emit: Callable[[Any], None]) -> list[dict[str, Any]] | None:
    """Exchange host information and check a sum across the ranks; rank 0 reports the hosts and the device.
    The hosts, or None after reporting what failed."""
    rank = group.rank
    versions = group.versions()
    try:
        hosts = merge_hosts(group.gather_objects(_host_info(rank, group.devices(), versions)))
        wrong = group.check_sum()
    except Exception as exc:  # a peer that went away right after joining
        msg = f"rank {rank}: after joining the {backend} group: {_one_line(exc)}"
        emit(ErrorMsg(backend=backend, kernel="collective", message=msg))
        emit(Done(ok=False, message=msg))
        return None
    lead = rank == 0
    if lead:
        emit(_HostsMsg(hosts=hosts))
        emit(
            DeviceMsg(
                device=DeviceInfo(
                    backend=backend,
                    platform=group.platform,
                    name=group.device_name,
                    index=0,
                    count=ranks,
                    versions=versions,
                )
            )
        )
    if wrong:
        if lead:
            emit(ErrorMsg(backend=backend, kernel="collective", message=f"wrong result: {wrong}"))
        emit(Done(ok=False, message=wrong))
        return None
    return hosts


def _points(group: Any, ranks: int, dtypes: list[str] | None, max_bytes: int | None) -> list[tuple[int, str, str]]:
    """The (size, op, dtype) points to measure: bfloat16 too on an accelerator, and larger messages."""
    accel = group.platform != "cpu"
    limit = max_bytes or (ACCEL_MAX_BYTES if accel else CPU_MAX_BYTES)
    sizes = message_sizes(limit, ranks)
    wanted = [d for d in (dtypes or (["float32", "bfloat16"] if accel else ["float32"])) if d in ELEM_BYTES]
    return [(size, op, dt) for dt in wanted for size in sizes for op in OPS]


def run(
    backend: str,
    emit: Callable[[Any], None],
    cancelled: Callable[[], bool],
    *,
    deadline: float,
    dtypes: list[str] | None,
    timeout_s: float = TIMEOUT_S,
    max_bytes: int | None = None,
    target_s: float = 0.15,
) -> int:
    """Join the group, measure, report (rank 0); the worker's exit code."""
    # the framework's import (seconds on a busy machine) does not count against the joining timeout
    if backend == "torch":
        import torch.distributed  # noqa: F401 (imported for its start-up cost, before the timeout starts)
    else:
        import jax  # noqa: F401 (imported for its start-up cost, before the timeout starts)
    # torch's own timeout errors say more, so they come first; JAX aborts instead, so the watchdog does
    dog = Watchdog(emit, backend, timeout_s + (WATCHDOG_MARGIN_S if backend == "torch" else 0.0))
    group = _join(backend, emit, timeout_s)
    if group is None:
        return 1
    dog.beat("exchanging host information")
    rank, procs = group.rank, group.size
    ranks = getattr(group, "ranks", procs)
    hosts = _introduce(group, backend, ranks, emit)
    if hosts is None:
        return 1
    key = f"{backend}:{group.platform}:0"
    code = _run_points(
        group,
        _points(group, ranks, dtypes, max_bytes),
        emit,
        cancelled,
        dog,
        backend=backend,
        key=key,
        ranks=ranks,
        n_hosts=len(hosts),
        deadline=deadline,
        timeout_s=timeout_s,
        target_s=target_s,
    )
    if code == 0:
        dog.beat("leaving the group")
        group.close()  # with every peer still there; after a failure the process just ends (a shutdown
        #                that waits for a dead peer could take minutes)
        emit(Done(ok=True, message=None if rank == 0 else f"rank {rank}: rank 0 reports the results"))
    else:
        emit(Done(ok=False, message="a rank failed"))
    dog.stop()
    return code


def _test_crash_point(rank: int) -> int | None:
    """With the test kernels switched on, GPU_TPU_APP_TEST_CRASH_RANK=R:I makes rank R die before point I."""
    if os.environ.get(TEST_KERNELS_ENV) != "1":
        return None
    spec = os.environ.get("GPU_TPU_APP_TEST_CRASH_RANK", "")
    who, _, when = spec.partition(":")
    if who.isdigit() and when.isdigit() and int(who) == rank:
        return int(when)
    return None


def _size(nbytes: int) -> str:
    for unit, scale in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if nbytes >= scale:
            return f"{nbytes / scale:.3g} {unit}"
    return f"{nbytes} B"


def _result(backend: str, key: str, op: str, dtype: str, size: int, *, status: str, message: str) -> ProbeResult:
    return ProbeResult(
        kernel="collective",
        backend=backend,
        device=key,
        dtype=dtype,
        size=size,
        variant=op,
        metric="bytes_per_s",
        unit="B/s",
        status=status,
        message=message[:500],
    )


class _HostsMsg:
    """The 'hosts' message: each host of the group with its ranks and provenance (rank 0 sends it)."""

    def __init__(self, hosts: list[dict[str, Any]]) -> None:
        self.hosts = hosts

    def to_dict(self) -> dict[str, Any]:
        return {"type": "hosts", "hosts": self.hosts}


def worker_main(args: Any, emit: Callable[[Any], None], cancelled: Callable[[], bool], t0: float) -> int:
    """The worker's collective path: Hello, then `run`; args are the worker's parsed arguments."""
    versions = {"app": __version__, "python": platform.python_version()}
    emit(Hello(backend=args.backend, versions=versions, env=detect.kernel_env(), pid=os.getpid()))
    budget = args.budget_s if args.budget_s is not None else 55.0
    time_left = args.time_left_s if args.time_left_s is not None else budget
    timeout = float(os.environ.get("GPU_TPU_APP_COLLECTIVE_TIMEOUT_S", TIMEOUT_S))
    max_bytes = int(os.environ.get("GPU_TPU_APP_COLLECTIVE_MAX_BYTES", "0") or 0) or None
    return run(
        args.backend,
        emit,
        cancelled,
        deadline=t0 + time_left,
        dtypes=args.dtype,
        timeout_s=timeout,
        max_bytes=max_bytes,
    )
