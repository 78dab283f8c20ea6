"""Once per category: the op reached through the backend namespace ``xp.<op>`` agrees with the
reference just like ``ivy.<op>`` does (both are the plugin's functions)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ivy
from ivy.testing._helpers.compare import assert_matches
from ivy.testing._helpers.facts import expect, expect_cmp
from ivy.testing._helpers.ref import check, op_of, xs
from ivy.testing.convert import to_native

A = np.array([[3.0, 1.0, 2.0], [1.0, 4.0, 0.5]], dtype="float32")
SQ = np.array([[4.0, 1.0], [1.0, 3.0]], dtype="float32")

#: category -> (op, numpy args, keyword args)
CASES: dict[str, tuple[str, tuple[Any, ...], dict[str, Any]]] = {
    "elementwise": ("add", (A, A[0]), {}),
    "indexing": ("take", (A, np.array([1, 0], dtype="int64")), {"axis": 1}),
    "linear_algebra": ("matmul", (A, A.T), {}),
    "manipulation": ("concat", ([A, A],), {"axis": 0}),
    "searching": ("argmax", (A,), {"axis": 1}),
    # One distinct value: the order of unique values is unspecified.
    "set": ("unique_values", (np.array([[2, 2], [2, 2]], dtype="int32"),), {}),
    "sorting": ("sort", (A,), {"axis": 1}),
    "statistical": ("sum", (A,), {"axis": 0}),
    "utility": ("any", (A > 2,), {}),
    "linalg": ("linalg.inv", (SQ,), {}),
    "fft": ("fft.fft", (A.astype("complex64"),), {}),
}


@pytest.mark.parametrize("category", sorted(CASES))
def test_ref_namespace_agrees(category: str, backend: str, xp: Any) -> None:
    name, args, kw = CASES[category]
    via_xp, _ = check(name, backend, xp, *args, via=xp, rtol=1e-4, atol=1e-5, **kw)
    via_ivy, _ = check(name, backend, xp, *args, rtol=1e-4, atol=1e-5, **kw)
    expect_cmp(op_of(xp, name), "is not", op_of(ivy, name), f"xp.{name}: the namespace's function")


def test_ref_namespace_data_type(backend: str, xp: Any) -> None:
    x = to_native(backend, A)
    assert_matches(xp.astype(x, xp.int32), xs.astype(xs.asarray(A), xs.int32), backend, xp)
    assert xp.can_cast(xp.int8, xp.int32), "ivy.can_cast: expected xp.can_cast(xp.int8, xp.int32)"
    assert not xp.can_cast(xp.float32, xp.int32), "ivy.can_cast: expected not xp.can_cast(xp.float32, xp.int32)"


def test_ref_namespace_creation(backend: str, xp: Any) -> None:
    assert_matches(xp.zeros((2, 3), dtype=xp.float32), xs.zeros((2, 3), dtype=xs.float32), backend, xp)
    assert_matches(xp.arange(1, 7, 2, dtype=xp.int32), xs.arange(1, 7, 2, dtype=xs.int32), backend, xp)
    assert_matches(xp.eye(3, k=1, dtype=xp.float32), xs.eye(3, k=1, dtype=xs.float32), backend, xp)


def test_ref_namespace_conversion(backend: str, xp: Any) -> None:
    x = to_native(backend, A)
    np.testing.assert_array_equal(xp.to_numpy(x), A)
    expect(xp.to_list(x), A.tolist(), "ivy.to_list: xp.to_list(x)")
    expect(
        xp.to_scalar(to_native(backend, np.array([2.5], dtype="float32"))),
        2.5,
        "ivy.to_scalar: xp.to_scalar(to_native(backend, np.array([2.5], dtype='float32')))",
    )
