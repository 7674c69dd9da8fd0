"""The torch_xla and torchax routes of the model check.

torchax is the real package (a 0.0.14 pre-release, installed by `make test`: the stable 0.0.13 fails to
import with torch 2.13). torch_xla cannot be installed here (torch-xla 2.9 pins torch 2.9), so its tests put
a stand-in on the worker's PYTHONPATH that implements only the calls the worker makes: they prove the
worker's control flow (import, one step, reading the counters, every failure as a finding) and the mapping
to answers, not that torch_xla works with any model. In those tests torchax is shadowed by a package that
fails to import the way 0.0.13 does, so the torch_xla route is the one that decides.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gpu_tpu_app.core.modelcheck import ModelCheck, render_text
from gpu_tpu_app.probe.modelcheck_launch import run_check

pytestmark = pytest.mark.slow

MODEL = """
import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(8, 4)

    def forward(self, x):
        return torch.relu(self.lin(x))


def model():
    return Net()


def example_inputs():
    return (torch.randn(2, 8),)
"""

# a stand-in for torch_xla: torch_xla.device(), torch_xla.sync(), torch_xla.debug.metrics counters and metrics.
# sync() posts the counters a real run would leave: FAKE_XLA_FALLBACKS names the "aten::" fallback counters.
FAKE_XLA_INIT = """
import os
import torch

__version__ = "0.0+fake"


def device():
    return torch.device("cpu")


def sync():
    from torch_xla.debug import metrics
    for name in filter(None, os.environ.get("FAKE_XLA_FALLBACKS", "").split(",")):
        metrics._COUNTERS[name] = metrics._COUNTERS.get(name, 0) + 2
    metrics._COUNTERS["CachedCompile"] = 0
    metrics._METRICS["CompileTime"] = (1, 250_000_000, [])
    metrics._COUNTERS["PJRT_DEVICE=" + os.environ.get("PJRT_DEVICE", "")] = 1
"""
FAKE_XLA_METRICS = """
_COUNTERS = {"aten::nonzero_before_the_step": 3}
_METRICS = {}


def counter_names():
    return list(_COUNTERS)


def counter_value(name):
    return _COUNTERS[name]


def metric_names():
    return list(_METRICS)


def metric_data(name):
    return _METRICS[name]
"""
# torchax as 0.0.13 behaves with torch 2.13: it fails to import (it looks up an operator torch no longer has)
BROKEN_TORCHAX = "raise AttributeError(\"'_OpNamespace' 'aten' object has no attribute 'prod.dim_Dimname'\")\n"
# a model whose bincount (an output size that depends on the values) torchax cannot trace
BINCOUNT_MODEL = MODEL.replace(
    "return torch.relu(self.lin(x))", "return torch.bincount((x.abs() * 3).long().flatten())"
)


def _setup(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    *,
    xla: str | None = None,
    torchax: str | None = None,
    fallbacks: str = "aten::nonzero",
) -> Path:
    fakes = tmp_path / "fakes"
    if xla is not None:
        (fakes / "torch_xla" / "debug").mkdir(parents=True)
        (fakes / "torch_xla" / "__init__.py").write_text(xla)
        (fakes / "torch_xla" / "debug" / "__init__.py").write_text("")
        (fakes / "torch_xla" / "debug" / "metrics.py").write_text(FAKE_XLA_METRICS)
    if torchax is not None:
        (fakes / "torchax").mkdir(parents=True)
        (fakes / "torchax" / "__init__.py").write_text(torchax)
    fakes.mkdir(exist_ok=True)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(fakes), os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("FAKE_XLA_FALLBACKS", fallbacks)
    monkeypatch.delenv("PJRT_DEVICE", raising=False)
    path = tmp_path / "net.py"
    path.write_text(MODEL)
    return path


def _check(path: Path, tpu_chips: int = 0) -> ModelCheck:
    result = run_check(path, timeout_s=300, tpu_chips=tpu_chips)
    assert isinstance(result, ModelCheck), result
    return result


def _text(c: ModelCheck, answer: str) -> str:
    return " | ".join(f"{e.finding} {e.detail}" for e in c.evidence_for(answer))


def test_fake_torch_xla_fallback_counters_become_findings_and_leave_xla_verified_to_the_user(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = _check(_setup(tmp_path, monkeypatch, xla=FAKE_XLA_INIT, torchax=BROKEN_TORCHAX))
    assert c.level == "ran_under_torch_xla"
    assert "Evidence level: ran under torch_xla (CPU device)" in render_text(c)
    xla = _text(c, "xla_verified")
    assert "ran on XLA's CPU device; 1 operator fell back to the CPU: aten::nonzero" in xla
    assert "aten::nonzero_before_the_step" not in xla  # counters from before the step are not this model's
    assert "1 compile, 0.25 s compiling" in xla
    assert c.answers.xla_verified is None  # fallbacks: the user says whether they sit in the main loop
    assert c.answers.custom_ops == "some"
    assert "aten::nonzero (2x)" in _text(c, "custom_ops")
    assert "torchax: installed but fails to import (AttributeError:" in xla


def test_fake_torch_xla_without_fallbacks_maps_to_verified_and_sets_the_cpu_device(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = _check(_setup(tmp_path, monkeypatch, xla=FAKE_XLA_INIT, torchax=BROKEN_TORCHAX, fallbacks=""))
    assert c.level == "ran_under_torch_xla"
    assert c.answers.xla_verified == "yes"
    assert "no operator fell back to the CPU" in _text(c, "xla_verified")
    assert "PJRT_DEVICE=CPU" in _text(c, "xla_verified")
    assert c.answers.custom_ops == "none"


def test_fake_torch_xla_that_raises_at_import_gives_a_one_line_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = "raise RuntimeError('this torch_xla was built for torch 2.9\\nsecond line')\n"
    c = _check(_setup(tmp_path, monkeypatch, xla=broken, torchax=BROKEN_TORCHAX))
    assert c.level == "static_graph_captured"
    assert c.answers.xla_verified is None
    xla = _text(c, "xla_verified")
    assert "torch_xla: installed but fails to import (RuntimeError: this torch_xla was built for torch 2.9)" in xla
    assert "second line" not in xla


def test_real_torchax_route_exports_for_tpu_and_sets_its_level(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    c = _check(_setup(tmp_path, monkeypatch))  # the real torchax; --tpu-chips 0: no TPU compile
    assert c.level == "lowered_for_tpu_torchax"
    assert "Evidence level: lowered for TPU through torchax" in render_text(c)
    assert c.answers.xla_verified == "yes"
    assert 'lowered for TPU with torchax.extract_jax, then jax.export, platforms=["tpu"]' in _text(c, "xla_verified")
    assert "torchax 0.0.14" in _text(c, "framework")
    assert c.tpu_compile is None


def test_real_torchax_then_the_tpu_compiler_is_the_strongest_level(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = _check(_setup(tmp_path, monkeypatch), tpu_chips=1)
    assert c.level == "compiled_for_tpu"
    assert c.tpu_compile is not None and c.tpu_compile.route.startswith("torchax.extract_jax")
    v5e = c.tpu_compile.generation("tpu-v5e")
    assert v5e is not None and v5e.status == "compiled"
    fwd = v5e.program("forward")
    assert fwd is not None and fwd.flops == pytest.approx(2 * 2 * 8 * 4, rel=0.5)  # one 2x8 @ 8x4 linear layer


def test_real_torchax_that_cannot_trace_a_value_dependent_size_gives_no_with_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _setup(tmp_path, monkeypatch)
    path.write_text(BINCOUNT_MODEL)
    c = _check(path, tpu_chips=1)
    assert c.answers.xla_verified == "no"
    assert "lowering for TPU failed (torchax.extract_jax" in _text(c, "xla_verified")
    assert "ConcretizationTypeError" in _text(c, "xla_verified")
    assert c.tpu_compile is not None and "lowering for TPU failed" in c.tpu_compile.detail
