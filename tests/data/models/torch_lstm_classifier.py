"""A text classifier: embedding, a two-layer LSTM, the last hidden state to 4 classes; batches of varying length."""

import torch
from torch import nn


class Classifier(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Embedding(5000, 128)
        self.rnn = nn.LSTM(128, 256, num_layers=2, batch_first=True)
        self.out = nn.Linear(256, 4)

    def forward(self, tokens):
        h, _ = self.rnn(self.embed(tokens))
        return self.out(h[:, -1])


def model():
    return Classifier().eval()


def example_inputs():
    return (torch.randint(0, 5000, (16, 48)),)


def other_inputs():
    return [(torch.randint(0, 5000, (16, n)),) for n in (32, 64, 48)]
