"""The core functions the libraries call, each with its inputs and the native call it stands for.

``OPS[name] = (args, keywords, natives)``: ``ivy.<name>(<args>, <keywords>)`` is timed against the
native expression of each backend, which takes the same inputs (names from :func:`inputs`; every
array input has 1e4 elements where the function allows it: ``[100, 100]``, 625 4x4 matrices,
3334 3-vectors). A native is the call a user of that framework would write: the framework's own
function, or the one-line idiom where it has none. Each native's result is checked against Ivy's
before it is timed; a native that disagrees is not timed (the report lists it).

Utilities (``ivy.dev``, ``ivy.namespace``...) have natives too: ``a.device`` for ``ivy.dev(a)``, and
for ``ivy.namespace(a)``, which native code does not need at all, the bare input ``x`` (its whole
cost is overhead). Random functions are left out: their natives draw from other generators.
"""

from __future__ import annotations

from typing import Any

FRAMEWORKS = ("numpy", "torch", "jax", "tensorflow", "paddle")


def _same(np_: str, torch_: str, jax_: str, tf_: str, paddle_: str, args: str = "x") -> dict[str, str]:
    """Natives that are a plain call of the framework function with the same arguments."""
    return {b: f"{f}({args})" for b, f in zip(FRAMEWORKS, (np_, torch_, jax_, tf_, paddle_))}


def _expr(
    np_: str | None, torch_: str | None, jax_: str | None, tf_: str | None, paddle_: str | None
) -> dict[str, str]:
    return {b: e for b, e in zip(FRAMEWORKS, (np_, torch_, jax_, tf_, paddle_)) if e is not None}


OPS: dict[str, tuple[str, str, dict[str, str]]] = {
    # elementwise, one input
    "sin": ("x", "", _same("np.sin", "torch.sin", "jnp.sin", "tf.math.sin", "paddle.sin")),
    "cos": ("x", "", _same("np.cos", "torch.cos", "jnp.cos", "tf.math.cos", "paddle.cos")),
    "tan": ("x", "", _same("np.tan", "torch.tan", "jnp.tan", "tf.math.tan", "paddle.tan")),
    "atan": ("x", "", _same("np.arctan", "torch.atan", "jnp.arctan", "tf.math.atan", "paddle.atan")),
    "exp": ("x", "", _same("np.exp", "torch.exp", "jnp.exp", "tf.math.exp", "paddle.exp")),
    "log": ("p", "", _same("np.log", "torch.log", "jnp.log", "tf.math.log", "paddle.log", "p")),
    "log2": ("p", "", _same("np.log2", "torch.log2", "jnp.log2", "tf.experimental.numpy.log2", "paddle.log2", "p")),
    "sqrt": ("p", "", _same("np.sqrt", "torch.sqrt", "jnp.sqrt", "tf.math.sqrt", "paddle.sqrt", "p")),
    "abs": ("x", "", _same("np.abs", "torch.abs", "jnp.abs", "tf.math.abs", "paddle.abs")),
    "square": ("x", "", _same("np.square", "torch.square", "jnp.square", "tf.math.square", "paddle.square")),
    "floor": ("x", "", _same("np.floor", "torch.floor", "jnp.floor", "tf.math.floor", "paddle.floor")),
    "ceil": ("x", "", _same("np.ceil", "torch.ceil", "jnp.ceil", "tf.math.ceil", "paddle.ceil")),
    "round": ("x", "", _same("np.round", "torch.round", "jnp.round", "tf.math.round", "paddle.round")),
    "sign": ("x", "", _same("np.sign", "torch.sign", "jnp.sign", "tf.math.sign", "paddle.sign")),
    "erf": ("x", "", _same("scipy_special_erf", "torch.erf", "jax.scipy.special.erf", "tf.math.erf", "paddle.erf")),
    "negative": ("x", "", _same("np.negative", "torch.negative", "jnp.negative", "tf.math.negative", "paddle.neg")),
    "signbit": (
        "x",
        "",
        _same("np.signbit", "torch.signbit", "jnp.signbit", "tf.experimental.numpy.signbit", "paddle.signbit"),
    ),
    "isfinite": (
        "x",
        "",
        _same("np.isfinite", "torch.isfinite", "jnp.isfinite", "tf.math.is_finite", "paddle.isfinite"),
    ),
    "isnan": ("x", "", _same("np.isnan", "torch.isnan", "jnp.isnan", "tf.math.is_nan", "paddle.isnan")),
    "isinf": ("x", "", _same("np.isinf", "torch.isinf", "jnp.isinf", "tf.math.is_inf", "paddle.isinf")),
    "tanh": ("x", "", _same("np.tanh", "torch.tanh", "jnp.tanh", "tf.math.tanh", "paddle.tanh")),
    "logical_not": (
        "c",
        "",
        _same(
            "np.logical_not", "torch.logical_not", "jnp.logical_not", "tf.math.logical_not", "paddle.logical_not", "c"
        ),
    ),
    # elementwise, two inputs
    "add": ("x, y", "", _same("np.add", "torch.add", "jnp.add", "tf.math.add", "paddle.add", "x, y")),
    "subtract": (
        "x, y",
        "",
        _same("np.subtract", "torch.subtract", "jnp.subtract", "tf.math.subtract", "paddle.subtract", "x, y"),
    ),
    "multiply": (
        "x, y",
        "",
        _same("np.multiply", "torch.multiply", "jnp.multiply", "tf.math.multiply", "paddle.multiply", "x, y"),
    ),
    "divide": (
        "x, p",
        "",
        _same("np.divide", "torch.divide", "jnp.divide", "tf.math.truediv", "paddle.divide", "x, p"),
    ),
    "atan2": ("x, y", "", _same("np.arctan2", "torch.atan2", "jnp.arctan2", "tf.math.atan2", "paddle.atan2", "x, y")),
    "maximum": (
        "x, y",
        "",
        _same("np.maximum", "torch.maximum", "jnp.maximum", "tf.math.maximum", "paddle.maximum", "x, y"),
    ),
    "minimum": (
        "x, y",
        "",
        _same("np.minimum", "torch.minimum", "jnp.minimum", "tf.math.minimum", "paddle.minimum", "x, y"),
    ),
    "pow": ("p, y", "", _same("np.power", "torch.pow", "jnp.power", "tf.math.pow", "paddle.pow", "p, y")),
    "remainder": (
        "x, p",
        "",
        _same("np.remainder", "torch.remainder", "jnp.remainder", "tf.math.floormod", "paddle.remainder", "x, p"),
    ),
    "floor_divide": (
        "x, p",
        "",
        _same(
            "np.floor_divide",
            "torch.floor_divide",
            "jnp.floor_divide",
            "tf.math.floordiv",
            "paddle.floor_divide",
            "x, p",
        ),
    ),
    "copysign": (
        "x, y",
        "",
        _same(
            "np.copysign", "torch.copysign", "jnp.copysign", "tf.experimental.numpy.copysign", "paddle.copysign", "x, y"
        ),
    ),
    "equal": ("x, y", "", _same("np.equal", "torch.eq", "jnp.equal", "tf.math.equal", "paddle.equal", "x, y")),
    "not_equal": (
        "x, y",
        "",
        _same("np.not_equal", "torch.ne", "jnp.not_equal", "tf.math.not_equal", "paddle.not_equal", "x, y"),
    ),
    "greater": (
        "x, y",
        "",
        _same("np.greater", "torch.greater", "jnp.greater", "tf.math.greater", "paddle.greater_than", "x, y"),
    ),
    "less": ("x, y", "", _same("np.less", "torch.less", "jnp.less", "tf.math.less", "paddle.less_than", "x, y")),
    "logical_and": (
        "c, d",
        "",
        _same(
            "np.logical_and",
            "torch.logical_and",
            "jnp.logical_and",
            "tf.math.logical_and",
            "paddle.logical_and",
            "c, d",
        ),
    ),
    "logical_or": (
        "c, d",
        "",
        _same("np.logical_or", "torch.logical_or", "jnp.logical_or", "tf.math.logical_or", "paddle.logical_or", "c, d"),
    ),
    "where": ("c, x, y", "", _same("np.where", "torch.where", "jnp.where", "tf.where", "paddle.where", "c, x, y")),
    "clip": (
        "x, -0.5, 0.5",
        "",
        _same("np.clip", "torch.clamp", "jnp.clip", "tf.clip_by_value", "paddle.clip", "x, -0.5, 0.5"),
    ),
    # reductions along the last axis
    "sum": ("x", "axis=-1", _same("np.sum", "torch.sum", "jnp.sum", "tf.math.reduce_sum", "paddle.sum", "x, -1")),
    "mean": ("x", "axis=-1", _same("np.mean", "torch.mean", "jnp.mean", "tf.math.reduce_mean", "paddle.mean", "x, -1")),
    "max": ("x", "axis=-1", _same("np.max", "torch.amax", "jnp.max", "tf.math.reduce_max", "paddle.max", "x, -1")),
    "min": ("x", "axis=-1", _same("np.min", "torch.amin", "jnp.min", "tf.math.reduce_min", "paddle.min", "x, -1")),
    "prod": ("p", "axis=-1", _same("np.prod", "torch.prod", "jnp.prod", "tf.math.reduce_prod", "paddle.prod", "p, -1")),
    "all": ("c", "axis=-1", _same("np.all", "torch.all", "jnp.all", "tf.math.reduce_all", "paddle.all", "c, -1")),
    "any": ("c", "axis=-1", _same("np.any", "torch.any", "jnp.any", "tf.math.reduce_any", "paddle.any", "c, -1")),
    "cumprod": (
        "p",
        "axis=-1",
        _same("np.cumprod", "torch.cumprod", "jnp.cumprod", "tf.math.cumprod", "paddle.cumprod", "p, -1"),
    ),
    "argmax": (
        "x",
        "axis=-1",
        _same("np.argmax", "torch.argmax", "jnp.argmax", "tf.math.argmax", "paddle.argmax", "x, -1"),
    ),
    # shapes, joins and indexing
    "reshape": (
        "x",
        "(10000,)",
        _same("np.reshape", "torch.reshape", "jnp.reshape", "tf.reshape", "paddle.reshape", "x, (10000,)"),
    ),
    "expand_dims": (
        "x",
        "axis=-1",
        _expr(
            "np.expand_dims(x, -1)",
            "torch.unsqueeze(x, -1)",
            "jnp.expand_dims(x, -1)",
            "tf.expand_dims(x, -1)",
            "paddle.unsqueeze(x, -1)",
        ),
    ),
    "squeeze": (
        "x1",
        "axis=-1",
        _expr(
            "np.squeeze(x1, -1)",
            "torch.squeeze(x1, -1)",
            "jnp.squeeze(x1, -1)",
            "tf.squeeze(x1, -1)",
            "paddle.squeeze(x1, -1)",
        ),
    ),
    "permute_dims": (
        "x",
        "(1, 0)",
        _same("np.transpose", "torch.permute", "jnp.transpose", "tf.transpose", "paddle.transpose", "x, (1, 0)"),
    ),
    "matrix_transpose": (
        "m4",
        "",
        _expr(
            "np.swapaxes(m4, -1, -2)",
            "m4.mT",
            "jnp.swapaxes(m4, -1, -2)",
            "tf.linalg.matrix_transpose(m4)",
            "paddle.transpose(m4, (0, 2, 1))",
        ),
    ),
    "flip": (
        "x",
        "axis=-1",
        _expr(
            "np.flip(x, -1)", "torch.flip(x, (-1,))", "jnp.flip(x, -1)", "tf.reverse(x, (-1,))", "paddle.flip(x, -1)"
        ),
    ),
    "broadcast_to": (
        "row",
        "(100, 100)",
        _same(
            "np.broadcast_to",
            "torch.broadcast_to",
            "jnp.broadcast_to",
            "tf.broadcast_to",
            "paddle.broadcast_to",
            "row, (100, 100)",
        ),
    ),
    "broadcast_arrays": (
        "x, row",
        "",
        _expr(
            "np.broadcast_arrays(x, row)",
            "torch.broadcast_tensors(x, row)",
            "jnp.broadcast_arrays(x, row)",
            None,
            "paddle.broadcast_tensors([x, row])",
        ),
    ),
    "concat": (
        "[x, y]",
        "axis=-1",
        _expr(
            "np.concatenate([x, y], -1)",
            "torch.cat([x, y], -1)",
            "jnp.concatenate([x, y], -1)",
            "tf.concat([x, y], -1)",
            "paddle.concat([x, y], -1)",
        ),
    ),
    "stack": (
        "[x, y]",
        "axis=-1",
        _same("np.stack", "torch.stack", "jnp.stack", "tf.stack", "paddle.stack", "[x, y], -1"),
    ),
    "unstack": (
        "v3",
        "axis=-1",
        _expr(
            "tuple(np.moveaxis(v3, -1, 0))",
            "torch.unbind(v3, -1)",
            "tuple(jnp.moveaxis(v3, -1, 0))",
            "tf.unstack(v3, axis=-1)",
            "paddle.unbind(v3, -1)",
        ),
    ),
    "split": (
        "x",
        "2, axis=-1",
        _expr(
            "np.split(x, 2, -1)",
            "torch.chunk(x, 2, -1)",
            "jnp.split(x, 2, -1)",
            "tf.split(x, 2, -1)",
            "paddle.split(x, 2, -1)",
        ),
    ),
    "take_along_axis": (
        "x, idx",
        "axis=-1",
        _expr(
            "np.take_along_axis(x, idx, -1)",
            "torch.take_along_dim(x, idx, -1)",
            "jnp.take_along_axis(x, idx, -1)",
            "tf.experimental.numpy.take_along_axis(x, idx, -1)",
            "paddle.take_along_axis(x, idx, -1)",
        ),
    ),
    "take": (
        "x, idx1",
        "axis=0",
        _expr(
            "np.take(x, idx1, 0)",
            "torch.index_select(x, 0, idx1)",
            "jnp.take(x, idx1, 0)",
            "tf.gather(x, idx1, axis=0)",
            "paddle.index_select(x, idx1, 0)",
        ),
    ),
    "gather": (
        "x, idx1",
        "axis=0",
        _expr(
            "np.take(x, idx1, 0)",
            "torch.index_select(x, 0, idx1)",
            "jnp.take(x, idx1, 0)",
            "tf.gather(x, idx1, axis=0)",
            "paddle.gather(x, idx1, 0)",
        ),
    ),
    "get_item": (
        "x",
        "(slice(None), slice(0, 50))",
        _expr("x[:, 0:50]", "x[:, 0:50]", "x[:, 0:50]", "x[:, 0:50]", "x[:, 0:50]"),
    ),
    "pad": (
        "x",
        "((1, 1), (1, 1))",
        _expr(
            "np.pad(x, ((1, 1), (1, 1)))",
            "torch.nn.functional.pad(x, (1, 1, 1, 1))",
            "jnp.pad(x, ((1, 1), (1, 1)))",
            "tf.pad(x, ((1, 1), (1, 1)))",
            "paddle.nn.functional.pad(x, [1, 1, 1, 1])",
        ),
    ),
    "meshgrid": (
        "v100, v100",
        "indexing='ij'",
        _expr(
            "np.meshgrid(v100, v100, indexing='ij')",
            "torch.meshgrid(v100, v100, indexing='ij')",
            "jnp.meshgrid(v100, v100, indexing='ij')",
            "tf.meshgrid(v100, v100, indexing='ij')",
            "paddle.meshgrid(v100, v100)",
        ),
    ),
    "astype": (
        "x, i32",
        "",
        _expr(
            "x.astype(np.int32)",
            "x.to(torch.int32)",
            "x.astype(jnp.int32)",
            "tf.cast(x, tf.int32)",
            "x.astype('int32')",
        ),
    ),
    "stop_gradient": (
        "x",
        "",
        _expr("x", "x.detach()", "jax.lax.stop_gradient(x)", "tf.stop_gradient(x)", "x.detach()"),
    ),
    # creation
    "zeros_like": (
        "x",
        "",
        _same("np.zeros_like", "torch.zeros_like", "jnp.zeros_like", "tf.zeros_like", "paddle.zeros_like"),
    ),
    "ones_like": (
        "x",
        "",
        _same("np.ones_like", "torch.ones_like", "jnp.ones_like", "tf.ones_like", "paddle.ones_like"),
    ),
    "full_like": (
        "x, 2.0",
        "",
        _same(
            "np.full_like",
            "torch.full_like",
            "jnp.full_like",
            "tf.experimental.numpy.full_like",
            "paddle.full_like",
            "x, 2.0",
        ),
    ),
    "zeros": (
        "(100, 100)",
        "dtype=f32, backend=xp",
        _expr(
            "np.zeros((100, 100), dtype=np.float32)",
            "torch.zeros((100, 100), dtype=torch.float32)",
            "jnp.zeros((100, 100), dtype=jnp.float32)",
            "tf.zeros((100, 100), dtype=tf.float32)",
            "paddle.zeros((100, 100), dtype='float32')",
        ),
    ),
    "ones": (
        "(100, 100)",
        "dtype=f32, backend=xp",
        _expr(
            "np.ones((100, 100), dtype=np.float32)",
            "torch.ones((100, 100), dtype=torch.float32)",
            "jnp.ones((100, 100), dtype=jnp.float32)",
            "tf.ones((100, 100), dtype=tf.float32)",
            "paddle.ones((100, 100), dtype='float32')",
        ),
    ),
    "full": (
        "(100, 100), 2.0",
        "dtype=f32, backend=xp",
        _expr(
            "np.full((100, 100), 2.0, dtype=np.float32)",
            "torch.full((100, 100), 2.0, dtype=torch.float32)",
            "jnp.full((100, 100), 2.0, dtype=jnp.float32)",
            "tf.fill((100, 100), 2.0)",
            "paddle.full((100, 100), 2.0, dtype='float32')",
        ),
    ),
    "eye": (
        "100",
        "dtype=f32, backend=xp",
        _expr(
            "np.eye(100, dtype=np.float32)",
            "torch.eye(100, dtype=torch.float32)",
            "jnp.eye(100, dtype=jnp.float32)",
            "tf.eye(100, dtype=tf.float32)",
            "paddle.eye(100, dtype='float32')",
        ),
    ),
    "arange": (
        "0.0, 10000.0, 1.0",
        "dtype=f32, backend=xp",
        _expr(
            "np.arange(0.0, 10000.0, 1.0, dtype=np.float32)",
            "torch.arange(0.0, 10000.0, 1.0, dtype=torch.float32)",
            "jnp.arange(0.0, 10000.0, 1.0, dtype=jnp.float32)",
            "tf.range(0.0, 10000.0, 1.0, dtype=tf.float32)",
            "paddle.arange(0.0, 10000.0, 1.0, dtype='float32')",
        ),
    ),
    "asarray": (
        "values6",
        "dtype=f32, backend=xp",
        _expr(
            "np.asarray(values6, dtype=np.float32)",
            "torch.tensor(values6, dtype=torch.float32)",
            "jnp.asarray(values6, dtype=jnp.float32)",
            "tf.constant(values6, dtype=tf.float32)",
            "paddle.to_tensor(values6, dtype='float32')",
        ),
    ),
    # linear algebra on batches of small matrices (as the libraries use it)
    "matmul": (
        "m4, n4",
        "",
        _same("np.matmul", "torch.matmul", "jnp.matmul", "tf.linalg.matmul", "paddle.matmul", "m4, n4"),
    ),
    "linalg.inv": (
        "m4",
        "",
        _same("np.linalg.inv", "torch.linalg.inv", "jnp.linalg.inv", "tf.linalg.inv", "paddle.linalg.inv", "m4"),
    ),
    "linalg.solve": (
        "m4, n4",
        "",
        _same(
            "np.linalg.solve",
            "torch.linalg.solve",
            "jnp.linalg.solve",
            "tf.linalg.solve",
            "paddle.linalg.solve",
            "m4, n4",
        ),
    ),
    "linalg.cross": (
        "v3, w3",
        "",
        _expr(
            "np.cross(v3, w3)",
            "torch.linalg.cross(v3, w3)",
            "jnp.cross(v3, w3)",
            "tf.linalg.cross(v3, w3)",
            "paddle.cross(v3, w3, axis=-1)",
        ),
    ),
    "linalg.vector_norm": (
        "v3",
        "axis=-1",
        _expr(
            "np.linalg.norm(v3, axis=-1)",
            "torch.linalg.vector_norm(v3, dim=-1)",
            "jnp.linalg.norm(v3, axis=-1)",
            "tf.norm(v3, axis=-1)",
            "paddle.linalg.norm(v3, axis=-1)",
        ),
    ),
    "linalg.svd": (
        "m4",
        "full_matrices=False",
        _expr(
            "np.linalg.svd(m4, full_matrices=False)",
            "torch.linalg.svd(m4, full_matrices=False)",
            "jnp.linalg.svd(m4, full_matrices=False)",
            None,
            "paddle.linalg.svd(m4, full_matrices=False)",
        ),
    ),
    "scatter_nd": (
        "sidx, supd, (1000,)",
        "",
        _expr(
            "np_scatter_add(sidx, supd, 1000)",
            "torch.zeros(1000).index_add_(0, sidx[:, 0], supd)",
            "jnp.zeros(1000, jnp.float32).at[sidx[:, 0]].add(supd)",
            "tf.scatter_nd(sidx, supd, (1000,))",
            "paddle.scatter_nd(sidx, supd, (1000,))",
        ),
    ),
    "depthwise_conv2d": (
        "img, dwk, 1, 'VALID'",
        "",
        _expr(
            None,
            "torch.nn.functional.conv2d(img.permute(0, 3, 1, 2), dwk.permute(2, 0, 1)[:, None], groups=16)"
            ".permute(0, 2, 3, 1)",
            "jax.lax.conv_general_dilated(img, dwk[:, :, None, :], (1, 1), 'VALID',"
            " dimension_numbers=('NHWC', 'HWIO', 'NHWC'), feature_group_count=16)",
            "tf.nn.depthwise_conv2d(img, dwk[..., None], (1, 1, 1, 1), 'VALID')",
            "paddle.nn.functional.conv2d(img, dwk.transpose((2, 0, 1)).unsqueeze(1), groups=16, data_format='NHWC')",
        ),
    ),
    # utilities: what native code writes instead (nothing at all for the namespace); the
    # conversions to Python take what the libraries give them: a 0-d array, a 4-vector
    "to_scalar": ("s0", "", _expr("s0.item()", "s0.item()", "s0.item()", "s0.numpy().item()", "s0.item()")),
    "to_list": ("v4", "", _expr("v4.tolist()", "v4.tolist()", "v4.tolist()", "v4.numpy().tolist()", "v4.tolist()")),
    "dev": ("x", "", _expr("x.device", "x.device", "x.device", "x.device", "x.place")),
    "namespace": ("x", "", _expr("x", "x", "x", "x", "x")),
    "is_native_array": (
        "x",
        "",
        _expr(
            "isinstance(x, np.ndarray)",
            "isinstance(x, torch.Tensor)",
            "isinstance(x, jax.Array)",
            "isinstance(x, tf.Tensor)",
            "isinstance(x, paddle.Tensor)",
        ),
    ),
    # the copy the spec promises (numpy(), np.asarray share memory with the array where they can)
    "to_numpy": (
        "x",
        "",
        _expr("np.array(x)", "x.numpy().copy()", "np.array(x)", "np.array(x.numpy())", "x.numpy()"),
    ),
}

#: Functions a library may call whose natives are not comparable (random draws, whole-program
#: transforms, or a call that only selects a backend); their cost is in the direct measurements.
NOT_TIMED = {
    "random_uniform": "random draws (another generator natively)",
    "random_normal": "random draws (another generator natively)",
    "randint": "random draws (another generator natively)",
    "execute_with_gradients": "a gradient transform (measured whole in the drone step)",
    "gradient_descent_update": "an optimizer update (measured whole in the drone step)",
    "compile": "compiles a function (measured in the compiled stages)",
    "current_backend": "selects a backend (no array work)",
    "backend_namespace": "selects a backend (no array work)",
    "use_backend": "selects a backend (no array work)",
    "set_backend": "selects a backend (no array work)",
}

#: Functions that run only while a compiler traces (no array work in the compiled program).
UTILITIES = frozenset({"dev", "namespace", "is_native_array", "to_numpy", "to_scalar", "to_list"})


def framework_env(backend: str) -> dict[str, Any]:
    """The names the native expressions use."""
    import numpy as np

    def np_scatter_add(indices: Any, updates: Any, n: int) -> Any:
        out = np.zeros(n, updates.dtype)
        np.add.at(out, indices[:, 0], updates)
        return out

    env: dict[str, Any] = {"np": np, "np_scatter_add": np_scatter_add}
    if backend == "numpy":
        try:
            from scipy.special import erf

            env["scipy_special_erf"] = erf
        except ImportError:
            pass
    elif backend == "torch":
        import torch

        env["torch"] = torch
    elif backend == "jax":
        import jax
        import jax.numpy as jnp
        import jax.scipy.special  # makes jax.scipy.special an attribute

        env.update(jax=jax, jnp=jnp)
    elif backend == "tensorflow":
        import tensorflow as tf
        import tensorflow.experimental.numpy

        env["tf"] = tf
    elif backend == "paddle":
        import paddle

        env["paddle"] = paddle
    return env


def inputs(backend: str, xp: Any) -> dict[str, Any]:
    """The inputs the specs name, as native arrays of ``backend`` (1e4 elements each)."""
    import numpy as np

    rng = np.random.default_rng(0)
    f32 = np.float32

    def arr(a: Any) -> Any:
        return xp.asarray(a)

    eye4 = np.eye(4, dtype=f32) * 4
    idx = rng.integers(0, 100, (100, 100))
    return {
        "x": arr(rng.standard_normal((100, 100)).astype(f32)),
        "y": arr(rng.standard_normal((100, 100)).astype(f32)),
        "p": arr((rng.random((100, 100)) + 0.5).astype(f32)),
        "c": arr(rng.random((100, 100)) > 0.5),
        "d": arr(rng.random((100, 100)) > 0.5),
        "x1": arr(rng.standard_normal((10000, 1)).astype(f32)),
        "row": arr(rng.standard_normal((1, 100)).astype(f32)),
        "v3": arr(rng.standard_normal((3334, 3)).astype(f32)),
        "w3": arr(rng.standard_normal((3334, 3)).astype(f32)),
        "v100": arr(np.arange(100, dtype=f32)),
        "m4": arr((rng.standard_normal((625, 4, 4)) + eye4).astype(f32)),
        "n4": arr(rng.standard_normal((625, 4, 4)).astype(f32)),
        "idx": arr(idx),
        "idx1": arr(idx[:, 0].copy()),
        "sidx": arr(rng.integers(0, 1000, (10000, 1))),
        "supd": arr(rng.standard_normal(10000).astype(f32)),
        "img": arr(rng.standard_normal((1, 25, 25, 16)).astype(f32)),
        "dwk": arr(rng.standard_normal((3, 3, 16)).astype(f32)),
        "s0": arr(np.asarray(1.5, f32)),
        "v4": arr(rng.standard_normal(4).astype(f32)),
        "values6": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6],
        "i32": xp.int32,
        "f32": xp.float32,
    }
