"""A small PyTorch regression MLP kept in float64 throughout (weights and inputs), as scientific code often is.
torchax leaves jax_enable_x64 off, so the TPU compile sees float32: the table says so, and the precision answer
still follows the model (fp64).

Work per call (batch 16, 64 -> 64 -> 64 -> 64): 3 x 2*16*64*64 = 393,216 FLOPs in matrix multiplies (biases
and tanh left out).
"""

import torch


def model() -> torch.nn.Module:
    torch.manual_seed(0)
    return torch.nn.Sequential(
        torch.nn.Linear(64, 64),
        torch.nn.Tanh(),
        torch.nn.Linear(64, 64),
        torch.nn.Tanh(),
        torch.nn.Linear(64, 64),
    ).double()


def example_inputs() -> tuple[torch.Tensor]:
    return (torch.randn(16, 64, dtype=torch.float64),)
