"""Random sampling on every backend: reproducibility (global seed and per-call ``seed=``),
distributions (Kolmogorov-Smirnov tests with SciPy, frequencies), ranges, dtypes and shapes.

Every statistical check uses fixed seeds, so a run is deterministic on a given backend; the
thresholds (p > 0.001, several standard errors) leave a wide margin for a correct sampler.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import ivy
from ivy.testing._helpers.facts import expect, expect_cmp, expect_dtype, expect_shape
from ivy.testing._helpers.registry import covers
from ivy.testing.convert import dtype_name, native_to_numpy, to_native

N = 4000  # samples for the distribution tests


def _np(backend, x):
    return native_to_numpy(backend, x)


# ---------------------------------------------------------------------------- reproducibility


DRAWS = {
    "random_uniform": lambda b, **kw: ivy.random_uniform(shape=(50,), backend=b, **kw),
    "random_normal": lambda b, **kw: ivy.random_normal(shape=(50,), backend=b, **kw),
    "randint": lambda b, **kw: ivy.randint(0, 1000, (50,), backend=b, **kw),
    "multinomial": lambda b, **kw: ivy.multinomial(10, 50, batch_size=2, backend=b, **kw),
    "shuffle": lambda b, **kw: ivy.shuffle(to_native(b, np.arange(50.0)), **kw),
    "bernoulli": lambda b, **kw: ivy.bernoulli(0.5, shape=(50,), backend=b, **kw),
    "dropout": lambda b, **kw: ivy.dropout(to_native(b, np.ones(50)), 0.5, **kw),
}


@covers("seed", *DRAWS)
@pytest.mark.parametrize("name", sorted(DRAWS))
def test_seed_reproduces(backend, name):
    draw = DRAWS[name]
    ivy.seed(42, backend=backend)
    a1, a2 = _np(backend, draw(backend)), _np(backend, draw(backend))
    ivy.seed(42, backend=backend)
    b1, b2 = _np(backend, draw(backend)), _np(backend, draw(backend))
    np.testing.assert_array_equal(a1, b1)
    np.testing.assert_array_equal(a2, b2)
    assert not np.array_equal(a1, a2), "two successive draws are equal: the state does not advance"
    ivy.seed(7, backend=backend)
    assert not np.array_equal(_np(backend, draw(backend)), a1), "another seed gives the same draw"


@covers(*DRAWS)
@pytest.mark.parametrize("name", sorted(DRAWS))
def test_per_call_seed(backend, name):
    draw = DRAWS[name]
    a = _np(backend, draw(backend, seed=123))
    b = _np(backend, draw(backend, seed=123))
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, _np(backend, draw(backend, seed=124))), (
        "ivy.random_uniform (seed=): expected not np.array_equal(a, _np(backend, draw(backend, seed=124)))"
    )


@covers("seed", *DRAWS)
@pytest.mark.parametrize("name", sorted(DRAWS))
def test_per_call_seed_leaves_global_state_alone(backend, name):
    draw = DRAWS[name]
    ivy.seed(5, backend=backend)
    want = _np(backend, draw(backend))
    ivy.seed(5, backend=backend)
    draw(backend, seed=999)
    np.testing.assert_array_equal(_np(backend, draw(backend)), want)


# ---------------------------------------------------------------------------- uniform / normal


@covers("random_uniform")
def test_random_uniform_distribution(backend):
    x = _np(backend, ivy.random_uniform(low=-2.0, high=3.0, shape=(N,), dtype="float64", seed=11, backend=backend))
    expect(x.shape, (N,), "ivy.random_uniform: x.shape")
    expect_cmp(x.min(), ">=", -2.0, "ivy.random_uniform: x.min()")
    expect_cmp(x.max(), "<", 3.0, "ivy.random_uniform: x.max()")
    expect_cmp(
        stats.kstest(x, "uniform", args=(-2.0, 5.0)).pvalue,
        ">",
        0.001,
        "ivy.random_uniform: stats.kstest(x, 'uniform', args=(-2.0, 5.0)).pvalue",
    )
    # the test has power
    expect_cmp(
        stats.kstest(x, "uniform", args=(-2.0, 4.0)).pvalue,
        "<",
        0.001,
        "ivy.random_uniform: stats.kstest(x, 'uniform', args=(-2.0, 4.0)).pvalue",
    )


@covers("random_uniform")
def test_random_uniform_array_bounds(backend):
    low, high = np.array([0.0, 10.0, -1.0]), np.array([1.0, 15.0, -0.5])
    x = _np(
        backend,
        ivy.random_uniform(
            low=to_native(backend, low), high=to_native(backend, high), shape=(N, 3), dtype="float64", seed=3
        ),
    )
    expect(x.shape, (N, 3), "ivy.random_uniform: x.shape")
    for j in range(3):
        col = x[:, j]
        expect_cmp(col.min(), ">=", low[j], "ivy.random_uniform: col.min()")
        expect_cmp(col.max(), "<", high[j], "ivy.random_uniform: col.max()")
        assert stats.kstest(col, "uniform", args=(low[j], high[j] - low[j])).pvalue > 0.001, f"column {j}"
    # shape=None: the broadcast shape of the bounds.
    y = ivy.random_uniform(low=to_native(backend, low[:, None]), high=to_native(backend, high), seed=4)
    expect_shape(y, (3, 3), "ivy.random_uniform")


@covers("random_normal")
def test_random_normal_distribution(backend):
    x = _np(backend, ivy.random_normal(mean=1.5, std=0.5, shape=(N,), dtype="float64", seed=12, backend=backend))
    expect(x.shape, (N,), "ivy.random_normal: x.shape")
    expect_cmp(
        stats.kstest(x, "norm", args=(1.5, 0.5)).pvalue,
        ">",
        0.001,
        "ivy.random_normal: stats.kstest(x, 'norm', args=(1.5, 0.5)).pvalue",
    )
    expect_cmp(
        stats.kstest(x, "norm", args=(1.5, 0.6)).pvalue,
        "<",
        0.001,
        "ivy.random_normal: stats.kstest(x, 'norm', args=(1.5, 0.6)).pvalue",
    )


@covers("random_normal")
def test_random_normal_array_parameters(backend):
    mean, std = np.array([-3.0, 0.0, 100.0]), np.array([0.1, 1.0, 20.0])
    x = _np(
        backend,
        ivy.random_normal(
            mean=to_native(backend, mean), std=to_native(backend, std), shape=(N, 3), dtype="float64", seed=5
        ),
    )
    expect(x.shape, (N, 3), "ivy.random_normal: x.shape")
    for j in range(3):
        assert stats.kstest(x[:, j], "norm", args=(mean[j], std[j])).pvalue > 0.001, f"column {j}"
    y = ivy.random_normal(mean=to_native(backend, mean), std=1.0, seed=6)
    expect_shape(y, (3,), "ivy.random_normal")


@covers("random_uniform", "random_normal")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_float_dtypes_and_shapes(backend, dtype):
    u = ivy.random_uniform(shape=(2, 3, 4), dtype=dtype, seed=1, backend=backend)
    n = ivy.random_normal(shape=(5,), dtype=dtype, seed=1, backend=backend)
    expect_shape(u, (2, 3, 4), "ivy.random_uniform")
    expect_dtype(u, dtype, "ivy.random_uniform")
    expect_shape(n, (5,), "ivy.random_normal")
    expect_dtype(n, dtype, "ivy.random_normal")
    s = ivy.random_uniform(seed=1, backend=backend)  # scalar bounds, no shape: 0-d
    expect_shape(s, (), "ivy.random_uniform")
    # the default real floating-point dtype
    expect_cmp(dtype_name(s.dtype), "in", ("float32", "float64"), "ivy.random_uniform: dtype_name(s.dtype)")
    u_np = _np(backend, u)
    assert np.all((u_np >= 0) & (u_np < 1)), "ivy.random_uniform: expected np.all((u_np >= 0) & (u_np < 1))"


# ---------------------------------------------------------------------------- randint


@covers("randint")
def test_randint_range_and_frequencies(backend):
    x = _np(backend, ivy.randint(-3, 7, (N,), seed=21, backend=backend))
    expect(x.shape, (N,), "ivy.randint: x.shape")
    expect(x.dtype.kind, "i", "ivy.randint: x.dtype.kind")
    expect_cmp(x.min(), ">=", -3, "ivy.randint: x.min()")
    expect_cmp(x.max(), "<", 7, "ivy.randint: x.max()")
    counts = np.bincount(x + 3, minlength=10)
    expect(counts.shape, (10,), "ivy.randint: counts.shape")
    assert stats.chisquare(counts).pvalue > 0.001, counts


@covers("randint")
@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_randint_dtype(backend, dtype):
    x = ivy.randint(0, 5, (3, 4), dtype=dtype, seed=2, backend=backend)
    expect_shape(x, (3, 4), "ivy.randint")
    expect_dtype(x, dtype, "ivy.randint")
    d = ivy.randint(0, 5, (7,), seed=2, backend=backend)
    # the default integer dtype
    expect_cmp(dtype_name(d.dtype), "in", ("int32", "int64"), "ivy.randint: dtype_name(d.dtype)")


@covers("randint")
def test_randint_array_bounds(backend):
    low, high = np.array([0, 100, -50]), np.array([2, 110, -45])
    x = _np(backend, ivy.randint(to_native(backend, low), to_native(backend, high), (2000, 3), seed=8))
    expect(x.shape, (2000, 3), "ivy.randint: x.shape")
    for j in range(3):
        assert set(np.unique(x[:, j])) == set(range(low[j], high[j])), f"column {j}"
    y = ivy.randint(to_native(backend, low), to_native(backend, high), seed=9)
    expect_shape(y, (3,), "ivy.randint")


# ---------------------------------------------------------------------------- multinomial


@covers("multinomial")
def test_multinomial_frequencies(backend):
    probs = np.array([[0.1, 0.2, 0.7, 0.0], [2.0, 1.0, 1.0, 0.0]])  # the second row is unnormalised
    x = _np(backend, ivy.multinomial(4, N, probs=to_native(backend, probs), seed=31))
    expect(x.shape, (2, N), "ivy.multinomial: x.shape")
    # probability 0 never drawn
    expect_cmp(x.min(), ">=", 0, "ivy.multinomial: x.min()")
    expect_cmp(x.max(), "<=", 2, "ivy.multinomial: x.max()")
    for row in range(2):
        p = probs[row] / probs[row].sum()
        freq = np.bincount(x[row], minlength=4) / N
        tol = 5 * np.sqrt(p * (1 - p) / N) + 1e-12
        assert np.all(np.abs(freq - p) <= tol), (row, freq, p)


@covers("multinomial")
def test_multinomial_uniform_and_without_replacement(backend):
    x = _np(backend, ivy.multinomial(6, 300, batch_size=3, seed=32, backend=backend))
    expect(x.shape, (3, 300), "ivy.multinomial: x.shape")
    expect(x.dtype.kind, "i", "ivy.multinomial: x.dtype.kind")
    expect_cmp(x.min(), ">=", 0, "ivy.multinomial: x.min()")
    expect_cmp(x.max(), "<", 6, "ivy.multinomial: x.max()")
    expect(set(np.unique(x)), set(range(6)), "ivy.multinomial: set(np.unique(x))")
    y = _np(backend, ivy.multinomial(10, 10, batch_size=4, replace=False, seed=33, backend=backend))
    expect(y.shape, (4, 10), "ivy.multinomial: y.shape")
    for row in y:  # no repeats: every index exactly once
        expect(sorted(row.tolist()), list(range(10)), "ivy.multinomial: sorted(row.tolist())")
    probs = np.array([[0.5, 0.0, 0.25, 0.25]])
    z = _np(backend, ivy.multinomial(4, 3, probs=to_native(backend, probs), replace=False, seed=34))
    expect(z.shape, (1, 3), "ivy.multinomial: z.shape")
    expect(sorted(z[0].tolist()), [0, 2, 3], "ivy.multinomial: sorted(z[0].tolist())")


# ---------------------------------------------------------------------------- shuffle


@covers("shuffle")
def test_shuffle_is_a_permutation(backend):
    x_np = np.arange(200.0)
    y = ivy.shuffle(to_native(backend, x_np), seed=41)
    expect_shape(y, (200,), "ivy.shuffle")
    expect_dtype(y, "float64", "ivy.shuffle")
    y_np = _np(backend, y)
    np.testing.assert_array_equal(np.sort(y_np), x_np)
    assert not np.array_equal(y_np, x_np), "ivy.shuffle: expected not np.array_equal(y_np, x_np)"


@covers("shuffle")
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_shuffle_axis_moves_whole_slices(backend, axis):
    x_np = np.arange(12 * 30, dtype=np.int64).reshape(12, 30)
    y_np = _np(backend, ivy.shuffle(to_native(backend, x_np), axis, seed=42))
    expect(y_np.shape, x_np.shape, "ivy.shuffle: y_np.shape")
    expect(y_np.dtype, np.int64, "ivy.shuffle: y_np.dtype")
    ax = axis % 2
    xs, ys = np.moveaxis(x_np, ax, 0), np.moveaxis(y_np, ax, 0)
    # Each slice along the axis is one of the original slices, intact; all of them appear once.
    order = [int(np.flatnonzero((xs == s).all(axis=1))[0]) for s in ys]
    expect(sorted(order), list(range(xs.shape[0])), "ivy.shuffle: sorted(order)")
    expect_cmp(order, "!=", list(range(xs.shape[0])), "ivy.shuffle: order")


# ---------------------------------------------------------------------------- bernoulli / dropout


@covers("bernoulli")
def test_bernoulli_mean(backend):
    x = _np(backend, ivy.bernoulli(0.3, shape=(20000,), dtype="float64", seed=51, backend=backend))
    expect(x.shape, (20000,), "ivy.bernoulli: x.shape")
    expect_cmp(set(np.unique(x)), "<=", {0.0, 1.0}, "ivy.bernoulli: set(np.unique(x))")
    expect_cmp(abs(x.mean() - 0.3), "<", 5 * np.sqrt(0.3 * 0.7 / 20000), "ivy.bernoulli: abs(x.mean() - 0.3)")


@covers("bernoulli")
def test_bernoulli_array_probs(backend):
    p = np.array([0.0, 0.1, 0.9, 1.0])
    x = _np(backend, ivy.bernoulli(to_native(backend, p), shape=(N, 4), dtype="float32", seed=52))
    expect(x.shape, (N, 4), "ivy.bernoulli: x.shape")
    expect(x.dtype, np.float32, "ivy.bernoulli: x.dtype")
    np.testing.assert_array_equal(x[:, 0], 0.0)
    np.testing.assert_array_equal(x[:, 3], 1.0)
    for j in (1, 2):
        expect_cmp(
            abs(x[:, j].mean() - p[j]),
            "<",
            5 * np.sqrt(p[j] * (1 - p[j]) / N),
            "ivy.bernoulli: abs(x[:, j].mean() - p[j])",
        )
    y = ivy.bernoulli(to_native(backend, p), seed=53)  # shape None: the shape of probs
    expect_shape(y, (4,), "ivy.bernoulli")


@covers("bernoulli")
def test_bernoulli_bool_dtype(backend):
    x = ivy.bernoulli(0.5, shape=(1000,), dtype="bool", seed=54, backend=backend)
    expect_dtype(x, "bool", "ivy.bernoulli")
    expect_shape(x, (1000,), "ivy.bernoulli")
    x_np = _np(backend, x)
    expect_cmp(x_np.mean(), ">", 0.4, "ivy.bernoulli: the share of ones")
    expect_cmp(x_np.mean(), "<", 0.6, "ivy.bernoulli: the share of ones")


@covers("dropout")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_dropout_expectation_and_rate(backend, dtype):
    prob, n = 0.3, 50000
    x_np = np.full(n, 2.0, dtype=dtype)
    y = ivy.dropout(to_native(backend, x_np), prob, seed=61)
    expect_shape(y, (n,), "ivy.dropout")
    expect_dtype(y, dtype, "ivy.dropout")
    y_np = _np(backend, y)
    zero = y_np == 0
    expect_cmp(
        abs(zero.mean() - prob),
        "<",
        5 * np.sqrt(prob * (1 - prob) / n),
        "ivy.dropout: abs(zero.mean() - prob)",
    )
    np.testing.assert_allclose(y_np[~zero], 2.0 / (1 - prob), rtol=1e-6)  # kept: scaled by 1/(1-p)
    # the expectation is kept
    expect_cmp(abs(y_np.mean() - 2.0), "<", 0.05, "ivy.dropout: abs(y_np.mean() - 2.0)")


@covers("dropout")
def test_dropout_unscaled_and_global_state(backend):
    x_np = np.random.default_rng(3).uniform(1.0, 2.0, size=(100, 100))
    ivy.seed(3, backend=backend)
    y_np = _np(backend, ivy.dropout(to_native(backend, x_np), 0.5, scale=False))
    zero = y_np == 0
    expect_cmp(zero.mean(), ">", 0.45, "ivy.dropout: the share of zeros")
    expect_cmp(zero.mean(), "<", 0.55, "ivy.dropout: the share of zeros")
    np.testing.assert_array_equal(y_np[~zero], x_np[~zero])  # kept elements unchanged


@covers("dropout")
def test_dropout_identity_cases(backend):
    x_np = np.random.default_rng(4).standard_normal((4, 5))
    x = to_native(backend, x_np)
    np.testing.assert_array_equal(_np(backend, ivy.dropout(x, 0.7, training=False)), x_np)
    np.testing.assert_array_equal(_np(backend, ivy.dropout(x, 0.0)), x_np)
