"""Scores only the active rows (a boolean mask through nonzero): torch.export captures it with a size u0."""

import torch
from torch import nn


class ActiveRows(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.proj = nn.Linear(64, 64)

    def forward(self, x, active):
        rows = torch.nonzero(active).squeeze(1)
        return self.proj(x.index_select(0, rows)).sum(0)


def model():
    return ActiveRows().eval()


def example_inputs():
    return (torch.randn(256, 64), torch.rand(256) > 0.5)
