"""Loads the NumPy backend: imports NumPy and hands core the ops and facts."""

from __future__ import annotations

import numpy as np

from ivy.plugin import BackendImpl, collect_ops

from ._dtypes import DTYPES


def load() -> BackendImpl:
    from .random import RANDOM_SNAPSHOT

    return BackendImpl(
        ops=collect_ops("ivy_numpy"),
        # NumPy reductions return NumPy scalars: they are 0-d arrays for Ivy's purposes.
        array_types=(np.ndarray, np.generic),
        dtypes=DTYPES,
        default_dtypes={
            "real floating": np.dtype("float64"),
            "complex floating": np.dtype("complex128"),
            "integral": np.dtype("int64"),
            "indexing": np.dtype("int64"),
        },
        devices=lambda: ["cpu"],  # NumPy's only device, as `x.device` reports it
        default_device=lambda: "cpu",
        capabilities={
            "boolean indexing": True,
            "data-dependent shapes": True,
            "max dimensions": 64,  # NPY_MAXDIMS of NumPy 2
        },
        framework=np,
        random_snapshot=RANDOM_SNAPSHOT,
    )
