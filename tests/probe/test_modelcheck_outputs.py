"""Model outputs of any pytree-like shape and torch.compile'd modules: the check's harness takes them, so a
result never blames the model for the check's own limits (real worker, real torchax and jax)."""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from pathlib import Path
from typing import NamedTuple

import pytest

from gpu_tpu_app.core.modelcheck import ModelCheck
from gpu_tpu_app.probe.modelcheck_launch import run_check
from gpu_tpu_app.worker.modelcheck.outputs import MAX_LEAVES, TooManyLeaves, flatten, plain, unwrap_compiled

MODELS = Path(__file__).resolve().parents[1] / "data" / "models"


class _Leaf:
    def __init__(self, n: int) -> None:
        self.n = n


def _is_leaf(x: object) -> bool:
    return isinstance(x, _Leaf)


class _Pair(NamedTuple):
    a: object
    b: object


@dataclasses.dataclass
class _Out:
    logits: object
    pair: _Pair
    cache: object
    extra: dict


class _Cache:
    def __init__(self, *leaves: _Leaf) -> None:
        self.layers = [{"k": leaf} for leaf in leaves]
        self.owner = self  # a cycle: followed once
        self.count = 3


def test_flatten_follows_dataclasses_namedtuples_mappings_and_cache_objects_in_order() -> None:
    leaves = [_Leaf(i) for i in range(5)]
    out = _Out(leaves[0], _Pair(leaves[1], None), _Cache(leaves[2], leaves[3]), OrderedDict(z=leaves[4], s="text"))
    assert [x.n for x in flatten(out, _is_leaf)] == [0, 1, 2, 3, 4]
    assert not plain(out, _is_leaf) and plain((leaves[0], leaves[1]), _is_leaf) and plain({"a": leaves[0]}, _is_leaf)
    assert not plain(OrderedDict(a=leaves[0]), _is_leaf)  # a dict subclass (ModelOutput) is not a JAX pytree


def test_flatten_is_bounded() -> None:
    with pytest.raises(TooManyLeaves):
        flatten([_Leaf(i) for i in range(MAX_LEAVES + 1)], _is_leaf)
    deep: object = _Leaf(0)
    for _ in range(100):
        deep = [deep]
    assert flatten(deep, _is_leaf) == []  # deeper than MAX_DEPTH: not followed, never a RecursionError


def test_unwrap_compiled_gives_the_original_module() -> None:
    torch = pytest.importorskip("torch")
    net = torch.nn.Linear(2, 2)
    assert unwrap_compiled(torch.compile(net)) == (net, True)
    assert unwrap_compiled(net) == (net, False)


def _check(name: str, chips: int = 0) -> ModelCheck:
    result = run_check(MODELS / name, timeout_s=420, tpu_chips=chips)
    assert isinstance(result, ModelCheck), result
    return result


@pytest.mark.slow
@pytest.mark.parametrize("name", ["torch_pytree_output.py", "jax_pytree_output.py"])
def test_a_pytree_output_lowers_for_tpu_instead_of_being_blamed(name: str) -> None:
    c = _check(name)
    assert c.answers.xla_verified == "yes" and c.level in ("lowered_for_tpu", "lowered_for_tpu_torchax")


@pytest.mark.slow
def test_a_compiled_module_is_checked_through_its_original_module_and_says_so() -> None:
    c = _check("torch_compiled_module.py")
    assert c.answers.xla_verified == "yes" and c.answers.matmul_share == "dominant"
    (framework,) = c.evidence_for("framework")
    assert "torch.compile'd module: checked through its original module (model._orig_mod)" in framework.detail
