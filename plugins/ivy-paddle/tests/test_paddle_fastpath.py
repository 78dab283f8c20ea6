"""The paddle ops whose plain calls go to paddle from C (``ivy.plugin.fastpath``) give exactly what
their Python function gives, for every dtype: the dtypes those functions treat apart are ones
paddle has no kernel for, and the retry hands them (and foreign arguments) to the Python function.
The cases the Python function handles itself are checked against NumPy.

    python -m pytest plugins/ivy-paddle/tests/test_paddle_fastpath.py -q
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

ivy = pytest.importorskip("ivy")
from ivy import _dispatch

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    paddle = pytest.importorskip("paddle")

NAMES = [
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "complex64",
    "complex128",
]
#: values with every sign, zeros, and (for floating dtypes) NaN and infinities
_INT_VALUES = [-3, 0, 2, 7, -1, 5]
_FLOAT_VALUES = [-2.5, -0.0, 0.0, 1.5, np.nan, np.inf, -np.inf, 4.0, 0.25]


@pytest.fixture(scope="module")
def xp() -> Any:
    return ivy.backend_namespace("paddle")


def _fast_ops() -> list[str]:
    from ivy import _registry

    ops = _registry.get_backend("paddle").ops
    return sorted(n for n, f in ops.items() if type(f).__name__ == "FastPath")


def _fast_op(name: str) -> Any:
    from ivy import _registry

    return _registry.get_backend("paddle").ops[name]  # (names such as "linalg.matmul" included)


def _array(name: str, shape: tuple[int, ...], seed: int) -> Any:
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    if name == "bool":
        return paddle.to_tensor(rng.integers(0, 2, n).astype(bool).reshape(shape))
    if name.startswith(("int", "uint")):
        v = np.asarray(_INT_VALUES)[rng.integers(0, len(_INT_VALUES), n)]
        return paddle.cast(paddle.to_tensor(v.reshape(shape)), name)  # wraps for uint8, as a cast does
    v = np.asarray(_FLOAT_VALUES)[rng.integers(0, len(_FLOAT_VALUES), n)].reshape(shape)
    if name.startswith("complex"):
        z = np.empty(shape, name)  # (v + 1j * w would turn inf * 1j into nan + inf j)
        z.real, z.imag = v, np.asarray(_FLOAT_VALUES)[rng.integers(0, len(_FLOAT_VALUES), n)].reshape(shape)
        return paddle.to_tensor(z)
    return paddle.cast(paddle.to_tensor(v), name)


def _plain_args(name: str, dt: str) -> tuple[Any, ...]:
    a, b = _array(dt, (2, 3), 0), _array(dt, (2, 3), 1)
    if (
        name
        in (
            "add",
            "subtract",
            "multiply",
            "divide",
            "maximum",
            "minimum",
            "pow",
            "atan2",
            "nextafter",
            "greater",
            "greater_equal",
            "less",
            "less_equal",
        )
        or name.startswith("bitwise_")
        and name != "bitwise_invert"
    ):
        return (a, b)
    if name == "concat":
        return ([a, b],)
    if name == "reshape":
        return (a, (3, 2))
    if name == "permute_dims":
        return (a, (1, 0))
    if name == "where":
        return (_array("bool", (2, 3), 2), a, b)
    if name in ("matmul", "linalg.matmul"):
        return (a, _array(dt, (3, 2), 1))
    return (a,)


def _numpy(t: Any) -> np.ndarray:
    if t.dtype == paddle.bfloat16:
        t = paddle.cast(t, "float32")
    return np.asarray(t.numpy())


def _outcome(fn: Any, args: tuple[Any, ...]) -> tuple[Any, ...]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = fn(*args)
    except Exception as e:  # the error is the outcome compared
        return ("raise", type(e))
    return ("ok", str(r.dtype), tuple(r.shape), _numpy(r))


def _assert_same(got: tuple[Any, ...], want: tuple[Any, ...]) -> None:
    assert got[:3] == want[:3]
    if got[0] == "ok":
        np.testing.assert_array_equal(got[3], want[3])  # NaN equals NaN here; -0.0 == 0.0
        np.testing.assert_array_equal(np.signbit(got[3].real), np.signbit(want[3].real))


needs_c = pytest.mark.skipif(not _dispatch.C_DISPATCH, reason="ivy._cdispatch is not built")


@needs_c
def test_paddle_common_ops_are_fast_paths() -> None:
    assert {
        "sin",
        "tanh",
        "log",
        "abs",
        "add",
        "subtract",
        "multiply",
        "divide",
        "maximum",
        "greater",
        "where",
        "max",
        "mean",  # (not argmax/argmin: paddle answers an empty axis with garbage, the shape is checked first)
        "concat",
        "reshape",
        "permute_dims",
        "relu",
        "sigmoid",
        "softmax",
        "gelu",
    } <= set(_fast_ops())


@pytest.mark.parametrize("dt", NAMES)
@pytest.mark.parametrize("name", _fast_ops())
def test_paddle_fast_path_equals_python_function(name: str, dt: str) -> None:
    fn = _fast_op(name)
    args = _plain_args(name, dt)
    _assert_same(_outcome(fn, args), _outcome(fn.__ivy_python__, args))


@pytest.mark.parametrize("name", _fast_ops())
def test_paddle_foreign_arguments_get_the_python_outcome(name: str) -> None:
    # NumPy arrays carry a dtype too: paddle rejects them, and the Python function decides
    fn = _fast_op(name)
    a = np.ones((2, 3), np.float32)
    args = tuple(a if type(v) is paddle.Tensor else v for v in _plain_args(name, "float32"))
    if name == "concat":
        args = ([a, a],)
    _assert_same(_outcome(fn, args), _outcome(fn.__ivy_python__, args))


# ----------------------------------------------------- what the Python functions do, against NumPy


@pytest.mark.parametrize("dt", ["int8", "int16", "uint8"])
def test_paddle_narrow_ints_follow_numpy(xp, dt: str) -> None:
    a, b = _array(dt, (4, 3), 3), _array(dt, (4, 3), 4)
    na, nb = _numpy(a), _numpy(b)
    for name, ref in [
        ("abs", np.abs),
        ("square", np.square),
        ("round", np.round),
        ("trunc", np.trunc),
        ("isfinite", np.isfinite),
        ("isnan", np.isnan),
        ("isinf", np.isinf),
        ("sign", np.sign),
        ("max", np.max),
        ("min", np.min),
        ("argmax", np.argmax),
        ("argmin", np.argmin),
    ]:
        with np.errstate(over="ignore"):
            want = ref(na)
        got = getattr(xp, name)(a)
        np.testing.assert_array_equal(_numpy(got), want, err_msg=name)
        if name not in ("argmax", "argmin"):
            assert _numpy(got).dtype == np.asarray(want).dtype, name
    for name, ref in [
        ("add", np.add),
        ("subtract", np.subtract),
        ("multiply", np.multiply),
        ("maximum", np.maximum),
        ("minimum", np.minimum),
        ("greater", np.greater),
    ]:
        with np.errstate(over="ignore"):
            want = ref(na, nb)  # wraps around like the narrow type
        got = getattr(xp, name)(a, b)
        np.testing.assert_array_equal(_numpy(got), want, err_msg=name)
        assert _numpy(got).dtype == want.dtype, name
    c = _array("bool", (4, 3), 5)
    np.testing.assert_array_equal(_numpy(xp.where(c, a, b)), np.where(_numpy(c), na, nb))
    assert xp.where(c, a, b).dtype == a.dtype


def test_paddle_bool_inputs_follow_the_standard(xp) -> None:
    a = _array("bool", (2, 3), 6)
    na = _numpy(a)
    np.testing.assert_array_equal(_numpy(xp.sign(a)), na)
    np.testing.assert_array_equal(_numpy(xp.isinf(a)), np.zeros_like(na))
    np.testing.assert_array_equal(_numpy(xp.isfinite(a)), np.ones_like(na))
    np.testing.assert_array_equal(_numpy(xp.signbit(a)), np.zeros_like(na))
    assert bool(xp.max(a)) == bool(na.max()) and int(xp.argmax(a)) == int(np.argmax(na))
    with pytest.raises(TypeError, match="bool"):
        xp.negative(a)
    # a condition that is not bool means "!= 0" (paddle.where itself would refuse it)
    c = paddle.to_tensor([2, 0, -1])
    np.testing.assert_array_equal(_numpy(xp.where(c, paddle.ones([3]), paddle.zeros([3]))), [1.0, 0.0, 1.0])


def test_paddle_mixed_dtypes_and_bad_arguments_take_the_python_path(xp) -> None:
    f32, f64 = paddle.ones([2], "float32"), paddle.ones([3], "float64")
    out = xp.concat([f32, f64])
    assert out.dtype == paddle.float64 and list(out.shape) == [5]
    assert xp.add(f32, paddle.to_tensor(2.0, "float64")).dtype == paddle.float64
    with pytest.raises(ValueError, match="zero-dimensional"):
        xp.matmul(paddle.to_tensor(2.0), paddle.to_tensor(3.0))
    x = paddle.ones([2, 3])
    assert list(xp.reshape(x, 6).shape) == [6]
    assert list(xp.reshape(x, np.array([3, 2])).shape) == [3, 2]  # paddle itself takes no arrays
    with pytest.raises(TypeError):
        xp.permute_dims(x, 1)


def test_paddle_sqrt_is_correctly_rounded(xp) -> None:
    rng = np.random.default_rng(7)
    specials = [0.0, -0.0, np.inf, -np.inf, np.nan, -1.0, 1e-45, 1e-40, 3.4028235e38, 2.0, 0.5]
    for dt in (np.float32, np.float64):
        v = np.concatenate(
            [np.asarray(specials, dt), np.exp(rng.uniform(-80, 80, 5000)).astype(dt), rng.random(5000).astype(dt)]
        )
        with np.errstate(invalid="ignore"):
            want = np.sqrt(v)
        got = _numpy(xp.sqrt(paddle.to_tensor(v)))
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))  # sqrt(-0) is -0


def test_paddle_float_ops_follow_numpy(xp) -> None:
    a, b = _array("float64", (3, 3), 8), _array("float64", (3, 3), 9)
    na, nb = _numpy(a), _numpy(b)
    with np.errstate(all="ignore"):
        for name, ref in [("negative", np.negative), ("abs", np.abs), ("sign", np.sign)]:
            np.testing.assert_array_equal(_numpy(getattr(xp, name)(a)), ref(na), err_msg=name)
        for name, ref in [
            ("add", np.add),
            ("subtract", np.subtract),
            ("divide", np.divide),
            ("maximum", np.maximum),
            ("greater", np.greater),
        ]:
            np.testing.assert_array_equal(_numpy(getattr(xp, name)(a, b)), ref(na, nb), err_msg=name)
    finite = paddle.to_tensor(np.nan_to_num(na, nan=1.0, posinf=3.0, neginf=-3.0))
    nf = _numpy(finite)
    np.testing.assert_allclose(float(xp.mean(finite)), nf.mean(), rtol=1e-12)
    np.testing.assert_allclose(_numpy(xp.exp(finite)), np.exp(nf), rtol=1e-14)  # (paddle: exp(-inf) > 0)
    assert float(xp.max(finite)) == nf.max() and int(xp.argmax(finite)) == int(np.argmax(nf))
    np.testing.assert_allclose(_numpy(xp.softmax(finite)), np.exp(nf) / np.exp(nf).sum(-1, keepdims=True), rtol=1e-12)
    np.testing.assert_array_equal(_numpy(xp.relu(finite)), np.maximum(nf, 0))


def test_paddle_trunc_of_integers_is_exact():
    # paddle's own int64 trunc goes through float64 and rounds 2**53 + 1
    big = np.array([2**53 + 1, -(2**62) - 1, 7], dtype=np.int64)
    for xp_call in (ivy.trunc, ivy.backend_namespace("paddle").trunc):
        np.testing.assert_array_equal(xp_call(paddle.to_tensor(big)).numpy(), big)
    np.testing.assert_array_equal(ivy.trunc(paddle.to_tensor([1.5, -2.5], dtype="float32")).numpy(), [1.0, -2.0])
