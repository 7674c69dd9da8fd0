"""A PyTorch model that needs float64: a stiff decay integrated with small explicit steps, where float32
round-off would swamp the answer. TPUs have no float64 arithmetic; on a TPU this runs emulated or not at all."""

import torch
from torch import nn


class DecaySolver(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.rates = nn.Parameter(torch.linspace(1e-3, 1e3, 128, dtype=torch.float64))

    def forward(self, y0: torch.Tensor) -> torch.Tensor:
        y = y0.to(torch.float64)
        dt = 1e-5
        for _ in range(20):
            y = y - dt * self.rates * y
        return y


def model() -> nn.Module:
    return DecaySolver()


def example_inputs() -> tuple:
    return (torch.ones(32, 128, dtype=torch.float64),)
