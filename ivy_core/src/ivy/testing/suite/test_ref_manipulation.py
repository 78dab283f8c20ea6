"""Manipulation and indexing functions against array_api_strict."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from ivy.testing._helpers.ref import check
from ivy.testing._helpers.strategies import arrays, axis_arg, shapes, supported_dtypes

MANIPULATION_OPS = {
    "broadcast_arrays": "",
    "broadcast_to": "",
    "concat": "",
    "expand_dims": "",
    "flip": "",
    "moveaxis": "",
    "permute_dims": "",
    "repeat": "",
    "reshape": "",
    "roll": "",
    "squeeze": "",
    "stack": "",
    "tile": "",
    "unstack": "",
}
INDEXING_OPS = {"take": "", "take_along_axis": ""}


def _dtype(data: st.DataObject, backend: str) -> str:
    return data.draw(st.sampled_from(supported_dtypes(backend)), label="dtype")


@given(data=st.data())
def test_ref_broadcast_arrays(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = _dtype(data, backend)
    n = data.draw(st.integers(1, 3))
    shp = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=n, max_dims=3, min_side=0, max_side=4))
    arrs = [data.draw(arrays(dtype, s), label=f"x{i}") for i, s in enumerate(shp.input_shapes)]
    check("broadcast_arrays", backend, xp, *arrs)


@given(data=st.data())
def test_ref_broadcast_to(backend: str, xp: Any, data: st.DataObject) -> None:
    x = data.draw(arrays(_dtype(data, backend), shapes()), label="x")
    other = data.draw(hnp.broadcastable_shapes(x.shape, max_dims=3, min_side=0, max_side=4), label="other")
    target = tuple(np.broadcast_shapes(x.shape, other))
    check("broadcast_to", backend, xp, x, target)


@given(data=st.data())
def test_ref_concat(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = _dtype(data, backend)
    base = data.draw(shapes(min_dims=1), label="base")
    axis = data.draw(st.one_of(st.none(), st.integers(-len(base), len(base) - 1)), label="axis")
    n = data.draw(st.integers(1, 3))
    arrs = []
    for i in range(n):
        s = list(base)
        if axis is not None:
            s[axis] = data.draw(st.integers(0, 3))
        arrs.append(data.draw(arrays(dtype, tuple(s)), label=f"x{i}"))
    as_tuple = data.draw(st.booleans(), label="tuple")
    check("concat", backend, xp, tuple(arrs) if as_tuple else arrs, axis=axis)


@given(data=st.data())
def test_ref_expand_dims(backend: str, xp: Any, data: st.DataObject) -> None:
    x = data.draw(arrays(_dtype(data, backend), shapes()), label="x")
    axis = data.draw(st.integers(-x.ndim - 1, x.ndim), label="axis")
    check("expand_dims", backend, xp, x, axis=axis)


@given(data=st.data())
def test_ref_flip(backend: str, xp: Any, data: st.DataObject) -> None:
    x = data.draw(arrays(_dtype(data, backend), shapes()), label="x")
    check("flip", backend, xp, x, axis=data.draw(axis_arg(x.ndim), label="axis"))


@given(data=st.data())
def test_ref_moveaxis(backend: str, xp: Any, data: st.DataObject) -> None:
    x = data.draw(arrays(_dtype(data, backend), shapes(min_dims=1)), label="x")
    k = data.draw(st.integers(1, x.ndim))
    src = data.draw(st.permutations(range(x.ndim)), label="src")[:k]
    dst = data.draw(st.permutations(range(x.ndim)), label="dst")[:k]
    src = tuple(s - x.ndim if data.draw(st.booleans()) else s for s in src)
    if k == 1 and data.draw(st.booleans(), label="ints"):
        check("moveaxis", backend, xp, x, src[0], dst[0])
    else:
        check("moveaxis", backend, xp, x, src, tuple(dst))


@given(data=st.data())
def test_ref_permute_dims(backend: str, xp: Any, data: st.DataObject) -> None:
    x = data.draw(arrays(_dtype(data, backend), shapes()), label="x")
    axes = tuple(data.draw(st.permutations(range(x.ndim)), label="axes"))
    check("permute_dims", backend, xp, x, axes)


@given(data=st.data())
def test_ref_repeat(backend: str, xp: Any, data: st.DataObject) -> None:
    x = data.draw(arrays(_dtype(data, backend), shapes(max_dims=2)), label="x")
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim, x.ndim - 1)) if x.ndim else st.none(), label="axis")
    n = x.size if axis is None else x.shape[axis]
    if data.draw(st.booleans(), label="array_repeats"):
        reps = data.draw(arrays("int64", (n,), "nonneg").map(lambda a: np.minimum(a, 3)), label="repeats")
        if data.draw(st.booleans()) and n:
            reps = reps[:1]  # a one-element array broadcasts
    else:
        reps = data.draw(st.integers(0, 3), label="repeats")
    check("repeat", backend, xp, x, reps, axis=axis)


@given(data=st.data())
def test_ref_reshape(backend: str, xp: Any, data: st.DataObject) -> None:
    x = data.draw(arrays(_dtype(data, backend), shapes()), label="x")
    # A new shape with the same number of elements, possibly with one -1.
    n = x.size
    factors = [d for d in range(1, 5) if n % d == 0] or [1]
    a = data.draw(st.sampled_from(factors)) if n else data.draw(st.sampled_from([0, 1, 2]))
    shape = (a, n // a) if n else (a, 0, 2)
    form = data.draw(st.sampled_from(["flat", "two", "minus", "scalar"]), label="form")
    if form == "flat":
        shape = (n,)
    elif form == "minus" and n:
        shape = (-1, a)
    elif form == "scalar" and n == 1:
        shape = ()
    check("reshape", backend, xp, x, shape)


@given(data=st.data())
def test_ref_roll(backend: str, xp: Any, data: st.DataObject) -> None:
    x = data.draw(arrays(_dtype(data, backend), shapes()), label="x")
    if x.ndim and data.draw(st.booleans(), label="tuple"):
        axes = data.draw(
            st.lists(st.integers(-x.ndim, x.ndim - 1), min_size=1, max_size=x.ndim, unique_by=lambda a: a % x.ndim)
        )
        shift = tuple(data.draw(st.integers(-5, 5)) for _ in axes)
        check("roll", backend, xp, x, shift, axis=tuple(axes))
    else:
        axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim, x.ndim - 1)) if x.ndim else st.none())
        check("roll", backend, xp, x, data.draw(st.integers(-5, 5), label="shift"), axis=axis)


@given(data=st.data())
def test_ref_squeeze(backend: str, xp: Any, data: st.DataObject) -> None:
    shape = list(data.draw(shapes(min_dims=1)))
    k = data.draw(st.integers(0, len(shape) - 1))
    shape[k] = 1
    x = data.draw(arrays(_dtype(data, backend), tuple(shape)), label="x")
    ones = [i for i, d in enumerate(shape) if d == 1]
    axes = data.draw(st.lists(st.sampled_from(ones), min_size=1, unique=True), label="axes")
    axis: Any = tuple(a - len(shape) if data.draw(st.booleans()) else a for a in axes)
    if len(axis) == 1 and data.draw(st.booleans()):
        axis = axis[0]
    check("squeeze", backend, xp, x, axis)


@given(data=st.data())
def test_ref_stack(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = _dtype(data, backend)
    shape = data.draw(shapes(), label="shape")
    n = data.draw(st.integers(1, 3))
    arrs = [data.draw(arrays(dtype, shape), label=f"x{i}") for i in range(n)]
    axis = data.draw(st.integers(-len(shape) - 1, len(shape)), label="axis")
    check("stack", backend, xp, arrs, axis=axis)


@given(data=st.data())
def test_ref_tile(backend: str, xp: Any, data: st.DataObject) -> None:
    x = data.draw(arrays(_dtype(data, backend), shapes()), label="x")
    reps = tuple(data.draw(st.lists(st.integers(0, 3), min_size=0 if x.ndim else 1, max_size=3), label="reps"))
    check("tile", backend, xp, x, reps)


@given(data=st.data())
def test_ref_unstack(backend: str, xp: Any, data: st.DataObject) -> None:
    x = data.draw(arrays(_dtype(data, backend), shapes(min_dims=1)), label="x")
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    check("unstack", backend, xp, x, axis=axis)


@given(data=st.data())
def test_ref_take(backend: str, xp: Any, data: st.DataObject) -> None:
    x = data.draw(arrays(_dtype(data, backend), shapes(min_dims=1, min_side=1)), label="x")
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1) if x.ndim > 1 else st.sampled_from([None, 0, -1]), label="axis")
    n = x.shape[0 if axis is None else axis]
    idt = data.draw(
        st.sampled_from([d for d in ("int32", "int64") if d in supported_dtypes(backend)]), label="index_dtype"
    )
    idx = data.draw(hnp.arrays(np.dtype(idt), st.integers(0, 4), elements=st.integers(0, n - 1)), label="indices")
    check("take", backend, xp, x, idx, axis=axis)


@given(data=st.data())
def test_ref_take_along_axis(backend: str, xp: Any, data: st.DataObject) -> None:
    x = data.draw(arrays(_dtype(data, backend), shapes(min_dims=1, min_side=1)), label="x")
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    ishape = list(x.shape)
    ishape[axis] = data.draw(st.integers(0, 4))
    n = x.shape[axis]
    idx = data.draw(hnp.arrays(np.dtype("int64"), tuple(ishape), elements=st.integers(0, n - 1)), label="indices")
    check("take_along_axis", backend, xp, x, idx, axis=axis)
