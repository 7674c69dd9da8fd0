"""A two-layer graph convolutional network over a sparse (COO) normalised adjacency matrix."""

import torch
from torch import nn


class GCN(nn.Module):
    def __init__(self, features: int = 64, hidden: int = 128, classes: int = 7) -> None:
        super().__init__()
        self.w1 = nn.Linear(features, hidden)
        self.w2 = nn.Linear(hidden, classes)

    def forward(self, adj, x):
        h = torch.relu(torch.sparse.mm(adj, self.w1(x)))
        return torch.sparse.mm(adj, self.w2(h))


def _adjacency(nodes: int = 2000, edges: int = 10000) -> torch.Tensor:
    g = torch.Generator().manual_seed(0)
    src = torch.randint(0, nodes, (edges,), generator=g)
    dst = torch.randint(0, nodes, (edges,), generator=g)
    index = torch.stack([torch.cat([src, dst]), torch.cat([dst, src])])
    values = torch.full((2 * edges,), 0.2)
    return torch.sparse_coo_tensor(index, values, (nodes, nodes)).coalesce()


def model():
    return GCN().eval()


def example_inputs():
    return (_adjacency(), torch.randn(2000, 64))
