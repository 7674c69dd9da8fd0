"""A model built from a third-party layer package (gpu_tpu_demo_layers) that the app's own Python lacks."""

import torch
from gpu_tpu_demo_layers import GatedMLP
from torch import nn


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.blocks = nn.Sequential(GatedMLP(256, 1024), GatedMLP(256, 1024))

    def forward(self, x):
        return self.blocks(x)


def model():
    return Net().eval()


def example_inputs():
    return (torch.randn(16, 256),)
