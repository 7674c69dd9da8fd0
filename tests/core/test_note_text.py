"""Worker notes (core.notes, worker/notes.py) in the language in use (core.note_text): the English the
worker writes equals the English file for every id, each id has its zh-Hans text with every number,
a real run shows no English in zh-Hans, and an old or altered run file shows its stored English."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gpu_tpu_app.core import note_text
from gpu_tpu_app.core.runs import ProbeResult, load_run
from gpu_tpu_app.core.texts import area_texts, placeholders
from gpu_tpu_app.shared import trust
from gpu_tpu_app.shared.notes import Note, join, to_dicts
from gpu_tpu_app.worker import notes as worker_notes
from tools.zh_classify import classify, project_ids

ZH = "zh-Hans"
#: the APIs, libraries and code a note names as the code calls them: kept as they are in every language.
CODE_NAMES = {
    "block_until_ready",
    "np.asarray",
    "numpy",
    "jax.device_put",
    "jax.grad",
    "jax.jit",
    "psum",
    "shard_map",
    "cost_analysis",
    "GELU",
    "algbw × 2(n-1)/n",  # the nccl-tests formula
    "algbw",
    "torch.distributed",
    "torch.compile",
    "oneCCL",
    "xccl",
    "XPU",
    "XLA_FLAGS",
    "GFLOP",
    "MFLOP",
    "TFLOP",
    # operations and algorithms by the names the counting rules give them
    "jaxpr",
    "Cholesky",
    "eigh",
    "cdist",
    "Golub-Van Loan",
    "reshape",
    "scan",
    "while",
    "nnz",
    "Transformer",
    "device=x.device",  # a keyword argument, as the user's code writes it
    "Metal",  # Apple's GPU interface, by its name
}


def _flat(area: str) -> dict[str, str]:
    return dict(area_texts(area, "en"))


def _values(template: str) -> dict[str, str]:
    """A distinct number for each placeholder of `template`: 1,101, 1,102, ..."""
    return {name: f"{1101 + i:,}" for i, name in enumerate(sorted(placeholders(template)))}


def _leftover_words(zh: str) -> list[str]:
    for name in sorted(CODE_NAMES, key=len, reverse=True):  # code, as the code calls it
        zh = zh.replace(name, " ")
    return [w for found in classify("test", zh, project_ids()) for w in found.words]


def test_the_worker_writes_the_english_file_s_sentence_for_every_id() -> None:
    english = {k: v for k, v in _flat("worker").items() if k not in ("separator", "verbatim")}
    assert english == worker_notes.TEMPLATES


def test_the_trust_rule_s_reasons_are_the_english_file_s_sentences() -> None:
    english = {k[len("trust.") :]: v for k, v in _flat("probe_app").items() if k.startswith("trust.")}
    assert {k: english.get(k) for k in trust.TEMPLATES} == trust.TEMPLATES


@pytest.mark.parametrize("key", sorted(worker_notes.TEMPLATES))
def test_each_worker_note_reads_in_zh_hans_with_its_numbers(key: str) -> None:
    template = worker_notes.TEMPLATES[key]
    values = _values(template)
    said = worker_notes.note(key, **values)
    assert note_text.render(said.to_dict(), "en") == said == template.format(**values)
    zh = note_text.render(json.loads(json.dumps(said.to_dict())), ZH)
    assert zh is not None and zh != said
    assert all(v in zh for v in values.values()), zh
    # Chinese words, unless the English has only names and placeholders ("fp32 ({named})")
    assert re.search(r"[\u4e00-\u9fff]", zh) or _leftover_words(re.sub(r"\{\w+\}", " ", template)) == [], zh
    assert _leftover_words(zh) == [], zh


@pytest.mark.parametrize("key", sorted(trust.TEMPLATES))
def test_each_trust_reason_reads_in_zh_hans_with_its_numbers(key: str) -> None:
    values = _values(trust.TEMPLATES[key])
    said = Note(f"probe_app.trust.{key}", trust.TEMPLATES[key], **values)
    zh = note_text.render(said, ZH)
    assert zh is not None and all(v in zh for v in values.values()), zh
    assert _leftover_words(zh) == [], zh


def _result(message: str | None, notes: list) -> ProbeResult:
    return ProbeResult(
        kernel="matmul", backend="torch", device="torch:cpu:0", metric="flops", message=message, notes=notes
    )


def test_a_joined_message_with_a_nested_reason_reads_in_zh_hans() -> None:
    reason = Note("probe_app.trust.noisy_cv", trust.TEMPLATES["noisy_cv"], cv="31 %", limit="25 %")
    message = join(
        worker_notes.note("common.threads", threads=2),
        "RuntimeError: boom",  # a framework's own words: kept as they are
        worker_notes.note("retry.faster_second", when=worker_notes.note("retry.twice"), reason=reason),
    )
    assert message == (
        "2 threads; RuntimeError: boom; measured twice: the first try was too noisy: CV 31 % (over 25 %); "
        "the faster (second) try is kept"
    )
    r = _result(message, to_dicts(message))
    assert note_text.result_message(r, "en") == message
    assert note_text.result_message(r, ZH) == (
        "2 个线程；RuntimeError: boom；测量了两次：第一次的问题是「噪声大：CV 为 31 %（超过 25 %）」；保留较快的一次（第二次）"
    )


def test_an_old_file_an_unknown_id_or_an_altered_message_shows_the_stored_english() -> None:
    said = worker_notes.note("jax.first_call", seconds="0.015")
    stored = said.to_dict()
    assert note_text.result_message(_result(said, []), ZH) == said  # an old file: no notes
    cases = [
        [{"id": "worker.jax.no_such_note", "params": {}}],  # a newer worker's id
        [{"id": "cli.version", "params": {}}],  # not a note's area
        [{"id": "worker.jax.first_call", "params": {}}],  # a placeholder without a value
        [{"id": "worker.jax.first_call", "params": {"seconds": "9.999"}}],  # not what the message says
        [stored, stored],  # more parts than the message has
    ]
    for notes in cases:
        assert note_text.result_message(_result(said, notes), ZH) == said, notes
    assert note_text.result_message(_result(None, [stored]), ZH) is None


def test_hostile_notes_are_refused_by_the_run_file_or_shown_as_plain_english() -> None:
    from pydantic import ValidationError

    deep: dict = {"id": "worker.retry.twice", "params": {}}
    for _ in range(6):
        deep = {"id": "worker.retry.faster_first", "params": {"when": deep, "reason": "x"}}
    bad = [
        [deep],
        [{"id": "Worker.X", "params": {}}],
        [{"id": "worker.x", "params": {"not a name": "1"}}],
        [{"id": "worker.x", "params": {f"p{i}": "1" for i in range(17)}}],
        [{"id": "worker.x", "params": {"a": 1.5}}],
    ]
    for notes in bad:
        with pytest.raises(ValidationError):
            _result("x", notes)
    braces = worker_notes.note("common.threads", threads="{other} <b>8</b>")
    r = _result(braces, to_dicts(braces))
    assert note_text.result_message(r, ZH) == "{other} <b>8</b> 个线程"  # a value is text, never a template


def test_an_old_run_file_without_ids_still_shows_its_english(tmp_path: Path) -> None:
    session = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "example-session.json"
    old = json.loads(session.read_text(encoding="utf-8"))["runs"][0]  # a real run, saved before notes had ids
    assert old["schema_version"] == 1
    path = tmp_path / "old-run.json"
    path.write_text(json.dumps(old), encoding="utf-8")
    run = load_run(path)
    messages = [r for r in run.results if r.message]
    assert messages and all(not r.notes for r in messages)
    assert [note_text.result_message(r, ZH) for r in messages] == [r.message for r in messages]


@pytest.mark.slow
def test_a_real_smoke_run_reads_in_zh_hans_with_no_english_left(tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "from gpu_tpu_app.commands.probe import main; main()",
            "run",
            "--suite",
            "smoke",
            "--out",
            str(out),
        ],
        capture_output=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    run = load_run(out)
    assert run.schema_version == 2
    with_notes = [r for r in run.results if r.notes]
    assert {r.backend for r in with_notes} == {"torch", "jax"}
    english_left = {}
    for r in run.results:
        if not r.message or r.status not in ("ok", "suspect"):
            continue
        zh = note_text.result_message(r, ZH)
        assert note_text.result_message(r, "en") == r.message
        assert zh != r.message, r.message
        if words := _leftover_words(zh or ""):
            english_left[zh] = words
    assert english_left == {}


def test_the_kinds_of_work_the_worker_counts_have_their_text_ids() -> None:
    from gpu_tpu_app.worker.modelcheck import work

    kinds = {v for k, v in vars(work).items() if k.isupper() and isinstance(v, str)}
    english = {k[len("kind.") :] for k in _flat("modelcheck") if k.startswith("kind.")}
    assert kinds == english
    zh = dict(area_texts("modelcheck", ZH))
    assert all(re.search(r"[\u4e00-\u9fff]", zh[f"kind.{k}"]) or k == "FFTs" for k in kinds)


def _generations(sharding: str) -> dict:
    from gpu_tpu_app.shared.notes import mark

    generation = {
        "chip": "tpu-v4",
        "topology": "v4:1x1x1",
        "chips": 1,
        "devices": 2,
        "status": "compiled",
        "sharding": sharding,
        "programs": [],
    }
    return json.loads(json.dumps(mark({"status": "ok", "route": "r", "generations": [generation]})))


def test_the_tpu_compile_layout_reads_in_zh_hans_and_a_changed_one_in_english() -> None:
    from gpu_tpu_app.core.catalog import load_catalog
    from gpu_tpu_app.core.tpu_compile import TpuCompile, render_table

    layout = join(
        worker_notes.note("check.layout_split", n=2),
        worker_notes.note("check.layout_kept", n=2, inputs="int32[3]"),
        worker_notes.note("check.per_chip", n=2),
    )
    data = _generations(layout)
    assert data["generations"][0]["said"]["sharding"][0]["id"] == "worker.check.layout_split"
    tc = TpuCompile.model_validate(data)
    catalog = load_catalog()
    zh = "\n".join(render_table(tc, catalog, language=ZH))
    assert (
        "输入沿第一个轴切分到 2 个设备上（数据并行）；权重在每个设备上各存一份；因第一个轴不能被 2 整除而复制到每个设备：int32[3]；每块芯片 2 个设备"
        in zh
    )
    assert "inputs split" not in zh
    assert layout in "\n".join(render_table(tc, catalog, language="en"))
    data["generations"][0]["sharding"] = "one device: nothing is split"  # edited by hand: its notes no longer say it
    assert "one device: nothing is split" in "\n".join(
        render_table(TpuCompile.model_validate(data), catalog, language=ZH)
    )


def test_a_real_jax_check_reads_in_zh_hans_and_its_json_stays_english() -> None:
    model = Path(__file__).resolve().parents[2] / "examples" / "models" / "jax_boolean_mask.py"
    run = [sys.executable, "-m", "gpu_tpu_app", "check-model", str(model)]
    zh = subprocess.run([*run, "--lang", ZH], capture_output=True, timeout=240, text=True).stdout
    assert "形状或 Python 分支取决于数组的值（NonConcreteBooleanIndexError）" in zh
    assert (
        "为各代 TPU 编译：未运行\n  未编译：为 TPU 下降失败或其路线无法处理这个模型，TPU 编译器没有可编译的程序" in zh
    )
    assert "not compiled" not in zh and "depends on array values" not in zh
    data = json.loads(
        subprocess.run([*run, "--lang", ZH, "--format", "json"], capture_output=True, timeout=240, text=True).stdout
    )
    details = [e["detail"] for e in data["evidence"]]
    assert (
        "not compiled: lowering for TPU failed or its route could not take this model, so the TPU compiler has no program"
        in details
    )
    assert data["tpu_compile"]["said"]["detail"] == [{"id": "worker.check.not_compiled", "params": {}}]


def test_a_backend_that_is_not_usable_says_why_in_zh_hans() -> None:
    import os

    from gpu_tpu_app.core.runs import Done, ErrorMsg, parse_message
    from gpu_tpu_app.probe.protocol import RunAssembler
    from gpu_tpu_app.worker import detect

    proc = subprocess.run(
        [sys.executable, "-m", "gpu_tpu_app", "probe-worker", "--backend", "jax", "--suite", "smoke"],
        capture_output=True,
        timeout=120,
        env={**os.environ, detect.DISABLE_ENV: "jax"},
    )
    msgs = [parse_message(line) for line in proc.stdout.decode().splitlines()]
    error = next(m for m in msgs if isinstance(m, ErrorMsg))
    done = next(m for m in msgs if isinstance(m, Done))
    assert error.message == "jax is not installed (switched off by GPU_TPU_APP_DISABLE_BACKENDS)"
    zh = "未安装 jax（已由 GPU_TPU_APP_DISABLE_BACKENDS 关闭）"
    assert note_text.result_message(error, ZH) == zh == note_text.result_message(done, ZH)
    collector = RunAssembler("smoke")
    collector.start_worker("jax")
    for m in msgs:
        collector.add(m)
    assert note_text.reason_text(collector.backends["jax"], ZH) == zh
    assert note_text.reason_text(collector.backends["jax"], "en") == error.message


def test_a_file_that_is_no_run_file_says_so_in_zh_hans(tmp_path: Path) -> None:
    from gpu_tpu_app import i18n
    from gpu_tpu_app.errors import InputError

    path = tmp_path / "x.json"
    old = i18n.current_language()
    try:
        i18n.set_language(ZH)
        for body, problem in (
            ({"results": []}, "schema_version: 缺失；这不是 gpu-tpu-app 的探测运行文件"),
            ({"schema_version": 9, "results": []}, "schema_version: 不支持 9（本应用读取 1 或 2）"),
        ):
            path.write_text(json.dumps(body), encoding="utf-8")
            with pytest.raises(InputError) as err:
                load_run(path)
            assert str(err.value).startswith(f"{path}: {problem}"), str(err.value)
            assert re.search(r"[\u4e00-\u9fff]", str(err.value)), str(err.value)
    finally:
        i18n.set_language(old)


def test_a_math_mode_reads_in_zh_hans_and_keeps_its_first_word() -> None:
    from gpu_tpu_app.worker.kernels import common

    mode = common.torch_math_mode("cuda", "float32", precision="high", capability=(9, 0))
    assert mode == "tf32 tensor cores (float32 matmul precision 'high')"
    assert note_text.shown_message(mode, to_dicts(mode), ZH) == "tf32 张量核心（float32 矩阵乘法精度 'high'）"
    tpu = common.jax_math_mode("tpu", "float32", "highest")
    assert tpu.split(" ", 1)[0] == "bf16x6"  # the word the % of spec is taken against
    assert note_text.shown_message(tpu, to_dicts(tpu), ZH) == "bf16x6（6 遍，精度 'highest'）"


def test_the_noise_rule_reads_in_zh_hans_and_its_english_is_the_rule_s() -> None:
    assert trust.noise_rule_text("en") == trust.NOISE_RULE
    zh = trust.noise_rule_text(ZH)
    assert "3 次" in zh and "10 %" in zh and "25 %" in zh and _leftover_words(zh) == []


def test_a_collective_point_and_its_stalls_read_in_zh_hans() -> None:
    from gpu_tpu_app import i18n
    from gpu_tpu_app.commands.probe.collective import _stall_parts
    from gpu_tpu_app.worker.collective.report import _measured_result

    stalled = [0.0005, 0.00052, 0.00049, 0.0006, 0.0011, 0.0875, 0.1896, 0.052]
    wire = _measured_result("jax", "jax:cpu:0", "all_reduce", "float32", 262144, 2, 1, "gloo", stalled, 1.0)
    r = ProbeResult.model_validate(json.loads(json.dumps(wire.to_dict())))
    assert "3 of 8 operations stalled (up to 190 ms, the fastest took 0.49 ms)" in (r.message or "")
    zh = note_text.result_message(r, ZH) or ""
    assert "跨 1 台主机上的 2 个进程（rank）" in zh and "8 次操作中有 3 次停滞（最长 190 毫秒" in zh, zh
    old = i18n.current_language()
    try:
        i18n.set_language(ZH)
        assert [p[:20] for p in _stall_parts(r)] == ["8 次操作中有 3 次停滞（最长 190 毫秒"[:20]]
        english_only = r.model_copy(update={"notes": []})  # a file from before notes had ids
        assert _stall_parts(english_only)[0].startswith("3 of 8 operations stalled")
    finally:
        i18n.set_language(old)
