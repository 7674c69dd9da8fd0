"""The torch kernels measured for real on this machine's CPU, at small sizes."""

from __future__ import annotations

import functools
import statistics

import pytest

torch = pytest.importorskip("torch")

from gpu_tpu_app.worker.kernels import run_point  # noqa: E402
from gpu_tpu_app.worker.kernels import torch_kernels as tk  # noqa: E402
from gpu_tpu_app.worker.kernels.common import BlockShape, usable_cores  # noqa: E402
from gpu_tpu_app.worker.kernels.stats import Timing  # noqa: E402
from tests.worker.kernels.kernel_helpers import check_rate, cpu_device, make_ctx_class, make_point, spy_measure  # noqa: E402

Ctx = make_ctx_class(cpu_device("torch"))
point = functools.partial(make_point, "torch")


@pytest.fixture
def timings(monkeypatch: pytest.MonkeyPatch) -> list[Timing]:
    """The Timing each kernel's measuring loop returned (the real loop, observed)."""
    return spy_measure(monkeypatch, tk)


def test_matmul_float32_counts_2n3(timings: list[Timing]) -> None:
    n = 256
    [res] = run_point(point("matmul", "float32", n), Ctx())
    assert (res.kernel, res.metric, res.unit, res.size, res.dtype) == ("matmul", "flops", "FLOP/s", n, "float32")
    check_rate(res, timings[-1], 2.0 * n**3)
    assert 1e8 < res.value < 1e14  # plausible for a CPU
    assert res.math_mode and "fp32" in res.math_mode
    assert f"{usable_cores()} threads" in (res.message or "")
    assert torch.get_num_threads() == usable_cores()
    assert res.pct_spec is None  # no catalogue entry for this CPU


def test_matmul_bfloat16_records_math_mode(timings: list[Timing]) -> None:
    [res] = run_point(point("matmul", "bfloat16", 256), Ctx())
    check_rate(res, timings[-1], 2.0 * 256**3)
    assert "bf16" in (res.math_mode or "")


@pytest.mark.parametrize(("kernel", "arrays"), [("copy", 2), ("triad", 3)])
def test_stream_counts_bytes_like_stream(kernel: str, arrays: int, timings: list[Timing]) -> None:
    n = 1 << 20
    [res] = run_point(point(kernel, "float32", n), Ctx())
    assert (res.metric, res.unit) == ("bytes_per_s", "B/s")
    check_rate(res, timings[-1], arrays * n * 4.0)
    assert 1e8 < res.value < 1e13
    assert f"{arrays} arrays" in (res.message or "") and "in cache" in (res.message or "")


def test_triad_computes_b_plus_s_c() -> None:
    b, c, a = torch.randn(1000), torch.randn(1000), torch.empty(1000)
    torch.add(b, c, alpha=3.0, out=a)  # the exact call the kernel times
    # one fused multiply-add vs a separate multiply and add: equal up to rounding near zero
    assert torch.allclose(a, b + 3.0 * c, rtol=1e-5, atol=1e-5)


def test_transfer_is_not_applicable_on_cpu() -> None:
    results = run_point(point("transfer", None, None), Ctx())
    assert len(results) == 1
    assert results[0].status == "skipped" and results[0].message == "not applicable on CPU"
    assert results[0].value is None


def test_dispatch_latency_is_positive_and_small(timings: list[Timing]) -> None:
    [res] = run_point(point("dispatch", None, 1), Ctx())
    assert (res.metric, res.unit, res.status) == ("seconds", "s", "ok")
    assert 0 < res.value < 1e-3
    assert res.value == pytest.approx(statistics.median(timings[-1].times))
    assert timings[-1].inner > 1  # bursts of calls between syncs


def test_compile_is_skipped_with_a_reason() -> None:
    [res] = run_point(point("compile", None, 256), Ctx())
    assert res.status == "skipped" and "eagerly" in (res.message or "")


def test_model_step_flops_and_fraction_of_best_matmul(timings: list[Timing]) -> None:
    [mm] = run_point(point("matmul", "float32", 256), Ctx())
    ctx = Ctx()
    ctx.best_measured = {("matmul", "float32"): mm.value}  # the worker keeps this per device
    shape = BlockShape(2, 32, 64, 2)
    [res] = run_point(point("model_step", "float32", shape.d_model, shape.tag), ctx)
    check_rate(res, timings[-1], shape.step_flops())
    assert "% of the best float32 matmul" in (res.message or "")


def test_block_step_flops_formula() -> None:
    s = BlockShape(1, 4, 8, 2)
    t, d = 4, 8
    assert s.forward_flops() == 6 * t * d * d + 4 * 1 * 16 * d + 2 * t * d * d + 16 * t * d * d
    assert s.step_flops() == 3 * s.forward_flops()
    assert BlockShape.parse(s.tag) == s


def test_result_above_catalogue_peak_is_suspect() -> None:
    [mm] = run_point(point("matmul", "float32", 256), Ctx(peak_flops={"float32": 1e6}))
    assert mm.status == "suspect" and mm.pct_spec is not None and mm.pct_spec > 100
    assert "above the catalogue peak" in (mm.message or "")
    [tr] = run_point(point("triad", "float32", 1 << 18), Ctx(peak_bw=1e3))
    assert tr.status == "suspect" and (tr.pct_spec or 0) > 100
    [ok] = run_point(point("matmul", "float32", 256), Ctx(peak_flops={"float32": 1e16}))
    assert ok.status == "ok" and 0 < (ok.pct_spec or 0) < 100


def test_cancel_before_measuring_returns_nothing() -> None:
    assert run_point(point("matmul", "float32", 256), Ctx(stop=True)) == []


def test_matmul_that_does_not_fit_is_skipped_without_allocating() -> None:
    [res] = run_point(point("matmul", "float32", 1_000_000), Ctx())
    assert res.status == "skipped" and (res.kernel, res.metric, res.value) == ("matmul", "flops", None)
    assert (res.message or "").startswith("needs 11444092 MiB, more than 40% of the ")
    assert res.math_mode == tk.math_mode(tk.torch.device("cpu"), "float32")


def test_collective_on_one_cpu_is_skipped() -> None:
    [res] = run_point(point("collective", None, 1 << 20), Ctx())
    assert res.status == "skipped" and "one cpu device" in (res.message or "")


@pytest.mark.slow
def test_collective_gloo_two_ranks_on_loopback() -> None:
    nbytes = 1 << 20
    [res] = run_point(point("collective", None, nbytes, "gloo", cap_s=60.0), Ctx())
    assert (res.status, res.metric, res.variant) == ("ok", "bytes_per_s", "gloo"), res.message
    assert 1e6 < res.value < 1e12
    assert "2 ranks" in (res.message or "") and "bus bandwidth" in (res.message or "")
    assert res.stats.reps >= 3


def test_matmul_memory_skip_follows_the_backends_own_answer_when_it_has_one() -> None:
    from gpu_tpu_app.worker.kernels.common import matmul_memory_skip

    p = point("matmul", "float32", 1024)
    need = 3 * 1024 * 1024 * 4
    assert matmul_memory_skip(p, need, None, "fp32") is None  # free unknown: measured
    assert matmul_memory_skip(p, need, int(need / 0.4), "fp32") is None  # exactly 40 %: fits
    [res] = matmul_memory_skip(p, need, int(need / 0.4) - 1, "fp32") or []
    assert res.message == "needs 12 MiB, more than 40% of the 30 MiB free" and res.math_mode == "fp32"
    assert matmul_memory_skip(p, need, 10 * need, "fp32", fits=False)  # CUDA said no, whatever the host says
    assert matmul_memory_skip(p, need, 1, "fp32", fits=True) is None
