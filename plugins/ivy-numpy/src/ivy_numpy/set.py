"""Set functions: NumPy 2 has them with the standard's named tuples, NaNs kept distinct,
``inverse_indices`` shaped like ``x`` and sorted values."""

from __future__ import annotations

import numpy as np

__all__ = ["unique_all", "unique_counts", "unique_inverse", "unique_values"]

unique_all = np.unique_all
unique_counts = np.unique_counts
unique_inverse = np.unique_inverse


def unique_values(x: np.ndarray, /) -> np.ndarray:
    # np.unique_values is hash-based and unordered for integers since NumPy 2.3; sorted values
    # agree with the other unique_* functions and with the other backends.
    return np.unique(x, equal_nan=False)
