"""A PyTorch MLP whose activation is a custom operator registered with torch.library, as a hand-written
CUDA or C++ kernel would be, followed by a straight-through rounding written as a torch.autograd.Function.
XLA has no lowering for the custom operator: on a TPU it needs a rewrite or a CPU fallback."""

import torch
from torch import nn


@torch.library.custom_op("demo::fused_bias_gelu", mutates_args=())
def fused_bias_gelu(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    # stands in for a hand-written kernel; the reference math is the tanh GELU
    return torch.nn.functional.gelu(x + bias, approximate="tanh")


@fused_bias_gelu.register_fake
def _(x, bias):
    return torch.empty_like(x)


class StraightThroughRound(torch.autograd.Function):
    """Rounds in the forward pass, passes the gradient through unchanged."""

    @staticmethod
    def forward(ctx, x):
        return torch.round(x * 16) / 16

    @staticmethod
    def backward(ctx, grad):
        return grad


class CustomMLP(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.up = nn.Linear(256, 1024, bias=False)
        self.bias = nn.Parameter(torch.zeros(1024))
        self.down = nn.Linear(1024, 256)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = fused_bias_gelu(self.up(x), self.bias)
        return self.down(StraightThroughRound.apply(h))


def model() -> nn.Module:
    return CustomMLP()


def example_inputs() -> tuple:
    return (torch.randn(32, 256),)
