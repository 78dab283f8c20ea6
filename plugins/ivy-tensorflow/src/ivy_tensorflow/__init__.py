"""Ivy backend plugin for TensorFlow.

Importing this module does not import TensorFlow: Ivy imports it (through ``_backend.load``) on
the first use of the ``tensorflow`` backend.
"""

from __future__ import annotations

from collections.abc import Callable

from ivy.plugin import BackendSpec, hookimpl

__all__ = ["ivy_register_backends"]


@hookimpl
def ivy_register_backends(register: Callable[[BackendSpec], None]) -> None:
    register(
        BackendSpec(
            name="tensorflow",
            array_modules=("tensorflow",),
            load="ivy_tensorflow._backend:load",
            description="TensorFlow: CPU and GPU, eager tensors (also inside tf.function)",
        )
    )


from ._compile import ivy_compile  # noqa: E402,F401
