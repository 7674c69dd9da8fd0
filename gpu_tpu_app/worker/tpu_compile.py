"""Compile the user's model for TPU generations with the real TPU compiler, on a host without TPUs.

The TPU runtime (`libtpu`) writes warnings at start-up and may end the process that imports it, so
the compiler never runs in the model-check worker itself: that worker starts this module as a child
process, with a timeout (worker/tpu_compile_launch.py, the parent's half: it reads one JSON line per
generation from it and keeps libtpu's stderr out of the user's output). This module is the child,
and holds what both halves share (the TPU runtime's environment, topology names, text bounds). The
child (`main`) loads the model file again, builds the programs and, for each TPU generation it is
given, compiles them for a topology of the chosen chip count with
`jax.experimental.topologies.get_topology_desc(platform="tpu", ...)` and
`jax.jit(f).lower(<ShapeDtypeStructs with shardings>).compile()`, then reads `memory_analysis()` and
`cost_analysis()`. Nothing is allocated: weights and inputs are shapes and dtypes only.

Programs: the forward pass; and a training step when the file defines one: JAX `train_step(params,
*inputs)` as written, or JAX `loss(params, *inputs)` / PyTorch `loss(model, *inputs)` (a scalar),
which is compiled as value-and-gradient plus a plain SGD update of the weights (weights donated).
PyTorch models reach the compiler through torchax (`torchax.extract_jax`).

Lines on the child's stdout (the parent validates them in gpu_tpu_app.core.tpu_compile):

  {"type": "stage", "stage": ..., "function": ...}
  {"type": "start", "libtpu": "0.0.42.1", "route": ...}
  {"type": "generation", "generation": {...}}          one per generation, as each finishes
  {"type": "error", "detail": ...}                      nothing could be compiled (the reason)

Standard library and the frameworks only: this module may run in the user's own interpreter.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.metadata
import importlib.util
import json
import math
import os
import sys
import time
import types
import warnings
from collections.abc import Callable, Iterator
from typing import IO, Any

from gpu_tpu_app.shared.notes import mark
from gpu_tpu_app.worker.modelcheck.base import printable
from gpu_tpu_app.worker.modelcheck.outputs import flat_forward, flat_forward_module, unwrap_compiled
from gpu_tpu_app.worker.notes import join, note

#: the environment the TPU runtime needs on a host without TPUs: no query of the GCE metadata server, and
#: no claim on /tmp/libtpu_lockfile (libtpu's one-process-per-host lock: the compiler opens no TPU here, so
#: two checks, or a check beside a real TPU job, may compile at once).
TPU_ENV = {"TPU_SKIP_MDS_QUERY": "1", "ALLOW_MULTIPLE_LIBTPU_LOAD": "1"}
#: the chips one host holds in jax's default topology description; smaller slices pass their own bounds.
_HOST_BOUNDS = (2, 2, 1)
MAX_TEXT = 600

_OUT: IO[str] = sys.stdout


def _emit(obj: dict[str, Any]) -> None:
    _OUT.write(json.dumps(mark(obj), default=str, allow_nan=False) + "\n")
    _OUT.flush()


def _short(text: object, limit: int = MAX_TEXT) -> str:
    s = " ".join(printable(text).split())
    return s if len(s) <= limit else s[: limit - 1] + "…"


def _compiler_reason(exc: BaseException) -> str:
    """The compiler's own words: the first two non-empty lines of its message, bounded."""
    lines = [ln.strip() for ln in printable(exc).splitlines() if ln.strip()]
    return _short(f"{type(exc).__name__}: {' '.join(lines[:2]) or '(no message)'}")


#: words in an error that say the check's own route or placement cannot take the program (not the model).
_LIMIT_WORDS = (
    "not implemented",
    "notimplemented",
    "higherorderoperator",
    "expect a tensor or a view",
    "incompatible devices",
    "device assignment",
    "devices of the mesh",
    "mesh",
)


def failure_of(exc: BaseException, user_file: str | None = None) -> str:
    """Which of the four failures (core.tpu_compile.FAILURES) an exception of a compile is: the TPU compiler's
    own error (jaxlib's runtime error) or one raised in the user's file is the model's ("model_failed"); what the
    check's route cannot take (no rule, a mesh of other devices) and anything else is the check's limit, since
    a result blames the model only when its own code is shown to be the cause."""
    name = type(exc).__name__
    words = printable(exc).lower()
    if isinstance(exc, NotImplementedError) or any(w in words for w in _LIMIT_WORDS):
        return "check_limit"
    if name in ("XlaRuntimeError", "JaxRuntimeError"):
        return "model_failed"
    if user_file:
        tb = exc.__traceback__
        last = None
        while tb is not None:
            last = tb
            tb = tb.tb_next
        if last is not None and os.path.abspath(last.tb_frame.f_code.co_filename) == os.path.abspath(user_file):
            return "model_failed"
    return "check_limit"


# =========================================================================== topology names


def slice_shape(chips: int, dims: int) -> tuple[int, int, int]:
    """The slice of `chips` chips (a power of two) as x, y, z: 2-D tori AxB (z = 1), 3-D tori AxBxC; 4 or
    fewer chips lie in one plane (1x1x1, 1x2x1, 2x2x1), as on a single host."""
    if chips < 1 or chips & (chips - 1):
        raise ValueError(f"{chips} chips is not a power of two")
    shape = [1, 1, 1]
    axes = 2 if dims == 2 or chips <= 4 else 3
    i = 0
    while math.prod(shape) < chips:
        shape[i % axes] *= 2
        i += 1
    if axes == 3:
        shape.sort()
    else:
        shape[:2] = sorted(shape[:2])
    return shape[0], shape[1], shape[2]


def topology_name(generation: str, chips: int, dims: int) -> tuple[str, tuple[int, int, int]]:
    """jax's topology name ("v5e:2x2", "v5p:2x2x1") and the chips-per-host bounds that divide it."""
    x, y, z = slice_shape(chips, dims)
    name = f"{generation}:{x}x{y}" if dims == 2 else f"{generation}:{x}x{y}x{z}"
    bounds = (min(x, _HOST_BOUNDS[0]), min(y, _HOST_BOUNDS[1]), min(z, _HOST_BOUNDS[2]))
    return name, bounds


# =========================================================================== torchax


@contextlib.contextmanager
def torchax_default_device(torchax: Any, created: list[int] | None = None) -> Iterator[None]:
    """While torchax traces the model, a tensor the model creates in forward without naming a device
    (`torch.zeros(b, c)`, `torch.eye(n)`) is made on torchax's side, as it is on the TPU when the default device
    is set there. Without this torchax makes such a tensor a plain CPU tensor, because it decides by
    `torch.get_default_device()` (here the CPU; torchax's own "jax" device cannot be set as the default in
    torch 2.13), and then refuses to mix it with its own ("Expect a Tensor or a View but got torch.Tensor").
    Each tensor made so is counted in `created`. A tensor created with an explicit device keeps it. Other
    torchax versions without the method this wraps are traced as they are."""
    env = torchax.default_env()
    decide = getattr(env, "_should_use_torchax_tensor", None)
    if not callable(decide):
        yield
        return

    def default_on_torchax(device: Any) -> bool:
        if device is None and not decide(device):
            if created is not None:
                created.append(1)
            return True
        return bool(decide(device))

    env._should_use_torchax_tensor = default_on_torchax
    try:
        yield
    finally:
        del env._should_use_torchax_tensor  # the class's own method again


# =========================================================================== the child's half


def _load(path: str) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("gpu_tpu_app_user_model", path)
    if spec is None or spec.loader is None:
        raise RuntimeError(f"{path}: cannot be loaded as Python")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module.__name__] = module
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    spec.loader.exec_module(module)
    return module


def _shapes(module: types.ModuleType, name: str) -> Any:
    import jax

    fn = getattr(module, name)
    try:
        return jax.eval_shape(fn)  # shapes only: large weights are never initialised
    except Exception:
        return fn()


def _sgd(loss: Callable[..., Any], lr: float = 1e-3) -> Callable[..., Any]:
    """value_and_grad of `loss` plus a plain SGD update of its first argument's floating-point leaves."""
    import jax
    import jax.numpy as jnp

    def step(weights: Any, *inputs: Any) -> Any:
        value, grads = jax.value_and_grad(loss, allow_int=True)(weights, *inputs)

        def update(w: Any, g: Any) -> Any:
            return w - lr * g.astype(w.dtype) if jnp.issubdtype(w.dtype, jnp.inexact) else w

        return value, jax.tree.map(update, weights, grads)

    return step


def _programs(module: types.ModuleType, framework: str) -> tuple[dict[str, Callable[..., Any]], Any, tuple, str]:
    """The programs to compile, the weights and the inputs (as shapes) and the route, for either framework."""
    import jax

    programs: dict[str, Callable[..., Any]] = {}
    if framework == "jax":
        weights = _shapes(module, "params")
        inputs = _shapes(module, "example_inputs")
        inputs = tuple(inputs) if isinstance(inputs, (list, tuple)) else (inputs,)
        programs["forward"] = flat_forward(jax, module.forward)
        if callable(getattr(module, "train_step", None)):
            programs["train_step"] = module.train_step
        elif callable(getattr(module, "loss", None)):
            programs["train_step"] = _sgd(module.loss)
        return programs, jax.tree.map(_spec, weights), tuple(jax.tree.map(_spec, inputs)), "jax.jit(...)"
    import jax.numpy as jnp
    import torch
    import torchax

    model, _ = unwrap_compiled(module.model())  # the same module the worker checked
    tensors = module.example_inputs()
    tensors = tuple(tensors) if isinstance(tensors, (list, tuple)) else (tensors,)
    states, fn = torchax.extract_jax(flat_forward_module(torch, model))

    def forward(w: Any, *xs: Any) -> Any:
        with torchax_default_device(torchax):
            return fn(w, xs)

    programs["forward"] = forward
    train_weights = None
    if callable(getattr(module, "loss", None)):
        user_loss: Callable[..., Any] = module.loss

        class _Loss(torch.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.model = model

            def forward(self, *xs: Any) -> Any:
                return user_loss(self.model, *xs)

        train_weights, loss_fn = torchax.extract_jax(_Loss())

        def loss(w: Any, *xs: Any) -> Any:
            with torchax_default_device(torchax):
                return loss_fn(w, xs)

        programs["train_step"] = _sgd(loss)
    wide = [
        t for t in (*model.parameters(), *model.buffers(), *tensors) if t.dtype in (torch.float64, torch.complex128)
    ]
    if wide and not getattr(jax.config, "jax_enable_x64", False):
        # torchax leaves jax_enable_x64 off: float64 weights and inputs reach the compiler as float32
        _NARROWED["dtype"] = "float32"
    specs = tuple(jax.ShapeDtypeStruct(tuple(t.shape), jnp.dtype(str(t.dtype).removeprefix("torch."))) for t in tensors)
    weights = {"forward": jax.tree.map(_spec, states)}
    if train_weights is not None:
        weights["train_step"] = jax.tree.map(_spec, train_weights)
    return programs, weights, specs, note("check.torchax_then", then="jax.jit(...)")


#: whether Pallas kernels are compiled by Mosaic for the TPU (interpret=False, whatever the file asked): a
#: file runs its kernels in the interpreter on a CPU host, which XLA compiles as an emulation of the kernel.
_PALLAS_MOSAIC = {"on": True}


def _pallas_on_mosaic() -> None:
    """Make `pallas_call` compile kernels for the TPU through Mosaic (interpret=False) rather than as their
    interpreter's emulation, before the model file is loaded (so `from ... import pallas_call` sees it too)."""
    try:
        import jax.experimental.pallas as pl
        from jax._src.pallas import pallas_call as impl
    except Exception:
        return
    original = impl.pallas_call

    def pallas_call(*args: Any, **kwargs: Any) -> Any:
        if _PALLAS_MOSAIC["on"] and kwargs.get("interpret"):
            kwargs["interpret"] = False
        return original(*args, **kwargs)

    impl.pallas_call = pallas_call
    pl.pallas_call = pallas_call


def jaxpr_figures(fn: Callable[..., Any], weights: Any, inputs: tuple, path: str) -> dict[str, Any] | None:
    """The program's work counted from its jaxpr (worker.modelcheck_jax.JaxWalk): with every static loop's body
    multiplied by its trip count and each Pallas kernel by its grid ("flops"), and with each body once, as
    XLA's cost_analysis() counts it ("once"); the trip counts, whether a loop's count is known only at run time
    ("dynamic"), and each Pallas kernel's interpret flag. None when the program cannot be traced."""
    import jax

    from gpu_tpu_app.worker.modelcheck.base import Loader
    from gpu_tpu_app.worker.modelcheck.jax_check import JaxWalk

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            closed = jax.make_jaxpr(fn)(weights, *inputs)
        walks = [JaxWalk(Loader(path), multiply_loops=m) for m in (True, False)]
        for walk in walks:
            walk.walk(closed.jaxpr)
    except Exception:
        return None
    full, once = walks
    return {
        "flops": full.matmul + full.other,
        "once": once.matmul + once.other,
        "trips": full.static_loops[:20],
        "dynamic": full.loops_counted_once,
        "pallas": full.pallas[:20],
    }


def _split(inputs: tuple, n: int) -> bool:
    """Whether _layout splits every input along its first axis over `n` devices."""
    import jax

    leaves = jax.tree.leaves(inputs)
    return n > 1 and bool(leaves) and all(len(x.shape) >= 1 and x.shape[0] % n == 0 for x in leaves)


def _corrected(out: dict[str, Any], figures: dict[str, Any] | None, share: float) -> None:
    """Replace cost_analysis()'s FLOPs by the jaxpr's count where XLA cannot count them: a static loop's body
    times its trip count, a Pallas kernel compiled by Mosaic (a custom call XLA sees no FLOPs in). XLA's own
    figure stays in xla_flops; a loop whose trip count is known only at run time is flagged (a lower bound)."""
    if figures is None or out["status"] != "compiled":
        return
    if figures["dynamic"]:
        out["dynamic_loops"] = True
    if figures["pallas"]:
        # the jaxpr was traced with kernels on Mosaic: an interpret flag still set means the switch did not take
        out["pallas"] = "emulated" if any(figures["pallas"]) or not _PALLAS_MOSAIC["on"] else "mosaic"
    if not figures["trips"] and not figures["pallas"]:
        return
    counted = figures["flops"] * share
    out["loop_trips"] = figures["trips"]
    xla = out.get("flops")
    if xla is None or counted > xla:  # a program of one Mosaic kernel: cost_analysis() names no FLOPs at all
        out["xla_flops"] = xla
        out["flops"] = float(counted)


#: the floating-point type a float64 model was compiled in instead ("float32" when jax_enable_x64 is off).
_NARROWED: dict[str, str] = {}


#: words of jax's error when a program is placed on other devices than the ones it is compiled for.
_PLACEMENT_WORDS = ("incompatible devices", "device ids", "devices of the mesh", "device assignment")


def placement_error(detail: str) -> bool:
    """Whether a compile failed because the program carries its own placement (a Mesh made of the devices jax
    found when the file was loaded: CPU devices here), not the compile topology's TPU devices."""
    low = detail.lower()
    return any(w in low for w in _PLACEMENT_WORDS)


@contextlib.contextmanager
def devices_as(devices: list[Any]) -> Iterator[None]:
    """While the file is loaded again: jax.devices() and jax.local_devices() are the compile topology's TPU
    devices, so that a Mesh the file builds at import (or in params/forward) is made of them."""
    import jax

    names = ("devices", "local_devices", "device_count", "local_device_count")
    saved = {n: getattr(jax, n) for n in names}
    jax.devices = lambda *a, **k: list(devices)
    jax.local_devices = lambda *a, **k: list(devices)
    jax.device_count = lambda *a, **k: len(devices)
    jax.local_device_count = lambda *a, **k: len(devices)
    try:
        yield
    finally:
        for n, f in saved.items():
            setattr(jax, n, f)


def _spec(x: Any) -> Any:
    import jax

    return jax.ShapeDtypeStruct(tuple(x.shape), x.dtype)


def _layout(weights: Any, inputs: tuple, devices: list[Any]) -> tuple[Any, tuple, str]:
    """Weights replicated on every device; inputs split along their first axis (data parallel) when it divides."""
    import jax
    import numpy as np
    from jax.sharding import Mesh, NamedSharding, PartitionSpec

    mesh = Mesh(np.array(devices), ("data",))
    replicated = NamedSharding(mesh, PartitionSpec())
    split = NamedSharding(mesh, PartitionSpec("data"))
    n = len(devices)
    kept: list[str] = []

    def place_input(x: Any) -> Any:
        if n > 1 and len(x.shape) >= 1 and x.shape[0] % n == 0:
            return jax.ShapeDtypeStruct(x.shape, x.dtype, sharding=split)
        if n > 1:
            kept.append(f"{x.dtype}{list(x.shape)}")
        return jax.ShapeDtypeStruct(x.shape, x.dtype, sharding=replicated)

    placed_weights = jax.tree.map(lambda x: jax.ShapeDtypeStruct(x.shape, x.dtype, sharding=replicated), weights)
    placed_inputs = tuple(jax.tree.map(place_input, inputs))
    if n == 1:
        text: str = note("check.layout_one")
    else:
        text = note("check.layout_split", n=n)
        if kept:
            text = join(text, note("check.layout_kept", n=n, inputs=", ".join(kept[:4]))) or text
    return placed_weights, placed_inputs, text


def _figure(cost: Any, key: str) -> float | None:
    if isinstance(cost, (list, tuple)):  # older jax: one dict per program
        cost = cost[0] if cost else {}
    value = cost.get(key) if isinstance(cost, dict) else None
    return float(value) if isinstance(value, (int, float)) and math.isfinite(value) and value >= 0 else None


def _compile_one(
    name: str,
    fn: Callable[..., Any],
    weights: Any,
    inputs: tuple,
    per_chip: int,
    user_file: str | None = None,
    figures: dict[str, Any] | None = None,
    share: float = 1.0,
) -> dict[str, Any]:
    import jax

    start = time.monotonic()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            jitted = jax.jit(fn, donate_argnums=(0,) if name == "train_step" else ())
            compiled = jitted.lower(weights, *inputs).compile()
    except Exception as exc:
        reason = _compiler_reason(exc)
        if "RESOURCE_EXHAUSTED" in reason:
            return {"program": name, "status": "does_not_fit", "detail": reason, "compile_seconds": _since(start)}
        return {
            "program": name,
            "status": "failed",
            "failure": failure_of(exc, user_file),
            "detail": reason,
            "compile_seconds": _since(start),
        }
    seconds = _since(start)
    out: dict[str, Any] = {"program": name, "status": "compiled", "detail": "", "compile_seconds": seconds}
    try:
        mem = compiled.memory_analysis()
        for key, attr in (
            ("argument_bytes", "argument_size_in_bytes"),
            ("output_bytes", "output_size_in_bytes"),
            ("temp_bytes", "temp_size_in_bytes"),
            ("alias_bytes", "alias_size_in_bytes"),
            ("code_bytes", "generated_code_size_in_bytes"),
        ):
            value = getattr(mem, attr, None)
            out[key] = int(value) * per_chip if isinstance(value, int) and value >= 0 else None
    except Exception as exc:
        out["detail"] = _short(f"memory_analysis() failed: {type(exc).__name__}: {printable(exc)}")
    try:
        cost = compiled.cost_analysis()
        for key, field in (
            ("flops", "flops"),
            ("bytes_accessed", "bytes accessed"),
            ("transcendentals", "transcendentals"),
        ):
            value = _figure(cost, field)
            out[key] = value * per_chip if value is not None else None
    except Exception as exc:
        out["detail"] = _short(f"cost_analysis() failed: {type(exc).__name__}: {printable(exc)}")
    _corrected(out, figures, share)
    if "dtype" in _NARROWED:
        out["compiled_dtype"] = _NARROWED["dtype"]
    return out


def _since(start: float) -> float:
    return round(time.monotonic() - start, 3)


def _generation(
    target: dict[str, Any],
    chips: int,
    programs: dict[str, Callable[..., Any]],
    weights: Any,
    inputs: tuple,
    torch: bool,
    user_file: str | None = None,
    figures: dict[str, dict[str, Any] | None] | None = None,
    rebuild: Callable[[list[Any]], tuple[dict[str, Callable[..., Any]], Any, tuple]] | None = None,
) -> dict[str, Any]:
    from jax.experimental import topologies

    name, bounds = topology_name(str(target["topology"]), chips, int(target["dims"]))
    row: dict[str, Any] = {"chip": target["id"], "topology": name, "chips": chips, "programs": []}
    _emit({"type": "stage", "stage": f"compiling for TPU {name}", "function": None})
    try:
        topo = topologies.get_topology_desc(platform="tpu", topology_name=name, chips_per_host_bounds=bounds)
        devices = list(topo.devices)
    except Exception as exc:
        return {
            **row,
            "status": "failed",
            "failure": "check_limit",
            "detail": f"no such topology here: {_compiler_reason(exc)}",
        }
    per_chip = max(1, len(devices) // chips)
    row.update(devices=len(devices), device_kind=_short(getattr(devices[0], "device_kind", ""), 100))
    layout: str = ""
    for program, fn in programs.items():
        w = weights[program] if torch else weights
        placed_w, placed_x, layout = _layout(w, inputs, devices)
        # the jaxpr counts the whole program: a chip's share is 1/chips of it when the batch is split over them
        share = per_chip / len(devices) if _split(inputs, len(devices)) else float(per_chip)
        fig = (figures or {}).get(program)
        done = _compile_one(program, fn, placed_w, placed_x, per_chip, user_file, fig, share)
        if done["status"] == "failed" and fig and fig["pallas"] and _PALLAS_MOSAIC["on"]:
            # Mosaic refused a kernel (a block shape the TPU cannot tile, a kernel split over two devices of one
            # chip): compile its emulation for this generation instead, and say so
            import jax

            mosaic_error = done["detail"]
            _PALLAS_MOSAIC["on"] = False
            jax.clear_caches()
            try:
                done = _compile_one(program, fn, placed_w, placed_x, per_chip, user_file, fig, share)
            finally:
                _PALLAS_MOSAIC["on"] = True
                jax.clear_caches()
            done["pallas"] = "emulated"
            done["pallas_error"] = _short(mosaic_error, 300)
        row["programs"].append(done)
    if rebuild is not None and any(p["status"] == "failed" and placement_error(p["detail"]) for p in row["programs"]):
        # the file placed its program on the devices it found when loaded (a Mesh of CPU devices): load it again
        # with this topology's TPU devices as jax.devices(), and compile what it builds then
        try:
            programs, weights, inputs = rebuild(devices)
            again = []
            for program, fn in programs.items():
                w = weights[program] if torch else weights
                placed_w, placed_x, layout = _layout(w, inputs, devices)
                share = per_chip / len(devices) if _split(inputs, len(devices)) else float(per_chip)
                fig = (figures or {}).get(program)
                again.append(_compile_one(program, fn, placed_w, placed_x, per_chip, user_file, fig, share))
            row["programs"] = again
            row["mesh"] = "given_tpu_devices" if all(p["status"] != "failed" for p in again) else "cannot_place"
        except Exception as exc:
            row["mesh"] = "cannot_place"
            row["programs"][0]["detail"] = _short(f"{row['programs'][0]['detail']} (again: {_compiler_reason(exc)})")
    row["sharding"] = join(layout, note("check.per_chip", n=per_chip) if per_chip > 1 else None) or ""
    statuses = [p["status"] for p in row["programs"]]
    row["status"] = next((s for s in ("failed", "does_not_fit") if s in statuses), "compiled")
    row["detail"] = next((p["detail"] for p in row["programs"] if p["status"] != "compiled"), "")
    failed = next((p for p in row["programs"] if p["status"] == "failed"), None)
    if failed is not None:
        row["failure"] = failed["failure"]
    return row


def _warm_up(targets: list[dict[str, Any]]) -> float | None:
    """Start the TPU compiler once on a trivial program, so that no generation's compile time carries its
    one-off start-up; the seconds it took (None when it failed: the generations then say why)."""
    import jax
    import jax.numpy as jnp
    from jax.experimental import topologies

    if not targets:
        return None
    start = time.monotonic()
    try:
        name, bounds = topology_name(str(targets[0]["topology"]), 1, int(targets[0]["dims"]))
        devices = list(
            topologies.get_topology_desc(platform="tpu", topology_name=name, chips_per_host_bounds=bounds).devices
        )
        _, placed, _ = _layout({}, (jax.ShapeDtypeStruct((8, 128), jnp.float32),), devices[:1])
        jax.jit(lambda x: x + 1).lower(*placed).compile()
    except Exception:
        return None
    return _since(start)


def _trace_once(
    targets: list[dict[str, Any]],
    chips: int,
    programs: dict[str, Callable[..., Any]],
    weights: Any,
    inputs: tuple,
    torch: bool,
) -> float:
    """Trace each program once, laid out for the first target, before any generation is timed: jax keeps the
    trace, so each generation's compile time is its lowering and compile, not the one-off trace of the model
    (through torchax for PyTorch: seconds for a small transformer) that the first generation carried before.
    The seconds it took; a program that fails to trace fails again, with its reason, in each generation."""
    from jax.experimental import topologies

    start = time.monotonic()
    if not targets:
        return 0.0
    try:
        name, bounds = topology_name(str(targets[0]["topology"]), chips, int(targets[0]["dims"]))
        devices = list(
            topologies.get_topology_desc(platform="tpu", topology_name=name, chips_per_host_bounds=bounds).devices
        )
    except Exception:
        return _since(start)
    import jax

    for program, fn in programs.items():
        placed_w, placed_x, _ = _layout(weights[program] if torch else weights, inputs, devices)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                jax.jit(fn, donate_argnums=(0,) if program == "train_step" else ()).trace(placed_w, *placed_x)
        except Exception:
            pass
    return _since(start)


def main(argv: list[str] | None = None) -> int:
    """The child: compile the file's programs for each target and print one line per generation."""
    global _OUT
    parser = argparse.ArgumentParser(prog="gpu-tpu-app tpu-compile-worker")
    parser.add_argument("file")
    parser.add_argument("--framework", choices=("jax", "pytorch"), required=True)
    parser.add_argument("--chips", type=int, default=1)
    parser.add_argument("--targets", required=True, help="JSON list of {id, topology, dims}")
    args = parser.parse_args(argv)
    # our lines keep the real stdout; what the model or libtpu prints goes to stderr
    sys.stdout.flush()
    fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    _OUT = os.fdopen(fd, "w", buffering=1, encoding="utf-8")
    for key, value in TPU_ENV.items():
        os.environ.setdefault(key, value)
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    try:
        targets = json.loads(args.targets)
        _emit({"type": "stage", "stage": "loading the model for the TPU compiler", "function": None})
        _pallas_on_mosaic()
        module = _load(args.file)
        programs, weights, inputs, route = _programs(module, args.framework)
        version = importlib.metadata.version("libtpu")
    except Exception as exc:
        _emit(
            {
                "type": "error",
                "failure": "check_limit",
                "detail": f"could not build the programs to compile: {_compiler_reason(exc)}",
            }
        )
        return 0
    torch = args.framework == "pytorch"

    def rebuild(devices: list[Any]) -> tuple[dict[str, Callable[..., Any]], Any, tuple]:
        with devices_as(devices):
            built = _programs(_load(args.file), args.framework)
        return built[0], built[1], built[2]

    started = time.monotonic()
    figures = {
        name: jaxpr_figures(fn, weights[name] if torch else weights, inputs, args.file) for name, fn in programs.items()
    }
    counted = time.monotonic() - started
    _emit(
        {
            "type": "start",
            "libtpu": version,
            "route": note("check.compile_route", route=route),
            # the compiler's start-up and the model's one-off trace: in no generation's compile time
            "startup_seconds": round(
                counted
                + (_warm_up(targets) or 0.0)
                + _trace_once(targets, args.chips, programs, weights, inputs, torch),
                3,
            ),
        }
    )
    for target in targets:
        _emit(
            {
                "type": "generation",
                "generation": _generation(
                    target, args.chips, programs, weights, inputs, torch, args.file, figures, rebuild
                ),
            }
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
