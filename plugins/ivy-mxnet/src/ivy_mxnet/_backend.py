"""Loads the mxnet backend: imports MXNet and hands core its ops and facts."""

from __future__ import annotations

from ivy.plugin import BackendImpl, collect_ops

from ._dtypes import DEFAULT_FLOAT, DEFAULT_INT, DTYPES, INDEX
from ._framework import Array, mx
from ._helpers import default_ctx, num_gpus


def load() -> BackendImpl:
    return BackendImpl(
        ops=collect_ops("ivy_mxnet"),
        array_types=(Array,),
        dtypes=dict(DTYPES),
        # MXNet's own float default (mxnet.numpy creates float32) and int64 for Python ints;
        # no complex dtype
        default_dtypes={
            "real floating": DEFAULT_FLOAT,
            "complex floating": None,
            "integral": DEFAULT_INT,
            "indexing": INDEX,
        },
        devices=lambda: [mx.cpu(0)] + [mx.gpu(i) for i in range(num_gpus())],
        default_device=default_ctx,
        # boolean masks and nonzero/unique work (results of data-dependent shape); NumPy's shapes
        # are limited to 6 dimensions in some MXNet kernels (transpose)
        capabilities={"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 6},
        autodiff=True,
        framework=mx,
        # ivy.compile returns the function itself (it runs eagerly, side effects included)
        compiled_side_effects=True,
    )
