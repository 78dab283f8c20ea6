"""Indexing functions: NumPy's have the standard's semantics."""

import numpy as np

__all__ = ["take", "take_along_axis"]

take = np.take
take_along_axis = np.take_along_axis
