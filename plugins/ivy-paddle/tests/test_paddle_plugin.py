"""Focused tests of the PaddlePaddle plugin: loading, completeness and paddle's quirks.

tensorflow is never imported here: paddle segfaults when imported after it.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import ivy
from ivy.errors import UnsupportedDTypeError


@pytest.fixture(scope="module")
def xp():
    return ivy.backend_namespace("paddle")


def test_paddle_plugin_loads_and_validates(xp) -> None:
    import paddle

    assert xp.name == "paddle"
    info = xp.__array_namespace_info__()
    assert set(info.dtypes()) == {
        "bool",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "float32",
        "float64",
        "complex64",
        "complex128",
    }
    assert info.default_dtypes()["real floating"] == paddle.float32
    assert info.default_dtypes()["indexing"] == paddle.int64
    assert ivy.is_native_array(xp.asarray([1.0]))
    assert str(xp.asarray([1], device="cpu").place) == "Place(cpu)"
    # a (stand-in) tensorflow imported first: a clear error instead of a segfault
    code = (
        "import sys, types; sys.modules['tensorflow'] = types.ModuleType('tensorflow'); import ivy\n"
        "try:\n    ivy.backend_namespace('paddle')\nexcept ivy.BackendConflictError:\n    print('refused')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=900)
    assert out.stdout.strip() == "refused", out.stderr


def test_paddle_every_spec_op_is_present() -> None:
    xp = ivy.backend_namespace("paddle")
    assert xp is not None
    assert set(ivy._spec.SPECS) == set(ivy._registry.get_backend("paddle").ops)


def test_paddle_unsigned_wider_than_uint8_is_refused(xp) -> None:
    # paddle.uint16 is bfloat16 storage: it must never stand in for the standard's uint16
    for name in ("uint16", "uint32", "uint64"):
        with pytest.raises(UnsupportedDTypeError):
            xp.zeros((2,), dtype=name)
    with pytest.raises(UnsupportedDTypeError):
        xp.asarray(np.arange(3, dtype=np.uint16))
    with pytest.raises(UnsupportedDTypeError):  # the default sum dtype of uint8 is uint64
        xp.sum(xp.asarray([1, 2], dtype="uint8"))
    assert xp.sum(xp.asarray([200, 100], dtype="uint8"), dtype="int64").item() == 300


def test_paddle_narrow_int_and_promotion_quirks(xp) -> None:
    i8 = xp.asarray([-100, 50, 3], dtype="int8")
    u8 = xp.asarray([200, 1, 3], dtype="uint8")
    # paddle has no int8 abs/multiply/maximum kernels and does not promote int8 with uint8
    np.testing.assert_array_equal(xp.abs(i8).numpy(), np.abs(i8.numpy()))
    got = xp.multiply(i8, u8)
    assert str(got.dtype) == "paddle.int16"
    np.testing.assert_array_equal(got.numpy(), i8.numpy().astype(np.int16) * u8.numpy().astype(np.int16))
    assert str(xp.maximum(i8, i8).dtype) == "paddle.int8"
    assert str(xp.add(xp.asarray([1, 2], dtype="int32"), 1.5).dtype) == "paddle.float32"
    # integer division by zero raises in paddle; NumPy's convention (0) is used instead
    np.testing.assert_array_equal(xp.floor_divide(xp.asarray([7, -7]), xp.asarray([0, 2])).numpy(), np.array([0, -4]))


def test_paddle_exact_float_equality_and_nan_unique(xp) -> None:
    # paddle.equal on floats is |a - b| < 1e-15; the plugin compares exactly
    a = xp.asarray(np.array([1.0, 1e-16, np.nan]))
    b = xp.asarray(np.array([1.0 + 2.0**-52, 0.0, np.nan]))
    np.testing.assert_array_equal(xp.equal(a, b).numpy(), [False, False, False])
    np.testing.assert_array_equal(xp.not_equal(a, b).numpy(), [True, True, True])
    # paddle.unique merges NaNs and miscounts them; each NaN is its own value in the standard
    vals, idx, inv, counts = xp.unique_all(xp.asarray(np.array([np.nan, 1.0, np.nan, 1.0])))
    np.testing.assert_array_equal(vals.numpy(), [1.0, np.nan, np.nan])
    np.testing.assert_array_equal(counts.numpy(), [2, 1, 1])
    np.testing.assert_array_equal(inv.numpy(), [1, 0, 2, 0])
    np.testing.assert_array_equal(idx.numpy(), [1, 0, 2])


def test_paddle_creation_and_linalg_details(xp) -> None:
    # paddle.zeros(3, dtype) would read the dtype as a second dimension
    z = xp.zeros(3, dtype="bool")
    assert list(z.shape) == [3] and str(z.dtype) == "paddle.bool"
    np.testing.assert_array_equal(xp.eye(3, 4, k=1, dtype="int8").numpy(), np.eye(3, 4, k=1, dtype=np.int8))
    s = xp.linalg.slogdet(xp.asarray(np.array([[2.0, 1.0], [1.0, 3.0]])))
    assert s._fields == ("sign", "logabsdet")
    np.testing.assert_allclose(s.logabsdet.numpy(), np.log(5.0))
    x = xp.asarray(np.array([0.5]))
    np.testing.assert_allclose(xp.linalg.vector_norm(x, ord=3).numpy(), 0.5, rtol=1e-12)


def test_paddle_integer_division_overflow_does_not_crash(tmp_path):
    # paddle's int32/int64 floor_divide and remainder kernels die with SIGFPE on INT_MIN / -1;
    # run in a subprocess so that a regression fails this test instead of killing the suite
    import subprocess
    import sys

    script = tmp_path / "int_min_div.py"
    script.write_text(
        "import numpy as np, paddle, ivy\n"
        "for dt in ('int32', 'int64'):\n"
        "    lo = np.iinfo(dt).min\n"
        "    a = np.array([lo, lo, 7, -7, 5, 0, lo], dtype=dt)\n"
        "    b = np.array([-1, 1, 0, 2, -1, -1, lo], dtype=dt)\n"
        "    with np.errstate(all='ignore'):\n"
        "        q, r = np.floor_divide(a, b), np.remainder(a, b)\n"
        "    q[2] = r[2] = 0  # division by zero: 0, NumPy's value\n"
        "    pa, pb = paddle.to_tensor(a), paddle.to_tensor(b)\n"
        "    np.testing.assert_array_equal(ivy.floor_divide(pa, pb).numpy(), q)\n"
        "    np.testing.assert_array_equal(ivy.remainder(pa, pb).numpy(), r)\n"
        "    np.testing.assert_array_equal(ivy.floor_divide(pa, -1).numpy(), np.negative(a))\n"
        "print('ok')\n"
    )
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=900)
    assert p.returncode == 0 and p.stdout.strip().endswith("ok"), (p.returncode, p.stderr[-3000:])
