"""The smallest PyTorch model: the framework's own memory and time in the model-check benchmark."""

import torch


def model():
    return torch.nn.Linear(4, 4)


def example_inputs():
    return (torch.ones(1, 4),)
