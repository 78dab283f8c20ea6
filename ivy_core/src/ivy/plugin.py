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
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import pluggy

from ._spec._base import EXTENSIONS

__all__ = [
    "PLUGIN_API",
    "ARRAY_API_VERSION",
    "BackendSpec",
    "BackendImpl",
    "IvyHookSpecs",
    "hookimpl",
    "hookspec",
    "collect_ops",
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
    #: The framework's root module (shown in messages and reprs).
    framework: Any = None


class IvyHookSpecs:
    """The hooks a plugin may implement (pluggy hook specifications)."""

    @hookspec
    def ivy_register_backends(self, register: Callable[[BackendSpec], None]) -> None:
        """Hand core the backends this plugin provides by calling ``register(BackendSpec(...))``.

        Must not import the framework.
        """

    @hookspec
    def ivy_register_devices(self, register: Callable[[str, Callable[[], list[str]]], None]) -> None:
        """Add a device kind: ``register(kind, list_devices)``; ``list_devices()`` returns device
        strings such as ``"npu:0"``."""

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
