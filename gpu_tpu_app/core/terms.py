"""The probe's vocabulary in one place: backends, suites, kernels, dtypes and what they imply.

The backend names come from the run-file model (`core.runs.Backend`), so a backend added
there is known to the CLI, the worker, the planner and the window at once. Pure Python: the
window, the headless commands and the worker all import it.
"""

from __future__ import annotations

import os
from typing import Literal, get_args

from gpu_tpu_app.core.runs import Backend, Metric

Suite = Literal["smoke", "quick", "full"]
Kernel = Literal["matmul", "copy", "triad", "transfer", "dispatch", "compile", "collective", "model_step"]
Dtype = Literal["float32", "bfloat16", "float16"]

BACKENDS: tuple[Backend, ...] = get_args(Backend)
SUITES: tuple[Suite, ...] = get_args(Suite)
#: The probe kernels in the order a plan runs them.
KERNELS: tuple[Kernel, ...] = get_args(Kernel)
#: The dtypes the probe kernels measure.
DTYPES: tuple[Dtype, ...] = get_args(Dtype)
#: The metric each probe kernel reports.
KERNEL_METRIC: dict[str, Metric] = {
    "matmul": "flops",
    "copy": "bytes_per_s",
    "triad": "bytes_per_s",
    "transfer": "bytes_per_s",
    "dispatch": "seconds",
    "compile": "seconds",
    "collective": "bytes_per_s",
    "model_step": "flops",
}
#: Bytes per element of the number formats the app speaks of (catalogue figures name more than the probe measures).
DTYPE_BYTES: dict[str, int] = {
    "float64": 8, "float32": 4, "tf32": 4, "bfloat16": 2, "float16": 2, "int8": 1, "float8": 1, "fp8": 1,
}  # fmt: skip
#: Bytes per element of each probe dtype.
ELEM_BYTES: dict[str, int] = {d: DTYPE_BYTES[d] for d in DTYPES}
#: JAX compile phases (variants of the "compile" kernel) in the order they happen.
COMPILE_PHASES = ("first_call_cold", "trace", "lower", "compile", "first_call", "steady")

#: Kernels that misbehave on purpose (probe/testkernels.py), offered only when this variable is "1".
TEST_KERNELS_ENV = "GPU_TPU_APP_TEST_KERNELS"
TEST_KERNELS = ("test_segfault", "test_sleep", "test_oom")


def metric_for(kernel: str) -> Metric:
    """The metric a kernel reports ('seconds' for test kernels)."""
    return KERNEL_METRIC.get(kernel, "seconds")


def enabled_test_kernels() -> tuple[str, ...]:
    """The test kernels when they are switched on for this process, else ()."""
    return TEST_KERNELS if os.environ.get(TEST_KERNELS_ENV) == "1" else ()


def allowed_kernels() -> tuple[str, ...]:
    """The kernels a run may ask for: the probe kernels, plus the test kernels when switched on."""
    return KERNELS + enabled_test_kernels()
