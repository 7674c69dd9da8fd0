"""The probe's vocabulary (core.terms) agrees with the run-file model, the planner, both backends and the CLI."""

from __future__ import annotations

from typing import get_args

import pytest

from gpu_tpu_app.commands import probe as probe_cli
from gpu_tpu_app.core import runs
from gpu_tpu_app.core.runs import CpuInfo, DeviceInfo
from gpu_tpu_app.shared import terms
from gpu_tpu_app.worker.kernels import plan


def test_backends_and_metrics_come_from_the_run_file_model() -> None:
    assert terms.BACKENDS == get_args(runs.Backend) == ("torch", "jax")
    assert set(terms.KERNEL_METRIC.values()) <= set(get_args(runs.Metric))


def test_every_kernel_has_a_metric_and_every_dtype_a_size() -> None:
    assert tuple(terms.KERNEL_METRIC) == terms.KERNELS
    assert tuple(terms.ELEM_BYTES) == terms.DTYPES
    assert terms.ELEM_BYTES == {"float32": 4, "bfloat16": 2, "float16": 2}
    assert terms.metric_for("matmul") == "flops" and terms.metric_for("test_sleep") == "seconds"
    assert not set(terms.TEST_KERNELS) & set(terms.KERNELS)


def test_the_types_name_exactly_what_the_registry_lists() -> None:
    assert get_args(terms.Kernel) == terms.KERNELS == tuple(terms.KERNEL_SPECS)
    assert get_args(terms.Dtype) == terms.DTYPES == ("float32", "bfloat16", "float16")
    assert get_args(terms.ServingDtype) == terms.SERVING_DTYPES
    assert set(terms.PEAK_DTYPES) >= set(terms.DTYPES) and "tf32" in terms.PEAK_DTYPES
    assert all(s.name == k for k, s in terms.KERNEL_SPECS.items())
    assert all(s.name == d for d, s in terms.DTYPE_SPECS.items())
    assert terms.MEMORY_KERNELS == ("copy", "triad")
    assert terms.DTYPE_BYTES["float8"] == terms.DTYPE_BYTES["int8"] == 1 and terms.DTYPE_BYTES["float64"] == 8


def test_the_lesson_and_the_estimator_take_their_names_from_the_registry() -> None:
    from gpu_tpu_app.core import estimate, lesson

    assert get_args(lesson.EvidenceKernel) == terms.KERNELS
    assert get_args(estimate.EstimateRequest.model_fields["dtype"].annotation) == terms.SERVING_DTYPES


@pytest.mark.parametrize(
    ("kernel", "size", "words"),
    [
        ("matmul", 4096, "4096×4096"),
        ("compile", 1024, "1024×1024"),
        ("copy", 1 << 29, "512 Mi elements"),
        ("triad", 1536, "1.5 Ki elements"),
        ("dispatch", 1, "1 element"),
        ("copy", 1000, "1000 elements"),
        ("transfer", 256 << 20, "256 MiB"),
        ("collective", 8, "8 B"),
        ("model_step", 512, "512"),
        ("test_sleep", 3, "3"),
        ("matmul", None, ""),
    ],
)
def test_a_size_reads_one_way(kernel: str, size: int | None, words: str) -> None:
    assert terms.size_words(kernel, size) == words


def test_point_words_and_every_table_word_a_size_the_same_way() -> None:
    from gpu_tpu_app.core.runs import ProbeResult
    from gpu_tpu_app.probe.cli_output import size_cell

    assert terms.point_words("dispatch", None, None, 1) == "dispatch 1 element"
    assert terms.point_words("copy", None, "float32", 1 << 29) == "copy float32 512 Mi elements"
    assert terms.point_words("model_step", "b8-s256-d512-h8", "bfloat16", 512) == "model_step b8-s256-d512-h8 bfloat16"
    assert terms.point_words("transfer", "h2d-pinned", None, 256 << 20) == "transfer h2d-pinned 256 MiB"
    for kernel in terms.KERNELS:
        r = ProbeResult(
            kernel=kernel,
            backend="torch",
            device="torch:cpu:0",
            size=1,
            metric=terms.metric_for(kernel),
            value=1.0,
            unit="",
            status="ok",
        )
        assert size_cell(r) == terms.size_words(kernel, 1)


def test_test_kernels_are_allowed_only_when_switched_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(terms.TEST_KERNELS_ENV, raising=False)
    assert terms.allowed_kernels() == terms.KERNELS
    monkeypatch.setenv(terms.TEST_KERNELS_ENV, "1")
    assert terms.allowed_kernels() == terms.KERNELS + terms.TEST_KERNELS


@pytest.mark.parametrize("module", ["torch_kernels", "jax_kernels"])
def test_each_backend_measures_exactly_the_kernels(module: str) -> None:
    impl = pytest.importorskip(f"gpu_tpu_app.worker.kernels.{module}")
    assert tuple(impl._KERNELS) == terms.KERNELS


def test_the_full_suite_plans_every_kernel_in_order() -> None:
    dev = DeviceInfo(
        backend="torch",
        platform="cpu",
        name="Test CPU",
        count=2,
        memory_bytes=16 << 30,
        cpu=CpuInfo(model="Test CPU", cores=2, caches={"L2": 1 << 20}),
    )
    kernels = list(dict.fromkeys(p.kernel for p in plan("torch", [dev], "full")))
    assert tuple(kernels) == terms.KERNELS


def test_the_probe_cli_accepts_every_term_and_nothing_else() -> None:
    parser = probe_cli.build_parser()
    for suite in terms.SUITES:
        assert parser.parse_args(["run", "--suite", suite]).suite == suite
    for backend in terms.BACKENDS:
        assert parser.parse_args(["run", "--backend", backend]).backend == backend
    assert parser.parse_args(["run", "--dtype", *terms.DTYPES]).dtype == list(terms.DTYPES)
    assert parser.parse_args(["run", "--kernel", *terms.KERNELS]).kernel == list(terms.KERNELS)
    with pytest.raises(SystemExit):
        parser.parse_args(["run", "--dtype", "float64"])
