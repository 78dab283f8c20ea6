"""Data type functions against array_api_strict: astype, can_cast, finfo, iinfo, isdtype,
result_type."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import ivy
from ivy.testing._helpers.compare import assert_matches
from ivy.testing._helpers.facts import expect
from ivy.testing._helpers.ref import strict_dtype, xs
from ivy.testing._helpers.registry import covers
from ivy.testing._helpers.strategies import arrays, kind_of, shapes, supported_dtypes
from ivy.testing.convert import dtype_name, to_native

DATA_TYPE_OPS = {"astype": "", "can_cast": "", "finfo": "", "iinfo": "", "isdtype": "", "result_type": ""}

KINDS = ("bool", "signed integer", "unsigned integer", "integral", "real floating", "complex floating", "numeric")


def _castable(src: str, dst: str) -> bool:
    # Casting complex to a real dtype is left undefined by the standard.
    return not (kind_of(src) == "complex" and kind_of(dst) != "complex")


def test_ref_astype_all_pairs(backend: str, xp: Any) -> None:
    """Every pair of supported dtypes, on values representable in every dtype (0..10)."""
    sup = supported_dtypes(backend)
    base = np.arange(11).reshape(11)
    for src in sup:
        x = (base % 2 == 1) if src == "bool" else base.astype(src)
        nx = to_native(backend, x)
        for dst in sup:
            if not _castable(src, dst):
                continue
            expected = xs.astype(xs.asarray(x), strict_dtype(dst))
            # The target dtype as a name for some pairs, as a native dtype for the others.
            to = dst if (sup.index(src) + sup.index(dst)) % 2 else getattr(xp, dst)
            assert_matches(ivy.astype(nx, to), expected, backend, xp, msg=f"astype {src}->{dst}: ")


@given(data=st.data())
def test_ref_astype(backend: str, xp: Any, data: st.DataObject) -> None:
    sup = supported_dtypes(backend)
    src = data.draw(st.sampled_from(sup), label="src")
    dst = data.draw(st.sampled_from([d for d in sup if _castable(src, d)]), label="dst")
    x = data.draw(arrays(src, shapes(), "nonneg" if kind_of(src) != "float" else "quarter"), label="x")
    if kind_of(dst) in ("int",) and kind_of(src) in ("float", "complex"):
        x = np.abs(np.trunc(x.real if kind_of(src) == "complex" else x)).astype(src)  # exact, in range
    copy = data.draw(st.booleans(), label="copy")
    expected = xs.astype(xs.asarray(x), strict_dtype(dst), copy=copy)
    assert_matches(ivy.astype(to_native(backend, x), dst, copy=copy), expected, backend, xp, msg="ivy.astype: ")


def test_ref_can_cast(backend: str, xp: Any) -> None:
    sup = supported_dtypes(backend)
    for a in sup:
        for b in sup:
            want = xs.can_cast(strict_dtype(a), strict_dtype(b))
            assert ivy.can_cast(getattr(xp, a), getattr(xp, b), backend=backend) == want, (a, b)
            assert ivy.can_cast(a, b, backend=backend) == want, (a, b, "names")
    # An array as the first argument.
    for a in sup:
        x = to_native(backend, np.zeros(2, dtype=a))
        for b in sup:
            assert ivy.can_cast(x, getattr(xp, b)) == xs.can_cast(strict_dtype(a), strict_dtype(b)), (a, b, "array")


def test_ref_finfo(backend: str, xp: Any) -> None:
    for name in supported_dtypes(backend):
        if kind_of(name) not in ("float", "complex"):
            continue
        want = xs.finfo(strict_dtype(name))
        for arg in (getattr(xp, name), to_native(backend, np.zeros(1, dtype=name))):
            got = ivy.finfo(arg, backend=backend)
            assert got.bits == want.bits, name
            for field in ("eps", "max", "min", "smallest_normal"):
                assert float(getattr(got, field)) == float(getattr(want, field)), (name, field)
            assert dtype_name(got.dtype) == want.dtype._np_dtype.name, (name, got.dtype)


def test_ref_iinfo(backend: str, xp: Any) -> None:
    for name in supported_dtypes(backend):
        if kind_of(name) != "int":
            continue
        want = xs.iinfo(strict_dtype(name))
        for arg in (getattr(xp, name), to_native(backend, np.zeros(1, dtype=name))):
            got = ivy.iinfo(arg, backend=backend)
            assert (got.bits, int(got.max), int(got.min)) == (want.bits, want.max, want.min), name
            assert dtype_name(got.dtype) == name, (name, got.dtype)


def test_ref_isdtype(backend: str, xp: Any) -> None:
    sup = supported_dtypes(backend)
    for name in sup:
        for kind in KINDS:
            want = xs.isdtype(strict_dtype(name), kind)
            assert ivy.isdtype(getattr(xp, name), kind, backend=backend) == want, (name, kind)
        for other in sup:
            want = xs.isdtype(strict_dtype(name), strict_dtype(other))
            assert ivy.isdtype(getattr(xp, name), getattr(xp, other), backend=backend) == want, (name, other)
        want = xs.isdtype(strict_dtype(name), ("bool", "real floating"))
        assert ivy.isdtype(getattr(xp, name), ("bool", "real floating"), backend=backend) == want, name


def test_ref_result_type(backend: str, xp: Any) -> None:
    sup = supported_dtypes(backend)
    for a in sup:
        xa = to_native(backend, np.zeros(1, dtype=a))
        for b in sup:
            try:
                want = xs.result_type(strict_dtype(a), strict_dtype(b))._np_dtype.name
            except TypeError:
                continue  # not defined by the standard
            got = ivy.result_type(getattr(xp, a), getattr(xp, b), backend=backend)
            assert dtype_name(got) == want, (a, b, got)
            got = ivy.result_type(xa, to_native(backend, np.zeros(1, dtype=b)))
            assert dtype_name(got) == want, (a, b, "arrays", got)
        # Python scalars of the same kind do not change the dtype (2024.12).
        scalar = {"bool": True, "int": 1, "float": 1.0, "complex": 1j}[kind_of(a)]
        want = xs.result_type(strict_dtype(a), scalar)._np_dtype.name
        assert dtype_name(ivy.result_type(xa, scalar)) == want, (a, scalar)
        assert dtype_name(ivy.result_type(scalar, getattr(xp, a), backend=backend)) == want, (a, scalar, "first")


@covers("astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type")
def test_ref_data_type_via_namespace(backend: str, xp: Any) -> None:
    """The same functions reached through the backend namespace ``xp`` agree with the reference."""
    sup = supported_dtypes(backend)
    f = "float64" if "float64" in sup else "float32"
    expect(
        xp.can_cast(xp.int8, getattr(xp, f)),
        xs.can_cast(xs.int8, strict_dtype(f)),
        "ivy.can_cast: xp.can_cast(xp.int8, getattr(xp, f))",
    )
    expect(xp.finfo(getattr(xp, f)).bits, xs.finfo(strict_dtype(f)).bits, "ivy.finfo: xp.finfo(getattr(xp, f)).bits")
    expect(xp.iinfo(xp.int32).max, xs.iinfo(xs.int32).max, "ivy.iinfo: xp.iinfo(xp.int32).max")
    assert xp.isdtype(getattr(xp, f), "real floating"), (
        "ivy.isdtype: expected xp.isdtype(getattr(xp, f), 'real floating')"
    )
    expect(
        dtype_name(xp.result_type(xp.int8, xp.int32)),
        "int32",
        "ivy.result_type: dtype_name(xp.result_type(xp.int8, xp.int32))",
    )
    x = to_native(backend, np.arange(3, dtype="int32"))
    assert_matches(xp.astype(x, getattr(xp, f)), xs.astype(xs.arange(3, dtype=xs.int32), strict_dtype(f)), backend, xp)
