"""A PyTorch model whose control flow depends on the data: an early exit when the activations are
small, and a selection of the positive entries whose count (and so the output shape) depends on the values."""

import torch
from torch import nn


class EarlyExit(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.first = nn.Linear(64, 64)
        self.second = nn.Linear(64, 64)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.first(x))
        if h.abs().mean() < 0.1:  # the branch taken depends on the values in x
            return h
        h = self.second(h)
        return h[h > 0]  # how many entries survive depends on the data too


def model() -> nn.Module:
    torch.manual_seed(0)
    return EarlyExit()


def example_inputs() -> tuple:
    return (torch.randn(16, 64),)


def other_inputs() -> list:
    return [(torch.randn(16, 64) * 0.01,), (torch.randn(4, 64),)]
