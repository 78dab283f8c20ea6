"""Focused tests of the ivy-torch plugin (the shared reference suite lives in tests/)."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import ivy
from ivy._registry import get_backend
from ivy._spec import SPECS


@pytest.fixture(scope="module")
def tx():
    return ivy.backend_namespace("torch")


def test_torch_plugin_loads_and_implements_every_spec(tx):
    backend = get_backend("torch")
    assert set(SPECS) == set(backend.ops)
    assert backend.array_types == (torch.Tensor,)
    assert tx.float32 is torch.float32
    assert tx.__array_namespace_info__().default_device() == torch.device("cpu")


def test_loading_the_backend_leaves_torch_compile_unimported() -> None:
    """torch._dynamo (1.8 s to import here) loads when something compiles or a control-flow op
    that torch.compile must run eagerly is first called, not with the backend (the graph break of
    those ops under torch.compile is tested in tests/test_transpile_control_flow.py)."""
    import subprocess
    import sys

    code = (
        "import sys, torch, ivy\n"
        "x = ivy.add(ivy.asarray([1.0, 2.0], backend='torch'), 1.0)\n"
        "before = 'torch._dynamo' in sys.modules\n"
        "(i,) = ivy.while_loop(lambda i: i < 3, lambda i: (i + 1,), (ivy.asarray(0, backend='torch'),))\n"
        "print(float(x[1]), before, int(i), 'torch._dynamo' in sys.modules)\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    assert p.stdout.split() == ["3.0", "False", "3", "True"]


def test_torch_zero_dim_arrays_promote_like_arrays(tx):
    # torch alone gives float32 (0-d tensors are weak); the standard gives float64
    a0 = torch.tensor(1.5, dtype=torch.float64)
    a1 = torch.ones(3, dtype=torch.float32)
    assert (torch.add(a0, a1)).dtype is torch.float32
    assert tx.add(a0, a1).dtype is torch.float64
    assert tx.multiply(a1, 2).dtype is torch.float32  # Python scalars stay weak
    assert tx.where(a1 > 0, a1, a0).dtype is torch.float64


def test_torch_semantics_match_numpy(tx):
    x = torch.tensor([[3.0, 1.0, float("nan")], [2.0, 2.0, -1.0]], dtype=torch.float64)
    xn = x.numpy()
    np.testing.assert_array_equal(tx.to_numpy(tx.sign(x)), np.sign(xn))  # torch.sign(nan) == 0
    np.testing.assert_array_equal(
        tx.to_numpy(tx.round(torch.tensor([0.5, 1.5, 2.5, -0.5]))), np.round(np.array([0.5, 1.5, 2.5, -0.5]))
    )
    idx = torch.tensor([1, -1])
    np.testing.assert_array_equal(tx.to_numpy(tx.take(x, idx, axis=1)), np.take(xn, [1, -1], axis=1))
    np.testing.assert_allclose(tx.to_numpy(tx.var(x[:, :2], axis=0, correction=1)), np.var(xn[:, :2], axis=0, ddof=1))
    assert np.isnan(tx.to_numpy(tx.var(x[:1, :2], axis=0, correction=1))).all()  # torch gives inf
    np.testing.assert_array_equal(tx.to_numpy(tx.argsort(torch.tensor([1, 0, 1, 0]), descending=True)), [0, 2, 1, 3])
    i = torch.tensor([-7, 7, -7, 7])
    j = torch.tensor([2, -2, 0, 0])
    np.testing.assert_array_equal(tx.to_numpy(tx.floor_divide(i, j)), [-4, -4, 0, 0])  # torch raises on / 0
    np.testing.assert_array_equal(tx.to_numpy(tx.remainder(i, j)), [1, -1, 0, 0])


def test_torch_partial_unsigned_dtypes(tx):
    big = np.array([2**64 - 1, 5, 2**63], dtype=np.uint64)
    t = torch.from_numpy(big.copy())
    np.testing.assert_array_equal(tx.to_numpy(tx.sort(t)), np.sort(big))
    np.testing.assert_array_equal(tx.to_numpy(tx.add(t, t)), big + big)
    np.testing.assert_array_equal(tx.to_numpy(tx.pow(t, torch.tensor(3, dtype=torch.uint64))), big**3)
    np.testing.assert_array_equal(tx.to_numpy(tx.floor_divide(t, torch.tensor(3, dtype=torch.uint64))), big // 3)
    u16 = torch.tensor([1, 300, 65535], dtype=torch.uint16)
    assert tx.max(u16).item() == 65535 and tx.abs(u16).dtype is torch.uint16
    assert tx.sum(u16).dtype is torch.uint64


def test_torch_conversion_and_devices(tx):
    x = torch.ones(2, requires_grad=True) * 3
    a = tx.to_numpy(x)
    assert isinstance(a, np.ndarray) and a.tolist() == [3.0, 3.0]
    y = torch.zeros(2)
    tx.to_numpy(y)[0] = 5  # a copy: y stays zero
    assert y[0].item() == 0
    assert tx.to_scalar(torch.tensor([[True]])) is True
    assert tx.zeros(2, device="cpu").device == torch.device("cpu")
    assert tx.asarray([1, 2], dtype="uint16").dtype is torch.uint16
    assert tx.asarray(np.arange(3.0)).dtype is torch.float64
    assert tx.from_dlpack(np.arange(3)).tolist() == [0, 1, 2]
    u = tx.linalg.svd(torch.eye(3), full_matrices=False)
    assert u._fields == ("U", "S", "Vh")
    with pytest.raises(ivy.UnsupportedDTypeError, match="uint64"):  # torch has no uint64 kernel here
        tx.hypot(torch.tensor([2**63], dtype=torch.uint64), torch.tensor([2], dtype=torch.uint64))
