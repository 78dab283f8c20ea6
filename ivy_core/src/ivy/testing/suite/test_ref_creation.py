"""Creation functions against array_api_strict, with explicit dtypes; default dtypes and
unsupported dtypes are checked separately."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import ivy
from ivy.testing._helpers.compare import assert_matches
from ivy.testing._helpers.facts import expect, expect_dtype, expect_native, expect_shape
from ivy.testing._helpers.ref import check, strict_dtype, xs
from ivy.testing._helpers.registry import covers
from ivy.testing._helpers.strategies import arrays, backend_dtypes, kind_of, scalar_for, shapes, supported_dtypes
from ivy.testing.convert import DTYPES, dtype_name, native_to_numpy, to_native

CREATION_OPS = {
    "arange": "no array argument: backend=",
    "asarray": "from nested Python lists",
    "empty": "shape and dtype only",
    "empty_like": "shape and dtype only",
    "eye": "",
    "from_dlpack": "",
    "full": "",
    "full_like": "",
    "linspace": "",
    "meshgrid": "",
    "ones": "",
    "ones_like": "",
    "tril": "",
    "triu": "",
    "zeros": "",
    "zeros_like": "",
}

small_shape = st.one_of(st.integers(0, 4), shapes(max_dims=3))


def _shape_tuple(s: Any) -> tuple[int, ...]:
    return (s,) if isinstance(s, int) else tuple(s)


@given(data=st.data())
def test_ref_arange(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(backend_dtypes(backend, "int", "float")), label="dtype")
    if dtype.startswith("uint"):
        start = data.draw(st.integers(0, 10))
        stop = data.draw(st.one_of(st.none(), st.integers(0, 10)))
    elif kind_of(dtype) == "int":
        start = data.draw(st.integers(-10, 10))
        stop = data.draw(st.one_of(st.none(), st.integers(-10, 10)))
    else:
        start = data.draw(st.integers(-40, 40).map(lambda k: k / 4))
        stop = data.draw(st.one_of(st.none(), st.integers(-40, 40).map(lambda k: k / 4)))
    if stop is None:
        assume(start >= 0)
        step = 1
    else:
        step = data.draw(
            st.sampled_from([1, 2, 3, -1, -2])
            if kind_of(dtype) == "int"
            else st.sampled_from([1.0, 0.5, 0.25, 2.0, -1.0, -0.5])
        )
    expected = xs.arange(start, stop, step, dtype=strict_dtype(dtype))
    actual = ivy.arange(start, stop, step, dtype=dtype, backend=backend)
    assert_matches(actual, expected, backend, xp, msg="ivy.arange: ")


@given(data=st.data())
def test_ref_asarray(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(supported_dtypes(backend)), label="dtype")
    x = data.draw(arrays(dtype, shapes(max_dims=3, min_side=1)), label="x")
    obj = x.tolist()
    expected = xs.asarray(obj, dtype=strict_dtype(dtype))
    with ivy.use_backend(backend):
        actual = ivy.asarray(obj, dtype=dtype)
    assert_matches(actual, expected, backend, xp, msg="asarray(list): ")
    # From a native array: the same values, also with a dtype conversion and copy=True.
    native = to_native(backend, x)
    assert_matches(ivy.asarray(native), xs.asarray(x), backend, xp, msg="asarray(native): ")
    copied = ivy.asarray(native, copy=True)
    assert_matches(copied, xs.asarray(x), backend, xp, msg="asarray(copy=True): ")
    to = data.draw(
        st.sampled_from([d for d in backend_dtypes(backend, "float") if kind_of(dtype) != "complex"] or [dtype])
    )
    assert_matches(
        ivy.asarray(native, dtype=to), xs.asarray(x.astype(to)), backend, xp, msg=f"asarray(native, dtype={to}): "
    )


@covers("empty", "empty_like", "zeros", "ones", "zeros_like", "ones_like", "full", "full_like")
@given(data=st.data())
def test_ref_fill_creation(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(supported_dtypes(backend)), label="dtype")
    shape = data.draw(small_shape, label="shape")
    sd = strict_dtype(dtype)
    for name in ("zeros", "ones"):
        expected = getattr(xs, name)(shape, dtype=sd)
        assert_matches(getattr(ivy, name)(shape, dtype=dtype, backend=backend), expected, backend, xp, msg=f"{name}: ")
    e = ivy.empty(shape, dtype=dtype, backend=backend)
    expect_native(e, xp, "ivy.empty")
    expect_dtype(e, dtype, "ivy.empty")
    expect_shape(e, _shape_tuple(shape), "ivy.empty")
    fill = data.draw(scalar_for(dtype, "nonneg" if dtype.startswith("uint") else "any"), label="fill")
    assert_matches(
        ivy.full(shape, fill, dtype=dtype, backend=backend), xs.full(shape, fill, dtype=sd), backend, xp, msg="full: "
    )
    # *_like: the dtype of x by default, or the one asked for.
    x = data.draw(arrays(dtype, shapes()), label="x")
    nx = to_native(backend, x)
    to = data.draw(st.sampled_from([None, *supported_dtypes(backend)]), label="like_dtype")
    kw = {} if to is None else {"dtype": to}
    skw = {} if to is None else {"dtype": strict_dtype(to)}
    for name in ("zeros_like", "ones_like"):
        assert_matches(
            getattr(ivy, name)(nx, **kw), getattr(xs, name)(xs.asarray(x), **skw), backend, xp, msg=f"{name}: "
        )
    e = ivy.empty_like(nx, **kw)
    expect_native(e, xp, "ivy.empty_like")
    expect_dtype(e, to or dtype, "ivy.empty_like")
    expect_shape(e, x.shape, "ivy.empty_like")
    fdt = to or dtype
    fill = data.draw(scalar_for(fdt, "nonneg" if fdt.startswith("uint") else "any"), label="fill_like")
    assert_matches(
        ivy.full_like(nx, fill, **kw), xs.full_like(xs.asarray(x), fill, **skw), backend, xp, msg="ivy.full_like: "
    )


@given(data=st.data())
def test_ref_eye(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(supported_dtypes(backend)), label="dtype")
    n = data.draw(st.integers(0, 4))
    m = data.draw(st.one_of(st.none(), st.integers(0, 4)))
    k = data.draw(st.integers(-3, 3))
    expected = xs.eye(n, m, k=k, dtype=strict_dtype(dtype))
    assert_matches(ivy.eye(n, m, k=k, dtype=dtype, backend=backend), expected, backend, xp, msg="ivy.eye: ")


@given(data=st.data())
def test_ref_from_dlpack(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(backend_dtypes(backend, "int", "float")), label="dtype")
    x = data.draw(arrays(dtype, shapes()), label="x")
    expected = xs.from_dlpack(xs.asarray(x))
    # The backend comes from context: from another library's array (NumPy) and from its own.
    assert_matches(ivy.from_dlpack(x, backend=backend), expected, backend, xp, msg="from_dlpack(numpy): ")
    with ivy.use_backend(backend):
        actual = ivy.from_dlpack(to_native(backend, x))
    assert_matches(actual, expected, backend, xp, msg="from_dlpack(native): ")


@given(data=st.data())
def test_ref_linspace(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(backend_dtypes(backend, "float")), label="dtype")
    start = data.draw(st.floats(-10, 10))
    stop = data.draw(st.floats(-10, 10))
    num = data.draw(st.integers(0, 6))
    endpoint = data.draw(st.booleans())
    expected = xs.linspace(start, stop, num, dtype=strict_dtype(dtype), endpoint=endpoint)
    actual = ivy.linspace(start, stop, num, dtype=dtype, endpoint=endpoint, backend=backend)
    assert_matches(actual, expected, backend, xp, atol=1e-5 if dtype == "float32" else 1e-12, msg="ivy.linspace: ")


@given(data=st.data())
def test_ref_meshgrid(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(supported_dtypes(backend)), label="dtype")
    k = data.draw(st.integers(1, 3))
    arrs = [data.draw(arrays(dtype, shapes(min_dims=1, max_dims=1)), label=f"x{i}") for i in range(k)]
    indexing = data.draw(st.sampled_from(["xy", "ij"]))
    check("meshgrid", backend, xp, *arrs, indexing=indexing)


@covers("tril", "triu")
@pytest.mark.parametrize("name", ["tril", "triu"])
@given(data=st.data())
def test_ref_triangle(name: str, backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(supported_dtypes(backend)), label="dtype")
    x = data.draw(arrays(dtype, shapes(min_dims=2, max_dims=3)), label="x")
    k = data.draw(st.integers(-3, 3))
    check(name, backend, xp, x, k=k)


def test_ref_creation_default_dtypes(backend: str, xp: Any) -> None:
    """With ``dtype=None`` creation functions use the backend's own default dtypes."""
    d = {k: dtype_name(v) for k, v in xp.__array_namespace_info__().default_dtypes().items()}
    expect(
        set(d), {"real floating", "complex floating", "integral", "indexing"}, "ivy.__array_namespace_info__: set(d)"
    )
    rf, cf, it = d["real floating"], d["complex floating"], d["integral"]
    got = {
        "zeros": ivy.zeros(2, backend=backend),
        "ones": ivy.ones((2, 1), backend=backend),
        "empty": ivy.empty(2, backend=backend),
        "eye": ivy.eye(2, backend=backend),
        "linspace": ivy.linspace(0, 1, 3, backend=backend),
        "arange(float)": ivy.arange(0.0, 2.0, backend=backend),
        "arange(int)": ivy.arange(3, backend=backend),
        "full(int)": ivy.full(2, 7, backend=backend),
        "full(float)": ivy.full(2, 7.0, backend=backend),
        "full(complex)": ivy.full(2, 1 + 2j, backend=backend),
        "asarray(int)": ivy.asarray([1, 2], backend=backend),
        "asarray(float)": ivy.asarray([1.0, 2.0], backend=backend),
        "asarray(bool)": ivy.asarray([True], backend=backend),
        "fft.fftfreq": ivy.fft.fftfreq(4, backend=backend),
    }
    want = {
        "zeros": rf,
        "ones": rf,
        "empty": rf,
        "eye": rf,
        "linspace": rf,
        "arange(float)": rf,
        "arange(int)": it,
        "full(int)": it,
        "full(float)": rf,
        "full(complex)": cf,
        "asarray(int)": it,
        "asarray(float)": rf,
        "asarray(bool)": "bool",
        "fft.fftfreq": rf,
    }
    bad = {k: dtype_name(v.dtype) for k, v in got.items() if dtype_name(v.dtype) != want[k]}
    assert not bad, f"default dtypes {d}; got {bad}"
    with ivy.use_backend(backend):
        expect_dtype(ivy.zeros(3), rf, "ivy.zeros")
        expect_dtype(ivy.arange(3), it, "ivy.arange")
    for k, v in got.items():
        assert xp.is_native_array(v), k
    np.testing.assert_array_equal(native_to_numpy(backend, got["arange(int)"]), [0, 1, 2])


@pytest.mark.parametrize("dtype", DTYPES)
def test_ref_unsupported_dtype_raises(dtype: str, backend: str, xp: Any) -> None:
    """Creating an array of a dtype the backend lacks raises UnsupportedDTypeError."""
    if dtype in supported_dtypes(backend):
        z = ivy.zeros(2, dtype=dtype, backend=backend)
        expect_dtype(z, dtype, "ivy.zeros")
        return
    with pytest.raises(ivy.errors.UnsupportedDTypeError):
        ivy.zeros(2, dtype=dtype, backend=backend)
    with pytest.raises(ivy.errors.UnsupportedDTypeError):
        ivy.ones((1, 2), dtype=getattr(ivy, dtype), backend=backend)
