"""Searching, sorting and set functions against array_api_strict."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ivy
from ivy.testing._helpers.compare import assert_values
from ivy.testing._helpers.facts import expect_dtype
from ivy.testing._helpers.ref import check, sdtype, snp, xs
from ivy.testing._helpers.strategies import arrays, axis_arg, backend_dtypes, shapes, supported_dtypes
from ivy.testing.convert import dtype_name, native_to_numpy, shape_of, to_native

SEARCHING_OPS = {"argmax": "", "argmin": "", "count_nonzero": "", "nonzero": "", "searchsorted": "", "where": ""}
SORTING_OPS = {"argsort": "", "sort": ""}
SET_OPS = {"unique_all": "", "unique_counts": "", "unique_inverse": "", "unique_values": ""}


def _real(data: st.DataObject, backend: str) -> str:
    return data.draw(st.sampled_from(backend_dtypes(backend, "int", "float")), label="dtype")


def _dom(dtype: str) -> str:
    # Few distinct values, so that ties and duplicates are common; exact in binary.
    return "quarter" if dtype.startswith("float") else ("nonneg" if dtype.startswith("uint") else "small")


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@given(data=st.data())
def test_ref_argmax_argmin(name: str, backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = _real(data, backend)
    dom = data.draw(st.sampled_from([_dom(dtype), "wide"]), label="domain")
    x = data.draw(arrays(dtype, shapes(min_side=1), dom), label="x")
    axis = data.draw(axis_arg(x.ndim, tuples=False), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    check(name, backend, xp, x, axis=axis, keepdims=keepdims)


@given(data=st.data())
def test_ref_count_nonzero(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(supported_dtypes(backend)), label="dtype")
    x = data.draw(arrays(dtype, shapes(), "tiny"), label="x")
    check(
        "count_nonzero",
        backend,
        xp,
        x,
        axis=data.draw(axis_arg(x.ndim), label="axis"),
        keepdims=data.draw(st.booleans(), label="keepdims"),
    )


@given(data=st.data())
def test_ref_nonzero(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(supported_dtypes(backend)), label="dtype")
    x = data.draw(arrays(dtype, shapes(min_dims=1), "tiny"), label="x")
    check("nonzero", backend, xp, x)


@given(data=st.data())
def test_ref_searchsorted(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = _real(data, backend)
    x1 = data.draw(arrays(dtype, shapes(min_dims=1, max_dims=1), _dom(dtype)), label="x1")
    x2 = data.draw(arrays(dtype, shapes(max_dims=2), _dom(dtype)), label="x2")
    side = data.draw(st.sampled_from(["left", "right"]), label="side")
    if data.draw(st.booleans(), label="with_sorter"):
        sorter = np.argsort(x1, kind="stable").astype("int64")
        check("searchsorted", backend, xp, x1, x2, side=side, sorter=sorter)
    else:
        check("searchsorted", backend, xp, np.sort(x1), x2, side=side)


@given(data=st.data())
def test_ref_where(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(supported_dtypes(backend)), label="dtype")
    shp = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=3, max_dims=3, min_side=0, max_side=4))
    cond = data.draw(arrays("bool", shp.input_shapes[0]), label="cond")
    from ivy.testing._helpers.strategies import scalar_for

    args = []
    for i in (1, 2):
        if data.draw(st.booleans(), label=f"scalar{i}"):
            args.append(data.draw(scalar_for(dtype, "nonneg" if dtype.startswith("uint") else "any"), label=f"x{i}"))
        else:
            args.append(data.draw(arrays(dtype, shp.input_shapes[i]), label=f"x{i}"))
    if not any(isinstance(a, np.ndarray) for a in args):
        args[0] = data.draw(arrays(dtype, shp.input_shapes[1]), label="x1")
    check("where", backend, xp, cond, *args)


@pytest.mark.parametrize("name", ["sort", "argsort"])
@given(data=st.data())
def test_ref_sort(name: str, backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = _real(data, backend)
    dom = data.draw(st.sampled_from([_dom(dtype), "wide"]), label="domain")
    x = data.draw(arrays(dtype, shapes(min_dims=1), dom), label="x")
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    descending = data.draw(st.booleans(), label="descending")
    check(name, backend, xp, x, axis=axis, descending=descending, stable=True)
    if name == "sort":  # the default (stable=True) and stable=False sort values the same way
        check(name, backend, xp, x, axis=axis, descending=descending, stable=False)


def _set_input(data: st.DataObject, backend: str) -> tuple[str, np.ndarray]:
    dtype = _real(data, backend)
    dom = data.draw(st.sampled_from([_dom(dtype), "wide"]), label="domain")
    return dtype, data.draw(arrays(dtype, shapes(), dom), label="x")


def _check_sorted_values(backend: str, xp: Any, values: Any, expected_values: Any, msg: str) -> np.ndarray:
    assert xp.is_native_array(values), msg
    assert dtype_name(values.dtype) == sdtype(expected_values), msg
    v = native_to_numpy(backend, values)
    assert v.ndim == 1, msg
    order = np.argsort(v, kind="stable")
    assert_values(v[order], np.sort(snp(expected_values)), dtype_name(values.dtype), msg=msg)
    return order


@given(data=st.data())
def test_ref_unique_values(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype, x = _set_input(data, backend)
    got = ivy.unique_values(to_native(backend, x))
    _check_sorted_values(backend, xp, got, xs.unique_values(xs.asarray(x)), "ivy.unique_values: ")


@given(data=st.data())
def test_ref_unique_counts(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype, x = _set_input(data, backend)
    got = ivy.unique_counts(to_native(backend, x))
    want = xs.unique_counts(xs.asarray(x))
    assert hasattr(got, "values"), "unique_counts returns a named tuple"
    assert hasattr(got, "counts"), "unique_counts returns a named tuple"
    order = _check_sorted_values(backend, xp, got.values, want.values, "unique_counts values: ")
    c = native_to_numpy(backend, got.counts)
    expect_dtype(got.counts, sdtype(want.counts), "ivy.unique_counts")
    np.testing.assert_array_equal(c[order], snp(want.counts)[np.argsort(snp(want.values), kind="stable")])


def _check_inverse(backend: str, x: np.ndarray, values: np.ndarray, inverse: Any, want_dtype: str) -> None:
    assert dtype_name(inverse.dtype) == want_dtype, f"inverse_indices dtype {inverse.dtype}"
    assert shape_of(inverse) == x.shape, f"inverse_indices shape {shape_of(inverse)} != {x.shape}"
    inv = native_to_numpy(backend, inverse)
    np.testing.assert_array_equal(values[inv] if values.size else inv, x if values.size else inv)


@given(data=st.data())
def test_ref_unique_inverse(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype, x = _set_input(data, backend)
    got = ivy.unique_inverse(to_native(backend, x))
    want = xs.unique_inverse(xs.asarray(x))
    assert hasattr(got, "values"), "unique_inverse returns a named tuple"
    assert hasattr(got, "inverse_indices"), "unique_inverse returns a named tuple"
    _check_sorted_values(backend, xp, got.values, want.values, "unique_inverse values: ")
    _check_inverse(backend, x, native_to_numpy(backend, got.values), got.inverse_indices, sdtype(want.inverse_indices))


@given(data=st.data())
def test_ref_unique_all(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype, x = _set_input(data, backend)
    got = ivy.unique_all(to_native(backend, x))
    want = xs.unique_all(xs.asarray(x))
    for f in ("values", "indices", "inverse_indices", "counts"):
        assert hasattr(got, f), f"unique_all returns a named tuple with {f}"
    order = _check_sorted_values(backend, xp, got.values, want.values, "unique_all values: ")
    v = native_to_numpy(backend, got.values)
    idx = native_to_numpy(backend, got.indices)
    cnt = native_to_numpy(backend, got.counts)
    for f in ("indices", "counts"):
        assert dtype_name(getattr(got, f).dtype) == sdtype(getattr(want, f)), f
    flat = x.reshape(-1)
    # indices: the first occurrence of each value in the flattened input
    np.testing.assert_array_equal(idx, [int(np.argmax(flat == val)) for val in v])
    np.testing.assert_array_equal(cnt, [(flat == val).sum() for val in v])
    _check_inverse(backend, x, v, got.inverse_indices, sdtype(want.inverse_indices))
    del order
