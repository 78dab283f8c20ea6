"""matmul, matrix_transpose, tensordot and vecdot (main namespace and their linalg twins)
against array_api_strict."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from ivy.testing._helpers.ref import check
from ivy.testing._helpers.strategies import arrays, backend_dtypes

LINEAR_ALGEBRA_OPS = {
    "matmul": "",
    "matrix_transpose": "",
    "tensordot": "",
    "vecdot": "",
    "linalg.matmul": "",
    "linalg.matrix_transpose": "",
    "linalg.tensordot": "",
    "linalg.vecdot": "",
}

TOL = {"rtol": 1e-4, "atol": 1e-4}


def _numeric(data: st.DataObject, backend: str, complex_: bool = True) -> str:
    kinds = ("int", "float", "complex") if complex_ else ("int", "float")
    return data.draw(st.sampled_from(backend_dtypes(backend, *kinds)), label="dtype")


@pytest.mark.parametrize("name", ["matmul", "linalg.matmul"])
@given(data=st.data())
def test_ref_matmul(name: str, backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = _numeric(data, backend)
    n, k, m = (data.draw(st.integers(1, 4)) for _ in range(3))
    form = data.draw(st.sampled_from(["vv", "vm", "mv", "mm", "batch"]), label="form")
    if form == "batch":
        b = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=1, min_side=0, max_side=3))
        s1, s2 = b.input_shapes[0] + (n, k), b.input_shapes[1] + (k, m)
    else:
        s1 = (k,) if form[0] == "v" else (n, k)
        s2 = (k,) if form[1] == "v" else (k, m)
    x1 = data.draw(arrays(dtype, s1, "tiny"), label="x1")
    x2 = data.draw(arrays(dtype, s2, "tiny"), label="x2")
    check(name, backend, xp, x1, x2, **TOL)


@pytest.mark.parametrize("name", ["matrix_transpose", "linalg.matrix_transpose"])
@given(data=st.data())
def test_ref_matrix_transpose(name: str, backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(backend_dtypes(backend, "bool", "int", "float", "complex")), label="dtype")
    x = data.draw(arrays(dtype, hnp.array_shapes(min_dims=2, max_dims=3, min_side=0, max_side=4)), label="x")
    check(name, backend, xp, x)


@pytest.mark.parametrize("name", ["tensordot", "linalg.tensordot"])
@given(data=st.data())
def test_ref_tensordot(name: str, backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = _numeric(data, backend)
    s1 = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=3), label="s1")
    if data.draw(st.booleans(), label="int_axes"):
        nax = data.draw(st.integers(0, min(2, len(s1))), label="axes")
        extra = data.draw(hnp.array_shapes(min_dims=0, max_dims=1, min_side=1, max_side=3))
        s2 = tuple(s1[len(s1) - nax :]) + tuple(extra)
        axes: Any = nax
    else:
        a1 = data.draw(
            st.lists(st.integers(0, len(s1) - 1), min_size=1, max_size=min(2, len(s1)), unique=True), label="a1"
        )
        tagged = [(s1[a], i) for i, a in enumerate(a1)] + [(data.draw(st.integers(1, 3)), -1)]
        perm = data.draw(st.permutations(tagged), label="x2_dims")
        s2 = tuple(d for d, _ in perm)
        a2 = [next(p for p, (_, t) in enumerate(perm) if t == i) for i in range(len(a1))]
        axes = (a1, a2)
    x1 = data.draw(arrays(dtype, s1, "tiny"), label="x1")
    x2 = data.draw(arrays(dtype, tuple(s2), "tiny"), label="x2")
    check(name, backend, xp, x1, x2, axes=axes, **TOL)


@pytest.mark.parametrize("name", ["vecdot", "linalg.vecdot"])
@given(data=st.data())
def test_ref_vecdot(name: str, backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = _numeric(data, backend)
    b = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=2, min_side=0, max_side=3))
    k = data.draw(st.integers(1, 4))
    s1, s2 = b.input_shapes[0] + (k,), b.input_shapes[1] + (k,)
    axis = -1
    if data.draw(st.booleans(), label="other_axis") and len(s1) >= 2 and len(s2) >= 2 and s1[-2] == s2[-2]:
        axis = -2
    x1 = data.draw(arrays(dtype, s1, "tiny"), label="x1")
    x2 = data.draw(arrays(dtype, s2, "tiny"), label="x2")
    check(name, backend, xp, x1, x2, axis=axis, **TOL)
