"""A 2-D Fourier neural operator (FNO): spectral convolutions via rfft2/irfft2 plus 1x1 convolutions."""

import torch
from torch import nn


class Spectral(nn.Module):
    def __init__(self, c: int, modes: int) -> None:
        super().__init__()
        self.modes = modes
        scale = 1 / (c * c)
        self.w = nn.Parameter(scale * torch.randn(c, c, modes, modes, dtype=torch.cfloat))

    def forward(self, x):
        b, c, h, w = x.shape
        f = torch.fft.rfft2(x)
        out = torch.zeros(b, c, h, w // 2 + 1, dtype=torch.cfloat)
        m = self.modes
        out[:, :, :m, :m] = torch.einsum("bixy,ioxy->boxy", f[:, :, :m, :m], self.w)
        return torch.fft.irfft2(out, s=(h, w))


class FNO(nn.Module):
    def __init__(self, c: int = 32, modes: int = 12, layers: int = 4) -> None:
        super().__init__()
        self.lift = nn.Conv2d(3, c, 1)
        self.spectral = nn.ModuleList(Spectral(c, modes) for _ in range(layers))
        self.pointwise = nn.ModuleList(nn.Conv2d(c, c, 1) for _ in range(layers))
        self.proj = nn.Conv2d(c, 1, 1)

    def forward(self, x):
        h = self.lift(x)
        for s, p in zip(self.spectral, self.pointwise):
            h = torch.nn.functional.gelu(s(h) + p(h))
        return self.proj(h)


def model():
    return FNO().eval()


def example_inputs():
    return (torch.randn(4, 3, 64, 64),)
