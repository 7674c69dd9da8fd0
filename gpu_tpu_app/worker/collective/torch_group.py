"""The torch.distributed engine of a collective run: one rank of a group started by torchrun (env://),
gloo on CPU, NCCL on CUDA.

Worker side: standard library and torch only (imported when the group is joined).
"""

from __future__ import annotations

import os
import platform
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from gpu_tpu_app.worker import detect
from gpu_tpu_app.worker.collective.common import ELEM_BYTES, listen_on


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
