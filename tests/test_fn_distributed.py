"""Data-parallel training on one machine through JAX's, TensorFlow's and PaddlePaddle's own
engines: the Trainer with ``ivy.distributed.JaxSharding`` over two CPU devices
(``--xla_force_host_platform_device_count``), with ``ivy.distributed.TFMirrored`` over two logical
CPUs and with ``ivy.distributed.PaddleDataParallel`` in two processes (``paddle.distributed.launch``,
gloo) ends with the weights and logs of
training on one device on the same global batches. Each run is a fresh interpreter (the device
counts are fixed when the framework starts). torch.distributed: tests/test_fn_distributed_torch.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import ivy

RNG = np.random.default_rng(21)
X = RNG.standard_normal((64, 6)).astype(np.float32)
Y = (X[:, 0] - X[:, 3] > 0).astype(np.int32)
W0 = {
    "layers/0/w": RNG.standard_normal((12, 6)).astype(np.float32) * 0.4,
    "layers/0/b": np.zeros(12, np.float32),
    "layers/2/w": RNG.standard_normal((2, 12)).astype(np.float32) * 0.4,
    "layers/2/b": np.zeros(2, np.float32),
}


def train(backend: str, strategy: Any) -> dict[str, Any]:
    """Three epochs of global batches of 16, Adam, accuracy; the weights and the history."""
    model = ivy.Sequential(ivy.Linear(6, 12), ivy.Tanh(), ivy.Linear(12, 2), backend=backend)
    # copies: torch shares a NumPy array's memory, and the strategies update parameters in place
    model.v = ivy.Container.from_flat_dict({k: ivy.asarray(v.copy(), backend=backend) for k, v in W0.items()})
    tr = ivy.Trainer(model, "cross_entropy", ivy.Adam(1e-2), metrics=["accuracy"], strategy=strategy)
    h = tr.fit(X, Y, epochs=3, batch_size=16, shuffle=False, verbose=0)
    return {"weights": {k: ivy.to_numpy(v).tolist() for k, v in model.v.to_flat_dict().items()}, "history": h.history}


def _run(backend: str, tmp_path: Any, env: dict[str, str]) -> dict[str, Any]:
    out = tmp_path / "out.json"
    p = subprocess.run(
        [sys.executable, __file__, backend, str(out)],
        capture_output=True,
        text=True,
        env=dict(os.environ, **env),
        timeout=600,
    )
    assert p.returncode == 0, p.stderr[-3000:]
    return json.loads(out.read_text())


def _assert_same_training(got: dict[str, Any]) -> None:
    one, two = got["single"], got["parallel"]
    for k, v in one["weights"].items():
        np.testing.assert_allclose(two["weights"][k], v, rtol=1e-4, atol=1e-5, err_msg=k)
    assert set(two["history"]) == set(one["history"]) == {"loss", "accuracy"}
    for k, v in one["history"].items():
        np.testing.assert_allclose(two["history"][k], v, rtol=1e-4, err_msg=k)
    # the training moved the weights: equal results are not two untouched copies of W0
    assert not np.allclose(one["weights"]["layers/0/w"], W0["layers/0/w"], atol=1e-3)


def test_fn_distributed_jax_sharding_equals_one_device(backend, tmp_path):
    if backend != "jax":
        pytest.skip("jax.sharding: jax backend only")
    got = _run("jax", tmp_path, {"XLA_FLAGS": "--xla_force_host_platform_device_count=2", "JAX_PLATFORMS": "cpu"})
    assert got["devices"] == 2
    assert got["batch_devices"] == 2  # the batches were split over both devices
    _assert_same_training(got)


def test_fn_distributed_tf_mirrored_equals_one_device(backend, tmp_path):
    if backend != "tensorflow":
        pytest.skip("tf.distribute: tensorflow backend only")
    got = _run("tensorflow", tmp_path, {"TF_CPP_MIN_LOG_LEVEL": "3"})
    assert got["replicas"] == 2
    _assert_same_training(got)


def test_fn_distributed_paddle_data_parallel_equals_one_process(backend, tmp_path):
    if backend != "paddle":
        pytest.skip("paddle.distributed: paddle backend only")
    out = tmp_path / "out.json"
    cmd = [
        sys.executable,
        "-m",
        "paddle.distributed.launch",
        "--nproc_per_node",
        "2",
        "--log_dir",
        str(tmp_path / "logs"),
        __file__,
        "paddle",
        str(out),
    ]
    p = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, OMP_NUM_THREADS="1"), timeout=600)
    logs = "".join(f.read_text() for f in sorted((tmp_path / "logs").glob("*")) if f.is_file())
    assert p.returncode == 0, (p.stderr + logs)[-3000:]
    got = json.loads(out.read_text())
    assert got["world_size"] == 2
    got["single"] = train("paddle", None)
    _assert_same_training(got)


def test_fn_distributed_shard_refuses_uneven_batches(backend):
    x = np.zeros((10, 3), np.float32)
    assert ivy.distributed.shard(x, 1, 2).shape == (5, 3)
    with pytest.raises(ValueError, match="does not split into 4 equal shards"):
        ivy.distributed.shard(x, 0, 4)


def _worker(backend: str, path: str) -> None:
    out: dict[str, Any] = {}
    if backend == "jax":
        import jax

        strategy = ivy.distributed.JaxSharding()
        placed = strategy.place
        seen: list[int] = []

        def place(trainer: Any, x: Any, y: Any) -> Any:  # record how many devices hold the batch
            x, y = placed(trainer, x, y)
            seen.append(len(x.sharding.device_set))
            return x, y

        strategy.place = place  # type: ignore[method-assign]
        out["devices"] = len(jax.devices())
        out["parallel"] = train("jax", strategy)
        out["batch_devices"] = min(seen)
        with jax.default_device(jax.devices()[0]):
            out["single"] = train("jax", None)
    elif backend == "paddle":  # a worker of paddle.distributed.launch
        import paddle.distributed as dist

        strategy = ivy.distributed.PaddleDataParallel()
        out["parallel"] = train("paddle", strategy)
        out["world_size"] = dist.get_world_size()
        if dist.get_rank() != 0:
            return
    else:
        ivy.distributed.logical_cpus(2)
        strategy = ivy.distributed.TFMirrored()
        out["parallel"] = train("tensorflow", strategy)
        out["replicas"] = strategy.replicas
        out["single"] = train("tensorflow", None)
    with open(path, "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    _worker(sys.argv[1], sys.argv[2])
