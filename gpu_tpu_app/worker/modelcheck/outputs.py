"""What the model returns and what model() returns, made into what the TPU routes can take.

- A model's output may be any pytree-like shape: a dataclass, a Hugging Face `ModelOutput` (an ordered dict
  with a KV cache object inside), a namedtuple, a dict, a cache object with tensors in its attributes. Neither
  JAX nor torchax takes such an object as a program's output, and the check's harness, not the model, then
  failed. `flatten` makes any of them a flat list of its array leaves (in a fixed order), bounded; `FlatForward`
  (PyTorch) and `flat_forward` (JAX) wrap the forward pass so that what reaches the compiler is that list.
- A `torch.compile`d module (`OptimizedModule`) cannot run under the check's dispatch modes (compiled code
  refuses them); `unwrap_compiled` gives its original module (`_orig_mod`), which is the same model, and the
  check says it did so.

Standard library only at import (torch and jax are passed in): this module may run in the user's interpreter.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

#: how deep `flatten` follows containers, and how many leaves it takes at most.
MAX_DEPTH = 12
MAX_LEAVES = 10_000


class TooManyLeaves(ValueError):
    """The output has more array leaves than the check follows (MAX_LEAVES)."""


def flatten(obj: Any, is_leaf: Callable[[Any], bool]) -> list[Any]:
    """The array leaves of `obj` in order: containers (dict and Mapping values in key order as stored, lists,
    tuples and namedtuples, dataclass fields, the attributes of any other object) are followed to MAX_DEPTH;
    anything that is neither a leaf nor a container (None, numbers, strings) is left out."""
    out: list[Any] = []
    seen: set[int] = set()

    def walk(x: Any, depth: int) -> None:
        if is_leaf(x):
            if len(out) >= MAX_LEAVES:
                raise TooManyLeaves(f"the model's output has more than {MAX_LEAVES} arrays")
            out.append(x)
            return
        if depth >= MAX_DEPTH or x is None or isinstance(x, (str, bytes, int, float, complex, bool)):
            return
        if id(x) in seen:  # a cache that points back at its owner
            return
        seen.add(id(x))
        if isinstance(x, Mapping):
            items: Any = list(x.values())
        elif isinstance(x, (list, tuple)):
            items = list(x)
        elif dataclasses.is_dataclass(x) and not isinstance(x, type):
            items = [getattr(x, f.name, None) for f in dataclasses.fields(x)]
        elif hasattr(x, "__dict__") and not isinstance(x, type) and not callable(x):
            items = list(vars(x).values())
        else:
            return
        for item in items:
            walk(item, depth + 1)

    walk(obj, 0)
    return out


def plain(obj: Any, is_leaf: Callable[[Any], bool]) -> bool:
    """Whether an output is already what the routes take: one array, or a tuple/list/plain dict of arrays."""
    if is_leaf(obj):
        return True
    if type(obj) in (tuple, list):
        return all(is_leaf(x) for x in obj)
    if type(obj) is dict:
        return all(is_leaf(x) for x in obj.values())
    return False


def unwrap_compiled(model: Any) -> tuple[Any, bool]:
    """The original module of a `torch.compile`d one (torch._dynamo's OptimizedModule keeps it as `_orig_mod`),
    and whether it was one."""
    inner = getattr(model, "_orig_mod", None)
    if inner is not None and type(model).__name__ == "OptimizedModule":
        return inner, True
    return model, False


def flat_forward_module(torch: Any, model: Any) -> Any:
    """`model` wrapped so that its forward returns a tuple of its output's tensors (a torch.nn.Module)."""

    class FlatForward(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, *xs: Any) -> Any:
            out = self.model(*xs)
            if plain(out, _is_tensor(torch)):
                return out
            return tuple(flatten(out, _is_tensor(torch)))

    return FlatForward()


def _is_tensor(torch: Any) -> Callable[[Any], bool]:
    return lambda x: isinstance(x, torch.Tensor)


def flat_forward(jax: Any, forward: Callable[..., Any]) -> Callable[..., Any]:
    """A JAX forward pass whose output is any pytree-like object, returning the list of its arrays instead."""

    def is_leaf(x: Any) -> bool:
        return isinstance(x, jax.Array) or (hasattr(x, "shape") and hasattr(x, "dtype") and hasattr(x, "aval"))

    def wrapped(*args: Any) -> Any:
        out = forward(*args)
        try:
            jax.tree_util.tree_structure(out)
            leaves = jax.tree_util.tree_leaves(out)
            if all(is_leaf(x) for x in leaves):
                return out  # a pytree JAX knows: kept as it is
        except Exception:
            pass
        return flatten(out, is_leaf)

    return wrapped
