"""The paddle frontend's op table, op by op: a tiny paddle function per mapped PIR op, read into an
Ivy graph and run on paddle and on NumPy, against paddle running the function itself (values,
shapes, dtypes), with gradients against paddle's autograd.

Run with ``--backend paddle``. Each case checks that paddle's static program of the function
does use the op it tests.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import ivy


@pytest.fixture(autouse=True)
def _paddle_only(backend: str) -> None:
    if backend != "paddle":
        pytest.skip("the paddle frontend's tests run in the paddle process (--backend paddle)")


_rng = np.random.default_rng(0)


def _f32(*shape: int, lo: float = -2.0, hi: float = 2.0) -> Callable[[], Any]:
    def make() -> Any:
        import paddle

        return paddle.to_tensor(_rng.uniform(lo, hi, shape).astype("float32"))

    return make


def _i64(*shape: int, lo: int = 0, hi: int = 5) -> Callable[[], Any]:
    def make() -> Any:
        import paddle

        return paddle.to_tensor(_rng.integers(lo, hi, shape).astype("int64"))

    return make


@dataclass
class Case:
    op: str  # the PIR op the function's program must use
    fn: Callable[..., Any]
    inputs: tuple[Callable[[], Any], ...]
    grad: bool = True  # compare gradients w.r.t. the float inputs with paddle's
    rtol: float = 1e-5


def _p() -> Any:
    import paddle

    return paddle


def _F() -> Any:
    import paddle.nn.functional as F

    return F


# the functions are module-level defs: paddle.jit.to_static reads their source
def relu(x):
    return _F().relu(x)


def gelu(x):
    return _F().gelu(x)


def gelu_tanh(x):
    return _F().gelu(x, approximate=True)


def silu(x):
    return _F().silu(x)


def sigmoid(x):
    return _F().sigmoid(x)


def tanh(x):
    return _p().tanh(x)


def exp(x):
    return _p().exp(x)


def log(x):
    return _p().log(x)


def sqrt(x):
    return _p().sqrt(x)


def rsqrt(x):
    return _p().rsqrt(x)


def abs_(x):
    return _p().abs(x)


def leaky_relu(x):
    return _F().leaky_relu(x, 0.1)


def elu(x):
    return _F().elu(x, 0.7)


def softplus(x):
    return _F().softplus(x, beta=2.0)


def hardswish(x):
    return _F().hardswish(x)


def hardsigmoid(x):
    return _F().hardsigmoid(x)


def relu6(x):
    return _F().relu6(x)


def softmax(x):
    return _F().softmax(x, axis=1)


def log_softmax(x):
    return _F().log_softmax(x, axis=-1)


def add(x, y):
    return x + y


def subtract(x, y):
    return x - y


def multiply(x, y):
    return x * y


def divide(x, y):
    return x / y


def maximum(x, y):
    return _p().maximum(x, y)


def minimum(x, y):
    return _p().minimum(x, y)


def greater(x, y):
    return _p().cast(x > y, "float32") * x


def where(x, y):
    return _p().where(x > 0, x, y)


def scale(x):
    return x * 3.0 + 1.5


def pow_(x):
    return x**3


def clip(x):
    return _p().clip(x, -0.5, 0.7)


def cast(x):
    return _p().cast(x, "float64")


def sum_(x):
    return _p().sum(x, axis=[0, 2])


def sum_all(x):
    return _p().sum(x)


def mean(x):
    return _p().mean(x, axis=-1, keepdim=True)


def max_(x):
    return _p().max(x, axis=1)


def min_(x):
    return _p().min(x, axis=0)


def prod(x):
    return _p().prod(x, axis=1)


def logsumexp(x):
    return _p().logsumexp(x, axis=-1)


def argmax(x):
    return _p().argmax(x, axis=1)


def cumsum(x):
    return _p().cumsum(x, axis=1)


def matmul(x, y):
    return _p().matmul(x, y)


def matmul_t(x, y):
    return _p().matmul(x, y, transpose_y=True)


def reshape(x):
    return _p().reshape(x, [4, -1])


def transpose(x):
    return _p().transpose(x, [2, 0, 1])


def flatten(x):
    return _p().flatten(x, 1)


def squeeze(x):
    return _p().squeeze(x, 1)


def unsqueeze(x):
    return _p().unsqueeze(x, [0, 2])


def concat(x, y):
    return _p().concat([x, y], axis=1)


def stack(x, y):
    return _p().stack([x, y], axis=1)


def split_num(x):
    a, b = _p().split(x, 2, axis=1)
    return a * b


def split_sections(x):
    a, b = _p().split(x, [1, -1], axis=1)
    return a + b.sum(axis=1, keepdim=True)


def slice_(x):
    return x[:, 1:3]


def slice_decrease(x):
    return x[1]


def strided_slice(x):
    return x[:, ::2]


def expand(x):
    return _p().expand(x, [3, 2, 4])


def tile(x):
    return _p().tile(x, [2, 1])


def gather(x, i):
    return _p().gather(x, i, axis=0)


def index_select(x, i):
    return _p().index_select(x, i, axis=1)


def take_along(x, i):
    return _p().take_along_axis(x, i, axis=1)


def tril(x):
    return _p().tril(x, -1)


def triu(x):
    return _p().triu(x, 1)


def flip(x):
    return _p().flip(x, [0])


def conv2d(x, w):
    return _F().conv2d(x, w, stride=2, padding=1)


def conv2d_dilated(x, w):
    return _F().conv2d(x, w, padding=[1, 0], dilation=2)


def conv2d_groups(x, w):
    return _F().conv2d(x, w, padding="SAME", groups=2)


def conv2d_depthwise(x, w):
    return _F().conv2d(x, w, padding=1, groups=4)


def conv2d_nhwc(x, w):
    return _F().conv2d(x, w, padding=1, data_format="NHWC")


def max_pool(x):
    return _F().max_pool2d(x, 2)


def max_pool_pad(x):
    return _F().max_pool2d(x, 3, stride=2, padding=1)


def avg_pool(x):
    return _F().avg_pool2d(x, 3, stride=1, padding=1)


def adaptive_avg(x):
    return _F().adaptive_avg_pool2d(x, 2)


def global_avg(x):
    return _F().adaptive_avg_pool2d(x, 1)


def batch_norm(x, m, v, w, b):
    return _F().batch_norm(x, m, v, w, b, training=False, epsilon=1e-3)


def batch_norm_train(x, m, v, w, b):
    return _F().batch_norm(x, m, v, w, b, training=True, momentum=0.8)


def layer_norm(x, w, b):
    return _F().layer_norm(x, [4], w, b)


def layer_norm_2d(x, w, b):
    return _F().layer_norm(x, [3, 4], w, b)  # paddle keeps the weight flat


def embedding(i, w):
    return _F().embedding(i, w)


def dropout_eval(x):
    return _F().dropout(x, 0.3, training=False)


def conv1d(x, w):
    return _F().conv1d(x, w, padding=1)


def conv2d_transpose(x, w):
    return _F().conv2d_transpose(x, w, stride=2, padding=1, output_padding=1)


def group_norm(x, w, b):
    return _F().group_norm(x, 2, weight=w, bias=b)


def instance_norm(x, w, b):
    return _F().instance_norm(x, weight=w, bias=b)


def prelu(x, a):
    return _F().prelu(x, a)


def pad_reflect(x):
    return _F().pad(x, [1, 2, 0, 1], mode="reflect")


def pad_constant(x):
    return _F().pad(x, [1, 0, 2, 1], value=0.5)


def adaptive_max(x):
    return _F().adaptive_max_pool2d(x, [2, 3])


def adaptive_max_uneven(x):
    return _F().adaptive_max_pool2d(x, 3)


def nearest(x):
    return _F().interpolate(x, scale_factor=2, mode="nearest")


def nearest_size(x):
    return _F().interpolate(x, size=[7, 5], mode="nearest")


def one_hot(i):
    return _F().one_hot(i, 5)


def topk(x):
    v, i = _p().topk(x, 2, axis=-1)
    return v * _p().cast(i, "float32")


def sort_(x):
    return _p().sort(x, axis=0, descending=True)


def argsort(x):
    return _p().argsort(x, axis=-1)


def any_(x):
    return _p().any(x > 0, axis=1)


def all_(x):
    return _p().all(x > -1)


def masked_fill(x):
    return _p().masked_fill(x, x > 0, 0.5)


def normalize(x):
    return _F().normalize(x, axis=-1)


def var_std(x):
    return x.var(axis=1) + x.std()


def bilinear(x):
    return _F().interpolate(x, size=[7, 5], mode="bilinear")


def bilinear_corners(x):
    return _F().interpolate(x, scale_factor=2, mode="bilinear", align_corners=True)


def linear_1d(x):
    return _F().interpolate(x, scale_factor=1.5, mode="linear", data_format="NCW")


def gathered_shape(x):
    return _p().reshape(x, [x.shape[0], -1])


CASES = [
    Case("pd_op.relu", relu, (_f32(3, 4),)),
    Case("pd_op.gelu", gelu, (_f32(3, 4),)),
    Case("pd_op.gelu", gelu_tanh, (_f32(3, 4),)),
    Case("pd_op.silu", silu, (_f32(3, 4),)),
    Case("pd_op.sigmoid", sigmoid, (_f32(3, 4),)),
    Case("pd_op.tanh", tanh, (_f32(3, 4),)),
    Case("pd_op.exp", exp, (_f32(3, 4),)),
    Case("pd_op.log", log, (_f32(3, 4, lo=0.1),)),
    Case("pd_op.sqrt", sqrt, (_f32(3, 4, lo=0.1),)),
    Case("pd_op.rsqrt", rsqrt, (_f32(3, 4, lo=0.1),)),
    Case("pd_op.abs", abs_, (_f32(3, 4),)),
    Case("pd_op.leaky_relu", leaky_relu, (_f32(3, 4),)),
    Case("pd_op.elu", elu, (_f32(3, 4),)),
    Case("pd_op.softplus", softplus, (_f32(3, 4),)),
    Case("pd_op.hardswish", hardswish, (_f32(3, 4, lo=-5, hi=5),)),
    Case("pd_op.hardsigmoid", hardsigmoid, (_f32(3, 4, lo=-5, hi=5),)),
    Case("pd_op.relu6", relu6, (_f32(3, 4, lo=-8, hi=8),)),
    Case("pd_op.softmax", softmax, (_f32(2, 3, 4),)),
    Case("pd_op.log_softmax", log_softmax, (_f32(2, 3, 4),)),
    Case("pd_op.add", add, (_f32(2, 3, 4), _f32(3, 1))),
    Case("pd_op.subtract", subtract, (_f32(2, 3), _f32(3))),
    Case("pd_op.multiply", multiply, (_f32(2, 3), _f32(2, 3))),
    Case("pd_op.divide", divide, (_f32(2, 3), _f32(2, 3, lo=0.5))),
    Case("pd_op.maximum", maximum, (_f32(2, 3), _f32(2, 3))),
    Case("pd_op.minimum", minimum, (_f32(2, 3), _f32(2, 3))),
    Case("pd_op.greater_than", greater, (_f32(2, 3), _f32(2, 3))),
    Case("pd_op.where", where, (_f32(2, 3), _f32(2, 3))),
    Case("pd_op.scale", scale, (_f32(2, 3),)),
    Case("pd_op.elementwise_pow", pow_, (_f32(2, 3),)),
    Case("pd_op.clip", clip, (_f32(2, 3),)),
    Case("pd_op.cast", cast, (_f32(2, 3),)),
    Case("pd_op.sum", sum_, (_f32(2, 3, 4),)),
    Case("pd_op.sum", sum_all, (_f32(2, 3, 4),)),
    Case("pd_op.mean", mean, (_f32(2, 3, 4),)),
    Case("pd_op.max", max_, (_f32(2, 3, 4),)),
    Case("pd_op.min", min_, (_f32(2, 3, 4),)),
    Case("pd_op.prod", prod, (_f32(2, 3, 4),)),
    Case("pd_op.logsumexp", logsumexp, (_f32(2, 3, 4),)),
    Case("pd_op.argmax", argmax, (_f32(2, 5),), grad=False),
    Case("pd_op.cumsum", cumsum, (_f32(2, 5),)),
    Case("pd_op.matmul", matmul, (_f32(2, 3, 4), _f32(4, 5))),
    Case("pd_op.matmul", matmul_t, (_f32(2, 3, 4), _f32(2, 5, 4))),
    Case("pd_op.reshape", reshape, (_f32(2, 3, 4),)),
    Case("pd_op.transpose", transpose, (_f32(2, 3, 4),)),
    Case("pd_op.flatten", flatten, (_f32(2, 3, 4),)),
    Case("pd_op.squeeze", squeeze, (_f32(2, 1, 4),)),
    Case("pd_op.unsqueeze", unsqueeze, (_f32(2, 4),)),
    Case("pd_op.concat", concat, (_f32(2, 3), _f32(2, 2))),
    Case("pd_op.stack", stack, (_f32(2, 3), _f32(2, 3))),
    Case("pd_op.split_with_num", split_num, (_f32(2, 4),)),
    Case("pd_op.split", split_sections, (_f32(2, 4),)),
    Case("pd_op.slice", slice_, (_f32(2, 5),)),
    Case("pd_op.slice", slice_decrease, (_f32(3, 5),)),
    Case("pd_op.strided_slice", strided_slice, (_f32(2, 5),)),
    Case("pd_op.expand", expand, (_f32(2, 1),)),
    Case("pd_op.tile", tile, (_f32(2, 3),)),
    Case("pd_op.gather", gather, (_f32(4, 3), _i64(5, hi=4))),
    Case("pd_op.index_select", index_select, (_f32(2, 4), _i64(3, hi=4))),
    Case("pd_op.take_along_axis", take_along, (_f32(2, 4), _i64(2, 3, hi=4))),
    Case("pd_op.tril", tril, (_f32(4, 4),)),
    Case("pd_op.triu", triu, (_f32(4, 4),)),
    Case("pd_op.flip", flip, (_f32(3, 2),)),
    Case("pd_op.conv2d", conv2d, (_f32(2, 3, 7, 7), _f32(4, 3, 3, 3)), rtol=1e-4),
    Case("pd_op.conv2d", conv2d_dilated, (_f32(2, 3, 7, 7), _f32(4, 3, 3, 3)), rtol=1e-4),
    Case("pd_op.conv2d", conv2d_groups, (_f32(2, 4, 6, 6), _f32(6, 2, 3, 3)), rtol=1e-4),
    Case("pd_op.depthwise_conv2d", conv2d_depthwise, (_f32(2, 4, 6, 6), _f32(4, 1, 3, 3)), rtol=1e-4),
    Case("pd_op.conv2d", conv2d_nhwc, (_f32(2, 6, 6, 3), _f32(4, 3, 3, 3)), rtol=1e-4),
    Case("pd_op.pool2d", max_pool, (_f32(2, 3, 6, 6),)),
    Case("pd_op.pool2d", max_pool_pad, (_f32(2, 3, 7, 7),)),
    Case("pd_op.pool2d", avg_pool, (_f32(2, 3, 5, 5),)),
    Case("pd_op.pool2d", adaptive_avg, (_f32(2, 3, 6, 6),)),
    Case("pd_op.pool2d", global_avg, (_f32(2, 3, 5, 5),)),
    Case(
        "pd_op.batch_norm_",
        batch_norm,
        (_f32(2, 3, 4, 4), _f32(3), _f32(3, lo=0.5, hi=2.0), _f32(3), _f32(3)),
        rtol=1e-4,
    ),
    Case(
        "pd_op.batch_norm_",
        batch_norm_train,
        (_f32(2, 3, 4, 4), _f32(3), _f32(3, lo=0.5, hi=2.0), _f32(3), _f32(3)),
        rtol=1e-4,
    ),
    Case("pd_op.layer_norm", layer_norm, (_f32(2, 3, 4), _f32(4), _f32(4)), rtol=1e-4),
    Case("pd_op.layer_norm", layer_norm_2d, (_f32(2, 3, 4), _f32(12), _f32(12)), rtol=1e-4),
    Case("pd_op.embedding", embedding, (_i64(2, 3, hi=6), _f32(6, 4))),
    Case("pd_op.dropout", dropout_eval, (_f32(2, 3),)),
    Case("pd_op.reshape", gathered_shape, (_f32(2, 3, 4),)),
    Case("pd_op.one_hot", one_hot, (_i64(4, hi=5),), grad=False),
    Case("pd_op.topk", topk, (_f32(3, 5),)),
    Case("pd_op.argsort", sort_, (_f32(4, 3),)),
    Case("pd_op.argsort", argsort, (_f32(4, 3),), grad=False),
    Case("pd_op.any", any_, (_f32(3, 4),), grad=False),
    Case("pd_op.all", all_, (_f32(3, 4),), grad=False),
    Case("pd_op.masked_fill", masked_fill, (_f32(3, 4),)),
    Case("pd_op.p_norm", normalize, (_f32(3, 4),)),
    Case("pd_op.numel", var_std, (_f32(3, 4),)),
    Case("pd_op.bilinear_interp", bilinear, (_f32(2, 3, 3, 4),), rtol=1e-4),
    Case("pd_op.bilinear_interp", bilinear_corners, (_f32(2, 3, 3, 4),), rtol=1e-4),
    Case("pd_op.linear_interp", linear_1d, (_f32(2, 3, 4),), rtol=1e-4),
    Case("pd_op.conv2d", conv1d, (_f32(2, 3, 9), _f32(4, 3, 3)), rtol=1e-4),
    Case("pd_op.conv2d_transpose", conv2d_transpose, (_f32(2, 3, 4, 4), _f32(3, 5, 3, 3)), rtol=1e-4),
    Case("pd_op.group_norm", group_norm, (_f32(2, 4, 3, 3), _f32(4), _f32(4)), rtol=1e-4),
    Case("pd_op.instance_norm", instance_norm, (_f32(2, 3, 4, 4), _f32(3), _f32(3)), rtol=1e-4),
    Case("pd_op.prelu", prelu, (_f32(2, 3, 4, 4), _f32(3, lo=0.0, hi=0.5))),
    Case("pd_op.pad3d", pad_reflect, (_f32(2, 3, 4, 5),)),
    Case("pd_op.pad3d", pad_constant, (_f32(2, 3, 4, 5),)),
    Case("pd_op.max_pool2d_with_index", adaptive_max, (_f32(2, 3, 4, 6),)),
    Case("pd_op.max_pool2d_with_index", adaptive_max_uneven, (_f32(2, 3, 7, 5),)),
    Case("pd_op.nearest_interp", nearest, (_f32(2, 3, 3, 4),)),
    Case("pd_op.nearest_interp", nearest_size, (_f32(2, 3, 3, 4),)),
]


def _ops_of(fn: Callable[..., Any], inputs: tuple[Any, ...]) -> set[str]:
    from ivy_paddle.frontend import capture

    prog, _ = capture(fn, inputs, None)
    return {op.name() for op in prog.block.ops}


def _close(got: Any, want: Any, rtol: float) -> None:
    got, want = np.asarray(ivy.to_numpy(got)), np.asarray(want.numpy())
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=1e-5)


@pytest.mark.parametrize("case", CASES, ids=[c.fn.__name__ for c in CASES])
def test_paddle_frontend_op_matches_paddle(case: Case) -> None:
    import paddle

    from ivy_paddle.frontend import to_graph

    inputs = tuple(make() for make in case.inputs)
    assert case.op in _ops_of(case.fn, inputs), _ops_of(case.fn, inputs)
    graph = to_graph(case.fn, inputs, None, None)
    want = case.fn(*inputs)
    _close(graph(*inputs), want, case.rtol)
    _close(graph(*[x.numpy() for x in inputs]), want, case.rtol)  # the same graph on NumPy
    if not case.grad:
        return
    floats = [i for i, x in enumerate(inputs) if x.dtype == paddle.float32]
    weight = paddle.to_tensor(_rng.uniform(-1, 1, tuple(want.shape)).astype(want.numpy().dtype))

    def grads(f: Callable[..., Any]) -> list[Any]:
        xs = [x.detach() for x in inputs]
        for i in floats:
            xs[i].stop_gradient = False
        out = f(*xs)
        loss = (paddle.cast(out, "float64") * paddle.cast(weight, "float64")).sum()
        return paddle.grad(loss, [xs[i] for i in floats], allow_unused=True)

    for got, ref in zip(grads(graph), grads(case.fn)):
        if ref is None:
            continue
        np.testing.assert_allclose(got.numpy(), ref.numpy(), rtol=1e-4, atol=1e-5)


def bad(x):
    return _p().nn.functional.unfold(_p().erfinv(x), 2) + _p().cosh(x).sum() * _p().digamma(x).sum()


def test_paddle_frontend_lists_every_unsupported_op_at_once() -> None:
    from ivy_paddle.frontend import to_graph

    x = _f32(1, 1, 4, 4, lo=0.1, hi=0.9)()
    with pytest.raises(ivy.errors.UnsupportedOpsError) as info:
        to_graph(bad, (x,), None, None)
    assert {"pd_op.erfinv", "pd_op.unfold", "pd_op.digamma"} <= set(info.value.ops)
    assert "pd_op.cosh" not in info.value.ops
    assert any("test_paddle_frontend_ops.py" in w for w in info.value.ops["pd_op.erfinv"])


def test_paddle_frontend_op_set_marks_mapped_and_unmapped_ops() -> None:
    from ivy_paddle.frontend import TABLE, op_set

    ops = op_set()
    assert len(ops) > 500
    assert set(TABLE) <= set(ops)
    assert ops["pd_op.conv2d"] and ops["pd_op.matmul"] and ops["builtin.parameter"]
    assert ops["pd_op.erfinv"] is None


def test_paddle_frontend_is_registered_and_lazy() -> None:
    import subprocess
    import sys

    code = (
        "import sys, ivy\n"
        "from ivy.transpile._frontends import frontends\n"
        "f = frontends()['paddle']\n"
        "assert f.load == 'ivy_paddle.frontend:load', f.load\n"
        "assert 'paddle' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
