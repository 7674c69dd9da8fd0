"""A gated residual block that picks its branch with torch.cond on the input's mean: a valid, exportable
PyTorch model whose higher-order operator torchax has no rule for. The check must say that is its own route's
limit (never crash, never blame the model).

Work per call (batch 4, width 256), either branch: 2*4*256*256 = 524,288 FLOPs in its matrix multiply.
"""

import torch


class Gate(torch.nn.Module):
    def __init__(self, width: int = 256) -> None:
        super().__init__()
        self.wide = torch.nn.Linear(width, width)
        self.narrow = torch.nn.Linear(width, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        def hot(h: torch.Tensor) -> torch.Tensor:
            return torch.relu(self.wide(h))

        def cold(h: torch.Tensor) -> torch.Tensor:
            return torch.tanh(self.narrow(h))

        return x + torch.cond(x.mean() > 0, hot, cold, (x,))


def model() -> torch.nn.Module:
    torch.manual_seed(0)
    return Gate().eval()


def example_inputs() -> tuple[torch.Tensor]:
    return (torch.randn(4, 256),)
