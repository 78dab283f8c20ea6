"""Ivy backend plugin for PyTorch.

Importing this module does not import torch: Ivy imports it (through ``_backend.load``) on the
first use of the ``torch`` backend.
"""

from __future__ import annotations

from collections.abc import Callable

from ivy.plugin import BackendSpec, Frontend, hookimpl

__all__ = ["ivy_register_backends", "ivy_register_frontends"]


@hookimpl
def ivy_register_backends(register: Callable[[BackendSpec], None]) -> None:
    register(
        BackendSpec(
            name="torch",
            array_modules=("torch",),
            load="ivy_torch._backend:load",
            framework_distributions=("torch",),
            description="PyTorch: CPU and CUDA, automatic differentiation",
        )
    )


@hookimpl
def ivy_register_frontends(register: Callable[[Frontend], None]) -> None:
    # "torch" covers torch's own modules and tensors; an nn.Module subclass from another package
    # (transformers, a user's __main__) is recognised by the torch classes in its type's MRO, or
    # by its torch tensor inputs, and confirmed by the loaded frontend's kind()
    register(
        Frontend(
            name="torch",
            modules=("torch",),
            load="ivy_torch.frontend:load",
            description="torch.export programs (nn.Modules and functions) in Core ATen",
        )
    )


from ._compile import ivy_compile  # noqa: E402
