"""Models and independent references for ``tests/test_fn_acceptance.py``.

* The Ivy models: the paper's ``IvyFcModel``, a small convnet (Conv2D, BatchNorm2D, MaxPool2D,
  Linear) and an LSTM model; their initial weights come from a fixed NumPy seed (Ivy layouts).
* References written without Ivy: the FC model's forward and backward pass and Adam in NumPy
  (float64), and the convnet / LSTM as torch modules trained with ``torch.optim.Adam``.
* A command-line entry point (``python -c 'from _helpers.acceptance import main; main()' ...``)
  so that a test process can run one framework per subprocess: the torch reference trajectories
  from a non-torch process, and loading + evaluating saved weights on another backend.
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import numpy as np

import ivy

TESTS_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

LR = 1e-2
EPS = 1e-7  # ivy.Adam's default epsilon; the references use the same


# ------------------------------------------------------------------------------------------ models


class IvyFcModel(ivy.Module):
    """The paper's model (appendix A.1)."""

    def __init__(self, **kwargs: Any) -> None:
        self.linear0 = ivy.Linear(3, 64)
        self.linear1 = ivy.Linear(64, 1)
        ivy.Module.__init__(self, **kwargs)

    def _forward(self, x: Any) -> Any:
        x = ivy.relu(self.linear0(x))
        return ivy.sigmoid(self.linear1(x))


class IvyConvNet(ivy.Module):
    """``[N, 8, 8, 1]`` (NHWC) -> conv 3x3 (4 channels, no bias) -> batch norm -> relu -> 2x2 max pool ->
    flatten -> linear (2 outputs)."""

    def __init__(self, **kwargs: Any) -> None:
        # no conv bias: the batch norm after it removes it (its gradient is rounding noise,
        # which Adam would amplify into backend-dependent steps)
        self.conv = ivy.Conv2D(1, 4, 3, 1, "VALID", with_bias=False)
        self.norm = ivy.BatchNorm2D(4)
        self.pool = ivy.MaxPool2D(2)
        self.fc = ivy.Linear(4 * 3 * 3, 2)
        ivy.Module.__init__(self, **kwargs)

    def intermediates(self, x: Any) -> dict[str, Any]:
        conv = self.conv(x)
        norm = self.norm(conv)
        pool = self.pool(ivy.relu(norm))
        out = self.fc(ivy.reshape(pool, (pool.shape[0], -1)))
        return {"conv": conv, "norm": norm, "pool": pool, "out": out}

    def _forward(self, x: Any) -> Any:
        return self.intermediates(x)["out"]


class IvyLstmModel(ivy.Module):
    """``[N, T, 3]`` -> LSTM (hidden 8) -> last step -> linear (1 output)."""

    def __init__(self, **kwargs: Any) -> None:
        self.lstm = ivy.LSTM(3, 8)
        self.fc = ivy.Linear(8, 1)
        ivy.Module.__init__(self, **kwargs)

    def intermediates(self, x: Any) -> dict[str, Any]:
        seq, _ = self.lstm(x)
        return {"lstm": seq, "out": self.fc(seq[:, -1, :])}

    def _forward(self, x: Any) -> Any:
        return self.intermediates(x)["out"]


MODELS = {"fc": IvyFcModel, "conv": IvyConvNet, "lstm": IvyLstmModel}


def _u(rng: np.random.Generator, shape: tuple[int, ...], fan_in: int) -> np.ndarray:
    k = 1.0 / np.sqrt(fan_in)
    return rng.uniform(-k, k, shape).astype("float32")


def init_weights(name: str, seed: int = 0) -> dict[str, Any]:
    """Initial weights of model ``name`` (nested dict of float32 NumPy arrays, Ivy layouts)."""
    rng = np.random.default_rng(seed)
    if name == "fc":
        return {
            "linear0": {"w": _u(rng, (64, 3), 3), "b": _u(rng, (64,), 3)},
            "linear1": {"w": _u(rng, (1, 64), 64), "b": _u(rng, (1,), 64)},
        }
    if name == "conv":
        return {
            "conv": {"w": _u(rng, (3, 3, 1, 4), 9)},
            "norm": {"w": np.ones(4, "float32"), "b": np.zeros(4, "float32")},
            "fc": {"w": _u(rng, (2, 36), 36), "b": _u(rng, (2,), 36)},
        }
    if name == "lstm":
        return {
            "lstm": {"layer0": {"w": _u(rng, (3, 32), 8), "r": _u(rng, (8, 32), 8), "b": _u(rng, (32,), 8)}},
            "fc": {"w": _u(rng, (1, 8), 8), "b": _u(rng, (1,), 8)},
        }
    raise ValueError(name)


def data(name: str, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Inputs and targets (float32) for model ``name``."""
    rng = np.random.default_rng(seed)
    if name == "fc":
        x = rng.standard_normal((32, 3)).astype("float32")
        t = (x @ np.array([0.5, -1.0, 0.8]) > 0).astype("float32")[:, None]
        return x, t
    if name == "conv":
        x = rng.standard_normal((16, 8, 8, 1)).astype("float32")
        t = np.stack([x.mean((1, 2, 3)), x[:, :4].std((1, 2, 3))], 1).astype("float32")
        return x, t
    if name == "lstm":
        x = rng.standard_normal((16, 5, 3)).astype("float32")
        t = np.tanh(x[:, :, 0].sum(1, keepdims=True) * 0.5).astype("float32")
        return x, t
    raise ValueError(name)


def flat(tree: Any, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in tree.items():
        if isinstance(v, dict):
            out.update(flat(v, f"{prefix}{k}/"))
        else:
            out[f"{prefix}{k}"] = v
    return out


# --------------------------------------------------------------------------------- Ivy training


def train_ivy(
    backend: str, name: str, steps: int, *, to_native: Any, to_numpy: Any, lr: float = LR
) -> tuple[list[float], Any]:
    """Train model ``name`` on ``backend`` from :func:`init_weights` with ``ivy.Adam`` and
    ``ivy.execute_with_gradients`` (the paper's loop); returns the losses and the model."""
    x, t = data(name)
    xn, tn = to_native(x), to_native(t)
    model = MODELS[name](backend=backend)
    model.v = ivy.Container(init_weights(name)).map(lambda a, _: ivy.variable(to_native(a)))
    optimizer = ivy.Adam(lr, epsilon=EPS)

    def loss_fn(v: Any) -> Any:
        return ivy.mean((model(xn, v=v) - tn) ** 2)

    losses = []
    for _ in range(steps):
        loss, grads = ivy.execute_with_gradients(loss_fn, model.v)
        model.v = optimizer.step(model.v, grads)
        losses.append(float(to_numpy(loss)))
    return losses, model


# --------------------------------------------------------------------------- NumPy FC reference


def np_fc_loss_and_grads(w: dict[str, Any], x: np.ndarray, t: np.ndarray) -> tuple[float, dict[str, Any]]:
    """Loss ``mean((sigmoid(relu(x W0^T + b0) W1^T + b1) - t)^2)`` and its gradients, by hand."""
    w0, b0, w1, b1 = w["linear0"]["w"], w["linear0"]["b"], w["linear1"]["w"], w["linear1"]["b"]
    h = x @ w0.T + b0
    a = np.maximum(h, 0.0)
    z = a @ w1.T + b1
    y = 1.0 / (1.0 + np.exp(-z))
    loss = float(np.mean((y - t) ** 2))
    dy = 2.0 * (y - t) / y.size
    dz = dy * y * (1.0 - y)
    da = dz @ w1
    dh = da * (h > 0)
    grads = {"linear0": {"w": dh.T @ x, "b": dh.sum(0)}, "linear1": {"w": dz.T @ a, "b": dz.sum(0)}}
    return loss, grads


def _tree_map(fn: Any, *trees: Any) -> Any:
    if isinstance(trees[0], dict):
        return {k: _tree_map(fn, *(t[k] for t in trees)) for k in trees[0]}
    return fn(*trees)


def np_adam_trajectory(
    w: dict[str, Any],
    x: np.ndarray,
    t: np.ndarray,
    steps: int,
    *,
    lr: float = LR,
    beta1: float = 0.9,
    beta2: float = 0.999,
    eps: float = EPS,
) -> tuple[list[float], dict[str, Any]]:
    """The FC model trained with Adam (Kingma & Ba; eps added to sqrt of the corrected second
    moment, as torch and Ivy) in float64 NumPy: the losses before each step and the weights."""
    w = _tree_map(lambda a: np.asarray(a, np.float64), w)
    x, t = x.astype(np.float64), t.astype(np.float64)
    m = _tree_map(np.zeros_like, w)
    v = _tree_map(np.zeros_like, w)
    losses = []
    for step in range(1, steps + 1):
        loss, g = np_fc_loss_and_grads(w, x, t)
        losses.append(loss)
        m = _tree_map(lambda mi, gi: beta1 * mi + (1 - beta1) * gi, m, g)
        v = _tree_map(lambda vi, gi: beta2 * vi + (1 - beta2) * gi * gi, v, g)
        bc1, bc2 = 1 - beta1**step, 1 - beta2**step
        w = _tree_map(lambda wi, mi, vi, bc1=bc1, bc2=bc2: wi - lr * (mi / bc1) / (np.sqrt(vi / bc2) + eps), w, m, v)
    return losses, w


# ------------------------------------------------------------------------ torch references


def torch_model(name: str, weights: dict[str, Any]) -> Any:
    """A torch module equal to Ivy model ``name`` with ``weights`` (Ivy layouts, converted)."""
    import torch

    t = lambda a: torch.nn.Parameter(torch.from_numpy(np.array(a, dtype="float32")))  # noqa: E731

    class ConvNet(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv = torch.nn.Conv2d(1, 4, 3, bias=False)
            self.norm = torch.nn.BatchNorm2d(4, momentum=0.1, eps=1e-5)
            self.pool = torch.nn.MaxPool2d(2)
            self.fc = torch.nn.Linear(36, 2)
            self.conv.weight = t(np.transpose(weights["conv"]["w"], (3, 2, 0, 1)))  # [kh,kw,in,out] -> [out,in,kh,kw]
            self.norm.weight, self.norm.bias = t(weights["norm"]["w"]), t(weights["norm"]["b"])
            self.fc.weight, self.fc.bias = t(weights["fc"]["w"]), t(weights["fc"]["b"])

        def intermediates(self, x: Any) -> dict[str, Any]:  # x: NHWC, as the Ivy model's
            conv = self.conv(x.permute(0, 3, 1, 2))
            norm = self.norm(conv)
            pool = self.pool(torch.relu(norm))
            out = self.fc(pool.permute(0, 2, 3, 1).reshape(pool.shape[0], -1))  # flatten in NHWC order
            nhwc = lambda a: a.permute(0, 2, 3, 1)  # noqa: E731
            return {"conv": nhwc(conv), "norm": nhwc(norm), "pool": nhwc(pool), "out": out}

        def forward(self, x: Any) -> Any:
            return self.intermediates(x)["out"]

        def ivy_weights(self) -> dict[str, Any]:
            n = lambda p: p.detach().numpy().copy()  # noqa: E731
            return {
                "conv": {"w": np.transpose(n(self.conv.weight), (2, 3, 1, 0))},
                "norm": {"w": n(self.norm.weight), "b": n(self.norm.bias)},
                "fc": {"w": n(self.fc.weight), "b": n(self.fc.bias)},
            }

    class LstmModel(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.lstm = torch.nn.LSTM(3, 8, batch_first=True)
            self.fc = torch.nn.Linear(8, 1)
            lw = weights["lstm"]["layer0"]
            self.lstm.weight_ih_l0 = t(lw["w"].T)
            self.lstm.weight_hh_l0 = t(lw["r"].T)
            self.lstm.bias_ih_l0 = t(lw["b"])
            # Ivy has one bias, torch two that add up: keep the second at zero and frozen, so that
            # Adam updates the sum as it updates Ivy's
            self.lstm.bias_hh_l0 = torch.nn.Parameter(torch.zeros(32), requires_grad=False)
            self.fc.weight, self.fc.bias = t(weights["fc"]["w"]), t(weights["fc"]["b"])

        def intermediates(self, x: Any) -> dict[str, Any]:
            seq, _ = self.lstm(x)
            return {"lstm": seq, "out": self.fc(seq[:, -1, :])}

        def forward(self, x: Any) -> Any:
            return self.intermediates(x)["out"]

        def ivy_weights(self) -> dict[str, Any]:
            n = lambda p: p.detach().numpy().copy()  # noqa: E731
            b = n(self.lstm.bias_ih_l0) + n(self.lstm.bias_hh_l0)
            return {
                "lstm": {"layer0": {"w": n(self.lstm.weight_ih_l0).T, "r": n(self.lstm.weight_hh_l0).T, "b": b}},
                "fc": {"w": n(self.fc.weight), "b": n(self.fc.bias)},
            }

    return {"conv": ConvNet, "lstm": LstmModel}[name]()


def torch_trajectory(name: str, steps: int, lr: float = LR) -> tuple[list[float], dict[str, Any], Any]:
    """Model ``name`` as a torch module, from :func:`init_weights`, trained on :func:`data` with
    ``torch.optim.Adam`` (eps as Ivy's): losses, final weights (Ivy layouts), the module."""
    import torch

    model = torch_model(name, init_weights(name))
    x, t = (torch.from_numpy(a) for a in data(name))
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=lr, eps=EPS)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = ((model(x) - t) ** 2).mean()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, model.ivy_weights(), model


# ------------------------------------------------------------------------------- subprocesses


def run_helper(*args: str, timeout: float = 300) -> None:
    """Run :func:`main` with ``args`` in a fresh interpreter (one framework per process)."""
    code = f"import sys; sys.path.insert(0, {TESTS_DIR!r}); from _helpers.acceptance import main; main()"
    env = dict(os.environ)
    env.pop("JAX_ENABLE_X64", None)
    r = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=timeout, env=env)
    if r.returncode != 0:
        raise AssertionError(
            f"subprocess {' '.join(args)} failed ({r.returncode}):\n{r.stdout[-3000:]}\n{r.stderr[-6000:]}"
        )


def _shared_cache_dir() -> str:
    """A folder the test processes of one machine share for references that are expensive to
    compute (a torch training run), keyed below by the inputs and this helper's source."""
    import hashlib
    import tempfile

    with open(__file__, "rb") as f:
        key = hashlib.sha256(f.read()).hexdigest()[:16]
    path = os.path.join(tempfile.gettempdir(), f"ivy-test-references-{os.getuid()}-{key}")
    os.makedirs(path, exist_ok=True)
    return path


def torch_trajectory_in_subprocess(name: str, steps: int, tmp_dir: str) -> tuple[list[float], dict[str, Any]]:
    """The torch reference trajectory, computed in a subprocess once per machine (each backend's
    test process needs the same one), then read from the shared cache."""
    cached = os.path.join(_shared_cache_dir(), f"torch_{name}_{steps}.npz")
    if not os.path.exists(cached):
        out = os.path.join(tmp_dir, f"torch_{name}.npz")
        run_helper("torch_trajectory", name, str(steps), out)
        os.replace(out, cached)  # atomic: a concurrent process reads either nothing or all of it
    z = np.load(cached)
    weights: dict[str, Any] = {}
    for k in z.files:
        if k.startswith("w:"):
            node = weights
            *path, leaf = k[2:].split("/")
            for p in path:
                node = node.setdefault(p, {})
            node[leaf] = z[k]
    return [float(v) for v in z["losses"]], weights


def evaluate_saved(backend: str, directory: str, *names: str) -> None:
    """On ``backend``, for each model ``name``: build it, load ``{directory}/{name}.safetensors``,
    evaluate it (eval mode) on the ``x`` in ``{directory}/{name}_x.npz``, and write the output and
    the backend of its weights to ``{directory}/{name}_{backend}.npz``."""
    sys.path.insert(0, TESTS_DIR)
    from ivy.testing.convert import native_to_numpy, to_native

    for name in names:
        x = np.load(os.path.join(directory, f"{name}_x.npz"))["x"]
        model = MODELS[name](backend=backend)
        model.load_weights(os.path.join(directory, f"{name}.safetensors"))
        model.eval()
        out = model(to_native(backend, x))
        leaf = next(iter(model.v.to_flat_dict().values()))
        np.savez(
            os.path.join(directory, f"{name}_{backend}.npz"),
            out=native_to_numpy(backend, out),
            backend=np.array(ivy.namespace(leaf).name),
        )


def main(argv: list[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    cmd = argv.pop(0)
    if cmd == "torch_trajectory":
        name, steps, out = argv
        losses, weights, _ = torch_trajectory(name, int(steps))
        np.savez(out, losses=np.array(losses), **{f"w:{k}": v for k, v in flat(weights).items()})
    elif cmd == "evaluate":
        evaluate_saved(*argv)
    else:
        raise SystemExit(f"unknown command {cmd!r}")
