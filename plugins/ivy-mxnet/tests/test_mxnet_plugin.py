"""Focused tests of the MXNet plugin: a framework-free entry point, loading, MXNet's dtypes and
devices, and the places where MXNet's own kernels are worked around (zero-size arrays, bool
layouts, int64 scalars, DLPack). Cross-backend behaviour is the conformance kit's job.

    scripts/mxnet_env.sh -- plugins/ivy-mxnet/tests -q
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

mx = pytest.importorskip("mxnet")

import ivy
from ivy.errors import UnsupportedDTypeError
from ivy.plugin_kit import spec_ops


@pytest.fixture(scope="module")
def xp():
    return ivy.backend_namespace("mxnet")


def nat(a, dtype=None):
    """An mxnet.numpy array built with MXNet's own API (not through the plugin under test)."""
    a = np.asarray(a, dtype=dtype)
    return mx.np.array(a, dtype=a.dtype)


def test_entry_point_imports_no_framework() -> None:
    code = (
        "import sys, ivy_mxnet, ivy\nivy.backends()\nprint(sorted(m for m in ('mxnet', 'numpy') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=900, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_backend_loads_with_mxnets_dtypes(xp) -> None:
    assert "mxnet" in ivy.backends()
    info = xp.__array_namespace_info__()
    assert set(info.dtypes()) == {"bool", "int8", "int32", "int64", "uint8", "float32", "float64"}
    assert info.default_dtypes()["real floating"] == np.dtype("float32")
    assert info.default_dtypes()["integral"] == np.dtype("int64")
    (row,) = [r for r in ivy.backends(details=True) if r["name"] == "mxnet"]
    assert row["status"] == "loaded" and row["missing"] == []  # every spec op: its own or core's composed one
    assert sorted(row["native"] + row["composed"]) == sorted(spec_ops())
    assert isinstance(xp.asarray([1.0]), mx.np.ndarray)


def test_dtypes_mxnet_lacks_are_refused(xp) -> None:
    for name in ("int16", "uint16", "uint32", "uint64", "complex64", "complex128"):
        with pytest.raises(UnsupportedDTypeError):
            xp.zeros((2,), dtype=name)
    with pytest.raises(UnsupportedDTypeError):
        xp.asarray(np.arange(3, dtype=np.int16))
    with pytest.raises(UnsupportedDTypeError):  # int8 with uint8 promotes to int16
        xp.add(nat([1], "int8"), nat([2], "uint8"))
    with pytest.raises(UnsupportedDTypeError):  # the standard's sum of uint8 is uint64
        xp.sum(nat([1, 2], "uint8"))
    assert xp.sum(nat([200, 100], "uint8"), dtype="int64").item() == 300
    # comparisons need no int16: exact in a wider integer
    np.testing.assert_array_equal(xp.less(nat([-1, 5], "int8"), nat([0, 4], "uint8")).asnumpy(), [True, False])


def test_python_data_gets_the_standards_dtypes(xp) -> None:
    # mxnet.numpy.array makes float32 of anything; the plugin infers as the standard says
    assert xp.asarray([1, 2]).dtype == np.int64
    assert xp.asarray([True, False]).dtype == np.bool_
    assert xp.asarray([1.5]).dtype == np.float32
    assert xp.arange(3).dtype == np.int64
    assert xp.full((2,), 7).dtype == np.int64


def test_int64_beyond_doubles_stays_exact(xp) -> None:
    big = 2**62 + 1  # MXNet passes scalar operands as doubles, which would round this
    x = nat([big, 3], "int64")
    np.testing.assert_array_equal(xp.equal(x, big).asnumpy(), [True, False])
    np.testing.assert_array_equal(xp.full((2,), big).asnumpy(), [big, big])
    assert int(xp.floor_divide(x, 2).asnumpy()[0]) == big // 2


def test_devices(xp) -> None:
    x = nat([1.0, 2.0])
    assert ivy.dev(x) == "cpu" and ivy.dev(x, as_native=True) == mx.cpu(0)
    assert ivy.to_device(x, "cpu") is x
    n = ivy.num_gpus(backend="mxnet")
    assert ivy.devices(backend="mxnet") == ["cpu"] + [f"gpu:{i}" for i in range(n)]
    with pytest.raises(ValueError, match="gpu"):
        ivy.to_device(x, f"gpu:{n}")
    with pytest.raises(ValueError):
        ivy.to_device(x, "tpu:0")


def test_from_dlpack_copies(xp) -> None:
    # MXNet's zero-copy import frees memory it does not own while its engine still reads it:
    # the plugin copies, so the source can change (or go) without touching the result
    a = np.arange(4.0)
    out = xp.from_dlpack(a)
    a[0] = 99.0
    np.testing.assert_array_equal(out.asnumpy(), [0.0, 1.0, 2.0, 3.0])
    with pytest.raises(BufferError):
        xp.from_dlpack(np.arange(3.0), copy=False)


@pytest.mark.parametrize("shape", [(0,), (0, 3), (2, 0), (2, 0, 3)])
def test_zero_size_arrays(xp, shape) -> None:
    """MXNet's kernels fail or crash on many zero-size arrays: results match NumPy's."""
    a = np.zeros(shape)
    x = nat(a)
    checks = {
        "sum": (xp.sum(x, axis=0), np.sum(a, axis=0)),
        "prod": (xp.prod(x, axis=-1), np.prod(a, axis=-1)),
        "mean": (xp.mean(x, axis=0), np.full(a.shape[1:], np.nan)),
        "tril": (xp.tril(x) if a.ndim >= 2 else x, np.tril(a) if a.ndim >= 2 else a),
        "where": (xp.where(xp.greater(x, 0.0), x, 1.0), np.where(a > 0, a, 1.0)),
        "take": (xp.take(x, nat(np.zeros(0, np.int64)), axis=-1), np.take(a, np.zeros(0, np.int64), axis=-1)),
        "mask": (ivy.get_item(x, x > 1), a[a > 1]),
        "repeat": (xp.repeat(x, 2, axis=0), np.repeat(a, 2, axis=0)),
    }
    for name, (got, want) in checks.items():
        assert got.shape == want.shape, name
        np.testing.assert_array_equal(got.asnumpy(), want, err_msg=name)


def test_bool_arrays_through_layout_ops(xp) -> None:
    """MXNet's transposes, flips and rolls refuse bool arrays: computed on uint8 instead."""
    b = np.array([[True, False, False], [False, True, True]])
    x = nat(b)
    np.testing.assert_array_equal(xp.permute_dims(x, (1, 0)).asnumpy(), b.T)
    np.testing.assert_array_equal(xp.flip(x, axis=1).asnumpy(), b[:, ::-1])
    np.testing.assert_array_equal(xp.roll(x, 1, axis=1).asnumpy(), np.roll(b, 1, axis=1))
    np.testing.assert_array_equal(xp.linalg.diagonal(x).asnumpy(), np.diagonal(b))
    np.testing.assert_array_equal(ivy.set_item(x, (0, 1), True).asnumpy(), [[True, True, False], [False, True, True]])
    np.testing.assert_array_equal(xp.eye(2, dtype="bool").asnumpy(), np.eye(2, dtype=bool))
    np.testing.assert_array_equal(
        xp.max_pool1d(nat(b[None, :, :]), 2, 1, "VALID").asnumpy(), b[None, :, :].max(1, keepdims=True)
    )


def test_boolean_masks_selecting_nothing(xp) -> None:
    a = np.arange(6.0).reshape(2, 3)
    x = nat(a)
    for mask in (a > 10, a > 2, np.array([False, True])):
        np.testing.assert_array_equal(ivy.get_item(x, nat(mask)).asnumpy(), a[mask])
    got = ivy.set_item(x, nat(a > 10), 0.0)
    np.testing.assert_array_equal(got.asnumpy(), a)


def test_pools_of_integers_and_padding(xp) -> None:
    a = np.random.default_rng(0).integers(-50, 50, size=(2, 7, 3)).astype(np.int64)
    got = xp.max_pool1d(nat(a), 3, 2, "SAME").asnumpy()
    padded = np.pad(a, ((0, 0), (1, 1), (0, 0)), constant_values=np.iinfo(np.int64).min)
    want = np.stack([padded[:, i : i + 3].max(axis=1) for i in range(0, 7, 2)], axis=1)
    np.testing.assert_array_equal(got, want)
    assert got.dtype == np.int64


def test_compile_returns_the_function_and_matches_eager(xp) -> None:
    def f(x):
        return ivy.sum(ivy.multiply(ivy.sin(x), x))

    g = ivy.compile(f, backend="mxnet")
    assert g is f  # MXNet compiles Gluon blocks (hybridize), not functions
    x = nat(np.linspace(-1.0, 1.0, 5))
    assert ivy.compile(f)(x).item() == f(x).item()


def test_array_bounds_of_random_uniform_stay_half_open(xp) -> None:
    lo, hi = np.float32(1.0), np.nextafter(np.float32(1.0), np.float32(2.0))
    z = xp.random_uniform(low=nat(lo), high=nat(hi), shape=(100,), dtype="float32").asnumpy()
    assert (z < hi).all() and (z >= lo).all()


def test_readme_coverage_line_is_current() -> None:
    script = Path(__file__).resolve().parents[1] / "gen_coverage.py"
    out = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr + out.stdout
