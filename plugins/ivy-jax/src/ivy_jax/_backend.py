"""Loads the JAX backend: imports JAX and hands core the ops and facts."""

from __future__ import annotations

from typing import Any

import jax

from ivy.plugin import BackendImpl, collect_ops

from . import _dtypes
from .random import RANDOM_SNAPSHOT, RANDOM_STATE


def _devices() -> list[Any]:
    out = list(jax.devices())
    for d in jax.devices("cpu"):  # the CPU is always usable, even when an accelerator is the default
        if d not in out:
            out.append(d)
    return out


def _default_device() -> Any:
    dev = jax.default_device.value
    if dev is None:
        return jax.devices()[0]
    return _dtypes.device(dev) if isinstance(dev, str) else dev


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
    return BackendImpl(
        ops=collect_ops("ivy_jax"),
        # jax.Array covers concrete arrays and tracers, so ops work inside jit and grad.
        array_types=(jax.Array,),
        dtypes=dict(_dtypes.DTYPES),
        default_dtypes={
            "real floating": _dtypes.DEFAULT_FLOAT,
            "complex floating": _dtypes.DEFAULT_COMPLEX,
            "integral": _dtypes.DEFAULT_INT,
            "indexing": _dtypes.DEFAULT_INT,
        },
        devices=_devices,
        default_device=_default_device,
        framework=jax,
        autodiff=True,
        random_state=RANDOM_STATE,  # the global key: ivy.compile threads it through programs
        random_snapshot=RANDOM_SNAPSHOT,
        extras={"to_native_module": _to_native_module, "from_native_module": _from_native_module},
        native_module=_native_module,
    )
