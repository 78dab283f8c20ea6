"""Device functions on every backend: Ivy device strings, the frameworks' native device objects,
moving arrays, and the consistency of the GPU queries. GPU paths skip on a machine without one.
"""

from __future__ import annotations

import numpy as np
import pytest

import ivy
from ivy.testing._helpers.facts import expect, expect_cmp, expect_dtype, expect_is, expect_shape, expect_type
from ivy.testing._helpers.registry import covers
from ivy.testing.convert import native_to_numpy, to_native

NO_GPU = "no GPU on this machine"
X = np.arange(12, dtype=np.float32).reshape(3, 4)


def _framework_device(backend, x):
    """The device of native ``x`` as the framework itself reports it (not through ivy)."""
    if backend == "numpy":
        return x.device
    if backend == "torch":
        return x.device
    if backend == "jax":
        (d,) = x.devices()
        return d
    if backend == "tensorflow":
        return x.device
    if backend == "paddle":
        return x.place
    return x.device  # any other backend: the Array API's attribute


def _is_cpu_native(backend, d):
    """Whether native device object ``d`` is the framework's CPU (framework-specific checks)."""
    if backend == "numpy":
        return d == "cpu"
    if backend == "torch":
        import torch

        return isinstance(d, torch.device) and d.type == "cpu"
    if backend == "jax":
        import jax

        return isinstance(d, jax.Device) and d.platform == "cpu"
    if backend == "tensorflow":
        import tensorflow as tf

        # A device name ("/job:localhost/replica:0/task:0/device:CPU:0"), a DeviceSpec or a
        # LogicalDevice: each says its device type.
        kind = getattr(d, "device_type", None)
        if kind is None:
            kind = tf.DeviceSpec.from_string(str(d)).device_type
        return (kind or "").upper() == "CPU"
    if backend == "paddle":
        return bool(d.is_cpu_place())
    # any other backend: its own facts, from its namespace (no table of frameworks needed)
    xp = ivy.backend_namespace(backend)
    return ivy.num_gpus(backend=backend) == 0 or d == xp.__array_namespace_info__().default_device()


@covers("dev")
def test_dev_is_cpu(backend):
    x = to_native(backend, X)
    if not _is_cpu_native(backend, _framework_device(backend, x)):
        pytest.skip("the framework created the array on a GPU")  # jax/tf on a GPU machine
    expect(ivy.dev(x), "cpu", "ivy.dev: ivy.dev(x)")


@covers("dev")
def test_dev_as_native(backend):
    x = to_native(backend, X)
    d = ivy.dev(x, as_native=True)
    assert not (isinstance(d, str) and backend in ("torch", "jax", "paddle")), "expected the framework's object"
    assert _is_cpu_native(backend, d), f"{d!r} is not the framework's CPU device"
    if backend not in ("tensorflow", "paddle"):  # (their arrays report devices in another form)
        expect(d, _framework_device(backend, x), "ivy.dev: d")


@covers("to_device", "dev")
def test_to_device_cpu_round_trip(backend):
    x = to_native(backend, X)
    for target in ("cpu", ivy.dev(x, as_native=True)):
        y = ivy.to_device(x, target)
        assert ivy.is_native_array(y), f"ivy.to_device: expected a native array, got a {type(y)!r}"
        expect(ivy.dev(y), "cpu", "ivy.dev: ivy.dev(y)")
        expect_shape(y, X.shape, "ivy.to_device")
        expect_dtype(y, "float32", "ivy.to_device")
        np.testing.assert_array_equal(native_to_numpy(backend, y), X)


@covers("to_device")
def test_to_device_unknown_or_unavailable(backend):
    x = to_native(backend, X)
    with pytest.raises(ValueError):
        ivy.to_device(x, "nonsense:0")
    n = ivy.num_gpus(backend=backend)
    with pytest.raises(ValueError):
        ivy.to_device(x, f"gpu:{n}")  # one past the last GPU (gpu:0 on a CPU-only machine)


@covers("default_device")
def test_default_device(backend):
    d = ivy.default_device(backend=backend)
    expect_type(d, str, "ivy.devices: d")
    expect_cmp(d, "in", ivy.devices(backend=backend), "ivy.devices: d")
    if not ivy.gpu_is_available(backend=backend):
        expect(d, "cpu", "ivy.default_device: d")
        assert _is_cpu_native(backend, ivy.default_device(as_native=True, backend=backend)), (
            "ivy.default_device: expected _is_cpu_native(backend, ivy.default_device(as_native=True, backend=backend))"
        )
    # New arrays without device= land on the default device.
    expect(ivy.dev(ivy.zeros((2,), backend=backend)), d, "ivy.dev: ivy.dev(ivy.zeros((2,), backend=backend))")
    expect(
        ivy.dev(ivy.random_uniform(shape=(2,), backend=backend)),
        d,
        "ivy.dev: ivy.dev(ivy.random_uniform(shape=(2,), backend=backend))",
    )


@covers("devices", "num_gpus", "gpu_is_available")
def test_devices_and_gpu_queries_are_consistent(backend):
    devs = ivy.devices(backend=backend)
    expect_type(devs, list, "ivy.devices: devs")
    assert devs, "ivy.devices: expected devs"
    expect(devs[0], "cpu", "ivy.devices: devs[0]")
    assert all(isinstance(d, str) for d in devs), "ivy.devices: expected all((isinstance(d, str) for d in devs))"
    expect(len(set(devs)), len(devs), "ivy.devices: len(set(devs))")
    n = ivy.num_gpus(backend=backend)
    expect_is(type(n), int, "ivy.num_gpus: type(n)")
    expect_cmp(n, ">=", 0, "ivy.num_gpus: n")
    avail = ivy.gpu_is_available(backend=backend)
    expect_is(type(avail), bool, "ivy.gpu_is_available: type(avail)")
    expect(avail, n > 0, "ivy.gpu_is_available: avail")
    expect(
        [d for d in devs if d.startswith("gpu:")],
        [f"gpu:{i}" for i in range(n)],
        "ivy.devices: [d for d in devs if d.startswith('gpu:')]",
    )


@covers("random_uniform", "dev")
def test_creation_on_cpu(backend):
    y = ivy.random_uniform(shape=(3,), device="cpu", backend=backend)
    expect(ivy.dev(y), "cpu", "ivy.dev: ivy.dev(y)")
    z = ivy.randint(0, 3, (3,), device="cpu", backend=backend)
    expect(ivy.dev(z), "cpu", "ivy.dev: ivy.dev(z)")


# ---------------------------------------------------------------------------- GPU


@covers("to_device", "dev")
def test_to_gpu_and_back(backend):
    if not ivy.gpu_is_available(backend=backend):
        pytest.skip(NO_GPU)
    x = to_native(backend, X)
    g = ivy.to_device(x, "gpu:0")
    expect(ivy.dev(g), "gpu:0", "ivy.dev: ivy.dev(g)")
    assert not _is_cpu_native(backend, ivy.dev(g, as_native=True)), (
        "ivy.dev: expected not _is_cpu_native(backend, ivy.dev(g, as_native=True))"
    )
    back = ivy.to_device(g, "cpu")
    expect(ivy.dev(back), "cpu", "ivy.dev: ivy.dev(back)")
    np.testing.assert_array_equal(native_to_numpy(backend, back), X)
    # An op on GPU arrays stays there.
    expect(ivy.dev(ivy.add(g, g)), "gpu:0", "ivy.dev: ivy.dev(ivy.add(g, g))")


@covers("random_normal", "dev")
def test_random_on_gpu(backend):
    if not ivy.gpu_is_available(backend=backend):
        pytest.skip(NO_GPU)
    y = ivy.random_normal(shape=(4,), device="gpu:0", seed=1, backend=backend)
    expect(ivy.dev(y), "gpu:0", "ivy.dev: ivy.dev(y)")
