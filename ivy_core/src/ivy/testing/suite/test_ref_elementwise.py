"""Element-wise functions against array_api_strict: dtypes, input domains, broadcasting, Python
scalar operands and mixed-dtype promotion."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from ivy.testing._helpers.ref import check, strict_dtype, strict_op, xs
from ivy.testing._helpers.registry import covers
from ivy.testing._helpers.strategies import INTS, arrays, backend_dtypes, dtypes_of, kind_of, scalar_for, shapes


@dataclass(frozen=True)
class E:
    """One element-wise op: the dtype kinds it is tested on and its input domains.

    ``domain`` is a domain name or ``{kind: domain}``; binary ops have ``domain2`` for ``x2``.
    ``exact`` computes the exact result on Python-int object arrays, to skip integer overflow
    (unspecified by the standard).
    """

    kinds: tuple[str, ...]
    domain: Any = "any"
    domain2: Any = None
    specials: bool = False
    exact: Callable[..., Any] | None = None
    rtol: float | None = None
    atol: float | None = None

    def dom(self, dtype: str, second: bool = False) -> str:
        d = self.domain2 if second and self.domain2 is not None else self.domain
        if isinstance(d, dict):
            return d.get(kind_of(dtype), "any")
        return d


F, R, N, C, I, B = ("float",), ("real",), ("real", "complex"), ("complex",), ("int",), ("bool",)
FC = ("float", "complex")

UNARY_OPS: dict[str, E] = {
    "abs": E(N, {"int": "wide", "float": "wide", "complex": "any"}, specials=True, exact=lambda a: abs(a)),
    "acos": E(F, "unit"),
    "acosh": E(F, "ge1"),
    "asin": E(F, "unit"),
    "asinh": E(F),
    "atan": E(F),
    "atanh": E(F, "unit"),
    "bitwise_invert": E(("int", "bool"), "wide"),
    "ceil": E(R, "quarter", specials=True),
    "conj": E(N),
    "cos": E(FC, "small"),
    "cosh": E(F, "small"),
    "exp": E(FC, "small"),
    "expm1": E(F, "small"),
    "floor": E(R, "quarter", specials=True),
    "imag": E(C),
    "isfinite": E(("bool", "int", "float", "complex"), {"int": "wide", "float": "wide"}, specials=True),
    "isinf": E(("bool", "int", "float", "complex"), specials=True),
    "isnan": E(("bool", "int", "float", "complex"), specials=True),
    "log": E(FC, {"float": "pos", "complex": "nonzero"}),
    "log10": E(F, "pos"),
    "log1p": E(F, "gtm1"),
    "log2": E(F, "pos"),
    "logical_not": E(B),
    "negative": E(N, {"int": "wide", "float": "wide"}, exact=lambda a: -a),
    "positive": E(N, {"int": "wide", "float": "wide"}),
    "real": E(N),
    "reciprocal": E(FC, "nonzero"),
    "round": E(R, "quarter"),
    "sign": E(N, {"float": "quarter", "complex": "nonzero"}, exact=lambda a: a * 0 + 1),
    "signbit": E(F, "quarter"),
    "sin": E(FC, "small"),
    "sinh": E(F, "small"),
    "sqrt": E(FC, {"float": "nonneg", "complex": "nonzero"}),
    "square": E(N, exact=lambda a: a * a),
    "tan": E(F, "tan"),
    "tanh": E(FC, "small"),
    "trunc": E(R, {"int": "wide", "float": "quarter"}, specials=True),
}

BINARY_OPS: dict[str, E] = {
    "add": E(("int", "float", "complex"), exact=lambda a, b: a + b),
    "atan2": E(F),
    "bitwise_and": E(("int", "bool"), "wide"),
    "bitwise_or": E(("int", "bool"), "wide"),
    "bitwise_xor": E(("int", "bool"), "wide"),
    "bitwise_left_shift": E(I, domain2="shift", exact=lambda a, b: a * (2**b)),
    "bitwise_right_shift": E(I, "wide", domain2="shift"),
    "copysign": E(F, "quarter_nz"),
    "divide": E(FC, domain2="nonzero"),
    "equal": E(("bool", "int", "float", "complex"), {"int": "wide", "float": "wide"}, specials=True),
    "floor_divide": E(
        R, {"float": "quarter", "int": "wide"}, {"float": "quarter_nz", "int": "nonzero"}, exact=lambda a, b: a // b
    ),
    "greater": E(R, "wide", specials=True),
    "greater_equal": E(R, specials=True),
    "hypot": E(F),
    "less": E(R, specials=True),
    "less_equal": E(R, "wide", specials=True),
    "logaddexp": E(F),
    "logical_and": E(B),
    "logical_or": E(B),
    "logical_xor": E(B),
    "maximum": E(R, "wide", specials=True),
    "minimum": E(R, specials=True),
    "multiply": E(("int", "float", "complex"), exact=lambda a, b: a * b),
    "nextafter": E(F, rtol=0.0, atol=0.0),
    "not_equal": E(("bool", "int", "float", "complex"), specials=True),
    "pow": E(
        ("int", "float"),
        {"float": "pos", "int": "small"},
        {"float": "small", "int": "pow_exp"},
        exact=lambda a, b: a**b,
    ),
    "remainder": E(R, {"float": "quarter", "int": "wide"}, {"float": "quarter_nz", "int": "nonzero"}),
    "subtract": E(("int", "float", "complex"), exact=lambda a, b: a - b),
}

#: clip is ternary: tested on its own below.
CLIP_OPS = {"clip": E(R)}


@cache
def _strict_accepts(name: str, dtypes: tuple[str, ...]) -> bool:
    args = [xs.ones((1,), dtype=strict_dtype(d)) for d in dtypes]
    try:
        with np.errstate(all="ignore"):
            strict_op(name)(*args)
    except TypeError:
        return False
    return True


def op_dtypes(name: str, e: E, backend: str) -> list[str]:
    arity = 1 if name in UNARY_OPS else 2
    return [d for d in backend_dtypes(backend, *e.kinds) if _strict_accepts(name, (d,) * arity)]


def mixed_pairs(name: str, e: E, backend: str) -> list[tuple[str, str]]:
    ds = op_dtypes(name, e, backend)
    out = []
    for a in ds:
        for b in ds:
            if a == b:
                continue
            try:
                xs.result_type(strict_dtype(a), strict_dtype(b))
            except TypeError:
                continue
            if _strict_accepts(name, (a, b)):
                out.append((a, b))
    return out


def _no_overflow(e: E, result_dtype: str, *operands: Any) -> bool:
    if e.exact is None or result_dtype not in INTS:
        return True
    objs = [np.asarray(o).astype(object) if isinstance(o, np.ndarray) else o for o in operands]
    with np.errstate(all="ignore"):
        exact = np.asarray(e.exact(*objs), dtype=object)
    info = np.iinfo(result_dtype)
    return all(info.min <= int(v) <= info.max for v in exact.ravel())


@pytest.mark.parametrize("name", sorted(UNARY_OPS))
@given(data=st.data())
def test_ref_unary(name: str, backend: str, xp: Any, data: st.DataObject) -> None:
    e = UNARY_OPS[name]
    dts = op_dtypes(name, e, backend)
    if not dts:
        pytest.skip(f"{backend} supports no dtype {name} is tested on")
    dtype = data.draw(st.sampled_from(dts), label="dtype")
    x = data.draw(arrays(dtype, shapes(), e.dom(dtype), e.specials), label="x")
    assume(_no_overflow(e, dtype, x))
    check(name, backend, xp, x, rtol=e.rtol, atol=e.atol)


@pytest.mark.parametrize("mode", ["broadcast", "mixed", "scalar"])
@pytest.mark.parametrize("name", sorted(BINARY_OPS))
@given(data=st.data())
def test_ref_binary(name: str, mode: str, backend: str, xp: Any, data: st.DataObject) -> None:
    e = BINARY_OPS[name]
    if mode == "mixed":
        pairs = mixed_pairs(name, e, backend)
        if not pairs:
            pytest.skip(f"the standard defines no mixed-dtype promotion for {name} on {backend}'s dtypes")
        d1, d2 = data.draw(st.sampled_from(pairs), label="dtypes")
    else:
        dts = op_dtypes(name, e, backend)
        if not dts:
            pytest.skip(f"{backend} supports no dtype {name} is tested on")
        d1 = d2 = data.draw(st.sampled_from(dts), label="dtype")
    if mode == "scalar":
        left = data.draw(st.booleans(), label="scalar_first")
        x = data.draw(arrays(d1, shapes(), e.dom(d1, second=left), e.specials), label="x")
        s = data.draw(scalar_for(d1, e.dom(d1, second=not left)), label="scalar")
        args = (s, x) if left else (x, s)
        assume(_no_overflow(e, d1, *args))
    else:
        shp = data.draw(
            hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, min_side=0, max_side=4), label="shapes"
        )
        x1 = data.draw(arrays(d1, shp.input_shapes[0], e.dom(d1), e.specials), label="x1")
        x2 = data.draw(arrays(d2, shp.input_shapes[1], e.dom(d2, second=True), e.specials), label="x2")
        args = (x1, x2)
        rt = xs.result_type(strict_dtype(d1), strict_dtype(d2))
        assume(_no_overflow(e, rt._np_dtype.name, x1, x2))
    check(name, backend, xp, *args, rtol=e.rtol, atol=e.atol)


@covers("clip")
@given(data=st.data())
def test_ref_clip(backend: str, xp: Any, data: st.DataObject) -> None:
    dts = backend_dtypes(backend, "real")
    dtype = data.draw(st.sampled_from(dts), label="dtype")
    x = data.draw(arrays(dtype, shapes(max_dims=2)), label="x")
    form = data.draw(st.sampled_from(["none", "min", "max", "both", "arrays"]), label="form")
    dom = "nonneg" if dtype.startswith("uint") else "small"
    kw: dict[str, Any] = {}
    if form in ("min", "both"):
        kw["min"] = data.draw(scalar_for(dtype, dom), label="min")
    if form in ("max", "both"):
        kw["max"] = data.draw(scalar_for(dtype, dom), label="max")
        if "min" in kw and kw["max"] < kw["min"]:  # min > max is unspecified
            kw["min"], kw["max"] = kw["max"], kw["min"]
    if form == "arrays":
        a = data.draw(arrays(dtype, x.shape[-1:] if x.ndim else (), dom), label="min_arr")
        b = data.draw(arrays(dtype, x.shape[-1:] if x.ndim else (), "nonneg"), label="width")
        kw["min"] = a
        kw["max"] = np.asarray(a + np.minimum(b, 3).astype(dtype)).astype(dtype)
    check("clip", backend, xp, x, **kw)


def test_ref_elementwise_tables_are_disjoint() -> None:
    assert not set(UNARY_OPS) & set(BINARY_OPS), (
        "the elementwise reference tables: expected not set(UNARY_OPS) & set(BINARY_OPS)"
    )
    for table in (UNARY_OPS, BINARY_OPS):
        for name, e in table.items():
            assert dtypes_of(*e.kinds), name


# --------------------------------------------------------------------------- special values
# The standard specifies the special cases (NaN, infinities, zeros, domain edges) of real
# floating-point element-wise functions; checked on a fixed grid. Left out: signed zeros and the
# sign of NaN (unspecified), and ops where NumPy (hence the reference) knowingly deviates.

SPECIAL_VALUES = [math.nan, math.inf, -math.inf, 0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.5, 1e-3, 1e3]
SPECIAL_UNARY = sorted(n for n in UNARY_OPS if "float" in UNARY_OPS[n].kinds and n not in ("signbit",))
SPECIAL_BINARY = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "pow",
    "atan2",
    "hypot",
    "logaddexp",
    "maximum",
    "minimum",
    "equal",
    "not_equal",
    "less",
    "less_equal",
    "greater",
    "greater_equal",
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_ref_unary_special_values(dtype: str, backend: str, xp: Any) -> None:
    if dtype not in backend_dtypes(backend, "float"):
        pytest.skip(f"{backend} lacks {dtype}")
    x = np.array(SPECIAL_VALUES, dtype=dtype)
    failures = []
    for name in SPECIAL_UNARY:
        try:
            with np.errstate(all="ignore"):
                check(name, backend, xp, x)
        except AssertionError as e:
            failures.append(f"{name}: {str(e).splitlines()[0]} {_mismatch(e)}")
    assert not failures, "special values:\n" + "\n".join(failures)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_ref_binary_special_values(dtype: str, backend: str, xp: Any) -> None:
    if dtype not in backend_dtypes(backend, "float"):
        pytest.skip(f"{backend} lacks {dtype}")
    v = np.array(SPECIAL_VALUES, dtype=dtype)
    x1, x2 = (a.ravel() for a in np.meshgrid(v, v, indexing="ij"))
    failures = []
    for name in SPECIAL_BINARY:
        try:
            with np.errstate(all="ignore"):
                check(name, backend, xp, x1, x2)
        except AssertionError as e:
            failures.append(f"{name}: {str(e).splitlines()[0]} {_mismatch(e)}")
    assert not failures, "special values:\n" + "\n".join(failures)


def _mismatch(e: AssertionError) -> str:
    lines = [
        ln.strip() for ln in str(e).splitlines() if "ACTUAL" in ln or "DESIRED" in ln or ln.strip().startswith("[")
    ]
    return " | ".join(lines[:6])
