"""The plugin contract: what a backend distribution hands to Ivy core.

A backend plugin is a distribution (``ivy-torch``) with an entry point in the ``ivy.backends``
group whose value is a lightweight module (it must not import its framework at import time)::

    [project.entry-points."ivy.backends"]
    torch = "ivy_torch"

That module implements pluggy hooks of this contract, marked with :data:`hookimpl`. The only
required one is :meth:`IvyHookSpecs.ivy_register_backends`, which hands core a
:class:`BackendSpec`; the framework is imported only when ``BackendSpec.load`` runs, on the first
use of the backend. pluggy is used for registration, devices and compilation only; an op call never
goes through pluggy: core keeps the plugin's own functions and calls them directly.

The ops themselves are plain functions (or aliases of the framework's functions) in modules that
mirror core's spec categories (``creation``, ``elementwise``, ``manipulation``, ``linalg``...);
:func:`collect_ops` gathers them from the modules' ``__all__``.
"""

from __future__ import annotations

import importlib
import operator
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import pluggy

from ._spec._base import EXTENSIONS
from .errors import PluginValidationError

__all__ = [
    "PLUGIN_API",
    "ARRAY_API_VERSION",
    "BackendSpec",
    "BackendImpl",
    "IvyHookSpecs",
    "hookimpl",
    "hookspec",
    "collect_ops",
    "DeviceKind",
    "device_kinds",
    "refresh_device_kinds",
    "channels_last",
    "ntuple",
    "padding_pairs",
    "fastpath",
]

#: Version of this plugin contract. A plugin built for another version is refused with a message.
PLUGIN_API = 1
#: The Array API revision the op specs follow.
ARRAY_API_VERSION = "2024.12"

hookspec = pluggy.HookspecMarker("ivy")
hookimpl = pluggy.HookimplMarker("ivy")


@dataclass(frozen=True)
class BackendSpec:
    """What a plugin declares about one backend, without importing its framework."""

    #: Backend name used everywhere: ``ivy.set_backend(name)``, ``ivy.<name>``, ``backend=name``.
    name: str
    #: Top-level module names of the framework's array (and dtype) types, e.g. ``("jax", "jaxlib")``.
    #: Inference maps ``type(x).__module__`` to the backend through these, importing nothing.
    array_modules: tuple[str, ...]
    #: ``"package.module:function"`` (or a callable) returning a :class:`BackendImpl`. It runs on
    #: first use and is where the framework gets imported.
    load: str | Callable[[], "BackendImpl"]
    #: The plugin contract version the plugin was written for (:data:`PLUGIN_API`).
    plugin_api: int = PLUGIN_API
    #: Modules that, if already imported while this framework is not, make importing it unsafe
    #: (paddle segfaults when imported after tensorflow). Loading then raises a clear error.
    unsafe_after: tuple[str, ...] = ()
    #: Human description shown by ``ivy.backends(details=True)``.
    description: str = ""


@dataclass
class BackendImpl:
    """What a backend provides once loaded: its ops and the facts about its arrays."""

    #: Qualified op name (``"add"``, ``"linalg.inv"``, ``"fft.fft"``) -> implementation.
    ops: Mapping[str, Callable[..., Any]]
    #: Native array types (``isinstance`` check of ``ivy.is_native_array``).
    array_types: tuple[type, ...]
    #: Standard dtype name -> native dtype, for the dtypes the framework supports.
    dtypes: Mapping[str, Any]
    #: ``{"real floating": ..., "complex floating": ..., "integral": ..., "indexing": ...}``.
    default_dtypes: Mapping[str, Any]
    #: Lists the devices of the framework as native device objects.
    devices: Callable[[], list[Any]]
    #: The device new arrays go to when none is given.
    default_device: Callable[[], Any]
    #: ``{"boolean indexing": bool, "data-dependent shapes": bool, "max dimensions": int | None}``.
    capabilities: Mapping[str, Any] = field(
        default_factory=lambda: {
            "boolean indexing": True,
            "data-dependent shapes": True,
            "max dimensions": None,
        }
    )
    #: Further public names of the backend namespace that are not spec ops.
    extras: Mapping[str, Any] = field(default_factory=dict)
    #: Optional fused kernels that core's functional API uses where a backend has them (not ops:
    #: no spec, not in the namespace). Known names: ``"adam_update_flat"`` (see
    #: docs/plugin-contract.md).
    kernels: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    #: The framework's root module (shown in messages and reprs).
    framework: Any = None
    #: True while the framework's tracing compiler records a program (``torch.compiler.is_compiling``).
    #: Dispatch then leaves its caches alone: torch.compile would replay each write to Python
    #: state on every call of the compiled program.
    tracing: Callable[[], bool] | None = None
    #: Whether the framework's compiler keeps the Python side effects of the function it compiles
    #: (torch.compile's dynamo replays them on each call). Where it does not (``jax.jit``,
    #: ``tf.function``), ``ivy.compile`` checks while tracing that the function updates no module or
    #: optimizer whose state it does not thread.
    compiled_side_effects: bool = False
    #: ``(get, set)`` of the backend's global random state, where its random ops keep one in
    #: Python (JAX's key). ``ivy.compile`` threads it through compiled programs that draw random
    #: numbers, so that each call draws new ones; the plugin's random ops call
    #: ``ivy.plugin_kit.touch_random_state(name)`` before they read it.
    random_state: "tuple[Callable[[], Any], Callable[[Any], None]] | None" = None


@dataclass(frozen=True)
class DeviceKind:
    """A device kind a third party adds to a backend (through ``ivy_register_devices``).

    Device strings keep the one format of every backend: ``"<kind>:<index>"``.
    """

    #: the backend that gains the kind (``"torch"``)
    backend: str
    #: the kind (``"npu"``): devices are named ``"npu:0"``, ``"npu:1"``...
    kind: str
    #: lists the devices of this kind present now, as device strings
    list_devices: Callable[[], list[str]]
    #: ``"npu:0"`` -> the framework's device object
    to_native: Callable[[str], Any]
    #: the framework's device object -> ``"npu:0"``, or None if it is not of this kind
    from_native: Callable[[Any], "str | None"] = lambda native: None


class IvyHookSpecs:
    """The hooks a plugin may implement (pluggy hook specifications)."""

    @hookspec
    def ivy_register_backends(self, register: Callable[[BackendSpec], None]) -> None:
        """Hand core the backends this plugin provides by calling ``register(BackendSpec(...))``.

        Must not import the framework.
        """

    @hookspec
    def ivy_register_devices(self, register: Callable[["DeviceKind"], None]) -> None:
        """Add a device kind to a backend: ``register(DeviceKind(backend="torch", kind="npu", ...))``.

        The backend then lists those devices in ``devices()``, accepts ``"npu:0"`` wherever a
        device is accepted and reports it from ``dev(x)``. Must not import the framework.
        """

    @hookspec(firstresult=True)
    def ivy_compile(
        self, backend: str, fn: Callable[..., Any], options: Mapping[str, Any]
    ) -> Callable[..., Any] | None:
        """Return ``fn`` compiled by the framework ``backend`` (or None if not this plugin's)."""


def collect_ops(package: str, categories: tuple[str, ...] | None = None) -> dict[str, Callable[..., Any]]:
    """Gather op implementations from ``package.<category>`` modules that mirror core's specs.

    Each module lists its ops in ``__all__``; functions in the ``linalg`` and ``fft`` modules are
    registered as ``linalg.<name>`` and ``fft.<name>``. A missing module contributes nothing.
    """
    from ._spec import CATEGORIES

    ops: dict[str, Callable[..., Any]] = {}
    for category in categories or CATEGORIES:
        try:
            module = importlib.import_module(f"{package}.{category}")
        except ModuleNotFoundError as e:
            if e.name == f"{package}.{category}":
                continue
            raise
        prefix = f"{category}." if category in EXTENSIONS else ""
        for name in getattr(module, "__all__", ()):
            ops[prefix + name] = getattr(module, name)
    return ops


def fastpath(
    native: Callable[..., Any],
    full: Callable[..., Any] | None = None,
    *,
    nargs: int | tuple[int, int],
    dtypes: "frozenset[Any] | set[Any] | None" = None,
    same: tuple[int, int] | None = None,
    retry: type[BaseException] | tuple[type[BaseException], ...] | None = None,
    defaults: tuple[Any, ...] | None = None,
) -> Callable[..., Any]:
    """An op implementation that calls the framework's ``native`` function directly for the plain
    calls where it already has the standard's semantics, and ``full`` (the plugin's Python function,
    which must handle every call) for all others.

    A call is plain when it passes positional arguments only, ``nargs`` of them (a count or a
    ``(min, max)`` range), and the guards hold: ``dtypes``, the dtypes ``args[0].dtype`` may have;
    ``same``, two positions whose arrays must have equal dtypes. ``retry``: exceptions of ``native``
    (say, ``NotImplementedError`` for a dtype the framework lacks a kernel for) after which ``full``
    gets the call. ``defaults``: arguments ``native`` needs where the spec has defaults; ``native``
    gets the call's positional arguments followed by ``defaults[nargs - min:]`` (so
    ``fastpath(torch.cumsum, nargs=(1, 2), defaults=(0,))`` passes ``dim=0`` when the call omits
    ``axis``, and ``fastpath(torch.softmax, nargs=1, defaults=(-1,))`` always passes ``-1``).

    It saves the interpreted frame of a wrapper (0.1-0.3 µs per call on torch or paddle): the check
    runs in C (``ivy._cdispatch``). Without the C extension (or with ``IVY_PURE_PYTHON=1``) it
    returns ``full`` itself, which by contract behaves the same. Example::

        add = fastpath(torch.add, _add, nargs=2, same=(0, 1), retry=NotImplementedError)

        @fastpath(torch.sum, nargs=1, dtypes=SUMMABLE)
        def sum(x, /, *, axis=None, dtype=None, keepdims=False): ...
    """
    if full is None:
        return lambda f: fastpath(native, f, nargs=nargs, dtypes=dtypes, same=same, retry=retry, defaults=defaults)
    from ._dispatch import _cdispatch

    if _cdispatch is None:
        return full
    lo, hi = (nargs, nargs) if isinstance(nargs, int) else nargs
    if isinstance(retry, type):
        retry = (retry,)
    obj = _cdispatch.FastPath(
        native, full, lo, hi, None if dtypes is None else frozenset(dtypes), same, retry, defaults
    )
    for attr in ("__name__", "__qualname__", "__module__", "__doc__"):
        setattr(obj, attr, getattr(full, attr, None))
    obj.__wrapped__ = full  # inspect.signature reads full's signature
    obj.__ivy_python__ = full  # what tracing compilers and the signature check look at
    obj.__ivy_native__ = native
    return obj  # type: ignore[no-any-return]


# --------------------------------------------------------------------------- device kinds

_device_kinds: dict[str, dict[str, DeviceKind]] | None = None


def device_kinds(backend: str) -> dict[str, DeviceKind]:
    """The device kinds third-party plugins added to ``backend`` (kind -> :class:`DeviceKind`).

    Collected once through the ``ivy_register_devices`` hook of every installed plugin; a
    backend's device functions consult it for kinds they do not know themselves.
    """
    global _device_kinds
    if _device_kinds is None:
        from . import _registry

        found: dict[str, dict[str, DeviceKind]] = {}

        def register(dk: DeviceKind) -> None:
            if not isinstance(dk, DeviceKind):
                raise PluginValidationError(f"ivy_register_devices must register DeviceKind objects, got {dk!r}")
            found.setdefault(dk.backend, {})[dk.kind] = dk

        _registry.plugin_manager().hook.ivy_register_devices(register=register)
        _device_kinds = found
    return _device_kinds.get(backend, {})


def refresh_device_kinds() -> None:
    """Forget collected device kinds (after installing a plugin in a running process)."""
    global _device_kinds
    _device_kinds = None


# --------------------------------------------------------------------------- helpers for nn plugins
# Argument normalisation every backend's convolutions and pools need, written once here.

_LAYOUTS = {1: ("NWC", "NCW"), 2: ("NHWC", "NCHW"), 3: ("NDHWC", "NCDHW")}


def channels_last(data_format: str, n: int) -> bool:
    """Whether ``data_format`` is the channels-last layout of ``n`` spatial dimensions.

    Raises:
        ValueError: ``data_format`` is neither layout of ``n`` dimensions.
    """
    last, first = _LAYOUTS[n]
    if data_format == last:
        return True
    if data_format == first:
        return False
    raise ValueError(f"data_format must be {last!r} or {first!r} for {n}-D, got {data_format!r}")


def ntuple(v: Any, n: int, what: str) -> tuple[int, ...]:
    """An int or a sequence of ints (``strides``, ``dilations``, ``kernel``) as ``n`` ints.

    A one-element sequence is repeated. Integer-like objects (NumPy integers) are accepted.
    """
    try:
        return (operator.index(v),) * n
    except TypeError:
        pass
    t = tuple(operator.index(i) for i in v)
    if len(t) == 1 and n > 1:
        return t * n
    if len(t) != n:
        raise ValueError(f"{what} must be an int or a sequence of {n} ints, got {v!r}")
    return t


def padding_pairs(
    padding: Any, n: int, sizes: Sequence[int], windows: Sequence[int], strides: Sequence[int]
) -> list[tuple[int, int]]:
    """The spec's padding forms as one ``(lo, hi)`` pair per spatial axis.

    ``"VALID"``: none; ``"SAME"``: output size ``ceil(size / stride)``, the odd extra element on
    the high side; an int: that much on both sides of every axis; a sequence of ``(lo, hi)`` pairs
    (or ints), one per axis. ``windows`` are the effective (dilated) window sizes.

    Raises:
        ValueError: an unknown form, the wrong number of pairs, or a negative padding.
    """
    if isinstance(padding, str):
        p = padding.upper()
        if p == "VALID":
            return [(0, 0)] * n
        if p == "SAME":
            out = []
            for size, k, s in zip(sizes, windows, strides):
                total = max((-(-size // s) - 1) * s + k - size, 0)
                out.append((total // 2, total - total // 2))
            return out
        raise ValueError(f"padding must be 'SAME', 'VALID', an int or (lo, hi) pairs, got {padding!r}")
    try:
        p = operator.index(padding)
        pads = [(p, p)] * n
    except TypeError:
        pads = []
        for q in padding:
            try:
                i = operator.index(q)
                pads.append((i, i))
            except TypeError:
                lo, hi = q
                pads.append((operator.index(lo), operator.index(hi)))
    if len(pads) != n:
        raise ValueError(f"padding needs {n} (lo, hi) pairs, got {padding!r}")
    if any(lo < 0 or hi < 0 for lo, hi in pads):
        raise ValueError(f"padding must be non-negative, got {padding!r}")
    return pads
