"""Loads the PaddlePaddle backend: imports paddle and hands core the ops and facts."""

from __future__ import annotations

from typing import Any

from ivy.plugin import BackendImpl, collect_ops

from ._dtypes import DEFAULT_COMPLEX, DEFAULT_FLOAT, DEFAULT_INT, DTYPES, INDEX
from ._framework import Tensor, paddle
from ._helpers import default_place, devices
from .random import RANDOM_SNAPSHOT


def _to_native_module(module: Any, /, **kwargs: Any) -> Any:
    from .interop import to_native_module

    return to_native_module(module, **kwargs)


def _from_native_module(native: Any, /, **kwargs: Any) -> Any:
    from .interop import from_native_module

    return from_native_module(native, **kwargs)


def _native_module(graph: Any, /, **kwargs: Any) -> Any:
    from ._native_module import native_module  # imports the framework's module classes: only when asked for

    return native_module(graph, **kwargs)


def load() -> BackendImpl:
    from . import _array_calls, _nn_calls  # noqa: F401 - register the specialised calls of emitted graphs
    from .gradients import adam_update_flat  # imported by collect_ops anyway

    return BackendImpl(
        ops=collect_ops("ivy_paddle"),
        array_types=(Tensor,),
        dtypes=dict(DTYPES),
        # paddle's own defaults: float32 (paddle.get_default_dtype()) and int64 for Python ints
        default_dtypes={
            "real floating": DEFAULT_FLOAT,
            "complex floating": DEFAULT_COMPLEX,
            "integral": DEFAULT_INT,
            "indexing": INDEX,
        },
        devices=devices,
        # paddle tensors have at most 9 dimensions, and expand/broadcast_to accept at most 8
        capabilities={"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 8},
        default_device=default_place,
        framework=paddle,
        autodiff=True,
        compiled_side_effects=True,  # to_static (SOT) keeps Python side effects
        random_snapshot=RANDOM_SNAPSHOT,
        extras={"to_native_module": _to_native_module, "from_native_module": _from_native_module},
        native_module=_native_module,
        kernels={"adam_update_flat": adam_update_flat},  # a fused Adam step (ivy.adam_update uses it)
    )
