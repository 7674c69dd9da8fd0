"""A small decoder step whose forward returns what generation code returns: a dataclass holding the logits, a
namedtuple of hidden states and a key/value cache object of its own (tensors in its attributes, one list per
layer). None of these is a JAX pytree; the check flattens the output before lowering.

Work per call (batch 2, 16 tokens, width 64, vocabulary 256, 2 layers), multiply-adds x 2:
  per layer q, k, v, o projections: 4 x 2*32*64*64 = 1,048,576; scores q.k^T and probs.v: 2 x 2*2*16*16*64
  = 131,072 (one head of 64); MLP 64->256->64: 2 x 2*32*64*256 = 2,097,152  => 3,276,800 per layer, 6,553,600
  for 2; the head 64->256: 2*32*64*256 = 1,048,576. Total 7,602,176 FLOPs (element-wise work left out).
"""

from dataclasses import dataclass
from typing import NamedTuple

import torch


class Hidden(NamedTuple):
    first: torch.Tensor
    last: torch.Tensor


class LayerCache:
    """Keys and values of one layer, kept as attributes, as cache classes keep them."""

    def __init__(self) -> None:
        self.keys: torch.Tensor | None = None
        self.values: torch.Tensor | None = None


class StepCache:
    def __init__(self, layers: int) -> None:
        self.layers = [LayerCache() for _ in range(layers)]
        self.seen_tokens = 0


@dataclass
class StepOutput:
    logits: torch.Tensor
    hidden: Hidden
    cache: StepCache
    extras: dict


class Block(torch.nn.Module):
    def __init__(self, width: int) -> None:
        super().__init__()
        self.q = torch.nn.Linear(width, width, bias=False)
        self.k = torch.nn.Linear(width, width, bias=False)
        self.v = torch.nn.Linear(width, width, bias=False)
        self.o = torch.nn.Linear(width, width, bias=False)
        self.up = torch.nn.Linear(width, 4 * width, bias=False)
        self.down = torch.nn.Linear(4 * width, width, bias=False)

    def forward(self, x: torch.Tensor, cache: LayerCache) -> torch.Tensor:
        q, k, v = self.q(x), self.k(x), self.v(x)
        cache.keys, cache.values = k, v
        probs = torch.softmax(q @ k.transpose(1, 2) / 8.0, dim=-1)
        x = x + self.o(probs @ v)
        return x + self.down(torch.relu(self.up(x)))


class Decoder(torch.nn.Module):
    def __init__(self, vocab: int = 256, width: int = 64, layers: int = 2) -> None:
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, width)
        self.blocks = torch.nn.ModuleList(Block(width) for _ in range(layers))
        self.head = torch.nn.Linear(width, vocab, bias=False)

    def forward(self, tokens: torch.Tensor) -> StepOutput:
        cache = StepCache(len(self.blocks))
        x = first = self.embed(tokens)
        for block, layer in zip(self.blocks, cache.layers):
            x = block(x, layer)
        cache.seen_tokens = tokens.shape[1]
        return StepOutput(self.head(x), Hidden(first, x), cache, {"mean": x.mean(), "note": "not a tensor"})


def model() -> torch.nn.Module:
    torch.manual_seed(0)
    return Decoder().eval()


def example_inputs() -> tuple[torch.Tensor]:
    return (torch.randint(0, 256, (2, 16)),)
