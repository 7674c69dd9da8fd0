"""A mostly element-wise PyTorch model: a per-pixel colour transform with a few learned scalars, the kind
of work that leaves a TPU's matrix units idle."""

import torch
from torch import nn


class ToneMap(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.gain = nn.Parameter(torch.ones(3, 1, 1))
        self.gamma = nn.Parameter(torch.full((3, 1, 1), 2.2))
        self.mix = nn.Linear(3, 3)

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        x = torch.clamp(image * self.gain, 1e-6, None) ** (1.0 / self.gamma)
        x = x / (1.0 + x)  # Reinhard tone curve
        x = torch.where(x > 0.0031308, 1.055 * x.pow(1 / 2.4) - 0.055, 12.92 * x)
        x = torch.sigmoid(4.0 * (x - 0.5)) * torch.exp(-0.1 * x) + 0.05 * torch.sin(6.28 * x)
        mixed = self.mix(x.mean(dim=(-1, -2)))  # one tiny 3x3 colour mix per image
        return x * mixed[..., None, None]


def model() -> nn.Module:
    return ToneMap()


def example_inputs() -> tuple:
    return (torch.rand(4, 3, 256, 256),)
