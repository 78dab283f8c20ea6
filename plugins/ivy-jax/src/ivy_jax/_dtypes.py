"""JAX dtypes by standard name, the dtype normaliser, the device normaliser and x64 handling.

JAX dtypes are NumPy dtypes. Without ``jax_enable_x64`` JAX silently truncates 64-bit dtypes to
32 bits; Ivy refuses them explicitly instead (:func:`native` raises UnsupportedDTypeError).
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ivy import DType
from ivy.errors import UnsupportedDTypeError
from ivy.plugin_kit import by_dtype_constant, device_kinds

ALL_NAMES = (
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float32",
    "float64",
    "complex64",
    "complex128",
)
WIDE = frozenset({"int64", "uint64", "float64", "complex128"})
_EXTRA = ("float16", "bfloat16")  # not in the standard, but JAX has them: let them through

# (jax.enable_x64.value is what jax.config.jax_enable_x64 reads, with a type: jax.config's options
# are attributes made at run time)
X64: bool = bool(jax.enable_x64.value)  # the user's setting when the backend loaded

#: Standard name -> native dtype, for the dtypes available under the config at load time.
DTYPES: dict[str, np.dtype] = {n: np.dtype(n) for n in ALL_NAMES if X64 or n not in WIDE}

DEFAULT_FLOAT: np.dtype
DEFAULT_COMPLEX: np.dtype
DEFAULT_INT: np.dtype
DEFAULT_UINT: np.dtype
if X64:
    DEFAULT_FLOAT, DEFAULT_COMPLEX, DEFAULT_INT = np.dtype("float64"), np.dtype("complex128"), np.dtype("int64")
    DEFAULT_UINT = np.dtype("uint64")
else:
    DEFAULT_FLOAT, DEFAULT_COMPLEX, DEFAULT_INT = np.dtype("float32"), np.dtype("complex64"), np.dtype("int32")
    DEFAULT_UINT = np.dtype("uint32")
BOOL = np.dtype("bool")

# Fast lookup: every spelling we expect (name, np.dtype, NumPy and jnp scalar types) -> np.dtype.
_CACHE: dict[Any, np.dtype] = {}
for _n, _d in list(DTYPES.items()) + [(e, jnp.dtype(e)) for e in _EXTRA]:
    _CACHE[_n] = _d
    _CACHE[_d] = _d
    _CACHE[_d.type] = _d
    if hasattr(jnp, _n if _n != "bool" else "bool_"):
        _CACHE[getattr(jnp, _n if _n != "bool" else "bool_")] = _d
_CACHE[bool] = BOOL
_CACHE[int] = DEFAULT_INT
_CACHE[float] = DEFAULT_FLOAT
_CACHE[complex] = DEFAULT_COMPLEX


def x64_error(name: str, op: str) -> UnsupportedDTypeError:
    return UnsupportedDTypeError(
        f"the 'jax' backend cannot use {name} in {op}: JAX's 64-bit mode is off, so JAX would "
        "silently truncate it to 32 bits. Set JAX_ENABLE_X64=1 before starting Python, or call "
        "jax.config.update('jax_enable_x64', True) before using Ivy's jax backend."
    )


#: ``ivy.float32`` -> the native dtype...: found by identity (in _CACHE, an ``ivy.DType`` key
#: compares through its Python ``__eq__``)
_BY_CONSTANT = by_dtype_constant(DTYPES)


def native(dtype: Any, op: str = "this op") -> np.dtype:
    """A native dtype from a native dtype, an ``ivy.DType``, a name or another framework's dtype.

    Call it only when ``dtype`` is not None (hot path). Raises UnsupportedDTypeError for a 64-bit
    dtype while JAX's 64-bit mode is off.
    """
    if type(dtype) is DType:
        got = _BY_CONSTANT.get(dtype)
        if got is not None:
            return got
    try:
        return _CACHE[dtype]
    except (KeyError, TypeError):
        pass
    from ivy import dtype_name

    try:
        name = dtype_name(dtype)
    except TypeError:
        raise TypeError(f"{dtype!r} is not a dtype (in {op} of the 'jax' backend)") from None
    if name in WIDE and not jax.enable_x64.value:
        raise x64_error(name, op)
    return np.dtype(name) if name != "bfloat16" else jnp.dtype("bfloat16")


def check(dt: np.dtype, op: str) -> np.dtype:
    """Refuse a 64-bit dtype coming from a non-JAX input (e.g. a NumPy array) while x64 is off."""
    if dt.name in WIDE and not jax.enable_x64.value:
        raise x64_error(dt.name, op)
    return dt


def default_float() -> np.dtype:
    return DEFAULT_FLOAT


def real_of(dt: np.dtype) -> np.dtype:
    """float32 for complex64, float64 for complex128, ``dt`` otherwise."""
    if dt.kind == "c":
        return np.dtype("float32") if dt.itemsize == 8 else np.dtype("float64")
    return dt


# --------------------------------------------------------------------------- devices

_DEV_CACHE: dict[str, Any] = {}


def device(dev: Any) -> Any:
    """A JAX device (or sharding) from None, a JAX device/sharding or a string ("cpu", "gpu:1")."""
    if dev is None or not isinstance(dev, str):
        return dev  # jax.Device, Sharding: JAX understands them
    got = _DEV_CACHE.get(dev)
    if got is not None:
        return got
    kind, _, idx = dev.strip().lower().partition(":")
    kind = {"cuda": "gpu", "rocm": "gpu"}.get(kind, kind)
    try:
        i = int(idx) if idx else 0
    except ValueError:
        raise ValueError(f"invalid device string {dev!r}; use e.g. 'cpu', 'gpu:0' or 'tpu:0'") from None
    try:
        devs = jax.devices(kind)
    except RuntimeError as e:
        dk = device_kinds("jax").get(kind)  # not a JAX platform: maybe a registered kind (not cached)
        if dk is not None:
            return dk.to_native(dev)
        raise ValueError(f"the 'jax' backend has no {kind} device ({dev!r}): {e}") from None
    if not 0 <= i < len(devs):
        raise ValueError(f"the 'jax' backend has {len(devs)} {kind} device(s); {dev!r} does not exist")
    _DEV_CACHE[dev] = devs[i]
    return devs[i]


_FIRST_DEVICE: list[Any] = []


def new_array_device(dev: Any) -> Any:
    """``device(dev)`` for an array made from nothing (zeros, arange, ...), or None where that is
    the default device: JAX commits an array created with ``device=`` and takes a slower route
    to make it (``jnp.arange(100)`` 22 us, with the default device named 60 us), while one made
    without it is on the default device already."""
    d = device(dev)
    if d is None:
        return None
    default = jax.default_device.value  # (what jax.default_device(...) sets, too)
    if default is None:
        if not _FIRST_DEVICE:
            _FIRST_DEVICE.append(jax.devices()[0])
        default = _FIRST_DEVICE[0]
    elif isinstance(default, str):
        default = device(default)
    return None if d == default else d


def device_of(x: Any) -> Any:
    """The single device an array lives on (None for tracers inside jit)."""
    try:
        devs = x.devices()
    except Exception:  # tracers have no concrete device
        return None
    return next(iter(devs)) if len(devs) == 1 else x.sharding


def put(x: Any, dev: Any) -> Any:
    """``x`` on device ``dev`` (already normalised); a no-op where it is already there."""
    if dev is None:
        return x
    return jax.device_put(x, dev)


def copy_of(x: jax.Array) -> jax.Array:
    """A copy of ``x`` on its device: ``jnp.array(x, copy=True)`` compiles a copy program per new
    shape (~15 ms each), a device-to-device transfer does not."""
    return jax.device_put(x, may_alias=False)


def from_host(a: Any, dtype: Any, dev: Any, copy: bool | None) -> jax.Array:
    """A NumPy array or scalar ``a`` as a JAX array of ``dtype`` (None: ``a``'s, canonicalised,
    64 to 32 bits without x64). Cast on the host where NumPy's cast is the same as XLA's (a
    same-kind or safe cast): without a dtype equal to the array's own, ``jnp.asarray`` compiles
    an identity program for every new shape (~15 ms each), with one it only transfers."""
    if isinstance(a, np.generic):
        a = np.asarray(a)  # (JAX compiles a cast for a NumPy scalar, not for a 0-d array)
    if a.dtype.kind not in "biufc":  # strings, objects...: JAX's own error
        return jnp.asarray(a, dtype=dtype, device=dev, copy=copy)
    want = jax.dtypes.canonicalize_dtype(a.dtype if dtype is None else dtype)
    if (copy or a.dtype != want) and np.can_cast(a.dtype, want, "same_kind"):
        # a new host array, so that JAX only transfers it (with copy=True it compiles a copy too)
        a, copy = np.array(a, dtype=want), None
    return jnp.asarray(a, dtype=want, device=dev, copy=copy)
