"""Loads the backend: imports the framework and hands core its ops and facts."""

from __future__ import annotations

import array_api_strict as xp

from ivy.plugin import BackendImpl, collect_ops
from ivy.plugin_kit import conformant_ops

from ._dtypes import DTYPES
from .device import default_device, devices, to_native_device


def load() -> BackendImpl:
    # The library conforms to the Array API: its own functions serve as the standard's ops, with
    # Ivy's dtype and device forms ("float32", ivy.float32, "cpu") translated by the toolkit.
    # Ivy's ops beyond the standard come from this package's modules (collect_ops), and core
    # composes the rest (nn, general...) from these.
    ops = conformant_ops(xp, dtypes=DTYPES, device=to_native_device)
    ops.update(collect_ops("ivy_strict"))
    return BackendImpl(
        ops=ops,
        array_types=(type(xp.asarray(0)),),
        dtypes=DTYPES,
        default_dtypes=xp.__array_namespace_info__().default_dtypes(),
        devices=devices,
        default_device=default_device,
        capabilities=xp.__array_namespace_info__().capabilities(),
        autodiff=False,
        framework=xp,
    )
