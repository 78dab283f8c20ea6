"""The NumPy backend's sigmoid: accurate to a few ulp everywhere (both tails, subnormal results,
infinities, NaN), without floating-point warnings, against a wider-precision reference.

    python -m pytest plugins/ivy-numpy/tests/test_numpy_sigmoid.py -q
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

ivy = pytest.importorskip("ivy")

#: a range per dtype wide enough to reach the overflow point of exp(-x) and results of 0 and 1
_LIMIT = {np.float16: 20.0, np.float32: 120.0, np.float64: 760.0}


def _reference(x: np.ndarray) -> np.ndarray:
    """1 / (1 + exp(-x)) in a wider float (exp(-x) may be inf there: 1 / inf is the 0 it means)."""
    wide = np.float64 if x.dtype != np.float64 else np.longdouble
    v = x.astype(wide)
    with np.errstate(over="ignore"):
        return 1 / (1 + np.exp(-v))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64], ids=lambda d: d.__name__)
def test_numpy_sigmoid_matches_a_wider_reference(dtype: type) -> None:
    if dtype is np.float64 and np.finfo(np.longdouble).nmant <= np.finfo(np.float64).nmant:
        pytest.skip("no wider float than float64 on this platform")
    lim = _LIMIT[dtype]
    rng = np.random.default_rng(0)
    x = np.concatenate(
        [
            np.linspace(-lim, lim, 40001),
            rng.uniform(-lim, lim, 20000),
            [0.0, -0.0, np.inf, -np.inf, np.nan, np.finfo(dtype).tiny, -np.finfo(dtype).tiny],
        ]
    ).astype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow/underflow/invalid warnings
        got = ivy.backend_namespace("numpy").sigmoid(x)
    assert got.dtype == dtype and got.shape == x.shape
    ref = _reference(x)
    want = ref.astype(dtype)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(x))
    np.testing.assert_array_equal(got == 0, want == 0)  # the subnormal results are kept, not flushed
    assert got[x == np.inf].tolist() == [1.0] and got[x == -np.inf].tolist() == [0.0]
    ok = np.isfinite(want) & (want != 0)
    err_ulp = np.abs(got[ok].astype(ref.dtype) - ref[ok]) / np.spacing(want[ok]).astype(ref.dtype)
    assert float(err_ulp.max()) <= 4.0


def test_numpy_sigmoid_of_scalars_integers_and_views() -> None:
    xp = ivy.backend_namespace("numpy")
    got = xp.sigmoid(np.array(-30.0, np.float32))
    assert got.dtype == np.float32 and got.shape == ()
    np.testing.assert_allclose(got, 1 / (1 + np.exp(30.0)), rtol=1e-6)
    ints = np.array([-3, 0, 4])
    np.testing.assert_allclose(xp.sigmoid(ints), 1 / (1 + np.exp(-ints.astype(np.float64))), rtol=1e-15)
    x = np.linspace(-5, 5, 20, dtype=np.float32).reshape(4, 5)[:, ::2]  # not contiguous
    np.testing.assert_allclose(xp.sigmoid(x), _reference(x).astype(np.float32), rtol=3e-7)
    before = x.copy()
    xp.sigmoid(x)
    np.testing.assert_array_equal(x, before)  # the in-place steps never touch the input
