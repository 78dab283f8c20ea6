"""Conversions between NumPy and each backend's arrays, for the tests (see ``ivy.testing.convert``:
the in-tree frameworks by their own API, any other backend through its own namespace)."""

from __future__ import annotations


from ivy.testing.convert import DTYPES, dtype_name, native_to_numpy, shape_of, to_native

__all__ = ["BACKENDS", "DTYPES", "to_native", "native_to_numpy", "dtype_name", "shape_of"]

BACKENDS = ("numpy", "torch", "jax", "tensorflow", "paddle")


