"""The model check in Simplified Chinese: its own sentences from resources/text/modelcheck.zh-Hans.toml, the
worker's and the compilers' words as they are, and `--format json` in English whatever the language."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gpu_tpu_app.core.modelcheck import (
    ANSWER_FIELDS,
    CheckSession,
    Findings,
    check_from_findings,
    level_text,
    mapping_rules,
    measured_note,
    own_failure,
    render_text,
)

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u4e00-\u9fff]")

#: findings that reach every rule's branches between them (sparse, fallbacks, failures, breaks, float64, ...)
CASES: list[dict] = [
    {
        "framework": "pytorch",
        "flops": {"matmul": 90, "other": 10, "method": "m", "kinds": {"matrix multiplies": 90}},
        "static_graph": {"status": "ok", "detail": "one graph"},
        "tpu_lowering": {"status": "ok", "route": "torchax.extract_jax", "detail": "d", "custom_calls": ["tpu_custom"]},
        "cuda_lowering": {"status": "failed", "detail": "no"},
        "custom_ops": [{"name": "demo.op", "kind": "k", "location": "m.py:3"}],
        "programs": {"status": "ok", "input_sets": 3, "shapes": 2, "programs_first": 1, "programs": 2, "method": "m"},
    },
    {
        "framework": "pytorch",
        "layouts": [{"name": "sparse COO", "location": "input 0"}],
        "flops": {"matmul": 1, "other": 1, "method": "m", "parameters_used": 1000, "tokens": 1000},
        "xla_run": {
            "status": "ok",
            "detail": "ran",
            "fallbacks": [{"name": "aten::nonzero", "count": 2}],
            "compiles": 1,
            "compile_seconds": 0.5,
        },
        "graph_breaks": {"status": "ok", "graphs": 2, "breaks": [{"reason": "r", "location": "m.py:9"}]},
        "host_callbacks": [{"name": "pure_callback", "location": "m.py:4"}],
        "float64": [{"op": "aten.mm", "location": "m.py:5"}],
        "programs": {"status": "ok", "input_sets": 2, "shapes": 2, "programs_first": 0, "programs": 0, "method": "m"},
    },
    {
        "framework": "pytorch",
        "static_graph": {"status": "failed", "detail": "E", "location": "m.py:7"},
        "data_dependent": [{"what": "nonzero", "location": "m.py:8"}],
        "instrumentation_error": "boom",
        "programs": {"status": "failed", "detail": "torch.compile failed"},
        "float64_requested": [None],
    },
    {
        "framework": "jax",
        "flops": {"matmul": 0, "other": 0, "method": "m"},
        "static_graph": {"status": "ok", "detail": "one graph", "unbacked": ["u0"]},
    },
    {"framework": "jax", "tpu_lowering": {"status": "failed", "route": "jax.export", "detail": "E"}},
    {
        "framework": "pytorch",
        "static_graph": {"status": "ok", "detail": "one graph"},
        "xla_run": {"status": "failed", "detail": "torch_xla: E", "location": "m.py:2"},
    },
]


@pytest.mark.parametrize("raw", CASES)
def test_every_rule_speaks_chinese_and_measures_the_same(raw: dict) -> None:
    f = Findings.model_validate(raw)
    en = check_from_findings("m.py", f, 1.0)
    zh = check_from_findings("m.py", f, 1.0, language="zh-Hans")
    assert zh.answers == en.answers and zh.level == en.level
    assert [e.answer for e in zh.evidence] == [e.answer for e in en.evidence]
    for e_en, e_zh in zip(en.evidence, zh.evidence, strict=True):
        assert CJK.search(e_zh.finding), e_zh.finding  # every finding is the check's own sentence
        assert not CJK.search(e_en.finding + e_en.detail)
    text = render_text(zh, language="zh-Hans")
    assert text.startswith("模型检查：m.py") and "证据等级：" in text and "规则：" in text
    assert level_text(zh, "zh-Hans") != level_text(en, "en")
    for answer in ANSWER_FIELDS:
        note = measured_note(zh, answer, "yes", language="zh-Hans")
        assert note is None or note.startswith("在 m.py 中测得：")


def test_the_rules_and_the_error_lines_in_chinese() -> None:
    rules = mapping_rules("zh-Hans")
    assert len(rules) == len(mapping_rules("en")) == 6
    assert all(CJK.search(r) for r in rules) and "'fp64'" in rules[4] and "70%" in rules[5]
    s = CheckSession("m.py", 30, 2048, language="zh-Hans")
    s.feed(b'{"type": "stage", "stage": "calling model()", "function": "model()"}\n')
    assert s.finish(None, 30, timed_out=True) == (
        "m.py（在 model() 中）：未在 30 秒内完成（正在进行：调用 model()）；已停止（模型较大时请调高 --timeout）"
    )
    s.feed(b'{"type": "error", "kind": "internal", "message": "KeyError: x", "function": null, "line": null}\n')
    failed = s.finish(0, 1)
    assert isinstance(failed, str) and failed.startswith("m.py：检查本身失败") and own_failure(failed)
    module = CheckSession("m.py", 30, 2048, language="zh-Hans")
    module.feed(
        b'{"type": "error", "kind": "module", "message": "No module named flax", "function": null, "line": 2}\n'
    )
    assert module.finish(0, 1) == "m.py:2: No module named flax；请在装有该包的 Python 环境中检查：--python PATH"


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gpu_tpu_app", *args], capture_output=True, text=True, timeout=240, cwd=ROOT
    )


@pytest.mark.slow
def test_check_model_lang_zh_hans_prints_chinese_and_json_stays_english() -> None:
    model = "examples/models/jax_transformer.py"
    text = run_cli("--lang", "zh-Hans", "check-model", model, "--tpu-chips", "0")
    assert text.returncode == 0, text.stderr
    out = text.stdout
    assert out.startswith(f"模型检查：{model}（jax）")
    assert "证据等级：已下降到 TPU" in out
    assert "文件定义了 params()、forward(params, *inputs) 和 example_inputs()" in out
    assert "计入的运算中 " in out and "% 是矩阵运算" in out
    # the worker's words too, from the ids it keeps beside them (worker/notes.py)
    assert "jax.jit 为每一种不同的输入形状和数据类型编译一个程序" in out
    assert "jax.jit compiles one program" not in out
    assert "\n规则：\n" in out and "Rules:" not in out and "Model check:" not in out
    data = json.loads(run_cli("--lang", "zh-Hans", "check-model", model, "--tpu-chips", "0", "--format", "json").stdout)
    assert not CJK.search(json.dumps(data, ensure_ascii=False))
    assert any(
        e["finding"] == "the file defines params(), forward(params, *inputs) and example_inputs()"
        for e in data["evidence"]
    )
    assert any(
        "jax.jit compiles one program per distinct input shape and dtype" in e["detail"] for e in data["evidence"]
    )


def test_the_per_generation_table_in_chinese_keeps_the_compilers_words() -> None:
    from gpu_tpu_app.core.modelcheck import ModelCheck

    saved = ModelCheck.model_validate_json((ROOT / "examples/checks/jax_transformer-tpu4.json").read_text())
    assert saved.tpu_compile is not None
    en, zh = render_text(saved, language="en"), render_text(saved, language="zh-Hans")
    assert "Compiled for TPU generations (" in en and "Compiled for TPU generations" not in zh
    assert "为各代 TPU 编译（" in zh and "每代 4 块芯片" in zh
    assert "  代次" in zh and "屋顶线步时" in zh and "上的布局：" in zh
    assert saved.tpu_compile.route in zh  # the compile route, as the worker wrote it
