"""The tracer array of the NumPy frontend: it stands for an array inside a NumPy function and
records what NumPy is asked to do with it, through NumPy's own dispatch protocols
(``__array_ufunc__`` for ufuncs and the Python operators, ``__array_function__`` for functions).

A function is run twice on tracers. The *probe* runs it with NumPy itself on the example's
values: it learns the dtype and shape NumPy gives each result, and collects every call the
tables cannot translate (with its source line) so that all of them are reported at once. The
*trace* runs it again with the translations (Ivy ops) under the graph tracer; each result is
cast to the dtype NumPy gave (so NumPy's type promotion holds in every target) and its shape
checked against NumPy's.
"""

from __future__ import annotations

import operator
import os
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

import ivy
from ivy.errors import TranspileError

from ._table import FUNCTIONS, UFUNCS, Unsupported

__all__ = ["Session", "Tracer", "function_name"]

_SKIP_DIRS = (os.path.dirname(np.__file__) + os.sep, os.path.dirname(__file__) + os.sep)


def function_name(func: Any) -> str:
    """The table name of a NumPy function: ``"sum"``, ``"linalg.norm"``."""
    module = getattr(func, "__module__", "") or ""
    sub = module.split(".")[1:] if module.startswith("numpy.") else []
    sub = [s for s in sub if not s.startswith("_")]
    return ".".join([*sub, func.__name__])


def _where() -> str:
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename.startswith(_SKIP_DIRS):
        frame = frame.f_back  # type: ignore[assignment]
    if frame is None:
        return "?"
    return f"{frame.f_code.co_filename}:{frame.f_lineno} in {frame.f_code.co_name}"


#: NumPy functions answered from shapes alone (their results are Python values)
_STATIC: dict[str, Callable[..., Any]] = {
    "shape": lambda a: tuple(a.shape),
    "ndim": lambda a: len(a.shape),
    "size": lambda a, axis=None: int(np.prod(a.shape)) if axis is None else a.shape[axis],
}


class Session:
    """One run of a function on tracers, in ``"probe"`` or ``"trace"`` mode (see the module
    docstring); a trace session takes the probe's record of result types."""

    def __init__(self, mode: str, record: list[list[Any]] | None = None):
        self.mode = mode
        self.record: list[list[Any]] = [] if record is None else record
        self.problems: dict[str, list[str]] = {}
        self.index = 0
        self.names: list[str] = []  # every call, in order (what a probe saw)

    # ------------------------------------------------------------------ conversions

    def wrap(self, tree: Any) -> Any:
        if isinstance(tree, (np.ndarray, np.generic)) and self.mode == "probe":
            return Tracer(np.asarray(tree), self)
        if isinstance(tree, tuple):
            return tuple(self.wrap(t) for t in tree)
        if isinstance(tree, list):
            return [self.wrap(t) for t in tree]
        if self.mode == "trace" and hasattr(tree, "shape") and hasattr(tree, "dtype"):
            return Tracer(tree, self)
        return tree

    def concrete(self, tree: Any) -> Any:
        """Tracers as the NumPy arrays they hold (probe)."""
        if isinstance(tree, Tracer):
            return tree._x
        if isinstance(tree, (tuple, list)):
            return type(tree)(self.concrete(t) for t in tree)
        if isinstance(tree, dict):
            return {k: self.concrete(v) for k, v in tree.items()}
        return tree

    def ivy_args(self, tree: Any) -> Any:
        """Tracers as their arrays; NumPy arrays made inside the function as graph constants."""
        if isinstance(tree, Tracer):
            return tree._x
        if isinstance(tree, (np.ndarray, np.generic)):
            return ivy.asarray(np.asarray(tree))
        if isinstance(tree, (tuple, list)):
            return type(tree)(self.ivy_args(t) for t in tree)
        if isinstance(tree, dict):
            return {k: self.ivy_args(v) for k, v in tree.items()}
        return tree

    # ------------------------------------------------------------------ calls

    def call(
        self,
        name: str,
        rule: Callable[..., Any] | None,
        real: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        elementwise: bool = False,
    ) -> Any:
        """One NumPy call on tracers: computed by NumPy (probe) or by its translation (trace)."""
        if self.mode == "probe":
            self.names.append(name)
            out = real(*self.concrete(args), **self.concrete(kwargs))
            why = self._why_not(name, rule, args, kwargs)
            if why is not None:
                self.problems.setdefault(name, []).append(f"{_where()}: {why}" if why else _where())
            leaves = out if isinstance(out, (tuple, list)) else [out]
            self.record.append(
                [
                    (np.asarray(v).dtype, np.shape(v)) if isinstance(v, (np.ndarray, np.generic)) else None
                    for v in leaves
                ]
            )
            return self.wrap(out)
        expected = self.record[self.index]
        self.index += 1
        assert rule is not None  # the probe has reported every call without one
        arrays = self.ivy_args(args)
        if elementwise and expected[0] is not None and expected[0][0].kind in "fc":
            # operands in NumPy's result dtype first: frameworks promote integers (int / int) and
            # mixed precisions differently, and the target computes what the graph says
            want = expected[0][0].name
            arrays = [
                ivy.astype(a, want) if hasattr(a, "dtype") and ivy.dtype_name(a.dtype) != want else a for a in arrays
            ]
        out = rule(*arrays, **self.ivy_args(kwargs))
        many = isinstance(out, (tuple, list))
        leaves = [self._exact(v, e, name) for v, e in zip(out if many else [out], expected)]
        return self.wrap(type(out)(leaves) if many else leaves[0])

    def _why_not(
        self, name: str, rule: Callable[..., Any] | None, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> str | None:
        if rule is None:
            return ""
        try:  # the translation on the example's values: a use it does not cover says so
            rule(*self.concrete(args), **self.concrete(kwargs))
        except Unsupported as e:
            return str(e)
        except Exception as e:  # reported with the other problems
            return f"the translation failed on the example: {type(e).__name__}: {e}"
        return None

    @staticmethod
    def _exact(value: Any, expected: Any, name: str) -> Any:
        if expected is None:
            return value
        dtype, shape = expected
        if not hasattr(value, "shape"):
            value = ivy.asarray(np.asarray(value, dtype))
        if tuple(value.shape) != tuple(shape):
            raise TranspileError(
                f"the NumPy frontend's translation of {name} gave shape {tuple(value.shape)}, NumPy gives "
                f"{tuple(shape)}: a frontend bug, please report it"
            )
        if ivy.dtype_name(value.dtype) != dtype.name:
            value = ivy.astype(value, dtype.name)
        return value


def _ufunc_rule(fn: Callable[..., Any]) -> Callable[..., Any]:
    def call(*xs: Any, **kwargs: Any) -> Any:
        for key in ("out", "where"):
            if key in kwargs and not (kwargs[key] is None or kwargs[key] is True or kwargs[key] == (None,)):
                raise Unsupported(f"{key}= is not translated")
        if kwargs.get("casting", "same_kind") != "same_kind" or kwargs.get("order", "K") != "K":
            raise Unsupported("casting= / order= are not translated")
        return fn(*xs)  # dtype= and signature: the result is cast to NumPy's dtype anyway

    return call


def _astype(
    x: Any, dtype: Any, order: str = "K", casting: str = "unsafe", subok: bool = True, copy: bool = True
) -> Any:
    return ivy.astype(x, ivy.dtype_name(np.dtype(dtype)))


class Tracer:
    """An array inside a traced NumPy function (see the module docstring)."""

    __slots__ = ("_x", "_s")
    __array_priority__ = 1000.0
    __hash__ = None  # type: ignore[assignment]  # (== is element-wise)

    def __init__(self, x: Any, session: Session):
        self._x, self._s = x, session

    # ------------------------------------------------------------------ NumPy's protocols

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        name = ufunc.__name__ if method == "__call__" else f"{ufunc.__name__}.{method}"
        fn = UFUNCS.get(ufunc.__name__) if method == "__call__" else None
        rule = None if fn is None else _ufunc_rule(fn)
        return self._s.call(name, rule, getattr(ufunc, method), inputs, kwargs, elementwise=ufunc.nout == 1)

    def __array_function__(self, func: Any, types: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        name = function_name(func)
        if name in _STATIC:
            return _STATIC[name](*args, **kwargs)
        return self._s.call(name, FUNCTIONS.get(name), func, args, kwargs)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        if self._s.mode == "probe":
            self._s.problems.setdefault("conversion to a NumPy array", []).append(
                f"{_where()}: np.asarray / np.array of a traced array leaves the trace (pass arrays through, "
                "or make them with NumPy functions)"
            )
            return np.asarray(self._x, dtype)
        raise TranspileError("a traced array cannot become a concrete NumPy array")

    # ------------------------------------------------------------------ attributes

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self._x.shape)

    @property
    def ndim(self) -> int:
        return len(self._x.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self._x.shape))

    @property
    def dtype(self) -> np.dtype:
        return np.dtype(ivy.dtype_name(self._x.dtype))

    @property
    def T(self) -> Any:  # NumPy's name
        return np.transpose(self)

    @property
    def real(self) -> Any:
        return self._s.call("ndarray.real", ivy.real, lambda x: x.real, (self,), {})

    @property
    def imag(self) -> Any:
        return self._s.call("ndarray.imag", ivy.imag, lambda x: x.imag, (self,), {})

    def __len__(self) -> int:
        return self.shape[0]

    def __iter__(self) -> Any:
        return (self[i] for i in range(len(self)))

    def __repr__(self) -> str:
        return f"Tracer({self.dtype}{list(self.shape)})"

    # ------------------------------------------------------------------ indexing

    def __getitem__(self, query: Any) -> Any:
        return self._s.call("ndarray.__getitem__", lambda x, q: ivy.get_item(x, q), operator.getitem, (self, query), {})

    def __setitem__(self, query: Any, value: Any) -> None:
        def real(x: Any, q: Any, v: Any) -> Any:
            x[q] = v
            return x

        new = self._s.call("ndarray.__setitem__", lambda x, q, v: ivy.set_item(x, q, v), real, (self, query, value), {})
        self._x = new._x

    # ------------------------------------------------------------------ Python values (guards when traced)

    def __bool__(self) -> bool:
        return bool(self._x)

    def __float__(self) -> float:
        return float(self._x)

    def __int__(self) -> int:
        return int(self._x)

    def item(self) -> Any:
        return (
            float(self._x) if self.dtype.kind == "f" else int(self._x) if self.dtype.kind in "iub" else complex(self._x)
        )

    # ------------------------------------------------------------------ methods, as NumPy's functions

    def astype(self, dtype: Any, *args: Any, **kwargs: Any) -> Any:
        return self._s.call(
            "ndarray.astype", _astype, lambda x, *a, **k: x.astype(*a, **k), (self, dtype, *args), kwargs
        )

    def reshape(self, *shape: Any, order: str = "C") -> Any:
        return np.reshape(self, shape[0] if len(shape) == 1 else shape, order=order)  # type: ignore[call-overload]

    def transpose(self, *axes: Any) -> Any:
        return np.transpose(self, (axes[0] if len(axes) == 1 else axes) or None)

    def flatten(self) -> Any:
        return np.reshape(self, -1)

    ravel = flatten

    def copy(self) -> Any:
        return self

    def sum(self, *a: Any, **k: Any) -> Any:
        return np.sum(self, *a, **k)

    def mean(self, *a: Any, **k: Any) -> Any:
        return np.mean(self, *a, **k)

    def max(self, *a: Any, **k: Any) -> Any:
        return np.max(self, *a, **k)

    def min(self, *a: Any, **k: Any) -> Any:
        return np.min(self, *a, **k)

    def prod(self, *a: Any, **k: Any) -> Any:
        return np.prod(self, *a, **k)

    def std(self, *a: Any, **k: Any) -> Any:
        return np.std(self, *a, **k)

    def var(self, *a: Any, **k: Any) -> Any:
        return np.var(self, *a, **k)

    def argmax(self, *a: Any, **k: Any) -> Any:
        return np.argmax(self, *a, **k)

    def argmin(self, *a: Any, **k: Any) -> Any:
        return np.argmin(self, *a, **k)

    def all(self, *a: Any, **k: Any) -> Any:
        return np.all(self, *a, **k)

    def any(self, *a: Any, **k: Any) -> Any:
        return np.any(self, *a, **k)

    def cumsum(self, *a: Any, **k: Any) -> Any:
        return np.cumsum(self, *a, **k)

    def clip(self, *a: Any, **k: Any) -> Any:
        return np.clip(self, *a, **k)

    def dot(self, other: Any) -> Any:
        return np.dot(self, other)

    def squeeze(self, *a: Any, **k: Any) -> Any:
        return np.squeeze(self, *a, **k)

    def swapaxes(self, a1: int, a2: int) -> Any:
        return np.swapaxes(self, a1, a2)

    def round(self, decimals: int = 0) -> Any:
        return np.round(self, decimals)

    def repeat(self, *a: Any, **k: Any) -> Any:
        return np.repeat(self, *a, **k)

    def take(self, *a: Any, **k: Any) -> Any:
        return np.take(self, *a, **k)


def _binary(ufunc: Any, reflected: bool = False) -> Callable[..., Any]:
    if reflected:
        return lambda self, other: ufunc(other, self)
    return lambda self, other: ufunc(self, other)


for _op, _uf in {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "truediv": np.true_divide,
    "floordiv": np.floor_divide,
    "mod": np.remainder,
    "pow": np.power,
    "matmul": np.matmul,
    "and": np.bitwise_and,
    "or": np.bitwise_or,
    "xor": np.bitwise_xor,
    "lshift": np.left_shift,
    "rshift": np.right_shift,
}.items():
    setattr(Tracer, f"__{_op}__", _binary(_uf))
    setattr(Tracer, f"__r{_op}__", _binary(_uf, reflected=True))
for _op, _uf in {
    "lt": np.less,
    "le": np.less_equal,
    "gt": np.greater,
    "ge": np.greater_equal,
    "eq": np.equal,
    "ne": np.not_equal,
}.items():
    setattr(Tracer, f"__{_op}__", _binary(_uf))


def _unary(ufunc: Any) -> Callable[..., Any]:
    return lambda self: ufunc(self)


for _op, _uf in {"neg": np.negative, "pos": np.positive, "abs": np.absolute, "invert": np.invert}.items():
    setattr(Tracer, f"__{_op}__", _unary(_uf))
