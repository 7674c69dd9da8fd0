"""The probe's vocabulary in one place: backends, suites, kernels, dtypes and how each is worded.

Every kernel is one `KernelSpec` in `KERNEL_SPECS`: the metric it reports, what its size
counts, its name in prose and whether it measures memory bandwidth. Everything else that
depends on which kernels exist (the run-file models, the lesson's evidence, the trust rules,
the charts' order, the CLI's choices) is derived from it, so adding a kernel means: its spec
here, its points in `worker/kernels/planner.py`, its function in `torch_kernels.py` and/or
`jax_kernels.py`, its chart if it draws one (`ui/chart_<kind>.py`) and its tests. The same holds for
the dtypes (`DTYPE_SPECS`). Standard library only: the window, the headless commands and the
worker all import it, and the worker may run in the user's own interpreter, which has no pydantic.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal, cast, get_args

from gpu_tpu_app.shared.units import binary_count

Backend = Literal["torch", "jax"]
Metric = Literal["flops", "bytes_per_s", "seconds"]
Suite = Literal["smoke", "quick", "full"]
#: The kernels' names as a type, for the models that store one; `KERNEL_SPECS` must list the same (a test holds it).
Kernel = Literal["matmul", "copy", "triad", "transfer", "dispatch", "compile", "collective", "model_step"]
#: The dtypes the probe kernels measure, as a type; `DTYPES` is derived from `DTYPE_SPECS` (a test holds them equal).
Dtype = Literal["float32", "bfloat16", "float16"]
#: The dtypes the estimator serves weights and KV cache in, as a type; `SERVING_DTYPES` is derived (a test holds it).
ServingDtype = Literal["float32", "bfloat16", "int8", "float8"]
#: What a point's size counts: N of an N×N matrix, elements per array, bytes, or a block's width (its variant names
#: the whole shape).
SizeKind = Literal["matrix", "elements", "bytes", "width"]


@dataclass(frozen=True)
class KernelSpec:
    """One probe kernel: what it reports and how it is worded."""

    name: Kernel
    metric: Metric
    size: SizeKind
    memory: bool = False  # its bandwidth stands for the device's memory (STREAM's copy and triad)
    variants_apart: bool = False  # each variant is a measurement of its own (transfer directions, dispatch modes)


#: The probe kernels in the order a plan runs them.
KERNEL_SPECS: dict[str, KernelSpec] = {
    k.name: k
    for k in (
        KernelSpec("matmul", "flops", "matrix"),
        KernelSpec("copy", "bytes_per_s", "elements", memory=True),
        KernelSpec("triad", "bytes_per_s", "elements", memory=True),
        KernelSpec("transfer", "bytes_per_s", "bytes", variants_apart=True),
        KernelSpec("dispatch", "seconds", "elements", variants_apart=True),
        KernelSpec("compile", "seconds", "matrix"),
        KernelSpec("collective", "bytes_per_s", "bytes"),
        KernelSpec("model_step", "flops", "width"),
    )
}


@dataclass(frozen=True)
class DtypeSpec:
    """One number format the app speaks of: its size and where it is used."""

    name: str
    bytes: int
    probed: bool = False  # the probe kernels measure it (`DTYPES`)
    peak: bool = False  # the catalogue publishes a dense peak for it that a probe point compares against
    serving: bool = False  # the estimator serves weights and KV cache in it (`SERVING_DTYPES`)


#: Every number format the app speaks of (catalogue figures name more than the probe measures).
DTYPE_SPECS: dict[str, DtypeSpec] = {
    d.name: d
    for d in (
        DtypeSpec("float64", 8),
        DtypeSpec("float32", 4, probed=True, peak=True, serving=True),
        DtypeSpec("tf32", 4, peak=True),
        DtypeSpec("bfloat16", 2, probed=True, peak=True, serving=True),
        DtypeSpec("float16", 2, probed=True, peak=True),
        DtypeSpec("int8", 1, serving=True),
        DtypeSpec("float8", 1, serving=True),
        DtypeSpec("fp8", 1),
    )
}

BACKENDS: tuple[Backend, ...] = get_args(Backend)
SUITES: tuple[Suite, ...] = get_args(Suite)
KERNELS: tuple[Kernel, ...] = tuple(s.name for s in KERNEL_SPECS.values())
#: The dtypes the probe kernels measure, in the order plans and menus list them.
DTYPES = cast("tuple[Dtype, ...]", tuple(d for d, s in DTYPE_SPECS.items() if s.probed))  # the names of Dtype (a test)
#: The dtypes a catalogue peak is named for that a probe point compares against.
PEAK_DTYPES: tuple[str, ...] = tuple(d for d, s in DTYPE_SPECS.items() if s.peak)
#: The dtypes the estimator serves weights and KV cache in.
SERVING_DTYPES: tuple[str, ...] = tuple(d for d, s in DTYPE_SPECS.items() if s.serving)
#: The metric each probe kernel reports.
KERNEL_METRIC: dict[str, Metric] = {k: s.metric for k, s in KERNEL_SPECS.items()}
#: Kernels whose bandwidth stands for the device's memory (the roofline's slope; STREAM's array rule).
MEMORY_KERNELS: tuple[str, ...] = tuple(k for k, s in KERNEL_SPECS.items() if s.memory)
#: Bytes per element of every number format the app speaks of.
DTYPE_BYTES: dict[str, int] = {d: s.bytes for d, s in DTYPE_SPECS.items()}
#: How a smoke-suite run is labelled wherever its numbers show (CLI, window, report, estimator rows).
#: The variant of a CPU matmul measured on one thread beside the multi-threaded point of the same size:
#: the reference the stall rule holds a multi-threaded product to (core.trust).
ONE_THREAD = "1 thread"
#: The label in English, as run files and --format json keep it; `functional_check()` says it in the language in use.
FUNCTIONAL_CHECK = "smoke suite: a functional check, not a benchmark"
#: Whole-run time budget per suite in seconds, shared by all backends of the run.
SUITE_BUDGET_S: dict[str, float] = {"smoke": 20.0, "quick": 55.0, "full": 570.0}
#: Bytes per element of each probe dtype.
ELEM_BYTES: dict[str, int] = {d: DTYPE_BYTES[d] for d in DTYPES}
#: JAX compile phases (variants of the "compile" kernel) in the order they happen.
COMPILE_PHASES = ("first_call_cold", "trace", "lower", "compile", "first_call", "steady")

#: Set by the app for every worker: the catalogue's match patterns and peaks as JSON
#: ([{"id", "match": [regex], "peaks": {dtype: FLOP/s}, "bw": B/s}], probe.envs.catalog_digest), so
#: the worker, which may run in the user's own interpreter, needs neither pydantic nor the catalogue files.
CATALOG_ENV = "GPU_TPU_APP_CATALOG"

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


def _term(ident: str, language: str | None, **values: object) -> str | None:
    """The text `terms.<ident>` in `language` (None: the one in use), or None when the area has no such id.

    Imported here, not at the top: the worker imports this module and needs none of the text files."""
    from gpu_tpu_app.core import texts

    if ident not in texts.area_texts("terms", "en"):
        return None
    return texts.text(f"terms.{ident}", language=language, **values)


def functional_check(language: str | None = None) -> str:
    """'smoke suite: a functional check, not a benchmark' in the language in use (or `language`)."""
    return _term("functional_check", language) or FUNCTIONAL_CHECK


def functional_check_suffix(language: str | None = None) -> str:
    """'; smoke suite: a functional check, not a benchmark', to follow a run's or a device's other words."""
    return _term("functional_check_suffix", language, words=functional_check(language)) or f"; {FUNCTIONAL_CHECK}"


def kernel_words(kernel: str, language: str | None = None) -> str:
    """A kernel's name on screen ('matmul'; '矩阵乘法' in zh-Hans); an unknown kernel's id as it is."""
    return _term(f"kernel.{kernel}", language) or kernel


def variant_words(variant: str, language: str | None = None) -> str:
    """A point's variant on screen: the one-thread matmul ('1 thread') is worded; other variants are ids."""
    if variant == ONE_THREAD:
        return _term("variant.one_thread", language) or variant
    return variant


def size_words(kernel: str, size: int | None, language: str | None = None) -> str:
    """A point's size as people read it, the same in every table, chart and message: '4096×4096',
    '512 Mi elements', '1 element', '256 MiB', '8 B'; a block's width as a number; '' when there is none.
    In the language in use (or `language`): '512 Mi 个元素' in zh-Hans."""
    if size is None:
        return ""
    spec = KERNEL_SPECS.get(kernel)
    kind = spec.size if spec is not None else None
    if kind == "matrix":
        return f"{size}×{size}"
    if kind == "elements":
        ident = "size.element" if size == 1 else "size.elements"
        return _term(ident, language, count=binary_count(size)) or f"{binary_count(size)} elements"
    if kind == "bytes":
        count = binary_count(size)
        return f"{count}B" if count != str(size) else f"{size} B"
    return str(size)


def point_words(
    kernel: str,
    variant: str | None = None,
    dtype: str | None = None,
    size: int | None = None,
    language: str | None = None,
) -> str:
    """A probe point as people read it: 'copy float32 512 Mi elements', 'matmul bfloat16 4096×4096',
    'transfer h2d-pinned 256 MiB', 'model_step b8-s256-d512-h8'; in the language in use (or `language`:
    run files and the messages they keep say it in English, language="en")."""
    spec = KERNEL_SPECS.get(kernel)
    # a model step's variant already names the block's shape, its width included
    shown = None if spec is not None and spec.size == "width" and variant else size
    parts = (
        kernel_words(kernel, language),
        variant_words(variant, language) if variant else None,
        dtype,
        size_words(kernel, shown, language),
    )
    return " ".join(p for p in parts if p)
