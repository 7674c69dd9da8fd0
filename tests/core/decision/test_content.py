"""The decision engine's words as content: every id the code uses has its words in the packaged file and
every entry there is an id the code uses; a bad file is one line naming the file and the field; a
translation is one more file."""

from __future__ import annotations

import re
import shutil
import tomllib
from pathlib import Path

import pytest

from gpu_tpu_app.core.decision import FACTORS, PAGES, QUESTIONS, RULES, check_decision_text, choices, decide
from gpu_tpu_app.core.decision import Answers as Answers
from gpu_tpu_app.core.decision.content import packaged_text, packaged_text_path, read_decision_text
from gpu_tpu_app.core.decision.questions import build_questions, page_ids
from gpu_tpu_app.core.decision.rules import build_rules, rule_ids
from gpu_tpu_app.core.decision.steps import ACTIONS, build_steps, step_ids
from gpu_tpu_app.errors import InputError

PACKAGED = packaged_text_path("en")


def _raw() -> dict:
    return tomllib.loads(PACKAGED.read_text(encoding="utf-8"))


def _pairs(section: dict) -> list[str]:
    return [f"{factor}.{value}" for factor, by_value in section.items() for value in by_value]


def test_every_rule_id_has_its_words_and_every_entry_is_a_rule() -> None:
    raw, ids = _raw(), rule_ids()
    assert sorted(_pairs(raw["rules"])) == sorted(ids["rules"])
    assert sorted(_pairs(raw["small_serving"])) == sorted(ids["small_serving"])
    assert sorted(_pairs(raw["blockers"])) == sorted(ids["blockers"])
    assert sorted(raw["variants"]) == sorted(ids["variants"])
    assert sorted(raw["conflicts"]) == sorted(ids["conflicts"])
    assert set(ids) == {"rules", "small_serving", "blockers", "variants", "conflicts"}, "a section this test misses"
    # and the engine's tables are the ids: one rule per entry, the words as the file has them
    assert _pairs({f: by_value for f, by_value in RULES.items()}) == ids["rules"]
    assert RULES["team"]["cuda"].message == raw["rules"]["team"]["cuda"]


def test_every_question_page_step_and_action_has_its_words_and_nothing_else() -> None:
    raw = _raw()
    assert list(raw["questions"]) == list(FACTORS)
    for field in FACTORS:
        q = raw["questions"][field]
        assert set(q) == {"label", "text", "help", "choices"}, field
        assert list(q["choices"]) == list(choices(field)), field
        assert QUESTIONS[field].label == q["label"] and QUESTIONS[field].text == q["text"]
    assert list(raw["pages"]) == page_ids() == [p.id for p in PAGES]
    assert sorted(raw["steps"]) == sorted(step_ids())
    assert sorted(raw["actions"]) == sorted(ACTIONS)


def test_each_question_carries_its_own_short_label() -> None:
    labels = [q.label for q in QUESTIONS.values()]
    assert len(set(labels)) == len(labels), "two questions share a label"
    for q in QUESTIONS.values():
        assert q.label and len(q.label) <= 30 and not q.label.endswith((".", "?")), q.label


def test_the_packaged_file_passes_the_full_check() -> None:
    assert check_decision_text(PACKAGED).language == "en"


# --------------------------------------------------------------------------- bad files


def _edited(tmp_path: Path, old: str, new: str, count: int = 1) -> Path:
    text = PACKAGED.read_text(encoding="utf-8")
    assert text.count(old) >= 1, old
    path = tmp_path / "decision.xx.toml"
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    return path


_JAX = 'jax = "JAX compiles through XLA by design'
_PILOT_CLI = "with this app's probe ({command}) on each"

BAD = [
    # (what is wrong, text replaced, replacement, the field the message names)
    ("old schema", "schema_version = 1", "schema_version = 7", "schema_version"),
    ("rule words missing", _JAX, 'jux = "JAX compiles through XLA by design', "rules.framework.jax"),
    (
        "rule for an answer with no rule",
        "[rules.embeddings]",
        '[rules.embeddings]\nordinary = "Ordinary."',
        "rules.embeddings.ordinary",
    ),
    (
        "blocker missing",
        '[blockers.custom_ops]\nessential = "',
        '[blockers.custom_ops]\nnone = "',
        "blockers.custom_ops.essential",
    ),
    ("question label missing", 'label = "Framework"\n', "", "questions.framework.label"),
    (
        "unknown choice",
        '[questions.batch.choices]\nsmall = "Small"',
        '[questions.batch.choices]\ntiny = "Small"',
        "questions.batch.choices.small",
    ),
    ("unknown field", "[pages.team]\n", '[pages.team]\ncolour = "blue"\n', "pages.team.colour"),
    ("page missing", "[pages.cloud]", "[pages.clouds]", "pages.cloud"),
    ("step without its command", _PILOT_CLI, "with this app's probe on each", "steps.pilot.cli"),
    ("unknown placeholder", _PILOT_CLI, "with this app's probe ({command}) on {each}", "steps.pilot.cli"),
    ("broken brace", "Run a short pilot of", "Run a {short pilot of", "steps.pilot.text"),
    ("two lines", 'title = "Team"', 'title = """Team\nand more"""', "pages.team.title"),
    ("empty text", 'title = "Team"', 'title = ""', "pages.team.title"),
    (
        "note without its placeholders",
        "much the same as the answer to {factor} ({answer})",
        "much the same as before",
        "notes.correlated",
    ),
    ("action missing", "probe_quick = ", "probe_slow = ", "actions.probe_quick"),
    ("conflict missing", "small_weeks = ", "small_week = ", "conflicts.small_weeks"),
    (
        "porting note without its placeholders",
        "porting cost with {others}",
        "porting cost with others",
        "notes.porting_cost",
    ),
    ("not TOML", "[pages.team]", "[pages.team", ""),
]


@pytest.mark.parametrize(("what", "old", "new", "field"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_file_is_one_line_naming_the_file_and_the_field(
    tmp_path: Path, what: str, old: str, new: str, field: str
) -> None:
    path = _edited(tmp_path, old, new)
    with pytest.raises(InputError) as err:
        check_decision_text(path)
    message = str(err.value)
    assert "\n" not in message and "Traceback" not in message
    assert message.startswith(f"{path}: {field}" if field else f"{path}: not valid TOML"), message
    if field:
        assert re.match(rf"{re.escape(str(path))}: {re.escape(field)}(\.[a-z_]+)*: \S", message), message


def test_a_missing_or_huge_file_is_one_line_too(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"decision\.none\.toml"):
        read_decision_text(tmp_path / "decision.none.toml")
    huge = tmp_path / "decision.huge.toml"
    huge.write_text('schema_version = 1\nlanguage = "en"\n# ' + "x" * 20_000_000 + "\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_decision_text(huge)
    assert str(huge) in str(err.value) and "\n" not in str(err.value)


# --------------------------------------------------------------------------- a translation is a file


def test_a_translation_is_one_more_file_with_the_same_keys(tmp_path: Path) -> None:
    path = tmp_path / "decision.zh-Hans.toml"
    shutil.copy(PACKAGED, path)
    text = path.read_text(encoding="utf-8")
    text = text.replace('language = "en"', 'language = "zh-Hans"')
    text = text.replace('label = "Framework"', 'label = "框架"')
    text = text.replace(_JAX, 'jax = "JAX 天生经由 XLA 编译')
    text = text.replace("Run a short pilot of the same model step", "在一台 TPU 虚拟机上试运行同一模型步骤")
    path.write_text(text, encoding="utf-8")
    words = check_decision_text(path)
    assert words.language == "zh-Hans"
    assert build_questions(words).questions["framework"].label == "框架"
    assert build_rules(words).rules["framework"]["jax"].message.startswith("JAX 天生经由 XLA 编译")
    pilot = build_steps(words).steps[("pilot", False)]
    assert pilot.text.startswith("在一台 TPU 虚拟机上") and pilot.line.startswith("在一台 TPU 虚拟机上")
    assert pilot.action == "probe_quick" and pilot.command == "gpu-tpu-probe" and "(gpu-tpu-probe)" in pilot.line
    # the packaged English words are untouched by reading another file
    assert packaged_text().language == "en" and QUESTIONS["framework"].label == "Framework"
    assert decide(Answers(framework="jax")).reasons[0].message.startswith("JAX compiles through XLA")
