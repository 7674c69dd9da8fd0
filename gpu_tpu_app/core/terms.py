"""The probe's vocabulary in one place: backends, suites, kernels, dtypes and what they imply.

The run-file model takes its backend and metric names from here (`core.runs.Backend`), so a
backend added here is known to the run files, the CLI, the worker, the planner and the window at
once. Standard library only: the window, the headless commands and the worker all import it, and
the worker may run in the user's own interpreter, which has no pydantic.
"""

from __future__ import annotations

import os
from typing import Literal, get_args

Backend = Literal["torch", "jax"]
Metric = Literal["flops", "bytes_per_s", "seconds"]
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
    "float64": 8,
    "float32": 4,
    "tf32": 4,
    "bfloat16": 2,
    "float16": 2,
    "int8": 1,
    "float8": 1,
    "fp8": 1,
}
#: How a smoke-suite run is labelled wherever its numbers show (CLI, window, report, estimator rows).
FUNCTIONAL_CHECK = "smoke suite: a functional check, not a benchmark"
#: Whole-run time budget per suite in seconds, shared by all backends of the run.
SUITE_BUDGET_S: dict[str, float] = {"smoke": 20.0, "quick": 55.0, "full": 570.0}
#: Bytes per element of each probe dtype.
ELEM_BYTES: dict[str, int] = {d: DTYPE_BYTES[d] for d in DTYPES}
#: JAX compile phases (variants of the "compile" kernel) in the order they happen.
COMPILE_PHASES = ("first_call_cold", "trace", "lower", "compile", "first_call", "steady")

#: Kernels that misbehave on purpose (worker/testkernels.py), offered only when this variable is "1".
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
