"""The linalg extension: NumPy 2's ``numpy.linalg`` follows the standard (named-tuple results,
``upper=``, ``rtol=``, ``matrix_norm``/``vector_norm``/``cross``/``outer`` signatures)."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = [
    "cholesky",
    "cross",
    "det",
    "diagonal",
    "eigh",
    "eigvalsh",
    "inv",
    "matmul",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "matrix_transpose",
    "outer",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "tensordot",
    "trace",
    "vecdot",
    "vector_norm",
]

_la = np.linalg

cholesky = _la.cholesky
cross = _la.cross
det = _la.det
diagonal = _la.diagonal
eigh = _la.eigh
eigvalsh = _la.eigvalsh
inv = _la.inv
matmul = _la.matmul
matrix_norm = _la.matrix_norm
matrix_power = _la.matrix_power
matrix_rank = _la.matrix_rank
matrix_transpose = _la.matrix_transpose
outer = _la.outer
qr = _la.qr
slogdet = _la.slogdet
solve = _la.solve
svd = _la.svd
svdvals = _la.svdvals
tensordot = _la.tensordot
trace = _la.trace
vecdot = _la.vecdot
vector_norm = _la.vector_norm


def pinv(x: np.ndarray, /, *, rtol: Any = None) -> np.ndarray:
    return _la.pinv(x, rtol=rtol)  # without rtol NumPy's default cutoff is 1e-15, not max(M, N) * eps
