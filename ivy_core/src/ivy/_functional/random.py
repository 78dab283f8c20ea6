"""``ivy.seed``: one call seeds every backend, including those loaded later."""

from __future__ import annotations

import operator
from typing import Any

from .. import _context, _registry
from .._dispatch import public_signature as _public_signature
from .._spec import SPECS

__all__ = ["seed"]


def seed(seed_value: int = 0, /, *, backend: Any = None) -> None:
    try:
        value = operator.index(seed_value)
    except TypeError:
        raise TypeError(f"ivy.seed: seed_value must be an integer, got {type(seed_value).__name__}") from None
    if value < 0:
        raise ValueError(f"ivy.seed: seed_value must be non-negative, got {value}")
    if backend is not None:
        _context.resolve(backend).calls["seed"](value)
    else:
        _registry.seed_all(value)


# The public function carries the spec, as the generated ones do.
_SPEC = SPECS["seed"]
seed.__doc__ = _SPEC.doc
seed.__module__ = "ivy"
seed.__ivy_spec__ = _SPEC  # type: ignore[attr-defined]
seed.__signature__ = _public_signature(_SPEC)  # type: ignore[attr-defined]
