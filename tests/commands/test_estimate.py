"""`gpu-tpu-app estimate`: the flags for mixtures of experts, training memory, precision and bandwidth."""

from __future__ import annotations

import pytest

from gpu_tpu_app.core.estimate import Estimate


def test_cli_moe_and_training_layout(run_cli) -> None:
    code, out, err = run_cli(
        "estimate", "--params", "46.7B", "--active-params", "12.9B", "--experts", "8", "--top-k", "2",
        "--tokens", "1e12", "--chips", "64", "--format", "json",
    )  # fmt: skip
    assert code == 0 and err == ""
    parsed = Estimate.model_validate_json(out)
    assert parsed.request.active_params == 12.9e9 and parsed.moe is not None and parsed.moe.experts == 8
    code, out, _err = run_cli("estimate", "--params", "405B", "--chips", "16384", "--tokens", "15.6e12")
    h100 = next(line for line in out.splitlines() if line.startswith("NVIDIA H100 SXM"))
    # 146.5 GB of activations and logits over TP 2 leave 1.77 GB of the 75 GB a chip gives: FSDP 2048 (see
    # test_estimate_serving.test_405b_on_16384_h100_takes_the_fastest_layout_that_fits)
    assert "TP 2 x FSDP 2048 x DP 4 (no recompute)" in h100 and " 4096 " in h100
    assert "activations of one micro-batch" in out


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["--active-params", "8e9"], "--active-params"),  # more than --params 7e9
        (["--active-params", "2e9", "--experts", "8"], "--top-k"),
        (["--experts", "8", "--top-k", "2"], "--active-params"),
        (["--active-params", "2e9", "--experts", "4", "--top-k", "4"], "--top-k"),
        (["--micro-batch", "0"], "--micro-batch"),
        (["--inference", "--tokens", "1e9", "--micro-batch", "2"], "--micro-batch"),
        (["--inference", "--tokens", "1e9", "--checkpointing", "full"], "--checkpointing"),
        (["--bw-share", "0.7"], "--bw-share"),
        (["--inference", "--tokens", "1e9", "--bw-share", "1.5"], "--bw-share"),
        (["--aspect-ratio", "0"], "--aspect-ratio"),
        (["--strict-fp32", "--inference", "--tokens", "1e9", "--dtype", "int8"], "--dtype"),
    ],
)
def test_new_estimate_flags_are_checked(run_cli, argv: list[str], flag: str) -> None:
    code, out, err = run_cli("estimate", "--params", "7e9", *argv)
    assert code == 2 and out == ""
    assert f"{flag}:" in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
