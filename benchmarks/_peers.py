"""What a user would pick instead of Ivy to write framework-agnostic code: the same ops of
``bench_dispatch.OPS`` through array-api-compat, ``keras.ops`` and EagerPy, each used as generic
code uses it (native arrays in, native arrays out, the library found or wrapped on every call).

Each peer is optional: used where it is installed and supports the process's framework. The
expressions name the op's arguments ``a0, a1, a2`` (those of ``bench_dispatch``); a peer's result
is checked against the native result before it is timed.
"""

from __future__ import annotations

from typing import Any

# array-api-compat: xp = array_namespace(x) on each call, then the standard's function
_AAC = {
    "sin": "aac(a0).sin(a0)",
    "exp": "aac(a0).exp(a0)",
    "abs": "aac(a0).abs(a0)",
    "tanh": "aac(a0).tanh(a0)",
    "sqrt": "aac(a0).sqrt(a0)",
    "log": "aac(a0).log(a0)",
    "negative": "aac(a0).negative(a0)",
    "add": "aac(a0, a1).add(a0, a1)",
    "subtract": "aac(a0, a1).subtract(a0, a1)",
    "multiply": "aac(a0, a1).multiply(a0, a1)",
    "divide": "aac(a0, a1).divide(a0, a1)",
    "maximum": "aac(a0, a1).maximum(a0, a1)",
    "greater": "aac(a0, a1).greater(a0, a1)",
    "where": "aac(a0, a1, a2).where(a0, a1, a2)",
    "sum": "aac(a0).sum(a0)",
    "mean": "aac(a0).mean(a0)",
    "max": "aac(a0).max(a0)",
    "argmax": "aac(a0).argmax(a0)",
    "matmul": "aac(a0, a1).matmul(a0, a1)",
    "concat": "aac(*a0).concat(a0)",
    "reshape": "aac(a0).reshape(a0, a1)",
    "permute_dims": "aac(a0).permute_dims(a0, a1)",
    "cumsum": "aac(a0).cumulative_sum(a0)",
}

# keras.ops: the process's Keras backend is its framework (KERAS_BACKEND)
_KERAS = {
    "sin": "kops.sin(a0)",
    "exp": "kops.exp(a0)",
    "abs": "kops.abs(a0)",
    "tanh": "kops.tanh(a0)",
    "sqrt": "kops.sqrt(a0)",
    "log": "kops.log(a0)",
    "negative": "kops.negative(a0)",
    "add": "kops.add(a0, a1)",
    "subtract": "kops.subtract(a0, a1)",
    "multiply": "kops.multiply(a0, a1)",
    "divide": "kops.divide(a0, a1)",
    "maximum": "kops.maximum(a0, a1)",
    "greater": "kops.greater(a0, a1)",
    "where": "kops.where(a0, a1, a2)",
    "sum": "kops.sum(a0)",
    "mean": "kops.mean(a0)",
    "max": "kops.max(a0)",
    "argmax": "kops.argmax(a0)",
    "matmul": "kops.matmul(a0, a1)",
    "concat": "kops.concatenate(a0)",
    "reshape": "kops.reshape(a0, a1)",
    "permute_dims": "kops.transpose(a0, a1)",
    "zeros": "kops.zeros(a0, dtype='float32')",
    "relu": "kops.relu(a0)",
    "sigmoid": "kops.sigmoid(a0)",
    "softmax": "kops.softmax(a0)",
    "gelu": "kops.gelu(a0, approximate=False)",
    "cumsum": "kops.cumsum(a0)",
    "einsum": "kops.einsum(a0, a1, a2)",
}

# EagerPy: wrap the native arrays, call, unwrap
_EP = {
    "sin": "ep.astensor(a0).sin().raw",
    "exp": "ep.astensor(a0).exp().raw",
    "abs": "ep.astensor(a0).abs().raw",
    "tanh": "ep.astensor(a0).tanh().raw",
    "sqrt": "ep.astensor(a0).sqrt().raw",
    "log": "ep.astensor(a0).log().raw",
    "negative": "(-ep.astensor(a0)).raw",
    "add": "(ep.astensor(a0) + ep.astensor(a1)).raw",
    "subtract": "(ep.astensor(a0) - ep.astensor(a1)).raw",
    "multiply": "(ep.astensor(a0) * ep.astensor(a1)).raw",
    "divide": "(ep.astensor(a0) / ep.astensor(a1)).raw",
    "maximum": "ep.maximum(ep.astensor(a0), ep.astensor(a1)).raw",
    "greater": "(ep.astensor(a0) > ep.astensor(a1)).raw",
    "where": "ep.where(ep.astensor(a0), ep.astensor(a1), ep.astensor(a2)).raw",
    "sum": "ep.astensor(a0).sum().raw",
    "mean": "ep.astensor(a0).mean().raw",
    "max": "ep.astensor(a0).max().raw",
    "argmax": "ep.astensor(a0).argmax().raw",
    "matmul": "ep.matmul(ep.astensor(a0), ep.astensor(a1)).raw",
    "concat": "ep.concatenate([ep.astensor(t) for t in a0]).raw",
    "reshape": "ep.astensor(a0).reshape(a1).raw",
    "permute_dims": "ep.astensor(a0).transpose(a1).raw",
    "softmax": "ep.softmax(ep.astensor(a0)).raw",
    "cumsum": "ep.astensor(a0).cumsum().raw",
}


def peers(backend: str) -> tuple[dict[str, dict[str, str]], dict[str, Any], dict[str, str]]:
    """``(expressions by peer, names they use, why a peer is absent)`` for one process."""
    exprs: dict[str, dict[str, str]] = {}
    env: dict[str, Any] = {}
    absent: dict[str, str] = {}
    try:
        import array_api_compat

        env["aac"] = array_api_compat.array_namespace
        exprs["array-api-compat"] = _AAC
    except ImportError:
        absent["array-api-compat"] = "not installed"
    if backend in ("numpy", "torch", "jax", "tensorflow"):
        try:
            import keras

            if keras.backend.backend() != backend:
                absent["keras.ops"] = f"Keras runs on {keras.backend.backend()} here, not {backend}"
            else:
                env["kops"] = keras.ops
                exprs["keras.ops"] = _KERAS
        except ImportError:
            absent["keras.ops"] = "not installed"
    else:
        absent["keras.ops"] = f"Keras has no {backend} backend"
    if backend in ("numpy", "torch", "jax", "tensorflow"):
        try:
            import eagerpy

            env["ep"] = eagerpy
            exprs["eagerpy"] = _EP
        except ImportError:
            absent["eagerpy"] = "not installed"
    else:
        absent["eagerpy"] = f"EagerPy has no {backend} backend"
    return exprs, env, absent
