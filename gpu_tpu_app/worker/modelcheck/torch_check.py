"""The model check's PyTorch stages: eager pass, torch.export, graph breaks, recompiles, the TPU routes.

Worker side: the standard library and torch (and, for the routes, torch_xla or torchax where they
import). The stages fill one findings dict; gpu_tpu_app.core.modelcheck maps it to answers. An error
raised inside the check's own instrumentation is the check's: the stage that hit it is reported as
failed with the reason, and the user's code is blamed only when it fails when run plainly as well.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
import sys
import traceback
import warnings
from collections.abc import Callable, Iterator
from typing import Any

from gpu_tpu_app.worker.modelcheck import torchops as ops
from gpu_tpu_app.worker.modelcheck.base import (
    MAX_ITEMS,
    MAX_LEAVES,
    Loader,
    UserError,
    _as_tuple,
    _first_line,
    _other_inputs,
    _short,
    _stage,
    printable,
)
from gpu_tpu_app.worker.modelcheck.outputs import flat_forward_module, unwrap_compiled
from gpu_tpu_app.worker.notes import join, note
from gpu_tpu_app.worker.tpu_compile import torchax_default_device

#: lowers a JAX function for a platform (gpu_tpu_app.worker.modelcheck.jax_check._export_for), for the torchax route.
Exporter = Callable[..., dict[str, Any]]


def _check_torch_inputs(value: Any, function: str) -> tuple:
    import torch

    inputs = _as_tuple(value, function)
    if len(inputs) > MAX_LEAVES:
        raise UserError("contract", f"{function} returned {len(inputs)} inputs", function)
    for i, t in enumerate(inputs):
        if not isinstance(t, torch.Tensor):
            raise UserError(
                "contract", f"{function} must return a tuple of tensors; item {i} is {type(t).__name__}", function
            )
    return inputs


def _describe(t: Any) -> str:
    """dtype[shape], with the layout when it is not a plain dense one: 'float32[2000, 2000] sparse COO (nnz 19998)'."""
    import torch

    dtype = str(t.dtype).replace("torch.", "")
    try:
        shape = str(list(t.shape))
    except Exception:  # a strided nested tensor has no single shape
        shape = f"[{t.size(0)}, ragged]"
    layout = ops.layout_of(t, torch)
    if layout is None:
        return f"{dtype}{shape}"
    nnz = f" (nnz {ops._nnz(t)})" if ops.is_sparse(t) else ""
    return f"{dtype}{shape} {layout}{nnz}"


def _signature(inputs: tuple) -> str:
    return ", ".join(_describe(t) for t in inputs)


def _torch_load(loader: Loader) -> tuple[Any, tuple, list[tuple]]:
    """model(), example_inputs() and other_inputs(), each checked against the contract."""
    model = loader.call("model")  # before importing torch here: a file that never imports it fails fast
    import torch

    if not isinstance(model, torch.nn.Module):
        raise UserError("contract", f"model() must return a torch.nn.Module, got {type(model).__name__}", "model()")
    inputs = _check_torch_inputs(loader.call("example_inputs"), "example_inputs()")
    others = [_check_torch_inputs(o, "other_inputs()") for o in _other_inputs(loader)]
    return model, inputs, others


@contextlib.contextmanager
def _fused_paths_off(torch: Any) -> Iterator[None]:
    """PyTorch's fused attention fast path off while counting (nn.TransformerEncoderLayer and
    nn.MultiheadAttention then run as the matrix multiplies they are made of), and eager flex_attention
    called as its higher-order operator rather than through torch.compile (which refuses to run under a
    dispatch mode); both restored after."""
    mha = getattr(torch.backends, "mha", None)
    setter = getattr(mha, "set_fastpath_enabled", None)
    getter = getattr(mha, "get_fastpath_enabled", None)
    before = getter() if callable(getter) else None
    if callable(setter):
        setter(False)
    flex = sys.modules.get("torch.nn.attention.flex_attention")
    flag = "_FLEX_ATTENTION_DISABLE_COMPILE_DEBUG"
    flex_before = getattr(flex, flag, None)
    if flex_before is not None:
        setattr(flex, flag, True)
    try:
        yield
    finally:
        if callable(setter) and before is not None:
            setter(before)
        if flex_before is not None:
            setattr(flex, flag, flex_before)


def _torch_eager(model: Any, inputs: tuple, loader: Loader, findings: dict[str, Any]) -> None:
    """One eager forward under a dispatch mode: operators, work, float64, custom ops, data-dependent ops,
    layouts. When it fails under the mode, the model runs once more plainly: an error there is the
    user's; otherwise it was the check's own, and only the counting is lost."""
    import torch

    _stage("eager forward (operators, work, float64)", "model().forward")
    observer = ops.TorchObserver(loader.user_location, model)
    restore = observer.watch_autograd_functions(loader.path)
    failure: BaseException | None = None
    try:
        with torch.no_grad(), _fused_paths_off(torch), warnings.catch_warnings(), observer.mode():
            warnings.simplefilter("ignore")
            model(*inputs)
    except (KeyboardInterrupt, UserError):
        raise
    except BaseException as exc:
        failure = exc
    finally:
        restore()
    if failure is not None:
        _stage("eager forward (plain)", "model().forward")
        import torch._dynamo

        torch._dynamo.reset()  # a compile the failed pass left behind must not fail the plain one
        with torch.no_grad():
            loader._run(lambda: model(*inputs), "model().forward")  # the user's error when it fails here too
        findings["instrumentation_error"] = (
            f"counting the operators failed inside the check, not in the model (the model runs without it): "
            f"{type(failure).__name__}: {_first_line(failure)[:240]}"
        )
        findings["flops"] = None
        findings["custom_ops"] = []
        findings["float64"] = []
        findings["data_dependent"] = []
        findings["layouts"] = [
            {"name": ops.layout_of(t, torch), "location": f"input {i}"}
            for i, t in enumerate(inputs)
            if ops.layout_of(t, torch)
        ]
        return
    if observer.errors:
        findings["notes"].append(f"{len(observer.errors)} operator(s) could not be counted: {observer.errors[0]}")
    findings["flops"] = {
        "matmul": observer.matrix_ops(),
        "other": observer.other_ops(),
        "kinds": {k: v for k, v in observer.work.items() if v},
        "parameters_used": observer.parameters_used(),
        "tokens": ops.tokens_of(inputs, torch),
        "method": ops.method_text(observer),
    }
    if observer.uncounted:
        findings["notes"].append("not counted: " + ", ".join(sorted(observer.uncounted)[:8]))
    custom = list(observer.custom_ops.values())
    custom += [
        {"name": k, "kind": "torch.autograd.Function", "location": v} for k, v in observer.autograd_functions.items()
    ]
    findings["custom_ops"] = custom[:MAX_ITEMS]
    findings["higher_order_ops"] = [{"name": k, "location": v} for k, v in observer.higher_order.items()][:MAX_ITEMS]
    findings["float64"] = [{"op": k, "location": v} for k, v in observer.float64.items()][:MAX_ITEMS]
    findings["data_dependent"] = [
        {"what": ops.DD_TEXT.get(k, f"aten.{k}: its output shape depends on the data"), "location": v}
        for k, v in observer.data_dependent.items()
    ][:MAX_ITEMS]
    layouts = [{"name": ops.layout_of(t, torch), "location": f"input {i}"} for i, t in enumerate(inputs)]
    seen = {x["name"] for x in layouts if x["name"]}
    layouts += [{"name": k, "location": v} for k, v in observer.layouts.items() if k not in seen]
    findings["layouts"] = [x for x in layouts if x["name"]][:MAX_ITEMS]


def _non_core_ops(exported: Any, torch: Any, findings: dict[str, Any]) -> list[str]:
    """ATen operators of the exported graph that stay outside the core ATen set: not tagged core, without a
    core decomposition and without a composite implementation. Read from the graph's targets rather than
    from run_decompositions(), which unrolls recurrent layers step by step and took most of a check's time."""
    non_core: set[str] = set()
    try:
        from torch._decomp import core_aten_decompositions

        table = core_aten_decompositions()
        for node in exported.graph.nodes:
            target = node.target
            if node.op != "call_function" or getattr(target, "namespace", None) != "aten":
                continue
            if torch.Tag.core in getattr(target, "tags", ()) or target.name().startswith("aten::_assert"):
                continue
            if target in table or torch._C._dispatch_has_kernel_for_dispatch_key(
                target.name(), "CompositeImplicitAutograd"
            ):
                continue
            non_core.add(str(target))
    except Exception as exc:
        findings["notes"].append(f"core ATen check failed: {_first_line(exc)}")
    return sorted(non_core)[:MAX_ITEMS]


def _torch_export(model: Any, inputs: tuple, loader: Loader, findings: dict[str, Any]) -> dict[str, Any]:
    """torch.export: a whole graph (static, or with data-dependent sizes u0, u1, ...) and its non-core ATen
    operators, or the reason there is none."""
    import torch

    _stage("torch.export", "model().forward")
    graph: dict[str, Any]
    try:
        import torch._dynamo

        torch._dynamo.reset()  # an eager torch.cond leaves compiled frames behind that export trips over
        with warnings.catch_warnings(), torch.no_grad():  # the inference graph (flex_attention on CPU needs it)
            warnings.simplefilter("ignore")
            exported = torch.export.export(model, inputs)
        count = sum(1 for n in exported.graph.nodes if n.op == "call_function")
        unbacked = ops.unbacked_sizes(exported.graph_module, torch)
        graph = {"status": "ok", "detail": f"one graph of {count} operators", "location": None, "unbacked": unbacked}
        if unbacked:
            graph["detail"] += f", with data-dependent sizes {', '.join(unbacked)}"
            findings["data_dependent"].append(
                {
                    "what": f"the exported graph has sizes known only at run time ({', '.join(unbacked)}, from "
                    ".item(), .tolist(), nonzero or a boolean mask): not a static graph",
                    "location": None,
                }
            )
        findings["non_core_ops"] = _non_core_ops(exported, torch, findings)
    except Exception as exc:
        text = printable(exc)
        graph = {
            "status": "failed",
            "detail": f"{type(exc).__name__}: {_first_line(text)}",
            "location": loader.location_in(text) or loader.location_in("".join(traceback.format_tb(exc.__traceback__))),
        }
        findings["non_core_ops"] = []
        if "data-dependent" in text or "GuardOnDataDependent" in type(exc).__name__:
            findings["data_dependent"].append(
                {
                    "what": "control flow or shape that depends on tensor values "
                    "(torch.export: " + _first_line(text)[:160] + ")",
                    "location": graph["location"],
                }
            )
    return graph


def _torch_graph_breaks(model: Any, inputs: tuple, loader: Loader) -> dict[str, Any]:
    """Graph breaks under torch.compile's tracer (torch._dynamo.explain), each with its line in the user's file."""
    import torch

    _stage("torch._dynamo.explain", "model().forward")
    try:
        import torch._dynamo as dynamo

        dynamo.reset()
        with warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore")
            explained = dynamo.explain(model)(*inputs)
        breaks = []
        for reason in explained.break_reasons[:MAX_ITEMS]:
            where = None
            for frame in reversed(getattr(reason, "user_stack", []) or []):
                if os.path.abspath(frame.filename) == loader.path:
                    where = f"{os.path.basename(loader.path)}:{frame.lineno}"
                    break
            breaks.append({"reason": _first_line(reason.reason), "location": where})
        return {"status": "ok", "graphs": int(explained.graph_count), "breaks": breaks}
    except Exception as exc:
        return {"status": "failed", "detail": f"{type(exc).__name__}: {_first_line(exc)}"}


def _static(findings: dict[str, Any]) -> bool:
    """One whole exported graph with static sizes and no data-dependent operation."""
    graph = findings["static_graph"]
    return graph["status"] == "ok" and not graph.get("unbacked") and not findings["data_dependent"]


def _torch_recompiles(
    model: Any, inputs: tuple, others: list[tuple], loader: Loader, findings: dict[str, Any]
) -> dict[str, Any] | None:
    """Programs XLA compiles across other_inputs(): for one static graph, one per distinct input signature
    (shapes, dtypes and layouts); otherwise counted under torch.compile with static shapes."""
    if not others:
        return None
    signatures = [_signature(inputs)] + [_signature(o) for o in others]
    if _static(findings):
        distinct = len(set(signatures))
        return {
            "status": "ok",
            "input_sets": len(signatures),
            "shapes": distinct,
            "programs_first": 1,
            "programs": distinct,
            "method": note("check.programs_export"),
        }
    return _torch_programs(model, inputs, others, loader)


def _torch_programs(model: Any, inputs: tuple, others: list[tuple], loader: Loader) -> dict[str, Any]:
    """Count torch.compile's compiled frames with static shapes; nothing compiled (torch.compile skips
    some modules, nn.LSTM and nn.GRU among them) leaves the count unknown, never 'one program'."""
    import torch
    import torch._dynamo as dynamo
    from torch._dynamo.testing import CompileCounter

    _stage("recompiles across other_inputs()", "model().forward")
    dynamo.reset()
    counter = CompileCounter()
    signatures = [_signature(inputs)] + [_signature(o) for o in others]
    current = inputs
    try:
        with (
            dynamo.config.patch(automatic_dynamic_shapes=False, recompile_limit=64),
            torch.no_grad(),
            warnings.catch_warnings(),
        ):
            warnings.simplefilter("ignore")
            compiled = torch.compile(model, backend=counter, dynamic=False)
            compiled(*inputs)
            first = counter.frame_count
            for o in others:
                current = o
                compiled(*o)
    except Exception as exc:
        with torch.no_grad():  # the user's error if the input fails without torch.compile as well
            loader._run(lambda: model(*current), "model().forward")
        return {"status": "failed", "detail": f"torch.compile failed: {type(exc).__name__}: {_first_line(exc)}"}
    finally:
        dynamo.reset()
    if first == 0:
        return {
            "status": "failed",
            "input_sets": len(signatures),
            "shapes": len(set(signatures)),
            "detail": note("check.compiled_nothing", n=len(set(signatures))),
        }
    return {
        "status": "ok",
        "input_sets": len(signatures),
        "shapes": len(set(signatures)),
        "programs_first": int(first),
        "programs": int(counter.frame_count),
        "method": note("check.programs_compile"),
    }


def _torch_tpu_routes(
    model: Any, inputs: tuple, loader: Loader, findings: dict[str, Any], export_for: Exporter
) -> None:
    """The routes onto a TPU that exist for PyTorch, where installed here: torchax first (it copies the weights
    out of the model), then torch_xla (it moves the model onto its device). Both outcomes are kept."""
    findings["tpu_lowering"] = _torchax_route(model, inputs, loader, findings, export_for)
    findings["xla_run"] = _torch_xla_route(model, inputs, loader, findings)


def check_torch(loader: Loader, export_for: Exporter) -> dict[str, Any]:
    model, inputs, others = _torch_load(loader)
    import torch

    findings: dict[str, Any] = {"framework": "pytorch", "versions": {"torch": torch.__version__}, "notes": []}
    # a torch.compile'd module's code refuses the check's dispatch modes: its original module is the same model
    model, compiled = unwrap_compiled(model)
    findings["compiled_module"] = compiled
    findings["parameters"] = sum(int(p.numel()) for p in model.parameters())
    findings["parameter_bytes"] = sum(int(p.numel()) * p.element_size() for p in model.parameters())
    findings["inputs"] = _signature(inputs)
    _torch_eager(model, inputs, loader, findings)  # 1. operators, work, float64, custom and data-dependent ops
    findings["static_graph"] = _torch_export(model, inputs, loader, findings)  # 2. one whole static graph?
    if _static(findings):  # 3. breaks under torch.compile, where export found no single static graph
        findings["graph_breaks"] = None
    else:
        findings["graph_breaks"] = _torch_graph_breaks(model, inputs, loader)
    findings["programs"] = _torch_recompiles(model, inputs, others, loader, findings)  # 4. recompiles
    _torch_tpu_routes(model, inputs, loader, findings, export_for)  # 5. torchax, then torch_xla
    findings["cuda_lowering"] = None
    return findings


def _import_route(name: str) -> tuple[Any, str | None]:
    """Import `name` for a TPU route: (the module, None), or (None, the one-line reason it is not usable)."""
    if importlib.util.find_spec(name) is None:
        return None, note("check.not_installed", name=name)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return importlib.import_module(name), None
    except Exception as exc:
        return None, f"{name}: installed but fails to import ({type(exc).__name__}: {_first_line(exc)[:160]})"


def _route_error(name: str, exc: BaseException, loader: Loader) -> tuple[str, str | None]:
    line = loader.user_line(exc.__traceback__)
    where = f"{os.path.basename(loader.path)}:{line}" if line else None
    return f"{name}: {type(exc).__name__}: {_first_line(exc)[:240] or '(no message)'}", where


def _torch_xla_route(model: Any, inputs: tuple, loader: Loader, findings: dict[str, Any]) -> dict[str, Any]:
    """One forward step on XLA's CPU device under torch_xla, the official route; the operators that fell back
    to the CPU are read from its metrics.

    API used (pytorch/xla docs, "Troubleshoot" and torch_xla/debug/metrics.py): PJRT_DEVICE=CPU before the
    import; `torch_xla.device()` and `torch_xla.sync()` (torch_xla >= 2.5), else
    `torch_xla.core.xla_model.xla_device()` and `xm.mark_step()`; `torch_xla.debug.metrics.counter_names()` /
    `counter_value(name)`, where a counter named "aten::..." counts an operator run through the CPU fallback,
    and `metric_data("CompileTime")` -> (total samples, accumulator in ns, samples).
    """
    os.environ.setdefault("PJRT_DEVICE", "CPU")  # no TPU needed; a PJRT_DEVICE the user set is kept
    _stage("import torch_xla", "model().forward")
    xla, reason = _import_route("torch_xla")
    if xla is None:
        return {"status": "unavailable", "detail": reason, "fallbacks": []}
    findings["versions"]["torch_xla"] = str(getattr(xla, "__version__", "?"))
    _stage("one step under torch_xla (XLA's CPU device)", "model().forward")
    try:
        import torch

        met = importlib.import_module("torch_xla.debug.metrics")
        if callable(getattr(xla, "device", None)) and callable(getattr(xla, "sync", None)):
            device, sync = xla.device(), xla.sync
        else:
            xm = importlib.import_module("torch_xla.core.xla_model")
            device, sync = xm.xla_device(), xm.mark_step
        before = {n: int(met.counter_value(n)) for n in met.counter_names() if str(n).startswith("aten::")}
        model.to(device)
        moved = tuple(t.to(device) for t in inputs)
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model(*moved)
            sync()
        fallbacks: list[dict[str, Any]] = []
        for n in met.counter_names():
            name = str(n)
            count = int(met.counter_value(n)) - before.get(name, 0)
            if not name.startswith("aten::") or count <= 0:
                continue
            if name.removeprefix("aten::") in ops.HOST_SYNC:  # a value read into Python: a host sync
                findings["data_dependent"].append(
                    {
                        "what": f"{ops.DD_TEXT['_local_scalar_dense']} ({name}, {count}x under torch_xla)",
                        "location": None,
                    }
                )
                continue
            fallbacks.append({"name": name, "count": count})
        compiles, compile_s = None, None
        if "CompileTime" in list(met.metric_names()):
            total, accumulator, _ = met.metric_data("CompileTime")
            compiles, compile_s = int(total), round(float(accumulator) / 1e9, 3)
    except Exception as exc:
        detail, where = _route_error("torch_xla", exc, loader)
        return {"status": "failed", "detail": detail, "location": where, "fallbacks": []}
    names = ", ".join(f["name"] for f in fallbacks[:MAX_ITEMS])
    detail = f"ran on XLA's device {_short(device, 40)} (PJRT_DEVICE={_short(os.environ.get('PJRT_DEVICE'), 20)}); " + (
        f"{len(fallbacks)} operator(s) fell back to the CPU: {names}"
        if fallbacks
        else "no operator fell back to the CPU"
    )
    return {
        "status": "ok",
        "detail": _short(detail, 1900),
        "device": _short(device, 60),
        "fallbacks": fallbacks[:MAX_ITEMS],
        "compiles": compiles,
        "compile_seconds": compile_s,
    }


def _torchax_route(
    model: Any, inputs: tuple, loader: Loader, findings: dict[str, Any], export_for: Exporter
) -> dict[str, Any]:
    """Lower the model through torchax to a JAX function and export it for TPU as the JAX check does.

    API used (google/torchax, torchax/__init__.py): `torchax.extract_jax(module)` returns (states, jax_func),
    the weights as a pytree of jax arrays and a function called as `jax_func(states, args)`.
    """
    _stage("import torchax", "model().forward")
    tx, reason = _import_route("torchax")
    if tx is None:
        return {"status": "unavailable", "route": None, "detail": reason, "custom_calls": []}
    findings["versions"]["torchax"] = str(getattr(tx, "__version__", "?"))
    _stage("lower through torchax", "model().forward")
    import torch

    try:
        import jax
        import jax.numpy as jnp

        # outputs of any pytree-like shape (ModelOutput with a KV cache, dataclasses) reach jax as their tensors
        states, jax_func = tx.extract_jax(flat_forward_module(torch, model))
        specs = (
            jax.tree.map(lambda x: jax.ShapeDtypeStruct(x.shape, x.dtype), states),
            *(jax.ShapeDtypeStruct(tuple(t.shape), jnp.dtype(str(t.dtype).removeprefix("torch."))) for t in inputs),
        )
    except Exception as exc:
        detail, where = _route_error("torchax.extract_jax", exc, loader)
        return {
            "status": "failed",
            "route": "torchax.extract_jax",
            "detail": detail,
            "location": where,
            "custom_calls": [],
        }
    created: list[int] = []

    def forward(w: Any, *xs: Any) -> Any:
        with torchax_default_device(tx, created):
            return jax_func(w, xs)

    lowered = export_for(
        forward,
        specs,
        "tpu",
        loader,
        {},
        route=note("check.torchax_then", then='jax.export, platforms=["tpu"]'),
        function="model().forward",
    )
    hops = [h["name"] for h in findings.get("higher_order_ops") or []]
    if lowered["status"] == "failed" and hops and "HigherOrderOperator" in lowered["detail"]:
        # torchax's own dispatch mode has no rule for the operator: a limit of this route, not of the model
        lowered = {
            **lowered,
            "status": "unavailable",
            "detail": note(
                "check.torchax_no_rule",
                version=findings["versions"]["torchax"],
                operators=", ".join(hops),
                error=lowered["detail"][:200],
            ),
        }
    if lowered["status"] == "ok" and created:
        lowered = {
            **lowered,
            "detail": join(lowered["detail"], note("check.created_tensors", n=len(created))),
        }
    sparse = [f"input {i} ({ops.layout_of(t, torch)})" for i, t in enumerate(inputs) if ops.is_sparse(t)]
    if lowered["status"] == "ok" and sparse:  # the lowered program is a dense one: not the model that runs
        lowered = {
            **lowered,
            "status": "failed",
            "detail": note("check.sparse_as_dense", inputs=", ".join(sparse)),
        }
    return lowered
