"""Issue 33: the verdict's shape. Blockers that lift on evidence, compatibility gates before leans, caps
that ask for a pilot, conflicts found by rule, the bottleneck finding, regions, and steps that apply."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpu_tpu_app.core.decision import FACTORS, Answers, choices, decide
from gpu_tpu_app.core.decision.engine import compatibility_gates, pilot_caps
from gpu_tpu_app.core.decision.fields import applies, values_of
from gpu_tpu_app.core.decision.recommendation import Recommendation
from gpu_tpu_app.core.decision.regions import AREAS, area_of, offered, tpu_offered_in, where
from gpu_tpu_app.core.decision.rules import _CONFLICTS, BLOCK_LIFTS

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
PROPERTY = settings(max_examples=300, deadline=None, derandomize=True)
answers_st = st.builds(Answers, **{f: st.none() | st.sampled_from(choices(f)) for f in FACTORS})

#: a big, settled, steady Google Cloud job: the business answers that used to add up past compatibility.
BUSINESS = dict(
    stage="production",
    architecture_changes="locked",
    workload="training",
    scale="massive",
    batch="large",
    duration="weeks",
    matmul_share="dominant",
    deployment="google_cloud",
    utilization="steady",
    cost_focus="hardware",
    porting_budget="ample",
    data_pipeline="fast",
)


def _ids(rec: Recommendation) -> list[str]:
    return [step.id for step in rec.steps]


# --------------------------------------------------------------------------- 1. evidence-aware blockers


def test_pallas_kernels_lift_the_essential_custom_ops_blocker() -> None:
    jax_team = dict(BUSINESS, framework="jax", xla_verified="yes", team="xla", custom_ops="essential")
    cuda = decide(Answers(**jax_team, custom_ops_kind="cuda"))
    assert cuda.verdict == "gpu" and [b.factor for b in cuda.blockers] == ["custom_ops"]
    assert "Pallas" in cuda.blockers[0].message  # the blocker says what lifts it
    unstated = decide(Answers(**jax_team))
    assert [b.factor for b in unstated.blockers] == ["custom_ops"]  # hand-written CUDA is what the question meant
    pallas = decide(Answers(**jax_team, custom_ops_kind="pallas_xla"))
    assert pallas.blockers == [] and pallas.verdict == "tpu"
    reason = next(r for r in pallas.reasons if r.factor == "custom_ops")
    assert reason.leans == "tpu" and "Pallas" in reason.message


@pytest.mark.parametrize("key", sorted(BLOCK_LIFTS))
def test_every_liftable_blocker_lifts_on_each_answer_that_lifts_it(key: tuple[str, str]) -> None:
    factor, value = key
    base = {"framework": "pytorch", factor: value}
    assert factor in {b.factor for b in decide(Answers(**base), flips=False).blockers}
    for field, lifting in BLOCK_LIFTS[key]:
        for answer in lifting:
            if field == factor:
                continue  # the answer itself changed: not a lift
            rec = decide(Answers(**{**base, field: answer}), flips=False)
            assert factor not in {b.factor for b in rec.blockers}, (field, answer)


# --------------------------------------------------------------------------- 2. gates first, then leans


def test_pytorch_untried_dynamic_cuda_team_is_not_a_confident_tpu_however_big() -> None:
    rec = decide(Answers(**BUSINESS, framework="pytorch", dynamic_shapes="yes", team="cuda"))
    assert rec.verdict != "tpu" or rec.confidence == "low"
    assert compatibility_gates(values_of(Answers(framework="pytorch", dynamic_shapes="yes", team="cuda"))) == [
        "xla_verified",
        "dynamic_shapes",
        "team",
    ]


@PROPERTY
@given(answers_st)
def test_a_tpu_verdict_with_a_gate_open_is_low(answers: Answers) -> None:
    rec = decide(answers, flips=False)
    values = values_of(answers)
    if rec.verdict == "tpu" and compatibility_gates(values):
        assert rec.confidence == "low"
    if rec.verdict == "tpu" and pilot_caps(values):
        assert rec.confidence != "high"


def test_irregular_access_caps_at_medium_with_a_gather_pilot() -> None:
    clean = dict(BUSINESS, framework="jax", xla_verified="yes", team="xla", custom_ops="none", dynamic_shapes="no")
    assert decide(Answers(**clean)).confidence == "high"
    gnn = decide(Answers(**{**clean, "matmul_share": "irregular", "embeddings": "ordinary"}))
    if gnn.verdict == "tpu":
        assert gnn.confidence == "medium"
    assert "gather_pilot" in _ids(gnn) or gnn.verdict == "gpu"


def test_compiling_with_fallbacks_caps_at_medium_with_a_fallback_pilot() -> None:
    answers = dict(BUSINESS, framework="pytorch", xla_verified="with_fallbacks", team="xla", custom_ops="none")
    rec = decide(Answers(**answers, dynamic_shapes="no"))
    assert rec.verdict == "tpu" and rec.confidence == "medium"
    assert "fallback_pilot" in _ids(rec)
    clean = decide(Answers(**{**answers, "xla_verified": "yes"}, dynamic_shapes="no"))
    assert clean.confidence == "high" and "fallback_pilot" not in _ids(clean)


# --------------------------------------------------------------------------- 3. conflicts by rule


def test_conflicts_are_found_by_rule() -> None:
    assert set(_CONFLICTS) == {
        "exploring_locked",
        "production_weekly",
        "small_weeks",
        "massive_hours",
        "cuda_jax",
        "cuda_tensorflow",
    }
    rec = decide(Answers(**BUSINESS, framework="jax", team="cuda"))
    assert [c.id for c in rec.conflicts] == ["cuda_jax"]


def test_two_conflicts_make_the_verdict_either_low_and_ask_again() -> None:
    one = decide(Answers(**BUSINESS, framework="jax", xla_verified="yes", team="cuda"))
    assert one.verdict == "tpu" and len(one.conflicts) == 1
    two = decide(Answers(**{**BUSINESS, "duration": "hours"}, framework="jax", xla_verified="yes", team="cuda"))
    assert [c.id for c in two.conflicts] == ["massive_hours", "cuda_jax"]
    assert two.verdict == "either" and two.confidence == "low"
    assert "answer_again" in _ids(two)
    for flip in two.flips:  # each flip still re-runs true
        assert decide(Answers(**{**two_answers(), flip.factor: flip.to}), flips=False).verdict == flip.verdict


def two_answers() -> dict[str, str]:
    return {**BUSINESS, "duration": "hours", "framework": "jax", "xla_verified": "yes", "team": "cuda"}


def test_the_short_finetune_rule_does_not_fire_on_a_massive_weekly_job() -> None:
    from gpu_tpu_app.core.decision.engine import _short_finetune

    finetune = {f: None for f in FACTORS} | {"workload": "training", "duration": "hours", "batch": "small"}
    assert _short_finetune(finetune)
    assert not _short_finetune({**finetune, "scale": "massive"})
    assert not _short_finetune({**finetune, "architecture_changes": "weekly"})


# --------------------------------------------------------------------------- 4. regions and new answers


def test_regions_come_from_the_price_table() -> None:
    assert area_of("europe-west4") == "europe" and area_of("us-east-1") == "us" and area_of("ca-central-1") == "canada"
    for area in AREAS:
        places = where(area, tpu=True)
        assert all(area_of(place.split(" ", 1)[1]) == area for place in places)
        assert tpu_offered_in(area) == bool(places)
    assert not tpu_offered_in("canada") and offered("canada", tpu=False)
    assert tpu_offered_in("europe")


def test_a_region_without_tpus_blocks_them_with_that_reason() -> None:
    job = dict(BUSINESS, framework="jax", xla_verified="yes", team="xla")
    canada = decide(Answers(**job, region="canada"))
    assert canada.verdict == "gpu" and [b.factor for b in canada.blockers] == ["region"]
    assert "Canada" in canada.blockers[0].message
    assert decide(Answers(**job, region="europe")).verdict == "tpu"
    assert decide(Answers(**job, region="anywhere")).verdict == "tpu"


def test_capacity_already_held_leans_its_way() -> None:
    for held, leans in (("tpu", "tpu"), ("gpu", "gpu")):
        rec = decide(Answers(framework="jax", capacity_held=held))
        assert [r.leans for r in rec.reasons if r.factor == "capacity_held"] == [leans]


def test_follow_up_questions_are_open_only_after_their_answers() -> None:
    assert not applies("custom_ops_kind", {"custom_ops": "none"})
    assert applies("custom_ops_kind", {"custom_ops": "essential"})
    assert "serving_stack" not in decide(Answers(workload="training")).unanswered
    assert "serving_stack" in decide(Answers(workload="inference")).unanswered


# --------------------------------------------------------------------------- 6. the bottleneck, and steps that apply


@pytest.mark.parametrize(("bottleneck", "step"), [("cpu", "not_bottleneck_cpu"), ("input", "not_bottleneck_input")])
def test_not_the_bottleneck_comes_first_at_low_confidence(bottleneck: str, step: str) -> None:
    rec = decide(Answers(**BUSINESS, framework="jax", xla_verified="yes", team="xla", bottleneck=bottleneck))
    assert _ids(rec)[0] == step and rec.confidence == "low"
    busy = decide(Answers(**BUSINESS, framework="jax", xla_verified="yes", team="xla", bottleneck="accelerator"))
    assert not {"not_bottleneck_cpu", "not_bottleneck_input"} & set(_ids(busy))


def test_vllm_serving_goes_to_vllms_tpu_backend_with_no_port_to_estimate() -> None:
    serving = dict(
        framework="pytorch",
        workload="inference",
        serving_stack="vllm",
        scale="large",
        batch="large",
        stage="production",
        architecture_changes="locked",
        deployment="google_cloud",
        utilization="steady",
        matmul_share="dominant",
        xla_verified="yes",
    )
    rec = decide(Answers(**serving))
    assert rec.verdict == "tpu"
    assert "route_vllm" in _ids(rec) and "route_pytorch" not in _ids(rec) and "porting" not in _ids(rec)
    trt = decide(Answers(**{**serving, "serving_stack": "tensorrt_llm"}))
    assert "serving_port" in _ids(trt) and "route_vllm" not in _ids(trt)


def test_keras_code_that_runs_under_xla_has_no_port_to_estimate() -> None:
    rec = decide(Answers(**BUSINESS, framework="tensorflow", xla_verified="yes", team="general"))
    assert rec.verdict == "tpu" and "porting" not in _ids(rec)
    assert any("KERAS_BACKEND=jax" in step.text for step in rec.steps if step.id == "route_tensorflow")


_TPU_SIDE = ("generation_serving", "generation_large", "capacity", "route_pytorch", "route_jax", "route_tensorflow")

#: step id -> when it applies (an independent statement of each step's condition, from the answers and verdict).
APPLIES: dict[str, Callable[[dict[str, str | None], Recommendation], bool]] = {
    **{sid: (lambda v, r: r.verdict == "tpu") for sid in _TPU_SIDE},
    "route_vllm": lambda v, r: r.verdict == "tpu" and v["serving_stack"] == "vllm",
    "serving_port": lambda v, r: r.verdict != "gpu" and v["serving_stack"] in ("tensorrt_llm", "sglang"),
    "framework_check": lambda v, r: v["xla_verified"] is None,
    "framework_check_as_is": lambda v, r: v["xla_verified"] is None and v["porting_budget"] == "none",
    "framework_check_pytorch": lambda v, r: v["xla_verified"] is None and v["framework"] == "pytorch",
    "framework_check_jax": lambda v, r: v["xla_verified"] is None and v["framework"] == "jax",
    "framework_check_tensorflow": lambda v, r: v["xla_verified"] is None and v["framework"] == "tensorflow",
    "rewrite_recommender": lambda v, r: v["framework"] == "pytorch" and v["embeddings"] == "ultra_large",
    "custom_ops": lambda v, r: v["custom_ops"] == "some" and r.verdict != "gpu",
    "shapes": lambda v, r: v["dynamic_shapes"] == "yes" and r.verdict != "gpu",
    "pilot": lambda v, r: r.verdict != "gpu" and v["workload"] != "inference",
    "pilot_serving": lambda v, r: r.verdict != "gpu" and v["workload"] == "inference",
    "fp32_pilot": lambda v, r: r.verdict != "gpu" and v["high_precision"] == "fp32",
    "gather_pilot": lambda v, r: r.verdict != "gpu" and v["matmul_share"] == "irregular",
    "fallback_pilot": lambda v, r: r.verdict != "gpu" and v["xla_verified"] == "with_fallbacks",
    "data_pipeline": lambda v, r: v["data_pipeline"] != "fast" and v["workload"] != "inference",
    "queue": lambda v, r: (
        (r.verdict == "either" or v["burst_capacity"] == "yes") and v["deployment"] not in ("on_premises", "local")
    ),
    "spot": lambda v, r: v["rental"] == "spot" and v["deployment"] not in ("on_premises", "local"),
    "porting": lambda v, r: (
        r.verdict != "gpu"
        and v["porting_budget"] != "none"
        and not (v["framework"] in ("jax", "tensorflow") and v["xla_verified"] == "yes")
        and not (v["workload"] == "inference" and v["serving_stack"] in ("vllm", "jetstream"))
    ),
    # the idle reserved-slice warning: never to a Spot user
    "utilization": lambda v, r: r.verdict == "tpu" and v["utilization"] != "steady" and v["rental"] != "spot",
    "gpu_memory": lambda v, r: r.verdict == "gpu",
    "gpu_fp64": lambda v, r: r.verdict == "gpu" and v["high_precision"] == "fp64",
    "gpu_links": lambda v, r: (
        r.verdict == "gpu" and v["scale"] not in ("small", "medium") and v["deployment"] != "local"
    ),
    "gpu_quant": lambda v, r: r.verdict == "gpu" and v["workload"] in ("inference", "both"),
    "revisit": lambda v, r: r.verdict == "gpu" and v["architecture_changes"] != "locked",
    "gpu_choice": lambda v, r: r.verdict == "gpu",
    "aws_trainium": lambda v, r: v["deployment"] in ("other_cloud", "aws"),
    "answer": lambda v, r: bool(r.unanswered),
    "answer_again": lambda v, r: len(r.conflicts) >= 2,
    "not_bottleneck_cpu": lambda v, r: v["bottleneck"] == "cpu",
    "not_bottleneck_input": lambda v, r: v["bottleneck"] == "input",
}


def _check_steps_apply(answers: Answers) -> None:
    rec = decide(answers, flips=False)
    values = values_of(answers)
    for sid in _ids(rec):
        assert sid in APPLIES, f"step {sid} has no rule of when it applies"
        assert APPLIES[sid](values, rec), (sid, values)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("answers-*.json")), ids=lambda p: p.stem)
def test_every_step_of_every_example_applies(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    data.pop("schema_version", None)
    _check_steps_apply(Answers(**data))


@PROPERTY
@given(answers_st)
def test_every_step_applies_to_the_answers(answers: Answers) -> None:
    _check_steps_apply(answers)


def test_a_spot_user_gets_preemption_words_and_no_reserved_slice_warning() -> None:
    # a TPU job with idle time between runs: on demand or reserved, the idle-slice warning applies
    job = dict(BUSINESS, framework="jax", xla_verified="yes", utilization="sporadic")
    for rental in ("on_demand", "reserved"):
        rec = decide(Answers(**job, rental=rental))
        assert rec.verdict == "tpu" and "utilization" in _ids(rec) and "spot" not in _ids(rec), rental
    rec = decide(Answers(**job, rental="spot"))
    assert rec.verdict == "tpu" and "utilization" not in _ids(rec) and "spot" in _ids(rec)
    spot = next(step.text for step in rec.steps if step.id == "spot")
    assert "checkpoint" in spot and "goodput" in spot and "reserved" not in " ".join(rec.next_steps)
    # asked only for a cloud: one's own machines rent nothing
    assert "rental" not in decide(Answers(deployment="on_premises")).unanswered
    assert "rental" in decide(Answers(deployment="aws")).unanswered


def test_a_workstation_user_gets_no_data_centre_steps() -> None:
    # a large GPU job with short-notice capacity: in a cloud, NVLink boards / racks and quota and queues apply
    job = dict(framework="pytorch", custom_ops="essential", scale="large", burst_capacity="yes")
    cloud = decide(Answers(**job, deployment="any_cloud"))
    assert cloud.verdict == "gpu" and {"gpu_links", "queue"} <= set(_ids(cloud))
    local = decide(Answers(**job, deployment="local"))
    assert local.verdict == "gpu" and not {"gpu_links", "queue", "spot", "aws_trainium"} & set(_ids(local))
    assert [(b.factor, b.answer) for b in local.blockers] == [("custom_ops", "essential"), ("deployment", "local")]
    assert "queue" not in _ids(decide(Answers(**job, deployment="on_premises")))
