"""A model that picks one of two expert MLPs with torch.cond, on the mean of its input (export keeps both)."""

import torch
from torch import nn


class Router(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.small = nn.Sequential(nn.Linear(256, 256), nn.ReLU())
        self.large = nn.Sequential(nn.Linear(256, 2048), nn.ReLU(), nn.Linear(2048, 256))

    def forward(self, x):
        return torch.cond(x.mean() > 0, lambda t: self.large(t), lambda t: self.small(t), (x,))


def model():
    return Router().eval()


def example_inputs():
    return (torch.randn(64, 256).abs(),)  # positive mean: the large expert runs
