"""The model check on real model files of each class users bring (tests/data/models), each with its right answer.

Every check runs the real worker in its own process with the real torch or JAX: the counts, graphs and
lowerings asserted here are measured, not stubbed.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from gpu_tpu_app.core.modelcheck import Findings, ModelCheck
from gpu_tpu_app.probe.modelcheck_launch import run_check_detailed

MODELS = Path(__file__).resolve().parents[1] / "data" / "models"
#: make test installs torchax (the PyTorch route onto a TPU); where it is missing the route is "not installed"
TORCHAX = importlib.util.find_spec("torchax") is not None
_CACHE: dict[str, tuple[ModelCheck, Findings]] = {}

pytestmark = pytest.mark.slow


def check(name: str) -> ModelCheck:
    return checked(name)[0]


def checked(name: str) -> tuple[ModelCheck, Findings]:
    """Check one model file once per test session: the result and the worker's raw findings."""
    if name not in _CACHE:
        result, findings = run_check_detailed(MODELS / name, timeout_s=300, tpu_chips=0)  # compile: its own tests
        assert isinstance(result, ModelCheck), result
        assert findings is not None
        _CACHE[name] = (result, findings)
    return _CACHE[name]


def details(c: ModelCheck, answer: str) -> str:
    return " | ".join(f"{e.finding} {e.detail}" for e in c.evidence_for(answer))


def kind_share(f: Findings, kind: str) -> float:
    assert f.flops is not None
    return f.flops.kinds.get(kind, 0) / (f.flops.matmul + f.flops.other)


def test_transformer_encoder_in_eval_mode_counts_its_fused_layers() -> None:
    # eval mode runs nn.TransformerEncoderLayer as one fused kernel unless the fast path is off while counting
    c, f = checked("torch_encoder_eval.py")
    assert c.answers.matmul_share == "dominant"
    assert f.flops is not None
    # 4 layers of 8 x 128 tokens, d=256, ffn 1024: 2 x tokens x (4 d^2 + 2 d ffn) x 4 layers is matmul work alone
    tokens, d, ffn = 8 * 128, 256, 1024
    assert f.flops.matmul >= 0.9 * 2 * tokens * (4 * d * d + 2 * d * ffn) * 4
    assert c.answers.custom_ops == "none"
    assert c.level == ("lowered_for_tpu_torchax" if TORCHAX else "static_graph_captured")


def test_multihead_attention_is_counted() -> None:
    c, f = checked("torch_mha_pool.py")
    assert c.answers.matmul_share == "dominant"
    assert f.flops is not None
    # the attention layer alone: projections 4 x 2 x tokens x d^2, scores and sum 4 x 16 x 200^2 x d
    tokens, d = 16 * 200, 384
    assert f.flops.matmul >= 0.9 * (8 * tokens * d * d + 4 * 16 * 200 * 200 * d + 2 * 2 * tokens * d * 768)


def test_lstm_classifier_is_matrix_work_and_its_changing_lengths_recompile() -> None:
    c, f = checked("torch_lstm_classifier.py")
    assert c.answers.matmul_share == "dominant"
    assert f.flops is not None
    # 2 layers x 16 x 48 steps x 2 x (in + hidden) x 4 x hidden
    assert f.flops.matmul >= 0.9 * 16 * 48 * 2 * ((128 + 256) + (256 + 256)) * 4 * 256
    # dynamo skips nn.LSTM: the count comes from the static graph, one program per distinct input shape
    assert c.answers.dynamic_shapes == "yes"
    assert f.programs is not None and f.programs.programs == 3 and f.programs.shapes == 3


def test_gru_tagger_recompiles_per_length_never_reads_no() -> None:
    c = check("torch_gru_tagger.py")
    assert c.answers.matmul_share == "dominant"
    assert c.answers.dynamic_shapes == "yes"
    assert "3 distinct shapes" in details(c, "dynamic_shapes")


def test_cnn_shows_its_channels_last_layout_and_is_dominant() -> None:
    c, f = checked("torch_cnn_channels_last.py")
    assert "float32[8, 3, 32, 32] channels-last" in f.inputs
    assert "channels-last" in details(c, "framework")
    assert c.answers.matmul_share == "dominant"
    # torchax lowers it for TPU; without a TPU route a static graph alone leaves it unknown, never yes
    assert c.answers.xla_verified == ("yes" if TORCHAX else None)


def test_fno_ffts_are_counted_at_n_log_n_and_make_it_mixed() -> None:
    c, f = checked("torch_fno.py")
    share = kind_share(f, "FFTs")
    assert 0.25 <= share <= 0.6, share  # 8 rfft2/irfft2 of 64 x 64 over 32 channels at 2.5 N log2 N
    assert c.answers.matmul_share == "mixed"
    assert "FFTs" in details(c, "matmul_share")


def test_gaussian_process_linear_algebra_is_matrix_math() -> None:
    c, f = checked("torch_gp_regression.py")
    # Cholesky of 1024^2 (n^3/3), a solve against it and a 1024 x 256 triangular solve, the cdist products
    assert kind_share(f, "linear algebra") > 0.9
    assert f.flops is not None and f.flops.kinds["linear algebra"] >= 1024**3 // 3
    assert c.answers.matmul_share == "dominant"


@pytest.mark.skipif(not TORCHAX, reason="torchax is not installed")
@pytest.mark.parametrize(("name", "created"), [("torch_fno.py", 4), ("torch_gp_regression.py", 1)])
def test_tensors_the_model_creates_inside_forward_lower_through_torchax(name: str, created: int) -> None:
    # torch.zeros(...) per spectral layer (FNO), torch.eye(n) (GP): made on torchax's side while it traces, as
    # on a TPU with the default device set; before, torchax made them CPU tensors and refused to mix them
    c = check(name)
    assert c.level == "lowered_for_tpu_torchax"
    assert c.answers.xla_verified == "yes"
    assert f"{created} tensor(s) the model creates inside forward without a device" in details(c, "xla_verified")


def test_sparse_graph_model_shows_the_layout_is_not_xla_verified_and_counts_nnz() -> None:
    c, f = checked("torch_sparse_gcn.py")
    assert "sparse COO" in f.inputs and "nnz" in f.inputs
    assert c.answers.xla_verified == "no"
    assert "sparse" in details(c, "xla_verified") and "no XLA backend" in details(c, "xla_verified")
    nnz = int(f.inputs.split("nnz ")[1].split(")")[0])
    assert f.flops is not None
    assert f.flops.kinds["sparse matmul"] == 2 * nnz * 128 + 2 * nnz * 7


def test_torch_cond_model_is_checked_and_counts_the_branch_that_runs() -> None:
    c, f = checked("torch_cond_router.py")  # exit 2 before: "no rule registered for HigherOrderOperator cond"
    assert c.level == "static_graph_captured"  # torch.export keeps both branches in one graph
    assert [h.name for h in f.higher_order_ops] == ["cond"]
    assert f.flops is not None
    large = 2 * 64 * (256 * 2048 + 2048 * 256)  # the expert the example's positive mean picks
    assert large <= f.flops.matmul < large + 2 * 64 * 256 * 256
    assert c.answers.custom_ops == "none"  # cond is the framework's own operator, not a custom one
    assert c.answers.dynamic_shapes is None  # cond lowers to an XLA conditional: no data-dependent shape
    # torchax has no rule for cond: a limit of that route, said as such, never "no" for the model
    assert c.answers.xla_verified is None
    if TORCHAX:
        assert "cannot lower the higher-order operator cond" in details(c, "xla_verified")


def test_item_is_a_host_sync_and_data_dependent_not_a_custom_operator() -> None:
    c = check("torch_item_topk.py")
    assert c.answers.custom_ops == "none"
    assert c.answers.dynamic_shapes == "yes"
    assert "host sync" in details(c, "dynamic_shapes")
    assert "torch_item_topk.py:15" in details(c, "dynamic_shapes")


def test_jax_host_callback_counts_as_a_custom_op_and_fails_xla() -> None:
    c = check("jax_host_callback.py")
    assert c.answers.custom_ops == "some"
    assert "pure_callback" in details(c, "custom_ops") and "jax_host_callback.py:19" in details(c, "custom_ops")
    assert c.answers.xla_verified == "no"


def test_graph_with_unbacked_sizes_is_dynamic_and_the_level_says_so() -> None:
    c, f = checked("torch_nonzero_gather.py")
    assert f.static_graph is not None and f.static_graph.status == "ok" and f.static_graph.unbacked == ["u0"]
    assert c.level == "dynamic_graph_captured"
    assert c.answers.dynamic_shapes == "yes"
    assert "u0" in details(c, "dynamic_shapes")
    assert c.answers.xla_verified == ("no" if TORCHAX else None)  # torchax cannot trace the data-dependent size


def test_an_error_in_the_checks_own_counter_is_not_the_users_bug() -> None:
    # the model runs plainly; only under the check's dispatch mode does its helper raise
    c = check("torch_refuses_dispatch_modes.py")
    assert c.answers.matmul_share is None and c.answers.custom_ops is None
    text = details(c, "matmul_share")
    assert "inside the check, not in the model" in text and "guarded_gelu does not support" in text
    assert c.answers.framework == "pytorch"


def test_while_loop_body_is_counted_each_time_it_runs_and_checkpointing_is_followed() -> None:
    c, f = checked("torch_while_refine.py")
    assert [h.name for h in f.higher_order_ops] == ["while_loop"]
    assert f.flops is not None
    step, head = 2 * 64 * 128 * 128, 2 * 64 * (128 * 512 + 512 * 128)
    assert f.flops.matmul == 3 * step + head  # three trips through the body, the checkpointed head once
    assert c.answers.custom_ops == "none" and c.answers.matmul_share == "dominant"
    assert c.level == "static_graph_captured"


def test_flex_attention_is_followed_and_is_not_a_custom_operator() -> None:
    c, f = checked("torch_flex_attention.py")
    assert [h.name for h in f.higher_order_ops] == ["flex_attention"]
    assert f.flops is not None
    tokens, d = 2 * 128, 256
    projections = 2 * tokens * d * 3 * d + 2 * tokens * d * d
    assert f.flops.matmul >= projections + 4 * 2 * 128 * 128 * d  # scores and weighted sum of every head
    assert c.answers.custom_ops == "none"  # its autograd.Function is PyTorch's own
    assert c.level == "static_graph_captured"
