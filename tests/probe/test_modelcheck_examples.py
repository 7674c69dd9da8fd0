"""The model check over the shipped examples: each example's specific finding, measured in a worker process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpu_tpu_app import cli
from gpu_tpu_app.core.modelcheck import ANSWER_FIELDS, HIGH_PRECISION_FP64, ModelCheck
from gpu_tpu_app.probe.modelcheck_launch import run_check

MODELS = Path(__file__).resolve().parents[2] / "examples" / "models"
_CACHE: dict[str, ModelCheck] = {}

pytestmark = pytest.mark.slow


def check(name: str) -> ModelCheck:
    """Check one example once per test session (each check starts a worker and a framework)."""
    if name not in _CACHE:
        result = run_check(MODELS / name, timeout_s=300)
        assert isinstance(result, ModelCheck), result
        _CACHE[name] = result
    return _CACHE[name]


def line_of(name: str, text: str) -> str:
    """'file.py:N' of the first line of an example that contains `text`."""
    for n, line in enumerate((MODELS / name).read_text().splitlines(), 1):
        if text in line:
            return f"{name}:{n}"
    raise AssertionError(f"{text!r} not in {name}")


def details(c: ModelCheck, answer: str) -> str:
    return " | ".join(f"{e.finding} {e.detail}" for e in c.evidence_for(answer))


def test_custom_operator_is_named_with_its_line() -> None:
    c = check("torch_custom_op.py")
    assert c.answers.custom_ops == "some"
    text = details(c, "custom_ops")
    assert "demo.fused_bias_gelu" in text
    assert line_of("torch_custom_op.py", "fused_bias_gelu(self.up(x)") in text
    assert "torch_custom_op.StraightThroughRound" in text and "torch.autograd.Function" in text
    assert c.answers.matmul_share == "dominant"


def test_data_dependent_branch_is_found_where_it_is() -> None:
    c = check("torch_data_dependent.py")
    assert c.answers.dynamic_shapes == "yes"
    text = details(c, "dynamic_shapes")
    assert line_of("torch_data_dependent.py", "if h.abs().mean()") in text
    assert c.answers.xla_verified == "no"  # torchax cannot trace it (and torch.export cannot capture one graph)
    assert "lowering for TPU failed (torchax.extract_jax" in details(c, "xla_verified")
    assert c.level == "failed"
    # the two shapes in other_inputs() and the branches compile to more programs than the first input needed
    assert "recompiles across other_inputs()" in text


def test_float64_is_found() -> None:
    c = check("torch_float64.py")
    assert c.answers.high_precision == HIGH_PRECISION_FP64
    assert line_of("torch_float64.py", "y = y - dt") in details(c, "high_precision")


def test_pytorch_transformer_is_matmul_dominant_and_compiles_for_tpu_through_torchax() -> None:
    c = check("torch_transformer.py")
    assert c.framework == "pytorch" and c.answers.framework == "pytorch"
    assert c.answers.matmul_share == "dominant"
    assert c.level == "compiled_for_tpu"  # torchax (a 0.0.14 pre-release) and libtpu are installed by make test
    assert c.answers.xla_verified == "yes"
    assert "torchax.extract_jax" in details(c, "xla_verified")
    assert c.answers.custom_ops == "none"
    assert c.answers.dynamic_shapes == "no"  # other_inputs() gives the same padded shape
    assert c.answers.high_precision is None


def test_jax_transformer_lowers_and_compiles_for_tpu() -> None:
    c = check("jax_transformer.py")
    assert c.framework == "jax"
    assert c.level == "compiled_for_tpu"
    assert c.answers.xla_verified == "yes"
    assert 'platforms=["tpu"]' in details(c, "xla_verified")
    assert c.answers.matmul_share == "dominant"
    assert c.answers.custom_ops == "none"


def test_jax_boolean_mask_fails_tpu_export() -> None:
    c = check("jax_boolean_mask.py")
    assert c.answers.xla_verified == "no"
    assert "NonConcreteBooleanIndexError" in details(c, "xla_verified")
    assert line_of("jax_boolean_mask.py", "h[h > 0]") in details(c, "xla_verified")
    assert c.answers.dynamic_shapes == "yes"
    assert c.answers.matmul_share is None  # the trace failed: the work could not be counted, and it says so
    assert "could not" in details(c, "matmul_share")


def test_elementwise_model_is_low() -> None:
    c = check("torch_elementwise.py")
    assert c.answers.matmul_share == "low"


def test_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["check-model", str(MODELS / "jax_boolean_mask.py"), "--format", "json", "--timeout", "300"])
    out, _err = capsys.readouterr()
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"file", "framework", "level", "answers", "evidence", "seconds", "tpu_compile"}
    assert data["tpu_compile"]["status"] == "failed"  # the boolean mask fails lowering: nothing to compile
    assert set(data["answers"]) == set(ANSWER_FIELDS)
    assert data["answers"]["high_precision"] is None  # undecided answers are null
    for row in data["evidence"]:
        assert set(row) == {"answer", "value", "finding", "detail"}
    assert {row["answer"] for row in data["evidence"]} == set(ANSWER_FIELDS)


def test_decide_with_model_measured_fills_unset_and_stated_wins(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = tmp_path / "a.json"
    answers.write_text(json.dumps({"custom_ops": "none", "stage": "production"}))
    code = cli.main(
        [
            "decide",
            "--answers",
            str(answers),
            "--model",
            str(MODELS / "torch_custom_op.py"),
            "--format",
            "json",
            "--timeout",
            "300",
        ]
    )
    out, _err = capsys.readouterr()
    assert code == 0
    data = json.loads(out)
    assert data["answer_sources"]["custom_ops"] == "stated over measured some"
    assert data["answer_sources"]["framework"] == "measured"
    assert data["model_check"]["answers"]["custom_ops"] == "some"
    assert "framework" not in data["unanswered"] and "custom_ops" not in data["unanswered"]
    code = cli.main(
        ["decide", "--answers", str(answers), "--model", str(MODELS / "torch_custom_op.py"), "--timeout", "300"]
    )
    out, _err = capsys.readouterr()
    # the text says answers in words (question label: answer), the source of each beside it
    assert "Custom kernels: No, standard layers only (stated over measured some)" in out
    assert "Framework: PyTorch (measured)" in out


def test_jax_float64_eigh_lowers_for_tpu_with_its_own_eigh_and_finds_float64() -> None:
    c = check("jax_eigh_float64.py")
    assert c.level == "compiled_for_tpu"
    assert "custom calls in the TPU module: Eigh" in details(c, "xla_verified")
    assert c.answers.high_precision == HIGH_PRECISION_FP64
    assert line_of("jax_eigh_float64.py", "cov = centred.T") in details(c, "high_precision")


def test_jax_host_callback_and_float64_asked_for_without_x64(tmp_path: Path) -> None:
    model = tmp_path / "callback.py"
    model.write_text(
        "import jax\nimport jax.numpy as jnp\n\n"
        "def params():\n    return {'w': jnp.ones((8, 8))}\n\n"
        "def forward(p, x):\n"
        "    jax.debug.callback(print, x.sum())\n"
        "    return (x @ p['w']).astype(jnp.float64)\n\n"
        "def example_inputs():\n    return (jnp.ones((4, 8)),)\n"
    )
    c = run_check(model, timeout_s=300)
    assert isinstance(c, ModelCheck), c
    assert c.answers.xla_verified == "no"
    text = details(c, "xla_verified")
    assert "host callback" in text and "callback.py:8" in text
    assert c.answers.high_precision == HIGH_PRECISION_FP64  # asked for, though JAX computes it in float32 here
    assert "jax_enable_x64 is off" in details(c, "high_precision")
