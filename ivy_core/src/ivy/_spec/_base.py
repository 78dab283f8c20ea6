"""The spec format: one undecorated-looking Python function per op.

A spec function is never called. Its signature (parameter names, kinds, defaults) and its
docstring are the single source of truth for the op: the public ``ivy.<op>`` wrapper is generated
from it, every backend's implementation is validated against it, and the docs and tests read it.

Annotations are kept as strings (``from __future__ import annotations`` in every spec module) and
are read for one thing only: a parameter whose annotation mentions ``Array`` takes part in backend
inference; ``Sequence[Array]`` / ``*arrays: Array`` mark a sequence of arrays.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Sequence
from typing import Any, Literal, Protocol, Union

__all__ = [
    "Array",
    "DType",
    "Device",
    "NestedSequence",
    "Spec",
    "SPECS",
    "spec",
]


class Array(Protocol):
    """Any native array of a backend (``torch.Tensor``, ``np.ndarray``, ``jax.Array``, ...)."""

    shape: tuple[int, ...]


DType = Any  # a native dtype, an ``ivy.DType`` or a dtype name such as ``"float32"``
Device = Any  # a native device object or a device string such as ``"cpu"``
NestedSequence = Sequence[Any]

#: Namespaces of the Array API extensions; every other category lands in the main namespace.
EXTENSIONS = ("linalg", "fft")

Role = Literal["array", "arrays", "varargs"]


class Spec:
    """One op of the contract. Its signature and inference roles are read from the spec function
    on first use (reading all of them at ``import ivy`` would cost tens of milliseconds)."""

    __slots__ = ("name", "category", "fn", "_infer", "convert", "_signature", "_roles")

    def __init__(self, name: str, category: str, fn: Callable[..., Any], infer: bool = True, convert: bool = False):
        self.name = name  #: qualified name: ``"add"``, ``"linalg.inv"``, ``"fft.fft"``
        self.category = category  #: spec module it lives in: ``"elementwise"``, ``"linalg"``, ...
        self.fn = fn
        self._infer = infer
        #: a conversion op (``asarray``): a selected backend (with-block or ``set_backend``)
        #: decides before the framework of the array argument does
        self.convert = convert
        self._signature: inspect.Signature | None = None
        self._roles: tuple[tuple[str, Role], ...] | None = None

    @property
    def signature(self) -> inspect.Signature:
        if self._signature is None:
            self._signature = _bare(inspect.signature(self.fn))
        return self._signature

    @property
    def roles(self) -> tuple[tuple[str, Role], ...]:
        """(parameter, role) for inference, in order."""
        if self._roles is None:
            self._roles = tuple((p.name, r) for p in self.signature.parameters.values() if (r := _role(p)) is not None)
        return self._roles

    @property
    def infer(self) -> bool:
        """False: the backend comes from context only (no array argument, or ``from_dlpack``)."""
        return self._infer and bool(self.roles)

    @property
    def short_name(self) -> str:
        return self.name.rpartition(".")[2]

    @property
    def doc(self) -> str:
        return self.fn.__doc__ or ""

    def __repr__(self) -> str:
        return f"Spec(name={self.name!r}, category={self.category!r})"


SPECS: dict[str, Spec] = {}


class _Annotation(str):
    """A string annotation that prints bare (``x: Array``), not quoted, in signatures."""

    def __repr__(self) -> str:
        return str(self)


def _bare(sig: inspect.Signature) -> inspect.Signature:
    def fix(a: Any) -> Any:
        return _Annotation(a) if isinstance(a, str) else a

    params = [p.replace(annotation=fix(p.annotation)) for p in sig.parameters.values()]
    return sig.replace(parameters=params, return_annotation=fix(sig.return_annotation))


def _role(param: inspect.Parameter) -> Role | None:
    ann = param.annotation
    if not isinstance(ann, str) or "Array" not in ann:
        return None
    if param.kind is inspect.Parameter.VAR_POSITIONAL:
        return "varargs"
    head = ann.split("[", 1)[0].strip()
    if head in ("Sequence", "list", "tuple"):
        return "arrays"
    return "array"


def spec(fn: Callable[..., Any] | None = None, *, infer: bool = True, convert: bool = False) -> Any:
    """Register ``fn`` as the spec of the op named after it (prefixed for extensions).

    ``infer=False``: the backend comes from context only. ``convert=True``: a conversion op,
    whose backend is the selected one (``set_backend`` / ``use_backend``) when there is one,
    and otherwise the framework of its array argument.
    """

    def register(f: Callable[..., Any]) -> Callable[..., Any]:
        # A category split over two files says so with a module-level CATEGORY (nn_blocks -> nn).
        module = sys.modules.get(f.__module__)
        category = getattr(module, "CATEGORY", None) or f.__module__.rpartition(".")[2]
        name = f"{category}.{f.__name__}" if category in EXTENSIONS else f.__name__
        if name in SPECS:
            raise RuntimeError(f"duplicate spec for {name!r}")
        SPECS[name] = Spec(name, category, f, infer, convert)
        return f

    return register(fn) if fn is not None else register


# Re-exported so spec modules read naturally.
Optional = Union
