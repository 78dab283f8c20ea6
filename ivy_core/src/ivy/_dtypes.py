"""Backend-independent dtype names: ``ivy.float32`` and friends, and the kinds of ``isdtype``."""

from __future__ import annotations

# Not `typing.TYPE_CHECKING`: `import ivy` loads this module, and importing typing costs more
# than everything else it loads (mypy reads any constant named TYPE_CHECKING the same way).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any, TypeVar

    T = TypeVar("T")

__all__ = [
    "DType",
    "DTYPE_NAMES",
    "HALF_NAMES",
    "KINDS",
    "CONSTANTS",
    "dtype_name",
    "dtype_equal",
    "by_constant",
    "declare",
]


#: Every dtype of the Array API standard, in promotion-friendly order.
DTYPE_NAMES = (
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

_SIGNED = ("int8", "int16", "int32", "int64")
_UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
_REAL = ("float32", "float64")
_COMPLEX = ("complex64", "complex128")

#: ``isdtype`` kind name -> the dtype names it covers.
KINDS: dict[str, tuple[str, ...]] = {
    "bool": ("bool",),
    "signed integer": _SIGNED,
    "unsigned integer": _UNSIGNED,
    "integral": _SIGNED + _UNSIGNED,
    "real floating": _REAL,
    "complex floating": _COMPLEX,
    "numeric": _SIGNED + _UNSIGNED + _REAL + _COMPLEX,
}

_ALIASES = {"bool_": "bool", "boolean": "bool", "float": "float64", "int": "int64", "complex": "complex128"}
#: dtypes outside the standard that Ivy names (where the framework's own name says exactly this)
HALF_NAMES = ("float16", "bfloat16")

#: id(native dtype) -> (that dtype, its standard name): each dtype a loaded backend declares in
#: ``BackendImpl.dtypes`` (and each object found equal to one of them), so that naming a native
#: dtype is one dict lookup. The dtype is kept in the value: its id cannot be reused while here.
_NATIVE: dict[int, tuple[Any, str]] = {}
# the names themselves (and the ``ivy.float32`` constants, below) are found the same way
for _n in DTYPE_NAMES + HALF_NAMES:
    _NATIVE[id(_n)] = (_n, _n)

#: set by the registry: ``(dtype) -> (the backend described, {name: native dtype}) | None``, the backend
#: whose declared ``array_modules`` hold the module of the dtype's type (loaded if need be)
_owner: Callable[[Any], tuple[str, Mapping[str, Any]] | None] | None = None


def declare(dtypes: Mapping[str, Any]) -> None:
    """Make the dtypes a backend declares (``BackendImpl.dtypes``: name -> native) known to
    :func:`dtype_name` (the registry calls this when the backend loads, after validating them)."""
    for name, native in dtypes.items():
        if name in DTYPE_NAMES or name in HALF_NAMES:
            _NATIVE[id(native)] = (native, name)


def dtype_name(dtype: Any) -> str:
    """The standard name (``"float32"``) of a native dtype, an ``ivy.DType`` or a dtype name.

    A native dtype is named by its backend's declaration (``BackendImpl.dtypes``, read in
    reverse: by identity, else by equality with a declared dtype): a framework may name its
    dtypes anything (tinygrad calls float32 ``float``). A dtype of a framework whose plugin is
    not installed is named by the framework's own naming (``torch.float32``, ``tf.float32``,
    ``np.dtype('float32')``, ``paddle.float32``), and so are Python's and NumPy's scalar types
    (``float``, ``np.float32``). This imports no framework.

    Raises:
        TypeError: ``dtype`` names no dtype of the standard, or it is a dtype of a backend that
            the backend does not declare (``float16`` is named where the framework itself names
            it so, although no backend declares it).
    """
    got = _NATIVE.get(id(dtype))
    if got is not None and got[0] is dtype:
        return got[1]
    return _name_slowly(dtype)


def _name_slowly(dtype: Any) -> str:
    if isinstance(dtype, str):
        name = _ALIASES.get(str(dtype), str(dtype))
        if name in DTYPE_NAMES or name in HALF_NAMES:
            return name
        raise TypeError(f"{dtype!r} is not a dtype of the Array API standard; use one of {', '.join(DTYPE_NAMES)}")
    owner = _owner(dtype) if _owner is not None else None
    if owner is not None:
        return _declared_name(dtype, *owner)
    return _own_name(dtype, aliases=True)


def _own_name(dtype: Any, *, aliases: bool) -> str:
    """The name the framework itself gives ``dtype`` (``.name``, else ``str()``), as a standard
    name; ``aliases``: Python's type names count too (``float`` is float64)."""
    if isinstance(dtype, type):  # Python and NumPy scalar types: bool, np.float32
        name = dtype.__name__
    else:
        # paddle's .name lies for bfloat16 storage (paddle.uint16.name == "UINT16"); its str() is right
        mod = getattr(type(dtype), "__module__", "") or ""
        got = None if mod.startswith("paddle") else getattr(dtype, "name", None)  # numpy, jax, tf
        # "torch.float32", "paddle.FLOAT32" (paddle's dtypes are named in upper case)
        name = (got if isinstance(got, str) else str(dtype)).rpartition(".")[2].lower()
    if aliases:
        name = _ALIASES.get(name, name)
    if name in DTYPE_NAMES or name in HALF_NAMES:
        return name
    raise TypeError(f"{dtype!r} is not a dtype of the Array API standard; use one of {', '.join(DTYPE_NAMES)}")


def _declared_name(dtype: Any, label: str, declared: Mapping[str, Any]) -> str:
    """``dtype``'s name in the declaration of the backend that owns it (``label`` describes it):
    found equal to a declared dtype, and remembered by identity from then on."""
    for name, native in declared.items():
        try:
            same = native is dtype or bool(native == dtype)
        except Exception:  # a dtype that cannot be compared is not this one
            same = False
        if same and (name in DTYPE_NAMES or name in HALF_NAMES):
            _NATIVE[id(dtype)] = (dtype, name)
            return name
    try:  # half precision: not declared (not in the standard), named only where the framework says exactly so
        half = _own_name(dtype, aliases=False)
    except TypeError:
        half = None
    if half in HALF_NAMES:
        return half
    raise TypeError(
        f"{dtype!r} is not a dtype of the Array API standard that {label} declares (its plugin's "
        f"BackendImpl.dtypes names {', '.join(declared) or 'no dtype'}): Ivy names a backend's dtypes only "
        "through that declaration, never by the framework's own name for them (a plugin declares each "
        "dtype of the standard the framework has, under its standard name)"
    )


def dtype_equal(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` are the same dtype, each given in any form (a native dtype of any
    backend, an ``ivy.DType``, a name): right on every backend, in either order. False when
    either is not a dtype of the standard."""
    try:
        return dtype_name(a) == dtype_name(b)
    except TypeError:
        return False


class DType(str):
    """A backend-independent dtype: ``ivy.float32``.

    It is the string ``"float32"``, so every backend accepts it wherever a dtype is accepted, and it
    compares equal to the native dtype of that name on every backend: ``ivy.float32 ==
    torch.float32``. Put ``ivy.<dtype>`` first, or use :func:`dtype_equal`: with the native dtype
    first the framework decides, and paddle's dtypes answer ``False`` to foreign objects
    (``x.dtype == ivy.float32`` is False on paddle). Its hash is the string's, so a dict keyed by
    ``ivy.float32`` does not find ``torch.float32``: key tables by :func:`dtype_name`.
    """

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            return str.__eq__(self, _ALIASES.get(other, other))
        try:
            return str.__eq__(self, dtype_name(other))
        except TypeError:
            return NotImplemented

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = str.__hash__

    def __repr__(self) -> str:
        return f"ivy.{str.__str__(self)}"


#: ``ivy.float32`` and the other dtype constants: the very objects ``import ivy`` exports.
CONSTANTS: dict[str, DType] = {n: DType(n) for n in DTYPE_NAMES}
for _c in CONSTANTS.values():
    _NATIVE[id(_c)] = (_c, str.__str__(_c))


def by_constant(table: Mapping[str, T]) -> dict[DType, T]:
    """``table`` (keyed by dtype name) keyed by the dtype constants instead. A lookup with
    ``ivy.float32`` finds its key by identity, where in a name-keyed dict it compares through
    ``DType.__eq__``, in Python (~0.4 us: a plugin's dtype conversion on every ``dtype=``)."""
    return {CONSTANTS[n]: v for n, v in table.items() if n in CONSTANTS}
