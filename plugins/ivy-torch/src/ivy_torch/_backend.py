"""Loads the torch backend: imports torch and hands core the ops and facts."""

from __future__ import annotations

from typing import Any

import torch

from ivy.plugin import BackendImpl, collect_ops

from ._dtypes import DTYPES, c64, c128, f64
from .random import RANDOM_SNAPSHOT


def _devices() -> list[Any]:
    out = [torch.device("cpu")]
    if torch.cuda.is_available():
        out += [torch.device("cuda", i) for i in range(torch.cuda.device_count())]
    return out


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
    from . import _nn_calls  # noqa: F401 - registers the specialised calls of emitted graphs
    from .gradients import adam_update_flat  # imported by collect_ops anyway

    real = torch.get_default_dtype()  # float32 unless the user changed it
    return BackendImpl(
        ops=collect_ops("ivy_torch"),
        array_types=(torch.Tensor,),
        dtypes=DTYPES,
        default_dtypes={
            "real floating": real,
            "complex floating": c128 if real is f64 else c64,
            "integral": torch.int64,
            "indexing": torch.int64,
        },
        devices=_devices,
        default_device=torch.get_default_device,
        framework=torch,
        autodiff=True,
        tracing=torch.compiler.is_compiling,
        compiled_side_effects=True,  # dynamo replays Python side effects
        random_snapshot=RANDOM_SNAPSHOT,
        extras={"to_native_module": _to_native_module, "from_native_module": _from_native_module},
        native_module=_native_module,
        kernels={"adam_update_flat": adam_update_flat},  # a fused Adam step (ivy.adam_update uses it)
    )
