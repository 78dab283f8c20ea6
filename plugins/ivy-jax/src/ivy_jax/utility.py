"""Utility functions: aliases of jax.numpy."""

from __future__ import annotations

import jax.numpy as jnp

__all__ = ["all", "any", "diff"]

all = jnp.all
any = jnp.any
diff = jnp.diff
