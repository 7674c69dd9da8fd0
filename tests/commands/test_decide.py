"""`gpu-tpu-app decide`: JSON and text output, stdin, and one-line errors for bad input."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from gpu_tpu_app import cli
from gpu_tpu_app.core.decision import FACTORS, Recommendation, decide, read_answers

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PRETRAINING = EXAMPLES / "answers-jax-llm-pretraining.json"
PROTOTYPE = EXAMPLES / "answers-research-prototype.json"
MIXED = EXAMPLES / "answers-mixed-unknowns.json"


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(["decide", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _usage_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run a decide command that must fail with exit 2; returns its single stderr line."""
    try:
        code = cli.main(["decide", *argv])
    except SystemExit as exc:  # argparse errors leave through SystemExit
        code = exc.code
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


@pytest.mark.parametrize("path", [PRETRAINING, PROTOTYPE, MIXED], ids=lambda p: p.stem)
def test_json_output_is_exactly_the_recommendation(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(["--answers", str(path), "--format", "json"], capsys)
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data == decide(read_answers(path)).model_dump(mode="json", by_alias=True)
    Recommendation.model_validate(data)


def test_json_verdicts_of_the_examples(capsys: pytest.CaptureFixture[str]) -> None:
    verdicts = {}
    for path in (PRETRAINING, PROTOTYPE, MIXED):
        _code, out, _err = _run(["--answers", str(path), "--format", "json"], capsys)
        verdicts[path.stem] = json.loads(out)["verdict"]
    assert verdicts == {
        "answers-jax-llm-pretraining": "tpu",
        "answers-research-prototype": "gpu",
        "answers-mixed-unknowns": "either",
    }


def test_text_output_explains_a_tpu_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(["--answers", str(PRETRAINING)], capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "Verdict: TPU: the factory line"
    assert lines[1].startswith("Score +0.9") and "confidence high" in lines[1]
    assert "Reasons, strongest first:" in lines
    assert "  - [TPU 0.80] XLA check: Yes, it compiles and runs cleanly. " in out
    assert "(topic software; sources lesson-ch7, lesson-faq-extended)" in out
    assert "  - Where it runs: Google Cloud -> Only another cloud: AWS, Azure, ... gives GPU" in lines
    assert "Next steps:" in lines and "Blockers" not in out
    assert lines[-2:] == ["Unanswered:", "  - none"]


def test_text_output_shows_blockers_for_the_prototype(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = _run(["--answers", str(PROTOTYPE), "--format", "text"], capsys)
    assert code == 0
    assert out.splitlines()[0] == "Verdict: GPU: the workshop"
    assert "Blockers (each decides on its own):" in out
    assert "  - Custom kernels: Yes, they are essential to the main loop -> GPU. " in out
    assert "  - no single changed answer changes the verdict" in out
    assert "  - XLA check: Have you run the model's operations under XLA?" in out


def test_answers_from_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(MIXED.read_bytes())))
    code, out, _err = _run(["--answers", "-", "--format", "json"], capsys)
    assert code == 0
    assert json.loads(out) == decide(read_answers(MIXED)).model_dump(mode="json", by_alias=True)


def test_empty_answers_give_either(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"{}")))
    code, out, _err = _run(["--answers", "-", "--format", "json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["verdict"] == "either" and data["confidence"] == "low"
    # follow-up questions (the kernels' kind, the serving stack, how cloud chips are rented) are asked only after
    # the answers they follow
    assert data["unanswered"] == [f for f in FACTORS if f not in ("custom_ops_kind", "serving_stack", "rental")]
    assert all(set(f) == {"factor", "from", "to", "verdict"} for f in data["flips"])


def test_bad_value_is_one_line_naming_field_and_allowed_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "answers.json"
    bad.write_text('{"framework": "jax", "stage": "prod"}', encoding="utf-8")
    line = _usage_error(["--answers", str(bad)], capsys)
    assert line == f"error: {bad}: stage: 'prod' is not one of exploring, stabilizing, production"


def test_unknown_field_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "answers.json"
    bad.write_text('{"colour": "blue"}', encoding="utf-8")
    line = _usage_error(["--answers", str(bad)], capsys)
    assert line.startswith(f"error: {bad}: colour: unknown field (known: framework, xla_verified, ")


def test_bad_json_from_stdin_is_one_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b'{"stage": "production",}')))
    line = _usage_error(["--answers", "-"], capsys)
    assert line.startswith("error: <stdin>: line 1 column 24: not valid JSON (Expecting property name")


def test_missing_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = _usage_error(["--answers", str(tmp_path / "missing.json")], capsys)
    assert line == f"error: {tmp_path / 'missing.json'}: no such file"


def test_bad_format_and_missing_answers_flag_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    line = _usage_error(["--answers", str(MIXED), "--format", "yaml"], capsys)
    assert "yaml" in line and "--format" in line
    line = _usage_error([], capsys)
    assert "--answers" in line


# --------------------------------------------------------------------------- issue 33: where the chips are offered


def test_text_says_where_the_chips_are_offered_in_the_answered_cloud_and_region(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = tmp_path / "answers.json"
    answers.write_text('{"deployment": "google_cloud", "region": "europe"}', encoding="utf-8")
    code, out, _err = _run(["--answers", str(answers)], capsys)
    offers = out[out.index("Where the chips are offered") :].splitlines()
    assert code == 0 and offers[1].startswith("  - GPU: ") and offers[2].startswith("  - TPU: ")
    assert "Google TPU v6e" in offers[2] and "Google Cloud europe-west4" in offers[2]
    assert all(" us-" not in line and "AWS " not in line for line in offers[1:3])  # only Google Cloud, only Europe
    assert (
        offers[2]
        == "  - TPU: Google TPU v5e, Google TPU v5p, Google TPU v6e (Trillium), offered in Google Cloud europe-west4"
    )
    assert "NVIDIA L4" in offers[1] and "NVIDIA T4" not in offers[1]  # no bf16 arithmetic: not suggested
    answers.write_text('{"deployment": "any_cloud", "region": "canada"}', encoding="utf-8")
    code, out, _err = _run(["--answers", str(answers)], capsys)
    assert "  - TPU: none in the price table for your cloud and region" in out
    assert "AWS ca-central-1" in out


def test_params_add_the_money_and_the_break_even_in_the_answered_cloud(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import re

    answers = tmp_path / "answers.json"
    answers.write_text('{"framework": "jax", "workload": "training", "deployment": "google_cloud"}', encoding="utf-8")
    args = ["--answers", str(answers), "--params", "7e9", "--chips", "64"]
    code, out, _err = _run([*args, "--porting-weeks", "6"], capsys)
    money = out[out.index("Money (") :].splitlines()
    assert code == 0 and "shipped prices in Google Cloud" in money[0]
    costs = {}
    for line in money[1:3]:
        found = re.match(r"  - (GPU|TPU): .+?, ([\d,]+) USD on-demand", line)
        assert found, line
        costs[found.group(1)] = float(found.group(2).replace(",", ""))
    saving = costs["GPU"] - costs["TPU"]
    assert saving > 0  # the shipped prices: a TPU v6e run is cheaper than the cheapest GPU that holds it
    assert "at 4,000 USD an engineer-week, a stated assumption" in money[3]
    runs = float(re.search(r"after ([\d.]+) runs", money[3]).group(1))
    assert runs == pytest.approx(24_000 / saving, abs=0.1)
    code, out, _err = _run([*args, "--porting-weeks", "6", "--week-usd", "8000"], capsys)
    assert "costs 48,000 USD;" in out and "stated assumption" not in out
    code, out, _err = _run(args, capsys)
    assert "give --porting-weeks for the break-even" in out
    answers.write_text('{"deployment": "on_premises"}', encoding="utf-8")
    code, out, _err = _run(args, capsys)
    assert "  - TPU: no chip of this family holds the run" in out
    code, out, _err = _run(["--answers", str(answers)], capsys)
    assert "Money (" not in out  # only with --params


def test_json_gains_a_money_key_and_keeps_the_recommendation_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from gpu_tpu_app.core.decision.regions import area_of

    answers = tmp_path / "answers.json"
    answers.write_text(
        '{"framework": "jax", "workload": "training", "deployment": "google_cloud", "region": "europe",'
        ' "porting_budget": "ample"}',
        encoding="utf-8",
    )
    _code, plain, _err = _run(["--answers", str(answers), "--format", "json"], capsys)
    code, out, _err = _run(["--answers", str(answers), "--format", "json", "--params", "7e9", "--chips", "64"], capsys)
    assert code == 0
    data = json.loads(out)
    money = data.pop("money")
    assert data == json.loads(plain)  # the Recommendation's keys are untouched; money is the one new key
    assert "money" not in json.loads(plain)
    assert money["cloud"] == "gcp" and money["area"] == "europe"
    for family in ("gpu", "tpu"):
        cloud, region = money[family]["place"].split()
        assert cloud == "gcp" and area_of(region) == "europe", money[family]
        assert 0 < money[family]["spot_usd"] < money[family]["on_demand_usd"]
    # no --porting-weeks: the default the "ample" porting-time answer gives, said to be a default
    assert money["porting_weeks"] == 8.0 and money["porting_weeks_default"] is True
    assert money["port_usd"] == 8 * 4000.0 and money["week_usd_default"] is True
    saving = money["gpu"]["on_demand_usd"] - money["tpu"]["on_demand_usd"]
    assert money["saving_usd"] == pytest.approx(saving, abs=0.02)
    assert money["break_even_runs"] == pytest.approx(32_000 / saving, abs=0.01)
    code, out, _err = _run(["--answers", str(answers), "--params", "7e9", "--chips", "64"], capsys)
    assert "cheapest region in Europe" in out
    assert "The 8 engineer-weeks are a default read from your porting-time answer" in out
    code, out, _err = _run(
        ["--answers", str(answers), "--params", "7e9", "--chips", "64", "--porting-weeks", "2"], capsys
    )
    assert "A port of 2 engineer-weeks" in out and "are a default" not in out


def test_the_region_answer_prices_each_chip_in_the_cheapest_region_of_that_area(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from gpu_tpu_app.core.decision.regions import area_of, places_in

    answers = tmp_path / "answers.json"
    places = {}
    for area in ("us", "europe"):
        answers.write_text(f'{{"workload": "training", "deployment": "aws", "region": "{area}"}}', encoding="utf-8")
        _code, out, _err = _run(["--answers", str(answers), "--format", "json", "--params", "7e9"], capsys)
        money = json.loads(out)["money"]
        assert money["tpu"] is None  # AWS rents no TPU
        cloud, region = money["gpu"]["place"].split()
        assert cloud == "aws" and area_of(region) == area
        # the cheapest on-demand region of the area for that chip
        assert (cloud, region) == places_in(area, ("aws",), money["gpu"]["chip_id"])[0]
        places[area] = region
    assert places["us"] != places["europe"]


def test_aws_and_azure_answers_block_tpus_and_old_files_still_open(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = tmp_path / "answers.json"
    for cloud in ("aws", "azure"):
        answers.write_text(f'{{"deployment": "{cloud}"}}', encoding="utf-8")
        code, out, _err = _run(["--answers", str(answers), "--format", "json"], capsys)
        data = json.loads(out)
        assert code == 0 and data["verdict"] == "gpu"
        assert [(b["factor"], b["answer"]) for b in data["blockers"]] == [("deployment", cloud)]
    answers.write_text('{"deployment": "other_cloud"}', encoding="utf-8")  # a file written before aws/azure
    code, out, _err = _run(["--answers", str(answers), "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["verdict"] == "gpu"


@pytest.mark.parametrize("language", ["en", "zh-Hans"])
def test_text_names_questions_and_answers_in_words_not_ids(
    language: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Reasons, blockers, conflicts, flips and open questions read as labels and answer words: no `field = value`
    ids and no answer field ids, in either language."""
    import re

    from gpu_tpu_app import i18n
    from gpu_tpu_app.core.decision.fields import CHOICES

    conflicting = tmp_path / "answers.json"
    conflicting.write_text(
        '{"framework": "jax", "team": "cuda", "stage": "exploring", "architecture_changes": "locked",'
        ' "scale": "small", "duration": "weeks", "custom_ops": "essential", "deployment": "google_cloud"}',
        encoding="utf-8",
    )
    previous = i18n.current_language()
    i18n.set_language(language)
    try:
        outs = [_run(["--answers", str(path)], capsys)[1] for path in (*EXAMPLES.glob("answers-*.json"), conflicting)]
    finally:
        i18n.set_language(previous)
    ids = "|".join(sorted(FACTORS, key=len, reverse=True))
    values = "|".join(sorted({v for vs in CHOICES.values() for v in vs if "_" in v}, key=len, reverse=True))
    for out in outs:
        assert not re.search(rf"\b({ids}) = ", out), out
        assert not re.search(rf"^  - ({ids})[:：]", out, re.M), out
        assert not re.search(rf"\b({values})\b", out), out
    assert any("Team skills" in out or "团队" in out for out in outs)


@pytest.mark.parametrize("language", ["en", "zh-Hans"])
def test_the_markdown_report_names_questions_and_answers_in_words_not_ids(language: str) -> None:
    """The report (Markdown; the PDF is made from the same data) of every example: no `field = value` ids."""
    import re

    from gpu_tpu_app import i18n
    from gpu_tpu_app.core.decision.fields import CHOICES
    from gpu_tpu_app.core.report import build_markdown
    from gpu_tpu_app.core.session import new_session

    ids = "|".join(sorted(FACTORS, key=len, reverse=True))
    values = "|".join(sorted({v for vs in CHOICES.values() for v in vs if "_" in v}, key=len, reverse=True))
    previous = i18n.current_language()
    i18n.set_language(language)
    try:
        for path in sorted(EXAMPLES.glob("answers-*.json")):
            md = build_markdown(new_session().with_answers(read_answers(path)))
            assert not re.search(rf"\b({ids}) = |\b({values})\b", md), path.name
    finally:
        i18n.set_language(previous)


def test_a_spot_renter_gets_the_break_even_at_spot_prices(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answers = tmp_path / "answers.json"
    base = '"framework": "jax", "workload": "training", "deployment": "google_cloud", "porting_budget": "some"'
    money = {}
    for rental in ("on_demand", "spot"):
        answers.write_text(f'{{{base}, "rental": "{rental}"}}', encoding="utf-8")
        args = ["--answers", str(answers), "--params", "7e9", "--chips", "64"]
        _code, out, _err = _run([*args, "--format", "json"], capsys)
        money[rental] = json.loads(out)["money"]
        _code, text_out, _err = _run(args, capsys)
        assert ("compares the Spot prices" in text_out) == (rental == "spot")
    on_demand, spot = money["on_demand"], money["spot"]
    assert on_demand["saving_at"] == "on_demand" and spot["saving_at"] == "spot"
    assert on_demand["saving_usd"] == pytest.approx(
        on_demand["gpu"]["on_demand_usd"] - on_demand["tpu"]["on_demand_usd"], abs=0.02
    )
    assert spot["saving_usd"] == pytest.approx(spot["gpu"]["spot_usd"] - spot["tpu"]["spot_usd"], abs=0.02)
