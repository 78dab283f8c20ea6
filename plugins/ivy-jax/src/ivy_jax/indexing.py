"""Indexing functions: jax.numpy's take and take_along_axis follow the standard."""

from __future__ import annotations

import jax.numpy as jnp

__all__ = ["take", "take_along_axis"]

take = jnp.take
take_along_axis = jnp.take_along_axis
