"""Traced arrays: thin proxies over a concrete backend's arrays that record what is done to them.

Each trace makes its own subclass of :class:`TracedArray` (the array type of its recording
backend), so dispatch sends every ``ivy.<op>`` call with a traced argument to that trace. Python
operators are recorded as the spec ops they stand for (``x + y`` is ``add``, ``x[i]`` is
``get_item``, ``x @ w`` is ``matmul``). Reading a Python value out of a traced array
(``bool(x)``, ``int(x)``, ``x.item()``) returns the example's value and records a guard.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from ._errors import GraphTraceError

__all__ = ["TracedArray", "DynDim", "TracedFunction"]


class TracedArray:
    """An array while a function is traced: the concrete example value, and the graph value it
    stands for. It offers the attributes and operators of the Array API standard."""

    __slots__ = ("_n", "_v", "_sc", "_sh")
    _tracer: Any = None  # set on each trace's subclass

    # ------------------------------------------------------------------ attributes

    @property
    def dtype(self) -> Any:
        return self._n.dtype

    @property
    def device(self) -> Any:
        return self._n.device

    @property
    def shape(self) -> tuple[Any, ...]:
        shape = tuple(int(d) for d in self._n.shape)
        if self._sh is None:
            return shape
        other = tuple(int(d) for d in self._sh.shape)
        return tuple(d if d == e else DynDim(self, i, d, e) for i, (d, e) in enumerate(zip(shape, other)))

    @property
    def ndim(self) -> int:
        return len(self._n.shape)

    @property
    def size(self) -> int:
        shape = self.shape
        for d in shape:
            if isinstance(d, DynDim):
                d.__index__()  # raises: a dynamic size read as a Python int
        return math.prod(shape)

    @property
    def T(self) -> TracedArray:  # the standard's name
        return self._tracer.call("permute_dims", (self, tuple(range(self.ndim - 1, -1, -1))), {})

    @property
    def mT(self) -> TracedArray:  # the standard's name
        return self._tracer.call("linalg.matrix_transpose", (self,), {})

    def __array_namespace__(self, *, api_version: str | None = None) -> Any:
        return self._tracer.backend.namespace

    def to_device(self, device: Any, /, *, stream: Any = None) -> TracedArray:
        return self._tracer.call("to_device", (self, device), {})

    def __repr__(self) -> str:
        v = self._v
        return f"TracedArray({v.type_str}, {v.hint})"

    __hash__ = object.__hash__

    def __len__(self) -> int:
        if not self.ndim:
            raise TypeError("len() of a 0-d traced array")
        return self.shape[0].__index__()

    def __iter__(self) -> Iterator[TracedArray]:
        for i in range(len(self)):
            yield self[i]

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(  # (an AttributeError: hasattr() must keep working on traced arrays)
            f"a traced array has the Array API's attributes only; {name!r} is an attribute of one "
            f"framework's arrays: write it with ivy ops (ivy.{name}(x, ...) where it is an op)"
        )

    # ------------------------------------------------------------------ Python values: guards

    def __bool__(self) -> bool:
        return self._tracer.concretize(self, "bool")

    def __int__(self) -> int:
        return self._tracer.concretize(self, "int")

    def __index__(self) -> int:
        return self._tracer.concretize(self, "index")

    def __float__(self) -> float:
        return self._tracer.concretize(self, "float")

    def __complex__(self) -> complex:
        return self._tracer.concretize(self, "complex")

    def item(self) -> Any:
        return self._tracer.concretize(self, "scalar")

    def tolist(self) -> Any:
        return self._tracer.concretize(self, "list")

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        import numpy  # only reached when NumPy itself asks: it is imported then

        return numpy.asarray(self._tracer.concretize(self, "list"), dtype=dtype or self._tracer.numpy_dtype(self))

    def __dlpack__(self, *args: Any, **kwargs: Any) -> Any:
        raise GraphTraceError("a traced array cannot leave the graph through DLPack; use ivy ops on it")

    def __setitem__(self, key: Any, value: Any) -> None:
        # functional: the proxy now stands for the updated array
        new = self._tracer.call("set_item", (self, key, value), {})
        self._n, self._v, self._sc, self._sh = new._n, new._v, new._sc, new._sh

    def __getitem__(self, key: Any) -> TracedArray:
        return self._tracer.call("get_item", (self, key), {})


def _binary(op: str, reflected: bool = False) -> Any:
    if reflected:

        def method(self: TracedArray, other: Any) -> Any:
            return self._tracer.call(op, (other, self), {})
    else:

        def method(self: TracedArray, other: Any) -> Any:
            return self._tracer.call(op, (self, other), {})

    return method


def _unary(op: str) -> Any:
    def method(self: TracedArray) -> Any:
        return self._tracer.call(op, (self,), {})

    return method


_BINARY = {
    "add": "add",
    "sub": "subtract",
    "mul": "multiply",
    "truediv": "divide",
    "floordiv": "floor_divide",
    "mod": "remainder",
    "pow": "pow",
    "matmul": "matmul",
    "and": "bitwise_and",
    "or": "bitwise_or",
    "xor": "bitwise_xor",
    "lshift": "bitwise_left_shift",
    "rshift": "bitwise_right_shift",
}
for _name, _op in _BINARY.items():
    setattr(TracedArray, f"__{_name}__", _binary(_op))
    setattr(TracedArray, f"__r{_name}__", _binary(_op, reflected=True))
for _name, _op in {
    "eq": "equal",
    "ne": "not_equal",
    "lt": "less",
    "le": "less_equal",
    "gt": "greater",
    "ge": "greater_equal",
}.items():
    setattr(TracedArray, f"__{_name}__", _binary(_op))
for _name, _op in {"neg": "negative", "pos": "positive", "abs": "abs", "invert": "bitwise_invert"}.items():
    setattr(TracedArray, f"__{_name}__", _unary(_op))
del _name, _op


class DynDim:
    """A dynamic dimension read from a traced array's ``shape``. Passed to an op, it is recorded
    symbolically (the size at call time); used as a Python int, it raises: the graph would bake
    in the example's size."""

    __slots__ = ("array", "axis", "size", "other")

    def __init__(self, array: TracedArray, axis: int, size: int, other: int):
        self.array = array
        self.axis = axis
        self.size = size
        self.other = other

    def _refuse(self, *args: Any) -> Any:
        raise GraphTraceError(
            f"dimension {self.axis} of {self.array._v.hint} is dynamic, but the traced code reads "
            f"it as a Python int ({self.array._tracer.where()}); the graph would keep the example's "
            f"size {self.size}. Pass x.shape[{self.axis}] to ivy ops as it is (reshape, zeros, "
            "broadcast_to... take it), compute with arrays instead, or trace this dimension as static."
        )

    __index__ = __int__ = __float__ = __bool__ = _refuse
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _refuse
    __floordiv__ = __rfloordiv__ = __truediv__ = __rtruediv__ = __mod__ = __rmod__ = _refuse
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __neg__ = _refuse
    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"{self.array._v.hint}.shape[{self.axis}]"


class TracedFunction:
    """A function a traced op returned (``vjp``'s pullback): calling it is recorded too."""

    __slots__ = ("_tracer", "_native", "_v", "_sc", "_shadow")

    def __init__(self, tracer: Any, native: Any, value: Any, scope: Any, shadow: Any = None):
        self._tracer = tracer
        self._native = native
        self._v = value
        self._sc = scope
        #: with dynamic dimensions: arrays shaped like its results at the other size
        self._shadow = shadow

    def __call__(self, *args: Any) -> Any:
        return self._tracer.call_function(self, args)

    def __repr__(self) -> str:
        return f"TracedFunction({self._v.hint})"
