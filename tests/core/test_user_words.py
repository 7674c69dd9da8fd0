"""Words, not internal keys, reach the user. The worker's call chain ("torchax.extract_jax, then
jax.jit(...).lower(<shapes with shardings>).compile()") never reaches a reason's evidence or the report: both say how the model was compiled in the user's words, in the
language in use; the price note names chips, not catalogue ids."""

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


def test_the_price_note_names_chips_by_name_never_by_catalogue_id() -> None:
    """'none known for gb200-nvl72, tpu7x, …' showed catalogue ids under the estimator table."""
    import re

    from gpu_tpu_app.core.estimate import EstimateRequest, estimate
    from gpu_tpu_app.core.estimate.text import price_origins
    from gpu_tpu_app.core.prices import shipped_book

    catalog = load_catalog()
    result = estimate(EstimateRequest(params=7e9, chips=8, prices={"h100-sxm": 2.5}), catalog, book=shipped_book())
    note = price_origins(result)
    ids = [c.id for c in catalog.chips if re.search(r"(?<![\w/.-])" + re.escape(c.id) + r"(?![\w-])", note)]
    assert ids == [], note
    names = {c.id: c.name for c in catalog.chips}
    assert f"yours for {names['h100-sxm']}" in note
