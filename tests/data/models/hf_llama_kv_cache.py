"""A tiny Hugging Face causal language model built from a config (nothing is downloaded): Llama layout, 2 layers,
width 64, 4 heads of 16 (2 key/value heads), MLP 64->128->64 (SiLU-gated), vocabulary 256, untied head. Its forward
asks for the cache (use_cache=True), so it returns the library's ModelOutput (CausalLMOutputWithPast) holding the
logits and a DynamicCache of keys and values per layer - neither is a JAX pytree; the check flattens it.

Work per call (batch 2, 16 tokens = 32 token rows), multiply-adds x 2:
  per layer, projections: q 64x64, k 64x32, v 64x32, o 64x64 = 12,288 weights; MLP gate 64x128, up 64x128,
  down 128x64 = 24,576 weights; 36,864 weights x 2 x 32 rows = 2,359,296
  per layer, attention: scores q.k^T and probs.v, 2 x (2 x batch 2 x heads 4 x 16 x 16 x 16) = 131,072
  => 2,490,368 per layer, 4,980,736 for 2 layers; the head 64->256: 2 x 32 x 64 x 256 = 1,048,576.
  Total 6,029,312 FLOPs (norms, rotary, softmax and other element-wise work left out).
"""

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch
from transformers import LlamaConfig, LlamaForCausalLM


def model() -> torch.nn.Module:
    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=256,
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=64,
        tie_word_embeddings=False,
        use_cache=True,
    )
    config._attn_implementation = "eager"
    return LlamaForCausalLM(config).eval()


def example_inputs() -> tuple[torch.Tensor]:
    return (torch.randint(0, 256, (2, 16)),)
