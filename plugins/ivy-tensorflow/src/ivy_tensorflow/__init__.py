"""Ivy backend plugin for TensorFlow.

Importing this module does not import TensorFlow: Ivy imports it (through ``_backend.load``) on
the first use of the ``tensorflow`` backend.
"""

from __future__ import annotations

from collections.abc import Callable

from ivy.plugin import BackendSpec, Frontend, hookimpl

__all__ = ["ivy_register_backends", "ivy_register_frontends"]


@hookimpl
def ivy_register_backends(register: Callable[[BackendSpec], None]) -> None:
    register(
        BackendSpec(
            name="tensorflow",
            array_modules=("tensorflow",),
            load="ivy_tensorflow._backend:load",
            framework_distributions=("tensorflow", "tensorflow-cpu"),
            description="TensorFlow: CPU and GPU, eager tensors (also inside tf.function)",
        )
    )


@hookimpl
def ivy_register_frontends(register: Callable[[Frontend], None]) -> None:
    register(
        Frontend(
            name="tensorflow",
            modules=("tensorflow", "keras"),
            load="ivy_tensorflow.frontend:load",
            description="Keras 3 layers and models, tf.Modules and TF functions, read from their tf.function graphs",
        )
    )


from ._compile import ivy_compile  # noqa: E402
