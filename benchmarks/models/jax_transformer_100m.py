"""A ~100M-parameter decoder-only transformer for the model-check benchmark: the shipped example
examples/models/jax_transformer.py at the GPT-2-small shape (12 blocks, width 768, 12 heads,
vocabulary 8,192), one batch of 2 x 256 tokens. The example's own code builds it, so the benchmark
measures the architecture the tests check, only larger."""

import importlib.util
from pathlib import Path

_path = Path(__file__).resolve().parents[2] / "examples" / "models" / "jax_transformer.py"
_spec = importlib.util.spec_from_file_location("_jax_transformer_example", _path)
assert _spec is not None and _spec.loader is not None, _path
_example = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_example)
# the example reads its shape from these module globals when it builds the model and its inputs
_example.VOCAB, _example.WIDTH, _example.HEADS, _example.LAYERS, _example.LENGTH, _example.BATCH = (
    8_192,
    768,
    12,
    12,
    256,
    2,
)

params = _example.params
forward = _example.forward
example_inputs = _example.example_inputs
