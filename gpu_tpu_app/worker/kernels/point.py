"""What one measurement is: the `Point` the planner makes and the `Context` a kernel measures it in.

Shared by the planner and both backends' kernels; imports nothing of theirs, so neither side
imports the other to name these types.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:  # pragma: no cover
    from gpu_tpu_app.worker.wire import DeviceInfo


@dataclass
class Point:
    """One measurement to make. `id` is stable across runs of the same plan (the worker skips by position)."""

    id: str
    kernel: str
    backend: str
    device: str  # DeviceInfo.key, e.g. "torch:cpu:0"
    dtype: str | None
    size: (
        int | None
    )  # matmul/compile: N; copy/triad: elements per array; transfer/collective: bytes; model_step: d_model
    variant: str | None
    est_s: float  # rough expected seconds, for the ETA and the budget
    cap_s: float  # the measuring loop stops before this; the runner kills at cap_s + grace
    target_s: float = 0.25  # measuring time per round; rounds repeat while CV > 3.5 %, up to cap_s
    note: str | None = None  # said in every result of the point (e.g. a working set capped below 4x LLC)
    skip: str | None = None  # set: the plan leaves this point out; the worker reports it skipped with this reason
    setup_s: float = 0.0  # allowed before the measuring clock starts (compile, autotune, communicator), on top of cap_s
    #: a multi-threaded CPU matmul: also time the product on one thread (the stall rule's floor)
    one_thread: bool = False


@runtime_checkable
class Context(Protocol):
    """State the worker hands to run_point (the Orange-style job state object)."""

    device: DeviceInfo  # the device being measured
    peak_flops: dict[
        str, float
    ]  # dense catalogue peak per dtype ("float32", "tf32", "bfloat16", "float16"); {} if none
    peak_bw: float | None  # catalogue memory bandwidth in B/s

    def cancelled(self) -> bool:
        """True once the user asked to stop; kernels check it between repetitions."""
        ...


# Optional Context attribute, read with getattr: `best_measured: dict[tuple[str, str | None], float]`,
# the best rate so far in this run on ctx.device keyed by (kernel, dtype), e.g. ("matmul", "float32").
# model_step compares against it; without it, the best matmul measured in this process is used.
