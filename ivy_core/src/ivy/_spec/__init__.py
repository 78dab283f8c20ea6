"""The op contract of Ivy: one spec module per category of the Array API standard (2024.12).

Importing this package imports every spec module, which registers each op in :data:`SPECS` (keyed by
qualified name: ``"add"``, ``"linalg.inv"``, ``"fft.fft"``). The modules ``linalg`` and ``fft`` are
the standard's extensions; ``conversion`` holds Ivy's own ops for leaving a backend, and
``gradients``, ``random``, ``device``, ``nn`` and ``general`` hold Ivy's functional API beyond
the standard.
"""

from __future__ import annotations

# Registration order: the standard's main namespace, its extensions, then Ivy's own ops.
from . import (  # isort: skip
    elementwise,
    creation,
    data_type,
    indexing,
    linear_algebra,
    manipulation,
    searching,
    set,
    sorting,
    statistical,
    utility,
    linalg,
    fft,
    conversion,
    gradients,
    random,
    device,
    nn,
    nn_blocks,
    general,
)
from ._base import SPECS, Spec

#: Names of the spec modules, in registration order.
CATEGORIES: tuple[str, ...] = (
    "elementwise",
    "creation",
    "data_type",
    "indexing",
    "linear_algebra",
    "manipulation",
    "searching",
    "set",
    "sorting",
    "statistical",
    "utility",
    "linalg",
    "fft",
    "conversion",
    "gradients",
    "random",
    "device",
    "nn",
    "general",
)

__all__ = [
    "CATEGORIES",
    "SPECS",
    "Spec",
    "elementwise",
    "creation",
    "data_type",
    "indexing",
    "linear_algebra",
    "manipulation",
    "searching",
    "set",
    "sorting",
    "statistical",
    "utility",
    "linalg",
    "fft",
    "conversion",
    "gradients",
    "random",
    "device",
    "nn",
    "general",
]
