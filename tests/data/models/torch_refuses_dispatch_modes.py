"""A model whose helper refuses to run under a tensor dispatch mode (as some distributed and quantization
libraries do): it runs fine on its own, so a failure under the check's operator counter is the check's."""

import torch
from torch import nn
from torch.utils._python_dispatch import _get_current_dispatch_mode


def guarded_gelu(x):
    if _get_current_dispatch_mode() is not None:
        raise RuntimeError("guarded_gelu does not support tensor dispatch modes")
    return torch.nn.functional.gelu(x)


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.a = nn.Linear(128, 512)
        self.b = nn.Linear(512, 128)

    def forward(self, x):
        return self.b(guarded_gelu(self.a(x)))


def model():
    return Net().eval()


def example_inputs():
    return (torch.randn(32, 128),)
