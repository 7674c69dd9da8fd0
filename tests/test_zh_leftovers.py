"""The zh-Hans leftover finder (tools/zh_leftovers.py) tells a text left in English from a translated one."""

from __future__ import annotations

from tools.zh_classify import Leftover, classify, mixed_words
from tools.zh_leftovers import SourceIndex

IDS = {"xla_verified", "matmul", "torch"}


def test_an_english_sentence_is_a_leftover_and_names_and_ids_are_not() -> None:
    found = list(classify("window x", "Export the report", IDS))
    assert [(f.kind, f.words) for f in found] == [("english", ["Export", "the", "report"])]
    assert list(classify("window x", "CUDA · XLA · 8 GB/s", IDS)) == []
    assert list(classify("window x", "xla_verified", IDS)) == []
    assert list(classify("window x", "Ctrl+Shift+S", IDS)) == []


def test_an_english_fragment_in_a_chinese_sentence_is_mixed() -> None:
    found = list(classify("command estimate", "警告：one copy needs 4 chips。", IDS))
    assert found and found[0].kind == "mixed" and "needs" in found[0].words
    # glossed terms, ids, file names and placeholders are not
    assert mixed_words("下降（lowering）：xla_verified = yes，见 run.json", IDS | {"yes"}) == []


def test_each_line_is_judged_on_its_own() -> None:
    found = list(classify("command x", "结论：TPU\nnext steps", IDS))
    assert [f.text for f in found] == ["next steps"]


def test_the_source_of_a_leftover_is_found() -> None:
    hits = SourceIndex().find(Leftover("english", "w", "a functional check, not a benchmark", ["functional"]))
    assert hits[0].startswith("resources/text/terms.en.toml:"), hits


def test_the_episode_and_its_chapters_keep_their_names() -> None:
    from tools.zh_classify import verbatim_titles

    titles = verbatim_titles()
    assert "GPU vs TPU: Choosing Your AI Engine" in titles and "From Pixels to Pathways" in titles


def test_a_sessions_own_words_are_the_notes_and_old_results_messages(tmp_path) -> None:
    import json

    from tools.zh_classify import user_texts

    old = {"message": "2 threads; time cap reached before the CV fell to 3.5%"}
    new = {"message": "one device: nothing is split", "notes": [{"id": "worker.x"}]}
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"notes": "Our model is stable", "runs": [{"results": [old, new]}]}))
    texts = user_texts(path)
    assert (
        "Our model is stable" in texts
        and old["message"] in texts
        and "time cap reached before the CV fell to 3.5%" in texts
    )
    assert not any("nothing is split" in t for t in texts)  # a result with note ids is shown translated: judged


def test_a_call_whose_name_starts_like_a_domain_is_no_url() -> None:
    ids = IDS | {"torch.compile", "jax.device_put"}
    assert mixed_words("不测量 torch.compile；jax.device_put；见 example.com/x", ids) == []
    assert "pile" not in mixed_words("不测量 torch.compile", IDS)
