"""Ivy backend plugin for JAX.

Importing this module does not import JAX: Ivy imports it (through ``_backend.load``) on the first
use of the ``jax`` backend.
"""

from __future__ import annotations

from collections.abc import Callable

from ivy.plugin import BackendSpec, hookimpl

__all__ = ["ivy_register_backends"]


@hookimpl
def ivy_register_backends(register: Callable[[BackendSpec], None]) -> None:
    register(
        BackendSpec(
            name="jax",
            array_modules=("jax", "jaxlib"),
            load="ivy_jax._backend:load",
            description="JAX: CPU/GPU/TPU, jit and grad; 64-bit dtypes need JAX_ENABLE_X64=1",
        )
    )


from ._compile import ivy_compile  # noqa: E402,F401
