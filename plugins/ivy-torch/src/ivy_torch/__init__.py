"""Ivy backend plugin for PyTorch.

Importing this module does not import torch: Ivy imports it (through ``_backend.load``) on the
first use of the ``torch`` backend.
"""

from __future__ import annotations

from collections.abc import Callable

from ivy.plugin import BackendSpec, hookimpl

__all__ = ["ivy_register_backends"]


@hookimpl
def ivy_register_backends(register: Callable[[BackendSpec], None]) -> None:
    register(
        BackendSpec(
            name="torch",
            array_modules=("torch",),
            load="ivy_torch._backend:load",
            description="PyTorch: CPU and CUDA, automatic differentiation",
        )
    )


from ._compile import ivy_compile  # noqa: E402,F401
