"""Helpers of the conformance suite: NumPy and Array API references, comparisons, strategies."""
