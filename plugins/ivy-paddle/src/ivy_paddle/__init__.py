"""Ivy backend plugin for PaddlePaddle.

Importing this module does not import paddle: Ivy imports it (through ``_backend.load``) on the
first use of the ``paddle`` backend.
"""

from __future__ import annotations

from collections.abc import Callable

from ivy.plugin import BackendSpec, Frontend, hookimpl

__all__ = ["ivy_register_backends", "ivy_register_frontends"]


@hookimpl
def ivy_register_backends(register: Callable[[BackendSpec], None]) -> None:
    register(
        BackendSpec(
            name="paddle",
            array_modules=("paddle",),
            load="ivy_paddle._backend:load",
            framework_distributions=("paddlepaddle", "paddlepaddle-gpu"),
            # paddle's native library segfaults when it is imported after tensorflow's.
            unsafe_after=("tensorflow",),
            description="PaddlePaddle: CPU and GPU, dynamic graph (no uint16/uint32/uint64)",
        )
    )


@hookimpl
def ivy_register_frontends(register: Callable[[Frontend], None]) -> None:
    register(
        Frontend(
            name="paddle",
            modules=("paddle",),
            load="ivy_paddle.frontend:load",
            description="paddle.jit.to_static programs (Layers and functions) in PIR ops",
        )
    )


from ._compile import ivy_compile  # noqa: E402
