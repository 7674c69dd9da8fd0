"""A bidirectional GRU sequence tagger over feature vectors (speech frames), tagging each step."""

import torch
from torch import nn


class Tagger(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.rnn = nn.GRU(80, 192, num_layers=2, batch_first=True, bidirectional=True)
        self.proj = nn.Linear(384, 32)

    def forward(self, frames):
        h, _ = self.rnn(frames)
        return self.proj(h).log_softmax(-1)


def model():
    return Tagger().eval()


def example_inputs():
    return (torch.randn(8, 100, 80),)


def other_inputs():
    return [(torch.randn(8, n, 80),) for n in (60, 100, 140)]
