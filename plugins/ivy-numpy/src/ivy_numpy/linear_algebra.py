"""Linear algebra functions of the main namespace: NumPy 2 has them all (vecdot conjugates x1)."""

from __future__ import annotations

import numpy as np

__all__ = ["matmul", "matrix_transpose", "tensordot", "vecdot"]

matmul = np.matmul


def matrix_transpose(x: np.ndarray, /) -> np.ndarray:
    # the ndarray attribute: np.matrix_transpose's view without its Python checks (fewer than two
    # axes raise ValueError here too)
    return x.mT


tensordot = np.tensordot
vecdot = np.vecdot
