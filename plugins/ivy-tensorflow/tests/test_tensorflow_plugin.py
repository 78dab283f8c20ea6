"""Focused tests of the TensorFlow plugin (the shared suite in tests/ covers the ops in depth)."""

from __future__ import annotations

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")

import ivy
from ivy import _registry
from ivy._spec import SPECS


@pytest.fixture(scope="module")
def xp():
    return ivy.backend_namespace("tensorflow")


def test_tensorflow_loads_and_validates(xp):
    b = _registry.get_backend("tensorflow")
    _registry.validate(b.dist, b.impl)  # signatures match the specs
    assert xp.name == "tensorflow"
    info = xp.__array_namespace_info__()
    assert info.default_dtypes()["integral"] == tf.int64
    assert set(info.dtypes()) == {
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
    assert xp.is_native_array(tf.Variable([1.0])) and xp.is_native_array(tf.constant(1))


def test_tensorflow_every_spec_op_present():
    assert set(SPECS) == set(_registry.get_backend("tensorflow").ops)


def test_tensorflow_promotion_and_weak_scalars(xp):
    # tf.add refuses mixed dtypes; the standard promotes
    r = xp.add(tf.constant([1, 2], tf.int8), tf.constant([3, 4], tf.int32))
    assert r.dtype == tf.int32 and r.numpy().tolist() == [4, 6]
    r = xp.multiply(tf.constant([1.5], tf.float32), tf.constant([2.0], tf.float64))
    assert r.dtype == tf.float64
    assert xp.add(tf.constant([1], tf.uint8), tf.constant([1], tf.int8)).dtype == tf.int16
    assert xp.add(tf.constant([250], tf.uint8), 10).numpy().tolist() == [4]  # weak int scalar wraps in uint8
    assert xp.multiply(2.5, tf.constant([2.0], tf.float32)).dtype == tf.float32
    assert xp.add(tf.constant([1.0], tf.float64), 1j).dtype == tf.complex128
    v = tf.Variable([1.0, 2.0])
    assert xp.add(v, v).numpy().tolist() == [2.0, 4.0]


def test_tensorflow_missing_kernels_are_composed(xp):
    # TF has no CPU kernels for these dtype/op pairs; results must match NumPy exactly
    u = np.array([0, 1, 200], np.uint8)
    assert np.array_equal(xp.negative(tf.constant(u)).numpy(), -u)
    assert np.array_equal(
        xp.pow(tf.constant(u), tf.constant(np.array([3, 2, 2], np.uint8))).numpy(), u ** np.array([3, 2, 2], np.uint8)
    )
    a = np.arange(6, dtype=np.int8).reshape(2, 3)
    assert np.array_equal(xp.matmul(tf.constant(a), tf.constant(a.T)).numpy(), a @ a.T)
    assert np.array_equal(xp.tile(tf.constant(np.array([1, 2], np.uint16)), (2,)).numpy(), [1, 2, 1, 2])
    assert np.array_equal(
        xp.floor_divide(tf.constant([7, -7]), tf.constant([0, 2])).numpy(), [0, -4]
    )  # TF raises on /0
    assert np.array_equal(xp.take(tf.constant([1, 2, 3]), tf.constant([-1, 0])).numpy(), [3, 1])  # negative indices


def test_tensorflow_nan_ordering(xp):
    # TF's sort (top_k) misplaces NaN; the standard's convention is NaN last
    x = tf.constant([2.0, np.nan, -0.0, 1.0, -np.inf])
    assert np.array_equal(xp.sort(x).numpy(), np.sort(x.numpy()), equal_nan=True)
    assert np.array_equal(xp.argsort(x).numpy(), np.argsort(x.numpy(), kind="stable"))
    s = np.array([1.0, 2.0, np.nan], np.float32)
    assert (
        xp.searchsorted(tf.constant(s), tf.constant([np.nan, 3.0])).numpy().tolist()
        == np.searchsorted(s, [np.nan, 3.0]).tolist()
    )
    u = xp.unique_counts(tf.constant([np.nan, 1.0, np.nan, 1.0]))
    assert u.values.shape == (3,) and u.counts.numpy().tolist() == [2, 1, 1]


def test_tensorflow_inside_tf_function(xp):
    @tf.function
    def f(a, b):
        return xp.sum(xp.add(a, b), axis=0)

    r = f(tf.constant([[1.0, 2.0]]), tf.constant([3.0, 4.0], tf.float32))
    assert r.numpy().tolist() == [4.0, 6.0]


def test_tensorflow_backend_first_loaded_inside_a_trace_stays_usable_eagerly(tmp_path):
    # The plugin builds constants when it loads: loaded inside a tf.function trace, they must not
    # belong to that graph (an eager call afterwards would raise "out of scope").
    import subprocess
    import sys

    script = tmp_path / "first_load_in_trace.py"
    script.write_text(
        "import numpy as np, tensorflow as tf, ivy\n"
        "@tf.function\n"
        "def f(x):\n"
        "    return ivy.nextafter(x, x + 1.0) + ivy.sign(x) * ivy.sum(x, axis=0)\n"
        "x = tf.constant([1.0, -2.0])\n"
        "np.testing.assert_allclose(f(x).numpy(), np.nextafter(np.float32([1, -2]), np.float32([2, -1]))\n"
        "                           + np.sign([1.0, -2.0]) * -1.0, rtol=1e-6)\n"
        "eager = ivy.nextafter(x, x + 1.0)\n"
        "np.testing.assert_array_equal(eager.numpy(), np.nextafter(np.float32([1, -2]), np.float32([2, -1])))\n"
        "np.testing.assert_array_equal(ivy.sign(x).numpy(), [1.0, -1.0])\n"
        "print('ok')\n"
    )
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=900)
    assert p.returncode == 0 and p.stdout.strip().endswith("ok"), p.stderr[-3000:]


def test_tensorflow_traced_scalars_are_graph_constants():
    # captured eager tensors would be inputs of the graph (they block grappler's fusions)
    import tensorflow as tf

    f = tf.function(lambda x: ivy.multiply(ivy.add(x, 2.5), 3.0) - ivy.sum(x, axis=(0,)))
    cf = f.get_concrete_function(tf.TensorSpec([2], tf.float32))
    assert len(cf.captured_inputs) == 0
    np.testing.assert_allclose(cf(tf.constant([1.0, 2.0])).numpy(), (np.float32([1, 2]) + 2.5) * 3 - 3.0)
