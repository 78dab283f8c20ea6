"""The transpile stage's native twins (``benchmarks/_native_targets.py``): each program that has a
Flax, Keras or ``paddle.nn`` version builds on the session's backend with the torch program's
number of trainable parameters (``native_twin`` raises otherwise) and gives outputs of the torch
program's shape (a Flax or Keras image model's NHWC where torch's is NCHW); kornia's functions
written by hand give kornia's values. No timing: the stage measures those."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:  # (benchmarks/ is a folder of the repository, not an installed package)
    sys.path.insert(0, ROOT)

from benchmarks._native_targets import _IMAGES, TWINS, native_twin

NAMES = sorted({n for names in TWINS.values() for n in names})


@pytest.mark.parametrize("name", NAMES)
def test_native_twin_has_the_torch_programs_parameters_and_output_shape(backend, name):
    if name not in TWINS.get(backend, ()):
        pytest.skip(f"the transpile stage has no {backend} twin of {name!r}")
    pytest.importorskip("transformers")
    if backend == "jax":
        pytest.importorskip("flax")  # (ivy-jax's optional extra: without it the stage has no JAX twins)
    torch = pytest.importorskip("torch")
    from benchmarks.bench_transpile import build, first_array

    program, args, _ = build(name)
    twin = native_twin(name, backend, program, args)
    assert twin is not None
    with torch.no_grad():
        want = tuple(first_array(program(*args)).shape)
    got = first_array(twin())
    got_shape = tuple(np.asarray(got).shape)
    if backend in ("jax", "tensorflow") and len(want) == 4 and name in _IMAGES:  # Flax's and Keras' images are NHWC
        want = (want[0], want[2], want[3], want[1])
    assert got_shape == want
    assert np.isfinite(np.asarray(got)).all()
    if name.startswith("kornia."):
        with torch.no_grad():
            np.testing.assert_allclose(np.asarray(got), program(*args).numpy(), rtol=1e-5, atol=1e-5)
