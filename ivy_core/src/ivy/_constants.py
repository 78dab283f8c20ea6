"""The Array API's constants and version, which ``ivy`` and every backend namespace export."""

from __future__ import annotations

import math

__all__ = ["ARRAY_API_VERSION", "CONSTANTS"]

ARRAY_API_VERSION = "2024.12"
CONSTANTS = {"e": math.e, "inf": math.inf, "nan": math.nan, "pi": math.pi, "newaxis": None}
