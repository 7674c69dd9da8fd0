"""Causal self-attention through torch.nn.attention.flex_attention (a higher-order operator) with a score mod."""

import torch
from torch import nn
from torch.nn.attention.flex_attention import flex_attention


def causal(score, b, h, q, k):
    return torch.where(q >= k, score, -float("inf"))


class Attn(nn.Module):
    def __init__(self, d: int = 256, heads: int = 4) -> None:
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        y = flex_attention(q, k, v, score_mod=causal)
        return self.out(y.transpose(1, 2).reshape(b, t, d))


def model():
    return Attn().eval()


def example_inputs():
    return (torch.randn(2, 128, 256),)
