"""The decision engine in every shipped language: each translation holds every id of the English
file with the same placeholders and nothing left in English, and the engine gives the same verdict,
score and ids in each language, with that language's words."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from gpu_tpu_app import i18n
from gpu_tpu_app.core.decision import ACTION_WORDS, FACTORS, PAGES, QUESTIONS, RULES, Answers, Recommendation, decide
from gpu_tpu_app.core.decision.answers import CHOICES
from gpu_tpu_app.core.decision.content import _texts, packaged_text, packaged_text_path, placeholders
from gpu_tpu_app.core.decision.io import check_decision_text, read_answers
from gpu_tpu_app.core.decision.steps import step_of_line
from gpu_tpu_app.core.localized import sentences
from tools.i18n_allow import CJK, left_in_english

OTHERS = [lang for lang in i18n.LANGUAGES if lang != i18n.DEFAULT_LANGUAGE]
EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples").glob("answers-*.json"))


@pytest.mark.parametrize("language", OTHERS)
def test_each_translation_has_every_text_with_its_placeholders(language: str) -> None:
    path = packaged_text_path(language)
    assert path.name == f"decision.{language}.toml", f"{language} has no decision text of its own"
    words = check_decision_text(path)  # the full check: every rule, step, page, question and choice
    assert words.language == language
    english = dict(_texts(packaged_text("en")))
    other = dict(_texts(words))
    assert sorted(set(english) - set(other)) == [] and sorted(set(other) - set(english)) == []
    for field, text in other.items():
        assert placeholders(text) == placeholders(english[field]), f"{path}: {field}: placeholders"
        assert left_in_english(text) == [], f"{path}: {field}: left in English: {text!r}"
        # a text with words to translate is translated, not copied (names such as "PyTorch" may stay)
        if left_in_english(english[field]):
            assert text != english[field], f"{path}: {field}: the English text"


def _ids(rec: Recommendation) -> dict[str, object]:
    """Everything of a recommendation but its words."""
    return {
        "verdict": rec.verdict,
        "score": rec.score,
        "confidence": rec.confidence,
        "blockers": [(b.factor, b.answer, b.verdict, b.topic, b.sources) for b in rec.blockers],
        "reasons": [(r.factor, r.answer, r.leans, r.weight, r.topic, r.sources) for r in rec.reasons],
        "flips": [f.model_dump(by_alias=True) for f in rec.flips],
        "unanswered": rec.unanswered,
        "conflicts": [(c.id, c.factors, c.answers) for c in rec.conflicts],
        "steps": [(s.id, s.action, s.command) for s in rec.steps],
    }


def _sample_answers() -> list[Answers]:
    rng = random.Random(23)
    found = [read_answers(path) for path in EXAMPLES]
    for _ in range(150):
        found.append(
            Answers(**{f: rng.choice([None, *CHOICES[f]]) for f in FACTORS if rng.random() < 0.8}),
        )
    return found


@pytest.mark.parametrize("language", OTHERS)
def test_the_verdict_and_its_ids_are_the_same_in_every_language(language: str) -> None:
    for answers in _sample_answers():
        english, other = decide(answers, language="en"), decide(answers, language=language)
        assert _ids(other) == _ids(english), answers
        words = [*(r.message for r in other.reasons), *(b.message for b in other.blockers)]
        words += [*(c.message for c in other.conflicts), *other.next_steps, *(s.text for s in other.steps)]
        assert words, answers
        for text in words:
            assert CJK.search(text) and left_in_english(text) == [], text
        # the lines read back as the same steps, whichever language is in use
        assert [step_of_line(line).id for line in other.next_steps] == [s.id for s in other.steps]
        again = Recommendation.model_validate_json(other.model_dump_json(by_alias=True))
        assert [s.id for s in again.steps] == [s.id for s in other.steps]


def test_every_note_and_variant_appears_in_chinese_somewhere() -> None:
    """The sentences the engine adds to a reason (notes) are joined in each language: seen in zh-Hans output."""
    seen: set[str] = set()
    zh = packaged_text("zh-Hans")
    wanted = {
        "small_serving": zh.notes.small_serving,
        "inference_duration": zh.notes.inference_duration,
        "playbook_alone": zh.notes.playbook_alone,
        "short_finetune": zh.notes.short_finetune,
        "correlated": zh.notes.correlated.split("{")[0],
        "porting_cost": zh.notes.porting_cost.split("{")[0],
    }
    for answers in [
        *_sample_answers(),
        Answers(workload="inference", batch="small", stage="production", architecture_changes="locked"),
        Answers(workload="inference", duration="weeks", framework="jax", scale="large"),
        Answers(
            stage="production",
            architecture_changes="locked",
            workload="training",
            embeddings="ordinary",
            high_precision="no",
        ),
        Answers(workload="training", duration="hours", batch="small", stage="production", scale="small"),
        Answers(stage="production", architecture_changes="locked", scale="large", batch="large", duration="weeks"),
        Answers(custom_ops="some", dynamic_shapes="yes", team="cuda", scale="massive", framework="pytorch"),
    ]:
        for reason in decide(answers, language="zh-Hans").reasons:
            for name, text in wanted.items():
                if text in reason.message:
                    seen.add(name)
                    assert "。 " not in reason.message, "a space after a Chinese full stop"
    assert seen == set(wanted)


def test_sentences_join_without_a_space_after_a_chinese_full_stop() -> None:
    assert sentences("One.", "Two.") == "One. Two."
    assert sentences("一。", "二。") == "一。二。"


def test_the_module_names_follow_the_language_in_use(zh: None) -> None:
    assert i18n.current_language() == "zh-Hans"
    assert QUESTIONS["framework"].label == "框架" and PAGES[0].title == "框架检查"
    assert ACTION_WORDS["estimate"] == "打开估算器"
    assert RULES["framework"]["jax"].message.startswith("JAX 在设计上就经由 XLA 编译")
    assert decide(Answers(framework="jax")).reasons[0].message.startswith("JAX 在设计上")
    # ids, weights and the order of choices do not depend on the language
    assert [v for v, _w in QUESTIONS["scale"].choices] == list(CHOICES["scale"])
    i18n.set_language("en")
    assert QUESTIONS["framework"].label == "Framework" and PAGES[0].title == "Framework check"


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_decide_in_chinese_gives_the_english_verdict_and_json(
    example: Path, run_cli, zh: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, text, err = run_cli("decide", "--answers", str(example))
    assert code == 0, err
    code, as_json, err = run_cli("decide", "--answers", str(example), "--format", "json")
    assert code == 0, err
    monkeypatch.setenv(i18n.LANG_ENV, "en")
    i18n.set_language(None)
    code, english_text, _err = run_cli("decide", "--answers", str(example))
    code, english_json, _err = run_cli("decide", "--answers", str(example), "--format", "json")
    # JSON is a contract for tools: English keys and values in every language, byte for byte
    assert as_json == english_json
    data = json.loads(as_json)
    assert not CJK.search(as_json)
    rec = decide(read_answers(example), language="zh-Hans")
    assert data["verdict"] == rec.verdict and data["score"] == rec.score
    # the text for people holds the Chinese words of the reasons and steps
    assert all(step in text for step in rec.next_steps)
    assert all(r.message in text for r in rec.reasons) and all(b.message in text for b in rec.blockers)
    assert text != english_text
    # and its own words: every heading and label in Chinese, none of the English ones
    assert text.startswith("结论：") and "理由（最有力的在前）：" in text and "下一步：" in text
    for english_word in (
        "Verdict:",
        "Score ",
        "Reasons, strongest first",
        "What would flip it",
        "Next steps",
        "topic ",
    ):
        assert english_word not in text, english_word


def test_a_bad_answers_file_is_one_chinese_line_naming_the_file_and_field(tmp_path: Path, zh: None) -> None:
    from gpu_tpu_app.core.decision.io import load_answers
    from gpu_tpu_app.errors import InputError

    for body, expected in [
        ('{"stage": "prod"}', "answers.json: stage: 'prod' 不是 exploring, stabilizing, production 之一"),
        ('{"stagex": 1}', "answers.json: stagex: 未知字段（已知：framework, "),
        ('{"schema_version": 7}', "answers.json: schema_version: 不支持 7（本应用读取 1 和 2）"),
    ]:
        with pytest.raises(InputError) as err:
            load_answers(body, "answers.json")
        assert str(err.value).startswith(expected) and "\n" not in str(err.value), str(err.value)
