"""Ivy backend plugin for NumPy.

Importing this module does not import NumPy: Ivy imports it (through ``_backend.load``) on the
first use of the ``numpy`` backend.
"""

from __future__ import annotations

from collections.abc import Callable

from ivy.plugin import BackendSpec, hookimpl

__all__ = ["ivy_register_backends"]


@hookimpl
def ivy_register_backends(register: Callable[[BackendSpec], None]) -> None:
    register(
        BackendSpec(
            name="numpy",
            array_modules=("numpy",),
            load="ivy_numpy._backend:load",
            description="NumPy: CPU only, no automatic differentiation",
        )
    )


from ._compile import ivy_compile  # noqa: E402,F401
