"""The JAX kernels measured for real on this machine's CPU, at small sizes."""

from __future__ import annotations

import functools
import json
import os
import statistics
import subprocess
import sys
import textwrap

import pytest

jax = pytest.importorskip("jax")
pytestmark = pytest.mark.serial  # measures the kernels on the cores: runs alone (make test's serial part)

from gpu_tpu_app.core.runs import ProbeResult  # noqa: E402
from gpu_tpu_app.worker.kernels import jax_data as jd  # noqa: E402
from gpu_tpu_app.worker.kernels import jax_kernels as jk  # noqa: E402
from gpu_tpu_app.worker.kernels import run_point  # noqa: E402
from gpu_tpu_app.worker.kernels.common import BlockShape  # noqa: E402
from gpu_tpu_app.worker.kernels.stats import Timing  # noqa: E402
from tests.worker.kernels.kernel_helpers import check_rate, cpu_device, make_ctx_class, make_point, spy_measure  # noqa: E402

Ctx = make_ctx_class(cpu_device("jax"))
point = functools.partial(make_point, "jax")


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The functions jax_kernels compiles ahead during the test, in order (each still compiled for real)."""
    seen: list[object] = []
    real_compile = jk.compile_ahead

    def counting(*args, **kwargs):
        seen.append(args[0])
        return real_compile(*args, **kwargs)

    monkeypatch.setattr(jk, "compile_ahead", counting)
    return seen


@pytest.fixture
def timings(monkeypatch: pytest.MonkeyPatch) -> list[Timing]:
    """The Timing each kernel's measuring loop returned (the real loop, observed)."""
    return spy_measure(monkeypatch, jk)


def test_matmul_float32_counts_2n3(timings: list[Timing]) -> None:
    n = 256
    [res] = run_point(point("matmul", "float32", n), Ctx())
    assert (res.kernel, res.backend, res.metric, res.unit) == ("matmul", "jax", "flops", "FLOP/s")
    check_rate(res, timings[-1], 2.0 * n**3)
    assert 1e8 < (res.value or 0) < 1e14
    assert res.math_mode == "fp32 (XLA CPU)"


@pytest.mark.parametrize("kernel", ["matmul", "triad", "dispatch"])
def test_compile_happens_before_the_points_clock_starts(kernel: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    events: list[tuple[str, float]] = []
    real_compile, real_measure = jk.compile_ahead, jk.measure

    def compile_spy(*args, **kwargs):
        out = real_compile(*args, **kwargs)
        events.append(("compiled", time.perf_counter()))
        return out

    def measure_spy(*args, **kwargs):
        events.append(("clock", kwargs["start"]))
        return real_measure(*args, **kwargs)

    monkeypatch.setattr(jk, "compile_ahead", compile_spy)
    monkeypatch.setattr(jk, "measure", measure_spy)
    jk.HELD.clear()  # an earlier test's executable of this shape would be reused, with no compile to see
    size = {"matmul": 128, "triad": 1 << 16, "dispatch": 1}[kernel]
    [res] = run_point(point(kernel, "float32" if kernel != "dispatch" else None, size), Ctx())
    compiled = [t for what, t in events if what == "compiled"]
    clock = [t for what, t in events if what == "clock"]
    assert compiled and clock and clock[0] >= max(compiled)  # the cap counts from after the compile
    if kernel != "dispatch":
        assert "compiled ahead in" in (res.message or "") and "outside the point's time cap" in (res.message or "")


def test_matmul_that_does_not_fit_is_skipped_without_allocating() -> None:
    [res] = run_point(point("matmul", "float32", 1_000_000), Ctx())
    assert res.status == "skipped" and (res.kernel, res.metric, res.value) == ("matmul", "flops", None)
    assert (res.message or "").startswith("needs 11444092 MiB, more than 40% of the ")
    assert res.math_mode == "fp32 (XLA CPU)"


def test_matmul_donated_output_is_the_product() -> None:
    import jax.numpy as jnp

    f = jax.jit(lambda out, x, y: x @ y, donate_argnums=0, keep_unused=True)
    x = jnp.arange(4.0).reshape(2, 2)
    assert jnp.allclose(f(jnp.empty((2, 2)), x, x), x @ x)


def test_matmul_bfloat16(timings: list[Timing]) -> None:
    [res] = run_point(point("matmul", "bfloat16", 256), Ctx())
    check_rate(res, timings[-1], 2.0 * 256**3)
    assert "bf16" in (res.math_mode or "")


@pytest.mark.parametrize(("kernel", "arrays"), [("copy", 2), ("triad", 3)])
def test_stream_counts_bytes_like_stream(kernel: str, arrays: int, timings: list[Timing]) -> None:
    n = 1 << 20
    [res] = run_point(point(kernel, "float32", n), Ctx())
    assert (res.metric, res.unit) == ("bytes_per_s", "B/s")
    check_rate(res, timings[-1], arrays * n * 4.0)
    assert 1e8 < (res.value or 0) < 1e13


def test_transfer_is_not_applicable_on_cpu() -> None:
    results = run_point(point("transfer", None, None), Ctx())
    assert [(r.status, r.message) for r in results] == [("skipped", "not applicable on CPU")]


def test_dispatch_latency_is_positive_and_small(timings: list[Timing]) -> None:
    [res] = run_point(point("dispatch", None, 1), Ctx())
    assert (res.metric, res.unit, res.status) == ("seconds", "s", "ok")
    assert 0 < (res.value or 0) < 1e-2
    assert res.value == pytest.approx(statistics.median(timings[-1].times))


def test_compile_reports_each_phase_apart() -> None:
    results = run_point(point("compile", None, 128, cap_s=4.0), Ctx())
    by = {r.variant: r for r in results}
    assert list(by) == ["first_call_cold", "lower", "compile", "first_call", "steady"]
    # the cold first call is its own one-sample figure, and the later phases say they are warm
    assert by["first_call_cold"].stats is not None and by["first_call_cold"].stats.reps == 1
    assert "first call of the step in this worker" in (by["first_call_cold"].message or "")
    assert "warm" in (by["first_call"].message or "") and "warm" in (by["compile"].message or "")
    for r in results:
        assert (r.metric, r.unit, r.status) == ("seconds", "s", "ok")
        assert (r.value or 0) > 0 and r.stats is not None and r.stats.reps >= 1
    # a first call traces, compiles and runs: far slower than a call of the compiled function
    assert (by["first_call"].value or 0) > (by["steady"].value or 0)
    assert (by["compile"].value or 0) > (by["steady"].value or 0)
    assert "cost_analysis" in (by["compile"].message or "")
    assert "GFLOP vs 2·N³" in (by["compile"].message or "")


@pytest.mark.slow
def test_model_step_flops_and_fraction_of_best_matmul(timings: list[Timing]) -> None:
    [mm] = run_point(point("matmul", "float32", 256), Ctx())
    ctx = Ctx()
    ctx.best_measured = {("matmul", "float32"): mm.value}  # the worker keeps this per device
    shape = BlockShape(2, 32, 64, 2)
    [res] = run_point(point("model_step", "float32", shape.d_model, shape.tag, cap_s=3.0), ctx)
    check_rate(res, timings[-1], shape.step_flops())
    assert "% of the best float32 matmul" in (res.message or "")


def test_block_matches_torch_block() -> None:
    """Both frameworks run the same transformer block: same output for the same weights."""
    torch = pytest.importorskip("torch")
    import numpy as np

    from gpu_tpu_app.worker.kernels import torch_kernels as tk

    shape = BlockShape(2, 8, 16, 2)
    rng = np.random.default_rng(0)
    d, ff = shape.d_model, 4 * shape.d_model
    arrays = {
        "ln1_w": 1 + 0.1 * rng.standard_normal(d),
        "ln1_b": 0.1 * rng.standard_normal(d),
        "w_qkv": rng.standard_normal((d, 3 * d)) / 4,
        "w_o": rng.standard_normal((d, d)) / 4,
        "ln2_w": 1 + 0.1 * rng.standard_normal(d),
        "ln2_b": 0.1 * rng.standard_normal(d),
        "w_1": rng.standard_normal((d, ff)) / 4,
        "w_2": rng.standard_normal((ff, d)) / 8,
    }
    x = rng.standard_normal((shape.batch, shape.seq, d))
    out_j = np.asarray(
        jk.block_forward(
            jax.numpy.asarray(x, "float32"), {k: jax.numpy.asarray(v, "float32") for k, v in arrays.items()}, 2
        )
    )
    out_t = tk.block_forward(
        torch.tensor(x, dtype=torch.float32), {k: torch.tensor(v, dtype=torch.float32) for k, v in arrays.items()}, 2
    ).numpy()
    assert np.allclose(out_j, out_t, rtol=1e-4, atol=1e-4)


def test_result_above_catalogue_peak_is_suspect() -> None:
    [mm] = run_point(point("matmul", "float32", 256), Ctx(peak_flops={"float32": 1e6}))
    assert mm.status == "suspect" and (mm.pct_spec or 0) > 100
    assert "above the catalogue peak" in (mm.message or "")
    [tr] = run_point(point("copy", "float32", 1 << 18), Ctx(peak_bw=1e3))
    assert tr.status == "suspect"


def test_cancel_before_measuring_returns_nothing() -> None:
    assert run_point(point("dispatch", None, 1), Ctx(stop=True)) == []


def test_collective_with_one_device_is_skipped() -> None:
    if len(jax.devices("cpu")) > 1:
        pytest.skip("this process already has several CPU devices")
    [res] = run_point(point("collective", None, 1 << 20), Ctx())
    assert res.status == "skipped" and "xla_force_host_platform_device_count" in (res.message or "")


@pytest.mark.slow
def test_collective_psum_over_four_forced_host_devices() -> None:
    script = textwrap.dedent(
        """
        import json
        from dataclasses import dataclass, field
        from gpu_tpu_app.core.runs import DeviceInfo
        from gpu_tpu_app.worker.kernels import Point, run_point

        @dataclass
        class Ctx:
            device: DeviceInfo = DeviceInfo(backend="jax", platform="cpu", name="cpu", index=0, count=4)
            peak_flops: dict = field(default_factory=dict)
            peak_bw: float | None = None
            def cancelled(self):
                return False

        p = Point(id="jax:cpu:0/collective/1048576", kernel="collective", backend="jax", device="jax:cpu:0",
                  dtype=None, size=1 << 20, variant=None, est_s=0.5, cap_s=8.0, target_s=0.05)
        print(json.dumps([r.model_dump() for r in run_point(p, Ctx())]))
        """
    )
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=4", JAX_PLATFORMS="cpu")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=180)
    assert proc.returncode == 0, proc.stderr[-2000:]
    [raw] = json.loads(proc.stdout.strip().splitlines()[-1])
    res = ProbeResult.model_validate(raw)
    assert (res.status, res.metric, res.variant, res.size) == ("ok", "bytes_per_s", "psum", 1 << 20), res.message
    assert 1e6 < (res.value or 0) < 1e13
    assert "across 4 cpu devices" in (res.message or "") and "bus bandwidth" in (res.message or "")


def test_a_second_try_reuses_the_compiled_function_and_the_same_data(compiles: list[object]) -> None:
    """A point measured twice (worker/retry.py calls run_point again) compiles and draws its data once."""
    import numpy as np

    jk.HELD.clear()
    p = point("matmul", "float32", 192)
    [first] = run_point(p, Ctx())
    assert len(compiles) == 1 and "kept from an earlier try" not in (first.message or "")
    [second] = run_point(p, Ctx())
    assert len(compiles) == 1  # the same executable
    assert "the compiled function and its arrays kept from an earlier try or point" in (second.message or "")
    assert first.status == second.status == "ok" and (first.value or 0) > 0 and (second.value or 0) > 0
    # the data held is exactly what a fresh draw of the same seed gives: what is timed is unchanged
    dev = jk.jax_device(Ctx().device)
    held = jd.held_input((192, 192), "float32", dev, jk.common.SEED)
    assert np.array_equal(np.asarray(held), np.asarray(jd.randn((192, 192), "float32", dev, jk.common.SEED)))


def test_triad_reuses_copys_array_and_output_and_draws_only_its_second_input() -> None:
    jk.HELD.clear()
    n = 1 << 18
    [copy] = run_point(point("copy", "float32", n), Ctx())
    assert "kept from an earlier try" not in (copy.message or "")
    assert jk.HELD.held_bytes() == 2 * n * 4  # copy reads one array and writes one: no third drawn
    [triad] = run_point(point("triad", "float32", n), Ctx())
    assert "2 of its 3 arrays kept from an earlier try or point" in (triad.message or "")
    assert copy.status == triad.status == "ok"
    assert jk.HELD.held_bytes() == 3 * n * 4


def test_a_point_lets_go_of_the_arrays_it_does_not_use() -> None:
    jk.HELD.clear()
    [mm] = run_point(point("matmul", "float32", 512), Ctx())
    assert mm.status == "ok" and jk.HELD.held_bytes() == 3 * 512 * 512 * 4
    [dispatch] = run_point(point("dispatch", None, 1), Ctx())
    assert dispatch.status == "ok" and jk.HELD.held_bytes() == 4  # only dispatch's one float32 element
    run_point(point("compile", None, 64, cap_s=1.0), Ctx())
    assert jk.HELD.held_bytes() == 0  # the compile point holds nothing


def test_a_donated_buffer_is_never_handed_out_again() -> None:
    dev = jk.jax_device(Ctx().device)
    jk.HELD.keep([jd.out_key((8,), "float32", dev)])
    out = jd.held_output((8,), "float32", dev)
    out.delete()  # what donating it to a jitted call does
    again = jd.held_output((8,), "float32", dev)
    assert again is not out and not again.is_deleted()


@pytest.mark.parametrize("n", [1000, 1 << 20, 3 * (1 << 20) + 7])
def test_stream_arrays_repeat_a_seeded_normal_block_the_same_way_on_host_and_device(n: int) -> None:
    import numpy as np

    from gpu_tpu_app.worker.kernels.common import STREAM_BLOCK

    dev = jk.jax_device(Ctx().device)
    host = np.asarray(jd.stream_array(n, dev, 7, on_host=True))
    device = np.asarray(jd.stream_array(n, dev, 7, on_host=False))
    block = np.random.default_rng(7).standard_normal(min(n, STREAM_BLOCK), dtype=np.float32)
    assert host.shape == device.shape == (n,) and host.dtype == np.float32
    assert np.array_equal(host, device) and np.count_nonzero(host) == n  # never zeros
    assert np.array_equal(host[: block.size], block) and np.array_equal(
        host[-(n % block.size or block.size) :], block[: n % block.size or block.size]
    )
    assert not np.array_equal(host, np.asarray(jd.stream_array(n, dev, 8)))  # each seed its own data


def test_cpu_inputs_and_outputs_are_made_without_compiling_and_hold_the_same_numbers() -> None:
    """On a CPU the arrays come from numpy: no XLA compile per new shape (jnp.asarray(x, bfloat16) and
    jnp.empty each compiled one), and bfloat16 data is bit for bit what XLA's convert made of it."""
    import jax.numpy as jnp
    import numpy as np

    compiles: list[str] = []

    def listen(event: str, seconds: float, **kwargs: object) -> None:
        if "compile" in event:
            compiles.append(event)

    dev = jk.jax_device(Ctx().device)
    jax.monitoring.register_event_duration_secs_listener(listen)
    try:
        data = jd.randn((333, 77), "bfloat16", dev, 5)
        out = jd.held_output((333, 77), "bfloat16", dev)
        block = jd.block_inputs(BlockShape(2, 8, 48, 2), "bfloat16", dev)
    finally:
        jax.monitoring.unregister_event_duration_listener(listen)
    assert compiles == []
    assert data.dtype == out.dtype == jnp.bfloat16 and out.shape == (333, 77)
    host = np.random.default_rng(5).standard_normal((333, 77), dtype=np.float32)
    by_xla = np.asarray(jnp.asarray(host, dtype=jnp.bfloat16))
    assert np.array_equal(np.asarray(data).view(np.uint16), by_xla.view(np.uint16))
    params, x = block
    assert {str(v.dtype) for v in params.values()} == {"bfloat16"} and str(x.dtype) == "bfloat16"
    assert float(params["ln1_w"][0]) == 1.0 and float(params["ln1_b"][0]) == 0.0


def test_warm_up_and_calibration_compile_the_first_matmul_points_product(compiles: list[object]) -> None:
    """The warm-up, the calibration and the first matmul point of each dtype time one executable, compiled once."""
    jk.HELD.clear()
    info = Ctx().device
    assert jk.warm_up(info) > 0
    rates = jk.calibrate(info, ["float32", "bfloat16"], 256)
    assert set(rates) == {"float32", "bfloat16"} and all(1e8 < r < 1e14 for r in rates.values())
    assert len(compiles) == 2  # float32 (in the warm-up) and bfloat16
    # float32 right after the calibration keeps its arrays too; bfloat16's were let go by the float32 point
    for dtype, kept in (("float32", "the compiled function and its arrays kept"), ("bfloat16", "function kept")):
        [res] = run_point(point("matmul", dtype, 256), Ctx())
        assert res.status == "ok" and kept in (res.message or ""), res.message
    assert len(compiles) == 2
