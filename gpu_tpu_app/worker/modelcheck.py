"""The model-check worker: loads a user's model file in this process only and measures what XLA would see.

Started as `gpu-tpu-app model-check-worker FILE [--memory-limit-mb N]` by the CLI or the window,
never imported by them. It needs only the standard library and the model's framework (it may
run in another interpreter); what it finds is a plain JSON object that the app validates on its
side (gpu_tpu_app.core.modelcheck). Stdout carries one JSON object per line:

  {"type": "stage", "stage": ..., "function": ...}   what runs now (the parent names it on a timeout)
  {"type": "findings", "findings": {...}}             the measurements, once
  {"type": "error", "kind": ..., "message": ..., "function": ..., "line": ...}

The model contract: PyTorch `model()` and `example_inputs()`; JAX `params()`,
`forward(params, *inputs)` and `example_inputs()`; either may add `other_inputs()`. This module holds
the entry point and the JAX stages; the PyTorch stages are in gpu_tpu_app.worker.modelcheck_torch.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
import traceback
import warnings
from collections.abc import Callable
from typing import Any

from gpu_tpu_app.worker import modelcheck_base as base
from gpu_tpu_app.worker import modelcheck_work as work
from gpu_tpu_app.worker import tpu_compile
from gpu_tpu_app.worker.modelcheck_base import (
    MAX_ITEMS,
    MAX_LEAVES,
    Loader,
    UserError,
    _as_tuple,
    _emit,
    _first_line,
    _framework,
    _raising,
    _stage,
)
from gpu_tpu_app.worker.modelcheck_torch import check_torch

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


_JAX_LINALG = {"cholesky", "triangular_solve", "eigh", "eig", "svd", "qr", "geqrf", "householder_product", "lu"}


def _jax_linalg_work(name: str, eqn: Any) -> int:
    """Work of one dense linear-algebra or FFT primitive (gpu_tpu_app.worker.modelcheck_work)."""
    a = eqn.invars[0].aval.shape
    batch = work._prod(a[:-2]) if len(a) > 2 else 1
    params = eqn.params
    if name == "fft":
        lengths = [int(n) for n in params.get("fft_lengths", ())]
        n = work._prod(lengths)
        signal = eqn.outvars[0].aval.shape if "IRFFT" in str(params.get("fft_type", "")) else a
        return work.fft_work(n, work._prod(signal) // max(1, n))
    if name == "triangular_solve":
        return work.triangular_solve_work(int(a[-1]), work._prod(eqn.invars[1].aval.shape))
    n = int(a[-1]) if a else 1
    if name == "cholesky":
        return work.cholesky_work(n, batch)
    if name == "lu":
        return work.lu_work(n, batch)
    if name == "eigh":
        return work.eigh_work(n, True, batch)
    if name == "eig":
        return work.eig_work(n, bool(params.get("compute_right_eigenvectors", True)), batch)
    if name == "svd":
        return work.svd_work(int(a[-2]), n, bool(params.get("compute_uv", True)), batch)
    return work.qr_work(int(a[-2]) if len(a) > 1 else n, n, name != "geqrf", batch)


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
        self.kinds: dict[str, int] = {}

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
            elif name in _JAX_LINALG or name == "fft":
                ops = times * _jax_linalg_work(name, eqn)
                kind = work.FFT if name == "fft" else work.LINALG
                self.kinds[kind] = self.kinds.get(kind, 0) + ops
                if kind in work.MATRIX_KINDS:
                    self.matmul += ops
                else:
                    self.other += ops
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
            "kinds": {k: v for k, v in walk.kinds.items() if v},
            "method": "counted from the traced jaxpr: dot_general and convolutions as 2 x "
            "multiply-adds; dense linear algebra (Cholesky, triangular solves, LU, eigh, SVD, QR) by the "
            "Golub-Van Loan operation counts, as matrix math; FFTs at 2.5 N log2 N, outside it; "
            "every other primitive 1 operation per output element "
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
    ] + [
        {"name": f"jax.{k}", "kind": "host callback (Python on the host CPU in every step)", "location": v}
        for k, v in walk.callbacks.items()
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
    base.set_output(os.fdopen(fd, "w", buffering=1, encoding="utf-8"))
    _limit_memory(args.memory_limit_mb)
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    start = time.monotonic()
    loader = Loader(args.file)
    try:
        loader.load()
        framework = _framework(loader)
        findings = check_torch(loader, _export_for) if framework == "pytorch" else check_jax(loader)
        findings["tpu_compile"] = _tpu_compile(loader, findings, args, start)
        findings["worker_seconds"] = round(time.monotonic() - start, 3)
        findings["interpreter"] = sys.executable
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
                "message": f"{type(exc).__name__}: {_first_line(exc)}",
                "function": None,
                "line": None,  # the check's own code failed: never pointed at a line of the user's file
            }
        )
        return 0


if __name__ == "__main__":
    sys.exit(main())
