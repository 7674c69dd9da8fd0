"""The PyTorch side of the model check's eager pass: every operator, its work, layouts, float64, custom ops.

Worker side: needs only the standard library and torch (imported inside the functions, so that this
module loads in an interpreter without torch). `TorchObserver.mode()` is a dispatch mode that records
each operator as the model runs once; higher-order operators (`torch.cond`, `while_loop`, `scan`,
`flex_attention`, ...) pass through it and the branch or body that runs is followed and counted. An
error in the recording is the check's own and never the model's: it is kept in `observer.errors` and
the model goes on running.

Work per operator (gpu_tpu_app.worker.modelcheck.work): torch's own FLOP formulas
(`torch.utils.flop_counter`) for matrix multiplies, convolutions and attention; the formulas there for
fused kernels (`_transformer_encoder_layer_fwd`, `_native_multi_head_attention`, `mkldnn_rnn_layer`),
dense linear algebra, FFTs and sparse products; one operation per output element for everything
else (per input element for reductions); views zero.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

from gpu_tpu_app.worker.modelcheck import work
from gpu_tpu_app.worker.notes import note

#: how many items of one kind the observer keeps.
MAX_ITEMS = 20

VIEW_OPS = frozenset(
    {
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
        "unsafe_split",
        "unbind",
        "chunk",
        "flatten",
        "unflatten",
        "view_as",
        "expand_as",
        "narrow",
        "_reshape_alias",
        "lift_fresh",
        "_linalg_check_errors",
        "empty",
        "zeros",
        "ones",
        "full",
        "zeros_like",
        "empty_like",
        "_to_copy",
        "clone",
        "copy_",
        "contiguous",
        "_nested_view_from_jagged",
        "_nested_get_values",
        "sym_size",
    }
)
REDUCTIONS = frozenset(
    {
        "sum",
        "mean",
        "amax",
        "amin",
        "max",
        "min",
        "prod",
        "var",
        "std",
        "var_mean",
        "std_mean",
        "norm",
        "linalg_vector_norm",
        "logsumexp",
        "argmax",
        "argmin",
        "any",
        "all",
        "cumsum",
        "cumprod",
    }
)
#: operators whose output shape depends on the values of their input.
DATA_DEPENDENT = frozenset(
    {
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
)
#: reading a tensor's value into Python: a host sync, not an operator a TPU lacks.
HOST_SYNC = frozenset({"_local_scalar_dense", "item", "is_nonzero"})
DD_TEXT = {
    "_local_scalar_dense": "a host sync: a tensor's value is read into Python (.item(), .tolist(), bool() or an "
    "if on a tensor), so what follows depends on the data",
    "item": "a host sync: a tensor's value is read into Python (.item())",
    "nonzero": "aten.nonzero (or a boolean-mask index): its output size depends on the data",
    "masked_select": "aten.masked_select: its output size depends on the data",
}
EMBEDDING_OPS = frozenset({"embedding", "embedding_bag", "_embedding_bag", "_embedding_bag_forward_only"})
_LINALG = {
    "linalg_cholesky_ex",
    "cholesky",
    "linalg_cholesky",
    "cholesky_solve",
    "_cholesky_solve_helper",
    "cholesky_inverse",
    "triangular_solve",
    "linalg_solve_triangular",
    "linalg_solve",
    "linalg_solve_ex",
    "_linalg_solve_ex",
    "linalg_lu_factor_ex",
    "linalg_lu",
    "linalg_lu_solve",
    "lu_solve",
    "linalg_inv_ex",
    "_linalg_det",
    "_linalg_slogdet",
    "linalg_eigh",
    "_linalg_eigh",
    "linalg_eigvalsh",
    "linalg_eig",
    "linalg_eigvals",
    "_linalg_svd",
    "linalg_svd",
    "svd",
    "linalg_qr",
    "geqrf",
    "_euclidean_dist",
    "_cdist_forward",
    "cdist",
}


def _tensor(x: Any, torch: Any) -> bool:
    return isinstance(x, torch.Tensor)


def numel_of(value: Any, torch: Any) -> int:
    if isinstance(value, torch.Tensor):
        return int(value.numel())
    if isinstance(value, (list, tuple)):
        return sum(numel_of(v, torch) for v in value)
    return 0


def _batch(t: Any, matrix_dims: int = 2) -> int:
    return work._prod(t.shape[:-matrix_dims]) if t.dim() > matrix_dims else 1


_SPARSE_NAMES = {
    "sparse_coo": "sparse COO",
    "sparse_csr": "sparse CSR",
    "sparse_csc": "sparse CSC",
    "sparse_bsr": "sparse BSR",
    "sparse_bsc": "sparse BSC",
}


def layout_of(t: Any, torch: Any) -> str | None:
    """'sparse COO', 'nested (jagged)', 'channels-last' ...; None for a plain dense tensor."""
    try:
        if getattr(t, "is_nested", False):
            return "nested (jagged)" if t.layout == getattr(torch, "jagged", object()) else "nested"
        name = str(t.layout).replace("torch.", "")
        if name in _SPARSE_NAMES:
            return _SPARSE_NAMES[name]
        if name != "strided":
            return name
        if t.dim() == 4 and t.is_contiguous(memory_format=torch.channels_last) and not t.is_contiguous():
            return "channels-last"
        if t.dim() == 5 and t.is_contiguous(memory_format=torch.channels_last_3d) and not t.is_contiguous():
            return "channels-last-3d"
    except Exception:
        return None
    return None


def is_sparse(t: Any) -> bool:
    try:
        return str(t.layout).replace("torch.", "") in _SPARSE_NAMES
    except Exception:
        return False


def _nnz(t: Any) -> int:
    try:
        return int(t._nnz())
    except Exception:
        try:
            return int(t.values().numel())
        except Exception:
            return int(t.numel())


def _sparse_work(base: str, args: tuple, out: Any, torch: Any) -> tuple[str, int]:
    tensors = [a for a in args if _tensor(a, torch)]
    sparse = [a for a in tensors if is_sparse(a)]
    dense = [a for a in tensors if not is_sparse(a) and a.dim() >= 1]
    if "mm" in base or "matmul" in base:
        if sparse and dense:
            k = int(dense[-1].shape[-1]) if dense[-1].dim() >= 2 else 1
            return work.SPARSE, work.sparse_mm_work(_nnz(sparse[0]), k)
        if len(sparse) >= 2:  # sparse x sparse: each stored value of the left meets a row of the right
            rows = max(1, int(sparse[1].shape[0]))
            return work.SPARSE, work.sparse_mm_work(_nnz(sparse[0]), max(1, _nnz(sparse[1]) // rows))
    return work.OTHER, max([_nnz(s) for s in sparse] + [numel_of(out, torch) if not is_sparse(out) else 0])


def _linalg_work(base: str, args: tuple, kwargs: dict, out: Any) -> int:
    a = args[0]
    if base in ("_euclidean_dist", "_cdist_forward", "cdist"):
        x1, x2 = args[0], args[1]
        m, d, n = int(x1.shape[-2]), int(x1.shape[-1]), int(x2.shape[-2])
        return _batch(x1) * (2 * m * n * d + 3 * (m + n) * d)
    if base in ("cholesky_solve", "_cholesky_solve_helper", "linalg_lu_solve", "lu_solve"):
        factor = args[1] if base != "linalg_lu_solve" else args[0]
        rhs = args[0] if base != "linalg_lu_solve" else args[2]
        return 2 * work.triangular_solve_work(int(factor.shape[-1]), int(rhs.numel()))
    if base in ("triangular_solve", "linalg_solve_triangular"):
        # triangular_solve(b, A); linalg_solve_triangular(A, B)
        tri, rhs = (args[1], args[0]) if base == "triangular_solve" else (args[0], args[1])
        return work.triangular_solve_work(int(tri.shape[-1]), int(rhs.numel()))
    n = int(a.shape[-1])
    batch = _batch(a)
    if base in ("linalg_cholesky_ex", "cholesky", "linalg_cholesky", "cholesky_inverse"):
        return work.cholesky_work(n, batch) * (3 if base == "cholesky_inverse" else 1)
    if base in ("linalg_solve", "linalg_solve_ex", "_linalg_solve_ex"):
        rhs = args[1]
        return work.lu_work(n, batch) + 2 * work.triangular_solve_work(n, int(rhs.numel()))
    if base in ("linalg_lu_factor_ex", "linalg_lu", "_linalg_det", "_linalg_slogdet"):
        return work.lu_work(n, batch)
    if base == "linalg_inv_ex":
        return 3 * work.lu_work(n, batch)
    if base in ("linalg_eigh", "_linalg_eigh", "linalg_eigvalsh"):
        vectors = base != "linalg_eigvalsh" and bool(kwargs.get("compute_v", args[2] if len(args) > 2 else True))
        return work.eigh_work(n, vectors, batch)
    if base in ("linalg_eig", "linalg_eigvals"):
        return work.eig_work(n, base == "linalg_eig", batch)
    if base in ("_linalg_svd", "linalg_svd", "svd"):
        vectors = bool(kwargs.get("compute_uv", args[2] if base == "_linalg_svd" and len(args) > 2 else True))
        return work.svd_work(int(a.shape[-2]), n, vectors, batch)
    if base in ("linalg_qr", "geqrf"):
        mode = kwargs.get("mode", args[1] if len(args) > 1 else "reduced")
        return work.qr_work(int(a.shape[-2]), n, base == "linalg_qr" and mode != "r", batch)
    return 0


def _fft_work(base: str, args: tuple, out: Any) -> int:
    signal = out if base == "_fft_c2r" else args[0]
    dims = [int(d) for d in (args[1] if len(args) > 1 else range(signal.dim()))]
    n = work._prod([signal.shape[d] for d in dims])
    return work.fft_work(n, int(signal.numel()) // max(1, n))


def _mha_work(b: int, lq: int, lk: int, embed: int) -> int:
    """Input projections (Q from the query, K and V from the key), the attention, the output projection."""
    projections = 2 * b * (lq + 2 * lk) * embed * embed + 2 * b * lq * embed * embed
    return projections + work.attention_work(b, lq, lk, embed)


def _fused_work(base: str, args: tuple, kwargs: dict, torch: Any) -> tuple[str, int] | None:
    """The matrix work inside fused layers PyTorch runs as one kernel in eval mode or on oneDNN."""
    if base == "_native_multi_head_attention":
        q, k, embed = args[0], args[1], int(args[3])
        if q.dim() == 2:
            return work.ATTENTION, _mha_work(1, int(q.shape[0]), int(k.shape[0]), embed)
        return work.ATTENTION, _mha_work(int(q.shape[0]), int(q.shape[1]), int(k.shape[1]), embed)
    if base == "_transformer_encoder_layer_fwd":
        src, embed = args[0], int(args[1])
        ffn: Any = args[14] if len(args) > 14 else kwargs.get("ffn_weight_1")
        hidden = int(ffn.shape[0]) if _tensor(ffn, torch) else 4 * embed
        tokens = int(src.numel()) // max(1, embed)
        length = int(src.shape[-2]) if not getattr(src, "is_nested", False) and src.dim() >= 2 else tokens
        batch = max(1, tokens // max(1, length))
        return work.ATTENTION, _mha_work(batch, length, length, embed) + 4 * tokens * embed * hidden
    if base == "mkldnn_rnn_layer":
        x, w_ih, w_hh = args[0], args[1], args[2]
        gates_rows, inp = int(w_ih.shape[0]), int(w_ih.shape[1])
        hidden = int(w_hh.shape[1])
        return work.RNN, work.rnn_work(int(x.numel()) // max(1, inp), inp, hidden, gates_rows // max(1, hidden))
    if base.startswith("_scaled_dot_product") and "backward" not in base:
        q, k, v = args[0], args[1], args[2]
        b = _batch(q)
        lq, e, lk, ev = int(q.shape[-2]), int(q.shape[-1]), int(k.shape[-2]), int(v.shape[-1])
        return work.ATTENTION, 2 * b * lq * lk * e + 2 * b * lq * lk * ev
    return None


def op_work(func: Any, args: tuple, kwargs: dict, out: Any, registry: dict, torch: Any) -> tuple[str, int]:
    """(kind, operations) of one operator call."""
    packet = func.overloadpacket
    base = packet.__name__
    if any(is_sparse(a) for a in args if _tensor(a, torch)):
        return _sparse_work(base, args, out, torch)
    fused = _fused_work(base, args, kwargs, torch)
    if fused is not None:
        return fused
    if base in _LINALG:
        return work.LINALG, _linalg_work(base, args, kwargs, out)
    if base in ("_fft_r2c", "_fft_c2r", "_fft_c2c"):
        return work.FFT, _fft_work(base, args, out)
    if packet in registry:
        kind = work.CONV if "conv" in base else work.ATTENTION if "attention" in base else work.MATMUL
        return kind, int(registry[packet](*args, **kwargs, out_val=out))
    if base in VIEW_OPS or (base.endswith("_copy") and base[:-5] in VIEW_OPS):
        return work.OTHER, 0
    out_n = numel_of(out, torch)
    if base in REDUCTIONS:
        out_n = max(out_n, max((numel_of(a, torch) for a in args if _tensor(a, torch)), default=0))
    return work.OTHER, out_n


def tokens_of(inputs: tuple, torch: Any) -> int:
    """How many tokens (items a weight is applied to at least once) the first input holds: every element
    of integer ids; a float input's elements over its feature (last) size up to 3-D; an image's batch."""
    if not inputs or not _tensor(inputs[0], torch):
        return 1
    t = inputs[0]
    try:
        if is_sparse(t) or getattr(t, "is_nested", False):
            return max(1, int(t.shape[0]))
        if t.dim() == 0:
            return 1
        if not t.is_floating_point() and not t.is_complex():
            return max(1, int(t.numel()))
        if t.dim() <= 3:
            return max(1, int(t.numel()) // max(1, int(t.shape[-1])))
        return max(1, int(t.shape[0]))
    except Exception:
        return 1


class TorchObserver:
    """Runs the model once eagerly under a dispatch mode: every operator, its work, float64, custom ops."""

    def __init__(self, user_location: Callable[[], str | None], model: Any = None) -> None:
        self.user_location = user_location
        self.work: dict[str, int] = {}
        self.ops: dict[str, int] = {}
        self.custom_ops: dict[str, dict[str, Any]] = {}
        self.float64: dict[str, str | None] = {}
        self.data_dependent: dict[str, str | None] = {}
        self.autograd_functions: dict[str, str | None] = {}
        self.higher_order: dict[str, str | None] = {}
        self.layouts: dict[str, str | None] = {}
        self.errors: list[str] = []
        self.uncounted: set[str] = set()
        self.hop_depth = 0
        self._params: dict[int, int] = {}
        self._used: set[int] = set()
        self._tls: tuple[Any, Any] | None = None
        if model is not None:
            for p in model.parameters():
                try:
                    self._params[p.untyped_storage().data_ptr()] = int(p.numel())
                except Exception:
                    pass

    # ---------------------------------------------------------------- results

    def matrix_ops(self) -> int:
        return sum(v for k, v in self.work.items() if k in work.MATRIX_KINDS)

    def other_ops(self) -> int:
        return sum(v for k, v in self.work.items() if k not in work.MATRIX_KINDS)

    def parameters_used(self) -> int:
        """Parameters that an operator other than an embedding lookup read during the pass."""
        return sum(n for ptr, n in self._params.items() if ptr in self._used)

    # ---------------------------------------------------------------- the mode

    def mode(self) -> Any:
        import torch
        from torch._ops import HigherOrderOperator
        from torch.utils._python_dispatch import TorchDispatchMode

        try:
            from torch.utils.flop_counter import flop_registry
        except Exception:  # an older torch: the formulas here still count the rest
            flop_registry = {}
        observer = self
        if self._tls is None:
            self._tls = (torch._C._dispatch_tls_local_include_set(), torch._C._dispatch_tls_local_exclude_set())

        class Mode(TorchDispatchMode):
            supports_higher_order_operators = True

            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                kwargs = kwargs or {}
                if isinstance(func, HigherOrderOperator):
                    return observer.higher_order_op(func, args, kwargs)
                out = func(*args, **kwargs)
                try:
                    observer.record(func, args, kwargs, out, flop_registry, torch)
                except Exception as exc:  # the check's own failure: keep it, never the model's
                    if len(observer.errors) < 5:
                        observer.errors.append(f"{func}: {type(exc).__name__}: {exc}"[:300])
                return out

        return Mode()

    def higher_order_op(self, func: Any, args: tuple, kwargs: dict) -> Any:
        """Follow a higher-order operator (cond, while_loop, scan, flex_attention, ...): run the branch or
        body that runs, under this observer, with the dispatch keys the model itself runs with."""
        import torch
        from torch._C import DispatchKey

        name = str(getattr(func, "name", lambda: func)())
        if name not in self.higher_order:
            self.higher_order[name] = self.user_location()
        guard = torch._C._ForceDispatchKeyGuard(*self._tls) if self._tls else None
        self.hop_depth += 1
        try:
            if name == "cond" and len(args) == 4:
                pred, true_fn, false_fn, operands = args
                taken = true_fn if bool(pred) else false_fn  # the predicate is read here, not in the model
                with guard or _null(), self.mode():
                    return taken(*operands)
            kernel = func.py_kernels.get(DispatchKey.CompositeExplicitAutograd)
            if kernel is None:
                self.uncounted.add(name)
                with guard or _null():
                    return func(*args, **kwargs)
            with guard or _null(), self.mode():
                return kernel(*args, **kwargs)
        finally:
            self.hop_depth -= 1

    def record(self, func: Any, args: tuple, kwargs: dict, out: Any, registry: dict, torch: Any) -> None:
        namespace = getattr(func, "namespace", "aten")
        base = func.overloadpacket.__name__
        name = f"{namespace}.{base}"
        self.ops[name] = self.ops.get(name, 0) + 1
        if namespace not in ("aten", "prim", "prims", "higher_order") and name not in self.custom_ops:
            self.custom_ops[name] = {
                "name": name,
                "kind": "custom operator (torch.library or extension)",
                "location": self.user_location(),
            }
        tensors = [a for a in args if _tensor(a, torch)]
        for t in tensors:
            layout = layout_of(t, torch)
            if layout and layout not in self.layouts and (layout != "channels-last" or len(self.layouts) < 8):
                self.layouts[layout] = self.user_location()
        if base not in EMBEDDING_OPS and self._params:
            for t in tensors:
                try:
                    ptr = t.untyped_storage().data_ptr()
                except Exception:
                    continue
                if ptr in self._params:
                    self._used.add(ptr)
        try:
            kind, ops = op_work(func, args, kwargs, out, registry, torch)
        except Exception:
            kind, ops = work.OTHER, numel_of(out, torch)
            self.uncounted.add(name)
        self.work[kind] = self.work.get(kind, 0) + max(0, int(ops))
        inside_hop_sync = self.hop_depth > 0 and base in HOST_SYNC
        if base in DATA_DEPENDENT and base not in self.data_dependent and not inside_hop_sync:
            self.data_dependent[base] = self.user_location()
        if name not in self.float64 and len(self.float64) < MAX_ITEMS:
            outs = out if isinstance(out, (list, tuple)) else (out,)
            if any(_tensor(o, torch) and o.dtype in (torch.float64, torch.complex128) for o in outs):
                self.float64[name] = self.user_location()

    def watch_autograd_functions(self, file: str) -> Callable[[], None]:
        """Record every torch.autograd.Function subclass applied while the model runs."""
        import torch

        original = torch.autograd.Function.apply.__func__  # type: ignore[attr-defined]  # a classmethod's function
        observer = self
        stem = os.path.basename(file)[:-3]

        def apply(cls, *args, **kwargs):
            key = f"{cls.__module__.replace('gpu_tpu_app_user_model', stem)}.{cls.__qualname__}"
            own = cls.__module__ == "torch" or cls.__module__.startswith("torch.")  # the framework's own
            if not own and key not in observer.autograd_functions:
                observer.autograd_functions[key] = observer.user_location()
            return original(cls, *args, **kwargs)

        torch.autograd.Function.apply = classmethod(apply)  # type: ignore[method-assign,assignment]  # restored after the run
        return lambda: setattr(torch.autograd.Function, "apply", classmethod(original))


class _null:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def method_text(observer: TorchObserver) -> str:
    """How the work was counted (the split by kind travels in the findings' kinds)."""
    return note("check.count_torch")


_UNBACKED = re.compile(r"\bu\d+\b")


def unbacked_sizes(graph_module: Any, torch: Any) -> list[str]:
    """The unbacked sizes (u0, u1, ... from .item(), .tolist() or nonzero) in an exported graph."""
    found: list[str] = []
    for node in graph_module.graph.nodes:
        val = node.meta.get("val")
        vals = val if isinstance(val, (list, tuple)) else (val,)
        for v in vals:
            texts = []
            if isinstance(v, torch.SymInt):
                texts.append(str(v))
            elif isinstance(v, torch.Tensor):
                texts += [str(s) for s in v.shape if isinstance(s, torch.SymInt)]
            for text in texts:
                for sym in _UNBACKED.findall(text):
                    if sym not in found:
                        found.append(sym)
    return found[:MAX_ITEMS]
