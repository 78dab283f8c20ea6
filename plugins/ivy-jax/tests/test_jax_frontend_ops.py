"""The JAX frontend's primitive table: each mapped primitive through a tiny JAX function.

Each case transpiles a function to an Ivy graph (``to_graph``), checks that its jaxpr really uses
the primitive under test, and compares the graph's programs for JAX and NumPy with the function
run by JAX itself; for differentiable cases, the gradient through the emitted JAX program with
``jax.grad`` of the original. Run with ``--backend jax`` (64-bit dtypes on: inputs are float32
explicitly).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
lax = jax.lax


@pytest.fixture(autouse=True)
def _jax_backend(backend):
    if backend != "jax":
        pytest.skip("the JAX frontend's own tests run in the jax process")


def _rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


def f32(*shape: int, seed: int = 0, lo: float = -2.0, hi: float = 2.0) -> np.ndarray:
    return _rng(seed).uniform(lo, hi, shape).astype(np.float32)


def i32(*shape: int, lo: int = -5, hi: int = 6, seed: int = 0) -> np.ndarray:
    return _rng(seed).integers(lo, hi, shape).astype(np.int32)


def primitives(fn: Callable[..., Any], *args: Any) -> set[str]:
    """Every primitive of fn's jaxpr, sub-jaxprs included."""
    from jax.extend.core import ClosedJaxpr, Jaxpr

    found: set[str] = set()

    def walk(jaxpr: Any) -> None:
        for eqn in jaxpr.eqns:
            found.add(eqn.primitive.name)
            for v in eqn.params.values():
                for x in v if isinstance(v, (tuple, list)) else (v,):
                    if isinstance(x, ClosedJaxpr):
                        walk(x.jaxpr)
                    elif isinstance(x, Jaxpr):
                        walk(x)

    walk(jax.make_jaxpr(fn)(*args).jaxpr)
    return found


def _tol(dtype: Any) -> dict[str, float]:
    return {"rtol": 1e-5, "atol": 1e-5} if np.dtype(dtype).kind in "fc" else {"rtol": 0, "atol": 0}


def _weighted_sum(outputs: Any) -> Any:
    """A scalar that depends on every element of every floating-point output differently."""
    leaves = [o for o in jax.tree_util.tree_leaves(outputs) if jnp.issubdtype(o.dtype, jnp.floating)]
    return sum(jnp.sum(o * jnp.cos(jnp.arange(o.size, dtype=o.dtype).reshape(o.shape))) for o in leaves)


def _with_grads(fn: Callable[..., Any], argnums: tuple[int, ...]) -> Callable[..., Any]:
    """``fn``'s outputs and the gradients of their weighted sum, in one jitted call (one
    compilation instead of one per op: these tests are many)."""

    def both(*xs: Any) -> Any:
        grads = jax.grad(lambda *a: _weighted_sum(fn(*a)), argnums=argnums)(*xs) if argnums else ()
        return fn(*xs), grads

    return jax.jit(both)


def check(
    fn: Callable[..., Any], *args: np.ndarray, prims: tuple[str, ...], grad: bool = True, numpy: bool = True
) -> Any:
    """Transpile ``fn`` on ``args``; compare with JAX (values, dtypes, gradients)."""
    from ivy_jax.frontend import to_graph

    jargs = [jnp.asarray(a) for a in args]
    used = primitives(fn, *jargs)
    assert set(prims) <= used, f"the function does not exercise {set(prims) - used} (it uses {sorted(used)})"
    graph = to_graph(fn, tuple(jargs), {}, None)
    floats = tuple(i for i, a in enumerate(args) if grad and np.asarray(a).dtype.kind == "f")
    want, want_grads = _with_grads(fn, floats)(*jargs)
    got, got_grads = _with_grads(graph.to("jax"), floats)(*jargs)
    want, got = jax.tree_util.tree_leaves(want), jax.tree_util.tree_leaves(got)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), **_tol(w.dtype))
    for g, w in zip(got_grads, want_grads):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-4, atol=1e-5)
    if numpy:
        got_np = jax.tree_util.tree_leaves(graph.to("numpy")(*[np.asarray(a) for a in args]))
        for g, w in zip(got_np, want):
            assert np.asarray(g).dtype == np.dtype(w.dtype) and np.shape(g) == w.shape
            np.testing.assert_allclose(np.asarray(g), np.asarray(w), **_tol(w.dtype))
    return graph


# ----------------------------------------------------------------------------- element-wise

UNARY = {
    "abs": jnp.abs,
    "acos": lambda x: jnp.arccos(x / 3),
    "acosh": lambda x: jnp.arccosh(jnp.abs(x) + 1.5),
    "asin": lambda x: jnp.arcsin(x / 3),
    "asinh": jnp.arcsinh,
    "atan": jnp.arctan,
    "atanh": lambda x: jnp.arctanh(x / 3),
    "ceil": jnp.ceil,
    "floor": jnp.floor,
    "cos": jnp.cos,
    "cosh": jnp.cosh,
    "sin": jnp.sin,
    "sinh": jnp.sinh,
    "tan": jnp.tan,
    "tanh": jnp.tanh,
    "exp": jnp.exp,
    "exp2": jnp.exp2,
    "expm1": jnp.expm1,
    "log": lambda x: jnp.log(jnp.abs(x) + 0.5),
    "log1p": lambda x: jnp.log1p(jnp.abs(x)),
    "sqrt": lambda x: jnp.sqrt(jnp.abs(x) + 0.1),
    "rsqrt": lambda x: lax.rsqrt(jnp.abs(x) + 0.1),
    "cbrt": jnp.cbrt,
    "square": jnp.square,
    "sign": jnp.sign,
    "neg": jnp.negative,
    "logistic": jax.nn.sigmoid,
    "erf": jax.scipy.special.erf,
    "erfc": jax.scipy.special.erfc,
    "is_finite": jnp.isfinite,
    "round": lambda x: lax.round(x * 2),
    "integer_pow": lambda x: x**3,
}


@pytest.mark.parametrize("prim", sorted(UNARY))
def test_jax_frontend_unary(prim):
    x = f32(3, 4)
    x[0, 0] = 0.5 if prim == "round" else x[0, 0]  # a tie: rounds away from zero
    check(UNARY[prim], x, prims=(prim,), grad=prim not in {"sign", "ceil", "floor", "round", "is_finite", "cbrt"})


def test_round_to_even():
    check(jnp.round, np.array([0.5, 1.5, 2.5, -0.5, -1.7], np.float32), prims=("round",), grad=False)


BINARY = {
    "add": jnp.add,
    "sub": jnp.subtract,
    "mul": jnp.multiply,
    "div": jnp.divide,
    "max": jnp.maximum,
    "min": jnp.minimum,
    "atan2": jnp.arctan2,
    "pow": lambda x, y: jnp.power(jnp.abs(x) + 0.5, y),
    "rem": lax.rem,
    "nextafter": jnp.nextafter,
}


@pytest.mark.parametrize("prim", sorted(BINARY))
def test_binary(prim):
    x, y = f32(3, 4), f32(3, 4, seed=1)
    if prim == "rem":
        y = np.where(np.abs(y) < 0.3, 1.0, y).astype(np.float32)
    check(BINARY[prim], x, y, prims=(prim,), grad=prim not in {"nextafter", "rem"})


@pytest.mark.parametrize("prim", ["div", "rem"])
def test_integer_division_truncates(prim):
    x = np.array([7, -7, 7, -7, 6, -6], np.int32)
    y = np.array([2, 2, -2, -2, 3, 3], np.int32)
    check(getattr(lax, prim), x, y, prims=(prim,), grad=False)


def test_floor_divide_and_remainder_compositions():
    check(
        lambda x, y: (x // y, x % y),
        i32(4, 3),
        np.array([2, -3, 5], np.int32),
        prims=("div", "rem", "sign"),
        grad=False,
    )


COMPARE = {
    "eq": jnp.equal,
    "ne": jnp.not_equal,
    "lt": jnp.less,
    "le": jnp.less_equal,
    "gt": jnp.greater,
    "ge": jnp.greater_equal,
}


@pytest.mark.parametrize("prim", sorted(COMPARE))
def test_comparison(prim):
    x = i32(4, 5).astype(np.float32)
    check(COMPARE[prim], x, x.T.copy().reshape(4, 5)[::-1].copy(), prims=(prim,), grad=False)


@pytest.mark.parametrize("prim", ["and", "or", "xor", "not"])
def test_logical_and_bitwise(prim):
    fn = {"and": jnp.bitwise_and, "or": jnp.bitwise_or, "xor": jnp.bitwise_xor, "not": lambda a, b: ~a}[prim]
    a, b = i32(3, 4, lo=0, hi=100), i32(3, 4, lo=0, hi=100, seed=1)
    check(fn, a, b, prims=(prim,), grad=False)
    check(fn, a > 50, b > 50, prims=(prim,), grad=False)


def test_shifts():
    a, s = i32(3, 4, lo=-100, hi=100), i32(3, 4, lo=0, hi=5, seed=1)
    check(lambda a, s: (a << s, a >> s), a, s, prims=("shift_left", "shift_right_arithmetic"), grad=False)
    u = a.astype(np.uint32)
    check(
        lambda a, s: lax.shift_right_logical(a, s), u, s.astype(np.uint32), prims=("shift_right_logical",), grad=False
    )


def test_clamp_select_convert():
    x = f32(3, 4)
    check(lambda x: lax.clamp(np.float32(-0.5), x, np.float32(1.0)), x, prims=("clamp",))
    check(lambda x: jnp.where(x > 0, x, 0.1 * x), x, prims=("select_n",))
    check(lambda x: lax.select_n(jnp.clip(x, 0, 2).astype(jnp.int32), x, 2 * x, -x), x, prims=("select_n",))
    check(
        lambda x: (x.astype(jnp.int32), (x > 0).astype(jnp.float32), x.astype(jnp.float16)),
        x,
        prims=("convert_element_type",),
        grad=False,
    )
    check(lambda x: (x * 2).astype(jnp.float64) + 1, x, prims=("convert_element_type",))


def test_complex_real_imag():
    x, y = f32(3), f32(3, seed=1)
    check(
        lambda x, y: (jnp.real(lax.complex(x, y) * 2), jnp.imag(jnp.conj(lax.complex(x, y)))),
        x,
        y,
        prims=("complex", "real", "imag", "conj"),
        grad=False,
    )


def test_stop_gradient_cuts_the_gradient():
    check(lambda x: x * lax.stop_gradient(x), f32(4), prims=("stop_gradient",))


# ----------------------------------------------------------------------------- shapes


def test_broadcast_reshape_transpose_squeeze_rev():
    x = f32(2, 3, 1)
    check(lambda x: jnp.broadcast_to(x, (4, 2, 3, 5)), x, prims=("broadcast_in_dim",))
    check(lambda x: x.reshape(3, 2), x, prims=("reshape",))
    check(lambda x: jnp.transpose(x, (2, 0, 1)), x, prims=("transpose",))
    check(lambda x: jnp.squeeze(x, -1), x, prims=("squeeze",))
    check(lambda x: x[::-1, ::-1], x, prims=("rev",))
    check(lambda x: lax.reshape(x, (3, 2), dimensions=(1, 0, 2)), x, prims=("reshape",))


def test_concatenate_iota_split_tile():
    x, y = f32(2, 3), f32(2, 2, seed=1)
    check(lambda x, y: jnp.concatenate([x, y, x], axis=1), x, y, prims=("concatenate",))
    check(
        lambda x: x + jnp.arange(3, dtype=jnp.float32) * jnp.arange(2, dtype=jnp.float32)[:, None], x, prims=("iota",)
    )
    check(lambda x: jnp.split(x, [1], axis=1), x, prims=("split",))
    check(lambda x: jnp.tile(x, (2, 3)), x, prims=("tile",))


def test_slice_and_static_indexing():
    x = f32(5, 6)
    check(lambda x: (x[1:4, ::2], x[-1], x[..., None, 2], x[:, -3:]), x, prims=("slice", "squeeze"))


def test_pad_including_negative_and_interior():
    x = f32(3, 4)
    check(lambda x: jnp.pad(x, ((1, 2), (0, 3)), constant_values=1.5), x, prims=("pad",))
    check(lambda x: lax.pad(x, np.float32(0.0), ((-1, 2, 1), (2, -1, 2))), x, prims=("pad",))
    check(lambda x, v: lax.pad(x, v, ((1, 0, 1), (0, 0, 0))), x, np.float32(-3.0), prims=("pad",))


def test_dynamic_slice_and_update():
    x, u = f32(5, 6), f32(2, 3, seed=1)
    check(lambda x, i: lax.dynamic_slice(x, (i, jnp.int32(2)), (2, 3)), x, np.int32(2), prims=("dynamic_slice",))
    check(
        lambda x, i: lax.dynamic_slice(x, (i, jnp.int32(2)), (2, 3)), x, np.int32(9), prims=("dynamic_slice",)
    )  # clamped
    check(lambda x: lax.dynamic_slice(x, (1, 4), (2, 3)), x, prims=("dynamic_slice",))
    check(
        lambda x, u, i: lax.dynamic_update_slice(x, u, (i, jnp.int32(1))),
        x,
        u,
        np.int32(3),
        prims=("dynamic_update_slice",),
    )
    check(
        lambda x, u, i: lax.dynamic_update_slice(x, u, (i, jnp.int32(5))),
        x,
        u,
        np.int32(-2),
        prims=("dynamic_update_slice",),
    )
    check(lambda x, u: lax.dynamic_update_slice(x, u, (1, 2)), x, u, prims=("dynamic_update_slice",))
    check(lambda x, i: x[i], x, np.int32(-2), prims=("dynamic_slice",))


# ----------------------------------------------------------------------------- gather / scatter


def test_gather_from_integer_indexing():
    x = f32(5, 4, 3)
    idx = np.array([0, 4, -1, 2], np.int32)
    check(lambda x, i: x[i], x, idx, prims=("gather",))
    check(lambda x, i: x[:, i], x, np.array([[1, 0], [3, 2]], np.int32), prims=("gather",))
    check(lambda x, i, j: x[i, :, j], x, idx, np.array([0, 2, 1, 1], np.int32), prims=("gather",))
    check(lambda x, i: jnp.take_along_axis(x, i, axis=1), x, np.argsort(x, axis=1).astype(np.int32), prims=("gather",))
    check(
        lambda x, i: jnp.take(x, i, axis=2, mode="fill", fill_value=-7.0),
        x,
        np.array([0, 5, 2], np.int32),
        prims=("gather",),
    )
    check(lambda x, i: jnp.take(x, i, axis=0, mode="clip"), x, np.array([-3, 9, 2], np.int32), prims=("gather",))


def test_scatter_from_at_updates():
    x = f32(5, 3)
    idx = np.array([0, 3, 3], np.int32)
    check(lambda x: x.at[0, 1].set(5.0), x, prims=("scatter",))
    check(lambda x, i, v: x.at[i].add(v), x, idx, f32(3, 3, seed=2), prims=("scatter-add",))
    check(lambda x, i: x.at[i, 2].set(-1.0), x, np.array([4, 1], np.int32), prims=("scatter",))
    check(lambda x, i, v: x.at[i].max(v), x, idx, f32(3, 3, seed=2), prims=("scatter-max",), grad=False)
    check(lambda x, i, v: x.at[i].min(v), x, idx, f32(3, 3, seed=2), prims=("scatter-min",), grad=False)
    check(lambda x, i: x.at[i].mul(3.0, unique_indices=True), x, np.array([1, 4], np.int32), prims=("scatter-mul",))
    check(
        lambda x, i: x.at[i].set(9.0), x, np.array([1, 7, -9], np.int32), prims=("scatter",)
    )  # out of bounds: dropped
    check(lambda x, i: x.at[i].add(1.0, mode="clip"), x, np.array([1, 7], np.int32), prims=("scatter-add",))


# ----------------------------------------------------------------------------- reductions


def test_jax_frontend_reductions():
    x = f32(3, 4, 5)
    check(
        lambda x: (jnp.sum(x, (0, 2)), jnp.max(x, 1), jnp.min(x), jnp.prod(x, -1)),
        x,
        prims=("reduce_sum", "reduce_max", "reduce_min", "reduce_prod"),
    )
    b = x > 0
    check(
        lambda b: (jnp.all(b, 1), jnp.any(b, (0, 2)), lax.reduce_xor(b, (1,))),
        b,
        prims=("reduce_and", "reduce_or", "reduce_xor"),
        grad=False,
    )
    check(lambda x: (jnp.argmax(x, 1), jnp.argmin(x, -1)), x, prims=("argmax", "argmin"), grad=False)
    check(lambda x: jnp.sum(x.astype(jnp.int32), 0), x, prims=("reduce_sum",), grad=False)


def test_cumulative():
    x = f32(4, 5)
    check(
        lambda x: (jnp.cumsum(x, 0), jnp.cumprod(x, 1), lax.cumsum(x, 1, reverse=True)), x, prims=("cumsum", "cumprod")
    )
    check(lambda x: (lax.cummax(x, 1), lax.cummin(x, 0, reverse=True)), x, prims=("cummax", "cummin"))
    check(lambda x: lax.cumlogsumexp(x, 1), x, prims=("cumlogsumexp",))


def test_pooling_windows():
    nhwc = f32(2, 6, 6, 3)
    check(
        lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID"),
        nhwc,
        prims=("reduce_window_max",),
    )
    check(
        lambda x: lax.reduce_window(x, 0.0, lax.add, (1, 3, 3, 1), (1, 2, 2, 1), "SAME"),
        nhwc,
        prims=("reduce_window_sum",),
    )
    check(
        lambda x: lax.reduce_window(x, jnp.inf, lax.min, (1, 1, 2, 2), (1, 1, 1, 2), "VALID"),
        nhwc,
        prims=("reduce_window_min",),
    )
    check(
        lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (2, 3), (1, 2), ((1, 1), (0, 1))),
        f32(5, 7),
        prims=("reduce_window_max",),
    )


def test_sort_and_top_k():
    x = f32(3, 6)
    check(lambda x: (jnp.sort(x, 1), jnp.argsort(x, 0)), x, prims=("sort",))
    check(lambda x: lax.top_k(x, 3), x, prims=("top_k",))


# ----------------------------------------------------------------------------- linear algebra


def test_dot_general():
    a, b = f32(2, 3, 4), f32(2, 4, 5, seed=1)
    check(lambda a, b: a @ b, a, b, prims=("dot_general",))
    check(lambda a, w: a @ w, a, f32(4, 6, seed=2), prims=("dot_general",))
    check(lambda a, b: jnp.einsum("bij,bkj->bik", a, b), a, f32(2, 6, 4, seed=3), prims=("dot_general",))
    check(lambda a, b: jnp.einsum("bij,jbk->kib", a, b), a, f32(4, 2, 5, seed=3), prims=("dot_general",))
    check(lambda v, w: jnp.dot(v, w), f32(4), f32(4, seed=1), prims=("dot_general",))
    check(lambda a, b: a @ b, i32(2, 3), i32(3, 2, seed=1), prims=("dot_general",), grad=False)


@pytest.mark.parametrize(
    "layout",
    [("NHWC", "HWIO", "NHWC"), ("NCHW", "OIHW", "NCHW"), ("NHWC", "OIHW", "NCHW"), ("NCHW", "HWIO", "NHWC")],
)
def test_conv_layouts(layout):
    lhs = f32(2, 7, 7, 3) if layout[0] == "NHWC" else f32(2, 3, 7, 7)
    rhs = f32(3, 3, 3, 4, seed=1) if layout[1] == "HWIO" else f32(4, 3, 3, 3, seed=1)

    def conv(x, w):
        return lax.conv_general_dilated(x, w, (2, 1), ((1, 1), (0, 2)), rhs_dilation=(1, 2), dimension_numbers=layout)

    check(conv, lhs, rhs, prims=("conv_general_dilated",))


def test_conv_1d_3d_groups_and_lhs_dilation():
    check(
        lambda x, w: lax.conv_general_dilated(x, w, (1,), "SAME", dimension_numbers=("NWC", "WIO", "NWC")),
        f32(2, 9, 4),
        f32(3, 4, 5, seed=1),
        prims=("conv_general_dilated",),
    )
    check(
        lambda x, w: lax.conv_general_dilated(x, w, (1, 1, 1), "VALID", dimension_numbers=("NCDHW", "OIDHW", "NCDHW")),
        f32(1, 2, 4, 5, 5),
        f32(3, 2, 2, 2, 2, seed=1),
        prims=("conv_general_dilated",),
    )
    depthwise = ("NHWC", "HWIO", "NHWC")
    check(
        lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=depthwise, feature_group_count=4),
        f32(2, 6, 6, 4),
        f32(3, 3, 1, 4, seed=1),
        prims=("conv_general_dilated",),
    )
    check(
        lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=depthwise, feature_group_count=2),
        f32(2, 6, 6, 4),
        f32(3, 3, 2, 6, seed=1),
        prims=("conv_general_dilated",),
    )
    check(
        lambda x, w: lax.conv_transpose(x, w, (2, 2), "SAME", dimension_numbers=depthwise),
        f32(2, 4, 4, 3),
        f32(3, 3, 3, 5, seed=1),
        prims=("conv_general_dilated",),
    )
    check(
        lambda x, w: lax.conv_general_dilated(
            x, w, (1, 1), ((-1, 2), (1, -1)), lhs_dilation=(2, 1), dimension_numbers=depthwise
        ),
        f32(2, 5, 5, 3),
        f32(2, 2, 3, 2, seed=1),
        prims=("conv_general_dilated",),
    )


def _spd(x):
    return x @ jnp.swapaxes(x, -1, -2) + 3 * jnp.eye(x.shape[-1], dtype=x.dtype)


def test_decompositions():
    # sign-invariant outputs: each factor is unique only up to the signs of its vectors
    a = f32(2, 4, 4)
    check(lambda a: jnp.linalg.cholesky(_spd(a)), a, prims=("cholesky",))

    def qr(a):
        q, r = jnp.linalg.qr(a)
        return jnp.abs(r), q @ r, jnp.swapaxes(q, -1, -2) @ q

    check(qr, f32(2, 5, 3), prims=("qr",))
    check(
        lambda a: jnp.linalg.qr(a, mode="complete")[0].shape[-1] * jnp.abs(jnp.linalg.qr(a, mode="complete")[1]),
        f32(5, 3),
        prims=("qr",),
    )

    def eigh(a):
        w, v = jnp.linalg.eigh(_spd(a))
        return w, jnp.abs(v), (v * w[..., None, :]) @ jnp.swapaxes(v, -1, -2)

    check(eigh, a, prims=("eigh",))

    def svd(a):
        u, s, vt = jnp.linalg.svd(a, full_matrices=False)
        return s, jnp.abs(u), jnp.abs(vt), (u * s[..., None, :]) @ vt

    check(svd, f32(2, 5, 3), prims=("svd",))
    check(lambda a: jnp.linalg.svd(a, compute_uv=False), f32(3, 4), prims=("svd",))


def test_jax_frontend_fft():
    x = f32(3, 8)
    check(lambda x: jnp.abs(jnp.fft.fft(x)), x, prims=("fft",))
    check(lambda x: jnp.fft.irfft2(jnp.fft.rfft2(x) * jnp.arange(5.0)), x, prims=("fft",))
    check(lambda x: jnp.real(jnp.fft.ifft(jnp.fft.fft(x) * 1j)), x, prims=("fft",))


def test_total_order_comparisons():
    edges = np.array([-1.0, -0.0, 0.5, 2.0], np.float32)
    queries = np.array([np.nan, 0.0, -0.0, 0.5, 3.0, -5.0], np.float32)
    check(
        lambda e, q: (jnp.searchsorted(e, q), jnp.searchsorted(e, q, side="right")),
        edges,
        queries,
        prims=("le_to",),
        grad=False,
    )
    check(lambda e, q: jnp.interp(q, e, e * 2), edges, f32(5), prims=("lt_to",), grad=False)


# ----------------------------------------------------------------------------- calls and control flow


def test_calls_are_inlined():
    x = f32(3, 4)
    check(lambda x: jax.jit(lambda y: jnp.sin(y) * 2)(x), x, prims=("jit",))
    check(
        lambda x: (jax.nn.relu(x), jax.nn.gelu(x), jax.nn.softmax(x), jax.nn.log_softmax(x), jax.nn.silu(x)),
        x,
        prims=("custom_jvp_call",),
    )
    check(lambda x: jax.checkpoint(lambda y: jnp.tanh(y) ** 2)(x), x, prims=("remat2",))

    @jax.custom_vjp
    def clip_grad(x):
        return jnp.sin(x)

    clip_grad.defvjp(lambda x: (jnp.sin(x), x), lambda x, g: (g * jnp.cos(x),))
    check(clip_grad, x, prims=("custom_vjp_call",))


def test_scan_is_one_loop():
    x = f32(5, 3)

    def cumulative(x):
        def body(c, row):
            c = c * 0.5 + row
            return c, jnp.tanh(c)

        return lax.scan(body, jnp.zeros(3, jnp.float32), x)

    cases = [
        cumulative,
        lambda x: lax.scan(lambda c, r: (c + r, c), jnp.ones(3, jnp.float32), x, reverse=True),
        lambda x: lax.fori_loop(0, 3, lambda i, c: c * 2 + i, x),  # static bounds: a scan of (i, c)
        lambda x: lax.scan(lambda c, _: (jnp.sin(c), None), x, None, length=4)[0],
    ]
    for fn in cases:
        graph = check(fn, x, prims=("scan",))
        assert graph.ops()["scan"] == 1  # one loop in the graph, its body once
        (loop,) = [n for n in graph.nodes if n.op == "scan"]
        assert len(loop.subgraphs()) == 1


def test_scan_whose_body_cannot_be_a_subgraph_is_unrolled(monkeypatch):
    from ivy.graph import GraphTraceError
    from ivy_jax.frontend import _ops_control, to_graph

    def refuse(*args):  # what tracing a body that reads a Python value from a carried array raises
        raise GraphTraceError("data-dependent Python control flow inside the function of a control-flow op")

    monkeypatch.setattr(_ops_control, "_scan_node", refuse)

    def cumulative(x):
        return lax.scan(lambda c, r: (c * 0.5 + r, jnp.tanh(c)), jnp.zeros(3, jnp.float32), x, reverse=True)

    x = jnp.asarray(f32(4, 3))
    graph = to_graph(cumulative, (x,), {}, None)
    assert "scan" not in graph.ops() and graph.ops()["unstack"] == 1  # the rows of x, one per step
    for g, w in zip(jax.tree_util.tree_leaves(graph.to("jax")(x)), jax.tree_util.tree_leaves(cumulative(x))):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-6)


def test_while_with_static_trip_count_is_unrolled():
    def counted(x):
        return lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * 1.5 + c[0]), (0, x))[1]

    graph = check(counted, f32(4), prims=("while",), grad=False)  # JAX cannot differentiate a while loop
    grad = jax.grad(lambda x: jnp.sum(graph.to("jax")(x)))(jnp.asarray(f32(4)))  # unrolled, the target can
    np.testing.assert_allclose(np.asarray(grad), np.full(4, 1.5**3), rtol=1e-6)


def test_while_with_data_dependent_trip_count_is_one_loop():
    from ivy_jax.frontend import to_graph

    def halve_until_small(x):
        return lax.while_loop(lambda c: jnp.max(c) > 1.0, lambda c: c / 2, x)

    graph = to_graph(halve_until_small, (jnp.asarray(f32(3)),), {}, None)
    assert graph.ops()["while_loop"] == 1 and graph.ops()["divide"] == 1  # a loop, not unrolled
    prog = graph.to("jax")
    for scale in (1.0, 10.0, 1000.0):  # a trip count of its own for each input
        x = jnp.asarray(f32(3) * scale + 2.0)
        np.testing.assert_allclose(np.asarray(prog(x)), np.asarray(halve_until_small(x)), rtol=1e-6)


def test_cond_static_and_selected():
    x = f32(3, 4)
    check(lambda x: lax.cond(jnp.sum(x) > 0, jnp.sin, jnp.cos, x), x, prims=("cond",))
    check(lambda x: lax.cond(jnp.sum(x) > 0, jnp.sin, jnp.cos, x), -x, prims=("cond",))
    check(lambda x, i: lax.switch(i, [jnp.sin, jnp.cos, jnp.tanh], x), x, np.int32(2), prims=("cond",))
    graph = check(lambda x: lax.cond(True, jnp.sin, jnp.cos, x), x, prims=("cond",))
    assert "cos" not in graph.ops()  # the static branch alone


# ----------------------------------------------------------------------------- errors and coverage


def test_unsupported_primitives_are_listed_at_once():
    from ivy.errors import UnsupportedOpsError
    from ivy_jax.frontend import to_graph

    def uses_three(x):
        return jax.scipy.special.gammaln(x) + jax.scipy.special.digamma(x) + lax.population_count(x.astype(jnp.int32))

    with pytest.raises(UnsupportedOpsError) as info:
        to_graph(uses_three, (jnp.asarray(f32(3, lo=1, hi=2)),), {}, None)
    assert {"lgamma", "digamma", "population_count"} <= set(info.value.ops)
    assert all("test_jax_frontend_ops.py" in w for where in info.value.ops.values() for w in where)


def test_random_numbers_are_refused_with_advice():
    from ivy.errors import UnsupportedOpsError
    from ivy_jax.frontend import to_graph

    with pytest.raises(UnsupportedOpsError, match="deterministic"):
        to_graph(lambda x: x + jax.random.normal(jax.random.key(0), x.shape), (jnp.asarray(f32(3)),), {}, None)
    with pytest.raises(UnsupportedOpsError, match="PRNG key"):
        to_graph(lambda x, k: x + jax.random.normal(k, x.shape), (jnp.asarray(f32(3)), jax.random.key(1)), {}, None)


def test_unmapped_primitives_on_constants_fold():
    from ivy_jax.frontend import to_graph

    table = jnp.asarray(f32(4, lo=1, hi=3))
    graph = check(lambda x: x * jax.scipy.special.gammaln(table), f32(4), prims=("lgamma",))
    assert "lgamma" not in str(graph)
    assert to_graph is not None


def test_a_module_with_arithmetic_on_literals_alone():
    # Haiku's LayerNorm computes its variance's divisor from literals alone (sub 3.0 0): arrays
    # made from Python scalars must be of the backend the graph tracer computes on, in its eager
    # pass over the module too
    hk = pytest.importorskip("haiku")
    from ivy_jax.frontend import to_graph

    t = hk.transform(lambda x: hk.LayerNorm(-1, True, True)(x))
    x = jnp.asarray(f32(2, 3, 5))
    params = t.init(None, x)
    graph = to_graph(t, (x,), {}, params)
    by_chain = {f"{module}/{name}": v for module, leaves in params.items() for name, v in leaves.items()}
    assert set(graph.params) == set(by_chain) == {"layer_norm/scale", "layer_norm/offset"}
    want = np.asarray(t.apply(params, None, x))
    np.testing.assert_allclose(np.asarray(graph.to("jax")(by_chain, x)), want, rtol=1e-5, atol=1e-5)
    as_numpy = {k: np.asarray(v) for k, v in by_chain.items()}
    np.testing.assert_allclose(graph.to("numpy")(as_numpy, np.asarray(x)), want, rtol=1e-5, atol=1e-5)


def test_op_set_covers_the_lowered_primitives():
    from ivy_jax.frontend import op_set

    ops = op_set()
    assert len(ops) > 200
    mapped = {k for k, v in ops.items() if v}
    assert {"dot_general", "conv_general_dilated", "gather", "scatter-add", "scan", "while", "cond", "jit"} <= mapped
    assert ops["lgamma"] is None
