"""Tests of the NumPy plugin itself: loading, completeness and the places where it corrects NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import ivy
from ivy.errors import UnsupportedDTypeError


@pytest.fixture(scope="module")
def xp():
    return ivy.backend_namespace("numpy")


def test_numpy_plugin_loads_and_validates(xp) -> None:
    from ivy import _registry

    backend = _registry.get_backend("numpy")
    _registry.validate(backend.dist, backend.impl)  # every signature is call-compatible with its spec
    assert xp.name == "numpy"
    info = xp.__array_namespace_info__()
    assert info.devices() == ["cpu"] and info.default_device() == "cpu"
    assert set(info.dtypes()) == set(ivy._dtypes.DTYPE_NAMES)
    assert info.default_dtypes()["integral"] == np.int64
    assert xp.is_native_array(np.float32(1.0)) and xp.is_native_array(np.zeros(2))


def test_numpy_plugin_implements_every_spec_op() -> None:
    assert set(ivy._spec.SPECS) == set(ivy._registry.get_backend("numpy").ops)


def test_numpy_plugin_dtype_corrections(xp) -> None:
    # clip keeps x's dtype where np.clip promotes with array bounds.
    assert xp.clip(np.arange(4, dtype=np.int8), np.asarray(1, np.int16), None).dtype == np.int8
    # can_cast follows the standard's promotion lattice, not NumPy's cross-kind "safe" casting.
    assert not xp.can_cast(np.bool_, "int8") and not xp.can_cast("int64", xp.float64)
    assert xp.can_cast(ivy.int8, "int16") and xp.can_cast("float32", np.complex64)
    # isdtype accepts names and ivy.DType (np.isdtype answers False for them).
    assert xp.isdtype(ivy.float32, "real floating") and xp.isdtype("int8", ("bool", ivy.int8))
    # finfo/iinfo take arrays and give Python numbers.
    fi = xp.finfo(np.ones(2, np.complex64))
    assert fi.dtype == np.float32 and type(fi.eps) is float
    assert xp.iinfo(np.ones(2, np.uint8)).max == 255
    # astype refuses complex -> real (NumPy would drop the imaginary part with a warning).
    with pytest.raises(TypeError):
        xp.astype(np.ones(2, np.complex64), "float32")
    # fftfreq takes dtype (NumPy's does not); count_nonzero returns an array, not a Python int.
    assert xp.fft.fftfreq(4, dtype=ivy.float32).dtype == np.float32
    assert xp.count_nonzero(np.ones((2, 2))).dtype == np.int64


def test_numpy_plugin_keyword_corrections(xp) -> None:
    x = np.array([3.0, 1.0, 2.0, 1.0])
    np.testing.assert_array_equal(xp.sort(x, descending=True), [3.0, 2.0, 1.0, 1.0])
    # Stable descending argsort keeps equal elements in their original order.
    np.testing.assert_array_equal(xp.argsort(x, descending=True), [0, 2, 1, 3])
    np.testing.assert_array_equal(xp.diff(x, prepend=np.array([0.0])), [3.0, -2.0, 1.0, -1.0])
    assert xp.expand_dims(x).shape == (1, 4)
    np.testing.assert_array_equal(xp.repeat(x[:2], np.array([2, 1], np.uint64)), [3.0, 3.0, 1.0])
    np.testing.assert_array_equal(xp.unique_values(np.array([3, 1, 2, 1])), [1, 2, 3])
    assert isinstance(xp.meshgrid(x, x), list) and isinstance(xp.broadcast_arrays(x, x), list)
    # irfftn: -1 for the last axis means 2 * (m - 1) as for None; s without axes means the last axes.
    assert xp.fft.irfftn(np.ones((2, 4), np.complex64), s=(2, -1)).shape == (2, 6)
    assert xp.fft.fftn(np.ones((2, 4)), s=(3,)).shape == (2, 3)
    np.testing.assert_allclose(xp.linalg.pinv(np.diag([1.0, 1e-17])), np.diag([1.0, 0.0]))


def test_numpy_plugin_asarray(xp) -> None:
    x = np.arange(3.0)
    assert xp.asarray(x) is x and xp.asarray(x, copy=True) is not x
    with pytest.raises(ValueError):
        xp.asarray(x, dtype="float32", copy=False)
    with pytest.raises(OverflowError):
        xp.asarray(2**64)
    assert xp.asarray([True, 2]).dtype == np.int64 and xp.asarray([1, 2.5j]).dtype == np.complex128
    with pytest.raises(ValueError):
        xp.zeros(2, device="gpu:0")  # NumPy has no GPU
    assert xp.zeros(2, device="cpu", dtype=ivy.int16).dtype == np.int16
    y = xp.from_dlpack(x)
    assert np.shares_memory(x, y)


def test_numpy_plugin_asarray_from_torch(xp) -> None:
    torch = pytest.importorskip("torch")
    t = torch.arange(4.0)
    assert np.shares_memory(xp.asarray(t, copy=False), t.numpy())
    c = xp.asarray(t, copy=True, dtype="float64")
    assert c.dtype == np.float64 and not np.shares_memory(c, t.numpy())
    np.testing.assert_array_equal(xp.asarray(torch.ones(2, requires_grad=True)), [1.0, 1.0])
    with pytest.raises(UnsupportedDTypeError):
        xp.asarray(torch.ones(2, dtype=torch.bfloat16))
