"""Every public op, called the way a user calls it: ``ivy.<op>(...)`` (and ``ivy.linalg.<op>``,
``ivy.fft.<op>``), with no ``backend=``, once through the dispatch in C (where it is built) and
once through the generated Python function, on the backend under test.

The test is generated from the specs: each spec op gets one call, its arguments synthesised from
the signature (arrays for ``Array`` parameters) or taken from :data:`CALLS` where an op needs
particular ones; an op with neither fails the test. The result must equal what the backend's own
function (``xp.<op>``, the plugin's function itself) returns for the same arguments, so any fault
of the generated dispatch (shadowed names, lost keywords, the wrong backend) shows.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ivy
from ivy._spec import SPECS
from ivy.testing import has_autodiff
from ivy.testing._helpers.facts import expect_cmp
from ivy.testing.convert import native_to_numpy, to_native

#: ops a backend without automatic differentiation refuses (NoAutodiffError on both paths)
GRADIENT_OPS = {"value_and_grad_flat", "vjp", "jvp", "jacobian", "variable"}
#: ops whose results are random: compared by shape and dtype only
RANDOM = {
    "random_uniform",
    "random_normal",
    "randint",
    "multinomial",
    "shuffle",
    "bernoulli",
    "dropout",
    "empty",
    "empty_like",
}


class Make:
    """Inputs on the backend under test (float32, so that JAX's 32-bit mode runs them too)."""

    def __init__(self, backend: str):
        self.backend = backend
        self.rng = np.random.default_rng(0)

    def f(self, *shape: int, lo: float = 0.1, hi: float = 0.9) -> Any:
        return to_native(self.backend, self.rng.uniform(lo, hi, shape).astype(np.float32))

    def i(self, *shape: int, lo: int = 0, hi: int = 3) -> Any:
        return to_native(self.backend, self.rng.integers(lo, hi, shape).astype(np.int32))

    def b(self, *shape: int) -> Any:
        return to_native(self.backend, self.rng.integers(0, 2, shape).astype(bool))

    def spd(self, n: int = 3) -> Any:
        a = self.rng.uniform(-1, 1, (n, n))
        return to_native(self.backend, (a @ a.T + n * np.eye(n)).astype(np.float32))

    def c(self, *shape: int) -> Any:
        z = self.rng.uniform(-1, 1, shape) + 1j * self.rng.uniform(-1, 1, shape)
        return to_native(self.backend, z.astype(np.complex64))


Call = Callable[[Make], tuple[tuple[Any, ...], dict[str, Any]]]


def _a(*args: Any, **kwargs: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return args, kwargs


def _sq(x: Any) -> Any:  # a differentiable function of arrays, for the gradient ops
    return ivy.sum(ivy.multiply(x, x))


#: arguments of the ops whose signature alone does not say what to pass
CALLS: dict[str, Call] = {
    "clip": lambda m: _a(m.f(2, 3), 0.3, 0.6),
    "bitwise_and": lambda m: _a(m.i(4), m.i(4)),
    "bitwise_or": lambda m: _a(m.i(4), m.i(4)),
    "bitwise_xor": lambda m: _a(m.i(4), m.i(4)),
    "bitwise_invert": lambda m: _a(m.i(4)),
    "bitwise_left_shift": lambda m: _a(m.i(4), m.i(4)),
    "bitwise_right_shift": lambda m: _a(m.i(4, hi=9), m.i(4)),
    "logical_and": lambda m: _a(m.b(4), m.b(4)),
    "logical_or": lambda m: _a(m.b(4), m.b(4)),
    "logical_xor": lambda m: _a(m.b(4), m.b(4)),
    "logical_not": lambda m: _a(m.b(4)),
    "acosh": lambda m: _a(m.f(4, lo=1.5, hi=3.0)),
    "floor_divide": lambda m: _a(m.f(4), m.f(4, lo=0.2)),
    "remainder": lambda m: _a(m.f(4), m.f(4, lo=0.2)),
    "conj": lambda m: _a(m.c(3)),
    "real": lambda m: _a(m.c(3)),
    "imag": lambda m: _a(m.c(3)),
    "arange": lambda m: _a(1, 7, 2),
    "asarray": lambda m: _a([[1.0, 2.0], [3.0, 4.0]], dtype="float32"),
    "empty": lambda m: _a((2, 3)),
    "eye": lambda m: _a(3, 4, k=1),
    "from_dlpack": lambda m: _a(m.f(3)),
    "full": lambda m: _a((2, 2), 1.5, dtype="float32"),
    "full_like": lambda m: _a(m.f(2, 2), 2.5),
    "linspace": lambda m: _a(0.0, 1.0, 5),
    "meshgrid": lambda m: _a(m.f(3), m.f(2), indexing="ij"),
    "ones": lambda m: _a((2, 3), dtype="float32"),
    "zeros": lambda m: _a(4),
    "tril": lambda m: _a(m.f(3, 3), k=-1),
    "triu": lambda m: _a(m.f(3, 3), k=1),
    "astype": lambda m: _a(m.f(3), "float32"),
    "can_cast": lambda m: _a(m.i(3), "float32"),
    "finfo": lambda m: _a("float32"),
    "iinfo": lambda m: _a("int32"),
    "isdtype": lambda m: _a(ivy.float32, "real floating"),
    "result_type": lambda m: _a(m.i(2), m.f(2)),
    "take": lambda m: _a(m.f(4, 3), m.i(2), axis=0),
    "take_along_axis": lambda m: _a(m.f(4, 3), m.i(4, 1), axis=1),
    "matmul": lambda m: _a(m.f(2, 3), m.f(3, 4)),
    "tensordot": lambda m: _a(m.f(2, 3), m.f(3, 4), axes=1),
    "broadcast_to": lambda m: _a(m.f(3), (2, 3)),
    "concat": lambda m: _a([m.f(2, 3), m.f(1, 3)], axis=0),
    "expand_dims": lambda m: _a(m.f(3), axis=1),
    "flip": lambda m: _a(m.f(2, 3), axis=1),
    "moveaxis": lambda m: _a(m.f(2, 3, 4), 0, 2),
    "permute_dims": lambda m: _a(m.f(2, 3, 4), (2, 0, 1)),
    "repeat": lambda m: _a(m.f(3), 2),
    "reshape": lambda m: _a(m.f(2, 3), (3, 2)),
    "roll": lambda m: _a(m.f(5), 2),
    "squeeze": lambda m: _a(m.f(2, 1, 3), 1),
    "stack": lambda m: _a([m.f(3), m.f(3)], axis=1),
    "tile": lambda m: _a(m.f(2), (3,)),
    "unstack": lambda m: _a(m.f(2, 3), axis=1),
    "searchsorted": lambda m: _a(to_native(m.backend, np.arange(5, dtype=np.float32)), m.f(3)),
    "where": lambda m: _a(m.b(3), m.f(3), m.f(3)),
    "nonzero": lambda m: _a(to_native(m.backend, np.array([0.0, 1.0, 0.0, 2.0], np.float32))),
    "unique_all": lambda m: _a(to_native(m.backend, np.array([3.0, 1.0, 3.0, 2.0], np.float32))),
    "unique_counts": lambda m: _a(to_native(m.backend, np.array([3.0, 1.0, 3.0, 2.0], np.float32))),
    "unique_inverse": lambda m: _a(to_native(m.backend, np.array([3.0, 1.0, 3.0, 2.0], np.float32))),
    "unique_values": lambda m: _a(to_native(m.backend, np.array([3.0, 1.0, 3.0, 2.0], np.float32))),
    "diff": lambda m: _a(m.f(5), n=2),
    "linalg.cholesky": lambda m: _a(m.spd()),
    "linalg.cross": lambda m: _a(m.f(2, 3), m.f(2, 3)),
    "linalg.det": lambda m: _a(m.spd()),
    "linalg.diagonal": lambda m: _a(m.f(3, 3), offset=1),
    "linalg.eigh": lambda m: _a(m.spd()),
    "linalg.eigvalsh": lambda m: _a(m.spd()),
    "linalg.inv": lambda m: _a(m.spd()),
    "linalg.matmul": lambda m: _a(m.f(2, 3), m.f(3, 2)),
    "linalg.matrix_norm": lambda m: _a(m.f(3, 3)),
    "linalg.matrix_power": lambda m: _a(m.spd(), 2),
    "linalg.matrix_rank": lambda m: _a(m.spd()),
    "linalg.matrix_transpose": lambda m: _a(m.f(2, 3)),
    "linalg.outer": lambda m: _a(m.f(3), m.f(2)),
    "linalg.pinv": lambda m: _a(m.f(3, 2)),
    "linalg.qr": lambda m: _a(m.spd()),
    "linalg.slogdet": lambda m: _a(m.spd()),
    "linalg.solve": lambda m: _a(m.spd(), m.f(3, 2)),
    "linalg.svd": lambda m: _a(m.spd(), full_matrices=False),
    "linalg.svdvals": lambda m: _a(m.spd()),
    "linalg.tensordot": lambda m: _a(m.f(2, 3), m.f(3, 2), axes=1),
    "linalg.trace": lambda m: _a(m.f(3, 3)),
    "linalg.vecdot": lambda m: _a(m.f(2, 3), m.f(2, 3)),
    "linalg.vector_norm": lambda m: _a(m.f(2, 3), axis=1),
    "fft.fftfreq": lambda m: _a(6, d=0.5),
    "fft.rfftfreq": lambda m: _a(6, d=0.5),
    "fft.fft": lambda m: _a(m.c(8)),
    "fft.ifft": lambda m: _a(m.c(8)),
    "fft.fftn": lambda m: _a(m.c(4, 4)),
    "fft.ifftn": lambda m: _a(m.c(4, 4)),
    "fft.irfft": lambda m: _a(m.c(5)),
    "fft.irfftn": lambda m: _a(m.c(4, 3)),
    "fft.hfft": lambda m: _a(m.c(5)),
    "value_and_grad_flat": lambda m: _a(lambda xs: _sq(xs[0]), [m.f(3)]),
    "vjp": lambda m: _a(_sq, m.f(3)),
    "jvp": lambda m: _a(_sq, [m.f(3)], [m.f(3)]),
    "jacobian": lambda m: _a(lambda x: ivy.multiply(x, x), m.f(3)),
    "while_loop": lambda m: _a(
        lambda v: ivy.less(ivy.sum(v), 10.0), lambda v: ivy.multiply(v, 2.0), [m.f(3, lo=0.5, hi=1.0)]
    ),
    "cond": lambda m: _a(m.b(1), lambda v: ivy.add(v, 1.0), lambda v: ivy.subtract(v, 1.0), [m.f(3)]),
    "scan": lambda m: _a(lambda c, x: (ivy.add(c, x), ivy.multiply(c, x)), m.f(3), m.f(4, 3), reverse=True),
    "seed": lambda m: _a(3),
    "random_uniform": lambda m: _a(shape=(2, 3), dtype="float32"),
    "random_normal": lambda m: _a(shape=(2, 3), dtype="float32"),
    "randint": lambda m: _a(0, 5, (4,)),
    "multinomial": lambda m: _a(5, 3),
    "shuffle": lambda m: _a(m.f(5)),
    "bernoulli": lambda m: _a(0.5, shape=(4,), dtype="float32"),
    "dropout": lambda m: _a(m.f(4, 4), 0.5),
    "to_device": lambda m: _a(m.f(3), "cpu"),
    "linear": lambda m: _a(m.f(2, 3), m.f(4, 3), m.f(4)),
    "conv1d": lambda m: _a(m.f(1, 6, 2), m.f(3, 2, 4), 1, "SAME"),
    "conv2d": lambda m: _a(m.f(1, 5, 5, 2), m.f(3, 3, 2, 4), 1, "VALID"),
    "conv3d": lambda m: _a(m.f(1, 4, 4, 4, 2), m.f(2, 2, 2, 2, 3), 1, "VALID"),
    "conv1d_transpose": lambda m: _a(m.f(1, 4, 2), m.f(3, 3, 2), 2, "SAME"),
    "conv2d_transpose": lambda m: _a(m.f(1, 3, 3, 2), m.f(3, 3, 3, 2), 2, "SAME"),
    "conv3d_transpose": lambda m: _a(m.f(1, 2, 2, 2, 2), m.f(2, 2, 2, 3, 2), 2, "VALID"),
    "depthwise_conv2d": lambda m: _a(m.f(1, 5, 5, 2), m.f(3, 3, 2), 1, "SAME"),
    "max_pool1d": lambda m: _a(m.f(1, 6, 2), 2, 2, "VALID"),
    "max_pool2d": lambda m: _a(m.f(1, 4, 4, 2), 2, 2, "VALID"),
    "max_pool3d": lambda m: _a(m.f(1, 4, 4, 4, 2), 2, 2, "VALID"),
    "avg_pool1d": lambda m: _a(m.f(1, 6, 2), 2, 2, "VALID"),
    "avg_pool2d": lambda m: _a(m.f(1, 4, 4, 2), 2, 2, "SAME"),
    "avg_pool3d": lambda m: _a(m.f(1, 4, 4, 4, 2), 2, 2, "VALID"),
    "adaptive_avg_pool2d": lambda m: _a(m.f(1, 6, 6, 2), 3),
    "bilinear_sample": lambda m: _a(m.f(2, 4, 5, 3), m.f(2, 3, 2, lo=-1.0, hi=5.0)),
    "layer_norm": lambda m: _a(m.f(2, 4), -1),
    "batch_norm": lambda m: _a(m.f(2, 3, 3, 4), m.f(4), m.f(4), training=True),
    "group_norm": lambda m: _a(m.f(2, 3, 3, 4), 2),
    "embedding": lambda m: _a(m.f(5, 3), m.i(2, 2)),
    "one_hot": lambda m: _a(m.i(4), 3),
    "lstm_update": lambda m: _a(m.f(2, 3, 4), m.f(2, 5), m.f(2, 5), m.f(4, 20), m.f(5, 20)),
    "lstm": lambda m: _a(m.f(2, 3, 4), m.f(1, 2, 5), m.f(1, 2, 5), [m.f(4, 20)], [m.f(5, 20)]),
    "gru_update": lambda m: _a(m.f(2, 3, 4), m.f(2, 5), m.f(4, 15), m.f(5, 15), bias=m.f(15), recurrent_bias=m.f(15)),
    "gru": lambda m: _a(m.f(2, 3, 4), m.f(1, 2, 5), [m.f(4, 15)], [m.f(5, 15)]),
    "scaled_dot_product_attention": lambda m: _a(m.f(2, 3, 4), m.f(2, 5, 4), m.f(2, 5, 4)),
    "multi_head_attention": lambda m: _a(
        m.f(2, 3, 4), num_heads=2, q_weight=m.f(4, 4), k_weight=m.f(4, 4), v_weight=m.f(4, 4), out_weight=m.f(4, 4)
    ),
    "sparse_cross_entropy": lambda m: _a(m.i(3), m.f(3, 4)),
    "gather": lambda m: _a(m.f(4, 3), m.i(2), axis=0),
    "gather_nd": lambda m: _a(m.f(4, 3), m.i(2, 2)),
    "scatter_nd": lambda m: _a(m.i(2, 1), m.f(2), (4,)),
    "scatter_flat": lambda m: _a(m.i(3), m.f(3), 5),
    "get_item": lambda m: _a(m.f(3, 4), (slice(1, 3), 2)),
    "set_item": lambda m: _a(m.f(3, 4), (1, slice(None)), 0.5),
    "clip_vector_norm": lambda m: _a(m.f(4), 0.5),
    "clip_matrix_norm": lambda m: _a(m.f(3, 3), 0.5),
    "einsum": lambda m: _a("ij,jk->ik", m.f(2, 3), m.f(3, 2)),
    "cumsum": lambda m: _a(m.f(2, 3), 1, exclusive=True),
    "cumprod": lambda m: _a(m.f(2, 3), 1, reverse=True),
    "cumulative_sum": lambda m: _a(m.f(2, 3), axis=1),
    "cumulative_prod": lambda m: _a(m.f(2, 3), axis=1),
    "pad": lambda m: _a(m.f(2, 3), 1),
    "top_k": lambda m: _a(m.f(5), 2),
    "split": lambda m: _a(m.f(6, 2), 3),
    "cast": lambda m: _a(m.f(3), "float32"),
    "argsort": lambda m: _a(m.f(5)),
    "sort": lambda m: _a(m.f(5)),
    "is_variable": lambda m: _a(m.f(3)),
    "to_scalar": lambda m: _a(m.f(1)),
    # TensorFlow updates only variables in place (JAX none: it refuses, see REFUSED)
    "inplace_update": lambda m: _a(ivy.variable(m.f(3)) if m.backend == "tensorflow" else m.f(3), 0.5),
}

#: (backend, op) pairs the backend refuses by design, with a clear error on both paths
REFUSED = {("jax", "inplace_update")}


def _auto(name: str, m: Make) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """Arguments from the signature: an array for each required array parameter."""
    args: list[Any] = []
    for p in SPECS[name].signature.parameters.values():
        if p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD, p.KEYWORD_ONLY):
            continue
        if "Array" not in str(p.annotation):
            raise LookupError(f"{name}: no example call for parameter {p.name!r}; add one to CALLS")
        args.append(m.f(2, 3))
    return tuple(args), {}


def _public(name: str) -> Any:
    space, _, short = name.rpartition(".")
    return getattr(getattr(ivy, space) if space else ivy, short)


def _native_op(xp: Any, name: str) -> Any:
    space, _, short = name.rpartition(".")
    return getattr(getattr(xp, space) if space else xp, short)


class Raised:
    def __init__(self, error: Exception):
        self.type = type(error)
        self.error = error

    def __repr__(self) -> str:
        return f"<raised {self.type.__name__}: {self.error}>"


def _outcome(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], backend: str) -> Any:
    try:
        return fn(*args, **kwargs)
    except Exception as e:  # compared: both paths must fail alike
        return Raised(e)


def _same(got: Any, want: Any, backend: str, xp: Any, random: bool, path: str) -> None:
    if isinstance(want, Raised):
        assert isinstance(got, Raised), f"{path}: the backend's function raised {want!r}, ivy's call gave {got!r}"
        assert got.type is want.type, f"{path}: the backend's function raised {want!r}, ivy's call gave {got!r}"
        return
    if isinstance(got, Raised):
        raise AssertionError(f"{path}: ivy's call raised {got!r}, the backend's function did not") from got.error
    if isinstance(want, (list, tuple)):
        assert isinstance(got, (list, tuple)), f"{path}: {got!r} != {want!r}"
        assert len(got) == len(want), f"{path}: {got!r} != {want!r}"
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, backend, xp, random, f"{path}[{i}]")
        return
    if callable(want):  # vjp's pullback
        assert callable(got), f"{path}: expected a function, got {got!r}"
        return
    if xp.is_native_array(want):
        assert xp.is_native_array(got), f"{path}: expected a {backend} array, got {type(got).__name__}"
        assert tuple(got.shape) == tuple(want.shape), f"{path}: shape {tuple(got.shape)} != {tuple(want.shape)}"
        assert ivy.dtype_name(got.dtype) == ivy.dtype_name(want.dtype), f"{path}: dtype {got.dtype} != {want.dtype}"
        if not random:
            np.testing.assert_allclose(
                native_to_numpy(backend, got),
                native_to_numpy(backend, want),
                rtol=1e-6,
                atol=1e-7,
                equal_nan=True,
                err_msg=path,
            )
        return
    if not random:
        if hasattr(want, "bits"):  # finfo/iinfo objects: compare their fields
            for field in ("bits", "max", "min", "eps", "smallest_normal"):
                assert getattr(got, field, None) == getattr(want, field, None), f"{path}.{field}"
        elif isinstance(want, np.ndarray):
            np.testing.assert_array_equal(got, want, err_msg=path)
        else:
            assert got == want, f"{path}: {got!r} != {want!r}"


def _arguments(name: str, backend: str) -> tuple[tuple[Any, ...], dict[str, Any]]:
    m = Make(backend)
    return CALLS[name](m) if name in CALLS else _auto(name, m)


@pytest.mark.parametrize("name", sorted(SPECS))
def test_every_op_through_ivy(name: str, backend: str, xp: Any) -> None:
    public = _public(name)
    paths = {"ivy": public}
    python = getattr(public, "__ivy_python__", None)
    if python is not None:  # the C dispatcher's complete Python function
        paths["python"] = python
    if name not in ivy._registry.get_backend(backend).ops:
        pytest.skip(f"the {backend!r} backend lacks ivy.{name} (test_op_present reports it)")
    random = name in RANDOM
    args, kwargs = _arguments(name, backend)
    spec = SPECS[name]
    for label, fn in paths.items():
        if random:
            ivy.seed(0)
        if spec.infer and any(xp.is_native_array(a) for a in ivy.nest.leaves((args, kwargs))):
            got = _outcome(fn, args, kwargs, backend)  # the arrays decide the backend
        else:
            with ivy.use_backend(backend):
                got = _outcome(fn, args, kwargs, backend)
        if random:
            ivy.seed(0)
        want = _outcome(_native_op(xp, name), *_arguments(name, backend), backend)
        refused = (
            (backend, name) in REFUSED
            or (name in GRADIENT_OPS and not has_autodiff(backend))
            or (name == "inplace_update" and isinstance(want, Raised) and "immutable" in str(want.error))
        )
        if isinstance(want, Raised) and not refused:
            raise AssertionError(f"the example call of {name} fails on the backend itself: {want!r}") from want.error
        _same(got, want, backend, xp, random, f"ivy.{name} ({label})")


def test_every_spec_op_has_a_call() -> None:
    """A new spec op fails here until its example call is known (auto-synthesised or in CALLS)."""
    missing = []
    for name in SPECS:
        if name in CALLS:
            continue
        for p in SPECS[name].signature.parameters.values():
            required = p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
            if required and ("Array" not in str(p.annotation) or p.kind is p.KEYWORD_ONLY):
                missing.append(name)
                break
    assert not missing, f"no example call for {missing}: add them to CALLS"
    assert not set(CALLS) - set(SPECS), f"CALLS names unknown ops: {sorted(set(CALLS) - set(SPECS))}"


def test_ops_are_public_functions() -> None:
    for name in SPECS:
        fn = _public(name)
        expect_cmp(
            inspect.signature(fn).parameters.keys(),
            ">=",
            SPECS[name].signature.parameters.keys(),
            f"ivy.{name}: the public function's parameters",
        )
