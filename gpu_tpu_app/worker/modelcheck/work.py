"""How much work one operator does, for the model check's matrix-math share (worker side: stdlib only here).

Both frameworks' counters use these formulas, so a PyTorch and a JAX model doing the same thing get the
same count. Work is in floating-point operations (a multiply-add is 2). Each formula returns a
`(kind, ops)` pair; `MATRIX_KINDS` are the kinds that count as matrix math (they run on a TPU's matrix
units or, for factorizations, as blocked matrix multiplies).

Sources of the formulas: dense linear algebra from the operation counts in Golub and Van Loan, *Matrix
Computations* (4th ed., table 5.4.1 and sections 4.2, 5.2, 8.3); an FFT of N points as 2.5 N log2 N (the
usual count for a radix-2 complex transform); a sparse x dense product as 2 x nnz x k (each stored
value multiplies one row of k columns). Recurrent and attention layers that a framework runs as one
fused kernel are counted as the matrix multiplies they contain.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

MATMUL = "matrix multiplies"
CONV = "convolutions"
ATTENTION = "attention"
RNN = "recurrent layers"
LINALG = "linear algebra"
FFT = "FFTs"
SPARSE = "sparse matmul"
OTHER = "element-wise and other"
#: kinds that count as matrix math in the matmul share.
MATRIX_KINDS = frozenset({MATMUL, CONV, ATTENTION, RNN, LINALG})


def _prod(values: Sequence[int]) -> int:
    out = 1
    for v in values:
        out *= int(v)
    return out


def fft_work(length: int, transforms: int) -> int:
    """`transforms` FFTs of `length` points each, at 2.5 N log2 N."""
    if length <= 1 or transforms <= 0:
        return 0
    return int(transforms * 2.5 * length * math.log2(length))


def cholesky_work(n: int, batch: int = 1) -> int:
    return batch * n**3 // 3


def triangular_solve_work(n: int, rhs_numel: int) -> int:
    """A triangular n x n system against a right-hand side of `rhs_numel` elements (n x k per matrix)."""
    return n * rhs_numel


def lu_work(n: int, batch: int = 1) -> int:
    return batch * 2 * n**3 // 3


def eigh_work(n: int, vectors: bool, batch: int = 1) -> int:
    """Symmetric eigendecomposition (tridiagonalisation then QR iteration)."""
    return batch * (9 * n**3 if vectors else 4 * n**3 // 3)


def eig_work(n: int, vectors: bool, batch: int = 1) -> int:
    """General eigendecomposition (Hessenberg reduction then the QR algorithm)."""
    return batch * (25 * n**3 if vectors else 10 * n**3)


def svd_work(m: int, n: int, vectors: bool, batch: int = 1) -> int:
    """Thin SVD of an m x n matrix (m >= n after transposing)."""
    m, n = max(m, n), min(m, n)
    return batch * ((6 * m * n * n + 11 * n**3) if vectors else max(0, 4 * m * n * n - 4 * n**3 // 3))


def qr_work(m: int, n: int, with_q: bool, batch: int = 1) -> int:
    """Householder QR of an m x n matrix; forming Q doubles it."""
    k = min(m, n)
    r = max(0, 2 * m * n * k - 2 * k**3 // 3)
    return batch * (2 * r if with_q else r)


def sparse_mm_work(nnz: int, k: int) -> int:
    return 2 * nnz * k


def rnn_work(steps_times_batch: int, input_size: int, hidden: int, gates: int) -> int:
    """One recurrent layer, one direction: input and hidden projections of every step."""
    return 2 * steps_times_batch * (input_size + hidden) * gates * hidden


def attention_work(batch: int, q_len: int, kv_len: int, dim: int) -> int:
    """Scores (Q K^T) and the weighted sum (P V) of one attention call, all heads together."""
    return 4 * batch * q_len * kv_len * dim
