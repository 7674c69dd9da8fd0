"""tools/i18n_allow.py tells code, ids and keys (which stay as they are in Chinese text) from English words left
untranslated, by rule: the zh-Hans checks and the leftover finder (tools/zh_leftovers.py) both rely on it."""

from __future__ import annotations

import pytest

from tools.i18n_allow import code_like, left_in_english
from tools.zh_classify import classify, mixed_words

IDS = {"tpu-v6e", "faq", "decide", "json"}


@pytest.mark.parametrize(
    "text",
    [
        "Ctrl+,",
        "Ctrl+/",
        "Ctrl+Shift+S",
        "Alt+Left",
        "F1",
        "jax.jit",
        "lax.cond, lax.while_loop",
        "torch_xla",
        'jax.export, platforms=["tpu"]',
        "file_gpu001:c0000",
        "--size WxH",
        "--python PATH",
        "gpu-b200-sxm",
        "b4-s128-d256-h4",
        "PCIe Gen5 x16",
        "HBM3e",
        "model() + example_inputs()",
        "jax.jit(f).lower(x, w)",
        "HTML (.html)",
        "en|zh-Hans",
        "LANGUAGE, LC_ALL, LC_MESSAGES, LANG",
        "[PYTHON ...]",
        "COMMAND",
        "oneDNN, AVX512-BF16",
        "`gpu-tpu-probe run`",
    ],
)
def test_code_ids_and_keys_are_not_left_in_english(text: str) -> None:
    assert left_in_english(text) == [], text


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Export the report", ["Export", "the", "report"]),
        ("time cap reached", ["time", "cap", "reached"]),
        ("up to 8 per G5 instance", ["up", "to", "per", "instance"]),
        ("e.g. the first try", ["e.g.", "the", "first", "try"]),
        ("torch.distributed and/or jax.distributed", ["and/or"]),
        ("Press Ctrl+S to save", ["Press", "to", "save"]),
        ("--format text for people", ["text", "for", "people"]),
        ("Ctrl+Shift+S saves", ["saves"]),
        ("suite is a functional check, not a benchmark.", ["suite", "is", "a", "functional", "check,", "not"]),
    ],
)
def test_english_words_beside_code_are_still_left_in_english(text: str, words: list[str]) -> None:
    found = [w.strip(",.") for w in left_in_english(text)]
    assert set(w.strip(",.") for w in words) - {"a"} <= set(found), (text, found)
    assert found, text


def test_what_makes_a_word_code_like() -> None:
    for word in (
        "jax.jit",
        "torch_xla",
        "gpu-b200-sxm",
        "HBM3e",
        "oneDNN",
        "TPUEmbedding",
        "LC_ALL",
        "TOPIC",
        "v5e:2x2",
    ):
        assert code_like(word), word
    for word in ("export", "Export", "report.", "e.g.", "and/or", "all-gather", "Enter", "measured"):
        assert not code_like(word), word


def test_the_finder_allows_code_in_a_chinese_sentence_and_reports_english_in_one() -> None:
    allowed = [
        "即框架检查：在 jax.jit 或 torch_xla 下跑一个真实的步骤。",
        '- 下降到 TPU 失败（jax.export, platforms=["tpu"]）',
        "课程笔记 gpu_tpu_lesson_notes.md（段落 file_gpu001:c0000 至 file_gpu001:c0003）",
        "--size WxH            --screenshot 使用的窗口尺寸（默认 1280x800）",
        "［gpu-b200-sxm 8 GPUs: 44.00 $/h］",
        "Alt+左方向",
        "下一页（Enter 或 Alt+N）",
        "只看一种芯片，例如 tpu-v6e；另见：faq",
        "gpu-tpu-app decide --answers examples/answers-jax-llm-pretraining.json",
        "LANGUAGE、LC_ALL、LC_MESSAGES、LANG）；--format json 始终为英文",
        "关于 gpu-tpu-app(A)",
    ]
    for text in allowed:
        assert list(classify("command x", text, IDS)) == [], text
    assert mixed_words("噪声大：IQR 为中位数的 46 %; eager x + 1 on 1 element", IDS) == ["eager", "on", "element"]
    assert mixed_words("下一页（press Enter to go on）", IDS) == ["press", "to", "go", "on"]
    found = list(classify("command x", "a10g: PCIe, no NVLink (up to 8 per G5 instance)", IDS))
    assert found and found[0].kind == "english" and "instance" in found[0].words


def test_this_machines_cpu_name_counts_as_its_data() -> None:
    """A live probe command prints this machine's CPU name ("Intel(R) Xeon(R) Processor"): measured data, as a
    session's device names are, never the app's English left in a Chinese text."""
    from gpu_tpu_app.shared.machine import cpu_model
    from tools.zh_classify import WORD, machine_words

    words = {w.strip("./+-") for w in WORD.findall(cpu_model())}
    assert words and words <= machine_words()
