"""The TPU compile table's FLOPs against hand counts (each test model's docstring works its count out), with the
real TPU compiler: loop bodies multiplied by their trip counts, Pallas kernels compiled by Mosaic, a dynamic loop
flagged as a lower bound. Within 2x of the hand count for every generation."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.modelcheck import ModelCheck, render_text
from gpu_tpu_app.core.tpu_compile import table_rows
from gpu_tpu_app.probe.modelcheck_launch import run_check

pytestmark = pytest.mark.slow

MODELS = Path(__file__).resolve().parents[1] / "data" / "models"
#: FLOPs per forward pass counted by hand (matrix multiplies; see each file's docstring).
HAND = {
    "jax_scanned_stack.py": 92_274_688,
    "jax_pallas_matmul.py": 67_108_864,
    "jax_pytree_output.py": 4_194_304,
    "torch_pytree_output.py": 7_602_176,
    "torch_compiled_module.py": 5_300_224,
    "torch_float64_mlp.py": 393_216,
    "jax_shard_map_mesh.py": 134_217_728,
}
_CACHE: dict[str, ModelCheck] = {}


def check(name: str) -> ModelCheck:
    if name not in _CACHE:
        result = run_check(MODELS / name, timeout_s=420)
        assert isinstance(result, ModelCheck), result
        _CACHE[name] = result
    return _CACHE[name]


@pytest.mark.parametrize("name", sorted(HAND))
def test_tpu_flops_are_within_2x_of_the_hand_count_on_every_generation(name: str) -> None:
    tc = check(name).tpu_compile
    assert tc is not None and tc.status == "ok", tc
    for g in tc.generations:
        fwd = g.program("forward")
        assert fwd is not None and fwd.status == "compiled" and fwd.flops is not None, g
        assert HAND[name] / 2 <= fwd.flops <= HAND[name] * 2, (g.chip, fwd.flops, HAND[name])


def test_a_scanned_stack_multiplies_the_loop_bodies_and_keeps_xlas_own_figure() -> None:
    c = check("jax_scanned_stack.py")
    assert c.tpu_compile is not None
    for g in c.tpu_compile.generations:
        fwd = g.program("forward")
        assert fwd is not None and fwd.loop_trips == [18, 4]
        # XLA's cost_analysis() alone counts each body once: several times too few
        assert fwd.xla_flops is not None and fwd.xla_flops * 4 < HAND["jax_scanned_stack.py"]
    assert "times its trip count (18, 4)" in render_text(c)


def test_a_pallas_kernel_is_compiled_by_mosaic_not_its_interpreter() -> None:
    c = check("jax_pallas_matmul.py")
    assert c.tpu_compile is not None
    pallas = {g.chip: g.program("forward").pallas for g in c.tpu_compile.generations}  # type: ignore[union-attr]
    # one device per chip: Mosaic; two devices per chip (v4, TPU7x), the kernel cannot be split automatically:
    # the emulation, said with Mosaic's reason
    assert pallas["tpu-v5e"] == pallas["tpu-v6e"] == "mosaic"
    assert set(pallas.values()) <= {"mosaic", "emulated"}
    text = render_text(c)
    assert "Pallas kernel compiled by Mosaic for the TPU" in text
    (xla,) = [e for e in c.evidence_for("xla_verified") if e.finding.startswith("lowered for TPU")]
    assert "interpreter's emulation (interpret=True)" in xla.detail and "no custom calls" not in xla.detail


def test_a_loop_known_only_at_run_time_is_a_lower_bound_marked_in_the_table() -> None:
    c = check("jax_while_until_converged.py")
    assert c.tpu_compile is not None
    rows = table_rows(c.tpu_compile, load_catalog())
    assert rows and all(r.flops.startswith("≥") and r.step_time.startswith("≥") for r in rows)
    assert "lower bounds" in render_text(c)
    # the body (1,048,576 FLOPs in its matrix multiply) counted once: at least that
    assert all((g.program("forward").flops or 0) >= 1_048_576 for g in c.tpu_compile.generations)  # type: ignore[union-attr]


def test_a_float64_model_compiled_as_float32_says_so_and_its_precision_answer_follows_the_model() -> None:
    c = check("torch_float64_mlp.py")
    assert c.answers.high_precision == "fp64"  # the model asks for float64, whatever the compiler saw
    assert c.tpu_compile is not None
    assert {g.program("forward").compiled_dtype for g in c.tpu_compile.generations} == {"float32"}  # type: ignore[union-attr]
    rows = table_rows(c.tpu_compile, load_catalog(), float64=True)
    assert rows and not any(r.step_time.endswith("*") for r in rows)  # not the float64 emulation's mark
    text = render_text(c)
    assert "compiled in float32, not the float64 the model asks for" in text and "which TPUs emulate" not in text


def test_a_mesh_built_at_import_from_cpu_devices_is_given_the_topologys_tpu_devices() -> None:
    c = check("jax_shard_map_mesh.py")
    assert c.level == "compiled_for_tpu" and c.tpu_compile is not None
    assert {g.mesh for g in c.tpu_compile.generations} == {"given_tpu_devices"}
    assert "loaded it again with this topology's TPU devices as jax.devices()" in render_text(c)
