"""Random sampling and devices beyond ``test_fn_random`` and ``test_fn_device``: default dtypes,
the half-open interval at float32 rounding, errors of impossible draws, weighted draws without
replacement, dropout's masks and scale, and the errors of ``to_device``."""

from __future__ import annotations

import numpy as np
import pytest

import ivy
from ivy.testing._helpers.facts import expect, expect_cmp, expect_dtype, expect_shape
from ivy.testing._helpers.registry import covers
from ivy.testing._helpers.strategies import supported_dtypes
from ivy.testing.convert import dtype_name


def _default(xp, kind):
    return dtype_name(xp.__array_namespace_info__().default_dtypes()[kind])


@covers("random_uniform", "random_normal", "bernoulli", "randint", "multinomial")
def test_fn_random_default_dtypes(backend, xp):
    real, integral = _default(xp, "real floating"), _default(xp, "integral")
    for draw in (ivy.random_uniform, ivy.random_normal):
        expect_dtype(draw(shape=(3,), seed=0, backend=backend), real, f"ivy.{draw.__name__}")
    expect_dtype(ivy.bernoulli(0.5, shape=(3,), seed=0, backend=backend), real, "ivy.bernoulli")
    expect_dtype(ivy.randint(0, 5, (3,), seed=0, backend=backend), integral, "ivy.randint")
    expect_dtype(ivy.multinomial(4, 3, seed=0, backend=backend), integral, "ivy.multinomial")


@covers("random_uniform")
def test_fn_random_uniform_stays_below_high_at_float32_rounding(backend, to_native, to_numpy):
    one = np.float32(1.0)
    z = ivy.random_uniform(
        low=to_native(one), high=to_native(np.nextafter(one, np.float32(2))), shape=(1000,), dtype="float32", seed=2
    )
    np.testing.assert_array_equal(to_numpy(z), np.full(1000, one))  # half-open even where rounding reaches high


@covers("random_uniform", "randint")
def test_fn_random_draws_on_an_unavailable_device_raise(backend):
    gone = f"gpu:{ivy.num_gpus(backend=backend)}"  # one past the last GPU
    with pytest.raises(ValueError):
        ivy.random_uniform(shape=(2,), device=gone, backend=backend)
    with pytest.raises(ValueError):
        ivy.randint(0, 3, (2,), device=gone, backend=backend)


@covers("randint")
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16"])
def test_fn_randint_narrow_dtypes_and_an_empty_range(backend, to_numpy, dtype):
    if dtype not in supported_dtypes(backend):
        pytest.skip(f"the {backend!r} backend has no {dtype}")
    x = ivy.randint(0, 5, (400,), dtype=dtype, seed=2, backend=backend)
    expect_dtype(x, dtype, "ivy.randint")
    expect(set(to_numpy(x).tolist()), set(range(5)), "ivy.randint: set(to_numpy(x).tolist())")
    with pytest.raises(ValueError):
        ivy.randint(5, 5, (3,), backend=backend)  # [5, 5) holds no integer


@covers("multinomial")
def test_fn_multinomial_weighted_without_replacement(to_native, to_numpy):
    w = np.array([[0.0, 1.0, 1.0, 2.0]] * 4000)
    d = to_numpy(ivy.multinomial(4, 3, probs=to_native(w), replace=False, seed=3))
    expect(d.shape, (4000, 3), "ivy.multinomial: d.shape")
    # weight 0 never, no repeats
    assert (d != 0).all(), "ivy.multinomial: expected (d != 0).all()"
    assert all(len(set(row)) == 3 for row in d.tolist()), (
        "ivy.multinomial: expected all((len(set(row)) == 3 for row in d.tolist()))"
    )
    # the first draw follows the weights
    expect_cmp(abs((d[:, 0] == 3).mean() - 0.5), "<", 0.03, "ivy.multinomial: abs((d[:, 0] == 3).mean() - 0.5)")
    again = to_numpy(ivy.multinomial(3, 6, probs=to_native(np.array([[0.2, 0.3, 0.5]])), seed=5))
    np.testing.assert_array_equal(
        again, to_numpy(ivy.multinomial(3, 6, probs=to_native(np.array([[0.2, 0.3, 0.5]])), seed=5))
    )


@covers("multinomial")
def test_fn_multinomial_impossible_draws_raise(backend, to_native):
    with pytest.raises(ValueError):  # more draws than categories of non-zero weight
        ivy.multinomial(4, 3, probs=to_native(np.array([[0.0, 1.0, 1.0, 0.0]])), replace=False, seed=3)
    with pytest.raises(ValueError):  # more draws than categories
        ivy.multinomial(3, 4, batch_size=1, replace=False, backend=backend)


@covers("shuffle")
def test_fn_shuffle_leaves_its_input_and_needs_an_axis(to_native, to_numpy):
    x_np = np.arange(12).reshape(3, 4)
    x = to_native(x_np)
    s = to_numpy(ivy.shuffle(x, 1, seed=3))
    expect(sorted(s[0].tolist()), [0, 1, 2, 3], "ivy.shuffle: sorted(s[0].tolist())")
    np.testing.assert_array_equal(to_numpy(x), x_np)  # not modified
    b = to_numpy(ivy.shuffle(to_native(np.array([True, False, False])), seed=1))
    expect(b.dtype, np.bool_, "ivy.shuffle: b.dtype")
    expect(sorted(b.tolist()), [False, False, True], "ivy.shuffle: sorted(b.tolist())")
    with pytest.raises(ValueError):
        ivy.shuffle(to_native(np.asarray(1.0)))  # a 0-d array has no axis to permute


@covers("bernoulli")
def test_fn_bernoulli_integer_dtype_broadcasts_probs(to_native, to_numpy):
    d = ivy.bernoulli(to_native(np.array([0.0, 1.0])), shape=(3, 2), dtype="int32", seed=2)
    expect_shape(d, (3, 2), "ivy.bernoulli")
    expect_dtype(d, "int32", "ivy.bernoulli")
    np.testing.assert_array_equal(to_numpy(d), [[0, 1]] * 3)


@covers("dropout")
def test_fn_dropout_scale_is_exact_and_the_mask_follows_the_seed(backend, to_native, to_numpy):
    x = to_native(np.ones(20000))
    y = to_numpy(ivy.dropout(x, 0.25, seed=0))
    z = to_numpy(ivy.dropout(x, 0.25, scale=False, seed=0))
    np.testing.assert_array_equal(z == 0, y == 0)  # the same seed drops the same elements
    expect_cmp(set(np.unique(z).tolist()), "<=", {0.0, 1.0}, "ivy.dropout: set(np.unique(z).tolist())")
    ivy.seed(1, backend=backend)
    g = to_numpy(ivy.dropout(x, 0.3))  # the global generator; float64 kept exactly at 1 / 0.7
    expect_cmp(set(np.unique(g).tolist()), "<=", {0.0, 1.0 / 0.7}, "ivy.dropout: set(np.unique(g).tolist())")
    expect_cmp(abs((g == 0).mean() - 0.3), "<", 0.02, "ivy.dropout: abs((g == 0).mean() - 0.3)")


# ---------------------------------------------------------------------------- devices


@covers("to_device")
def test_fn_to_device_errors_name_the_device(backend, to_native):
    x = to_native(np.ones(2))
    n = ivy.num_gpus(backend=backend)
    for d in (f"cuda:{n}", f"gpu:{n + 1}", "tpu:0", "nonsense:0"):
        with pytest.raises(ValueError) as info:
            ivy.to_device(x, d)
        assert d in str(info.value), str(info.value)
    with pytest.raises(ValueError):
        ivy.to_device(x, 3.5)
