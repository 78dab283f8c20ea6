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
from ivy.testing._helpers.registry import covers
from ivy.testing.convert import dtype_name, native_to_numpy, shape_of, to_native

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
    assert not np.array_equal(a, _np(backend, draw(backend, seed=124)))


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
    assert x.shape == (N,)
    assert x.min() >= -2.0 and x.max() < 3.0
    assert stats.kstest(x, "uniform", args=(-2.0, 5.0)).pvalue > 0.001
    assert stats.kstest(x, "uniform", args=(-2.0, 4.0)).pvalue < 0.001  # the test has power


@covers("random_uniform")
def test_random_uniform_array_bounds(backend):
    low, high = np.array([0.0, 10.0, -1.0]), np.array([1.0, 15.0, -0.5])
    x = _np(
        backend,
        ivy.random_uniform(
            low=to_native(backend, low), high=to_native(backend, high), shape=(N, 3), dtype="float64", seed=3
        ),
    )
    assert x.shape == (N, 3)
    for j in range(3):
        col = x[:, j]
        assert col.min() >= low[j] and col.max() < high[j]
        assert stats.kstest(col, "uniform", args=(low[j], high[j] - low[j])).pvalue > 0.001, f"column {j}"
    # shape=None: the broadcast shape of the bounds.
    y = ivy.random_uniform(low=to_native(backend, low[:, None]), high=to_native(backend, high), seed=4)
    assert shape_of(y) == (3, 3)


@covers("random_normal")
def test_random_normal_distribution(backend):
    x = _np(backend, ivy.random_normal(mean=1.5, std=0.5, shape=(N,), dtype="float64", seed=12, backend=backend))
    assert x.shape == (N,)
    assert stats.kstest(x, "norm", args=(1.5, 0.5)).pvalue > 0.001
    assert stats.kstest(x, "norm", args=(1.5, 0.6)).pvalue < 0.001


@covers("random_normal")
def test_random_normal_array_parameters(backend):
    mean, std = np.array([-3.0, 0.0, 100.0]), np.array([0.1, 1.0, 20.0])
    x = _np(
        backend,
        ivy.random_normal(
            mean=to_native(backend, mean), std=to_native(backend, std), shape=(N, 3), dtype="float64", seed=5
        ),
    )
    assert x.shape == (N, 3)
    for j in range(3):
        assert stats.kstest(x[:, j], "norm", args=(mean[j], std[j])).pvalue > 0.001, f"column {j}"
    y = ivy.random_normal(mean=to_native(backend, mean), std=1.0, seed=6)
    assert shape_of(y) == (3,)


@covers("random_uniform", "random_normal")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_float_dtypes_and_shapes(backend, dtype):
    u = ivy.random_uniform(shape=(2, 3, 4), dtype=dtype, seed=1, backend=backend)
    n = ivy.random_normal(shape=(5,), dtype=dtype, seed=1, backend=backend)
    assert shape_of(u) == (2, 3, 4) and dtype_name(u.dtype) == dtype
    assert shape_of(n) == (5,) and dtype_name(n.dtype) == dtype
    s = ivy.random_uniform(seed=1, backend=backend)  # scalar bounds, no shape: 0-d
    assert shape_of(s) == ()
    assert dtype_name(s.dtype) in ("float32", "float64")  # the default real floating-point dtype
    u_np = _np(backend, u)
    assert np.all((u_np >= 0) & (u_np < 1))


# ---------------------------------------------------------------------------- randint


@covers("randint")
def test_randint_range_and_frequencies(backend):
    x = _np(backend, ivy.randint(-3, 7, (N,), seed=21, backend=backend))
    assert x.shape == (N,) and x.dtype.kind == "i"
    assert x.min() >= -3 and x.max() < 7
    counts = np.bincount(x + 3, minlength=10)
    assert counts.shape == (10,)
    assert stats.chisquare(counts).pvalue > 0.001, counts


@covers("randint")
@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_randint_dtype(backend, dtype):
    x = ivy.randint(0, 5, (3, 4), dtype=dtype, seed=2, backend=backend)
    assert shape_of(x) == (3, 4) and dtype_name(x.dtype) == dtype
    d = ivy.randint(0, 5, (7,), seed=2, backend=backend)
    assert dtype_name(d.dtype) in ("int32", "int64")  # the default integer dtype


@covers("randint")
def test_randint_array_bounds(backend):
    low, high = np.array([0, 100, -50]), np.array([2, 110, -45])
    x = _np(backend, ivy.randint(to_native(backend, low), to_native(backend, high), (2000, 3), seed=8))
    assert x.shape == (2000, 3)
    for j in range(3):
        assert set(np.unique(x[:, j])) == set(range(low[j], high[j])), f"column {j}"
    y = ivy.randint(to_native(backend, low), to_native(backend, high), seed=9)
    assert shape_of(y) == (3,)


# ---------------------------------------------------------------------------- multinomial


@covers("multinomial")
def test_multinomial_frequencies(backend):
    probs = np.array([[0.1, 0.2, 0.7, 0.0], [2.0, 1.0, 1.0, 0.0]])  # the second row is unnormalised
    x = _np(backend, ivy.multinomial(4, N, probs=to_native(backend, probs), seed=31))
    assert x.shape == (2, N)
    assert x.min() >= 0 and x.max() <= 2  # probability 0 never drawn
    for row in range(2):
        p = probs[row] / probs[row].sum()
        freq = np.bincount(x[row], minlength=4) / N
        tol = 5 * np.sqrt(p * (1 - p) / N) + 1e-12
        assert np.all(np.abs(freq - p) <= tol), (row, freq, p)


@covers("multinomial")
def test_multinomial_uniform_and_without_replacement(backend):
    x = _np(backend, ivy.multinomial(6, 300, batch_size=3, seed=32, backend=backend))
    assert x.shape == (3, 300) and x.dtype.kind == "i"
    assert x.min() >= 0 and x.max() < 6
    assert set(np.unique(x)) == set(range(6))
    y = _np(backend, ivy.multinomial(10, 10, batch_size=4, replace=False, seed=33, backend=backend))
    assert y.shape == (4, 10)
    for row in y:  # no repeats: every index exactly once
        assert sorted(row.tolist()) == list(range(10))
    probs = np.array([[0.5, 0.0, 0.25, 0.25]])
    z = _np(backend, ivy.multinomial(4, 3, probs=to_native(backend, probs), replace=False, seed=34))
    assert z.shape == (1, 3) and sorted(z[0].tolist()) == [0, 2, 3]


# ---------------------------------------------------------------------------- shuffle


@covers("shuffle")
def test_shuffle_is_a_permutation(backend):
    x_np = np.arange(200.0)
    y = ivy.shuffle(to_native(backend, x_np), seed=41)
    assert shape_of(y) == (200,) and dtype_name(y.dtype) == "float64"
    y_np = _np(backend, y)
    np.testing.assert_array_equal(np.sort(y_np), x_np)
    assert not np.array_equal(y_np, x_np)


@covers("shuffle")
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_shuffle_axis_moves_whole_slices(backend, axis):
    x_np = np.arange(12 * 30, dtype=np.int64).reshape(12, 30)
    y_np = _np(backend, ivy.shuffle(to_native(backend, x_np), axis, seed=42))
    assert y_np.shape == x_np.shape and y_np.dtype == np.int64
    ax = axis % 2
    xs, ys = np.moveaxis(x_np, ax, 0), np.moveaxis(y_np, ax, 0)
    # Each slice along the axis is one of the original slices, intact; all of them appear once.
    order = [int(np.flatnonzero((xs == s).all(axis=1))[0]) for s in ys]
    assert sorted(order) == list(range(xs.shape[0]))
    assert order != list(range(xs.shape[0]))


# ---------------------------------------------------------------------------- bernoulli / dropout


@covers("bernoulli")
def test_bernoulli_mean(backend):
    x = _np(backend, ivy.bernoulli(0.3, shape=(20000,), dtype="float64", seed=51, backend=backend))
    assert x.shape == (20000,)
    assert set(np.unique(x)) <= {0.0, 1.0}
    assert abs(x.mean() - 0.3) < 5 * np.sqrt(0.3 * 0.7 / 20000)


@covers("bernoulli")
def test_bernoulli_array_probs(backend):
    p = np.array([0.0, 0.1, 0.9, 1.0])
    x = _np(backend, ivy.bernoulli(to_native(backend, p), shape=(N, 4), dtype="float32", seed=52))
    assert x.shape == (N, 4) and x.dtype == np.float32
    np.testing.assert_array_equal(x[:, 0], 0.0)
    np.testing.assert_array_equal(x[:, 3], 1.0)
    for j in (1, 2):
        assert abs(x[:, j].mean() - p[j]) < 5 * np.sqrt(p[j] * (1 - p[j]) / N)
    y = ivy.bernoulli(to_native(backend, p), seed=53)  # shape None: the shape of probs
    assert shape_of(y) == (4,)


@covers("bernoulli")
def test_bernoulli_bool_dtype(backend):
    x = ivy.bernoulli(0.5, shape=(1000,), dtype="bool", seed=54, backend=backend)
    assert dtype_name(x.dtype) == "bool" and shape_of(x) == (1000,)
    x_np = _np(backend, x)
    assert 0.4 < x_np.mean() < 0.6


@covers("dropout")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_dropout_expectation_and_rate(backend, dtype):
    prob, n = 0.3, 50000
    x_np = np.full(n, 2.0, dtype=dtype)
    y = ivy.dropout(to_native(backend, x_np), prob, seed=61)
    assert shape_of(y) == (n,) and dtype_name(y.dtype) == dtype
    y_np = _np(backend, y)
    zero = y_np == 0
    assert abs(zero.mean() - prob) < 5 * np.sqrt(prob * (1 - prob) / n)
    np.testing.assert_allclose(y_np[~zero], 2.0 / (1 - prob), rtol=1e-6)  # kept: scaled by 1/(1-p)
    assert abs(y_np.mean() - 2.0) < 0.05  # the expectation is kept


@covers("dropout")
def test_dropout_unscaled_and_global_state(backend):
    x_np = np.random.default_rng(3).uniform(1.0, 2.0, size=(100, 100))
    ivy.seed(3, backend=backend)
    y_np = _np(backend, ivy.dropout(to_native(backend, x_np), 0.5, scale=False))
    zero = y_np == 0
    assert 0.45 < zero.mean() < 0.55
    np.testing.assert_array_equal(y_np[~zero], x_np[~zero])  # kept elements unchanged


@covers("dropout")
def test_dropout_identity_cases(backend):
    x_np = np.random.default_rng(4).standard_normal((4, 5))
    x = to_native(backend, x_np)
    np.testing.assert_array_equal(_np(backend, ivy.dropout(x, 0.7, training=False)), x_np)
    np.testing.assert_array_equal(_np(backend, ivy.dropout(x, 0.0)), x_np)
