"""Statistical functions: NumPy 2 has the standard's defaults (sum/prod/cumulative upcast bool and
integers to int64/uint64, keep floating dtypes; std/var take ``correction``)."""

import numpy as np

__all__ = [
    "cumulative_prod",
    "cumulative_sum",
    "max",
    "mean",
    "min",
    "prod",
    "std",
    "sum",
    "var",
]

cumulative_prod = np.cumulative_prod
cumulative_sum = np.cumulative_sum
max = np.max
mean = np.mean
min = np.min
prod = np.prod
std = np.std
sum = np.sum
var = np.var
