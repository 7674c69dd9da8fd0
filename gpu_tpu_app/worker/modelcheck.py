"""The model-check worker: loads a user's model file in this process only and measures what XLA would see.

Started as `gpu-tpu-app model-check-worker FILE [--memory-limit-mb N]` by the CLI or the window,
never imported by them. It needs only the standard library and the model's framework (it may
run in another interpreter); what it finds is a plain JSON object that the app validates on its
side (gpu_tpu_app.core.modelcheck). Stdout carries one JSON object per line:

  {"type": "stage", "stage": ..., "function": ...}   what runs now (the parent names it on a timeout)
  {"type": "findings", "findings": {...}}             the measurements, once
  {"type": "error", "kind": ..., "message": ..., "function": ..., "line": ...}

The model contract: PyTorch `model()` and `example_inputs()`; JAX `params()`,
`forward(params, *inputs)` and `example_inputs()`; either may add `other_inputs()`.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import sys
import time
import traceback
import types
import warnings
from collections.abc import Callable
from typing import IO, Any, NoReturn

from gpu_tpu_app.worker import tpu_compile

#: how many items of one kind (ops, locations, breaks) a finding lists at most.
MAX_ITEMS = 20
#: the longest text one finding carries.
MAX_TEXT = 400
#: pytree leaves / tensors one input tuple may have before the worker refuses it.
MAX_LEAVES = 10_000

_OUT: IO[str] = sys.stdout


def _emit(obj: dict[str, Any]) -> None:
    _OUT.write(json.dumps(obj, default=str) + "\n")
    _OUT.flush()


def _stage(stage: str, function: str | None = None) -> None:
    _emit({"type": "stage", "stage": stage, "function": function})


def _short(text: object, limit: int = MAX_TEXT) -> str:
    s = " ".join(str(text).split())
    return s if len(s) <= limit else s[: limit - 1] + "…"


def _raising(exc: BaseException) -> Callable[[], NoReturn]:
    """A callable that raises `exc` again, so loader._run reports it as the user's error."""

    def again() -> NoReturn:
        raise exc

    return again


def _first_line(text: object) -> str:
    for line in str(text).splitlines():
        if line.strip():
            return _short(line.strip())
    return ""


class UserError(Exception):
    """Something in the user's file: message, the function it happened in, the line in their file."""

    def __init__(self, kind: str, message: str, function: str | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.function = function
        self.line = line


class Loader:
    """The user's file as a module, and calls into it that turn exceptions into UserError."""

    def __init__(self, path: str) -> None:
        self.path = os.path.abspath(path)
        self.module: types.ModuleType | None = None

    def user_line(self, tb: types.TracebackType | None) -> int | None:
        """The deepest line of the traceback that lies in the user's file."""
        line = None
        for frame in traceback.extract_tb(tb):
            if os.path.abspath(frame.filename) == self.path:
                line = frame.lineno
        return line

    def user_location(self) -> str | None:
        """file:line of the innermost frame of the current stack inside the user's file."""
        for frame in reversed(traceback.extract_stack()):
            if os.path.abspath(frame.filename) == self.path:
                return f"{os.path.basename(self.path)}:{frame.lineno}"
        return None

    def location_in(self, text: str) -> str | None:
        """file:line of the last mention of the user's file in an error text (export errors quote it)."""
        name = re.escape(self.path)
        hits = re.findall(rf'{name}"?(?:, line |:)(\d+)', text)
        return f"{os.path.basename(self.path)}:{hits[-1]}" if hits else None

    def load(self) -> types.ModuleType:
        _stage("loading the file", None)
        try:
            with open(self.path, "rb") as fh:
                source = fh.read(4 * 1024 * 1024 + 1)
        except FileNotFoundError:
            raise UserError("file", "no such file") from None
        except IsADirectoryError:
            raise UserError("file", "is a folder, not a Python file") from None
        except OSError as exc:
            raise UserError("file", f"cannot read: {exc.strerror or exc}") from None
        if len(source) > 4 * 1024 * 1024:
            raise UserError("file", "larger than 4 MiB; a model file is expected to be small")
        try:
            code = compile(source, self.path, "exec")
        except SyntaxError as exc:
            raise UserError("syntax", f"SyntaxError: {exc.msg}", None, exc.lineno) from None
        except ValueError as exc:  # null bytes
            raise UserError("syntax", f"not Python source: {exc}") from None
        module = types.ModuleType("gpu_tpu_app_user_model")
        module.__file__ = self.path
        sys.modules[module.__name__] = module
        sys.path.insert(0, os.path.dirname(self.path))
        self._run(lambda: exec(code, module.__dict__), "(module level)")
        self.module = module
        return module

    def has(self, name: str) -> bool:
        return callable(getattr(self.module, name, None))

    def call(self, name: str, *args: Any) -> Any:
        """Call the user's function `name`, reporting where it failed in their file."""
        fn = getattr(self.module, name)
        _stage(f"calling {name}()", f"{name}()")
        return self._run(lambda: fn(*args), f"{name}()")

    def _run(self, thunk: Callable[[], Any], function: str) -> Any:
        try:
            return thunk()
        except UserError:
            raise
        except MemoryError:
            raise UserError(
                "memory",
                "ran out of memory (MemoryError) under the check's memory limit",
                function,
                self.user_line(sys.exc_info()[2]),
            ) from None
        except RecursionError as exc:
            raise UserError(
                "user", f"RecursionError: {_short(exc)}", function, self.user_line(exc.__traceback__)
            ) from None
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            text = _first_line(exc) or "(no message)"
            kind = "memory" if _is_oom(text) else "user"
            if kind == "memory":
                text = f"ran out of memory under the check's memory limit ({text})"
            else:
                text = f"{type(exc).__name__}: {text}"
            raise UserError(kind, text, function, self.user_line(exc.__traceback__)) from None


def _is_oom(text: str) -> bool:
    low = text.lower()
    return any(
        s in low
        for s in (
            "can't allocate memory",
            "cannot allocate memory",
            "out of memory",
            "resource_exhausted",
            "bad_alloc",
            "failed to allocate",
        )
    )


def _framework(loader: Loader) -> str:
    has = loader.has
    if has("model") and has("example_inputs"):
        return "pytorch"
    if has("params") and has("forward") and has("example_inputs"):
        return "jax"
    found = [n for n in ("model", "params", "forward", "example_inputs") if has(n)]
    raise UserError(
        "entry",
        "defines neither model() and example_inputs() (PyTorch) nor params(), "
        "forward(params, *inputs) and example_inputs() (JAX)"
        + (f"; found only {', '.join(n + '()' for n in found)}" if found else ""),
    )


def _other_inputs(loader: Loader) -> list[Any]:
    if not loader.has("other_inputs"):
        return []
    value = loader.call("other_inputs")
    if not isinstance(value, (list, tuple)):
        raise UserError(
            "contract",
            f"other_inputs() must return a list of input tuples, got {type(value).__name__}",
            "other_inputs()",
        )
    if len(value) > 32:
        raise UserError(
            "contract", f"other_inputs() returned {len(value)} input tuples; at most 32 are checked", "other_inputs()"
        )
    return list(value)


def _as_tuple(value: Any, function: str) -> tuple:
    if isinstance(value, list):
        value = tuple(value)
    if not isinstance(value, tuple):
        raise UserError("contract", f"{function} must return a tuple of inputs, got {type(value).__name__}", function)
    return value


# =========================================================================== PyTorch


_VIEW_OPS = {
    "view",
    "_unsafe_view",
    "reshape",
    "permute",
    "transpose",
    "t",
    "expand",
    "squeeze",
    "unsqueeze",
    "detach",
    "alias",
    "slice",
    "select",
    "as_strided",
    "split",
    "split_with_sizes",
    "unbind",
    "chunk",
    "flatten",
    "unflatten",
    "view_as",
    "expand_as",
    "narrow",
    "_reshape_alias",
    "lift_fresh",
}
#: ops whose output shape depends on the values of their input.
_DATA_DEPENDENT_TORCH = {
    "nonzero",
    "masked_select",
    "unique",
    "_unique",
    "_unique2",
    "unique_consecutive",
    "unique_dim",
    "bincount",
    "repeat_interleave",
    "_local_scalar_dense",
    "item",
}


_DD_TEXT = {
    "_local_scalar_dense": "a tensor's value is read into Python (.item(), bool() or an if on a tensor)",
    "item": "a tensor's value is read into Python (.item())",
    "nonzero": "aten.nonzero (or a boolean-mask index): its output size depends on the data",
    "masked_select": "aten.masked_select: its output size depends on the data",
}


def _numel_of(value: Any) -> int:
    import torch

    total = 0
    if isinstance(value, torch.Tensor):
        return int(value.numel())
    if isinstance(value, (list, tuple)):
        for v in value:
            total += _numel_of(v)
    return total


def _sdpa_cpu_flops(args: tuple) -> int:
    q, k, v = args[0], args[1], args[2]
    *batch, length, e = q.shape
    s = k.shape[-2]
    ev = v.shape[-1]
    b = 1
    for d in batch:
        b *= int(d)
    return 2 * b * int(length) * int(s) * int(e) + 2 * b * int(length) * int(s) * int(ev)


class TorchObserver:
    """Runs the model once eagerly under a dispatch mode: every operator, its work, float64, custom ops."""

    def __init__(self, loader: Loader) -> None:
        self.loader = loader
        self.matmul_flops = 0
        self.other_flops = 0
        self.ops: dict[str, int] = {}
        self.custom_ops: dict[str, dict[str, Any]] = {}
        self.float64: dict[str, str | None] = {}
        self.data_dependent: dict[str, str | None] = {}
        self.autograd_functions: dict[str, str | None] = {}

    def mode(self):
        import torch
        from torch.utils._python_dispatch import TorchDispatchMode
        from torch.utils.flop_counter import flop_registry

        observer = self

        class Mode(TorchDispatchMode):
            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                kwargs = kwargs or {}
                out = func(*args, **kwargs)
                observer.record(func, args, kwargs, out, flop_registry, torch)
                return out

        return Mode()

    def record(self, func, args, kwargs, out, registry, torch) -> None:
        namespace = getattr(func, "namespace", "aten")
        packet = func.overloadpacket
        base = packet.__name__
        name = f"{namespace}.{base}"
        self.ops[name] = self.ops.get(name, 0) + 1
        if namespace not in ("aten", "prim", "prims") and name not in self.custom_ops:
            self.custom_ops[name] = {
                "name": name,
                "kind": "custom operator (torch.library or extension)",
                "location": self.loader.user_location(),
            }
        if packet in registry:
            try:
                self.matmul_flops += int(registry[packet](*args, **kwargs, out_val=out))
            except Exception:
                self.other_flops += _numel_of(out)
        elif base.startswith("_scaled_dot_product") and "backward" not in base:
            self.matmul_flops += _sdpa_cpu_flops(args)
        elif base in _VIEW_OPS or (base.endswith("_copy") and base[:-5] in _VIEW_OPS):
            pass
        else:
            out_n = _numel_of(out)
            in_n = max((_numel_of(a) for a in args if isinstance(a, torch.Tensor)), default=0)
            self.other_flops += max(
                out_n,
                in_n
                if base
                in (
                    "sum",
                    "mean",
                    "amax",
                    "amin",
                    "max",
                    "min",
                    "prod",
                    "var",
                    "std",
                    "norm",
                    "logsumexp",
                    "argmax",
                    "argmin",
                    "any",
                    "all",
                )
                else 0,
            )
        if base in _DATA_DEPENDENT_TORCH and base not in self.data_dependent:
            self.data_dependent[base] = self.loader.user_location()
        if name not in self.float64 and len(self.float64) < MAX_ITEMS:
            outs = out if isinstance(out, (list, tuple)) else (out,)
            if any(isinstance(o, torch.Tensor) and o.dtype in (torch.float64, torch.complex128) for o in outs):
                self.float64[name] = self.loader.user_location()

    def watch_autograd_functions(self):
        """Record every torch.autograd.Function subclass applied while the model runs."""
        import torch

        original = torch.autograd.Function.apply.__func__  # type: ignore[attr-defined]  # a classmethod's function
        observer = self

        def apply(cls, *args, **kwargs):
            key = f"{cls.__module__.replace('gpu_tpu_app_user_model', os.path.basename(observer.loader.path)[:-3])}.{cls.__qualname__}"
            if key not in observer.autograd_functions:
                observer.autograd_functions[key] = observer.loader.user_location()
            return original(cls, *args, **kwargs)

        torch.autograd.Function.apply = classmethod(apply)  # type: ignore[method-assign,assignment]  # restored after the run
        return lambda: setattr(torch.autograd.Function, "apply", classmethod(original))


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


def _signature(inputs: tuple) -> str:
    return ", ".join(f"{str(t.dtype).replace('torch.', '')}{list(t.shape)}" for t in inputs)


def _torch_load(loader: Loader) -> tuple[Any, tuple, list[tuple]]:
    """model(), example_inputs() and other_inputs(), each checked against the contract."""
    model = loader.call("model")  # before importing torch here: a file that never imports it fails fast
    import torch

    if not isinstance(model, torch.nn.Module):
        raise UserError("contract", f"model() must return a torch.nn.Module, got {type(model).__name__}", "model()")
    inputs = _check_torch_inputs(loader.call("example_inputs"), "example_inputs()")
    others = [_check_torch_inputs(o, "other_inputs()") for o in _other_inputs(loader)]
    return model, inputs, others


def _torch_eager(model: Any, inputs: tuple, loader: Loader, findings: dict[str, Any]) -> None:
    """One eager forward under a dispatch mode: operators, work, float64, custom ops, data-dependent ops."""
    import torch

    _stage("eager forward (operators, work, float64)", "model().forward")
    observer = TorchObserver(loader)
    restore = observer.watch_autograd_functions()
    try:
        with torch.no_grad(), observer.mode():
            loader._run(lambda: model(*inputs), "model().forward")
    finally:
        restore()
    findings["flops"] = {
        "matmul": observer.matmul_flops,
        "other": observer.other_flops,
        "method": "one eager forward on the CPU under a dispatch mode: matrix multiplies, "
        "convolutions and attention by torch's FLOP formulas; every other operator "
        "1 operation per output element (per input element for reductions); "
        "views count 0",
    }
    custom = list(observer.custom_ops.values())
    custom += [
        {"name": k, "kind": "torch.autograd.Function", "location": v} for k, v in observer.autograd_functions.items()
    ]
    findings["custom_ops"] = custom[:MAX_ITEMS]
    findings["float64"] = [{"op": k, "location": v} for k, v in observer.float64.items()][:MAX_ITEMS]
    findings["data_dependent"] = [
        {"what": _DD_TEXT.get(k, f"aten.{k}: its output shape depends on the data"), "location": v}
        for k, v in observer.data_dependent.items()
    ][:MAX_ITEMS]


def _torch_export(model: Any, inputs: tuple, loader: Loader, findings: dict[str, Any]) -> dict[str, Any]:
    """torch.export: a whole static graph and its non-core ATen operators, or the reason there is none."""
    import torch

    _stage("torch.export", "model().forward")
    graph: dict[str, Any]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exported = torch.export.export(model, inputs)
        non_core: set[str] = set()
        try:
            decomposed = exported.run_decompositions()
            for node in decomposed.graph.nodes:
                target = node.target
                if node.op == "call_function" and getattr(target, "namespace", None) == "aten":
                    tags = getattr(target, "tags", ())
                    if torch.Tag.core not in tags and not target.name().startswith("aten::_assert"):
                        non_core.add(str(target))
        except Exception as exc:
            findings["notes"].append(f"core ATen decomposition failed: {_first_line(exc)}")
        graph = {
            "status": "ok",
            "detail": f"one graph of {sum(1 for n in exported.graph.nodes if n.op == 'call_function')} operators",
            "location": None,
        }
        findings["non_core_ops"] = sorted(non_core)[:MAX_ITEMS]
    except Exception as exc:
        text = str(exc)
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


def _torch_recompiles(
    model: Any, inputs: tuple, others: list[tuple], loader: Loader, findings: dict[str, Any]
) -> dict[str, Any] | None:
    """Recompiles across the shapes other_inputs() gives, with static shapes as XLA compiles them."""
    whole = (
        findings["static_graph"]["status"] == "ok"
        and not findings["data_dependent"]
        and findings["graph_breaks"].get("status") == "ok"
        and not findings["graph_breaks"].get("breaks")
    )
    signatures = {_signature(inputs)} | {_signature(o) for o in others}
    if others and whole and len(signatures) == 1:
        # one whole static graph, and every input has its signature: the compiled program is reused as is
        return {
            "status": "ok",
            "input_sets": 1 + len(others),
            "shapes": 1,
            "programs_first": 1,
            "programs": 1,
            "method": "every input set has the example's shapes and dtypes, and "
            "torch.export and torch._dynamo.explain captured one graph without data-dependent "
            "operations, so the one compiled program serves them all",
        }
    return _torch_programs(model, inputs, others, loader)


def _torch_tpu_routes(model: Any, inputs: tuple, loader: Loader, findings: dict[str, Any]) -> None:
    """The routes onto a TPU that exist for PyTorch, where installed here: torchax first (it copies the weights
    out of the model), then torch_xla (it moves the model onto its device)."""
    findings["tpu_lowering"] = _torchax_route(model, inputs, loader, findings)
    findings["xla_run"] = _torch_xla_route(model, inputs, loader, findings)
    if findings["tpu_lowering"]["status"] == "unavailable" and findings["xla_run"]["status"] != "ok":
        findings["tpu_lowering"]["detail"] = f"{findings['xla_run']['detail']}; {findings['tpu_lowering']['detail']}"


def check_torch(loader: Loader) -> dict[str, Any]:
    model, inputs, others = _torch_load(loader)
    import torch

    findings: dict[str, Any] = {"framework": "pytorch", "versions": {"torch": torch.__version__}, "notes": []}
    params = sum(int(p.numel()) for p in model.parameters())
    findings["parameters"] = params
    findings["parameter_bytes"] = sum(int(p.numel()) * p.element_size() for p in model.parameters())
    findings["inputs"] = _signature(inputs)
    _torch_eager(model, inputs, loader, findings)  # 1. operators, work, float64, custom and data-dependent ops
    findings["static_graph"] = _torch_export(model, inputs, loader, findings)  # 2. one whole static graph?
    findings["graph_breaks"] = _torch_graph_breaks(model, inputs, loader)  # 3. breaks under torch.compile
    findings["programs"] = _torch_recompiles(model, inputs, others, loader, findings)  # 4. recompiles
    _torch_tpu_routes(model, inputs, loader, findings)  # 5. torchax, then torch_xla
    findings["cuda_lowering"] = None
    return findings


def _torch_programs(model: Any, inputs: tuple, others: list[tuple], loader: Loader) -> dict[str, Any] | None:
    if not others:
        return None
    import torch
    import torch._dynamo as dynamo
    from torch._dynamo.testing import CompileCounter

    _stage("recompiles across other_inputs()", "model().forward")
    dynamo.reset()
    counter = CompileCounter()
    signatures = [_signature(inputs)] + [_signature(o) for o in others]
    try:
        with dynamo.config.patch(automatic_dynamic_shapes=False, recompile_limit=64), torch.no_grad():
            compiled = torch.compile(model, backend=counter, dynamic=False)
            compiled(*inputs)
            first = counter.frame_count
            for o in others:
                loader._run(lambda o=o: compiled(*o), "model().forward")  # type: ignore[misc]  # default binds the loop value  # type: ignore[misc]  # default binds the loop value
        return {
            "status": "ok",
            "input_sets": len(signatures),
            "shapes": len(set(signatures)),
            "programs_first": int(first),
            "programs": int(counter.frame_count),
            "method": "torch.compile with static shapes (as XLA compiles), counting compiled frames",
        }
    except UserError:
        raise
    except Exception as exc:
        return {"status": "failed", "detail": f"{type(exc).__name__}: {_first_line(exc)}"}
    finally:
        dynamo.reset()


def _import_route(name: str) -> tuple[Any, str | None]:
    """Import `name` for a TPU route: (the module, None), or (None, the one-line reason it is not usable)."""
    if importlib.util.find_spec(name) is None:
        return None, f"{name}: not installed"
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
            if name.startswith("aten::") and count > 0:
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


def _torchax_route(model: Any, inputs: tuple, loader: Loader, findings: dict[str, Any]) -> dict[str, Any]:
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
    try:
        import jax
        import jax.numpy as jnp

        states, jax_func = tx.extract_jax(model)
        specs = (
            _jax_specs(states),
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
    return _export_for(
        lambda w, *xs: jax_func(w, xs),
        specs,
        "tpu",
        loader,
        {},
        route='torchax.extract_jax, then jax.export, platforms=["tpu"]',
        function="model().forward",
    )


# =========================================================================== JAX

#: primitives that send data to the host CPU and back.
_CALLBACKS = {"pure_callback", "io_callback", "debug_callback", "callback", "host_callback"}
#: primitives that are custom kernels or foreign functions rather than XLA operations.
_CUSTOM_JAX = {"pallas_call", "ffi_call", "custom_call", "mosaic_gpu_call", "triton_kernel_call"}
_ZERO_WORK = {
    "reshape",
    "broadcast_in_dim",
    "squeeze",
    "expand_dims",
    "transpose",
    "convert_element_type",
    "slice",
    "dynamic_slice",
    "concatenate",
    "pjit",
    "jit",
    "closed_call",
    "custom_jvp_call",
    "custom_vjp_call",
    "custom_vjp_call_jaxpr",
    "remat",
    "checkpoint",
    "copy",
    "copy_p",
    "iota",
    "stop_gradient",
    "select_n",
    "pad",
    "rev",
    "gather",
    "dynamic_update_slice",
    "device_put",
}


class JaxWalk:
    """Walks a jaxpr (and every jaxpr inside it): primitives, work, float64, callbacks, custom kernels."""

    def __init__(self, loader: Loader) -> None:
        self.loader = loader
        self.matmul = 0
        self.other = 0
        self.primitives: dict[str, int] = {}
        self.float64: dict[str, str | None] = {}
        self.callbacks: dict[str, str | None] = {}
        self.custom: dict[str, str | None] = {}
        self.loops_counted_once = False

    def where(self, eqn: Any) -> str | None:
        try:
            from jax._src import source_info_util

            frames = list(source_info_util.user_frames(eqn.source_info.traceback))
        except Exception:
            return None
        for frame in frames:
            if os.path.abspath(frame.file_name) == self.loader.path:
                return f"{os.path.basename(self.loader.path)}:{frame.start_line}"
        return None

    def walk(self, jaxpr: Any, times: int = 1) -> None:
        import numpy as np

        for eqn in jaxpr.eqns:
            name = eqn.primitive.name
            self.primitives[name] = self.primitives.get(name, 0) + 1
            outs = [v.aval for v in eqn.outvars]
            for aval in outs:
                dtype = getattr(aval, "dtype", None)
                if dtype is not None and str(dtype) in ("float64", "complex128") and name not in self.float64:
                    self.float64[name] = self.where(eqn)
            if name in _CALLBACKS and name not in self.callbacks:
                self.callbacks[name] = self.where(eqn)
            if name in _CUSTOM_JAX and name not in self.custom:
                self.custom[name] = self.where(eqn)
            out_n = sum(int(np.prod(getattr(a, "shape", ()))) for a in outs)
            params = eqn.params
            if name == "dot_general":
                (contract_l, _), _ = params["dimension_numbers"]
                lhs = eqn.invars[0].aval.shape
                k = int(np.prod([lhs[d] for d in contract_l])) if contract_l else 1
                self.matmul += times * 2 * out_n * k
            elif name == "conv_general_dilated":
                rhs = eqn.invars[1].aval.shape
                dn = params["dimension_numbers"]
                spec = dn.rhs_spec if hasattr(dn, "rhs_spec") else (0, 1, *range(2, len(rhs)))
                in_feat = rhs[spec[1]]
                spatial = int(np.prod([rhs[d] for d in spec[2:]]))
                self.matmul += times * 2 * out_n * int(in_feat) * spatial
            elif name in (
                "reduce_sum",
                "reduce_max",
                "reduce_min",
                "reduce_prod",
                "argmax",
                "argmin",
                "reduce_and",
                "reduce_or",
                "cumsum",
                "cumprod",
                "cummax",
                "cumlogsumexp",
            ):
                self.other += times * int(np.prod(eqn.invars[0].aval.shape))
            elif name not in _ZERO_WORK:
                self.other += times * out_n
            # nested programs
            if name == "scan":
                self.walk(params["jaxpr"].jaxpr, times * int(params.get("length", 1)))
            elif name == "while":
                self.loops_counted_once = True
                self.walk(params["body_jaxpr"].jaxpr, times)
                self.walk(params["cond_jaxpr"].jaxpr, times)
            elif name == "cond":
                before = (self.matmul, self.other)
                costs = []
                for branch in params["branches"]:
                    self.matmul, self.other = 0, 0
                    self.walk(branch.jaxpr, times)
                    costs.append((self.matmul, self.other))
                best = max(costs, key=lambda c: c[0] + c[1]) if costs else (0, 0)
                self.matmul, self.other = before[0] + best[0], before[1] + best[1]
            else:
                for value in params.values():
                    for sub in value if isinstance(value, (list, tuple)) else (value,):
                        inner = getattr(sub, "jaxpr", None)
                        if inner is not None and hasattr(inner, "eqns"):
                            self.walk(inner, times)
                        elif hasattr(sub, "eqns"):
                            self.walk(sub, times)


_DATA_DEPENDENT_JAX = (
    "NonConcreteBooleanIndexError",
    "ConcretizationTypeError",
    "TracerBoolConversionError",
    "TracerIntegerConversionError",
    "TracerArrayConversionError",
)


def _jax_specs(tree: Any) -> Any:
    import jax

    return jax.tree.map(lambda x: jax.ShapeDtypeStruct(x.shape, x.dtype), tree)


def _jax_leaves_ok(tree: Any, function: str) -> None:
    import jax

    leaves = jax.tree.leaves(tree)
    if len(leaves) > MAX_LEAVES:
        raise UserError("contract", f"{function} returned {len(leaves)} arrays; at most {MAX_LEAVES}", function)
    for leaf in leaves:
        if not hasattr(leaf, "shape") or not hasattr(leaf, "dtype"):
            raise UserError("contract", f"{function} must return arrays; found {type(leaf).__name__}", function)


def _jax_signature(inputs: tuple) -> str:
    import jax

    return ", ".join(f"{x.dtype}{list(x.shape)}" for x in jax.tree.leaves(inputs))


def _jax_shapes(loader: Loader, name: str) -> Any:
    """What the user's function returns, as shapes and dtypes only (jax.eval_shape computes nothing: no
    random initialisation of large weights); a function it cannot follow (numpy, files) is called for real."""
    import jax

    fn = getattr(loader.module, name)
    _stage(f"calling {name}()", f"{name}()")
    try:
        return jax.eval_shape(fn)
    except Exception:
        return loader.call(name)


def _export_for(
    fn: Callable[..., Any],
    specs: tuple,
    platform: str,
    loader: Loader,
    callbacks: dict[str, str | None],
    route: str,
    function: str = "forward()",
) -> dict[str, Any]:
    """Lower `fn` ahead of time for `platform` with jax.export: the StableHLO module's custom calls, or why not."""
    import jax
    from jax import export

    _stage(f"lower for {platform.upper()} ({route})", function)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exp = export.export(jax.jit(fn), platforms=[platform])(*specs)
            text = exp.mlir_module()
        calls = sorted(set(re.findall(r"stablehlo\.custom_call @([\w.$-]+)", text)))
        return {
            "status": "ok",
            "route": route,
            "detail": f"StableHLO module of {len(text) // 1024} KiB",
            "location": None,
            "custom_calls": calls[:MAX_ITEMS],
        }
    except Exception as exc:
        detail = f"{type(exc).__name__}: {_first_line(exc)}"
        if callbacks and "platform" in str(exc):
            detail = (
                f"host callback ({', '.join(callbacks)}) runs Python on the host CPU; "
                f"it cannot be lowered ahead of time for {platform.upper()} ({detail})"
            )
        line = loader.user_line(exc.__traceback__)
        return {
            "status": "failed",
            "route": route,
            "detail": detail,
            "location": f"{os.path.basename(loader.path)}:{line}" if line else None,
            "custom_calls": [],
        }


def _jax_load(loader: Loader) -> tuple[Any, tuple, list[tuple]]:
    """params(), example_inputs() and other_inputs() as shapes and dtypes, each checked against the contract."""
    params = _jax_shapes(loader, "params")
    _jax_leaves_ok(params, "params()")
    inputs = _as_tuple(_jax_shapes(loader, "example_inputs"), "example_inputs()")
    _jax_leaves_ok(inputs, "example_inputs()")
    others = _jax_shapes(loader, "other_inputs") if loader.has("other_inputs") else []
    if not isinstance(others, (list, tuple)):
        raise UserError(
            "contract",
            f"other_inputs() must return a list of input tuples, got {type(others).__name__}",
            "other_inputs()",
        )
    others = [_as_tuple(o, "other_inputs()") for o in others][:32]
    for o in others:
        _jax_leaves_ok(o, "other_inputs()")
    return params, inputs, others


def _jax_trace(
    forward: Callable[..., Any],
    params: Any,
    inputs: tuple,
    loader: Loader,
    findings: dict[str, Any],
    recorder: warnings.catch_warnings,
) -> tuple[Any, dict[str, Any] | None]:
    """Trace `forward` to a jaxpr: (the jaxpr, None), or (None, the error) when Python control flow depends on
    array values; any other error is the user's and is raised (after closing `recorder`)."""
    import jax

    _stage("trace with jax.make_jaxpr", "forward()")
    try:
        return jax.make_jaxpr(forward)(params, *inputs), None
    except Exception as exc:
        if type(exc).__name__ not in _DATA_DEPENDENT_JAX:
            recorder.__exit__(None, None, None)
            loader._run(_raising(exc), "forward()")
        line = loader.user_line(exc.__traceback__)
        where = f"{os.path.basename(loader.path)}:{line}" if line else None
        findings["data_dependent"].append(
            {
                "what": f"a shape or Python branch that depends on array values ({type(exc).__name__})",
                "location": where,
            }
        )
        return None, {"detail": f"{type(exc).__name__}: {_first_line(exc)}", "location": where}


def _jax_float64_requested(caught: list[warnings.WarningMessage], loader: Loader) -> list[str]:
    """Where the code asked for float64 while jax_enable_x64 is off ("" for a place outside the user's file)."""
    requested64: list[str] = []
    for w in caught:
        if "float64" in str(w.message) and "not available" in str(w.message):
            where = f"{os.path.basename(w.filename)}:{w.lineno}" if os.path.abspath(w.filename) == loader.path else None
            requested64.append(where or "")
    return requested64


def _jax_scan(jaxpr: Any, loader: Loader, requested64: list[str], findings: dict[str, Any]) -> JaxWalk:
    """Walk the traced jaxpr (when there is one): work, float64, host callbacks and custom kernels."""
    walk = JaxWalk(loader)
    if jaxpr is not None:
        walk.walk(jaxpr.jaxpr)
        findings["flops"] = {
            "matmul": walk.matmul,
            "other": walk.other,
            "method": "counted from the traced jaxpr: dot_general and convolutions as 2 x "
            "multiply-adds; every other primitive 1 operation per output element "
            "(per input element for reductions); reshapes and copies 0; scan bodies "
            "x their length" + ("; while-loop bodies once (trip count unknown)" if walk.loops_counted_once else ""),
        }
    else:
        findings["flops"] = None
    findings["float64"] = [{"op": k, "location": v} for k, v in walk.float64.items()][:MAX_ITEMS]
    if requested64 and not walk.float64:
        findings["float64_requested"] = [loc or None for loc in requested64][:MAX_ITEMS]
        findings["notes"].append("the code asks for float64, but jax_enable_x64 is off, so JAX computes in float32")
    findings["host_callbacks"] = [{"name": k, "location": v} for k, v in walk.callbacks.items()]
    findings["custom_ops"] = [
        {"name": k, "kind": "custom kernel or foreign function", "location": v} for k, v in walk.custom.items()
    ]
    return walk


def _jax_lowerings(
    forward: Callable[..., Any],
    specs: tuple,
    loader: Loader,
    callbacks: dict[str, str | None],
    trace_error: dict[str, Any] | None,
    findings: dict[str, Any],
) -> None:
    """Lower for TPU and for CUDA GPUs with jax.export (works without either chip); a failed trace fails both."""
    for platform, key in (("tpu", "tpu_lowering"), ("cuda", "cuda_lowering")):
        route = f'jax.export, platforms=["{platform}"]'
        if trace_error is not None:
            findings[key] = {
                "status": "failed",
                "route": route,
                "detail": trace_error["detail"],
                "location": trace_error["location"],
                "custom_calls": [],
            }
            continue
        findings[key] = _export_for(forward, specs, platform, loader, callbacks, route)


def _jax_programs(
    forward: Callable[..., Any], params: Any, inputs: tuple, others: list[tuple], loader: Loader
) -> dict[str, Any] | None:
    """Recompiles: jax.jit compiles one program per distinct input signature; each new one is traced."""
    if not others:
        return None
    import jax

    _stage("trace other_inputs()", "forward()")
    signatures = [_jax_signature(inputs)]
    failed = None
    for o in others:
        signature = _jax_signature(o)
        seen = signature in signatures
        signatures.append(signature)
        if seen:  # jax.jit reuses the program it compiled for this signature
            continue
        try:
            jax.make_jaxpr(forward)(params, *o)
        except Exception as exc:
            if type(exc).__name__ in _DATA_DEPENDENT_JAX:
                failed = f"{type(exc).__name__}: {_first_line(exc)}"
            else:
                loader._run(_raising(exc), "forward()")
    distinct = len(set(signatures))
    return {
        "status": "ok" if failed is None else "failed",
        "input_sets": len(signatures),
        "shapes": distinct,
        "programs_first": 1,
        "programs": distinct,
        "method": "jax.jit compiles one program per distinct input shape and dtype",
        **({"detail": failed} if failed else {}),
    }


def check_jax(loader: Loader) -> dict[str, Any]:
    import jax

    findings: dict[str, Any] = {
        "framework": "jax",
        "versions": {"jax": jax.__version__},
        "notes": [],
        "non_core_ops": [],
        "graph_breaks": None,
    }
    recorder = warnings.catch_warnings(record=True)
    caught = recorder.__enter__()
    warnings.simplefilter("always")
    try:
        params, inputs, others = _jax_load(loader)
    except BaseException:
        recorder.__exit__(None, None, None)
        raise
    leaves = jax.tree.leaves(params)
    findings["parameters"] = sum(int(x.size) for x in leaves)
    findings["parameter_bytes"] = sum(int(x.size) * x.dtype.itemsize for x in leaves)
    findings["inputs"] = _jax_signature(inputs)
    forward = loader.module.forward  # type: ignore[union-attr]  # the loader checked that forward exists
    findings["data_dependent"] = []

    # 1. trace to a jaxpr: primitives, work, float64, callbacks; data-dependent Python control flow fails here
    jaxpr, trace_error = _jax_trace(forward, params, inputs, loader, findings, recorder)
    recorder.__exit__(None, None, None)
    walk = _jax_scan(jaxpr, loader, _jax_float64_requested(caught or [], loader), findings)

    # 2. lowering for TPU and for CUDA GPUs with jax.export: works without either chip
    specs = (_jax_specs(params), *_jax_specs(inputs))
    _jax_lowerings(forward, specs, loader, walk.callbacks, trace_error, findings)

    # 3. recompiles: jax.jit compiles one program per distinct input signature
    findings["programs"] = _jax_programs(forward, params, inputs, others, loader)
    findings["static_graph"] = (
        {"status": "ok", "detail": f"one jaxpr of {sum(walk.primitives.values())} primitives", "location": None}
        if jaxpr is not None
        else {
            "status": "failed",
            "detail": trace_error["detail"] if trace_error else "",
            "location": trace_error["location"] if trace_error else None,
        }
    )
    return findings


# =========================================================================== entry point


def _limit_memory(megabytes: int) -> None:
    if megabytes <= 0:
        return
    try:
        import resource

        limit = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, ValueError, OSError):  # not on this OS: the parent's timeout still applies
        pass


def _peak_rss_mb() -> float | None:
    try:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return round(peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024, 1)
    except (ImportError, OSError):
        return None


def _tpu_compile(
    loader: Loader, findings: dict[str, Any], args: argparse.Namespace, start: float
) -> dict[str, Any] | None:
    """6. Compile for the catalogue's TPU generations, in a child process (worker/tpu_compile.py), within what is
    left of the check's timeout; skipped when lowering for TPU already failed, not tried with --tpu-chips 0."""
    if args.tpu_chips <= 0:
        return None
    lowering = findings.get("tpu_lowering") or {}
    if lowering.get("status") == "failed":
        return {
            "status": "failed",
            "detail": "not compiled: lowering for TPU failed, so the TPU compiler has no program",
            "chips": args.tpu_chips,
        }
    try:
        targets = json.loads(args.tpu_targets)
    except ValueError:
        targets = []
    # stop early enough that the findings still reach the parent before its own timeout
    left = (args.timeout - (time.monotonic() - start) - max(5.0, 0.1 * args.timeout)) if args.timeout > 0 else 600.0
    return tpu_compile.compile_in_child(
        loader.path,
        findings["framework"],
        args.tpu_chips,
        targets if isinstance(targets, list) else [],
        left,
        on_stage=lambda text: _stage(text, "the TPU compiler"),
    )


def main(argv: list[str] | None = None) -> int:
    """Check one model file and print the findings as JSON lines; exit 0 when a line was printed."""
    global _OUT
    parser = argparse.ArgumentParser(prog="gpu-tpu-app model-check-worker")
    parser.add_argument("file")
    parser.add_argument("--memory-limit-mb", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=0.0, help="the check's timeout, for the TPU compile step")
    parser.add_argument("--tpu-chips", type=int, default=1)
    parser.add_argument("--tpu-targets", default="[]", help="JSON list of {id, topology, dims} to compile for")
    args = parser.parse_args(argv)
    # keep the real stdout for our lines; whatever the model or the frameworks print goes to stderr
    sys.stdout.flush()
    fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    _OUT = os.fdopen(fd, "w", buffering=1, encoding="utf-8")
    _limit_memory(args.memory_limit_mb)
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    start = time.monotonic()
    loader = Loader(args.file)
    try:
        loader.load()
        framework = _framework(loader)
        findings = check_torch(loader) if framework == "pytorch" else check_jax(loader)
        findings["tpu_compile"] = _tpu_compile(loader, findings, args, start)
        findings["worker_seconds"] = round(time.monotonic() - start, 3)
        findings["peak_rss_mb"] = _peak_rss_mb()
        _emit({"type": "findings", "findings": findings})
        return 0
    except UserError as err:
        _emit({"type": "error", "kind": err.kind, "message": err.message, "function": err.function, "line": err.line})
        return 0
    except MemoryError:
        _emit(
            {
                "type": "error",
                "kind": "memory",
                "message": "ran out of memory under the check's memory limit",
                "function": None,
                "line": None,
            }
        )
        return 0
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        traceback.print_exc()
        _emit(
            {
                "type": "error",
                "kind": "internal",
                "message": f"the check itself failed: {type(exc).__name__}: {_first_line(exc)}",
                "function": None,
                "line": loader.user_line(exc.__traceback__),
            }
        )
        return 0


if __name__ == "__main__":
    sys.exit(main())
