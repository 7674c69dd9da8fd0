"""model() returns a torch.compile'd module, as training scripts often keep it. Compiled code refuses the
check's dispatch modes; the check runs its original module (`_orig_mod`) and says so.

Work per call (batch 8, 128 -> 512 -> 512 -> 10): 2 x 8 x (128*512 + 512*512 + 512*10) = 5,300,224 FLOPs in
matrix multiplies (biases and ReLU left out).
"""

import torch


def model() -> torch.nn.Module:
    torch.manual_seed(0)
    net = torch.nn.Sequential(
        torch.nn.Linear(128, 512),
        torch.nn.ReLU(),
        torch.nn.Linear(512, 512),
        torch.nn.ReLU(),
        torch.nn.Linear(512, 10),
    ).eval()
    return torch.compile(net)


def example_inputs() -> tuple[torch.Tensor]:
    return (torch.randn(8, 128),)
