"""Focused tests of the ivy-jax plugin: loading, completeness and JAX's own quirks."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

pytest.importorskip("jax")


@pytest.fixture(scope="module")
def xp():
    import ivy

    return ivy.backend_namespace("jax")


def test_jax_plugin_loads_and_validates(xp):
    import jax

    import ivy

    assert xp.name == "jax"
    info = xp.__array_namespace_info__()
    assert info.default_device() in info.devices()
    assert set(info.dtypes()) <= {
        "bool",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "float32",
        "float64",
        "complex64",
        "complex128",
    }
    x = xp.asarray([1.0, 2.0])
    assert isinstance(x, jax.Array) and ivy.is_native_array(x)
    assert ivy.namespace(x) is xp


def test_jax_every_spec_op_is_present(xp):
    import ivy

    assert set(ivy._spec.SPECS) == set(ivy._registry.get_backend("jax").ops)


def test_jax_quirks_against_numpy(xp):
    import jax

    # Python scalars must give strongly typed arrays (JAX would make them "weak").
    a = xp.asarray(1)
    i8 = xp.asarray([1, 2], dtype="int8")
    assert np.dtype((i8 + a).dtype) == np.result_type(np.int8, np.dtype(a.dtype))
    assert np.dtype(xp.full((2,), 1.5).dtype) == np.dtype(xp.asarray(1.5).dtype)
    # searchsorted returns the default index dtype (jnp returns int32).
    idx = xp.searchsorted(xp.asarray([1.0, 2.0, 3.0]), xp.asarray([2.5]))
    assert idx.dtype == xp.__array_namespace_info__().default_dtypes()["indexing"]
    # matrix_rank's rtol is relative to the largest singular value.
    m = np.diag([10.0, 1.0, 0.1])
    assert int(xp.linalg.matrix_rank(xp.asarray(m), rtol=0.05)) == np.sum(np.linalg.svd(m)[1] > 0.5)
    # eigh reads only the lower triangle, like NumPy.
    low = np.array([[2.0, 99.0], [1.0, 3.0]])
    np.testing.assert_allclose(np.asarray(xp.linalg.eigvalsh(xp.asarray(low))), np.linalg.eigvalsh(low), rtol=1e-5)
    # astype(copy=False) with the same dtype returns the array itself; complex -> real is refused.
    f = xp.asarray([1.0])
    assert xp.astype(f, f.dtype, copy=False) is f
    with pytest.raises(TypeError):
        xp.astype(xp.asarray([1j]), "float32")
    # ops work on tracers, inside jit and grad
    g = jax.grad(lambda t: xp.sum(xp.sin(t)))(xp.asarray([0.0, 1.0]))
    np.testing.assert_allclose(np.asarray(g), np.cos([0.0, 1.0]), rtol=1e-6)
    # device strings
    z = xp.zeros(2, device="cpu")
    assert next(iter(z.devices())).platform == "cpu"
    # from_dlpack and asarray from NumPy; conversions out
    n = np.arange(3, dtype=np.int32)
    assert xp.to_list(xp.from_dlpack(n)) == [0, 1, 2]
    assert xp.to_scalar(xp.asarray([[7]], dtype="int16")) == 7
    out = xp.to_numpy(xp.asarray(n))
    out[0] = 5  # a writable copy
    assert out.flags.writeable


def test_jax_arrays_from_numpy_lists_and_copies_compile_no_program(xp):
    # jnp.asarray(np_array) without a dtype, jnp.asarray(list, dtype=...) and jnp.array(x,
    # copy=True) compile an XLA program for every new shape (~15 ms each): the plugin transfers
    # and copies without one
    import jax

    compiles: list[str] = []

    def listen(event: str, duration: float, **kw: object) -> None:
        if event == "/jax/core/compile/backend_compile_duration":
            compiles.append(event)

    jax.monitoring.register_event_duration_secs_listener(listen)
    try:
        for shape in [(7, 13, 3), (11,), ()]:
            for dt in ["float32", "int16", "bool", "complex64", "uint8"]:
                a = (np.arange(int(np.prod(shape))).reshape(shape) % 3).astype(dt)
                x = xp.asarray(a)
                for y in [x, xp.asarray(a, copy=True), xp.asarray(x, copy=True), xp.astype(x, dt)]:
                    assert y.dtype == a.dtype and y.shape == a.shape
                    np.testing.assert_array_equal(np.asarray(y), a)
                assert not x.weak_type
                assert not xp.asarray(np.float32(2.5)).weak_type
                if shape:  # Python lists, with a dtype named or inferred: as jnp.asarray makes them
                    got = xp.asarray(a.tolist(), dtype=dt)
                    assert got.dtype == a.dtype and not got.weak_type
                    np.testing.assert_array_equal(np.asarray(got), a)
                    halves = np.arange(a.size).reshape(shape) + 0.5
                    np.testing.assert_array_equal(np.asarray(xp.asarray(halves.tolist())), halves)
    finally:
        jax.monitoring.unregister_event_duration_listener(listen)
    assert compiles == []


def test_jax_without_x64_refuses_64bit_dtypes():
    code = textwrap.dedent(
        """
        import ivy, numpy as np
        from ivy.errors import UnsupportedDTypeError
        xp = ivy.backend_namespace("jax")
        info = xp.__array_namespace_info__()
        assert "float64" not in info.dtypes() and "int64" not in info.dtypes(), info.dtypes()
        assert str(info.default_dtypes()["real floating"]) == "float32"
        assert str(info.default_dtypes()["integral"]) == "int32"
        assert xp.asarray(1.0).dtype == np.float32
        # NumPy's 64-bit arrays become 32-bit ones, as jnp.asarray makes them
        assert xp.asarray(np.ones(3)).dtype == np.float32 and xp.asarray(np.arange(3)).dtype == np.int32
        assert xp.asarray(np.ones(2, dtype=np.complex128)).dtype == np.complex64
        for call in (
            lambda: xp.zeros(2, dtype="float64"),
            lambda: xp.astype(xp.asarray([1]), ivy.int64),
            lambda: xp.sum(xp.asarray([1]), dtype=np.uint64),
            lambda: xp.asarray([1.0], dtype="complex128"),
        ):
            try:
                call()
            except UnsupportedDTypeError as e:
                assert "JAX_ENABLE_X64" in str(e), e
            else:
                raise AssertionError("no UnsupportedDTypeError")
        print("OK")
        """
    )
    env = {k: v for k, v in os.environ.items() if k != "JAX_ENABLE_X64"}
    env["JAX_ENABLE_X64"] = "0"
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=900)
    assert res.returncode == 0 and "OK" in res.stdout, res.stdout + res.stderr


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_jax_nextafter_steps_into_subnormals(dt):
    # XLA on CPU flushes subnormals in float arithmetic; the plugin steps on the bit patterns
    import jax
    import jax.numpy as jnp

    import ivy

    if dt == "float64" and not jax.config.jax_enable_x64:
        pytest.skip("float64 needs JAX_ENABLE_X64=1")
    d = np.dtype(dt)
    tiny = np.finfo(d).smallest_subnormal
    vals = np.array(
        [0.0, -0.0, tiny, -tiny, 3 * tiny, np.finfo(d).tiny, 1.0, -2.5, np.finfo(d).max, np.inf, -np.inf, np.nan],
        dtype=d,
    )
    a, b = np.repeat(vals, len(vals)), np.tile(vals, len(vals))
    with np.errstate(over="ignore"):
        want = np.nextafter(a, b)
    for fn in (ivy.nextafter, jax.jit(ivy.backend_namespace("jax").nextafter)):
        got = np.asarray(fn(jnp.asarray(a), jnp.asarray(b)))
        same = (got.view(f"i{d.itemsize}") == want.view(f"i{d.itemsize}")) | (np.isnan(got) & np.isnan(want))
        assert same.all(), list(zip(a[~same], b[~same], got[~same], want[~same]))[:5]
    # a subnormal Python scalar, as the reference suite draws it
    assert np.asarray(ivy.nextafter(jnp.asarray(0.0, d), float(20 * tiny))) == tiny
