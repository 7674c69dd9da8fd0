"""Serving to latency targets (issue 32): the largest batch per chip that meets a time per output token, the
time to the first token, tokens/s and $/1M tokens at that batch, the chips a request rate needs, and targets no
chip meets; each against hand arithmetic written here."""

from __future__ import annotations

import math

import pytest
from pydantic import ValidationError

from gpu_tpu_app.core.catalog import Catalog, load_catalog
from gpu_tpu_app.core.estimate import EstimateRequest, estimate
from tests.core.test_estimate import LLAMA_8B, _row


@pytest.fixture
def catalog() -> Catalog:
    return load_catalog()


#: Llama-3-8B-shaped, 8e9 parameters in bf16, context 2048, MFU 0.5 and 0.8 of nominal bandwidth
BASE = {"params": 8e9, "tokens": 1e9, "mode": "inference", "mfu": 0.5, "bw_share": 0.8, **LLAMA_8B}
PER_TOKEN = 2 * 8e9 + 4 * 32 * 2048 * 4096  # 17.07e9 FLOPs a token
KV_SEQUENCE = 2048 * 2 * 32 * 8 * 128 * 2  # 268.4 MB of KV cache a sequence
H100_FLOPS, H100_BW = 989e12 * 0.5, 3.35e12 * 0.8


def step_h100(batch: int) -> float:
    return max(batch * PER_TOKEN / H100_FLOPS, (16e9 + batch * KV_SEQUENCE) / H100_BW)


def test_largest_batch_that_meets_20_ms_per_token_on_an_h100(catalog: Catalog) -> None:
    req = EstimateRequest(tpot_ms=20, ttft_ms=200, output_len=256, **BASE)
    fit = _row(estimate(req, catalog), "h100-sxm").latency
    assert fit is not None and fit.met and fit.chips_per_copy == 1
    # bandwidth-bound: (16e9 + B x 268.4e6) / 2.68e12 <= 0.020 -> B <= (53.6e9 - 16e9) / 268.4e6 = 140.1
    expected = math.floor((0.020 * H100_BW - 16e9) / KV_SEQUENCE)
    assert expected == 140 and fit.batch == expected
    assert step_h100(140) <= 0.020 < step_h100(141)
    assert fit.tpot_ms == pytest.approx(step_h100(140) * 1e3)
    assert fit.tokens_per_s_chip == pytest.approx(140 / step_h100(140))  # about 7,000 tokens/s
    # the first token: a prompt of 2048 - 256 = 1792 tokens prefilled alone, compute-bound: 61.9 ms
    assert fit.ttft_ms == pytest.approx(1792 * PER_TOKEN / H100_FLOPS * 1e3)
    # memory: (80e9 - 1.2 x 16e9) / 268.4e6 = 226 sequences of KV cache fit beside the weights
    assert fit.max_batch_memory == math.floor((80e9 - 1.2 * 16e9) / KV_SEQUENCE) == 226
    assert "step(B) = max(B x" in fit.arithmetic and "= 226" in fit.arithmetic


def test_dollars_per_million_tokens_and_chips_for_a_request_rate(catalog: Catalog) -> None:
    req = EstimateRequest(tpot_ms=20, output_len=256, requests_per_s=50, prices={"h100-sxm": 3.0}, **BASE)
    fit = _row(estimate(req, catalog), "h100-sxm").latency
    assert fit is not None and fit.batch == 140
    tps = 140 / step_h100(140)
    assert fit.usd_per_mtok == pytest.approx(3.0 / 3600 / tps * 1e6)  # about $0.12
    ttft = 1792 * PER_TOKEN / H100_FLOPS
    per_copy = 1 / (ttft + 256 * step_h100(140) / 140)  # requests a second one H100 completes
    assert fit.requests_per_s_copy == pytest.approx(per_copy)
    assert fit.chips_for_rate == math.ceil(50 / per_copy)


def test_a_target_no_chip_meets_says_so_and_by_how_much(catalog: Catalog) -> None:
    req = EstimateRequest(tpot_ms=5, ttft_ms=10, output_len=256, **BASE)
    fit = _row(estimate(req, catalog), "h100-sxm").latency
    assert fit is not None and not fit.met and fit.batch is None and fit.tokens_per_s_chip is None
    at_one = step_h100(1) * 1e3  # 6.07 ms: the weights alone take 16e9 / 2.68e12 = 5.97 ms
    ttft = 1792 * PER_TOKEN / H100_FLOPS * 1e3
    assert fit.missed == [
        f"the first token takes {ttft:.3g} ms, {ttft - 10:.3g} ms over the 10 ms target",
        f"{at_one:.3g} ms per output token even at batch 1, {at_one - 5:.3g} ms over the 5 ms target",
    ]


def test_latency_inputs_are_checked() -> None:
    with pytest.raises(ValidationError, match="serving only"):
        EstimateRequest(params=8e9, tpot_ms=20)
    with pytest.raises(ValidationError, match="needs output_len"):
        EstimateRequest(params=8e9, tokens=1e6, mode="inference", requests_per_s=5)
    with pytest.raises(ValidationError, match="less than the context"):
        EstimateRequest(params=8e9, tokens=1e6, mode="inference", output_len=2048)


def test_cli_latency_table_and_errors(run_cli) -> None:
    code, out, err = run_cli(
        "estimate", "--params", "8B", "--inference", "--tokens", "1e9", "--tpot-ms", "20", "--output-len", "256",
        "--requests-per-s", "50", "--mfu", "0.5", "--bw-share", "0.8", "--layers", "32", "--width", "4096",
        "--heads", "32", "--kv-heads", "8",
    )  # fmt: skip
    assert code == 0 and err == ""
    h100 = next(line for line in out.splitlines() if line.strip().startswith("NVIDIA H100 SXM") and " ms " in line)
    assert " 140 " in h100 and f"{step_h100(140) * 1e3:.3g} ms" in h100
    assert "Latency targets (20 ms per output token; 50 requests/s of 256 output tokens)" in out
    code, _out, err = run_cli("estimate", "--params", "8B", "--tpot-ms", "20")
    assert code != 0 and "--tpot-ms: only with --inference" in err
    code, _out, err = run_cli("estimate", "--params", "8B", "--inference", "--tokens", "1e9", "--requests-per-s", "5")
    assert code != 0 and "--output-len: requests_per_s needs output_len" in err


def test_rules_across_inputs_name_their_field_and_speak_both_languages(run_cli) -> None:
    from gpu_tpu_app.core.estimate.rules import RuleError

    with pytest.raises(ValidationError) as caught:
        EstimateRequest(params=8e9, tokens=1e6, mode="inference", requests_per_s=5)
    rule = caught.value.errors()[0]["ctx"]["error"]
    assert isinstance(rule, RuleError) and rule.field == "output_len"
    assert rule.words("en") == str(rule) == "requests_per_s needs output_len: the tokens each request generates"
    assert rule.words("zh-Hans") == "请求率需要输出长度：每个请求生成的 token 数"
    # the command names the flag of the field and the rule in the language in use
    code, _out, err = run_cli("estimate", "--params", "8B", "--inference", "--tokens", "1e6", "--output-len", "100",
                              "--context", "64")  # fmt: skip
    assert code != 0 and "--output-len: output_len must be less than the context (64)" in err
