"""Data-parallel training with torch's own engine (DistributedDataParallel over gloo, two CPU
processes started by torchrun): the Trainer with ``ivy.distributed.TorchDDP`` and the manual
recipe of docs/stateful.md end with the weights and logs of one process training on the same
global batches."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import ivy

RNG = np.random.default_rng(12)
X = RNG.standard_normal((64, 6)).astype(np.float32)
Y = (X[:, 0] + X[:, 2] > 0).astype(np.int64)
W0 = {
    "layers/0/w": RNG.standard_normal((12, 6)).astype(np.float32) * 0.4,
    "layers/0/b": np.zeros(12, np.float32),
    "layers/2/w": RNG.standard_normal((2, 12)).astype(np.float32) * 0.4,
    "layers/2/b": np.zeros(2, np.float32),
}


def _model() -> Any:
    m = ivy.Sequential(ivy.Linear(6, 12), ivy.Tanh(), ivy.Linear(12, 2), backend="torch")
    # copies: torch shares a NumPy array's memory, and the strategies update parameters in place
    m.v = ivy.Container.from_flat_dict({k: ivy.asarray(v.copy(), backend="torch") for k, v in W0.items()})
    return m


def train(strategy: Any) -> tuple[dict[str, list[Any]], dict[str, list[float]]]:
    """Three epochs of batches of 16 (the global batch), Adam, accuracy."""
    model = _model()
    tr = ivy.Trainer(
        model,
        ivy.CrossEntropyLoss(from_logits=True),
        ivy.Adam(1e-2),
        metrics=["accuracy"],
        compile=False,
        strategy=strategy,
    )
    h = tr.fit(X, Y, epochs=3, batch_size=16, shuffle=False, verbose=0)
    return {k: ivy.to_numpy(v).tolist() for k, v in model.v.to_flat_dict().items()}, h.history


def manual_recipe() -> dict[str, list[Any]]:
    """The recipe of docs/stateful.md, run as written (it initialises the process group): DDP over
    the native module, Ivy's optimizer, on three epochs of the global batches of 16."""
    import torch
    from test_fn_distributed import run_recipe  # (tests/ is the script's folder)

    batches = [(torch.tensor(X[i : i + 16]), torch.tensor(Y[i : i + 16])) for _ in range(3) for i in range(0, 64, 16)]
    model = run_recipe("torch", _model(), batches=batches)["model"]
    return {k: ivy.to_numpy(v).tolist() for k, v in model.v.to_flat_dict().items()}


def test_fn_distributed_torch_ddp_equals_one_process(backend, tmp_path):
    if backend != "torch":
        pytest.skip("torch.distributed: torch backend only")
    out = tmp_path / "ddp.json"
    env = dict(os.environ, OMP_NUM_THREADS="1")
    cmd = [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", "2", "--standalone", __file__, str(out)]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    assert p.returncode == 0, p.stderr[-3000:]
    got = json.loads(out.read_text())
    assert got["world_size"] == 2
    weights, history = train(None)
    for k, v in weights.items():
        np.testing.assert_allclose(got["weights"][k], v, rtol=1e-5, atol=1e-6, err_msg=k)
        np.testing.assert_allclose(got["manual"][k], v, rtol=1e-5, atol=1e-6, err_msg=k)
    for k, v in history.items():
        np.testing.assert_allclose(got["history"][k], v, rtol=1e-5, err_msg=k)


if __name__ == "__main__":  # a torchrun worker
    import torch.distributed as dist

    manual = manual_recipe()  # first: the documented recipe initialises the gloo process group
    weights, history = train(ivy.distributed.TorchDDP())
    if dist.get_rank() == 0:
        with open(sys.argv[1], "w") as f:
            json.dump(
                {"weights": weights, "history": history, "manual": manual, "world_size": dist.get_world_size()}, f
            )
    dist.destroy_process_group()
