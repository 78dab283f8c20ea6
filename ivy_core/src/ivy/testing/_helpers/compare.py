"""Comparing backend results against the array_api_strict reference: values, dtype and shape."""

from __future__ import annotations

from typing import Any

import numpy as np

from ivy.testing.convert import dtype_name, native_to_numpy, shape_of

#: Default tolerances per dtype (rtol, atol); complex dtypes use their component's.
TOLERANCES = {
    "float32": (2e-4, 1e-5),
    "float64": (1e-9, 1e-11),
    "complex64": (2e-4, 1e-5),
    "complex128": (1e-9, 1e-11),
}


def strict_to_numpy(x: Any) -> np.ndarray:
    """A NumPy array of an array_api_strict array (or scalar)."""
    inner = getattr(x, "_array", None)
    if inner is not None:
        return np.asarray(inner)
    return np.asarray(x)


def strict_dtype_name(x: Any) -> str:
    """The name of the dtype of an array_api_strict array."""
    d = x.dtype
    inner = getattr(d, "_np_dtype", None)
    return inner.name if inner is not None else str(d).rpartition(".")[2]


def assert_values(
    actual: np.ndarray,
    expected: np.ndarray,
    dtype: str,
    *,
    rtol: float | None = None,
    atol: float | None = None,
    msg: str = "",
) -> None:
    """Compare two NumPy arrays: exact for bool/integers, NaN-equal with tolerances for floats."""
    assert actual.shape == expected.shape, f"{msg}shape {actual.shape} != expected {expected.shape}"
    if dtype in TOLERANCES:
        r, a = TOLERANCES[dtype]
        r = r if rtol is None else rtol
        a = a if atol is None else atol
        np.testing.assert_allclose(
            actual.astype(np.complex128 if "complex" in dtype else np.float64),
            expected.astype(np.complex128 if "complex" in dtype else np.float64),
            rtol=r,
            atol=a,
            equal_nan=True,
            err_msg=msg,
        )
    else:
        np.testing.assert_array_equal(actual, expected, err_msg=msg)


def assert_matches(
    actual: Any,
    expected: Any,
    backend: str,
    xp: Any,
    *,
    rtol: float | None = None,
    atol: float | None = None,
    check_dtype: bool = True,
    expected_dtype: str | None = None,
    msg: str = "",
) -> None:
    """``actual`` (a native result of ``backend``) matches ``expected`` (array_api_strict result).

    Tuples/lists are compared element by element. A native array must be an array of the backend
    (per ``xp.is_native_array``) with the shape, dtype name and values of the reference.
    """
    if isinstance(expected, (tuple, list)):
        assert isinstance(actual, (tuple, list)), f"{msg}expected a sequence, got {type(actual)}"
        assert len(actual) == len(expected), f"{msg}expected {len(expected)} results, got {len(actual)}"
        for i, (a, e) in enumerate(zip(actual, expected)):
            assert_matches(
                a,
                e,
                backend,
                xp,
                rtol=rtol,
                atol=atol,
                check_dtype=check_dtype,
                expected_dtype=expected_dtype,
                msg=f"{msg}[{i}] ",
            )
        return
    assert xp.is_native_array(actual), f"{msg}expected a native {backend} array, got {type(actual)}"
    want_dtype = expected_dtype or strict_dtype_name(expected)
    got_dtype = dtype_name(actual.dtype)
    if check_dtype:
        assert got_dtype == want_dtype, f"{msg}dtype {got_dtype} != expected {want_dtype}"
    exp = strict_to_numpy(expected)
    assert shape_of(actual) == exp.shape, f"{msg}shape {shape_of(actual)} != expected {exp.shape}"
    act = native_to_numpy(backend, actual)
    assert_values(act, exp, want_dtype if check_dtype else exp.dtype.name, rtol=rtol, atol=atol, msg=msg)


def to_np(backend: str, x: Any) -> np.ndarray:
    return native_to_numpy(backend, x)
