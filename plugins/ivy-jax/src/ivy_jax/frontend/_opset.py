"""The jaxpr primitive set, and how much of it the table covers."""

from __future__ import annotations

import jax

from ._table import TABLE

__all__ = ["primitives", "op_set"]


def primitives() -> set[str]:
    """The names of the primitives this JAX can lower (about 250 in jax 0.10), plus those
    ``jax.extend.core.primitives`` exports."""
    import jax.extend.core.primitives as exported

    names = {getattr(exported, n).name for n in dir(exported) if n.endswith("_p")}
    try:  # the lowering registries are JAX's only complete list (no public API for them)
        from jax._src.interpreters import mlir

        names |= {p.name for p in mlir._lowerings}
        names |= {p.name for table in mlir._platform_specific_lowerings.values() for p in table}
    except (ImportError, AttributeError):
        pass
    return names


def op_set() -> dict[str, str | None]:
    """Every primitive of :func:`primitives` -> what the table translates it into (None: not
    translated; such a primitive still works when its operands are known at transpile time)."""
    _ = jax.numpy  # the primitives of jax.numpy / lax register on import
    return {name: (TABLE[name].doc if name in TABLE else None) for name in sorted(primitives())}
