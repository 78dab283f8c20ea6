"""The NumPy frontend's tables: each mapped ufunc and function through a tiny NumPy function.

Each case reads a function into an Ivy graph (``to_graph``), checks that NumPy really dispatched
the call under test to the tracer, and compares the graph's NumPy program with the function run
by NumPy itself (values, dtypes, shapes). Gradients are checked in the acceptance tests
(``tests/test_transpile_from_numpy.py``), on targets with autodiff. Run with ``--backend numpy``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ivy


@pytest.fixture(autouse=True)
def _numpy_backend(backend: str) -> None:
    if backend != "numpy":
        pytest.skip("the NumPy frontend's own tests run in the numpy process")


def f32(*shape: int, seed: int = 0, lo: float = -2.0, hi: float = 2.0) -> np.ndarray:
    return np.random.default_rng(seed).uniform(lo, hi, shape).astype(np.float32)


def i64(*shape: int, lo: int = -5, hi: int = 6, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).integers(lo, hi, shape).astype(np.int64)


def check(fn: Callable[..., Any], *args: np.ndarray, calls: tuple[str, ...], rtol: float = 1e-5) -> Any:
    """Read ``fn`` on ``args``; compare the graph's NumPy program with NumPy."""
    from ivy_numpy.frontend import probe, to_graph

    seen = set(probe(fn, args).names)
    assert set(calls) <= seen, f"the function does not call {set(calls) - seen} (it calls {sorted(seen)})"
    graph = to_graph(fn, args, {}, None)
    want = fn(*[a.copy() for a in args])
    want = list(want) if isinstance(want, (tuple, list)) else [want]
    got = graph.to("numpy")(*args)
    got = list(got) if isinstance(got, (tuple, list)) else [got]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, w.dtype, g.shape, w.shape)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=1e-6)
    return graph


UNARY = {
    "negative": np.negative,
    "positive": np.positive,
    "absolute": np.abs,
    "fabs": np.fabs,
    "exp": np.exp,
    "expm1": np.expm1,
    "log": lambda x: np.log(np.abs(x) + 0.5),
    "log2": lambda x: np.log2(np.abs(x) + 0.5),
    "log10": lambda x: np.log10(np.abs(x) + 0.5),
    "log1p": lambda x: np.log1p(np.abs(x)),
    "sqrt": lambda x: np.sqrt(np.abs(x)),
    "square": np.square,
    "reciprocal": lambda x: np.reciprocal(x + 3),
    "sin": np.sin,
    "cos": np.cos,
    "tan": np.tan,
    "arcsin": lambda x: np.arcsin(x / 3),
    "arccos": lambda x: np.arccos(x / 3),
    "arctan": np.arctan,
    "sinh": np.sinh,
    "cosh": np.cosh,
    "tanh": np.tanh,
    "arcsinh": np.arcsinh,
    "arccosh": lambda x: np.arccosh(np.abs(x) + 1),
    "arctanh": lambda x: np.arctanh(x / 3),
    "floor": np.floor,
    "ceil": np.ceil,
    "trunc": np.trunc,
    "rint": lambda x: np.rint(x * 2),
    "sign": np.sign,
    "isnan": lambda x: np.isnan(np.log(x)),
    "isinf": lambda x: np.isinf(np.exp(x * 60)),
    "isfinite": lambda x: np.isfinite(np.exp(x * 60)),
    "signbit": np.signbit,
    "logical_not": lambda x: np.logical_not(x > 0),
}


@pytest.mark.parametrize("name", list(UNARY))
def test_unary_ufuncs(name: str) -> None:
    with np.errstate(all="ignore"):
        check(UNARY[name], f32(3, 4), calls=(name,))


BINARY = {
    "add": np.add,
    "subtract": np.subtract,
    "multiply": np.multiply,
    "divide": lambda x, y: x / (np.abs(y) + 0.5),
    "floor_divide": lambda x, y: x // (np.abs(y) + 0.5),
    "remainder": lambda x, y: x % (np.abs(y) + 0.5),
    "power": lambda x, y: (np.abs(x) + 0.5) ** y,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "arctan2": np.arctan2,
    "hypot": np.hypot,
    "logaddexp": np.logaddexp,
    "copysign": np.copysign,
    "equal": lambda x, y: x == np.round(y),
    "not_equal": lambda x, y: x != y,
    "less": np.less,
    "less_equal": np.less_equal,
    "greater": np.greater,
    "greater_equal": np.greater_equal,
    "logical_and": lambda x, y: np.logical_and(x > 0, y > 0),
    "logical_or": lambda x, y: np.logical_or(x > 0, y > 0),
    "logical_xor": lambda x, y: np.logical_xor(x > 0, y > 0),
    "matmul": lambda x, y: x @ y.T,
}


@pytest.mark.parametrize("name", list(BINARY))
def test_binary_ufuncs_broadcast(name: str) -> None:
    y = f32(3, 4, seed=1) if name == "matmul" else f32(4, seed=1)
    check(BINARY[name], f32(2, 3, 4), y, calls=(name,))


def test_integer_ufuncs_and_bitwise() -> None:
    def fn(a: Any, b: Any) -> Any:
        return a & b, a | b, a ^ b, ~a, a // np.where(b == 0, 1, b), a % np.where(b == 0, 1, b), a << 2, a >> 1

    check(
        fn,
        i64(3, 4),
        i64(3, 4, seed=1),
        calls=(
            "bitwise_and",
            "bitwise_or",
            "bitwise_xor",
            "invert",
            "floor_divide",
            "remainder",
            "left_shift",
            "right_shift",
        ),
    )


def test_numpy_promotion_is_kept() -> None:
    """float32 with a Python float stays float32; with a float64 array it becomes float64; ints
    divided give float64; mean of ints is float64."""

    def fn(x: Any, y: Any, i: Any) -> Any:
        return x * 2.5, x + y, i / 2, np.mean(i), np.sum(x > 0)

    check(fn, f32(3), np.arange(3.0), i64(3), calls=("multiply", "add", "divide", "mean", "sum"))


REDUCTIONS = {
    "sum": lambda x: np.sum(x, axis=1),
    "mean": lambda x: x.mean(axis=(0, 2), keepdims=True),
    "max": lambda x: np.max(x, axis=-1),
    "min": lambda x: x.min(),
    "amax": lambda x: np.amax(x, 0),
    "prod": lambda x: np.prod(x / 2, axis=0),
    "std": lambda x: np.std(x, axis=1, ddof=1),
    "var": lambda x: x.var(axis=2),
    "argmax": lambda x: np.argmax(x, axis=1),
    "argmin": lambda x: np.argmin(x),
    "all": lambda x: np.all(x > -1.5, axis=1),
    "any": lambda x: (x > 1.5).any(),
    "cumsum": lambda x: np.cumsum(x, axis=1),
    "cumprod": lambda x: np.cumprod(x / 2, axis=2),
}


@pytest.mark.parametrize("name", list(REDUCTIONS))
def test_numpy_frontend_reductions(name: str) -> None:
    check(REDUCTIONS[name], f32(2, 3, 4), calls=(name,))


SHAPES = {
    "reshape": lambda x: x.reshape(4, -1),
    "transpose": lambda x: np.transpose(x, (2, 0, 1)) + x.T.sum(),
    "moveaxis": lambda x: np.moveaxis(x, 0, -1),
    "swapaxes": lambda x: x.swapaxes(0, 2),
    "squeeze": lambda x: np.squeeze(x[:1]),
    "expand_dims": lambda x: np.expand_dims(x, (0, 2)),
    "concatenate": lambda x: np.concatenate([x, x * 2], axis=1),
    "stack": lambda x: np.stack([x, -x], axis=-1),
    "hstack": lambda x: np.hstack([x[0], x[1]]),
    "vstack": lambda x: np.vstack([x[0], x[1, 0]]),
    "tile": lambda x: np.tile(x, (1, 2, 1)),
    "repeat": lambda x: np.repeat(x, 2, axis=1),
    "flip": lambda x: np.flip(x, axis=1),
    "roll": lambda x: np.roll(x, 2, axis=2),
    "broadcast_to": lambda x: np.broadcast_to(x[0], (5, 3, 4)),
    "split": lambda x: np.split(x, [1, 3], axis=2),
    "pad": lambda x: np.pad(x, ((0, 0), (1, 2), (2, 0)), mode="reflect"),
    "ndarray.__getitem__": lambda x: (x[1, ::2], x[..., None, -1], x[:, [2, 0]]),
}


@pytest.mark.parametrize("name", list(SHAPES))
def test_shape_functions(name: str) -> None:
    check(SHAPES[name], f32(2, 3, 4), calls=(name,))


def test_setitem_is_functional() -> None:
    def fn(x: Any) -> Any:
        y = x * 1.0
        y[0, 1:3] = -1.0
        y[:, 0] += 5.0
        return y, x

    check(fn, f32(3, 4), calls=("ndarray.__setitem__",))


LINALG = {
    "dot": lambda a, b: np.dot(a, b),
    "tensordot": lambda a, b: np.tensordot(a, b, axes=([1], [0])),
    "einsum": lambda a, b: np.einsum("ij,jk->ik", a, b),
    "outer": lambda a, b: np.outer(a[0], b[:, 1]),
    "trace": lambda a, b: np.trace(a @ b),
    "linalg.norm": lambda a, b: (np.linalg.norm(a), np.linalg.norm(b, axis=0)),
    "linalg.inv": lambda a, b: np.linalg.inv(a @ a.T + 4 * np.eye(3, dtype=np.float32)),
    "linalg.det": lambda a, b: np.linalg.det(a @ b),
    "linalg.solve": lambda a, b: np.linalg.solve(a @ a.T + 4 * np.eye(3, dtype=np.float32), a),
}


@pytest.mark.parametrize("name", list(LINALG))
def test_linear_algebra(name: str) -> None:
    check(LINALG[name], f32(3, 4), f32(4, 3, seed=1), calls=(name,), rtol=1e-4)


def test_selection_sorting_and_creation_like() -> None:
    def fn(x: Any, i: Any) -> Any:
        return (
            np.where(x > 0, x, 0.1 * x),
            np.clip(x, -1, 1),
            np.sort(x, axis=0),
            np.argsort(x),
            np.take(x, i, axis=1),
            np.take_along_axis(x, np.argsort(x, axis=1), axis=1),
            np.zeros_like(x),
            np.ones_like(x, dtype=np.int32),
            np.round(x, 1),
            np.diff(x, axis=1),
        )

    check(
        fn,
        f32(3, 4),
        np.array([3, 0, 3], np.int64),
        calls=(
            "where",
            "clip",
            "sort",
            "argsort",
            "take",
            "take_along_axis",
            "zeros_like",
            "ones_like",
            "round",
            "diff",
        ),
    )


def test_constants_made_inside_are_graph_constants() -> None:
    graph = check(
        lambda x: x * np.arange(4, dtype=np.float32) + np.ones((3, 1), np.float32), f32(3, 4), calls=("multiply", "add")
    )
    assert len(graph.inputs) == 1


def test_unsupported_calls_are_all_listed_with_their_lines() -> None:
    from ivy_numpy.frontend import to_graph

    def fn(x: Any) -> Any:
        return np.i0(x) + np.percentile(x, 50) + np.sinc(x)

    with pytest.raises(ivy.errors.UnsupportedOpsError) as info:
        to_graph(fn, (f32(5),), {}, None)
    assert set(info.value.ops) == {"i0", "percentile", "sinc"}
    assert all("test_numpy_frontend_ops.py" in w[0] for w in info.value.ops.values())


def test_an_unsupported_option_is_named() -> None:
    from ivy_numpy.frontend import to_graph

    with pytest.raises(ivy.errors.UnsupportedOpsError, match="order"):
        to_graph(lambda x: np.reshape(x, (2, 2), order="F"), (f32(4),), {}, None)


def test_op_set_lists_ufuncs_and_functions() -> None:
    from ivy_numpy.frontend import op_set

    ops = op_set()
    assert ops["add"] == "ivy.add" and ops["linalg.norm"] and ops["percentile"] is None
    assert len(ops) > 300


def test_python_operators_and_methods() -> None:
    def fn(x: Any) -> Any:
        y = (-x + 1) * 2 - x / 3 + abs(x) ** 2 - (x // 0.7) % 1.5
        return y @ y.T, ~(x > 0), y.astype(np.float64).sum(axis=0), y.reshape(-1)[::3], y.T.flatten()

    check(fn, f32(3, 4), calls=("negative", "absolute", "power", "matmul", "invert", "ndarray.astype", "reshape"))


COMPOSED_UFUNCS = {
    "exp2": np.exp2, "cbrt": np.cbrt, "deg2rad": np.deg2rad, "radians": np.radians, "rad2deg": np.rad2deg,
    "degrees": np.degrees, "fmod": lambda x: np.fmod(x, 0.7), "float_power": lambda x: np.float_power(np.abs(x), 1.5),
    "heaviside": lambda x: np.heaviside(np.round(x), 0.5), "logaddexp2": lambda x: np.logaddexp2(x, -x),
}  # fmt: skip


@pytest.mark.parametrize("name", list(COMPOSED_UFUNCS))
def test_composed_ufuncs(name: str) -> None:
    check(COMPOSED_UFUNCS[name], f32(3, 4), calls=(name,))


FFT = {
    "fft.fft": lambda x: np.fft.fft(x, axis=0), "fft.ifft": lambda x: np.fft.ifft(x, n=6),
    "fft.rfft": lambda x: np.fft.rfft(x), "fft.irfft": lambda x: np.fft.irfft(np.fft.rfft(x), n=4),
    "fft.fftn": lambda x: np.fft.fftn(x), "fft.ifftn": lambda x: np.fft.ifftn(x, axes=(0,)),
    "fft.rfftn": lambda x: np.fft.rfftn(x, norm="ortho"),
    "fft.irfftn": lambda x: np.fft.irfftn(np.fft.rfftn(x), s=(3, 4), axes=(0, 1)),
}  # fmt: skip


@pytest.mark.parametrize("name", list(FFT))
def test_numpy_frontend_fft(name: str) -> None:
    check(FFT[name], f32(3, 4), calls=(name,), rtol=1e-4)


def test_decompositions_and_matrix_functions() -> None:
    def fn(a: Any, v: Any) -> Any:
        spd = a @ a.T + 3 * np.eye(3, dtype=np.float32)
        w, q = np.linalg.eigh(spd)
        s = np.linalg.svd(a, compute_uv=False)
        sign, logdet = np.linalg.slogdet(spd)
        return (w, np.abs(q[:, 0]), s, sign * logdet, np.linalg.matrix_power(spd, 2), np.cross(v, v[::-1]),
                np.tril(spd, -1), np.triu(spd), np.diagonal(spd), np.linalg.pinv(a) @ a)  # fmt: skip

    check(fn, f32(3, 3), f32(2, 3, seed=1), rtol=1e-4,
          calls=("linalg.eigh", "linalg.svd", "linalg.slogdet", "linalg.matrix_power", "cross", "tril", "triu",
                 "diagonal", "linalg.pinv"))  # fmt: skip


def test_statistics() -> None:
    def fn(x: Any, w: Any) -> Any:
        return np.median(x), np.median(x, axis=1, keepdims=True), np.median(x[:3], axis=0), \
            np.average(x, axis=1, weights=w), np.average(x), np.ravel(x.T)  # fmt: skip

    check(fn, f32(4, 5), np.abs(f32(5, seed=1)) + 0.1, calls=("median", "average", "ravel"))
