"""``result_type`` by Ivy's promotion rules (the reference library refuses pairs outside the standard)."""

from __future__ import annotations

from typing import Any

import array_api_strict as xp

from ivy.plugin_kit import result_type_name

from ._dtypes import DTYPES, name_of

__all__ = ["result_type"]


def result_type(*arrays_and_dtypes: Any) -> Any:
    names, scalars = [], []
    for a in arrays_and_dtypes:
        if isinstance(a, (bool, int, float, complex)):
            scalars.append(a)
        else:
            names.append(name_of(getattr(a, "dtype", a)))
    defaults = {k: name_of(v) for k, v in xp.__array_namespace_info__().default_dtypes().items()}
    return DTYPES[result_type_name(*names, scalars=tuple(scalars), defaults=defaults)]
