"""Shared helpers: promotion of operands, casting, devices and small shape utilities."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, overload

from ivy.plugin_kit import check_int_scalar, device_kinds, fastpath

from ._dtypes import (
    COMPLEX,
    INT_BOUNDS,
    NAME,
    PROMOTE,
    bool_,
    float32,
    float64,
    idset,
    int8,
    int16,
    int32,
    int64,
    native,
    scalar_default,
    scalar_dtype,
    uint8,
    unsupported,
)
from ._framework import Tensor, paddle

_NARROW = idset(int8, int16, uint8, bool_)
_C_ops = paddle._C_ops
_full = paddle.full
_cast = paddle.cast
_CPU = paddle.CPUPlace()
PLACE_TYPES: tuple[type, ...] = tuple(
    t
    for t in (getattr(paddle, n, None) for n in ("CPUPlace", "CUDAPlace", "CUDAPinnedPlace", "XPUPlace", "CustomPlace"))
    if isinstance(t, type)
) + (type(paddle.to_tensor(0).place),)


def cast(x: Any, dt: Any) -> Any:
    return x if x.dtype is dt else _cast(x, dt)


def scalar(value: Any, dt: Any, like: Any = None) -> Any:
    """A 0-d tensor holding a Python scalar, on the place of ``like``."""
    # (compared with ==, not like.place.is_cpu_place(): that call breaks paddle's SOT when it
    # compiles the op, with an UnboundLocalError in the code it generates)
    if like is not None and like.place != _CPU:
        return _full([], value, dt, device=like.place)
    return _full([], value, dt)


def fits(v: int, dt: Any, op: str) -> None:
    """A Python int next to a tensor of integer dtype ``dt`` must fit it (paddle wraps it)."""
    b = INT_BOUNDS.get(id(dt))
    if b is not None and not b[0] <= v <= b[1]:
        check_int_scalar(v, b[2], op)


def promote2(x1: Any, x2: Any, op: str) -> tuple[Any, Any]:
    """Both operands as tensors of the promoted dtype (the slow path of binary ops)."""
    t1, t2 = type(x1) is Tensor or isinstance(x1, Tensor), type(x2) is Tensor or isinstance(x2, Tensor)
    if t1 and t2:
        d1, d2 = x1.dtype, x2.dtype
        if d1 is d2 or d1 == d2:
            return x1, x2
        try:
            dt = PROMOTE[(d1, d2)]
        except KeyError:
            raise TypeError(f"ivy.{op}: cannot promote paddle dtypes {d1} and {d2}") from None
        return cast(x1, dt), cast(x2, dt)
    if t1:
        dt = scalar_dtype(x2, x1.dtype)
        if type(x2) is int:
            fits(x2, dt, op)
        return cast(x1, dt), scalar(x2, dt, x1)
    if t2:
        dt = scalar_dtype(x1, x2.dtype)
        if type(x1) is int:
            fits(x1, dt, op)
        return scalar(x1, dt, x2), cast(x2, dt)
    dt1, dt2 = scalar_default(x1), scalar_default(x2)
    dt = PROMOTE[(dt1, dt2)]
    return scalar(x1, dt), scalar(x2, dt)


def promote_many(xs: Sequence[Any], op: str) -> list[Any]:
    dt = xs[0].dtype
    same = True
    for x in xs[1:]:
        if x.dtype is not dt:
            same = False
            try:
                dt = PROMOTE[(dt, x.dtype)]
            except KeyError:
                raise TypeError(f"ivy.{op}: cannot promote paddle dtypes {dt} and {x.dtype}") from None
    return list(xs) if same else [cast(x, dt) for x in xs]


# ------------------------------------------------------------------------------- fast paths


def c_op(fn: Any) -> Any:
    """The C function behind ``fn`` when ``fn`` is one of paddle's generated forwarders
    (``def _sin(*args, **kwargs): return _C_ops.sin(*args, **kwargs)``), else ``fn`` itself.

    Calling the C function directly is the same call minus one Python frame, by construction;
    the check reads the forwarder's code, so a paddle release that puts logic there gets ``fn``.
    """
    code = getattr(fn, "__code__", None)
    if code is None or not getattr(fn, "__module__", "").endswith("generated_tensor_methods_patch"):
        return fn
    names = code.co_names
    if len(names) == 2 and names[0] == "_C_ops" and fn.__name__ == "_" + names[1]:
        return getattr(_C_ops, names[1], fn)
    return fn


def unary(fn: Any) -> Any:
    """A unary op that is paddle's ``fn`` itself, called as its C function when ``fn`` only
    forwards to one: the same call for every argument, so no guard is needed."""
    native = c_op(fn)
    return fn if native is fn else fastpath(native, fn, nargs=1)


# The guards of ivy.plugin.fastpath: the ops here use ``same`` (an identity test of two dtypes)
# and ``retry``: every dtype their Python function treats apart is one paddle's kernel rejects.
# (A ``dtypes`` guard is cheap for the dtypes it admits, which it finds by identity, but a dtype
# it does not admit is hashed, and a paddle dtype's hash is a pybind method of about 1 µs.) Ops
# whose special dtypes paddle does compute (differently) stay plain Python functions that call
# paddle's C function directly.

#: What to retry in the Python function after the C function failed: paddle raises RuntimeError
#: for a dtype without a kernel, ValueError (or TypeError) for arguments it rejects (a foreign
#: array, mismatched shapes). The Python function then computes the result or raises its own error.
RETRY = (RuntimeError, ValueError, TypeError)


# ------------------------------------------------------------------------------------ devices


def place(device: Any) -> Any:
    """A paddle Place from a device spec: a Place, "cpu", "gpu:N" / "cuda:N", or an object whose
    ``str`` is one of those (e.g. a torch.device)."""
    if isinstance(device, PLACE_TYPES):
        return device
    s = device if isinstance(device, str) else str(device)
    s = s.strip().lower()
    if s.startswith("place(") and s.endswith(")"):  # str() of a paddle Place
        s = s[6:-1]
    if s == "cpu":
        return _CPU
    kind, _, idx = s.partition(":")
    if kind in ("gpu", "cuda"):
        return paddle.CUDAPlace(int(idx or 0))
    if kind == "gpu_pinned":
        return paddle.CUDAPinnedPlace()
    dk = device_kinds("paddle").get(kind)  # a registered third-party kind
    if dk is not None:
        return dk.to_native(device if isinstance(device, str) else s)
    raise ValueError(f"unknown paddle device {device!r}; use 'cpu', 'gpu:N' or a paddle Place")


def same_place(a: Any, b: Any) -> bool:
    return a == b or str(a) == str(b)


def to_device(x: Any, device: Any) -> Any:
    """``x`` on ``device`` (``None``: unchanged); copies only when the place differs."""
    if device is None:
        return x
    p = place(device)
    if same_place(x.place, p):
        return x
    return x._copy_to(p, False)


def default_place() -> Any:
    d = paddle.device.get_device()
    return _CPU if d == "cpu" else place(d)


def devices() -> list[Any]:
    out: list[Any] = [_CPU]
    try:
        if paddle.is_compiled_with_cuda():
            out += [paddle.CUDAPlace(i) for i in range(paddle.device.cuda.device_count())]
    except Exception:  # a CUDA build without a usable driver: CPU only
        pass
    return out


# ------------------------------------------------------------------------------------ shapes


def norm_axis(axis: int, ndim: int) -> int:
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise IndexError(f"axis {axis} is out of bounds for an array of dimension {ndim}")
    return axis + ndim if axis < 0 else axis


@overload
def norm_axes(axis: None, ndim: int) -> None: ...
@overload
def norm_axes(axis: Any, ndim: int) -> list[int]: ...


def norm_axes(axis: Any, ndim: int) -> list[int] | None:
    if axis is None:
        return None
    if isinstance(axis, int):
        return [norm_axis(axis, ndim)]
    return [norm_axis(a, ndim) for a in axis]


def shape_tuple(shape: Any) -> list[int]:
    return [shape] if isinstance(shape, int) else list(shape)


def prod(xs: Sequence[int]) -> int:
    n = 1
    for v in xs:
        n *= v
    return n


def upcast_int(dt: Any) -> Any:
    """The int dtype paddle kernels handle that holds every value of ``dt`` exactly."""
    return int64 if dt is int64 else int32 if id(dt) in _NARROW or dt is int32 else dt


__all__ = [
    "Tensor",
    "paddle",
    "NAME",
    "native",
    "unsupported",
    "cast",
    "scalar",
    "promote2",
    "promote_many",
    "place",
    "to_device",
    "default_place",
    "devices",
    "norm_axis",
    "norm_axes",
    "shape_tuple",
    "prod",
    "upcast_int",
    "float32",
    "float64",
]


def lift(fn: Any, x: Any, *args: Any, complex_split: bool = False, **kw: Any) -> Any:
    """``fn(x, ...)`` for a data-movement kernel that lacks bool/int8/int16/uint8 (run in int32 and
    cast back: exact) and, with ``complex_split``, complex (run on the real and imaginary parts)."""
    dt = x.dtype
    if id(dt) in _NARROW:
        return _cast(fn(_cast(x, int32), *args, **kw), dt)
    if complex_split and id(dt) in COMPLEX:
        return paddle.complex(fn(paddle.real(x), *args, **kw), fn(paddle.imag(x), *args, **kw))
    return fn(x, *args, **kw)


def index_tensor(idx: Any, n: int) -> Any:
    """Integer indices as int64 with negative ones wrapped (paddle's gathers reject them)."""
    if idx.dtype is not int64:
        idx = _cast(idx, int64)
    return paddle.where(idx < 0, idx + n, idx)


def where3(c: Any, a: Any, b: Any) -> Any:
    """paddle.where for same-dtype tensors, including int8/int16/uint8 (no kernel: via int32)."""
    dt = a.dtype
    if dt is int8 or dt is int16 or dt is uint8:
        return _cast(paddle.where(c, _cast(a, int32), _cast(b, int32)), dt)
    return paddle.where(c, a, b)
