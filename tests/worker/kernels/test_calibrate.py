"""Issue 24 §1: one calibration product per dtype before its sweep; a slow dtype is said, sized down, measured last.

The slow path is real: torch bfloat16 on a CPU without bf16 units (no avx512_bf16 / amx_bf16), or,
on a CPU that has them, a product slowed on purpose for bfloat16 only (the test's own `slowed`).
"""

from __future__ import annotations

import time

import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.serial  # measures each dtype's rate on the cores: runs alone (make test's serial part)

from gpu_tpu_app.worker import detect  # noqa: E402
from gpu_tpu_app.worker.kernels import calibrate, plan, warm_up  # noqa: E402
from gpu_tpu_app.worker.kernels.common import cpu_flags  # noqa: E402
from gpu_tpu_app.worker.kernels.planner import slow_point_limit  # noqa: E402
from gpu_tpu_app.worker.kernels.speeds import SLOW_SHARE  # noqa: E402

NATIVE_BF16 = bool(cpu_flags() & {"avx512_bf16", "amx_bf16"})


def slowed(a, b):
    """torch.matmul, with a second added to every bfloat16 product: an emulated dtype made on purpose
    (a 256×256 product at about 34 MFLOP/s, ten times below even a stalled 2-thread fp32 on a busy machine)."""
    out = torch.matmul(a, b)
    if a.dtype == torch.bfloat16:
        time.sleep(1.0)
    return out


@pytest.fixture(scope="module")
def measured():
    _status, devices = detect.detect("torch")
    warm_up("torch", devices[0])
    mm = slowed if NATIVE_BF16 else None  # without bf16 units the real product is the slow path
    return devices, calibrate("torch", devices, "full", mm=mm)


def test_the_calibration_measures_each_planned_dtype(measured) -> None:
    devices, rates = measured
    key = devices[0].key
    assert set(rates) == {key} and set(rates[key]) == {"float32", "bfloat16"}
    fp32, bf16 = rates[key]["float32"], rates[key]["bfloat16"]
    assert bf16 < SLOW_SHARE * fp32, rates  # the slow path is slow, and the calibration sees it


def test_a_slow_dtype_is_said_sized_down_and_measured_last(measured) -> None:
    devices, rates = measured
    assumed = plan("torch", devices, "full")
    points = plan("torch", devices, "full", rates=rates)
    bf16 = [p for p in points if p.kernel == "matmul" and p.dtype == "bfloat16"]
    measured_bf16 = [p for p in bf16 if p.skip is None]
    left_out = [p for p in bf16 if p.skip is not None]
    # one line says it, on every point of the dtype
    first = bf16[0].note or bf16[0].skip or ""
    line = first.split(";")[0]
    assert line.startswith("bfloat16 ") and "FLOP/s" in line and "x below fp32" in line, line
    assert all((p.note or p.skip or "").startswith(line) for p in bf16)
    # measured only at the sizes that fit; the big ones are left out with the reason
    assert left_out and all("a slow dtype may use of the budget" in (p.skip or "") for p in left_out)
    assert measured_bf16 and max(p.size or 0 for p in measured_bf16) < min(p.size or 0 for p in left_out)
    limit = slow_point_limit_for(devices)
    assert all(p.est_s <= limit + 2 * p.target_s for p in measured_bf16)  # the loop, plus two extra rounds
    # never starving the others: the dtype's matmuls come after every other point, nothing else is cut
    last_other = max(i for i, p in enumerate(points) if p not in bf16)
    assert all(points.index(p) > last_other for p in bf16)
    others = [p for p in points if p not in bf16]
    assert [p.id for p in others] == [p.id for p in assumed if not (p.kernel == "matmul" and p.dtype == "bfloat16")]
    assert not any("left out to fit the time budget" in (p.skip or "") for p in others)
    # without the calibration the plan assumed bf16 was fast and planned every size
    assert all(p.skip is None for p in assumed if p.kernel == "matmul" and p.dtype == "bfloat16")


def slow_point_limit_for(devices) -> float:
    from gpu_tpu_app.worker.kernels.planner import _Planner

    return slow_point_limit(_Planner("torch", devices[0], "full", None, None))


def test_without_bf16_units_the_line_says_emulated(measured) -> None:
    devices, rates = measured
    cpu = devices[0].cpu
    assert cpu is not None
    bare = cpu.model_copy(update={"flags": [f for f in cpu.flags if "bf16" not in f and "fp16" not in f] or ["sse2"]})
    device = devices[0].model_copy(update={"cpu": bare})
    points = plan("torch", [device], "quick", rates=rates)
    line = next(p.note or p.skip or "" for p in points if p.kernel == "matmul" and p.dtype == "bfloat16")
    assert line.startswith("bfloat16 is emulated on this CPU: "), line


def test_a_dtype_near_fp32_is_planned_as_before(measured) -> None:
    devices, rates = measured
    key = devices[0].key
    even = {key: {"float32": rates[key]["float32"], "bfloat16": rates[key]["float32"] * 0.8}}
    assert [(p.id, p.skip, p.note) for p in plan("torch", devices, "quick", rates=even)] == [
        (p.id, p.skip, p.note) for p in plan("torch", devices, "quick")
    ]


def test_one_stalled_check_does_not_cut_a_dtype(measured) -> None:
    """Issue 35 §5: a bfloat16 check held back once (its first two products, the warm-up and the timed one,
    each lose half a second, as on a busy machine) is checked again beside fp32 before the plan may cut it:
    the dtype keeps its real rate and every size of its sweep. Without the re-check the one stalled
    check alone made it 'far below fp32' and the sweep dropped its large sizes."""
    devices, _rates = measured
    calls = {"bf16": 0}

    def stalled_once(a, b):
        out = torch.matmul(a, b)
        if a.dtype == torch.bfloat16:
            calls["bf16"] += 1
            if calls["bf16"] <= 2:
                time.sleep(0.5)
        return out

    from gpu_tpu_app.worker.kernels import recheck_slow, slow_dtypes
    from gpu_tpu_app.worker.kernels import torch_kernels as impl

    key = devices[0].key
    first = impl.calibrate(devices[0], ["float32", "bfloat16"], 256, stalled_once)
    assert slow_dtypes(devices[0], first) == ["bfloat16"]  # the stalled check alone calls it slow
    calls["bf16"] = 0  # the same stall again, now under the calibration the worker runs
    rates = calibrate("torch", devices, "full", mm=stalled_once)[key]
    assert calls["bf16"] > 4  # checked again after the stalled check
    assert slow_dtypes(devices[0], rates) == [], rates
    bf16 = [p for p in plan("torch", devices, "full", rates={key: rates}) if p.kernel == "matmul"]
    assert all(p.skip is None and not p.note for p in bf16 if p.dtype == "bfloat16")
    # a dtype slow at every check is still cut, its measured rate in the reason
    always = recheck_slow(devices[0], {"float32": rates["float32"], "bfloat16": 3e7}, impl, 256, slowed)
    assert always["bfloat16"] < SLOW_SHARE * always["float32"]
