"""Calling an op on the backend (through ``ivy``) and on array_api_strict with the same data."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import array_api_strict as xs
import numpy as np

from ivy.testing.convert import to_native

from .compare import assert_matches, strict_dtype_name, strict_to_numpy

xs.set_array_api_strict_flags(api_version="2024.12")

__all__ = ["xs", "op_of", "ivy_op", "strict_op", "to_strict", "to_backend", "check", "strict_dtype"]


def op_of(ns: Any, name: str) -> Callable[..., Any]:
    """``ns.linalg.inv`` for ``"linalg.inv"``."""
    obj = ns
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj  # type: ignore[no-any-return]


def ivy_op(name: str) -> Callable[..., Any]:
    import ivy

    return op_of(ivy, name)


def strict_op(name: str) -> Callable[..., Any]:
    return op_of(xs, name)


def strict_dtype(name: str) -> Any:
    return getattr(xs, name)


def to_strict(v: Any) -> Any:
    """NumPy arrays (also inside lists/tuples/dicts) become array_api_strict arrays."""
    if isinstance(v, np.ndarray):
        return xs.asarray(v)
    if isinstance(v, list):
        return [to_strict(a) for a in v]
    if isinstance(v, tuple):
        return tuple(to_strict(a) for a in v)
    if isinstance(v, dict):
        return {k: to_strict(a) for k, a in v.items()}
    return v


def to_backend(backend: str, v: Any) -> Any:
    """NumPy arrays (also inside lists/tuples/dicts) become native arrays of ``backend``."""
    if isinstance(v, np.ndarray):
        return to_native(backend, v)
    if isinstance(v, list):
        return [to_backend(backend, a) for a in v]
    if isinstance(v, tuple):
        return tuple(to_backend(backend, a) for a in v)
    if isinstance(v, dict):
        return {k: to_backend(backend, a) for k, a in v.items()}
    return v


def check(
    name: str,
    backend: str,
    xp: Any,
    *args: Any,
    via: Any = None,
    rtol: float | None = None,
    atol: float | None = None,
    expected_dtype: str | None = None,
    call_kw: dict[str, Any] | None = None,
    **kwargs: Any,
) -> tuple[Any, Any]:
    """Run op ``name`` on NumPy inputs ``args``/``kwargs`` through ``ivy`` (or namespace ``via``)
    and through array_api_strict, and compare. ``call_kw`` are extra keywords for the ivy call only
    (``backend=``). Returns ``(actual, expected)``."""
    expected = strict_op(name)(*to_strict(args), **to_strict(kwargs))
    fn = ivy_op(name) if via is None else op_of(via, name)
    call = lambda: fn(*to_backend(backend, args), **to_backend(backend, kwargs), **(call_kw or {}))  # noqa: E731
    if expect_unsupported(backend, expected, expected_dtype, call):
        return None, expected
    actual = call()
    assert_matches(actual, expected, backend, xp, rtol=rtol, atol=atol, expected_dtype=expected_dtype, msg=f"{name}: ")
    return actual, expected


def expect_unsupported(
    backend: str, expected: Any, expected_dtype: str | None = None, call: Callable[[], Any] | None = None
) -> bool:
    """If the reference result has a dtype the backend lacks (paddle has no uint64, so
    ``sum(uint8)`` cannot give the standard's uint64), the plugin must raise
    UnsupportedDTypeError: check that and return True. Otherwise return False."""
    import pytest

    import ivy

    from .strategies import supported_dtypes

    outs = expected if isinstance(expected, (tuple, list)) else [expected]
    names = {expected_dtype} if expected_dtype else {strict_dtype_name(o) for o in outs if hasattr(o, "dtype")}
    if names <= set(supported_dtypes(backend)):
        return False
    if call is not None:
        with pytest.raises(ivy.errors.UnsupportedDTypeError):
            call()
    return True


def snp(x: Any) -> np.ndarray:
    return strict_to_numpy(x)


def sdtype(x: Any) -> str:
    return strict_dtype_name(x)
