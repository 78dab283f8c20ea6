"""A torch module wrapped by ``ivy.from_native_module`` given another framework's arrays: a clear
error naming the torch module and ``ivy.transpile``, not torch's own ``TypeError``."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
jnp = pytest.importorskip("jax.numpy")

import ivy


def test_torch_native_module_rejects_other_frameworks_arrays_clearly():
    lin = torch.nn.Linear(3, 2)
    m = ivy.from_native_module(lin)
    x = np.ones((4, 3), np.float32)
    with pytest.raises(TypeError) as info:
        lin(jnp.asarray(x))  # what torch itself says: no word of Ivy's way out
    assert "transpile" not in str(info.value)
    with pytest.raises(
        TypeError, match=r"runs a torch module \(torch\.nn\.modules\.linear\.Linear\).*jax array"
    ) as info:
        m(jnp.asarray(x))
    assert "ivy.transpile(module, to='jax')" in str(info.value)
    with pytest.raises(TypeError, match="jax array"):
        m(x=jnp.asarray(x))  # by keyword too
    want = lin(torch.from_numpy(x)).detach().numpy()
    np.testing.assert_allclose(m(torch.from_numpy(x)).detach().numpy(), want, rtol=1e-6)  # torch tensors still run
