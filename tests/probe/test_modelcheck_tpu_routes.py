"""The torch_xla and torchax routes of the model check, driven through small fake packages.

Neither package runs in this venv (torch-xla pins an older torch, torchax fails to import with this one),
so these tests put stand-ins on the worker's PYTHONPATH that implement only the calls the worker makes.
They prove the worker's control flow (import, one step, reading the counters, lowering, every failure as a
finding) and the mapping to answers; they do not show that torch_xla or torchax work with any model.
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
# a stand-in for torchax.extract_jax: the weights as jax arrays and a function of (states, args)
FAKE_TORCHAX = """
import jax.numpy as jnp

__version__ = "0.0+fake"


def extract_jax(mod):
    states = {k: jnp.asarray(v.detach().numpy()) for k, v in mod.state_dict().items()}

    def jax_func(states, args, kwargs=None):
        return jnp.maximum(args[0] @ states["lin.weight"].T + states["lin.bias"], 0)

    return states, jax_func
"""


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


def _check(path: Path) -> ModelCheck:
    result = run_check(path, timeout_s=300)
    assert isinstance(result, ModelCheck), result
    return result


def _text(c: ModelCheck, answer: str) -> str:
    return " | ".join(f"{e.finding} {e.detail}" for e in c.evidence_for(answer))


def test_fake_torch_xla_fallback_counters_become_findings_and_leave_xla_verified_to_the_user(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = _check(_setup(tmp_path, monkeypatch, xla=FAKE_XLA_INIT))
    assert c.level == "ran_under_torch_xla"
    assert "Evidence level: ran under torch_xla (CPU device)" in render_text(c)
    xla = _text(c, "xla_verified")
    assert "ran on XLA's CPU device; 1 operator fell back to the CPU: aten::nonzero" in xla
    assert "aten::nonzero_before_the_step" not in xla  # counters from before the step are not this model's
    assert "1 compile, 0.25 s compiling" in xla
    assert c.answers.xla_verified is None  # fallbacks: the user says whether they sit in the main loop
    assert c.answers.custom_ops == "some"
    assert "aten::nonzero (2x)" in _text(c, "custom_ops")
    assert "torchax: not installed" in xla


def test_fake_torch_xla_without_fallbacks_maps_to_verified_and_sets_the_cpu_device(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = _check(_setup(tmp_path, monkeypatch, xla=FAKE_XLA_INIT, fallbacks=""))
    assert c.level == "ran_under_torch_xla"
    assert c.answers.xla_verified == "yes"
    assert "no operator fell back to the CPU" in _text(c, "xla_verified")
    assert "PJRT_DEVICE=CPU" in _text(c, "xla_verified")
    assert c.answers.custom_ops == "none"


def test_fake_torch_xla_that_raises_at_import_gives_a_one_line_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = "raise RuntimeError('this torch_xla was built for torch 2.9\\nsecond line')\n"
    c = _check(_setup(tmp_path, monkeypatch, xla=broken))
    assert c.level == "static_graph_captured"
    assert c.answers.xla_verified is None
    xla = _text(c, "xla_verified")
    assert "torch_xla: installed but fails to import (RuntimeError: this torch_xla was built for torch 2.9)" in xla
    assert "second line" not in xla


def test_fake_torchax_route_exports_for_tpu_and_sets_its_level(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    c = _check(_setup(tmp_path, monkeypatch, torchax=FAKE_TORCHAX))
    assert c.level == "lowered_for_tpu_torchax"
    assert "Evidence level: lowered for TPU through torchax" in render_text(c)
    assert c.answers.xla_verified == "yes"
    assert 'lowered for TPU with torchax.extract_jax, then jax.export, platforms=["tpu"]' in _text(c, "xla_verified")


def test_fake_torchax_whose_function_fails_gives_no_with_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    failing = FAKE_TORCHAX.replace(
        "return jnp.maximum(", "raise NotImplementedError('aten::fancy has no lowering')\n        return jnp.maximum("
    )
    c = _check(_setup(tmp_path, monkeypatch, torchax=failing))
    assert c.level == "static_graph_captured"
    assert c.answers.xla_verified == "no"
    assert "NotImplementedError: aten::fancy has no lowering" in _text(c, "xla_verified")
