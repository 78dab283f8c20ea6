"""A small library written with Ivy, for the lazy library proxy of ``ivy.transpile``
(``tests/test_transpile.py``): functions, a submodule, a module class, a constant, and names
that are not the library's own (a standard-library function, a foreign module)."""

import math
from math import hypot

from . import color
from .filters import Affine, box3, normalize

__all__ = ["Affine", "GAIN", "box3", "color", "hypot", "math", "normalize"]

GAIN = 2.5
