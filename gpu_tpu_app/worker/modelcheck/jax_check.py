"""The model-check worker's JAX stages: load `params()`, `forward` and `example_inputs()`, trace, walk the jaxpr.

Worker side: the standard library and JAX only (imported by gpu_tpu_app.worker.modelcheck, the entry
point; `_export_for` also serves the torchax route of gpu_tpu_app.worker.modelcheck.torch_check).
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Callable
from typing import Any

from gpu_tpu_app.worker.modelcheck import work
from gpu_tpu_app.worker.modelcheck.base import (
    MAX_ITEMS,
    MAX_LEAVES,
    Loader,
    UserError,
    _as_tuple,
    _first_line,
    _raising,
    _stage,
    printable,
)
from gpu_tpu_app.worker.modelcheck.outputs import flat_forward
from gpu_tpu_app.worker.notes import join, note

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
    """Work of one dense linear-algebra or FFT primitive (gpu_tpu_app.worker.modelcheck.work)."""
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

    def __init__(self, loader: Loader, multiply_loops: bool = True) -> None:
        self.loader = loader
        #: False: every loop body counted once, as XLA's cost_analysis() counts it (the TPU compile's comparison)
        self.multiply_loops = multiply_loops
        #: trip counts of the loops with a static one (scan, fori_loop with static bounds), as met
        self.static_loops: list[int] = []
        #: each Pallas kernel met: whether it runs in the interpreter (interpret=True: emulated by XLA operations)
        self.pallas: list[bool] = []
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
                length = int(params.get("length", 1))
                if length > 1 and len(self.static_loops) < 1000:
                    self.static_loops.append(length)
                self.walk(params["jaxpr"].jaxpr, times * length if self.multiply_loops else times)
            elif name == "pallas_call":
                # the kernel's body runs once per grid point
                self.pallas.append(bool(params.get("interpret", False)))
                grid = getattr(params.get("grid_mapping"), "grid", ()) or ()
                points = int(np.prod([g for g in grid if isinstance(g, int)])) if grid else 1
                inner = params.get("jaxpr")
                if inner is not None and hasattr(inner, "eqns"):
                    self.walk(inner, times * points if self.multiply_loops else times)
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
            "detail": note("check.stablehlo_size", kib=len(text) // 1024),
            "location": None,
            "custom_calls": calls[:MAX_ITEMS],
        }
    except Exception as exc:
        detail = f"{type(exc).__name__}: {_first_line(exc)}"
        if callbacks and "platform" in printable(exc):
            detail = note(
                "check.host_callback", callbacks=", ".join(callbacks), platform=platform.upper(), error=detail
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
                "what": note("check.value_dependent", error=type(exc).__name__),
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
            "method": join(note("check.count_jaxpr"), note("check.while_once") if walk.loops_counted_once else None),
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
        "method": note("check.programs_jax"),
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
    # an output of any pytree-like shape (a dataclass, a namedtuple, a cache object) reaches jax as its arrays
    forward = flat_forward(jax, loader.module.forward)  # type: ignore[union-attr]  # the loader checked it exists
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
