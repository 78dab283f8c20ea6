"""Loads the TensorFlow backend: imports TensorFlow and hands core the ops and facts."""

from __future__ import annotations

from typing import Any

from ._startup import import_tensorflow

# first, before any module of the plugin imports TensorFlow: without its start-up lines
tf = import_tensorflow()

from ivy.plugin import BackendImpl, collect_ops  # noqa: E402

from . import _dtypes as D  # noqa: E402
from ._helpers import default_device, devices  # noqa: E402


def _to_native_module(module: Any, /, **kwargs: Any) -> Any:
    from .interop import to_native_module  # imports keras: only when asked for

    return to_native_module(module, **kwargs)


def _from_native_module(native: Any, /, **kwargs: Any) -> Any:
    from .interop import from_native_module

    return from_native_module(native, **kwargs)


def _native_module(graph: Any, /, **kwargs: Any) -> Any:
    from ._native_module import native_module  # imports the framework's module classes: only when asked for

    return native_module(graph, **kwargs)


def load() -> BackendImpl:
    # The plugin's modules build constants at import; when the backend first loads inside a
    # tf.function trace, they must still be eager tensors, not tensors of that graph.
    with tf.init_scope():
        ops = collect_ops("ivy_tensorflow")
        from . import _nn_calls  # noqa: F401 - registers the specialised calls of emitted graphs
        from .random import RANDOM_SNAPSHOT
    return BackendImpl(
        ops=ops,
        array_types=(tf.Tensor, tf.Variable),
        dtypes=D.DTYPES,
        default_dtypes={
            "real floating": D.DEFAULT_FLOAT,
            "complex floating": D.DEFAULT_COMPLEX,
            "integral": D.DEFAULT_INT,
            "indexing": D.DEFAULT_INDEX,
        },
        devices=devices,
        default_device=default_device,
        capabilities={
            # eager TF computes data-dependent shapes (boolean masks, nonzero, unique); inside
            # tf.function they become dynamic dimensions
            "boolean indexing": True,
            "data-dependent shapes": True,
            "max dimensions": 254,  # TF's kernels (Eigen) cap tensor rank
        },
        framework=tf,
        autodiff=True,
        extras={"to_native_module": _to_native_module, "from_native_module": _from_native_module},
        native_module=_native_module,
        random_snapshot=RANDOM_SNAPSHOT,
    )
