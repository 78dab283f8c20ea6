"""Private helpers shared by the op modules: operand promotion, devices, axes."""

from __future__ import annotations

import contextlib
import math
from typing import Any

import numpy as np
import tensorflow as tf
from tensorflow.python.ops import gen_array_ops as ga
from tensorflow.python.ops import gen_math_ops as gm

from ivy.plugin_kit import device_kinds

from . import _dtypes as D

SCALARS = (bool, int, float, complex)
cast = gm.cast
identity = ga.identity


def tensor(x: Any) -> Any:
    """A tf.Tensor / tf.Variable as is; anything else converted (NumPy arrays, lists)."""
    if isinstance(x, (tf.Tensor, tf.Variable)):
        return x
    if isinstance(x, SCALARS):
        return scalar(x, _py_dtype(x))
    return tf.convert_to_tensor(np.asarray(x))  # NumPy arrays, lists, other frameworks' CPU arrays


def _py_dtype(s: Any) -> tf.DType:
    if isinstance(s, bool):
        return D.BOOL
    if isinstance(s, int):
        return D.DEFAULT_INT
    if isinstance(s, float):
        return D.DEFAULT_FLOAT
    return D.DEFAULT_COMPLEX


_SCALARS_CACHE: dict[tuple[Any, ...], Any] = {}
_eager = tf.executing_eagerly
_RANGES = {d: (d.min, d.max) for d in D.INTS}


def scalar(s: Any, d: tf.DType) -> Any:
    """Python scalar ``s`` as a 0-d tensor of dtype ``d`` (out-of-range ints raise OverflowError).

    Cached (eager constants): building a constant costs more than most ops. While a function is
    traced, a constant of the graph instead: a captured eager tensor is an input of the graph,
    which keeps grappler from folding it into fused kernels.
    """
    t = type(s)
    cplx = isinstance(s, complex)
    key = (d, t, s, math.copysign(1.0, s) if isinstance(s, float) else 0)  # keeps -0.0 apart from 0.0
    c = _SCALARS_CACHE.get(key) if not cplx else None
    eager = _eager()
    if c is not None and eager:
        return c
    r = _RANGES.get(d)
    if r is not None and t is int and not (r[0] <= s <= r[1]):
        raise OverflowError(f"Python int {s} does not fit {d.name}")
    if not eager:
        return tf.constant(np.asarray(s).astype(d.as_numpy_dtype))
    with tf.init_scope():  # eager even while tracing, so that the cache never holds graph tensors
        # via NumPy: TF's own cache of Python scalars mixes up 0.0 and -0.0
        c = tf.constant(np.asarray(s).astype(d.as_numpy_dtype))
    if not cplx and len(_SCALARS_CACHE) < 2048:
        _SCALARS_CACHE[key] = c
    return c


def pair(x1: Any, x2: Any) -> tuple[Any, Any]:
    """Both operands as tensors of their promoted dtype (Python scalars are weak)."""
    s1 = isinstance(x1, SCALARS)
    s2 = isinstance(x2, SCALARS)
    if not s1 and not s2:
        x1 = tensor(x1)
        x2 = tensor(x2)
        d1, d2 = x1.dtype, x2.dtype
        if d1 == d2:
            return x1, x2
        d = D.promote(d1, d2)
        return (x1 if d1 == d else upcast(x1, d)), (x2 if d2 == d else upcast(x2, d))
    if s2 and not s1:
        x1 = tensor(x1)
        d1 = x1.dtype
        d = D.scalar_dtype(d1, x2)
        return (x1 if d == d1 else cast(x1, d)), scalar(x2, d)
    if s1 and not s2:
        x2 = tensor(x2)
        d2 = x2.dtype
        d = D.scalar_dtype(d2, x1)
        return scalar(x1, d), (x2 if d == d2 else cast(x2, d))
    raise TypeError("at least one operand must be an array")


def arrays(xs: Any) -> list[Any]:
    """A sequence of tensors promoted to one dtype."""
    xs = [tensor(x) for x in xs]
    if not xs:
        return xs
    d = xs[0].dtype
    for x in xs[1:]:
        if x.dtype != d:
            d = D.promote(d, x.dtype)
    return [x if x.dtype == d else cast(x, d) for x in xs]


# --------------------------------------------------------------------------- devices


def device_name(device: Any) -> str:
    """``"cpu"``, ``"gpu:N"``, ``"cuda:N"``, TF device strings and LogicalDevices -> a TF device string."""
    name = getattr(device, "name", device)  # tf.config.LogicalDevice
    if not isinstance(name, str):
        name = str(device)
    s = name.strip()
    if s.startswith("/"):
        return s
    low = s.lower()
    kind, _, idx = low.partition(":")
    if kind == "cuda":
        kind = "gpu"
    if kind in ("cpu", "gpu") and (idx == "" or idx.isdigit()):
        return f"/device:{kind.upper()}:{idx or 0}"
    dk = device_kinds("tensorflow").get(kind)  # a registered third-party kind: its TF device string
    if dk is not None:
        return dk.to_native(s)
    raise ValueError(
        f"unknown device {device!r} for the 'tensorflow' backend; use 'cpu', 'gpu:N' or a TF device string"
    )


def on(device: Any) -> Any:
    """A context placing new tensors on ``device`` (None, or the empty device of a graph tensor
    not placed yet inside ``tf.function``: TF's default placement)."""
    if device is None or device == "":
        return contextlib.nullcontext()
    return tf.device(device_name(device))


def to_device(x: Any, device: Any) -> Any:
    if device is None:
        return x
    with tf.device(device_name(device)):
        return ga.identity(x)


def devices() -> list[str]:
    return [d.name for d in tf.config.list_logical_devices()]


def default_device() -> str:
    gpus = tf.config.list_logical_devices("GPU")
    return gpus[0].name if gpus else "/device:CPU:0"


# --------------------------------------------------------------------------- axes


def ndim(x: Any) -> int:
    return x.shape.rank


def norm_axis(axis: int, n: int) -> int:
    if not -n <= axis < n:
        raise IndexError(f"axis {axis} is out of bounds for an array of {n} dimensions")
    return axis + n if axis < 0 else axis


def norm_axes(axis: Any, n: int) -> list[int]:
    """``None`` -> all axes; an int or a sequence -> sorted non-negative list (no duplicates)."""
    if axis is None:
        return list(range(n))
    if isinstance(axis, int):
        return [norm_axis(axis, n)]
    out = [norm_axis(a, n) for a in axis]
    if len(set(out)) != len(out):
        raise ValueError(f"repeated axis in {axis!r}")
    return sorted(out)


def shape_tuple(shape: Any) -> tuple[int, ...]:
    if isinstance(shape, int):
        return (shape,)
    return tuple(int(s) for s in shape)


# --------------------------------------------------------------------------- cached int tensors

#: Python lists passed to TF's generated ops take the slow conversion path (~70us): axes, shapes
#: and permutations are passed as cached eager constants instead (ints are fast as they are).
_CONSTS: dict[tuple[Any, ...], Any] = {}


def ints(values: tuple[int, ...], dtype: Any = tf.int32) -> Any:
    if not _eager():  # tracing: a graph constant (see scalar)
        return tf.constant(values, dtype)
    key = (dtype, *values)
    c = _CONSTS.get(key)
    if c is None:
        with tf.init_scope():  # always eager, so a cached constant never belongs to a traced graph
            c = tf.constant(values, dtype)
        if len(_CONSTS) < 4096:
            _CONSTS[key] = c
    return c


def red_axes(x: Any, axis: Any) -> Any:
    """``axis`` of a reduction in the form TF's generated ops take fastest."""
    if axis is None:
        return ints(tuple(range(x.shape.rank)))
    if isinstance(axis, int):
        return axis
    n = x.shape.rank
    return ints(tuple(norm_axes(axis, n)))


_MAGNITUDE = {tf.int32: tf.constant(0x7FFFFFFF, tf.int32), tf.int64: tf.constant(0x7FFFFFFFFFFFFFFF, tf.int64)}


def truth(x: Any) -> Any:
    """``x != 0`` as bool. Floats are tested on their bits: TF's CPU kernels flush subnormals to
    zero, which would make tiny non-zero values false."""
    d = x.dtype
    if d is D.BOOL:
        return x
    if d in D.REALF or d in D.COMPLEX:
        i = D.I32 if d in (D.F32, D.C64) else D.I64
        bits = ga.bitcast(x, i)  # complex: a trailing axis of (real, imag)
        nz = gm.not_equal(_and(bits, i), tf.zeros((), i))
        return gm._any(nz, -1, keep_dims=False) if d in D.COMPLEX else nz
    return gm.not_equal(x, tf.zeros((), d))


def _and(bits: Any, i: Any) -> Any:
    from tensorflow.python.ops import gen_bitwise_ops as gb

    return gb.bitwise_and(bits, _MAGNITUDE[i])


def f32_to_f64(x: Any) -> Any:
    """float32 -> float64 keeping subnormals: TF's Cast flushes them to zero. Rebuilt from the
    bits: a subnormal is mantissa * 2**-149, exact in float64."""
    from tensorflow.python.ops import gen_bitwise_ops as gb

    b = ga.bitcast(x, D.I32)
    mant = gb.bitwise_and(b, tf.constant(0x7FFFFF, D.I32))
    sub = gm.equal(gb.bitwise_and(b, tf.constant(0x7F800000, D.I32)), tf.zeros((), D.I32))
    tiny = gm.mul(cast(mant, D.F64), tf.constant(2.0**-149, D.F64))
    tiny = gm.select_v2(gm.less(b, tf.zeros((), D.I32)), gm.neg(tiny), tiny)
    return gm.select_v2(sub, tiny, cast(x, D.F64))


def upcast(x: Any, d: Any) -> Any:
    """``cast`` for promotion; float32 -> float64 keeps subnormals."""
    if d is D.F64 and x.dtype is D.F32:
        return f32_to_f64(x)
    if d is D.C128 and x.dtype is D.F32:
        return cast(f32_to_f64(x), d)
    return cast(x, d)
