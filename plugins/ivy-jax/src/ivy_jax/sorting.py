"""Sorting functions: jax.numpy's sort and argsort take ``stable`` and ``descending``."""

from __future__ import annotations

import jax.numpy as jnp

__all__ = ["argsort", "sort"]

argsort = jnp.argsort
sort = jnp.sort
