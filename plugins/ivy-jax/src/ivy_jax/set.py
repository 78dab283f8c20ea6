"""Set functions: jax.numpy's unique_* return the standard's named tuples."""

from __future__ import annotations

import jax.numpy as jnp

__all__ = ["unique_all", "unique_counts", "unique_inverse", "unique_values"]

unique_all = jnp.unique_all
unique_counts = jnp.unique_counts
unique_inverse = jnp.unique_inverse
unique_values = jnp.unique_values
