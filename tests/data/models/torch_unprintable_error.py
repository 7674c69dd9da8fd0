"""A PyTorch model file whose model() raises an exception that cannot be printed: its __str__ raises.

The check must blame the file (one line naming model(), exit 2), never itself (exit 1, a traceback).
"""

import torch


class ShapeMismatch(Exception):
    """An error type whose message is built lazily from a field the constructor forgot to set."""

    def __str__(self) -> str:
        return f"expected {self.expected} features"  # AttributeError: `expected` was never set


class Head(torch.nn.Module):
    def __init__(self, width: int) -> None:
        super().__init__()
        if width % 8:
            raise ShapeMismatch()
        self.proj = torch.nn.Linear(width, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.proj(x)


def model() -> torch.nn.Module:
    return Head(30)


def example_inputs() -> tuple[torch.Tensor]:
    return (torch.randn(2, 30),)
