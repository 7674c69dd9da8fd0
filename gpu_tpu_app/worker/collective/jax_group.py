"""The jax.distributed engine of a collective run: one process of a group from JAX_COORDINATOR_ADDRESS,
JAX_NUM_PROCESSES and JAX_PROCESS_ID, or auto-detected on a TPU slice or a SLURM job.

Worker side: standard library and jax only (imported when the group is joined).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any

from gpu_tpu_app.worker import detect
from gpu_tpu_app.worker.collective.common import (
    ELEM_BYTES,
    WATCHDOG_MARGIN_S,
    RendezvousError,
    _bind_text,
    listen_on,
    split_address,
)


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
