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
from dataclasses import dataclass, field
from typing import Any, Callable, Literal, Protocol, Sequence, Union

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


@dataclass(frozen=True)
class Spec:
    """One op of the contract."""

    name: str  #: qualified name: ``"add"``, ``"linalg.inv"``, ``"fft.fft"``
    category: str  #: spec module it lives in: ``"elementwise"``, ``"linalg"``, ...
    fn: Callable[..., Any] = field(repr=False)
    signature: inspect.Signature = field(repr=False)
    roles: tuple[tuple[str, Role], ...]  #: (parameter, role) for inference, in order
    infer: bool  #: False: the backend comes from context only (e.g. ``from_dlpack``)

    @property
    def short_name(self) -> str:
        return self.name.rpartition(".")[2]

    @property
    def doc(self) -> str:
        return self.fn.__doc__ or ""


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


def spec(fn: Callable[..., Any] | None = None, *, infer: bool = True) -> Any:
    """Register ``fn`` as the spec of the op named after it (prefixed for extensions)."""

    def register(f: Callable[..., Any]) -> Callable[..., Any]:
        category = f.__module__.rpartition(".")[2]
        name = f"{category}.{f.__name__}" if category in EXTENSIONS else f.__name__
        if name in SPECS:
            raise RuntimeError(f"duplicate spec for {name!r}")
        sig = _bare(inspect.signature(f))
        roles = tuple(
            (p.name, r) for p in sig.parameters.values() if (r := _role(p)) is not None
        )
        SPECS[name] = Spec(name, category, f, sig, roles, infer and bool(roles))
        return f

    return register(fn) if fn is not None else register


# Re-exported so spec modules read naturally.
Optional = Union
