"""Dtype forms are interchangeable on every backend.

A dtype reaches Ivy as a native dtype (``torch.float32``), an ``ivy.DType`` (``ivy.float32``) or a
name (``"float32"``). paddle's dtypes answer ``False`` to ``==`` with any foreign object (so
``x.dtype == ivy.float32`` is False there while ``ivy.float32 == x.dtype`` is True): these tests
check the order-proof ways to compare dtypes, and that every op taking a dtype treats all three
forms alike, in both orders of comparison inside the plugins. The reference is the dtype name.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ivy
from ivy.testing._helpers.facts import expect
from ivy.testing._helpers.ref import strict_dtype, xs
from ivy.testing._helpers.strategies import kind_of, supported_dtypes
from ivy.testing.convert import dtype_name, to_native

KINDS = ("bool", "signed integer", "unsigned integer", "integral", "real floating", "complex floating", "numeric")


def _forms(xp: Any, name: str) -> list[Any]:
    return [getattr(xp, name), getattr(ivy, name), name]


def test_ref_conformance_isdtype_every_form_pair(backend: str, xp: Any) -> None:
    """``ivy.isdtype(a, b)`` is ``a``-is-``b`` for native dtypes, ``ivy.<dtype>`` and names, both orders."""
    sup = supported_dtypes(backend)
    for a in sup:
        for b in sup:
            want = xs.isdtype(strict_dtype(a), strict_dtype(b))
            for fa in _forms(xp, a):
                for fb in _forms(xp, b):
                    assert ivy.isdtype(fa, fb, backend=backend) is want, (a, b, fa, fb)
                    assert xp.isdtype(fa, fb) is want, ("namespace", a, b, fa, fb)
                    assert (ivy.dtype_name(fa) == ivy.dtype_name(fb)) is want, (a, b, fa, fb)
        for kind in KINDS:
            want = xs.isdtype(strict_dtype(a), kind)
            for fa in _forms(xp, a):
                assert ivy.isdtype(fa, kind, backend=backend) is want, (a, kind, fa)
                assert ivy.isdtype(fa, (kind, "bool"), backend=backend) is (want or a == "bool"), (a, kind, fa)


def test_ref_conformance_isdtype_of_array_dtype(backend: str, xp: Any) -> None:
    """The dtype of a native array against every form, without a selected backend."""
    for name in supported_dtypes(backend):
        d = to_native(backend, np.zeros(2, dtype=name)).dtype
        for form in _forms(xp, name):
            assert ivy.isdtype(d, form), (name, form)
            assert ivy.isdtype(form, d), (name, form)
            expect(ivy.dtype_name(d), name, "ivy.dtype_name of the native dtype")
            expect(ivy.dtype_name(form), name, f"ivy.dtype_name of {form!r}")
        # ivy.DType first compares by name on every backend (the native dtype first does not on paddle)
        assert getattr(ivy, name) == d, name
        assert not getattr(ivy, name) != d, name


def test_ref_conformance_dtype_forms_in_ops(backend: str, xp: Any) -> None:
    """Ops that take a dtype give the same dtype for each of its three forms."""
    sup = supported_dtypes(backend)
    x = to_native(backend, np.arange(4).astype("int8").reshape(2, 2))
    for name in sup:
        for form in _forms(xp, name):
            got = {
                "zeros": ivy.zeros((2,), dtype=form, backend=backend).dtype,
                "full": ivy.full((2,), 1, dtype=form, backend=backend).dtype,
                "eye": ivy.eye(2, dtype=form, backend=backend).dtype,
                "ones_like": ivy.ones_like(x, dtype=form).dtype,
                "asarray": ivy.asarray([1, 0], dtype=form, backend=backend).dtype,
                "result_type": ivy.result_type(form, form, backend=backend),
            }
            got["astype"] = ivy.astype(x, form).dtype
            if kind_of(name) not in ("complex", "bool"):  # arange: real numbers only
                got["arange"] = ivy.arange(2, dtype=form, backend=backend).dtype
            for op, d in got.items():
                assert dtype_name(d) == name, (op, name, form, d)
            assert ivy.can_cast(form, getattr(xp, name), backend=backend), (
                "ivy.can_cast: expected ivy.can_cast(form, getattr(xp, name), backend=backend)"
            )
            assert ivy.can_cast(getattr(xp, name), form, backend=backend), (
                "ivy.can_cast: expected ivy.can_cast(getattr(xp, name), form, backend=backend)"
            )
            if kind_of(name) in ("float", "complex"):
                want = "float32" if name in ("float32", "complex64") else "float64"
                assert dtype_name(ivy.finfo(form, backend=backend).dtype) == want, (name, form)
            elif kind_of(name) == "int":
                assert dtype_name(ivy.iinfo(form, backend=backend).dtype) == name, (name, form)


@pytest.mark.parametrize("op", ["sum", "prod", "cumulative_sum", "cumulative_prod"])
def test_ref_conformance_dtype_forms_in_reductions(op: str, backend: str, xp: Any) -> None:
    """A reduction's ``dtype=`` in each form: the reference's dtype and values."""
    sup = supported_dtypes(backend)
    a = np.arange(1, 5, dtype="int32")
    x = to_native(backend, a)
    for name in sup:
        if kind_of(name) not in ("int", "float") or name.startswith("uint") and name != "uint8":
            continue
        want = getattr(xs, op)(xs.asarray(a), dtype=strict_dtype(name))
        for form in _forms(xp, name):
            got = getattr(ivy, op)(x, dtype=form)
            assert dtype_name(got.dtype) == name, (op, name, form)
            np.testing.assert_array_equal(ivy.to_numpy(got), np.asarray(want._array))


def test_ref_conformance_promotion_follows_core(backend: str, xp: Any) -> None:
    """``result_type`` follows core's promotion (``ivy.plugin_kit.promote_types``): the standard's
    table, and Ivy's rules for the pairs it leaves undefined: bool with a number, a signed integer
    with uint64, an integer with a floating-point dtype (the floating-point dtype, on every
    backend: NumPy's own rule would give float64 for int32 with float32)."""
    from ivy.plugin_kit import promote_types

    names = [n for n in xp.__array_namespace_info__().dtypes()]
    for a in names:
        for b in names:
            want = promote_types(a, b)
            if want not in names:
                continue  # (paddle has no uint64 to promote to)
            got = dtype_name(ivy.result_type(getattr(xp, a), getattr(xp, b), backend=backend))
            assert got == want, f"result_type({a}, {b}) is {got}, core says {want}"
