"""The zh-Hans texts use one word per concept, and the lesson's own Chinese names for its sections.

Every zh-Hans text the app shows (resources/text/*.zh-Hans.toml, the lesson and decision packs, the
catalogue's zh-Hans prose, the guide, the window's .ts translations) is read here, and:

- a term's known wrong variants never appear (e.g. 降级 for "lowering", which reads "downgraded";
  互连 beside the 互联 the rest uses);
- where the English text says the term, the Chinese one says the fixed word (the English "verdict" is
  结论, never 判定 or a paraphrase);
- the places where the app names the lesson's sections say what the lesson's Chinese page calls them:
  学习计划 (the plan), 常见问题 (FAQ), 知识来源 (the sources), 最佳语录 (the quotes), 主持声音 (the host).

A new term: add a `Term` (the English pattern, the word, the variants seen or likely) and run this file.
"""

from __future__ import annotations

import re
import tomllib
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

RESOURCES = Path(__file__).resolve().parents[1] / "resources"
CJK = re.compile(r"[\u4e00-\u9fff]")


@dataclass(frozen=True)
class Term:
    english: str  # a regex over the English text (placeholders, code and command names removed first)
    word: str  # what every Chinese text of that English says
    wrong: tuple[str, ...]  # variants (regexes) that must never appear in any zh-Hans text
    paired: bool = True  # False: only the variants are checked (the English is too broad to pair)


TERMS = (
    Term(r"\bworkshop\b", "工坊", ("车间", "作坊", "工作坊")),
    Term(r"\bfactory[- ]line\b", "流水线", ("生产线", "装配线", "工厂线", "产线")),
    Term(r"\bverdicts?\b", "结论", ("判定", "裁决", "判决", "定论")),
    Term(r"\bprob(?:e|es|ed|ing)\b", "探测", ("探针", "探查", "探测器")),
    Term(r"\bthroughput\b", "吞吐量", ("吞吐率", "通量")),
    Term(r"\blower(?:s|ed|ing)? (?:for|to)\b|\blowering\b", "下降", ("降级",)),
    Term(r"\bfast-link group\b", "高速互联组", ("互连",)),
    Term(r"\bdtypes?\b|\bdata type\b", "数据类型", ("数值类型",)),
    Term(r"\bmicro-batch(?:es)?\b", "微批次", ("微批(?!次)",)),
    Term(r"\bevidence\b", "证据", ("(?:显示|隐藏|找到的)依据",)),  # 依据 alone is "based on"
    Term(r"\bmodel FLOPs utili[sz]ation\b|\bMFU\b", "MFU", ("算力利用率",), paired=False),
    Term(r"\bcollectives?\b", "集合通信", ("集体通信", "聚合通信")),
    Term(r"\bconfidence\b", "置信度", ("信心", "把握")),
    Term(r"\bestimator\b", "估算器", ("估计器", "预估器")),
    Term(r"\bworker process(?:es)?\b|\bworkers?\b", "工作进程", ("工作者", "子工作")),
    Term(r"\bnot trusted\b|\buntrusted\b", "不可信", ("不可靠", "不受信任")),
    Term(r"\bspot\b", "竞价", ("抢占式实例",), paired=False),
    Term(r"\bprovider\b", "服务商", ("提供商", "供应商")),
    Term(r"\bslices?\b", "切片", (), paired=False),
    Term(r"\bmemory\b", "内存", ("显存",), paired=False),
    Term(r"\bplaybook\b", "选型清单", ("行动指南",)),
    Term(r"\b(?:input|data) pipelines?\b", "管道", ("管线",)),
    Term(r"\bport(?:s|ing|ed)?\b", "迁移", ("移植",)),
    Term(r"\bFAQ\b", "常见问题", ("问答集", "疑问解答", "常问问题")),
    Term(r"\bknowledge sources?\b", "知识来源", ("参考资料", "资料来源", "引用来源")),
)

# What the lesson's Chinese page (the second shell of the lesson, 001_36d03efa0b24eba1.txt) calls its parts,
# and the ids of the texts where the app names those parts: (file stem or .ts context, id or English source).
SHELL_NAMES: dict[str, tuple[tuple[str, str], ...]] = {
    "学习计划": (("explain", "episode"), ("learn", "html.kicker_episode")),
    "常见问题": (("explain", "faq_heading"), ("learn", "page.faq"), ("learn", "html.faq_heading")),
    "知识来源": (
        ("explain", "sources"),
        ("explain", "all_sources"),
        ("learn", "page.sources"),
        ("learn", "html.sources_heading"),
        ("learn", "html.all_sources_heading"),
        ("report", "heading.sources"),
        ("ReportPdf", "Sources"),
    ),
    "最佳语录": (("explain", "quotes_heading"), ("learn", "page.quotes"), ("learn", "html.quotes_heading")),
    "主持声音": (("explain", "episode"),),
}


@dataclass(frozen=True)
class Text:
    where: str  # file and id, for the failure message
    group: str  # the text area's stem ("learn") or the .ts context ("ReportPdf")
    key: str  # the id, or the English source of a .ts message
    english: str  # "" where the English is not beside it (the catalogue's prose, the guide)
    chinese: str


def _flat(value: object, prefix: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _flat(v, f"{prefix}.{k}" if prefix else str(k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _flat(v, f"{prefix}[{i}]")
    elif isinstance(value, str):
        yield prefix, value


def _toml_pair(root: Path, en: Path | None, zh: Path, group: str) -> Iterator[Text]:
    english = dict(_flat(tomllib.loads(en.read_text(encoding="utf-8")))) if en else {}
    for key, chinese in _flat(tomllib.loads(zh.read_text(encoding="utf-8"))):
        yield Text(f"{zh.relative_to(root)}: {key}", group, key, english.get(key, ""), chinese)


def _ts_texts(ts: Path) -> Iterator[Text]:
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            source = message.findtext("source") or ""
            translation = message.find("translation")
            if translation is None:
                continue
            forms = translation.findall("numerusform")
            chinese = "\n".join(f.text or "" for f in forms) if forms else (translation.text or "")
            yield Text(f"{ts.name}: {name}: {source[:60]!r}", name, source, source, chinese)


def zh_texts(resources: Path = RESOURCES) -> list[Text]:
    """Every zh-Hans text under `resources`, with its English twin where one sits beside it."""
    texts: list[Text] = []
    for zh in sorted((resources / "text").glob("*.zh-Hans.toml")):
        stem = zh.name.removesuffix(".zh-Hans.toml")
        texts += _toml_pair(resources, zh.with_name(f"{stem}.en.toml"), zh, stem)
    for area in ("lesson", "decision"):
        texts += _toml_pair(
            resources, resources / area / f"{area}.en.toml", resources / area / f"{area}.zh-Hans.toml", area
        )
    for zh in sorted((resources / "catalog").glob("*.zh-Hans.toml")):
        texts += _toml_pair(resources, None, zh, "catalog-prose")
    for md in sorted((resources / "help").glob("*.zh-Hans.md")):
        texts.append(Text(str(md.relative_to(resources)), "help", md.name, "", md.read_text(encoding="utf-8")))
    for ts in sorted((resources / "i18n").glob("*.zh_CN.ts")):
        texts += _ts_texts(ts)
    return texts


def _prose(english: str) -> str:
    """The English words a translator renders: placeholders, `code`, commands, ids, URLs and flags removed."""
    english = re.sub(r"\{\w*\}|`[^`]*`|https?://\S+|--[\w-]+", " ", english)
    return re.sub(r"\b[\w.]+[-_./][\w.-]+\b", " ", english)  # gpu-tpu-probe, lesson-faq, jax.jit, run.json


def wrong_variants(texts: list[Text]) -> list[str]:
    return [
        f"{t.where}: {bad!r} (the term for {term.english!r} is {term.word})"
        for t in texts
        for term in TERMS
        for pattern in term.wrong
        for bad in re.findall(pattern, t.chinese)
    ]


def unpaired_terms(texts: list[Text]) -> list[str]:
    """Texts whose English says a term and whose Chinese does not say its word (texts left wholly in English,
    the quotes, and published titles kept verbatim inside a Chinese text aside)."""
    return [
        f"{t.where}: {t.english[:80]!r} matches {term.english!r}, the Chinese lacks {term.word}: {t.chinese[:80]!r}"
        for t in texts
        if t.english and CJK.search(t.chinese)
        for term in TERMS
        if term.paired
        and re.search(term.english, _prose(t.english), re.IGNORECASE)
        and term.word not in t.chinese
        and not re.search(term.english, _prose(t.chinese), re.IGNORECASE)  # a published title kept verbatim
    ]


def shell_names_missing(texts: list[Text]) -> list[str]:
    by_key = {(t.group, t.key): t for t in texts}
    problems = []
    for name, places in SHELL_NAMES.items():
        for group, key in places:
            text = by_key.get((group, key))
            if text is None:
                problems.append(f"{group}: {key}: no such zh-Hans text (it names the lesson's {name})")
            elif name not in text.chinese:
                problems.append(f"{text.where}: names the lesson's {name} otherwise: {text.chinese!r}")
    return problems


TEXTS = zh_texts()


def test_every_zh_hans_file_is_read() -> None:
    files = {t.where.split(":")[0] for t in TEXTS}
    assert len([f for f in files if f.endswith(".zh-Hans.toml")]) >= 20
    assert {"help/guide.zh-Hans.md", "lesson/lesson.zh-Hans.toml", "decision/decision.zh-Hans.toml"} <= files
    assert len([f for f in files if f.endswith(".zh_CN.ts")]) == len(list((RESOURCES / "i18n").glob("*.zh_CN.ts")))
    assert len(TEXTS) > 2500
    assert len([t for t in TEXTS if t.english]) > 2000  # the TOML and .ts texts are paired with their English


def test_no_wrong_variant_of_a_term_appears_in_any_zh_hans_text() -> None:
    assert wrong_variants(TEXTS) == []


def test_where_the_english_says_a_term_the_chinese_says_its_one_word() -> None:
    assert unpaired_terms(TEXTS) == []


def test_the_app_names_the_lessons_sections_as_its_chinese_page_does() -> None:
    assert shell_names_missing(TEXTS) == []


def _plant(tmp_path: Path, path: str, old: str, new: str) -> list[Text]:
    import shutil

    copy = tmp_path / "resources"
    shutil.copytree(RESOURCES, copy, ignore=shutil.ignore_patterns("*.qm"))
    target = copy / path
    text = target.read_text(encoding="utf-8")
    assert old in text, (path, old)
    target.write_text(text.replace(old, new, 1), encoding="utf-8")
    return zh_texts(copy)


@pytest.mark.parametrize(
    ("path", "old", "new", "variant"),
    [
        ("text/estimate.zh-Hans.toml", "高速互联组", "高速互连组", "互连"),
        ("text/modelcheck.zh-Hans.toml", "已下降到 TPU", "已降级到 TPU", "降级"),
        ("i18n/gpu_tpu_app_decide.zh_CN.ts", "显示证据", "显示依据", "显示依据"),
        ("i18n/gpu_tpu_app_probe.zh_CN.ts", "微批次(&amp;M)", "微批(&amp;M)", "微批"),
        ("help/guide.zh-Hans.md", "工坊", "车间", "车间"),
        ("catalog/chips.zh-Hans.toml", "全互联", "全互连", "互连"),
    ],
)
def test_a_planted_variant_is_found(tmp_path: Path, path: str, old: str, new: str, variant: str) -> None:
    found = wrong_variants(_plant(tmp_path, path, old, new))
    assert len(found) == 1 and repr(variant) in found[0] and path.split("/")[-1] in found[0], found


@pytest.mark.parametrize(
    ("path", "old", "new", "english"),
    [  # a verdict rendered as 判断, a probe as 测试 (neither on a variants list): the pairing catches them
        (
            "i18n/gpu_tpu_app_result.zh_CN.ts",
            "<translation>尚无结论</translation>",
            "<translation>尚无判断</translation>",
            "No verdict yet",
        ),
        ("decision/decision.zh-Hans.toml", "在本机运行快速探测", "在本机运行快速测试", "quick probe"),
    ],
)
def test_a_paraphrased_term_is_found(tmp_path: Path, path: str, old: str, new: str, english: str) -> None:
    found = unpaired_terms(_plant(tmp_path, path, old, new))
    assert len(found) == 1 and english in found[0] and path.split("/")[-1] in found[0], found


def test_a_section_named_otherwise_is_found(tmp_path: Path) -> None:
    texts = _plant(tmp_path, "text/learn.zh-Hans.toml", 'faq = "常见问题"', 'faq = "问与答"')
    found = shell_names_missing(texts)
    assert len(found) == 1 and "常见问题" in found[0] and "page.faq" in found[0], found
