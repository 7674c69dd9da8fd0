"""The decision engine: properties over all answers, concrete scenarios, wizard texts, next steps (answer
files: decision/test_io.py)."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpu_tpu_app.core import decision
from gpu_tpu_app.core.decision import (
    BLOCKERS,
    FACTORS,
    ORDERED,
    PAGES,
    QUESTIONS,
    RULES,
    Answers,
    Recommendation,
    choices,
    decide,
    read_answers,
)
from gpu_tpu_app.core.decision.fields import applies
from gpu_tpu_app.core.lesson import load_lesson

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# The lesson pack's topic ids and source ids (interfaces: "Decision rules cite topic ids and lesson
# source ids from these lists only").
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
SOURCE_IDS = (
    [f"lesson-ch{i}" for i in range(1, 9)]
    + ["lesson-guide", "lesson-faq", "lesson-faq-extended", "lesson-quote-1", "lesson-quote-2"]
    + [f"notes-c000{i}" for i in range(4)]
    + [
        "google-tpu-intro",
        "jax-matmul-precision",
        "jax-sharp-bits",
        "jax-sparsecore",
        "tf-tpu-embedding",
        "pytorch-xla-3356",
        "pytorch-xla-6614",
        "google-tpu7x",
        "gce-gpus",
    ]
)

ISSUE_TABLE = {
    "framework": ("pytorch", "jax", "tensorflow", "other"),
    "xla_verified": ("yes", "with_fallbacks", "no"),  # issue 33: compiles in CI with kernels swapped for fallbacks
    "custom_ops": ("none", "some", "essential"),
    "custom_ops_kind": ("cuda", "triton", "pallas_xla"),  # issue 33: which kind the custom kernels are
    "dynamic_shapes": ("yes", "no"),
    "high_precision": ("fp64", "fp32", "no"),
    "stage": ("exploring", "stabilizing", "production"),
    "architecture_changes": ("weekly", "monthly", "locked"),
    "workload": ("training", "inference", "both"),
    "serving_stack": ("vllm", "sglang", "tensorrt_llm", "jetstream", "own"),  # issue 33
    "scale": ("small", "medium", "large", "massive"),
    "batch": ("small", "large"),
    "duration": ("hours", "days", "weeks"),
    "matmul_share": ("irregular", "low", "mixed", "dominant"),  # issue 19: FFT, sparse or gather-heavy work
    "embeddings": ("ultra_large", "ordinary"),
    "bottleneck": ("accelerator", "cpu", "input"),  # issue 33: the accelerator may not be the bottleneck
    "team": ("cuda", "xla", "general"),
    "porting_budget": ("none", "some", "ample"),
    "deployment": ("google_cloud", "any_cloud", "other_cloud", "aws", "azure", "on_premises", "local"),
    "region": ("anywhere", "us", "canada", "europe", "asia_pacific"),  # issue 33: where the chips must run
    "capacity_held": ("none", "tpu", "gpu"),  # issue 33: a TPU commitment or a GPU reservation
    "rental": ("on_demand", "spot", "reserved"),  # issue 33: Spot users get preemption words, no idle-slice warning
    "burst_capacity": ("yes", "no"),
    "utilization": ("sporadic", "steady"),
    "data_pipeline": ("slow", "fast"),
    "cost_focus": ("hardware", "engineering"),
}

PROPERTY = settings(max_examples=200, deadline=None, derandomize=True)

answers_st = st.builds(Answers, **{f: st.none() | st.sampled_from(choices(f)) for f in FACTORS})


def _with(answers: Answers, **changes: str | None) -> Answers:
    """A validated copy of answers with some fields changed."""
    return Answers(**{**answers.model_dump(), **changes})


@functools.cache
def _lesson_ids() -> tuple[frozenset[str], frozenset[str]]:
    """Topic and source ids from the packaged lesson."""
    pack = load_lesson()
    return frozenset(t.id for t in pack.topics), frozenset(s.id for s in pack.sources)


def _cites_known(topic: str, sources: list[str] | tuple[str, ...]) -> bool:
    """Topic and sources exist in the lesson pack and stay within the decision rules' agreed lists."""
    topics, lesson_sources = _lesson_ids()
    return (
        topic in topics
        and topic in TOPIC_IDS
        and bool(sources)
        and set(sources) <= lesson_sources
        and set(sources) <= set(SOURCE_IDS)
    )


# --------------------------------------------------------------------------- the model


def test_answers_fields_and_values_match_the_issue_table() -> None:
    assert tuple(ISSUE_TABLE) == FACTORS
    for factor, values in ISSUE_TABLE.items():
        assert choices(factor) == values
    assert Answers().model_dump() == dict.fromkeys(FACTORS)


def test_ordered_factors_follow_the_table_toward_the_factory_end() -> None:
    assert set(ORDERED) == {
        "stage",
        "architecture_changes",
        "scale",
        "batch",
        "duration",
        "matmul_share",
        "porting_budget",
        "utilization",
        "data_pipeline",
    }
    for factor, order in ORDERED.items():
        assert order == ISSUE_TABLE[factor]


def test_answers_forbid_unknown_fields_and_values() -> None:
    with pytest.raises(ValueError):
        Answers(colour="red")  # type: ignore[call-arg]
    with pytest.raises(ValueError):
        Answers(stage="prod")  # type: ignore[arg-type]


def test_flip_serialises_with_from() -> None:
    rec = decide(read_answers(EXAMPLES / "answers-mixed-unknowns.json"))
    dumped = rec.model_dump(mode="json", by_alias=True)
    assert dumped["flips"], "the mixed example should have flips"
    assert all(set(item) == {"factor", "from", "to", "verdict"} for item in dumped["flips"])
    assert Recommendation.model_validate(dumped) == rec


# --------------------------------------------------------------------------- properties


@PROPERTY
@given(answers_st)
def test_decide_is_deterministic(answers: Answers) -> None:
    first = decide(answers)
    again = decide(Answers(**answers.model_dump()))
    assert first == again
    assert first.model_dump_json(by_alias=True) == again.model_dump_json(by_alias=True)


@PROPERTY
@given(answers_st)
def test_every_flip_reruns_to_the_verdict_it_claims(answers: Answers) -> None:
    rec = decide(answers)
    factors = [f.factor for f in rec.flips]
    assert len(factors) == len(set(factors)), "at most one flip per factor"
    assert len(factors) <= decision.MAX_FLIPS, "a handful at most"
    moves = [abs(decide(_with(answers, **{f.factor: f.to}), flips=False).score - rec.score) for f in rec.flips]
    assert moves == sorted(moves, reverse=True), "strongest first"
    for flip in rec.flips:
        current = getattr(answers, flip.factor)
        assert current is not None, "no flip for a question nobody answered"
        assert flip.from_ == current
        assert flip.to in choices(flip.factor) and flip.to != current
        rerun = decide(_with(answers, **{flip.factor: flip.to}), flips=False)
        assert rerun.verdict == flip.verdict
        assert flip.verdict != rec.verdict


@PROPERTY
@given(answers_st)
def test_flips_are_complete_and_smallest(answers: Answers) -> None:
    """Among answered factors, the listed flips are the strongest ones; each is the nearest value that flips."""
    rec = decide(answers)
    flips = {f.factor: f for f in rec.flips}
    flippable = []
    for factor in FACTORS:
        current = getattr(answers, factor)
        flipping = [
            v
            for v in choices(factor)
            if v != current and decide(_with(answers, **{factor: v}), flips=False).verdict != rec.verdict
        ]
        if current is None:
            assert factor not in flips
            continue
        if flipping:
            flippable.append(factor)
        else:
            assert factor not in flips, factor
        order = ORDERED.get(factor)
        if factor in flips and order and current is not None:
            distance = abs(order.index(flips[factor].to) - order.index(current))
            assert distance == min(abs(order.index(v) - order.index(current)) for v in flipping)
    assert len(flips) == min(len(flippable), decision.MAX_FLIPS)


@PROPERTY
@given(answers_st, st.sampled_from(sorted(ORDERED)), st.data())
def test_a_step_toward_the_factory_never_moves_the_score_toward_gpu(
    answers: Answers, factor: str, data: st.DataObject
) -> None:
    order = ORDERED[factor]
    index = data.draw(st.integers(0, len(order) - 2))
    lower = decide(_with(answers, **{factor: order[index]}), flips=False)
    higher = decide(_with(answers, **{factor: order[index + 1]}), flips=False)
    assert higher.score >= lower.score
    rank = {"gpu": 0, "either": 1, "tpu": 2}
    assert rank[higher.verdict] >= rank[lower.verdict]


@PROPERTY
@given(answers_st)
def test_reasons_and_blockers_cite_known_topics_and_sources(answers: Answers) -> None:
    rec = decide(answers)
    for item in [*rec.reasons, *rec.blockers]:
        assert _cites_known(item.topic, item.sources), item
        assert item.message.strip()


@PROPERTY
@given(answers_st)
def test_recommendation_shape(answers: Answers) -> None:
    rec = decide(answers)
    assert -1.0 <= rec.score <= 1.0
    weights = [r.weight for r in rec.reasons]
    assert weights == sorted(weights, reverse=True) and all(w > 0 for w in weights)
    asked = {f: getattr(answers, f) for f in FACTORS}
    assert rec.unanswered == [f for f in FACTORS if asked[f] is None and applies(f, asked)]
    answered = {f for f in FACTORS if getattr(answers, f) is not None}
    assert {r.factor for r in rec.reasons} | {b.factor for b in rec.blockers} <= answered
    assert not ({r.factor for r in rec.reasons} & {b.factor for b in rec.blockers})
    for r in rec.reasons:
        assert r.answer == getattr(answers, r.factor)
    assert rec.next_steps
    if rec.blockers:
        assert rec.verdict == "gpu" and rec.score <= decision.BLOCKED_SCORE
    elif rec.verdict == "either":
        assert abs(rec.score) < decision.THRESHOLD
    else:
        assert (rec.score > 0) == (rec.verdict == "tpu")
    assert decide(answers, flips=False).model_copy(update={"flips": rec.flips}) == rec


def test_all_rules_cite_known_topics_and_sources() -> None:
    rules = [rule for by_value in RULES.values() for rule in by_value.values()]
    rules += [decision._STEADY_SERVING, decision._EMBEDDING_LOOKUPS, *decision._SMALL_SERVING.values()]
    for rule in rules:
        assert _cites_known(rule.topic, rule.sources), rule
        assert rule.weight > 0
    for (factor, value), blocker in BLOCKERS.items():
        assert value in choices(factor)
        assert _cites_known(blocker.topic, blocker.sources), blocker
    for factor, by_value in RULES.items():
        assert set(by_value) <= set(choices(factor)), factor


def test_agreed_topic_and_source_lists_exist_in_the_lesson_pack() -> None:
    topics, sources = _lesson_ids()
    assert set(TOPIC_IDS) == topics
    assert set(SOURCE_IDS) <= sources


# --------------------------------------------------------------------------- concrete scenarios


def test_no_answers_gives_either_with_low_confidence() -> None:
    rec = decide(Answers())
    assert rec.verdict == "either" and rec.confidence == "low" and rec.score == 0.0
    assert rec.blockers == [] and rec.reasons == []
    # follow-up questions (the kernels' kind, the serving stack, how cloud chips are rented) come after their answers
    assert rec.unanswered == [f for f in FACTORS if f not in ("custom_ops_kind", "serving_stack", "rental")]
    assert any(step.startswith("Framework check") for step in rec.next_steps)


@pytest.mark.parametrize(
    ("factor", "value"),
    [
        ("xla_verified", "no"),
        ("custom_ops", "essential"),
        ("high_precision", "fp64"),
        ("deployment", "on_premises"),
        ("deployment", "other_cloud"),
        ("framework", "other"),
    ],
)
def test_each_blocker_decides_alone_even_against_everything_else(factor: str, value: str) -> None:
    alone = decide(Answers(**{factor: value}))
    assert alone.verdict == "gpu" and alone.confidence == "high"
    assert [(b.factor, b.answer, b.verdict) for b in alone.blockers] == [(factor, value, "gpu")]
    tpu_friendly = read_answers(EXAMPLES / "answers-jax-llm-pretraining.json")
    assert decide(tpu_friendly).verdict == "tpu"
    # framework "other" blocks only while XLA is unverified
    extra = {"xla_verified": None} if factor == "framework" else {}
    forced = decide(_with(tpu_friendly, **{factor: value}, **extra))
    assert forced.verdict == "gpu"
    assert (factor, value) in {(b.factor, b.answer) for b in forced.blockers}
    assert forced.score == decision.BLOCKED_SCORE


def test_other_framework_blocks_until_the_framework_check_passes() -> None:
    rec = decide(Answers(framework="other"))
    assert rec.verdict == "gpu" and rec.next_steps[0].startswith("Framework check")
    assert "xla_verified" not in {f.factor for f in rec.flips}  # unanswered: a next step, not a flip
    assert decide(Answers(framework="other", xla_verified="yes")).blockers == []


def test_other_framework_with_verified_xla_is_not_a_blocker() -> None:
    rec = decide(Answers(framework="other", xla_verified="yes"))
    assert rec.blockers == []
    assert {r.factor: r.leans for r in rec.reasons} == {"framework": "gpu", "xla_verified": "tpu"}


def test_no_tpu_side_blocker_exists() -> None:
    assert all(b.verdict == "gpu" for b in BLOCKERS.values())


def test_research_prototype_example_is_gpu() -> None:
    rec = decide(read_answers(EXAMPLES / "answers-research-prototype.json"))
    assert rec.verdict == "gpu" and rec.confidence == "high"
    # essential custom kernels, and PyTorch never run under XLA with no time to port (issue 19: the playbook's order)
    assert [b.factor for b in rec.blockers] == ["custom_ops", "porting_budget"]
    assert all(r.leans == "gpu" for r in rec.reasons)
    # changing shapes and a CUDA team, with XLA untested, weigh as one growing porting cost
    assert [r.factor for r in rec.reasons[:2]] == ["dynamic_shapes", "team"]
    assert all("one porting cost" in r.message for r in rec.reasons[:2])
    assert rec.reasons[2].factor == "stage"
    assert rec.unanswered == ["xla_verified", "bottleneck", "region", "capacity_held", "rental", "data_pipeline"]


def test_jax_llm_pretraining_example_is_tpu_with_high_confidence() -> None:
    rec = decide(read_answers(EXAMPLES / "answers-jax-llm-pretraining.json"))
    assert rec.verdict == "tpu" and rec.confidence == "high" and rec.score > 0.9
    assert rec.blockers == [] and rec.unanswered == []
    assert all(r.leans == "tpu" for r in rec.reasons)
    # only the hard constraints can turn such a run around
    assert {(f.factor, f.to) for f in rec.flips} == {
        ("xla_verified", "no"),
        ("custom_ops", "essential"),
        ("high_precision", "fp64"),
        ("deployment", "other_cloud"),
        ("region", "canada"),  # issue 33: the price table lists no TPU there
    }
    assert not any(step.startswith("Framework check") for step in rec.next_steps)


def test_mixed_example_is_either_and_lists_what_would_tip_it() -> None:
    answers = read_answers(EXAMPLES / "answers-mixed-unknowns.json")
    rec = decide(answers)
    assert rec.verdict == "either" and rec.confidence == "medium"
    assert {r.leans for r in rec.reasons} == {"gpu", "tpu"}
    flips = {f.factor: (f.from_, f.to, f.verdict) for f in rec.flips}
    assert all(getattr(answers, f) is not None for f in flips)
    assert "xla_verified" not in flips and "high_precision" not in flips  # unanswered: no flip
    assert flips["deployment"] == ("any_cloud", "google_cloud", "tpu")
    assert rec.next_steps[0].startswith("Framework check") and "torch_xla" in rec.next_steps[0]


#: answers that lean neither way: enough of them make an answer set full enough for a verdict (issue 19:
#: with fewer than five answers the verdict is "either" at low confidence unless a blocker decides).
NEUTRAL = {"workload": "training", "embeddings": "ordinary", "high_precision": "no"}


def test_playbook_stage_alone_leans_but_does_not_decide_for_tpu() -> None:
    exploring = decide(Answers(stage="exploring", architecture_changes="weekly", **NEUTRAL))
    assert exploring.verdict == "gpu" and exploring.confidence == "low"
    settled = decide(Answers(stage="production", architecture_changes="locked", **NEUTRAL))
    assert settled.verdict == "either" and settled.score > 0
    assert "not yet a verdict" in settled.reasons[0].message
    # one more answer for the TPU outside the playbook pair makes it a TPU verdict
    more = Answers(stage="production", architecture_changes="locked", matmul_share="dominant", **NEUTRAL)
    assert decide(more).verdict == "tpu"


def test_stage_and_architecture_do_not_add_up_as_independent_evidence() -> None:
    both = decide(Answers(stage="production", architecture_changes="locked", matmul_share="dominant"), flips=False)
    reasons = {r.factor: r for r in both.reasons}
    assert reasons["stage"].weight == RULES["stage"]["production"].weight
    assert reasons["architecture_changes"].weight == RULES["architecture_changes"]["locked"].weight * 0.5
    assert "Counted at half" in reasons["architecture_changes"].message
    # issue 33: the note names the question and the answer in words, not their ids
    assert "Project stage (Production" in reasons["architecture_changes"].message


def test_scale_batch_and_duration_are_combined_too() -> None:
    rec = decide(Answers(scale="massive", batch="large", duration="weeks"), flips=False)
    weights = {r.factor: r.weight for r in rec.reasons}
    assert weights == {"scale": 0.8, "duration": 0.3, "batch": 0.2}
    halves = [r for r in rec.reasons if "Counted at half" in r.message]
    assert {r.factor for r in halves} == {"duration", "batch"}
    # opposite directions are not merged: a small batch still counts in full against a massive model
    mixed = decide(Answers(scale="massive", batch="small"), flips=False)
    assert {r.factor: r.weight for r in mixed.reasons} == {"scale": 0.8, "batch": 0.3}


def test_tpu_confidence_stays_medium_until_the_framework_check_passes() -> None:
    strong = read_answers(EXAMPLES / "answers-jax-llm-pretraining.json")
    assert decide(strong).confidence == "high"
    for unverified in (None, "no"):
        rec = decide(_with(strong, xla_verified=unverified))
        assert rec.verdict != "tpu" or rec.confidence in ("medium", "low")
    # issue 33: with XLA untried the compatibility gate is open, and a TPU verdict is at most "low"
    unknown = decide(_with(strong, xla_verified=None))
    assert unknown.verdict == "tpu" and unknown.confidence == "low"


@PROPERTY
@given(answers_st)
def test_no_high_confidence_tpu_verdict_without_the_framework_check(answers: Answers) -> None:
    rec = decide(answers, flips=False)
    if rec.verdict == "tpu" and answers.xla_verified != "yes":
        assert rec.confidence != "high"


def test_small_batch_serving_is_not_pushed_to_the_factory_line() -> None:
    answers = Answers(
        workload="inference",
        scale="small",
        batch="small",
        deployment="google_cloud",
        stage="production",
        architecture_changes="locked",
        utilization="steady",
        matmul_share="dominant",
    )
    rec = decide(answers)
    assert rec.verdict != "tpu"
    reasons = {r.factor: r for r in rec.reasons}
    assert reasons["batch"].leans == "gpu" and "latency-bound" in reasons["batch"].message
    assert reasons["stage"].weight < RULES["stage"]["production"].weight
    assert reasons["utilization"].weight < decision._STEADY_SERVING.weight
    # the same answers for large-batch serving keep the playbook's weights
    large = decide(_with(answers, batch="large", scale="large"), flips=False)
    assert large.verdict == "tpu"
    assert {r.factor: r for r in large.reasons}["stage"].weight == RULES["stage"]["production"].weight


def test_sustained_serving_counts_for_steady_utilization() -> None:
    training = decide(Answers(workload="training", utilization="steady"), flips=False)
    serving = decide(Answers(workload="inference", utilization="steady"), flips=False)
    assert serving.score > training.score
    assert serving.reasons[0].factor == "utilization" and "serving" in serving.reasons[0].message


def test_training_length_counts_less_when_serving() -> None:
    training = decide(Answers(workload="training", duration="weeks"), flips=False)
    serving = decide(Answers(workload="inference", duration="weeks"), flips=False)
    assert training.reasons[0].weight == 2 * serving.reasons[0].weight


# --------------------------------------------------------------------------- answers that lean or block alone


def test_strict_fp32_leans_gpu_without_blocking() -> None:
    rec = decide(Answers(high_precision="fp32"), flips=False)
    assert rec.blockers == [] and [(r.factor, r.leans) for r in rec.reasons] == [("high_precision", "gpu")]
    assert "bfloat16 passes" in rec.reasons[0].message
    tpu_friendly = read_answers(EXAMPLES / "answers-jax-llm-pretraining.json")
    assert decide(_with(tpu_friendly, high_precision="fp32")).verdict == "tpu"
    assert decide(_with(tpu_friendly, high_precision="fp64")).verdict == "gpu"


def test_other_cloud_blocks_tpus_but_any_cloud_only_leans() -> None:
    other = decide(Answers(deployment="other_cloud"))
    assert [(b.factor, b.answer) for b in other.blockers] == [("deployment", "other_cloud")]
    assert "Google Cloud" in other.blockers[0].message
    anywhere = decide(Answers(deployment="any_cloud"))
    assert anywhere.blockers == [] and anywhere.reasons[0].leans == "gpu"


def test_ultra_large_embeddings_lean_tpu_and_soften_a_low_matmul_share() -> None:
    plain = decide(Answers(matmul_share="low"), flips=False)
    with_tables = decide(Answers(matmul_share="low", embeddings="ultra_large"), flips=False)
    assert with_tables.score > 0 > plain.score
    reasons = {r.factor: r for r in with_tables.reasons}
    assert reasons["embeddings"].leans == "tpu" and "ranking and recommendation" in reasons["embeddings"].message
    assert reasons["matmul_share"].weight < {r.factor: r for r in plain.reasons}["matmul_share"].weight
    assert decide(Answers(embeddings="ordinary"), flips=False).reasons == []


# --------------------------------------------------------------------------- wizard texts


def test_questions_cover_every_field_with_its_choices() -> None:
    assert list(QUESTIONS) == list(FACTORS)
    for factor, q in QUESTIONS.items():
        assert q.field == factor
        assert [value for value, _label in q.choices] == list(choices(factor))
        assert all(label.strip() for _value, label in q.choices)
        assert q.text.endswith("?") and q.help.strip() and "\n" not in q.help
        assert q.topic in _lesson_ids()[0]


def test_pages_follow_the_playbook_order_and_cover_every_field_once() -> None:
    assert [p.id for p in PAGES] == ["framework", "stage", "workload", "team", "cloud"]
    assert [f for p in PAGES for f in p.fields] == list(FACTORS)
    assert all(p.title.strip() and p.intro.strip() and "\n" not in p.intro for p in PAGES)


def test_no_text_names_the_incidental_url() -> None:
    needle = "not-a" + "-source"
    texts = [json.dumps(decide(Answers()).model_dump(mode="json", by_alias=True))]
    texts += [json.dumps(q._asdict()) for q in QUESTIONS.values()] + [json.dumps(p._asdict()) for p in PAGES]
    texts += [r.message for by_value in RULES.values() for r in by_value.values()]
    assert not any(needle in t for t in texts)


# --------------------------------------------------------------------------- next steps per verdict


def test_tpu_next_steps_name_generation_capacity_and_the_software_route() -> None:
    big = decide(read_answers(EXAMPLES / "answers-jax-llm-pretraining.json"))
    text = "\n".join(big.next_steps)
    assert "TPU v5p" in text and "TPU7x" in text and "consumption-options" in text
    assert "Software route for JAX" in text
    torch_serving = Answers(
        framework="pytorch",
        xla_verified="yes",
        workload="inference",
        scale="medium",
        batch="large",
        stage="production",
        matmul_share="dominant",
        deployment="google_cloud",
        utilization="steady",
    )
    rec = decide(torch_serving)
    assert rec.verdict == "tpu"
    steps = "\n".join(rec.next_steps)
    assert "TPU v6e" in steps and "pytorch/xla issue 9684" in steps and "torchax" in steps
    assert "training step" not in steps


@PROPERTY
@given(answers_st)
def test_next_steps_fit_the_verdict_and_the_workload(answers: Answers) -> None:
    rec = decide(answers, flips=False)
    text = "\n".join(rec.next_steps)
    if answers.workload == "inference":
        assert "training step" not in text
    if answers.architecture_changes == "locked" or answers.stage == "production":
        assert "Decide again once the architecture is locked" not in text
    if rec.verdict == "gpu":
        assert "Size GPU memory per model copy" in text
        blocked_by = {b.factor for b in rec.blockers}
        if blocked_by and blocked_by != {"framework"}:
            assert not rec.next_steps[0].startswith("Framework check")
        if answers.high_precision == "fp64":
            assert "FP64 work" in text and "never by BF16 peak" in text
    if rec.verdict == "tpu":
        assert "Capacity: TPUs are obtained only in Google Cloud" in text


def test_gpu_verdict_on_another_cloud_does_not_start_with_a_torch_xla_check() -> None:
    rec = decide(Answers(framework="pytorch", deployment="other_cloud", workload="inference", batch="small"))
    assert rec.verdict == "gpu"
    assert not any("torch_xla" in step for step in rec.next_steps)
    assert rec.next_steps[0].startswith("Size GPU memory") and any("FP8 or INT8" in s for s in rec.next_steps)


def test_example_small_batch_serving_is_not_sent_to_tpus() -> None:
    rec = decide(read_answers(EXAMPLES / "answers-small-batch-serving.json"))
    assert rec.verdict != "tpu"
    assert {r.factor: r.leans for r in rec.reasons}["batch"] == "gpu"


def test_example_recommender_with_ultra_large_embeddings_leans_tpu_despite_fp32() -> None:
    answers = read_answers(EXAMPLES / "answers-recsys-embeddings.json")
    rec = decide(answers)
    assert rec.verdict == "tpu" and rec.blockers == []
    reasons = {r.factor: r for r in rec.reasons}
    assert reasons["high_precision"].leans == "gpu" and reasons["embeddings"].leans == "tpu"
    assert decide(_with(answers, embeddings="ordinary")).score < rec.score


def test_reasons_say_what_the_lesson_says_and_no_more() -> None:
    """The lesson: switching cost 'might be higher than the hardware savings'; 'it is time to look at the TPU'."""
    assert "might be higher than the hardware savings" in RULES["team"]["cuda"].message
    assert "time to look at the TPU" in RULES["stage"]["production"].message
    texts = [r.message for by_value in RULES.values() for r in by_value.values()]
    texts += [b.message for b in BLOCKERS.values()]
    for text in texts:
        assert "sends to the factory line" not in text and "often larger" not in text
        assert "can outweigh the hardware savings" not in text and "for less" not in text
