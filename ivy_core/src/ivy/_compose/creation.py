"""Creation functions composed from Array API ops (defaults; plugins use them for the cases their
framework lacks)."""

from __future__ import annotations

from typing import Any

from .._dtypes import dtype_name
from ..errors import UnsupportedDTypeError
from . import composes

_SCALARS = (bool, int, float, complex)


def _endpoint_dtype(xp: Any, start: Any, stop: Any) -> Any:
    """The spec's default dtype of ``linspace``: complex if an endpoint is, else the floating
    dtype of array endpoints (promoted), else the default real floating-point dtype."""
    floats = [
        a.dtype
        for a in (start, stop)
        if not isinstance(a, _SCALARS) and xp.isdtype(a.dtype, ("real floating", "complex floating"))
    ]
    complex_ = any(isinstance(a, complex) for a in (start, stop)) or any(
        xp.isdtype(d, "complex floating") for d in floats
    )
    defaults = xp.__array_namespace_info__().default_dtypes()
    if floats:
        d = floats[0] if len(floats) == 1 else xp.result_type(*floats)
        if complex_ and not xp.isdtype(d, "complex floating"):
            return defaults["complex floating"]
        return d
    return defaults["complex floating" if complex_ else "real floating"]


@composes
def linspace(
    xp: Any,
    start: Any,
    stop: Any,
    /,
    num: int,
    *,
    dtype: Any = None,
    device: Any = None,
    endpoint: bool = True,
    axis: int = 0,
) -> Any:
    # start·(1 - t) + stop·t for the fractions t in [0, 1]: both endpoints come out exact
    if num < 0:
        raise ValueError(f"linspace: num must be non-negative, got {num}")
    if dtype is None:
        dtype = _endpoint_dtype(xp, start, stop)
    else:  # the backend's own dtype object: compared with the result's below (paddle's refuse others)
        native = xp.__array_namespace_info__().dtypes().get(dtype_name(dtype))
        if native is None:
            raise UnsupportedDTypeError(f"linspace: this backend has no {dtype_name(dtype)} dtype")
        dtype = native
    s = xp.asarray(start, dtype=dtype, device=device)
    e = xp.asarray(stop, dtype=dtype, device=device)
    s, e = xp.broadcast_arrays(s, e)
    if not -(s.ndim + 1) <= axis <= s.ndim:
        raise ValueError(f"linspace: axis {axis} is out of range for a result of {s.ndim + 1} dimensions")
    real = dtype
    if xp.isdtype(dtype, "complex floating"):
        real = xp.real(s).dtype
    elif not xp.isdtype(dtype, "real floating"):
        real = xp.__array_namespace_info__().default_dtypes()["real floating"]
    steps = max(num - 1, 1) if endpoint else max(num, 1)
    t = xp.arange(num, dtype=real, device=xp.dev(s) if device is None else device) / steps
    s, e = xp.expand_dims(s, axis=-1), xp.expand_dims(e, axis=-1)
    out = s * (1 - t) + e * t
    if out.dtype != dtype:  # integer dtypes: computed in floating point, then cast
        out = xp.astype(out, dtype)
    return xp.moveaxis(out, -1, axis)
