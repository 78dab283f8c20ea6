"""Which backend a call uses, where the rules have exceptions: conversion functions follow the
selected backend; ``ivy.seed`` seeds backends loaded later too."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import ivy
from ivy.testing._helpers.facts import expect
from ivy.testing.convert import native_to_numpy, to_native


def test_asarray_converts_into_the_selected_backend(backend, xp):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    other = "torch" if backend == "numpy" else "numpy"
    src = a if backend != "numpy" else None  # an array of another framework, where one is at hand
    if src is None:
        pytest.importorskip("torch")
        src = to_native("torch", a)
    ivy.set_backend(backend)
    try:
        for fn in (ivy.asarray, ivy.array):
            out = fn(src)
            assert xp.is_native_array(out), f"{fn.__name__} under set_backend gave {type(out).__name__}"
            np.testing.assert_array_equal(native_to_numpy(backend, out), a)
    finally:
        ivy.unset_backend()
    with ivy.use_backend(backend):
        got = ivy.asarray(src)
        assert xp.is_native_array(got), f"ivy.asarray under use_backend: gave a {type(got)!r}"
        got = ivy.asarray([1.0, 2.0])
        assert xp.is_native_array(got), f"ivy.asarray of a list under use_backend: gave a {type(got)!r}"
    got = ivy.asarray(src, backend=backend)
    assert xp.is_native_array(got), f"ivy.asarray(backend=...): gave a {type(got)!r}"
    # nothing selected: the array's own framework decides
    native = to_native(backend, a)
    got = ivy.asarray(native)
    assert xp.is_native_array(got), f"ivy.asarray of a native array: gave a {type(got)!r}"
    if other in ivy.backends():  # a NumPy array with nothing selected needs ivy-numpy installed
        assert type(ivy.asarray(src)) is type(src), other


def test_linspace_with_array_endpoints(backend, xp):
    start = np.array([[0.0, 1.0, -2.0], [3.0, 0.5, 1.0]], np.float32)
    stop = np.array([1.0, 3.0, 5.0], np.float32)
    s, e = to_native(backend, start), to_native(backend, stop)
    for kwargs in ({}, {"axis": -1}, {"axis": 1, "endpoint": False}):
        got = ivy.linspace(s, e, 5, **kwargs)
        want = np.linspace(start, stop, 5, **kwargs)
        expect(tuple(got.shape), want.shape, "ivy.linspace: tuple(got.shape)")
        expect(ivy.dtype_name(got.dtype), "float32", "ivy.dtype_name: ivy.dtype_name(got.dtype)")
        np.testing.assert_allclose(native_to_numpy(backend, got), want, rtol=1e-6, atol=1e-6)
    # one endpoint an array, the other a number; the last sample is exactly stop
    got = native_to_numpy(backend, ivy.linspace(e, 10.0, 4, axis=-1))
    np.testing.assert_allclose(got, np.linspace(stop, 10.0, 4, axis=-1), rtol=1e-6)
    assert (got[:, -1] == 10.0).all(), "ivy.linspace: expected (got[:, -1] == 10.0).all()"
    assert (got[:, 0] == stop).all(), "ivy.linspace: expected (got[:, 0] == stop).all()"
    with pytest.raises(ValueError, match="axis"):
        ivy.linspace(0.0, 1.0, 3, axis=1, backend=backend)


_SEED_SCRIPT = """
import json, sys, ivy
ivy.seed(7)                       # before any backend is chosen or loaded
with ivy.use_backend(sys.argv[1]):
    a = ivy.random_uniform(shape=(4,), dtype="float32")
    layer = ivy.Linear(3, 2)      # weights drawn from the seeded generator
    w = ivy.to_numpy(layer.v.w)
print(json.dumps([ivy.to_numpy(a).tolist(), w.tolist()]))
"""


@pytest.mark.ivy_slow
def test_seed_before_choosing_a_backend_reproduces(backend):
    env = {**os.environ, "JAX_ENABLE_X64": os.environ.get("JAX_ENABLE_X64", "1")}
    run = subprocess.run(
        [sys.executable, "-c", _SEED_SCRIPT, backend], capture_output=True, text=True, env=env, check=True
    )
    draws, weights = json.loads(run.stdout.strip().splitlines()[-1])
    # a fresh process seeded before any backend was loaded draws what this one draws after
    # seeding the backend directly: the same numbers, whatever the process
    ivy.seed(7, backend=backend)
    with ivy.use_backend(backend):
        a = ivy.random_uniform(shape=(4,), dtype="float32")
        w = ivy.to_numpy(ivy.Linear(3, 2).v.w)
    np.testing.assert_array_equal(native_to_numpy(backend, a), np.array(draws, np.float32))
    np.testing.assert_array_equal(w, np.array(weights, w.dtype))
