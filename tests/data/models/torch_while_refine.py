"""An iterative refinement with torch.while_loop (three steps of a shared MLP) and an activation-checkpointed
block: higher-order operators whose body is counted as many times as it runs."""

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


class Refine(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.step = nn.Linear(128, 128)
        self.head = nn.Sequential(nn.Linear(128, 512), nn.GELU(), nn.Linear(512, 128))

    def forward(self, x):
        def cond(i, h):
            return i < 3

        def body(i, h):
            return i + 1, torch.tanh(self.step(h))

        _, h = torch._higher_order_ops.while_loop(cond, body, (torch.zeros((), dtype=torch.int64), x))
        return checkpoint(self.head, h, use_reentrant=False)


def model():
    return Refine().eval()


def example_inputs():
    return (torch.randn(64, 128),)
