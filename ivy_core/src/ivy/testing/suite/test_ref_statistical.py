"""Statistical and utility functions against array_api_strict: axis None/int/tuple/negative,
keepdims, dtype, correction, include_initial."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from ivy.testing._helpers.ref import check
from ivy.testing._helpers.strategies import (
    INTS,
    arrays,
    axis_arg,
    backend_dtypes,
    kind_of,
    norm_axes,
    shapes,
    supported_dtypes,
)

STATISTICAL_OPS = {
    "cumulative_prod": "",
    "cumulative_sum": "",
    "max": "",
    "mean": "",
    "min": "",
    "prod": "",
    "std": "",
    "sum": "",
    "var": "",
}
UTILITY_OPS = {"all": "", "any": "", "diff": ""}

TOL = {"rtol": 1e-4, "atol": 1e-4}


def _reduced_size(x: np.ndarray, axis: Any) -> int:
    return int(np.prod([x.shape[a] for a in norm_axes(axis, x.ndim)], dtype=np.int64))


def _fits(values: Any, dtype: str) -> bool:
    if dtype not in INTS:
        return True
    info = np.iinfo(dtype)
    return all(info.min <= int(v) <= info.max for v in np.asarray(values, dtype=object).ravel())


def _sum_dtype_arg(data: st.DataObject, backend: str, dtype: str) -> str | None:
    """None, or an explicit dtype of the same kind at least as wide (defined by the standard)."""
    k = kind_of(dtype)
    same = [
        d
        for d in backend_dtypes(backend, k)
        if np.dtype(d).itemsize >= np.dtype(dtype).itemsize and (k != "int" or d[0] == dtype[0])
    ]
    return data.draw(st.sampled_from([None, *same]), label="dtype_arg")


@pytest.mark.parametrize("name", ["sum", "prod"])
@given(data=st.data())
def test_ref_sum_prod(name: str, backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(backend_dtypes(backend, "int", "float", "complex")), label="dtype")
    x = data.draw(arrays(dtype, shapes(), "nonneg" if dtype.startswith("uint") else "tiny"), label="x")
    axis = data.draw(axis_arg(x.ndim), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    dt = _sum_dtype_arg(data, backend, dtype)
    kw: dict[str, Any] = {"axis": axis, "keepdims": keepdims}
    if dt is not None:
        kw["dtype"] = dt
    if name == "prod":
        exact = np.prod(x.astype(object), axis=norm_axes(axis, x.ndim)) if x.size else 1
        assume(_fits(exact, dt or "int64" if dtype in INTS else dtype))
    _check_with_dtype(name, backend, xp, x, **kw)


def _check_with_dtype(name: str, backend: str, xp: Any, x: Any, **kw: Any) -> None:
    """check() with a dtype keyword given by name to ivy and as a strict dtype to the reference."""
    from ivy.testing._helpers.compare import assert_matches
    from ivy.testing._helpers.ref import ivy_op, strict_dtype, strict_op, to_backend, xs

    skw = dict(kw)
    if kw.get("dtype") is not None:
        skw["dtype"] = strict_dtype(kw["dtype"])
    from ivy.testing._helpers.ref import expect_unsupported

    expected = strict_op(name)(xs.asarray(x), **skw)
    if expect_unsupported(backend, expected, call=lambda: ivy_op(name)(to_backend(backend, x), **kw)):
        return
    actual = ivy_op(name)(to_backend(backend, x), **kw)
    assert_matches(actual, expected, backend, xp, msg=f"{name}: ", **TOL)


@pytest.mark.parametrize("name", ["max", "min"])
@given(data=st.data())
def test_ref_max_min(name: str, backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(backend_dtypes(backend, "int", "float")), label="dtype")
    x = data.draw(arrays(dtype, shapes(min_side=1), data.draw(st.sampled_from(["any", "wide"]))), label="x")
    check(
        name,
        backend,
        xp,
        x,
        axis=data.draw(axis_arg(x.ndim), label="axis"),
        keepdims=data.draw(st.booleans(), label="keepdims"),
    )


@given(data=st.data())
def test_ref_mean(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(backend_dtypes(backend, "float", "complex")), label="dtype")
    x = data.draw(arrays(dtype, shapes(min_side=1)), label="x")
    check(
        "mean",
        backend,
        xp,
        x,
        axis=data.draw(axis_arg(x.ndim), label="axis"),
        keepdims=data.draw(st.booleans(), label="keepdims"),
        **TOL,
    )


@pytest.mark.parametrize("name", ["std", "var"])
@given(data=st.data())
def test_ref_std_var(name: str, backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(backend_dtypes(backend, "float")), label="dtype")
    x = data.draw(arrays(dtype, shapes(min_side=1)), label="x")
    axis = data.draw(axis_arg(x.ndim), label="axis")
    correction = data.draw(st.sampled_from([0, 1, 0.0, 1.0, 0.5]), label="correction")
    assume(_reduced_size(x, axis) > correction)
    check(
        name,
        backend,
        xp,
        x,
        axis=axis,
        correction=correction,
        keepdims=data.draw(st.booleans(), label="keepdims"),
        **TOL,
    )


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
@given(data=st.data())
def test_ref_cumulative(name: str, backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(backend_dtypes(backend, "int", "float", "complex")), label="dtype")
    x = data.draw(arrays(dtype, shapes(max_dims=2), "nonneg" if dtype.startswith("uint") else "tiny"), label="x")
    if x.ndim <= 1:
        axis = data.draw(st.sampled_from([None, 0, -1]) if x.ndim else st.none(), label="axis")
    else:
        axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    assume(x.ndim >= 1)  # the standard leaves cumulative ops on 0-D arrays undefined
    kw: dict[str, Any] = {"axis": axis, "include_initial": data.draw(st.booleans(), label="include_initial")}
    dt = _sum_dtype_arg(data, backend, dtype)
    if dt is not None:
        kw["dtype"] = dt
    if name == "cumulative_prod":
        exact = np.cumprod(x.astype(object), axis=axis if axis is not None else 0) if x.size else []
        assume(_fits(exact, dt or "int64" if dtype in INTS else dtype))
    _check_with_dtype(name, backend, xp, x, **kw)


@pytest.mark.parametrize("name", ["all", "any"])
@given(data=st.data())
def test_ref_all_any(name: str, backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(supported_dtypes(backend)), label="dtype")
    x = data.draw(arrays(dtype, shapes(), "tiny"), label="x")
    check(
        name,
        backend,
        xp,
        x,
        axis=data.draw(axis_arg(x.ndim), label="axis"),
        keepdims=data.draw(st.booleans(), label="keepdims"),
    )


@given(data=st.data())
def test_ref_diff(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(backend_dtypes(backend, "int", "float", "complex")), label="dtype")
    unsigned = dtype.startswith("uint")
    x = data.draw(arrays(dtype, shapes(min_dims=1), "nonneg" if unsigned else "any"), label="x")
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    kw: dict[str, Any] = {"axis": axis, "n": data.draw(st.integers(1, 2), label="n")}
    for side in ("prepend", "append"):
        if data.draw(st.booleans(), label=side):
            s = list(x.shape)
            s[axis] = data.draw(st.integers(0, 2))
            kw[side] = data.draw(arrays(dtype, tuple(s), "nonneg" if unsigned else "any"), label=side)
    if unsigned:  # unsigned differences must stay non-negative: use a non-decreasing sequence
        parts = [kw.get("prepend"), x, kw.get("append")]
        full = np.sort(np.concatenate([p for p in parts if p is not None], axis=axis), axis=axis)
        n0 = 0 if kw.get("prepend") is None else kw["prepend"].shape[axis]
        n1 = x.shape[axis]
        take = lambda a, b: np.take(full, np.arange(a, b), axis=axis)  # noqa: E731
        if "prepend" in kw:
            kw["prepend"] = take(0, n0)
        x = take(n0, n0 + n1)
        if "append" in kw:
            kw["append"] = take(n0 + n1, full.shape[axis])
        assume(kw["n"] == 1)
    check("diff", backend, xp, x, **kw)
