"""Linear algebra functions of the main namespace: NumPy 2 has them all (vecdot conjugates x1)."""

import numpy as np

__all__ = ["matmul", "matrix_transpose", "tensordot", "vecdot"]

matmul = np.matmul
matrix_transpose = np.matrix_transpose
tensordot = np.tensordot
vecdot = np.vecdot
