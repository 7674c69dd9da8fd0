"""The playbook's order (issue 19): can this code run on a TPU at all, before how big it is."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gpu_tpu_app.commands.decide import render_text
from gpu_tpu_app.core.decision import FACTORS, RULES, Answers, choices, decide
from gpu_tpu_app.core.decision.answers import values_of
from gpu_tpu_app.core.decision.engine import _ENGLISH, _confidence, _evaluate, _verdict
from gpu_tpu_app.core.decision.rules import PORTING_GROWTH
from gpu_tpu_app.core.verdict_text import verdict_summary

PROPERTY = settings(max_examples=300, deadline=None, derandomize=True)


def _answers(**fixed: st.SearchStrategy) -> st.SearchStrategy[Answers]:
    fields = {f: st.none() | st.sampled_from(choices(f)) for f in FACTORS}
    return st.builds(Answers, **{**fields, **fixed})


#: A PyTorch mixture-of-experts pretraining job: custom kernels, dynamic routing, a CUDA team, XLA never
#: tried, and everything about its size and shape for the TPU.
MOE = {
    "framework": "pytorch",
    "custom_ops": "some",
    "dynamic_shapes": "yes",
    "team": "cuda",
    "stage": "production",
    "architecture_changes": "locked",
    "workload": "training",
    "scale": "massive",
    "batch": "large",
    "duration": "weeks",
    "matmul_share": "dominant",
    "deployment": "google_cloud",
    "utilization": "steady",
    "cost_focus": "hardware",
}


@PROPERTY
@given(
    _answers(
        framework=st.just("pytorch"),
        xla_verified=st.sampled_from((None, "no")),
        porting_budget=st.just("none"),
    )
)
def test_pytorch_untested_under_xla_with_no_porting_time_is_never_a_tpu_verdict(answers: Answers) -> None:
    rec = decide(answers)
    assert rec.verdict != "tpu"
    assert "porting_budget" in {b.factor for b in rec.blockers} or "xla_verified" in {b.factor for b in rec.blockers}
    # and nothing a flip proposes turns it into a TPU verdict while the gate holds
    for flip in rec.flips:
        if flip.verdict == "tpu":
            assert flip.factor in ("framework", "xla_verified", "porting_budget"), flip


def test_the_porting_gate_blocks_however_large_the_job() -> None:
    rec = decide(Answers(**MOE, porting_budget="none"))
    assert rec.verdict == "gpu" and rec.confidence == "high"
    (gate,) = [b for b in rec.blockers if b.factor == "porting_budget"]
    assert "cannot run on a TPU" in gate.message and "framework check first" in gate.message
    # it is the code as it stands that blocks: verified XLA, or time to port, lifts the gate
    assert not decide(Answers(**MOE, porting_budget="none", xla_verified="yes")).blockers
    assert not decide(Answers(**MOE, porting_budget="some")).blockers
    # JAX code is XLA-native: no time to port is then only a lean
    jax = decide(Answers(**{**MOE, "framework": "jax"}, porting_budget="none"))
    assert "porting_budget" not in {b.factor for b in jax.blockers}


def test_a_large_pytorch_job_with_an_untested_port_is_not_sent_to_tpus() -> None:
    for budget in (None, "some"):
        rec = decide(Answers(**MOE, porting_budget=budget))
        assert rec.verdict == "either" and rec.confidence == "low", budget
        assert [r.factor for r in rec.reasons[:3]] == ["dynamic_shapes", "team", "custom_ops"]
    # a dedicated porting effort makes the port affordable: at best a TPU verdict at low confidence
    assert decide(Answers(**MOE, porting_budget="ample")).confidence == "low"
    # once the framework check has passed, the same job is a TPU job
    assert decide(Answers(**MOE, xla_verified="yes", porting_budget="some")).verdict == "tpu"


def test_custom_ops_changing_shapes_and_a_cuda_team_weigh_as_one_growing_cost() -> None:
    parts = {"custom_ops": "some", "dynamic_shapes": "yes", "team": "cuda"}
    base = {"framework": "pytorch", "scale": "large"}
    weights = []
    for n in (1, 2, 3):
        chosen = dict(list(parts.items())[:n])
        rec = decide(Answers(**base, **chosen), flips=False)
        reasons = {r.factor: r for r in rec.reasons}
        times = 1 + PORTING_GROWTH * (n - 1) if n >= 2 else 1.0
        for factor, value in chosen.items():
            # worked example: with all three, each counts (1 + 0.5 x 2) = 2 times its own weight
            assert reasons[factor].weight == round(RULES[factor][value].weight * times, 3), (n, factor)
            assert ("one porting cost" in reasons[factor].message) == (n >= 2)
        weights.append(sum(reasons[f].weight for f in chosen))
    assert weights[0] < weights[1] < weights[2]
    assert round(weights[2], 3) == 3.4  # 2 x (0.5 + 0.6 + 0.6)
    # verified under XLA, the same answers are three independent leans again
    verified = decide(Answers(**base, **parts, xla_verified="yes"), flips=False)
    assert {r.factor: r.weight for r in verified.reasons if r.factor in parts} == {
        f: RULES[f][v].weight for f, v in parts.items()
    }


def test_a_few_answers_lean_either_at_low_confidence_unless_a_blocker_decides() -> None:
    for few in (
        {"framework": "jax", "scale": "massive", "matmul_share": "dominant"},
        {"framework": "jax", "scale": "massive", "matmul_share": "dominant", "duration": "weeks"},
        {"stage": "exploring", "architecture_changes": "weekly", "team": "cuda", "cost_focus": "engineering"},
    ):
        rec = decide(Answers(**few))
        assert rec.verdict == "either" and rec.confidence == "low", few
        leans = sum(r.weight if r.leans == "tpu" else -r.weight for r in rec.reasons)
        assert (rec.score > 0) == (leans > 0) and rec.score != 0, "the lean still shows in the score"
        # answered up to five, the same lean is a verdict
        more = {"deployment": "google_cloud", "utilization": "steady"} if leans > 0 else {"deployment": "any_cloud"}
        full = decide(Answers(**few, **dict(list(more.items())[: 5 - len(few)])))
        assert full.verdict == ("tpu" if leans > 0 else "gpu"), few
    blocked = decide(Answers(framework="jax", custom_ops="essential"))
    assert blocked.verdict == "gpu" and blocked.confidence == "high"


def test_next_steps_fit_the_answers() -> None:
    big = {"scale": "large", "batch": "large", "duration": "weeks", "matmul_share": "dominant"}
    # JAX code that already runs under XLA: no port to estimate
    jax = decide(Answers(framework="jax", xla_verified="yes", deployment="google_cloud", **big))
    assert jax.verdict == "tpu" and "porting" not in {s.id for s in jax.steps}
    assert "porting" in {s.id for s in decide(Answers(framework="pytorch", xla_verified="yes", **big)).steps}
    # a team with no time to port gets no torch_xla step, and no port to estimate
    no_time = decide(Answers(framework="pytorch", xla_verified="yes", porting_budget="none", **big))
    assert no_time.verdict != "gpu"
    assert not any("torch_xla" in line for line in no_time.next_steps)
    assert "porting" not in {s.id for s in no_time.steps}
    gated = decide(Answers(framework="pytorch", porting_budget="none", **big))
    assert gated.verdict == "gpu" and not any("torch_xla" in line for line in gated.next_steps)


#: a JAX training job that fits the factory line well, answered in full enough for a verdict
TPU_JOB = {
    "framework": "jax",
    "xla_verified": "yes",
    "scale": "large",
    "batch": "large",
    "matmul_share": "dominant",
    "deployment": "google_cloud",
    "utilization": "steady",
    "workload": "training",
    "custom_ops": "none",
    "dynamic_shapes": "no",
    "data_pipeline": "fast",
    "cost_focus": "hardware",
}


def test_contradictory_answers_are_named_and_lower_the_confidence() -> None:
    plain = decide(Answers(**TPU_JOB, duration="weeks", team="xla", stage="production", architecture_changes="locked"))
    assert plain.conflicts == [] and plain.confidence == "high"
    for change, pair in (
        ({"stage": "exploring", "architecture_changes": "locked"}, ["stage", "architecture_changes"]),
        ({"stage": "production", "architecture_changes": "weekly"}, ["stage", "architecture_changes"]),
        ({"scale": "small", "duration": "weeks"}, ["scale", "duration"]),
        ({"team": "cuda", "framework": "tensorflow"}, ["team", "framework"]),
    ):
        base = {**TPU_JOB, "duration": "weeks", "team": "xla", **change}
        rec = decide(Answers(**base))
        assert [c.factors for c in rec.conflicts] == [pair], change
        assert rec.conflicts[0].answers == [base[f] for f in pair]
        # one level lower than the same answers without the contradiction would give

        values = values_of(Answers(**base))
        ev = _evaluate(values, _ENGLISH)
        alone = _confidence(values, ev.score, _verdict(ev.score, ev.blocked), ev.blocked)
        lower = {"high": "medium", "medium": "low", "low": "low"}[alone]
        assert rec.confidence == lower, change
    # named where the verdict is: the summary the window and the report show, and the CLI text

    rec = decide(Answers(**{**TPU_JOB, "stage": "exploring", "architecture_changes": "locked"}))
    assert rec.conflicts[0].message in verdict_summary(rec)
    assert (
        "Project stage (Exploring: prototypes and experiments) and Architecture changes (It is locked)"
        in render_text(rec)
    )
    assert rec.model_dump(mode="json")["conflicts"][0]["id"] == "exploring_locked"


def test_strict_fp32_caps_a_tpu_verdict_at_medium_and_pilots_at_highest_precision() -> None:
    settled = {"duration": "weeks", "team": "xla", "stage": "production", "architecture_changes": "locked"}
    rec = decide(Answers(**TPU_JOB, **settled, high_precision="fp32"))
    assert rec.verdict == "tpu" and rec.confidence == "medium"
    (step,) = [s for s in rec.steps if s.id == "fp32_pilot"]
    assert "precision=HIGHEST" in step.text and "three to six bf16 passes" in step.text
    assert decide(Answers(**TPU_JOB, **settled, high_precision="no")).confidence == "high"
    assert "fp32_pilot" not in {s.id for s in decide(Answers(**TPU_JOB, high_precision="no")).steps}


def test_a_short_small_batch_fine_tune_of_a_fixed_model_is_not_the_playbooks_factory_case() -> None:
    lora = {
        "framework": "pytorch",
        "xla_verified": "yes",
        "stage": "production",
        "architecture_changes": "locked",
        "workload": "training",
        "scale": "medium",
        "batch": "small",
        "duration": "hours",
        "matmul_share": "dominant",
        "utilization": "sporadic",
        "deployment": "google_cloud",
    }
    rec = decide(Answers(**lora))
    assert rec.verdict != "tpu"
    reasons = {r.factor: r for r in rec.reasons}
    assert reasons["architecture_changes"].weight <= 0.15 and reasons["matmul_share"].weight <= 0.2
    assert "fine-tune of a fixed base model" in reasons["matmul_share"].message
    # the same design trained for weeks at a large batch is the playbook's case again
    long = decide(Answers(**{**lora, "duration": "weeks", "batch": "large", "utilization": "steady"}), flips=False)
    assert {r.factor: r.weight for r in long.reasons}["matmul_share"] == RULES["matmul_share"]["dominant"].weight


def test_a_pytorch_recommender_reaches_sparsecore_only_by_a_rewrite() -> None:
    recsys = {
        "embeddings": "ultra_large",
        "matmul_share": "low",
        "workload": "training",
        "scale": "large",
        "batch": "large",
        "duration": "days",
        "deployment": "google_cloud",
    }
    torch = decide(Answers(framework="pytorch", **recsys))
    tf = decide(Answers(framework="tensorflow", xla_verified="yes", **recsys))
    assert tf.verdict == "tpu" and torch.score < tf.score and torch.verdict != "tpu"
    embeddings = {r.factor: r for r in torch.reasons}["embeddings"]
    assert embeddings.leans == "gpu" and "TorchRec" in embeddings.message and "rewrite" in embeddings.message
    ids = [s.id for s in torch.steps]
    assert ids[0] == "rewrite_recommender" and "framework_check_pytorch" not in ids
    assert not any("torch_xla" in line for line in torch.next_steps)
    assert "JAX's SparseCore API" in torch.steps[0].text


def test_fft_sparse_and_gather_heavy_work_is_said_to_use_the_matrix_units_poorly() -> None:
    job = {**TPU_JOB, "framework": "jax", "duration": "weeks", "team": "xla"}
    rec = decide(Answers(**{**job, "matmul_share": "irregular"}), flips=False)
    reason = {r.factor: r for r in rec.reasons}["matmul_share"]
    assert reason.leans == "gpu" and "matrix units poorly" in reason.message and "FFTs" in reason.message
    assert rec.score < decide(Answers(**job), flips=False).score
    # embedding lookups are gathers that SparseCores take on: with ultra-large tables they count little
    tables = decide(Answers(**{**job, "matmul_share": "irregular", "embeddings": "ultra_large"}), flips=False)
    assert {r.factor: r.weight for r in tables.reasons}["matmul_share"] < reason.weight


def test_a_lean_without_enough_answers_says_so() -> None:
    few = decide(Answers(framework="jax", scale="massive", matmul_share="dominant"))
    assert "they lean but do not decide" in verdict_summary(few)
    assert "decide nothing yet" in render_text(few)
    full = decide(Answers(**TPU_JOB))
    assert "lean but do not decide" not in verdict_summary(full) and "decide nothing yet" not in render_text(full)


def test_the_headline_says_when_a_few_answers_only_lean() -> None:
    from gpu_tpu_app.core.verdict_text import HEADLINES, LEANS_ONLY_HEADLINE, headline

    assert headline(decide(Answers(framework="jax", scale="massive"))) == LEANS_ONLY_HEADLINE
    assert headline(decide(Answers(framework="jax", custom_ops="essential"))) == HEADLINES["gpu"]
    assert headline(decide(Answers(**TPU_JOB))) == HEADLINES["tpu"]


@PROPERTY
@given(_answers(porting_budget=st.just("none")))
def test_no_torch_xla_step_for_a_team_with_no_time_to_port(answers: Answers) -> None:
    rec = decide(answers, flips=False)
    assert not any("torch_xla" in line for line in rec.next_steps), rec.next_steps
    assert "porting" not in {s.id for s in rec.steps}
