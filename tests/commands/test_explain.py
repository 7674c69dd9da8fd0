"""`gpu-tpu-app explain`: contents, one topic side by side, JSON, extras, errors."""

from __future__ import annotations

import json

import pytest

from gpu_tpu_app.cli import main
from gpu_tpu_app.core.lesson import LessonPack, Side, load_lesson

INCIDENTAL = "not-" + "a-source"
WIDTH = 100


@pytest.fixture(autouse=True)
def terminal_width(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", str(WIDTH))  # shutil.get_terminal_size reads it first


@pytest.fixture(scope="module")
def pack() -> LessonPack:
    return load_lesson()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["explain", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def squash(text: str) -> str:
    return " ".join(text.split())


def columns(out: str) -> tuple[str, str, str]:
    """Split a side-by-side topic into (left column, right column, the text after the table)."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("GPU (workshop)"))
    cut = lines[start].index(" | ")
    end = next(i for i in range(start, len(lines)) if " | " not in lines[i] and not lines[i].strip())
    table = lines[start + 2 : end]
    left = "\n".join(line[:cut] for line in table)
    right = "\n".join(line[cut + 3 :] for line in table)
    return left, right, "\n".join(lines[end:])


def expected_side(side: Side, pack: LessonPack, topic_ids: list[str]) -> list[str]:
    """Headline and claims, each claim with its numbered citations ([1, 3])."""
    numbers = {key: n for n, (key, _t, _u) in enumerate(pack.citations_for(topic_ids), 1)}

    def marks(ids: list[str]) -> str:
        return "[" + ", ".join(str(n) for n in dict.fromkeys(numbers[pack.citation_key(s)] for s in ids)) + "]"

    return [side.headline] + [f"- {c.text} {marks(c.sources)}" for c in side.claims]


def test_contents_lists_insights_and_topics_in_order(capsys: pytest.CaptureFixture[str], pack: LessonPack) -> None:
    code, out, err = run(capsys)
    assert (code, err) == (0, "")
    assert out.startswith("GPU vs TPU: Choosing Your AI Engine\n")
    positions = []
    for insight in pack.insights:
        positions.append(out.index(f"{insight.number}. {insight.title}"))
        for topic in pack.topics_for(insight.number):
            line = next(line for line in out.splitlines() if line.split()[:1] == [topic.id])
            assert line.rstrip().endswith(topic.title)
            positions.append(out.index(line))
    assert positions == sorted(positions)
    assert "faq, glossary, quotes, sources" in out


def test_topic_text_is_side_by_side_with_markers_and_sources(
    capsys: pytest.CaptureFixture[str], pack: LessonPack
) -> None:
    code, out, err = run(capsys, "architecture")
    assert (code, err) == (0, "")
    topic = pack.topic("architecture")
    lines = out.splitlines()
    assert lines[0].startswith(topic.title)
    assert lines[1] == "Insight 2: Where TPUs are strongest"
    header = next(line for line in lines if line.startswith("GPU (workshop)"))
    assert header.split(" | ")[1].strip() == "TPU (factory line)"
    assert max(len(line) for line in lines) <= WIDTH
    left, right, rest = columns(out)
    for text in expected_side(topic.gpu, pack, topic.source_ids()):
        assert squash(text) in squash(left)
    for text in expected_side(topic.tpu, pack, topic.source_ids()):
        assert squash(text) in squash(right)
    assert "matmul, model_step" in rest
    sources = rest[rest.index("Sources:") :]
    for n, (_key, words, url) in enumerate(pack.citations_for(topic.source_ids()), 1):
        assert squash(f"{n}. {words}") in squash(sources)
        if url:
            assert url in sources.split()  # never broken across lines
    assert not any(sid in out for sid in topic.source_ids())  # numbers, never internal ids


def test_narrow_terminal_stacks_the_two_sides(
    capsys: pytest.CaptureFixture[str], pack: LessonPack, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "44")
    code, out, _err = run(capsys, "workflow")
    assert code == 0
    lines = out.splitlines()
    gpu_at, tpu_at = lines.index("GPU (workshop)"), lines.index("TPU (factory line)")
    assert gpu_at < tpu_at
    assert all(len(line) <= 44 for line in lines if not line.strip().startswith("https://"))
    topic = pack.topic("workflow")
    assert squash(topic.gpu.claims[0].text) in squash("\n".join(lines[gpu_at:tpu_at]))
    assert squash(topic.tpu.claims[1].text) in squash("\n".join(lines[tpu_at:]))


def test_topic_json_is_the_model_with_resolved_sources(capsys: pytest.CaptureFixture[str], pack: LessonPack) -> None:
    code, out, err = run(capsys, "software", "--format", "json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    topic = pack.topic("software")
    sources = data.pop("sources")
    assert data == topic.model_dump(mode="json")
    assert [s["id"] for s in sources] == topic.source_ids()
    by_id = {s["id"]: s for s in sources}
    assert by_id["google-tpu7x"]["url"] == "https://cloud.google.com/tpu/docs/tpu7x"
    assert by_id["lesson-ch3"]["title"] == pack.source("lesson-ch3").title


def test_contents_json(capsys: pytest.CaptureFixture[str], pack: LessonPack) -> None:
    code, out, _err = run(capsys, "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["episode"]["date"] == "2026-04-22"
    assert [[t["id"] for t in i["topics"]] for i in data["insights"]] == [
        ["history", "flexibility", "software"],
        ["architecture", "workload", "utilization"],
        ["cost", "workflow", "playbook"],
    ]


def test_unknown_topic_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], pack: LessonPack) -> None:
    code, out, err = run(capsys, "nope")
    assert code == 2
    assert out == ""
    assert err == (
        "error: unknown topic 'nope' (choose from: "
        + ", ".join(pack.topic_ids())
        + ", faq, glossary, quotes, sources)\n"
    )


def test_bad_format_flag_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["explain", "history", "--format", "xml"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--format" in err and "xml" in err


def test_quotes_page_prints_both_quotes_verbatim(capsys: pytest.CaptureFixture[str], pack: LessonPack) -> None:
    code, out, _err = run(capsys, "quotes")
    assert code == 0
    for quote in pack.quotes:
        assert squash(quote.text) in squash(out)
    code, out, _err = run(capsys, "quotes", "--format", "json")
    data = json.loads(out)
    assert [q["text"] for q in data["quotes"]] == [q.text for q in pack.quotes]
    assert {s["id"] for s in data["sources"]} >= {"lesson-quote-1", "lesson-quote-2"}


def test_faq_and_glossary_pages(capsys: pytest.CaptureFixture[str], pack: LessonPack) -> None:
    code, out, _err = run(capsys, "faq")
    assert code == 0
    assert out.count("\nQ: ") == len(pack.faq)
    for entry in pack.faq:
        assert squash(entry.question) in squash(out)
    # the app's own questions are marked as the app's, the lesson's are not
    assert squash("Which frameworks run on TPUs? (added by this app, not from the lesson)") in squash(out)
    assert squash(out).count("added by this app") == sum(1 for e in pack.faq if e.origin == "app")
    code, out, _err = run(capsys, "glossary", "--format", "json")
    assert code == 0
    terms = [g["term"] for g in json.loads(out)["glossary"]]
    assert {"CUDA", "XLA", "MXU", "bf16", "TF32", "MFU"} <= set(terms)
    code, out, _err = run(capsys, "glossary")
    assert "bf16 (bfloat16" in out


def test_sources_page_lists_every_source(capsys: pytest.CaptureFixture[str], pack: LessonPack) -> None:
    code, out, _err = run(capsys, "sources", "--format", "json")
    assert code == 0
    assert [s["id"] for s in json.loads(out)["sources"]] == [s.id for s in pack.sources]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_incidental_url_is_in_no_output(capsys: pytest.CaptureFixture[str], pack: LessonPack, fmt: str) -> None:
    pages = [[], *([name] for name in pack.topic_ids()), ["faq"], ["glossary"], ["quotes"], ["sources"]]
    for page in pages:
        code, out, err = run(capsys, *page, "--format", fmt)
        assert code == 0, page
        assert out.strip(), page
        assert INCIDENTAL not in out and INCIDENTAL not in err, page
