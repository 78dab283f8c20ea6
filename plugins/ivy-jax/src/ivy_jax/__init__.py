"""Ivy backend plugin for JAX.

Importing this module does not import JAX: Ivy imports it (through ``_backend.load``) on the first
use of the ``jax`` backend.
"""

from __future__ import annotations

from collections.abc import Callable

from ivy.plugin import BackendSpec, Frontend, hookimpl

__all__ = ["ivy_register_backends", "ivy_register_frontends"]


@hookimpl
def ivy_register_backends(register: Callable[[BackendSpec], None]) -> None:
    register(
        BackendSpec(
            name="jax",
            array_modules=("jax", "jaxlib"),
            load="ivy_jax._backend:load",
            framework_distributions=("jax",),
            description="JAX: CPU/GPU/TPU, jit and grad; 64-bit dtypes need JAX_ENABLE_X64=1",
        )
    )


@hookimpl
def ivy_register_frontends(register: Callable[[Frontend], None]) -> None:
    register(
        Frontend(
            name="jax",
            modules=("jax", "jaxlib", "flax", "haiku"),
            load="ivy_jax.frontend:load",
            description="JAX functions, Flax linen / nnx and Haiku modules, read from their jaxprs",
        )
    )


from ._compile import ivy_compile  # noqa: E402
