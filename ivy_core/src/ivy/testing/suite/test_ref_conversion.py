"""Ivy's own conversion functions (to_numpy, to_scalar, to_list) against NumPy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ivy
from ivy.testing._helpers.facts import expect, expect_is, expect_type
from ivy.testing._helpers.strategies import arrays, kind_of, shapes, supported_dtypes
from ivy.testing.convert import to_native

CONVERSION_OPS = {"to_numpy": "", "to_scalar": "", "to_list": ""}

PY_TYPE = {"bool": bool, "int": int, "float": float, "complex": complex}


def _leaves(v: Any) -> list[Any]:
    return [a for item in v for a in _leaves(item)] if isinstance(v, list) else [v]


@given(data=st.data())
def test_ref_to_numpy(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(supported_dtypes(backend)), label="dtype")
    x = data.draw(arrays(dtype, shapes()), label="x")
    nx = to_native(backend, x)
    got = ivy.to_numpy(nx)
    assert type(got) is np.ndarray, type(got)
    expect(got.dtype, x.dtype, "ivy.to_numpy: got.dtype")
    expect(got.shape, x.shape, "ivy.to_numpy: got.shape")
    np.testing.assert_array_equal(got, x)
    if got.size:  # a copy: writing to it leaves the backend array alone
        got.reshape(-1)[0] = got.reshape(-1)[-1] if dtype == "bool" else 0
        got[...] = np.ones_like(got)
        np.testing.assert_array_equal(ivy.to_numpy(nx), x)


@given(data=st.data())
def test_ref_to_scalar(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(supported_dtypes(backend)), label="dtype")
    shape = data.draw(st.sampled_from([(), (1,), (1, 1), (1, 1, 1)]), label="shape")
    x = data.draw(arrays(dtype, shape), label="x")
    got = ivy.to_scalar(to_native(backend, x))
    assert type(got) is PY_TYPE[kind_of(dtype)], (dtype, type(got))
    expect(got, x.item(), "ivy.to_scalar: got")


def test_ref_to_scalar_rejects_many_elements(backend: str) -> None:
    with pytest.raises(ValueError):
        ivy.to_scalar(to_native(backend, np.zeros(2, dtype="float32")))


@given(data=st.data())
def test_ref_to_list(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(supported_dtypes(backend)), label="dtype")
    x = data.draw(arrays(dtype, shapes()), label="x")
    got = ivy.to_list(to_native(backend, x))
    want = x.tolist()
    expect(got, want, "ivy.to_list: got")
    if x.ndim == 0:
        expect_is(type(got), PY_TYPE[kind_of(dtype)], "ivy.to_list: type(got)")
    else:
        expect_type(got, list, "ivy.to_list: got")
        for leaf in _leaves(got):
            assert type(leaf) is PY_TYPE[kind_of(dtype)], (dtype, type(leaf))
