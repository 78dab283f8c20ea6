"""Ivy backend plugin "strict": array_api_strict as an Ivy backend.

This module is the plugin's entry point (group ``ivy.backends``, name ``strict``). It must stay
lightweight, importing no framework: it only hands core a ``BackendSpec``. The framework is
imported when Ivy first uses the backend, by ``_backend.load``.
"""

from __future__ import annotations

from collections.abc import Callable

from ivy.plugin import BackendSpec, hookimpl

__all__ = ["ivy_register_backends"]
__version__ = "0.1.0"


@hookimpl
def ivy_register_backends(register: Callable[[BackendSpec], None]) -> None:
    register(
        BackendSpec(
            name="strict",
            # the top-level module of the array type: Ivy maps arrays to this backend through it
            array_modules=("array_api_strict",),
            load="ivy_strict._backend:load",
            description="array_api_strict: the Array API reference implementation (CPU, no autodiff)",
            # the framework's distribution: `python -m ivy doctor` reads its version from its metadata
            framework_distributions=("array-api-strict",),
        )
    )
