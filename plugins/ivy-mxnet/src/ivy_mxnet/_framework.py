"""MXNet, imported once, with its NumPy semantics switched on.

``npx.set_np()`` makes MXNet's shapes NumPy's (0-d arrays, zero-size dimensions) and its Gluon
layers produce ``mxnet.numpy`` arrays: the array type of this backend. It is MXNet's process-wide
switch, set when the backend loads.
"""

from __future__ import annotations

import mxnet as mx
import numpy as onp
from mxnet import autograd, npx
from mxnet import numpy as mnp

npx.set_np()

#: the backend's array type
Array = mnp.ndarray
#: the legacy array type (results of ``mxnet.autograd.grad``, ``mx.nd``), converted on sight
LegacyArray = mx.nd.NDArray

__all__ = ["mx", "mnp", "npx", "onp", "autograd", "Array", "LegacyArray"]
