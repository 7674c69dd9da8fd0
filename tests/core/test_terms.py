"""The probe's vocabulary (core.terms) agrees with the run-file model, the planner, both backends and the CLI."""

from __future__ import annotations

from typing import get_args

import pytest

from gpu_tpu_app.core import runs, terms
from gpu_tpu_app.core.runs import CpuInfo, DeviceInfo
from gpu_tpu_app.probe import cli as probe_cli
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
