"""Ivy backend plugin for NumPy.

Importing this module does not import NumPy: Ivy imports it (through ``_backend.load``) on the
first use of the ``numpy`` backend.
"""

from __future__ import annotations

from collections.abc import Callable

from ivy.plugin import BackendSpec, Frontend, hookimpl

__all__ = ["ivy_register_backends", "ivy_register_frontends"]


@hookimpl
def ivy_register_backends(register: Callable[[BackendSpec], None]) -> None:
    register(
        BackendSpec(
            name="numpy",
            array_modules=("numpy",),
            load="ivy_numpy._backend:load",
            framework_distributions=("numpy",),
            description="NumPy: CPU only, no automatic differentiation",
        )
    )


@hookimpl
def ivy_register_frontends(register: Callable[[Frontend], None]) -> None:
    register(
        Frontend(
            name="numpy",
            modules=("numpy",),
            load="ivy_numpy.frontend:load",
            description="NumPy functions, traced through __array_ufunc__ / __array_function__",
        )
    )


from ._compile import ivy_compile  # noqa: E402
