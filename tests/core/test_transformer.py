"""The transformer arithmetic behind the estimator: shape, experts, activations, layout."""

from __future__ import annotations

import pytest

from gpu_tpu_app.core import transformer
from gpu_tpu_app.core.transformer import Dims


@pytest.mark.parametrize(
    ("params", "dims"),
    [
        # L = round((N / (12 x 128^2))^(1/3)), d = sqrt(N / (12 L)) to a multiple of 8 heads
        (1e8, Dims(8, 1024, 8, 8)),
        (7e9, Dims(33, 4096, 32, 8)),
        (70e9, Dims(71, 9216, 72, 8)),
        (405e9, Dims(127, 16384, 128, 8)),
        (1e6, Dims(2, 192, 3, 3)),  # too narrow for 8 heads: heads of 64, one KV head each
    ],
)
def test_default_dims_follow_the_parameter_count(params: float, dims: Dims) -> None:
    assert transformer.default_dims(params) == dims
    got = transformer.default_dims(params)
    assert 12 * got.layers * got.width**2 == pytest.approx(params, rel=0.35)


def test_given_parts_are_kept() -> None:
    assert transformer.default_dims(7e9, width=4096) == Dims(35, 4096, 32, 8)  # 7e9 / (12 x 4096^2) = 34.8
    assert transformer.default_dims(7e9, layers=32, width=4096, heads=32, kv_heads=32) == Dims(32, 4096, 32, 32)
    assert transformer.default_dims(7e9, width=1000).heads == 125  # 1,000 = 125 heads of 8


def test_moe_split_and_decode_weights() -> None:
    split = transformer.moe_split(46.7e9, 12.9e9, 8, 2)
    assert split.per_expert == pytest.approx(33.8e9 / 6) and split.shared == pytest.approx(46.7e9 - 8 * 33.8e9 / 6)
    assert transformer.decode_weights(46.7e9, 12.9e9, split, 1) == pytest.approx(12.9e9)
    assert transformer.decode_weights(46.7e9, None, None, 64) == 46.7e9  # dense: every weight
    assert transformer.decode_weights(46.7e9, 12.9e9, None, 3) == pytest.approx(38.7e9)  # 3 x active, no sharing


def test_activation_bytes_per_mode() -> None:
    # one layer, 2,048 tokens, width 4,096, 32 heads. With the attention's scores kept (an unfused kernel):
    # s x h x (34 + 5 x 32 x 2048 / 4096) = 8.39M x 114; a fused (flash) kernel keeps none of them: 8.39M x 34
    sh = 2048 * 4096
    assert transformer.activation_bytes("none", 1, 2048, 4096, 32, 2048, attention_scores=True) == sh * 114
    assert transformer.activation_bytes("none", 1, 2048, 4096, 32, 2048) == sh * 34
    assert transformer.activation_bytes("selective", 1, 2048, 4096, 32, 2048) == sh * 34
    assert transformer.activation_bytes("full", 1, 2048, 4096, 32, 2048) == sh * 2 + sh * 34
    assert transformer.activation_bytes("full", 1, 2048, 4096, 32, 2048, attention_scores=True) == sh * 2 + sh * 114
    # top-2 experts double the MLP's 19: 11 + 4 + 38 = 53; fp32 doubles everything
    assert transformer.activation_bytes("selective", 1, 2048, 4096, 32, 2048, top_k=2) == sh * 53
    assert transformer.activation_bytes("selective", 1, 2048, 4096, 32, 2048, value_bytes=4.0) == sh * 68


def test_best_layout_and_tensor_limit() -> None:
    assert transformer.tensor_limit(8, 32) == 8 and transformer.tensor_limit(1, 32) == 1
    assert transformer.tensor_limit(72, 40) == 8 and transformer.tensor_limit(256, 12) == 4  # 8 does not divide 12
    assert transformer.tensor_limit(None, 32) == 1
    # 100 GB of state, 20 GB of activations, 40 GB chips, TP up to 2: 20/2 = 10 a chip, 100 / (2 x 30) = 1.7 -> 2
    layout = transformer.best_layout(100e9, {"selective": 20e9}, 40e9, 2)
    assert layout is not None and (layout.tensor, layout.shards, layout.chips) == (2, 2, 4)
    assert layout.per_chip == pytest.approx(100e9 / 4 + 10e9)
    assert transformer.best_layout(100e9, {"none": 90e9}, 40e9, 2) is None  # 45 GB a chip: nothing fits
