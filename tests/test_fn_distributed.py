"""Data-parallel training on one machine through JAX's, TensorFlow's and PaddlePaddle's own
engines: the Trainer with ``ivy.distributed.JaxSharding`` over two CPU devices
(``--xla_force_host_platform_device_count``), with ``ivy.distributed.TFMirrored`` over two logical
CPUs and with ``ivy.distributed.PaddleDataParallel`` in two processes (``paddle.distributed.launch``,
gloo) ends with the weights and logs of
training on one device on the same global batches, and so do the manual recipes of
docs/stateful.md (each block run as written, taken from the Markdown by its marker). Each run is a
fresh interpreter (the device counts are fixed when the framework starts). TFMirrored with
BatchNorm: the running statistics are the mean of the replicas' updates. torch.distributed:
tests/test_fn_distributed_torch.py."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
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


DOC = Path(__file__).resolve().parents[1] / "docs" / "stateful.md"
_RECIPE = re.compile(r"<!-- data-parallel recipe: *([a-z]+) *-->\s*\n```python\n(.*?)\n```", re.S)


def recipe(framework: str) -> str:
    """The manual data-parallel recipe of docs/stateful.md for ``framework`` (the block after its
    ``<!-- data-parallel recipe: framework -->`` marker)."""
    found = {m.group(1): m.group(2) for m in _RECIPE.finditer(DOC.read_text(encoding="utf-8"))}
    assert framework in found, f"docs/stateful.md has no data-parallel recipe marked {framework!r}"
    return found[framework]


def run_recipe(framework: str, model: Any, **names: Any) -> dict[str, Any]:
    """Run the documented recipe on ``model`` and ``names`` (``batches``...); its namespace after."""
    ns: dict[str, Any] = {"model": model, **names}
    exec(compile(recipe(framework), f"<docs/stateful.md: {framework} recipe>", "exec"), ns)
    return ns


def _model(backend: str) -> Any:
    model = ivy.Sequential(ivy.Linear(6, 12), ivy.Tanh(), ivy.Linear(12, 2), backend=backend)
    # copies: torch shares a NumPy array's memory, and the strategies update parameters in place
    model.v = ivy.Container.from_flat_dict({k: ivy.asarray(v.copy(), backend=backend) for k, v in W0.items()})
    return model


def _weights(model: Any) -> dict[str, Any]:
    return {k: ivy.to_numpy(v).tolist() for k, v in model.v.to_flat_dict().items()}


def _batches(backend: str) -> list[tuple[Any, Any]]:
    """What train() trains on: three epochs of the global batches of 16, in order."""
    return [
        (ivy.asarray(X[i : i + 16], backend=backend), ivy.asarray(Y[i : i + 16], backend=backend))
        for _ in range(3)
        for i in range(0, 64, 16)
    ]


def train(backend: str, strategy: Any) -> dict[str, Any]:
    """Three epochs of global batches of 16, Adam, accuracy; the weights and the history."""
    model = _model(backend)
    tr = ivy.Trainer(
        model, ivy.CrossEntropyLoss(from_logits=True), ivy.Adam(1e-2), metrics=["accuracy"], strategy=strategy
    )
    h = tr.fit(X, Y, epochs=3, batch_size=16, shuffle=False, verbose=0)
    return {"weights": _weights(model), "history": h.history}


_ENV = {
    "jax": {"XLA_FLAGS": "--xla_force_host_platform_device_count=2", "JAX_PLATFORMS": "cpu"},
    "tensorflow": {"TF_CPP_MIN_LOG_LEVEL": "3"},
}
_RESULTS: dict[str, dict[str, Any]] = {}


def _run(backend: str, tmp_path_factory: Any) -> dict[str, Any]:
    """Every worker of ``backend`` (the strategy, the recipe and, on tensorflow, BatchNorm) in one
    child process with two logical devices, run once per session (a framework import and its
    compilations cost more than the training itself)."""
    if backend not in _RESULTS:
        out = tmp_path_factory.mktemp(f"distributed-{backend}") / "out.json"
        p = subprocess.run(
            [sys.executable, __file__, backend, str(out), "all"],
            capture_output=True,
            text=True,
            env=dict(os.environ, **_ENV[backend]),
            timeout=900,
        )
        assert p.returncode == 0, p.stderr[-3000:]
        _RESULTS[backend] = json.loads(out.read_text())
    return _RESULTS[backend]


def _assert_same_training(got: dict[str, Any]) -> None:
    one, two = got["single"], got["parallel"]
    for k, v in one["weights"].items():
        np.testing.assert_allclose(two["weights"][k], v, rtol=1e-4, atol=1e-5, err_msg=k)
    assert set(two["history"]) == set(one["history"]) == {"loss", "accuracy"}
    for k, v in one["history"].items():
        np.testing.assert_allclose(two["history"][k], v, rtol=1e-4, err_msg=k)
    # the training moved the weights: equal results are not two untouched copies of W0
    assert not np.allclose(one["weights"]["layers/0/w"], W0["layers/0/w"], atol=1e-3)


def test_fn_distributed_jax_sharding_equals_one_device(backend, tmp_path_factory):
    if backend != "jax":
        pytest.skip("jax.sharding: jax backend only")
    got = _run("jax", tmp_path_factory)["strategy"]
    assert got["devices"] == 2
    assert got["batch_devices"] == 2  # the batches were split over both devices
    _assert_same_training(got)


def test_fn_distributed_tf_mirrored_equals_one_device(backend, tmp_path_factory):
    if backend != "tensorflow":
        pytest.skip("tf.distribute: tensorflow backend only")
    got = _run("tensorflow", tmp_path_factory)["strategy"]
    assert got["replicas"] == 2
    _assert_same_training(got)


def _assert_same_weights(got: dict[str, Any], single: dict[str, Any]) -> None:
    for k, v in single.items():
        np.testing.assert_allclose(got[k], v, rtol=1e-5, atol=1e-6, err_msg=k)
    assert not np.allclose(single["layers/0/w"], W0["layers/0/w"], atol=1e-3)


def _launch_paddle(tmp_path: Any, what: str) -> dict[str, Any]:
    """The worker in two processes of ``paddle.distributed.launch``; what rank 0 wrote."""
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
        what,
    ]
    p = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, OMP_NUM_THREADS="1"), timeout=600)
    logs = "".join(f.read_text() for f in sorted((tmp_path / "logs").glob("*")) if f.is_file())
    assert p.returncode == 0, (p.stderr + logs)[-3000:]
    return json.loads(out.read_text())


def test_fn_distributed_paddle_data_parallel_equals_one_process(backend, tmp_path):
    if backend != "paddle":
        pytest.skip("paddle.distributed: paddle backend only")
    got = _launch_paddle(tmp_path, "strategy")
    assert got["world_size"] == 2
    got["single"] = train("paddle", None)
    _assert_same_training(got)


def test_fn_distributed_recipe_jax_sharding_equals_one_device(backend, tmp_path_factory):
    if backend != "jax":
        pytest.skip("jax.sharding: jax backend only")
    got = _run("jax", tmp_path_factory)["recipe"]
    assert got["mesh_devices"] == got["param_devices"] == 2  # a mesh of both devices, parameters on both
    _assert_same_weights(got["recipe"], got["single"]["weights"])


def test_fn_distributed_recipe_tf_mirrored_equals_one_device(backend, tmp_path_factory):
    if backend != "tensorflow":
        pytest.skip("tf.distribute: tensorflow backend only")
    got = _run("tensorflow", tmp_path_factory)["recipe"]
    assert got["replicas"] == 2
    _assert_same_weights(got["recipe"], got["single"]["weights"])


def test_fn_distributed_recipe_paddle_data_parallel_equals_one_process(backend, tmp_path):
    if backend != "paddle":
        pytest.skip("paddle.distributed: paddle backend only")
    got = _launch_paddle(tmp_path, "recipe")
    assert got["world_size"] == 2
    _assert_same_weights(got["recipe"], train("paddle", None)["weights"])


def _running_stats(kind: str, per_replica_var: bool, momentum: float = 0.1) -> dict[str, np.ndarray]:
    """BatchNorm's running statistics after train()'s batches when it is the first layer: each
    update with the global batch's mean, and its unbiased variance or the mean of two replicas'."""

    def rows(b: np.ndarray) -> np.ndarray:  # the values of each channel, one column each
        return b if kind == "1d" else b.reshape(-1, 3)  # [batch, 1, 2, 3] (NHWC): channel c = x[:, c], x[:, 3 + c]

    n = 6 if kind == "1d" else 3
    mean, var = np.zeros(n), np.ones(n)
    for _ in range(3):
        for i in range(0, 64, 16):
            xb = X[i : i + 16].astype(np.float64)
            shares = np.split(xb, 2) if per_replica_var else [xb]
            v = np.mean([rows(s).var(0, ddof=1) for s in shares], 0)
            mean, var = (1 - momentum) * mean + momentum * rows(xb).mean(0), (1 - momentum) * var + momentum * v
    return {"running_mean": mean, "running_var": var}


def test_fn_distributed_tf_mirrored_batchnorm_running_stats(backend, tmp_path_factory):
    # each replica normalises with its share's batch statistics; the running statistics are the
    # mean of the replicas' updates: one device's running mean, the mean of the shares' variances
    if backend != "tensorflow":
        pytest.skip("tf.distribute: tensorflow backend only")
    got = _run("tensorflow", tmp_path_factory)["batchnorm"]
    for kind in ("1d", "2d"):
        run = got[kind]
        for name, per_replica_var in (("single", False), ("mirrored", True)):
            for k, v in _running_stats(kind, per_replica_var).items():
                np.testing.assert_allclose(run[name][k], v, rtol=1e-5, atol=1e-6, err_msg=f"{kind} {name} {k}")
        assert not np.allclose(run["mirrored"]["running_var"], run["single"]["running_var"], rtol=1e-3)
        assert np.isfinite(run["eval_pred"]).all() and np.shape(run["eval_pred"]) == (64, 2)


def test_fn_distributed_recipes_documented() -> None:
    # the torch recipe is run by tests/test_fn_distributed_torch.py
    for framework in ("torch", "paddle", "jax", "tensorflow"):
        assert "ivy.Adam" in recipe(framework)


def test_fn_distributed_shard_refuses_uneven_batches(backend):
    x = np.zeros((10, 3), np.float32)
    assert ivy.distributed.shard(x, 1, 2).shape == (5, 3)
    with pytest.raises(ValueError, match="does not split into 4 equal shards"):
        ivy.distributed.shard(x, 0, 4)


def _recipe_worker(backend: str, single: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The documented recipe in this process (and, where one process holds all replicas, one
    device's training to compare with); None on the ranks that do not report."""
    if backend == "jax":
        import jax

        ns = run_recipe("jax", _model("jax"), batches=_batches("jax"))
        if single is None:
            with jax.default_device(jax.devices()[0]):
                single = train("jax", None)
        sharding = ns["model"].v["layers"]["0"]["w"].sharding
        return {
            "recipe": _weights(ns["model"]),
            "single": single,
            "mesh_devices": ns["mesh"].devices.size,
            "param_devices": len(sharding.device_set),
        }
    if backend == "paddle":  # a worker of paddle.distributed.launch
        ns = run_recipe("paddle", _model("paddle"), batches=_batches("paddle"))
        return {"recipe": _weights(ns["model"]), "world_size": ns["world"]} if ns["rank"] == 0 else None
    import tensorflow as tf

    dataset = tf.data.Dataset.from_tensor_slices((X, Y)).batch(16).repeat(3)
    ns = run_recipe("tensorflow", _model("tensorflow"), dataset=dataset)
    return {
        "recipe": _weights(ns["model"]),
        "single": single if single is not None else train("tensorflow", None),
        "replicas": ns["strategy"].num_replicas_in_sync,
    }


def _bn_model(kind: str) -> Any:
    if kind == "1d":  # BatchNorm first: its running statistics depend on the data only
        layers = [ivy.BatchNorm1D(6)]
    else:
        layers = [ivy.Reshape((1, 2, 3)), ivy.BatchNorm2D(3), ivy.Flatten()]
    return ivy.Sequential(*layers, ivy.Linear(6, 12), ivy.Tanh(), ivy.Linear(12, 2), backend="tensorflow")


def _batchnorm_worker() -> dict[str, Any]:
    """TFMirrored and one device fitting models with BatchNorm from the same weights: the running
    statistics of both, and the mirrored model's predictions in evaluation mode afterwards."""
    out: dict[str, Any] = {}
    for kind in ("1d", "2d"):
        models = [_bn_model(kind), _bn_model(kind)]
        models[0].eval()(ivy.asarray(X[:2], backend="tensorflow"))  # built, its running statistics untouched
        models[0].train()
        models[1].v = ivy.Container.from_flat_dict(
            {k: ivy.asarray(ivy.to_numpy(v), backend="tensorflow") for k, v in models[0].v.to_flat_dict().items()}
        )
        runs = {}
        for name, model, strategy in (
            ("mirrored", models[0], ivy.distributed.TFMirrored()),
            ("single", models[1], None),
        ):
            tr = ivy.Trainer(model, ivy.CrossEntropyLoss(from_logits=True), ivy.Adam(1e-2), strategy=strategy)
            tr.fit(X, Y, epochs=3, batch_size=16, shuffle=False, verbose=0)
            runs[name] = {k.rsplit("/", 1)[1]: ivy.to_numpy(v).tolist() for k, v in model.state.to_flat_dict().items()}
        models[0].eval()
        runs["eval_pred"] = ivy.to_numpy(models[0](ivy.asarray(X, backend="tensorflow"))).tolist()
        out[kind] = runs
    return out


def _strategy_worker(backend: str) -> dict[str, Any] | None:
    """The Trainer with the backend's strategy (and one device's training where one process holds
    all replicas); None on the ranks that do not report."""
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
            return None
    else:
        strategy = ivy.distributed.TFMirrored()
        out["parallel"] = train("tensorflow", strategy)
        out["replicas"] = strategy.replicas
        out["single"] = train("tensorflow", None)
    return out


def _worker(backend: str, path: str, what: str) -> None:
    if backend == "tensorflow":
        ivy.distributed.logical_cpus(2)  # before TensorFlow runs anything (as the docs say)
    if what == "all":  # one process for every worker: jax and tensorflow (paddle launches its own)
        strategy = _strategy_worker(backend)
        assert strategy is not None
        out: dict[str, Any] | None = {"strategy": strategy, "recipe": _recipe_worker(backend, strategy["single"])}
        if backend == "tensorflow":
            out["batchnorm"] = _batchnorm_worker()  # type: ignore[index]
    else:
        workers = {"strategy": _strategy_worker, "recipe": _recipe_worker}
        out = workers[what](backend)
    if out is not None:
        with open(path, "w") as f:
            json.dump(out, f)


if __name__ == "__main__":
    _worker(sys.argv[1], sys.argv[2], sys.argv[3])
