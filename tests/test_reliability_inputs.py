"""Bad input gets a specific error or NumPy's answer, never a silent wrong answer: a sweep
generated over the specs, run once per backend (``--backend``).

Every op of the spec with an axis-like parameter is called with axes just outside the valid range
(and reductions with a repeated axis); every indexing op with indices just outside the indexed
size, and with floating-point indices; every reduction, search, sort, set and cumulative op with
an empty array; the binary arithmetic ops with Python integers outside the array's integer dtype
and with arrays of mixed kinds; creation ops with impossible sizes; and ops whose arguments have a
documented range with values outside it. Each case has a reference:

* NumPy's behaviour on the same input (``ref``): where NumPy raises, the backend must raise one of
  the specific errors in :func:`_accepted`; where NumPy answers, the backend must give the same
  answer (shape and values).
* Where Ivy documents a rule that differs from NumPy's behaviour, the case says so (``rule``),
  and the rule decides; :data:`RULES` lists every such deviation and why.

Cases that crash some framework's interpreter when Ivy does not check first (out-of-range
gathers, reductions of empty arrays, huge allocations) run in one child process per backend, so a
regression fails those cases instead of killing pytest.

    python -m pytest -q tests/test_reliability_inputs.py --backend torch
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from numpy.lib.array_utils import normalize_axis_index

import ivy
from ivy._spec import SPECS
from ivy.plugin_kit import promote_types
from ivy.testing._helpers.compare import assert_values
from ivy.testing._helpers.ref import strict_op, strict_to_numpy, to_strict
from ivy.testing.convert import native_to_numpy, to_native

# --------------------------------------------------------------------------------------- the rules

#: Ivy's documented deviations from NumPy's behaviour, by rule name (each case states its rule).
RULES = {
    # NumPy wraps a negative index; the spec (like torch, TensorFlow and Keras) takes ids and class
    # labels in [0, n): -1 is an error there, not the last row or class.
    "ids in [0, n)": "embedding ids and sparse_cross_entropy labels lie in [0, n)",
    # NumPy has no one_hot; the spec documents zeros for an index outside [0, depth) (TensorFlow's
    # and JAX's behaviour), so the reference is NumPy's comparison with arange(depth).
    "one_hot zeros": "one_hot of an index outside [0, depth) is a row of zeros",
    # NumPy has no dropout: the spec takes the probability of dropping in [0, 1).
    "prob in [0, 1)": "dropout's prob lies in [0, 1)",
    # NumPy widens an integer with a float to a float that holds every integer value (float64 for
    # int64 + float32); Ivy promotes by core's documented rule (ivy._promotion): the float dtype.
    "promotion": "an integer (or bool) with a floating-point dtype gives the floating-point dtype",
    # The standard allows a Python int next to an integer array only within the array's dtype;
    # Ivy raises OverflowError in every op (as NumPy does in arithmetic), where NumPy's where()
    # wraps the int (np.where(c, int8, 300) holds 44) and its comparisons compare by value.
    "scalar in range": "a Python int next to an integer array must fit the array's dtype",
    # NumPy's top_k does not exist; the spec takes k in [0, x.shape[axis]].
    "k in [0, n]": "top_k's k lies in [0, x.shape[axis]]",
    # The allocation would need more memory than any machine has; NumPy may try it (linspace).
    "impossible size": "a result larger than the address space is an error before allocating",
}


def _raise(kind: type[BaseException], msg: str) -> Callable[[], Any]:
    def ref() -> Any:
        raise kind(msg)

    return ref


# ------------------------------------------------------------------------------------- the cases

F32 = "float32"


def arr(shape: tuple[int, ...], dtype: str = F32) -> np.ndarray:
    """A small deterministic array: 1, 2, 3... (no zeros, so logs and divisions stay finite)."""
    return (np.arange(math.prod(shape)) % 7 + 1).reshape(shape).astype(dtype)


def ints(values: Any, dtype: str = "int64") -> np.ndarray:
    return np.asarray(values, dtype=dtype)


def probs(shape: tuple[int, ...]) -> np.ndarray:
    a = arr(shape)
    return (a / a.sum(axis=-1, keepdims=True)).astype(F32)


@dataclass
class Case:
    """One bad-input call: ``op(*args, **kwargs)`` with NumPy arrays converted to the backend's."""

    kind: str
    op: str
    label: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any] = field(default_factory=dict)
    #: NumPy's behaviour on the same input: returns the answer or raises
    ref: Callable[[], Any] | None = None
    #: name of the documented rule (in RULES) that decides instead of NumPy's behaviour
    rule: str | None = None
    #: the result's dtype name the rule gives (checked in addition to the values)
    dtype: str | None = None
    #: runs in the child process (crashes a framework where Ivy does not check first)
    unsafe: bool = False

    @property
    def id(self) -> str:
        return f"{self.kind}-{self.op}-{self.label}"


# -- out-of-range axes ------------------------------------------------------------------------

X = (2, 3)  # the array most axis cases use: rank 2, so valid axes are [-2, 2)


def _axis_bases() -> dict[str, tuple[str, tuple[Any, ...], dict[str, Any], int]]:
    """op -> (axis parameter, positional args, other keywords, rank n of the valid range [-n, n))."""
    x, x_i, c = arr(X), ints(np.zeros(X)), arr(X, "complex64")
    two = [arr(X), arr(X)]
    return {
        "take": ("axis", (x, ints([0, 1])), {}, 2),
        "take_along_axis": ("axis", (x, x_i), {}, 2),
        "vecdot": ("axis", (x, x), {}, 2),
        "concat": ("axis", (two,), {}, 2),
        "expand_dims": ("axis", (x,), {}, 3),
        "flip": ("axis", (x,), {}, 2),
        "repeat": ("axis", (x, 2), {}, 2),
        "roll": ("axis", (x, 1), {}, 2),
        "squeeze": ("axis", (arr((1, 3)),), {}, 2),
        "stack": ("axis", (two,), {}, 3),
        "unstack": ("axis", (x,), {}, 2),
        "argmax": ("axis", (x,), {}, 2),
        "argmin": ("axis", (x,), {}, 2),
        "count_nonzero": ("axis", (x,), {}, 2),
        "argsort": ("axis", (x,), {}, 2),
        "sort": ("axis", (x,), {}, 2),
        "cumulative_prod": ("axis", (x,), {}, 2),
        "cumulative_sum": ("axis", (x,), {}, 2),
        "max": ("axis", (x,), {}, 2),
        "mean": ("axis", (x,), {}, 2),
        "min": ("axis", (x,), {}, 2),
        "prod": ("axis", (x,), {}, 2),
        "std": ("axis", (x,), {}, 2),
        "sum": ("axis", (x,), {}, 2),
        "var": ("axis", (x,), {}, 2),
        "all": ("axis", (x,), {}, 2),
        "any": ("axis", (x,), {}, 2),
        "diff": ("axis", (x,), {}, 2),
        "linalg.cross": ("axis", (arr((3, 3)), arr((3, 3))), {}, 2),
        "linalg.vecdot": ("axis", (x, x), {}, 2),
        "linalg.vector_norm": ("axis", (x,), {}, 2),
        "fft.fft": ("axis", (c,), {}, 2),
        "fft.ifft": ("axis", (c,), {}, 2),
        "fft.rfft": ("axis", (x,), {}, 2),
        "fft.irfft": ("axis", (c,), {}, 2),
        "fft.hfft": ("axis", (c,), {}, 2),
        "fft.ihfft": ("axis", (x,), {}, 2),
        "fft.fftn": ("axes", (c,), {}, 2),
        "fft.ifftn": ("axes", (c,), {}, 2),
        "fft.rfftn": ("axes", (x,), {}, 2),
        "fft.irfftn": ("axes", (c,), {}, 2),
        "fft.fftshift": ("axes", (x,), {}, 2),
        "fft.ifftshift": ("axes", (x,), {}, 2),
        "linspace": ("axis", (arr((2,)), arr((2,)) + 1, 3), {}, 2),
        "shuffle": ("axis", (x,), {}, 2),
        "softmax": ("axis", (x,), {}, 2),
        "log_softmax": ("axis", (x,), {}, 2),
        "layer_norm": ("normalized_idxs", (x,), {}, 2),
        "one_hot": ("axis", (ints([0, 1]), 3), {}, 2),
        "cross_entropy": ("axis", (probs(X), probs(X)), {}, 2),
        "sparse_cross_entropy": ("axis", (ints([0, 1]), probs(X)), {}, 2),
        "kl_div": ("axis", (probs(X), probs(X)), {}, 2),
        "gather": ("axis", (x, ints([0, 1])), {}, 2),
        "cumsum": ("axis", (x,), {}, 2),
        "cumprod": ("axis", (x,), {}, 2),
        "top_k": ("axis", (x, 1), {}, 2),
        "split": ("axis", (x, 1), {}, 2),
        "flatten": ("start_dim", (x,), {}, 2),
        "transpose": ("axes", (x,), {}, 2),
        "permute_dims": ("axes", (x,), {}, 2),
    }


#: Spec ops with an axis-like parameter that the axis sweep leaves out, and why (none today).
AXIS_SKIP: dict[str, str] = {}
AXIS_PARAMS = ("axis", "axes", "normalized_idxs", "start_dim", "end_dim", "source", "destination")

#: Reductions whose axis may be a tuple: a repeated axis is an error in NumPy.
TUPLE_AXIS = ("sum", "prod", "mean", "std", "var", "max", "min", "all", "any", "count_nonzero", "linalg.vector_norm")


def _axis_value(op: str, bad: int) -> Any:
    if op in ("fft.fftn", "fft.ifftn", "fft.rfftn", "fft.irfftn"):
        return (bad,)
    if op in ("transpose", "permute_dims"):
        return (0, bad)
    return bad


def _axis_call(op: str, param: str, args: tuple[Any, ...], kwargs: dict[str, Any], value: Any) -> Case:
    p = SPECS[op].signature.parameters[param]
    if p.kind is p.POSITIONAL_ONLY:  # (layer_norm's normalized_idxs): follows the base arguments
        return Case("axis", op, "", (*args, value), dict(kwargs))
    return Case("axis", op, "", args, {**kwargs, param: value})


def axis_cases() -> list[Case]:
    out = []
    for op, (param, args, kwargs, n) in _axis_bases().items():
        for label, bad in (("high", n), ("low", -n - 1)):
            case = _axis_call(op, param, args, kwargs, _axis_value(op, bad))
            case.label = label
            case.ref = lambda bad=bad, n=n: normalize_axis_index(bad, n)
            out.append(case)
    x = arr(X)
    for op in TUPLE_AXIS:
        out.append(Case("axis", op, "repeated", (x,), {"axis": (0, 0)}, ref=lambda: np.sum(x, axis=(0, 0))))
    out += _extra_axis_cases()
    return out


def _extra_axis_cases() -> list[Case]:
    x, y = arr(X), arr((3, 2))
    return [
        Case("axis", "moveaxis", "source", (x, 2, 0), ref=lambda: np.moveaxis(x, 2, 0)),
        Case("axis", "moveaxis", "destination", (x, 0, -3), ref=lambda: np.moveaxis(x, 0, -3)),
        Case("axis", "flatten", "end_dim", (x,), {"end_dim": 2}, ref=lambda: normalize_axis_index(2, 2)),
        Case("axis", "permute_dims", "repeated", (x, (0, 0)), ref=lambda: np.transpose(x, (0, 0))),
        *(
            Case("axis", op, "pair", (x, y), {"axes": ((5,), (0,))}, ref=lambda: np.tensordot(x, y, ((5,), (0,))))
            for op in ("tensordot", "linalg.tensordot")
        ),
        Case("axis", "linspace", "scalar-ends", (0.0, 1.0, 3), {"axis": 1}, ref=lambda: np.linspace(0, 1, 3, axis=1)),
    ]


# -- out-of-range and non-integer indices ------------------------------------------------------


def index_cases() -> list[Case]:
    x3, x, pr, j = arr((3,)), arr(X), probs((1, 3)), ints([[0, 3, 0], [0, 0, 0]])
    ids = "ids in [0, n)"

    def hot(i: np.ndarray) -> np.ndarray:  # one_hot's documented answer: zeros outside [0, depth)
        return (i[:, None] == np.arange(3)).astype(F32)

    cases = [
        Case("index", "take", "high", (x3, ints([0, 3])), ref=lambda: np.take(x3, [0, 3])),
        Case("index", "take", "low", (x3, ints([-4])), ref=lambda: np.take(x3, [-4])),
        Case("index", "take", "negative", (x3, ints([-1])), ref=lambda: np.take(x3, [-1])),
        Case("index", "take", "axis1", (x, ints([3])), {"axis": 1}, ref=lambda: np.take(x, [3], axis=1)),
        Case("index", "take_along_axis", "high", (x, j), {"axis": 1}, ref=lambda: np.take_along_axis(x, j, axis=1)),
        Case("index", "gather", "high", (x, ints([0, 3])), ref=lambda: np.take(x, [0, 3], axis=-1)),
        Case("index", "gather", "low", (x, ints([-4])), ref=lambda: np.take(x, [-4], axis=-1)),
        Case("index", "gather_nd", "high", (x, ints([[0, 5]])), ref=lambda: x[0, 5]),
        Case("index", "gather_nd", "first", (x, ints([[2, 0]])), ref=lambda: x[2, 0]),
        Case("index", "get_item", "array-high", (x, ints([2])), ref=lambda: x[ints([2])]),
        Case("index", "get_item", "array-low", (x, ints([-3])), ref=lambda: x[ints([-3])]),
        Case("index", "get_item", "array-negative", (x, ints([-1])), ref=lambda: x[ints([-1])]),
        Case("index", "get_item", "tuple-high", (x, (0, ints([3]))), ref=lambda: x[0, ints([3])]),
        Case("index", "get_item", "int-high", (x, 2), ref=lambda: x[2]),
        Case("index", "get_item", "int-low", (x, (0, -4)), ref=lambda: x[0, -4]),
        Case("index", "set_item", "array-high", (x, ints([2]), 0.0), ref=lambda: x.copy().__setitem__(ints([2]), 0)),
        Case("index", "set_item", "int-high", (x, (0, 3), 0.0), ref=lambda: x.copy().__setitem__((0, 3), 0)),
        Case("index", "embedding", "high", (x, ints([2])), ref=lambda: np.take(x, [2], axis=0)),
        Case("index", "embedding", "negative", (x, ints([-1])), ref=_raise(IndexError, "id -1"), rule=ids),
        Case("index", "one_hot", "high", (ints([3, 0]), 3), ref=lambda: hot(ints([3, 0])), rule="one_hot zeros"),
        Case("index", "one_hot", "negative", (ints([-1]), 3), ref=lambda: hot(ints([-1])), rule="one_hot zeros"),
        Case("index", "sparse_cross_entropy", "high", (ints([3]), pr), ref=lambda: pr[0, 3]),
        Case("index", "sparse_cross_entropy", "negative", (ints([-1]), pr), ref=_raise(IndexError, "-1"), rule=ids),
        Case("index", "scatter_flat", "high", (ints([0, 5]), arr((2,))), {"size": 3}, ref=lambda: np.zeros(3)[5]),
        Case("index", "scatter_nd", "high", (ints([[0, 5]]), arr((1,))), {"shape": (2, 3)}, ref=lambda: x[0, 5]),
    ]
    for c in cases:
        c.unsafe = True
    return cases


def float_index_cases() -> list[Case]:
    x3, x = arr((3,)), arr(X)
    f = np.array([0.0, 1.0], np.float32)
    return (
        [
            Case("dtype", "take", "float-indices", (x3, f), ref=lambda: np.take(x3, f)),
            Case("dtype", "take_along_axis", "float-indices", (x, arr(X)), {"axis": 1}, ref=lambda: x[f]),
            Case("dtype", "gather", "float-indices", (x, f), ref=lambda: np.take(x, f, axis=-1)),
            Case("dtype", "gather_nd", "float-indices", (x, arr((1, 2))), ref=lambda: x[f]),
            Case("dtype", "get_item", "float-array", (x, f), ref=lambda: x[f]),
            Case("dtype", "embedding", "float-ids", (x, f), ref=lambda: np.take(x, f, axis=0)),
            Case("dtype", "one_hot", "float-indices", (f, 3), ref=lambda: np.eye(3)[f]),
            Case("dtype", "sparse_cross_entropy", "float-labels", (f, probs(X)), ref=lambda: probs(X)[0, f]),
            Case("dtype", "scatter_flat", "float-indices", (f, arr((2,))), {"size": 3}, ref=lambda: np.zeros(3)[f]),
        ]
        + [
            Case("dtype", op, "float", (x, x), ref=lambda op=op: getattr(np, op)(x, x))
            for op in ("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift")
        ]
        + [Case("dtype", "bitwise_invert", "float", (x,), ref=lambda: np.bitwise_invert(x))]
    )


# -- empty arrays -------------------------------------------------------------------------------

#: Ops of the standard whose empty-input behaviour array_api_strict (NumPy's) gives.
EMPTY_STANDARD = (
    "argmax",
    "argmin",
    "max",
    "min",
    "sum",
    "prod",
    "mean",
    "std",
    "var",
    "cumulative_sum",
    "cumulative_prod",
    "sort",
    "argsort",
    "unique_values",
    "unique_counts",
    "unique_inverse",
    "unique_all",
    "nonzero",
    "count_nonzero",
    "all",
    "any",
    "diff",
    "linalg.vector_norm",
)


def empty_cases() -> list[Case]:
    e, e2 = arr((0,)), arr((2, 0))
    cases = []
    for op in EMPTY_STANDARD:

        def ref(op: str = op, a: np.ndarray = e) -> Any:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # mean of nothing: NaN, as the standard says
                return strict_op(op)(to_strict(a))

        cases.append(Case("empty", op, "1d", (e,), ref=ref))
    for op in ("argmax", "max", "sum"):
        cases.append(
            Case("empty", op, "axis1", (e2,), {"axis": 1}, ref=lambda op=op: strict_op(op)(to_strict(e2), axis=1))
        )
    cases += [
        Case("empty", "top_k", "k1", (e, 1), ref=_raise(ValueError, "k > n"), rule="k in [0, n]"),
        Case("empty", "top_k", "k0", (e, 0), ref=lambda: (e[:0], np.zeros(0, np.int64))),
        Case("empty", "cumsum", "1d", (e,), ref=lambda: np.cumsum(e)),
        Case("empty", "cumprod", "1d", (e,), ref=lambda: np.cumprod(e)),
        Case("empty", "softmax", "1d", (e,), ref=lambda: e.copy()),
        Case("empty", "log_softmax", "1d", (e,), ref=lambda: e.copy()),
        Case("empty", "searchsorted", "1d", (e, arr((2,))), ref=lambda: np.searchsorted(e, arr((2,)))),
        Case("empty", "fft.fft", "1d", (e.astype("complex64"),), ref=lambda: np.fft.fft(e)),
        Case("empty", "linalg.det", "0x0", (arr((0, 0)),), ref=lambda: np.linalg.det(arr((0, 0)))),
        Case("empty", "linalg.inv", "0x0", (arr((0, 0)),), ref=lambda: np.linalg.inv(arr((0, 0)))),
    ]
    for c in cases:
        c.unsafe = True
    return cases


# -- Python scalars and dtype promotion ---------------------------------------------------------


def scalar_cases() -> list[Case]:
    cases = []
    for dtype, value in (("int8", 300), ("int8", -129), ("uint8", -1), ("uint8", 256), ("int64", 2**63)):
        a = arr((2,), dtype)
        for op in ("add", "subtract", "multiply"):
            f = getattr(np, op)
            cases.append(Case("scalar", op, f"{dtype}{value:+d}", (a, value), ref=lambda f=f, a=a, v=value: f(a, v)))
            cases.append(Case("scalar", op, f"{value:+d}{dtype}", (value, a), ref=lambda f=f, a=a, v=value: f(v, a)))
        for op in ("equal", "less"):
            cases.append(
                Case(
                    "scalar",
                    op,
                    f"{dtype}{value:+d}",
                    (a, value),
                    ref=_raise(OverflowError, f"{value} does not fit {dtype}"),
                    rule="scalar in range",
                )
            )
    a8 = arr((2,), "int8")
    cases += [
        Case(
            "scalar",
            "where",
            "int8+300",
            (np.array([True, False]), a8, 300),
            ref=_raise(OverflowError, "300 does not fit int8"),
            rule="scalar in range",
        ),
        Case("scalar", "full", "int8+300", ((2,), 300), {"dtype": "int8"}, ref=lambda: np.full(2, 300, np.int8)),
        # a bound beyond the dtype's range clamps nothing: NumPy's answer, not an error
        Case("scalar", "clip", "int8-max300", (a8, 0, 300), ref=lambda: np.clip(a8, 0, 300)),
        Case("scalar", "clip", "int8-min-300", (a8, -300, 1), ref=lambda: np.clip(a8, -300, 1)),
        Case("scalar", "asarray", "int8+300", (300,), {"dtype": "int8"}, ref=lambda: np.asarray(300, np.int8)),
    ]
    return cases


#: Mixed-kind dtype pairs and the dtype the documented rule (docs/security.md, "Dtype promotion")
#: gives them, written out here: an integer or bool with a float gives the float; a signed
#: integer with uint64 gives float64.
MIXED = (
    ("int64", "float32", "float32"),
    ("int32", "float32", "float32"),
    ("int8", "float32", "float32"),
    ("uint8", "float64", "float64"),
    ("int32", "float16", "float16"),
    ("int64", "float16", "float16"),
    ("bool", "float32", "float32"),
    ("bool", "int8", "int8"),
    ("uint64", "int64", "float64"),
)


def promotion_cases() -> list[Case]:
    cases = []
    for a, b, want in MIXED:
        xa, xb = arr((2,), a) if a != "bool" else np.array([True, False]), arr((2,), b)
        for op in ("add", "multiply", "maximum"):
            f = getattr(np, op)

            def ref(f: Any = f, xa: np.ndarray = xa, xb: np.ndarray = xb, want: str = want) -> Any:
                return f(xa.astype(want), xb.astype(want))

            rule = "promotion" if np.result_type(xa, xb).name != want else None
            cases.append(Case("promotion", op, f"{a}-{b}", (xa, xb), ref=ref, rule=rule, dtype=want))
            cases.append(Case("promotion", op, f"{b}-{a}", (xb, xa), ref=ref, rule=rule, dtype=want))
    return cases


def test_bad_input_promotion_rule_is_cores() -> None:
    """The rule written out above is the one core implements (``ivy.plugin_kit.promote_types``),
    which every backend's tables derive from."""
    for a, b, want in MIXED:
        assert promote_types(a, b) == promote_types(b, a) == want, (a, b)
    assert promote_types("float16", "bfloat16") == "float32"
    assert promote_types("bfloat16", "float64") == "float64"
    assert promote_types("float16", "complex64") == "complex64"


# -- documented ranges and impossible sizes -----------------------------------------------------


def value_cases() -> list[Case]:
    x = arr(X)
    big = (2**62,)
    cases = [
        Case("value", "dropout", f"prob{p}", (x, p), ref=_raise(ValueError, "prob"), rule="prob in [0, 1)")
        for p in (-0.1, 1.0, 1.5, float("nan"))
    ]
    cases += [
        Case("value", "linspace", "num-1", (0.0, 1.0, -1), ref=lambda: np.linspace(0, 1, -1)),
        Case("value", "top_k", "k4", (arr((3,)), 4), ref=_raise(ValueError, "k > n"), rule="k in [0, n]"),
        Case("value", "top_k", "k-1", (arr((3,)), -1), ref=_raise(ValueError, "k < 0"), rule="k in [0, n]"),
        Case("value", "split", "unequal", (x, 4), {"axis": 1}, ref=lambda: np.split(x, 4, axis=1)),
        Case("value", "reshape", "size", (x, (4, 2)), ref=lambda: np.reshape(x, (4, 2))),
        Case("value", "broadcast_to", "shape", (x, (3,)), ref=lambda: np.broadcast_to(x, (3,))),
        Case("value", "repeat", "negative", (x, -1), ref=lambda: np.repeat(x, -1)),
        Case("value", "squeeze", "size2", (x, 0), ref=lambda: np.squeeze(x, 0)),
        Case("value", "matmul", "shapes", (x, x), ref=lambda: np.matmul(x, x)),
        Case("value", "linalg.inv", "non-square", (x,), ref=lambda: np.linalg.inv(x)),
        Case("value", "pad", "negative", (x, -1), ref=lambda: np.pad(x, -1)),
    ]
    size_cases = [
        Case("size", "zeros", "2**62", (big,), ref=lambda: np.zeros(big, np.float32)),
        Case("size", "ones", "2**62", (big,), ref=lambda: np.ones(big, np.float32)),
        Case("size", "empty", "2**62", (big,), ref=lambda: np.empty(big, np.float32)),
        Case("size", "full", "2**62", (big, 1.0), ref=lambda: np.full(big, 1.0, np.float32)),
        Case("size", "zeros", "2**32x2**32", ((2**32, 2**32),), ref=lambda: np.zeros((2**32, 2**32), np.float32)),
        Case("size", "zeros", "negative", ((-1,),), ref=lambda: np.zeros((-1,), np.float32)),
        Case("size", "eye", "2**40", (2**40,), ref=_raise(MemoryError, "8 TiB"), rule="impossible size"),
        Case(
            "size",
            "linspace",
            "num10**13",
            (0.0, 1.0, 10**13),
            ref=_raise(MemoryError, "80 TB"),
            rule="impossible size",
        ),
        Case("size", "arange", "2**62", (0, 2**62), ref=lambda: np.arange(0, 2**62)),
    ]
    for c in size_cases:
        c.unsafe = True
    return cases + size_cases


def all_cases() -> list[Case]:
    cases = (
        axis_cases()
        + index_cases()
        + float_index_cases()
        + empty_cases()
        + scalar_cases()
        + promotion_cases()
        + value_cases()
    )
    ids = [c.id for c in cases]
    dup = {i for i in ids if ids.count(i) > 1}
    assert not dup, f"duplicate case ids: {sorted(dup)}"
    return cases


CASES = all_cases()
BY_ID = {c.id: c for c in CASES}


# ------------------------------------------------------------------------------------ the checks


def _accepted(backend: str) -> tuple[type[BaseException], ...]:
    """The errors that count as a specific refusal: Python's argument errors, and the framework's
    own where it has a dedicated one (TensorFlow's InvalidArgumentError and, for an allocation
    that cannot succeed, ResourceExhaustedError; torch's checks raise RuntimeError with the failed
    condition)."""
    out: list[type[BaseException]] = [IndexError, ValueError, TypeError, OverflowError, MemoryError]
    if backend == "tensorflow":
        import tensorflow as tf

        out += [tf.errors.InvalidArgumentError, tf.errors.ResourceExhaustedError]  # (the latter: OOM)
    if backend == "torch":
        out.append(RuntimeError)
    return tuple(out)


def _expected(case: Case) -> tuple[bool, Any]:
    """(True, None) where the reference raises, else (False, the reference answer)."""
    assert case.ref is not None, case.id
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            out = case.ref()
    except Exception:  # any refusal of NumPy's
        return True, None
    return False, out


def _call(case: Case, backend: str) -> Any:
    fn: Any = ivy
    for part in case.op.split("."):
        fn = getattr(fn, part)

    def conv(v: Any) -> Any:
        if isinstance(v, np.ndarray):
            return to_native(backend, v)
        if isinstance(v, list):
            return [conv(a) for a in v]
        if isinstance(v, tuple):
            return tuple(conv(a) for a in v)
        return v

    args = conv(case.args)
    kwargs = {k: conv(v) for k, v in case.kwargs.items()}
    if not any(_is_array(a) for a in [*args, *kwargs.values()]):
        kwargs["backend"] = backend
    return fn(*args, **kwargs)


def _is_array(v: Any) -> bool:
    if isinstance(v, (list, tuple)):
        return any(_is_array(a) for a in v)
    return hasattr(v, "shape") and hasattr(v, "dtype")


def _to_numpy(backend: str, out: Any) -> Any:
    if isinstance(out, (list, tuple)):
        return [_to_numpy(backend, o) for o in out]
    return native_to_numpy(backend, out)


def _ref_numpy(out: Any) -> Any:
    if isinstance(out, (list, tuple)) or type(out).__name__.endswith("Result"):
        return [_ref_numpy(o) for o in out]
    return np.asarray(strict_to_numpy(out))


SKIP = "SKIP: "


def _lacks(case: Case, backend: str) -> str | None:
    """Why the backend cannot run the case at all (a dtype it lacks), or None."""
    from ivy.testing._helpers.strategies import supported_dtypes

    have = set(supported_dtypes(backend)) | {"float16"}
    for a in [*case.args, *case.kwargs.values()]:
        if isinstance(a, np.ndarray) and a.dtype.name not in have:
            return f"{backend} has no {a.dtype.name}"
    if case.dtype is not None:  # the rule's result dtype: the op must have a kernel for it
        same = [np.asarray(a).astype(case.dtype) for a in case.args]
        try:
            _call(Case(case.kind, case.op, "probe", tuple(same)), backend)
        except Exception as e:  # the backend's own limitation, not the case's
            return f"{backend} has no {case.op} kernel for {case.dtype}: {type(e).__name__}"
    return None


def check(case: Case, backend: str) -> str | None:
    """None when the backend behaves as the case's reference says, ``SKIP + why`` where it
    cannot run the case (a dtype it lacks), else what went wrong."""
    lacks = _lacks(case, backend)
    if lacks:
        return SKIP + lacks
    raises, want = _expected(case)
    try:
        got = _call(case, backend)
        got_np = _to_numpy(backend, got)
    except _accepted(backend) as e:
        if raises:
            return None if str(e).strip() else f"raised {type(e).__name__} without a message"
        return f"raised {type(e).__name__}: {str(e)[:300]} where the reference answers {_ref_numpy(want)!r}"
    except Exception as e:  # reported as the failure
        return f"raised {type(e).__module__}.{type(e).__name__} (not a specific argument error): {str(e)[:300]}"
    if raises:
        return f"answered {_short(got_np)} where {'the rule ' + repr(case.rule) if case.rule else 'NumPy'} raises"
    try:
        _compare(got, got_np, _ref_numpy(want), case)
    except AssertionError as e:
        return f"wrong answer: {str(e)[:400]}"
    return None


def _flat(v: Any) -> str:
    return np.array2string(np.asarray(v), threshold=8, separator=", ").replace("\n", "")


def _short(v: Any) -> str:
    return _flat(v) if not isinstance(v, list) else "[" + ", ".join(_short(a) for a in v) + "]"


def _compare(got: Any, got_np: Any, want: Any, case: Case) -> None:
    if isinstance(want, list):
        assert isinstance(got_np, list) and len(got_np) == len(want), f"{len(want)} results expected, got {got_np!r}"
        for g, gn, w in zip(got, got_np, want):
            _compare(g, gn, w, case)
        return
    got_np, want = np.asarray(got_np), np.asarray(want)
    if case.dtype is not None:
        from ivy.testing.convert import dtype_name

        name = dtype_name(got.dtype)
        assert name == case.dtype, f"dtype {name}, the rule gives {case.dtype}"
    kind = "float64" if want.dtype.kind in "fc" or got_np.dtype.kind in "fc" else "int64"
    if want.dtype.kind == "c" or got_np.dtype.kind == "c":
        kind = "complex128"
    tol = "float32" if kind != "int64" else kind
    if kind == "complex128":
        tol = "complex64"
    assert_values(got_np.astype(kind), want.astype(kind), tol)


# ------------------------------------------------------------------------------ coverage of specs


def test_bad_input_sweep_covers_every_axis_parameter() -> None:
    """Every spec op with an axis-like parameter is swept (or skipped here with a reason)."""
    swept = {c.op for c in CASES if c.kind == "axis"}
    missing = [
        name
        for name, s in SPECS.items()
        if any(p in s.signature.parameters for p in AXIS_PARAMS) and name not in swept and name not in AXIS_SKIP
    ]
    assert not missing, f"ops with an axis parameter that the sweep misses: {missing}"


def test_bad_input_sweep_covers_every_reduction() -> None:
    """Every spec op of the reducing, searching, sorting and set categories gets an empty array."""
    swept = {c.op for c in CASES if c.kind == "empty"}
    cats = ("statistical", "searching", "sorting", "set")
    skip = {"where": "selects, does not reduce"}
    missing = [n for n, s in SPECS.items() if s.category in cats and n not in swept and n not in skip]
    assert not missing, f"reducing/searching ops the empty-array sweep misses: {missing}"


def test_bad_input_rules_are_named() -> None:
    assert {c.rule for c in CASES if c.rule} <= set(RULES)


# ------------------------------------------------------------------------------------- the sweep

SAFE = [c for c in CASES if not c.unsafe]
UNSAFE = [c for c in CASES if c.unsafe]


@pytest.mark.parametrize("case", SAFE, ids=[c.id for c in SAFE])
def test_bad_input_sweep(case: Case, backend: str) -> None:
    problem = check(case, backend)
    if problem and problem.startswith(SKIP):
        pytest.skip(problem[len(SKIP) :])
    assert problem is None, f"ivy.{case.op}{_describe(case)} on {backend}: {problem}"


#: seconds a child may take for all its cases (paddle's crash handler can hang after an abort)
CHILD_TIMEOUT = 240


@pytest.fixture(scope="module")
def child_results(backend: str) -> dict[str, str | None]:
    """The unsafe cases' outcomes, from child processes (one, unless a case kills or hangs it)."""
    results: dict[str, str | None] = {}
    todo = [c.id for c in UNSAFE]
    env = {**os.environ, "JAX_ENABLE_X64": os.environ.get("JAX_ENABLE_X64", "1")}
    while todo:
        cmd = [sys.executable, os.path.abspath(__file__), backend, *todo]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=CHILD_TIMEOUT, env=env)
            out, err, status = proc.stdout, proc.stderr, f"exit status {proc.returncode}"
        except subprocess.TimeoutExpired as e:
            out, err, status = _text(e.stdout), _text(e.stderr), f"no answer within {CHILD_TIMEOUT} s"
        started = None
        for line in out.splitlines():
            if line.startswith("START "):
                started = line[6:]
            elif line.startswith("RESULT "):
                cid, problem = json.loads(line[7:])
                results[cid] = problem
                started = None
        todo = [c for c in todo if c not in results]
        if not todo:
            break
        if started is None:  # died outside a case: report it on every remaining case
            results.update({c: f"the child process failed ({status}): {err[-2000:]}" for c in todo})
            break
        results[started] = f"crashed the interpreter ({status}): {err[-800:]}"
        todo.remove(started)
    return results


def _text(v: str | bytes | None) -> str:
    return v.decode(errors="replace") if isinstance(v, bytes) else (v or "")


@pytest.mark.parametrize("case", UNSAFE, ids=[c.id for c in UNSAFE])
def test_bad_input_sweep_in_child(case: Case, backend: str, child_results: dict[str, str | None]) -> None:
    assert case.id in child_results, f"{case.id} did not run"
    problem = child_results[case.id]
    if problem and problem.startswith(SKIP):
        pytest.skip(problem[len(SKIP) :])
    assert problem is None, f"ivy.{case.op}{_describe(case)} on {backend}: {problem}"


def _describe(case: Case) -> str:
    def show(v: Any) -> str:
        if isinstance(v, np.ndarray):
            return f"array(shape={v.shape}, dtype={v.dtype}{', ' + _flat(v) if v.size <= 6 else ''})"
        if isinstance(v, (list, tuple)):
            inner = ", ".join(show(a) for a in v)
            return f"[{inner}]" if isinstance(v, list) else f"({inner})"
        return repr(v)

    parts = [show(a) for a in case.args] + [f"{k}={show(v)}" for k, v in case.kwargs.items()]
    rule = f" [rule: {RULES[case.rule]}]" if case.rule else ""
    return f"({', '.join(parts)}){rule}"


def _child(backend: str, ids: list[str]) -> None:
    ivy.set_backend(backend)
    for cid in ids:
        print("START " + cid, flush=True)
        problem = check(BY_ID[cid], backend)
        print("RESULT " + json.dumps([cid, problem]), flush=True)


if __name__ == "__main__":
    _child(sys.argv[1], sys.argv[2:])
