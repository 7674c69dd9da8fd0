"""The lesson content pack: contents, cross-references, and one-line errors for broken packs."""

from __future__ import annotations

import datetime as dt
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from gpu_tpu_app.assets import resource_path, resource_root
from gpu_tpu_app.core.lesson import LessonPack, lesson_problems, load_lesson
from gpu_tpu_app.errors import InputError

# The lesson's incidental URL, built so that the literal appears nowhere in the repository.
INCIDENTAL = "not-" + "a-source"

TOPIC_IDS = [
    "history",
    "flexibility",
    "software",
    "architecture",
    "workload",
    "utilization",
    "cost",
    "workflow",
    "playbook",
]
TOPIC_INSIGHT = {
    "history": 1,
    "flexibility": 1,
    "software": 1,
    "architecture": 2,
    "workload": 2,
    "utilization": 2,
    "cost": 3,
    "workflow": 3,
    "playbook": 3,
}
REQUIRED_SOURCES = [
    *(f"lesson-ch{n}" for n in range(1, 9)),
    "lesson-guide",
    "lesson-faq",
    "lesson-faq-extended",
    "lesson-quote-1",
    "lesson-quote-2",
    "notes-c0000",
    "notes-c0001",
    "notes-c0002",
    "notes-c0003",
    "google-tpu-intro",
    "jax-sharp-bits",
    "pytorch-xla-3356",
    "pytorch-xla-6614",
    "google-tpu7x",
    "gce-gpus",
]
QUOTE_1 = (
    "The more stable and tensor-heavy your work becomes, the more the TPU\u2019s factory-like efficiency "
    "begins to outweigh the GPU\u2019s workshop-like versatility. It is a balance between the freedom "
    "to pivot and the power to scale."
)
QUOTE_2 = (
    "If you are building a one-of-a-kind piece of furniture with unique joints and hand-carved details, "
    "you want the workshop of the GPU; if you are producing ten thousand identical chairs, you want the "
    "factory line of the TPU."
)


@pytest.fixture(scope="module")
def pack() -> LessonPack:
    return load_lesson(language="en")


def all_citations(pack: LessonPack) -> list[tuple[str, list[str]]]:
    """Every (place, source ids) pair in the pack, walked independently of the loader's own walk."""
    found = []
    for topic in pack.topics:
        for side_name in ("gpu", "tpu"):
            for i, claim in enumerate(getattr(topic, side_name).claims):
                found.append((f"{topic.id}.{side_name}.{i}", claim.sources))
    found += [(f"faq:{e.question}", e.sources) for e in pack.faq]
    found += [(f"quote:{q.text[:20]}", q.sources) for q in pack.quotes]
    found += [(f"glossary:{g.term}", g.sources) for g in pack.glossary]
    return found


# -- the packaged pack ---------------------------------------------------------------------
def test_packaged_pack_loads_once(pack: LessonPack) -> None:
    assert pack.schema_version == 1
    assert load_lesson() is pack  # cached: the GUI reads the file once


def test_episode_metadata(pack: LessonPack) -> None:
    ep = pack.episode
    assert ep.title == "GPU vs TPU: Choosing Your AI Engine"
    assert ep.plan == "AI hardware fundamentals"
    assert (ep.host, ep.style, ep.minutes) == ("Lena", "fast", 14)
    assert ep.date == dt.date(2026, 4, 22)
    assert ep.tags == ["AI", "Technology", "Business"]
    assert ep.question == "GPU vs TPU for practical AI workloads"
    assert "training, inference, cost, and developer workflow" in ep.overview


def test_insights_in_lesson_order(pack: LessonPack) -> None:
    assert [(i.number, i.title) for i in pack.insights] == [
        (1, "Why GPUs became the default accelerator"),
        (2, "Where TPUs are strongest"),
        (3, "How to choose between them"),
    ]


def test_topics_ids_order_and_insights(pack: LessonPack) -> None:
    assert pack.topic_ids() == TOPIC_IDS
    assert {t.id: t.insight for t in pack.topics} == TOPIC_INSIGHT
    assert [t.id for t in pack.topics_for(2)] == ["architecture", "workload", "utilization"]
    assert pack.topic("workflow").title == "Developer workflow and debugging"
    with pytest.raises(KeyError, match="unknown topic 'nope'"):
        pack.topic("nope")


def test_every_side_has_headline_and_three_to_six_claims(pack: LessonPack) -> None:
    for topic in pack.topics:
        for side in (topic.gpu, topic.tpu):
            assert side.headline.strip() and "\n" not in side.headline, topic.id
            assert 3 <= len(side.claims) <= 6, (topic.id, len(side.claims))
            assert all(claim.sources for claim in side.claims), topic.id


def test_evidence_names_the_illustrating_kernels(pack: LessonPack) -> None:
    evidence = {t.id: set(t.evidence) for t in pack.topics}
    assert {"compile", "dispatch"} <= evidence["workflow"]
    assert {"matmul", "model_step"} <= evidence["architecture"]
    assert {"matmul", "model_step"} <= evidence["workload"]
    assert {"transfer", "triad", "copy"} <= evidence["utilization"]
    assert "compile" in evidence["software"]
    assert "dispatch" in evidence["flexibility"]


def test_faq_quotes_and_glossary_counts(pack: LessonPack) -> None:
    assert len(pack.faq) >= 8
    assert len({e.question for e in pack.faq}) == len(pack.faq)
    assert len(pack.quotes) == 2
    for name in (
        "CUDA",
        "XLA",
        "ASIC",
        "MXU",
        "HBM",
        "ICI",
        "JAX",
        "bf16",
        "TF32",
        "MFU",
        "TPU",
        "GPU",
        "ROCm",
        "tensor core",
        "systolic array",
    ):
        assert pack.term(name).definition, name
    assert pack.term("bfloat16").term == "bf16"
    assert pack.term("tensorfloat-32").term == "TF32"
    with pytest.raises(KeyError):
        pack.term("warp drive")


def test_quotes_are_verbatim_and_attributed(pack: LessonPack) -> None:
    first, second = pack.quotes
    assert first.text == QUOTE_1
    assert second.text == QUOTE_2
    assert "lesson-quote-1" in first.sources and "lesson-quote-2" in second.sources
    # attributed as the pages attribute them: each page calls it its "best quote", under its own title
    assert first.attribution.startswith('Best quote of "GPU vs TPU: Choosing Your AI Hardware"')
    assert second.attribution.startswith('Best quote of "GPU vs TPU: Choosing Your AI Engine"')


def test_faq_entries_the_app_adds_are_marked(pack: LessonPack) -> None:
    added = [f.question for f in pack.faq if f.origin == "app"]
    assert added == ["Which frameworks run on TPUs?"]
    # the lesson's own FAQ: three questions on the English page, five on the second page
    assert len([f for f in pack.faq if f.origin == "lesson"]) == 8


def test_required_source_ids_are_listed(pack: LessonPack) -> None:
    ids = [s.id for s in pack.sources]
    assert len(ids) == len(set(ids))
    missing = [sid for sid in REQUIRED_SOURCES if sid not in ids]
    assert missing == []
    titles = {n: pack.source(f"lesson-ch{n}").title for n in range(1, 9)}
    assert titles[1].endswith("The Heart of the Machine")
    assert titles[7].endswith("A Playbook for Your Hardware Journey")
    assert pack.source("google-tpu7x").url == "https://cloud.google.com/tpu/docs/tpu7x"


def test_every_cited_source_id_resolves(pack: LessonPack) -> None:
    known = {s.id for s in pack.sources}
    citations = all_citations(pack)
    assert len(citations) > 80
    dangling = [(place, sid) for place, ids in citations for sid in ids if sid not in known]
    assert dangling == []
    assert lesson_problems(pack) == []
    assert [s.id for s in pack.sources_for(["lesson-ch2", "lesson-ch1", "lesson-ch2"])] == ["lesson-ch2", "lesson-ch1"]


def test_every_listed_source_is_cited(pack: LessonPack) -> None:
    cited = {sid for _place, ids in all_citations(pack) for sid in ids}
    assert [s.id for s in pack.sources if s.id not in cited] == []


def test_notes_chunks_listed_as_the_page_lists_them(pack: LessonPack) -> None:
    notes = [s for s in pack.sources if s.kind == "notes"]
    assert [(s.id, s.chunk, s.document, s.page, s.url) for s in notes] == [
        ("notes-c0000", "file_gpu001:c0000", "gpu_tpu_lesson_notes.md", "p1", "https://example.com/gpu-tpu-notes"),
        ("notes-c0001", "file_gpu001:c0001", "gpu_tpu_lesson_notes.md", "p1", "https://example.com/gpu-tpu-notes"),
        ("notes-c0002", "file_gpu001:c0002", "gpu_tpu_lesson_notes.md", "p2", "https://example.com/gpu-tpu-notes"),
        ("notes-c0003", "file_gpu001:c0003", "gpu_tpu_lesson_notes.md", "p2", "https://example.com/gpu-tpu-notes"),
    ]


def test_notes_chunks_are_cited_only_as_a_group(pack: LessonPack) -> None:
    group = {f"notes-c000{n}" for n in range(4)}
    group_citations = 0
    for place, ids in all_citations(pack):
        cited = group & set(ids)
        assert cited in (set(), group), place
        group_citations += bool(cited)
        if cited:  # never the only support: an episode chapter or page stands beside them
            assert set(ids) - group, place
    assert group_citations >= 1


def test_web_sources_are_public_https_pages(pack: LessonPack) -> None:
    for source in pack.sources:
        if source.kind == "web":
            assert source.url and source.url.startswith("https://"), source.id
            assert "example.com" not in source.url, source.id
        if source.kind in ("episode", "page"):
            assert source.url is None, source.id


# -- the incidental URL -------------------------------------------------------------------
def test_incidental_url_is_in_no_resource_file() -> None:
    roots = {resource_root(), Path(__file__).resolve().parents[2] / "resources"}
    checked = 0
    for root in roots:
        if not root.is_dir():
            continue
        for path in root.rglob("*"):
            if path.is_file():
                assert INCIDENTAL.encode() not in path.read_bytes(), path
                checked += 1
    assert checked >= 1
    assert INCIDENTAL not in resource_path("lesson", "lesson.en.toml").read_text(encoding="utf-8")


def test_no_source_or_text_carries_the_incidental_url(pack: LessonPack) -> None:
    for source in pack.sources:
        assert INCIDENTAL not in json.dumps(source.model_dump(mode="json")), source.id
    assert INCIDENTAL not in json.dumps(pack.model_dump(mode="json"))


# -- broken packs -------------------------------------------------------------------------
def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a valid TOML basic string
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(type(value))


def dump_toml(data: dict[str, Any]) -> str:
    """Enough TOML for the pack's shapes: every top-level key with an inline value."""
    return "".join(f"{key} = {_toml_value(value)}\n" for key, value in data.items())


@pytest.fixture
def data() -> dict[str, Any]:
    return tomllib.loads(resource_path("lesson", "lesson.en.toml").read_text(encoding="utf-8"))


def write(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "lesson.toml"
    path.write_text(dump_toml(data), encoding="utf-8")
    return path


def error_for(tmp_path: Path, data: dict[str, Any]) -> str:
    path = write(tmp_path, data)
    with pytest.raises(InputError) as info:
        load_lesson(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ")
    assert "\n" not in message
    return message[len(f"{path}: ") :]


def test_rewritten_copy_loads_like_the_original(tmp_path: Path, data: dict[str, Any]) -> None:
    copy = load_lesson(write(tmp_path, data))
    assert copy == load_lesson()
    assert copy is not load_lesson()


def test_unknown_field_is_rejected(tmp_path: Path, data: dict[str, Any]) -> None:
    data["topics"][3]["tpu"]["colour"] = "red"
    assert error_for(tmp_path, data) == "topics.3.tpu.colour: unknown field"


def test_unknown_top_level_field_is_rejected(tmp_path: Path, data: dict[str, Any]) -> None:
    data["speakers"] = ["Lena"]
    assert error_for(tmp_path, data) == "speakers: unknown field"


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        (lambda d: d["topics"][3]["tpu"]["claims"][1], "topics[3].tpu.claims[1].sources"),
        (lambda d: d["topics"][0]["gpu"]["claims"][0], "topics[0].gpu.claims[0].sources"),
        (lambda d: d["faq"][2], "faq[2].sources"),
        (lambda d: d["quotes"][1], "quotes[1].sources"),
        (lambda d: d["glossary"][4], "glossary[4].sources"),
    ],
)
def test_dangling_source_id_names_the_field(tmp_path: Path, data: dict[str, Any], where: Any, expected: str) -> None:
    where(data)["sources"] = ["lesson-ch1", "x"]
    assert error_for(tmp_path, data) == f"{expected}: unknown source id 'x'"


def test_duplicate_source_id_is_rejected(tmp_path: Path, data: dict[str, Any]) -> None:
    data["sources"].append(dict(data["sources"][0]))
    n = len(data["sources"]) - 1
    assert error_for(tmp_path, data) == f"sources[{n}].id: duplicate source id 'lesson-ch1'"


def test_duplicate_topic_id_is_rejected(tmp_path: Path, data: dict[str, Any]) -> None:
    data["topics"][1]["id"] = "history"
    assert error_for(tmp_path, data) == "topics[1].id: duplicate topic id 'history'"


def test_topics_out_of_insight_order_are_rejected(tmp_path: Path, data: dict[str, Any]) -> None:
    data["topics"][0], data["topics"][3] = data["topics"][3], data["topics"][0]
    message = error_for(tmp_path, data)
    assert message.startswith("topics[1].insight: topic 'flexibility' (insight 1) comes after")
    assert "insight order" in message


def test_topic_under_a_missing_insight_is_rejected(tmp_path: Path, data: dict[str, Any]) -> None:
    del data["insights"][2]
    assert error_for(tmp_path, data).startswith("topics[6].insight: no insight numbered 3")


def test_one_notes_chunk_alone_is_rejected(tmp_path: Path, data: dict[str, Any]) -> None:
    data["topics"][2]["gpu"]["claims"][0]["sources"] = ["lesson-ch2", "notes-c0001"]
    message = error_for(tmp_path, data)
    assert message.startswith("topics[2].gpu.claims[0].sources: cites some chunks of gpu_tpu_lesson_notes.md")
    assert "notes-c0000, notes-c0002, notes-c0003" in message


def test_claim_without_sources_is_rejected(tmp_path: Path, data: dict[str, Any]) -> None:
    data["topics"][5]["gpu"]["claims"][2]["sources"] = []
    assert error_for(tmp_path, data).startswith("topics.5.gpu.claims.2.sources: ")


def test_unknown_evidence_kernel_is_rejected(tmp_path: Path, data: dict[str, Any]) -> None:
    data["topics"][0]["evidence"] = ["matmul", "warp_speed"]
    message = error_for(tmp_path, data)
    assert message.startswith("topics.0.evidence.1: ")
    assert "matmul" in message and "model_step" in message  # names the allowed kernels


def test_notes_source_without_document_is_rejected(tmp_path: Path, data: dict[str, Any]) -> None:
    index = next(i for i, s in enumerate(data["sources"]) if s["id"] == "notes-c0002")
    del data["sources"][index]["document"]
    message = error_for(tmp_path, data)
    assert message.startswith(f"sources.{index}: ")
    assert "document" in message


def test_other_schema_version_is_rejected(tmp_path: Path, data: dict[str, Any]) -> None:
    data["schema_version"] = 2
    assert error_for(tmp_path, data).startswith("schema_version: ")


def test_several_problems_are_counted(tmp_path: Path, data: dict[str, Any]) -> None:
    data["faq"][0]["sources"] = ["x"]
    data["faq"][1]["sources"] = ["y"]
    assert error_for(tmp_path, data) == "faq[0].sources: unknown source id 'x' (and 1 more problem)"


def test_bad_toml_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "lesson.toml"
    path.write_text('schema_version = 1\n[episode\ntitle = "x"\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"lesson\.toml: not valid TOML"):
        load_lesson(path)


def test_missing_file_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"absent\.toml: no such file"):
        load_lesson(tmp_path / "absent.toml")
