"""Ivy backend plugin for MXNet 1.9 (its NumPy interface, ``mxnet.numpy``).

This module is the plugin's entry point (group ``ivy.backends``, name ``mxnet``). Importing it
imports no framework: Ivy imports MXNet (through ``_backend.load``) on the first use of the
``mxnet`` backend.
"""

from __future__ import annotations

from collections.abc import Callable

from ivy.plugin import BackendSpec, hookimpl

__all__ = ["ivy_register_backends", "ivy_compile"]
__version__ = "0.1.0"


@hookimpl
def ivy_register_backends(register: Callable[[BackendSpec], None]) -> None:
    register(
        BackendSpec(
            name="mxnet",
            # mxnet.numpy.ndarray (and the legacy mxnet.ndarray.NDArray) live under "mxnet"
            array_modules=("mxnet",),
            load="ivy_mxnet._backend:load",
            framework_distributions=("mxnet",),
            description="MXNet 1.9: mxnet.numpy arrays on CPU and GPU, gradients through mxnet.autograd "
            "(no complex, int16, uint16/32/64 dtypes)",
        )
    )


from ._compile import ivy_compile  # noqa: E402
