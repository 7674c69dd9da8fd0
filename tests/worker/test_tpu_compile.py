"""The model check's TPU compile step with the real TPU compiler (libtpu, installed by `make test`) on this CPU host.

Each test runs the whole check in a worker process, as the CLI and the window do; the worker compiles in a child
process of its own for the catalogue's TPU generations. Model files: tests/data/models/ and examples/models/.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gpu_tpu_app import cli
from gpu_tpu_app.core.catalog import load_catalog
from gpu_tpu_app.core.modelcheck import HIGH_PRECISION_FP64, ModelCheck, level_text, render_text
from gpu_tpu_app.core.tpu_compile import GenerationCompile, TpuCompile, roofline, table_rows
from gpu_tpu_app.probe.modelcheck_launch import run_check
from gpu_tpu_app.worker.tpu_compile import slice_shape, topology_name

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "models"
EXAMPLES = ROOT / "examples" / "models"
CATALOG = load_catalog()
_CACHE: dict[tuple[str, int], ModelCheck] = {}


def check(path: Path, chips: int = 1) -> ModelCheck:
    key = (str(path), chips)
    if key not in _CACHE:
        result = run_check(path, timeout_s=420, tpu_chips=chips)
        assert isinstance(result, ModelCheck), result
        _CACHE[key] = result
    return _CACHE[key]


def compiled(c: ModelCheck) -> TpuCompile:
    assert c.tpu_compile is not None and c.tpu_compile.status == "ok", c.tpu_compile
    return c.tpu_compile


def gen(c: ModelCheck, chip_id: str) -> GenerationCompile:
    g = compiled(c).generation(chip_id)
    assert g is not None, f"{chip_id} not compiled for: {compiled(c).generations}"
    return g


def chip(chip_id: str):  # type: ignore[no-untyped-def]
    return next(c for c in CATALOG.chips if c.id == chip_id)


def test_slice_shapes_follow_the_generation_s_torus() -> None:
    assert [topology_name("v5e", n, 2)[0] for n in (1, 4, 8, 16)] == ["v5e:1x1", "v5e:2x2", "v5e:2x4", "v5e:4x4"]
    assert [topology_name("v5p", n, 3)[0] for n in (1, 4, 8, 16)] == [
        "v5p:1x1x1",
        "v5p:2x2x1",
        "v5p:2x2x2",
        "v5p:2x2x4",
    ]
    assert topology_name("v5e", 1, 2)[1] == (1, 1, 1) and topology_name("v6e", 8, 2)[1] == (2, 2, 1)
    with pytest.raises(ValueError):
        slice_shape(6, 2)


def test_20_gib_of_weights_fit_a_v6e_but_not_a_v5e_in_the_compiler_s_own_words() -> None:
    c = check(DATA / "tpu_weights_20gib.py")
    v5e, v6e = gen(c, "tpu-v5e"), gen(c, "tpu-v6e")
    assert v5e.status == "does_not_fit"
    fwd = v5e.program("forward")
    assert fwd is not None and "RESOURCE_EXHAUSTED" in fwd.detail and "exceeds available HBM (15.75G)" in fwd.detail
    assert v6e.status == "compiled"
    ok = v6e.program("forward")
    assert ok is not None and ok.argument_bytes is not None and ok.argument_bytes >= 20 * 2**30
    need = ok.hbm_bytes()
    assert need is not None and 20 * 2**30 <= need <= chip("tpu-v6e").memory_bytes()
    # one matmul of (8 x 5Ki) @ (5Ki x 1Mi): 2 * 8 * 5Ki * 1Mi flops, and the weights read once
    assert ok.flops == pytest.approx(2 * 8 * 5 * 1024 * 1024 * 1024, rel=0.05)
    roof = roofline(ok, chip("tpu-v6e"))
    assert roof is not None and roof.bound == "memory"  # 20 GiB read for 86 GFLOP
    assert roof.seconds == pytest.approx(ok.bytes_accessed / 1638e9)  # type: ignore[operator]
    assert c.level == "compiled_for_tpu" and "TPU v6e" in level_text(c) and "TPU v5e" not in level_text(c)
    rows = {r.generation: r for r in table_rows(compiled(c), CATALOG)}
    assert rows["TPU v5e"].fits == "no (RESOURCE_EXHAUSTED)" and rows["TPU v6e"].fits.startswith("yes: 20")


def test_49_gib_compile_for_v5p_and_fail_on_v6e_for_hbm_forward_and_training_step() -> None:
    c = check(DATA / "tpu_weights_49gib.py")
    v5p, v6e = gen(c, "tpu-v5p"), gen(c, "tpu-v6e")
    assert v5p.status == "compiled"
    fwd, train = v5p.program("forward"), v5p.program("train_step")
    assert fwd is not None and train is not None and train.status == "compiled"
    assert fwd.flops is not None and train.flops is not None and train.flops > 2 * fwd.flops  # backward pass
    assert train.alias_bytes is not None and train.alias_bytes >= 48 * 2**30  # the weights updated in place
    assert v6e.status == "does_not_fit" and "exceeds available HBM (31.25G)" in v6e.reason()
    assert "tpu-v5e" not in [g.chip for g in compiled(c).generations if g.status == "compiled"]
    xla = " ".join(e.finding + " " + e.detail for e in c.evidence_for("xla_verified"))
    assert "v5p:1x1x1" in xla and "v6e:1x1: JaxRuntimeError: RESOURCE_EXHAUSTED" in xla


def test_a_2x2_slice_splits_the_batch_so_each_chip_does_a_quarter_of_the_work() -> None:
    one, four = check(EXAMPLES / "jax_transformer.py", 1), check(EXAMPLES / "jax_transformer.py", 4)
    a, b = gen(one, "tpu-v5e"), gen(four, "tpu-v5e")
    assert (a.topology, b.topology) == ("v5e:1x1", "v5e:2x2") and b.devices == 4
    assert "split along their first axis over 4 devices" in b.sharding
    fa, fb = a.program("forward"), b.program("forward")
    assert fa is not None and fb is not None and fa.flops and fb.flops
    assert fb.flops == pytest.approx(fa.flops / 4, rel=0.1)
    assert fb.argument_bytes == pytest.approx(fa.argument_bytes, rel=0.05)  # weights replicated on every chip
    assert b.program("train_step") is not None  # the example's loss() is compiled as a training step


def test_tpu7x_lists_two_devices_per_chip_and_its_figures_are_per_chip() -> None:
    c = check(EXAMPLES / "jax_transformer.py", 1)
    g = gen(c, "tpu7x")
    assert g.status == "compiled" and g.chips == 1 and g.devices == 2 and g.device_kind == "TPU7x"
    assert "2 devices per chip, figures summed per chip" in g.sharding
    v5e = gen(c, "tpu-v5e").program("forward")
    fwd = g.program("forward")
    assert fwd is not None and v5e is not None and fwd.flops == pytest.approx(v5e.flops, rel=0.1)


def test_a_pytorch_model_compiles_through_torchax_with_its_training_step() -> None:
    c = check(EXAMPLES / "torch_transformer.py")
    tc = compiled(c)
    assert tc.route.startswith("torchax.extract_jax")
    v5e = gen(c, "tpu-v5e")
    fwd, train = v5e.program("forward"), v5e.program("train_step")
    assert fwd is not None and fwd.status == "compiled" and train is not None and train.status == "compiled"
    assert fwd.flops and train.flops and train.flops > 2 * fwd.flops * 0.9  # forward, backward, update (63 tokens)
    assert c.level == "compiled_for_tpu" and c.answers.xla_verified == "yes"
    assert "torchax 0.0.14" in c.evidence_for("framework")[0].detail


def test_a_float64_model_compiles_emulated_and_its_roofline_is_marked() -> None:
    c = check(EXAMPLES / "jax_eigh_float64.py")
    assert c.answers.high_precision == HIGH_PRECISION_FP64
    g = gen(c, "tpu-v5e")
    assert g.status == "compiled"
    text = render_text(c)
    assert "which TPUs emulate" in text and "*" in text.split("Compiled for TPU generations")[1]


def test_the_compiler_s_process_dying_is_a_reason_per_generation_not_a_failed_check(tmp_path: Path) -> None:
    marker = tmp_path / "loaded-once"
    model = tmp_path / "dies.py"
    model.write_text(
        "import os, signal, pathlib\nimport jax.numpy as jnp\n\n"
        f"MARK = pathlib.Path({str(marker)!r})\n"
        "if MARK.exists():  # the second load is the TPU compiler's process: end it as a crashing runtime would\n"
        "    os.kill(os.getpid(), signal.SIGSEGV)\n"
        "MARK.write_text('1')\n\n"
        "def params():\n    return {'w': jnp.ones((8, 8))}\n\n"
        "def forward(p, x):\n    return x @ p['w']\n\n"
        "def example_inputs():\n    return (jnp.ones((4, 8)),)\n"
    )
    c = run_check(model, timeout_s=300)
    assert isinstance(c, ModelCheck), c
    assert c.tpu_compile is not None and c.tpu_compile.status == "failed"
    assert "the TPU compiler's process ended with signal 11" in c.tpu_compile.detail
    assert c.level == "lowered_for_tpu" and c.answers.xla_verified == "yes"  # the lowering still stands


def test_without_libtpu_the_step_says_so_and_how_to_add_it() -> None:
    """A real interpreter without site-packages (python -S): libtpu cannot be found there."""
    code = (
        f"import sys; sys.path.insert(0, {str(ROOT)!r}); "
        "from gpu_tpu_app.worker import tpu_compile_launch as t; "
        "print(t.compile_in_child('m.py', 'jax', 1, [{'id': 'tpu-v5e', 'topology': 'v5e', 'dims': 2}], 60))"
    )
    out = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert "'status': 'unavailable'" in out.stdout and "libtpu is not installed" in out.stdout


def test_cli_refuses_a_chip_count_that_is_no_slice_and_json_carries_the_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["check-model", str(EXAMPLES / "jax_transformer.py"), "--tpu-chips", "6"]) == 2
    err = capsys.readouterr().err
    assert "--tpu-chips: 6 is not a TPU slice size" in err and len(err.strip().splitlines()) == 1
    code = cli.main(["check-model", str(DATA / "tpu_weights_20gib.py"), "--format", "json", "--timeout", "420"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["level"] == "compiled_for_tpu"
    by_chip = {g["chip"]: g for g in data["tpu_compile"]["generations"]}
    assert by_chip["tpu-v5e"]["status"] == "does_not_fit" and by_chip["tpu-v6e"]["programs"][0]["argument_bytes"] > 0


def test_the_compile_child_runs_beside_the_check_and_a_cancelled_one_is_gone() -> None:
    """The worker starts the compiling child before its own stages; when lowering fails it stops it, and
    nothing the child started is left (the child is a real process of the real compiler)."""
    from gpu_tpu_app.worker import tpu_compile_launch as worker_tc

    targets = [{"id": "tpu-v5e", "topology": "v5e", "dims": 2}]
    child = worker_tc.start_child(str(EXAMPLES / "jax_transformer.py"), "jax", 1, targets, 120)
    assert isinstance(child, worker_tc.CompileChild)
    assert child.proc.poll() is None  # started, still working
    child.cancel()
    assert child.proc.returncode is not None and child.proc.stdout is not None and child.proc.stdout.closed
    # a file whose lowering fails: the check answers without waiting for the compiler
    c = check(EXAMPLES / "jax_boolean_mask.py")
    assert c.tpu_compile is not None and c.tpu_compile.status == "failed"
    assert "lowering for TPU failed" in c.tpu_compile.detail
    assert c.seconds < 60
