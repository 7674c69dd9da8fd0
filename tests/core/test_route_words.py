"""The worker's call chain ("torchax.extract_jax, then jax.jit(...).lower(<shapes with shardings>).compile()")
never reaches a reason's evidence or the report: both say how the model was compiled in the user's words, in the
language in use."""

from __future__ import annotations

import pytest

from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.modelcheck import check_from_findings
from gpu_tpu_app.core.modelcheck.contract import Findings
from gpu_tpu_app.core.tpu_compile import TpuCompile, report_section
from tests.core.test_tpu_compile import _compile

CHAINS = {
    "pytorch": "torchax.extract_jax, then jax.jit(...).lower(<shapes with shardings>).compile()",
    "jax": "jax.jit(...).lower(<shapes with shardings>).compile()",
}
CODE = ("extract_jax", "jax.jit", ".lower(", ".compile()", "<shapes")


@pytest.mark.parametrize("framework", ["pytorch", "jax"])
def test_the_evidence_and_the_report_say_the_route_in_words(framework: str) -> None:
    compiled = {**_compile(), "route": CHAINS[framework]}
    f = Findings.model_validate(
        {
            "framework": framework,
            "tpu_lowering": {"status": "ok", "route": "jax.export", "detail": "module"},
            "tpu_compile": compiled,
        }
    )
    check = check_from_findings("m.py", f, 1.0)
    row = check.evidence_for("xla_verified")[0]
    assert not any(code in row.detail for code in CODE), row.detail
    assert "ahead of time" in row.detail and ("torchax" in row.detail) == (framework == "pytorch")
    intro, _rows, _notes = report_section(TpuCompile.model_validate(compiled), load_catalog())
    assert not any(code in intro for code in CODE), intro
    assert "ahead of time" in intro


def test_the_route_in_chinese() -> None:
    f = Findings.model_validate({"framework": "pytorch", "tpu_compile": {**_compile(), "route": CHAINS["pytorch"]}})
    row = check_from_findings("m.py", f, 1.0, language="zh-Hans").evidence_for("xla_verified")[0]
    assert "提前编译" in row.detail and "extract_jax" not in row.detail
