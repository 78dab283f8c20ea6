"""Training steps of whole models built from Ivy's layers against the same models written
natively, per backend, the ratios side by side in one run.

    python benchmarks/bench_models.py [--quick] [--backends torch,jax] [--json PATH] [--torch-compile]

The models are those of ``examples/``, built by the examples' own code (``make_model`` of
``cnn_classifier.py``, ``TinyLM`` of ``transformer_lm.py``) at the examples' sizes and batch (64):
an MNIST-style CNN (two conv-ReLU-max-pool blocks of 16 and 32 channels and a linear head on
16x16 images, in each framework's own layout) and a small causal transformer language model
(embedding, scaled sinusoidal positions, two pre-norm encoder layers, layer norm, linear head;
sequences of 16 tokens). A step is forward, loss (cross-entropy from logits), gradients and an
Adam update (the transformer example's Trainer also clips gradients and follows a schedule: the
same on both sides would add the same work).

* torch: the Ivy model (``ivy.execute_with_gradients`` and ``ivy.Adam.step``, eager) against
  ``torch.nn`` layers with ``torch.optim.Adam``. With ``--torch-compile``, also both steps compiled
  (``ivy.compile`` / ``torch.compile``; slow to compile).
* jax: the Ivy step compiled with ``ivy.compile`` (``jax.jit``; the module's variables and the
  optimizer's state threaded through the program) against Flax (linen) modules and an Optax Adam
  step under ``jax.jit``.
* paddle: the Ivy step, eager, against ``paddle.nn`` layers with ``paddle.optimizer.Adam``.
* tensorflow: Keras 3 layers with ``tf.GradientTape`` and ``keras.optimizers.Adam``: eager, and
  under ``tf.function`` against the Ivy step under ``ivy.compile`` (``tf.function``), which is what
  ``ivy.Trainer`` runs by default.

Every native model starts from the Ivy model's weights: the parameter counts and the first
losses are checked equal (where the native step runs eagerly once).

Target: a ratio (Ivy / native time per step) of at most 1.1. Method as the other stages
(``benchmarks/_common.py``): one child process per backend, one thread, interleaved rounds, the
median of the per-round ratios with its quartiles.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

sys.path.insert(0, os.path.join(ROOT, "examples"))  # the examples' models
import cnn_classifier  # noqa: E402
import transformer_lm  # noqa: E402

CNN_BATCH, SIDE, CLASSES = 64, cnn_classifier.SIDE, cnn_classifier.CLASSES  # the examples' batch: 64
LM_BATCH, LENGTH, VOCAB, D_MODEL = 64, transformer_lm.LENGTH, transformer_lm.VOCAB, transformer_lm.D_MODEL
HEADS, FF, LAYERS = 4, 2 * D_MODEL, 2  # TinyLM's
LR, EPS = 1e-3, 1e-7
SCALE = float(D_MODEL) ** 0.5  # the example's SinusoidalPositionalEmbedding(scale_input=True)
SUPPORTED = ("torch", "jax", "paddle", "tensorflow")  # paddle before tensorflow
TARGET = 1.1  # Ivy / native time per step
NATIVE = {  # what each row's native step is
    "torch": {"eager": "torch.nn, torch.optim.Adam", "compiled": "the same, torch.compile"},
    "jax": {"compiled": "flax.linen, optax.adam, jax.jit"},
    "paddle": {"eager": "paddle.nn, paddle.optimizer.Adam"},
    "tensorflow": {
        "eager": "Keras 3 layers, tf.GradientTape, keras.optimizers.Adam",
        "compiled": "the same, tf.function",
    },
}

# ------------------------------------------------------------------------------------- Ivy models


def ivy_cnn(backend: str, data_format: str) -> Any:
    return cnn_classifier.make_model(backend, data_format)


def ivy_lm(backend: str) -> Any:
    return transformer_lm.TinyLM(VOCAB, D_MODEL, backend=backend)


def _channels(model: Any) -> tuple[int, int]:
    """The CNN's two convolutions' output channels (Ivy kernels are [kh, kw, in, out])."""
    v = model.v.to_flat_dict()
    return int(v["layers/0/w"].shape[-1]), int(v["layers/3/w"].shape[-1])


def data(kind: str, channels_first: bool, ints: str) -> tuple[Any, Any]:
    """Inputs and integer labels (``ints``: torch's losses take int64, JAX runs without x64)."""
    import numpy as np

    rng = np.random.default_rng(0)
    if kind == "cnn":
        x = rng.standard_normal((CNN_BATCH, 1, SIDE, SIDE) if channels_first else (CNN_BATCH, SIDE, SIDE, 1))
        return x.astype(np.float32), rng.integers(0, CLASSES, CNN_BATCH).astype(ints)
    tokens = rng.integers(0, VOCAB, (LM_BATCH, LENGTH + 1)).astype(ints)
    return tokens[:, :-1], tokens[:, 1:]


def ivy_step(model: Any, compiled: bool) -> Callable[[Any, Any], Any]:
    """The step as a user writes it: gradients of the loss, an Adam update."""
    import ivy

    opt = ivy.Adam(LR, epsilon=EPS)

    def step(x: Any, y: Any) -> Any:
        loss, grads = ivy.execute_with_gradients(
            lambda v: ivy.losses.cross_entropy(y, model(x, v=v), from_logits=True), model.v
        )
        model.v = opt.step(model.v, grads)
        return loss

    return ivy.compile(step) if compiled else step


def n_params(tree: Any) -> int:
    import numpy as np

    import ivy

    return int(sum(np.prod(tuple(a.shape)) for a in ivy.nest.leaves(tree)))


# ----------------------------------------------------------------------------------------- torch


def torch_models(kind: str, model: Any) -> Any:
    """The native torch model, with the Ivy model's weights."""
    import numpy as np
    import torch

    import ivy

    w = {k: np.asarray(ivy.to_numpy(a)) for k, a in model.v.to_flat_dict().items()}
    t = torch.from_numpy
    net: Any
    if kind == "cnn":
        c1, c2 = _channels(model)
        net = torch.nn.Sequential(
            torch.nn.Conv2d(1, c1, 3, padding=1),
            torch.nn.ReLU(),
            torch.nn.MaxPool2d(2),
            torch.nn.Conv2d(c1, c2, 3, padding=1),
            torch.nn.ReLU(),
            torch.nn.MaxPool2d(2),
            torch.nn.Flatten(),
            torch.nn.Linear(c2 * (SIDE // 4) ** 2, CLASSES),
        )
        with torch.no_grad():
            for i in (0, 3):  # Ivy's kernels are [kh, kw, in, out], torch's [out, in, kh, kw]
                net[i].weight.copy_(t(w[f"layers/{i}/w"].transpose(3, 2, 0, 1).copy()))
                net[i].bias.copy_(t(w[f"layers/{i}/b"]))
            net[7].weight.copy_(t(w["layers/7/w"]))
            net[7].bias.copy_(t(w["layers/7/b"]))
        return net

    table = ivy.to_numpy(model.position(np.zeros((1, LENGTH, D_MODEL), np.float32)))  # constant positions

    class TorchLM(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.embed = torch.nn.Embedding(VOCAB, D_MODEL)
            self.register_buffer("position", t(np.asarray(table)))
            layer = torch.nn.TransformerEncoderLayer(
                D_MODEL, HEADS, FF, 0.0, activation="gelu", batch_first=True, norm_first=True
            )
            self.encoder = torch.nn.TransformerEncoder(layer, LAYERS, enable_nested_tensor=False)
            self.norm = torch.nn.LayerNorm(D_MODEL)
            self.head = torch.nn.Linear(D_MODEL, VOCAB)
            self.register_buffer("mask", torch.nn.Transformer.generate_square_subsequent_mask(LENGTH))

        def forward(self, tokens: Any) -> Any:
            x = self.embed(tokens) * SCALE + self.position  # positions added to sqrt(d)-scaled embeddings
            h = self.encoder(x, mask=self.mask, is_causal=True)
            return self.head(self.norm(h))

    net = TorchLM()
    with torch.no_grad():
        net.embed.weight.copy_(t(w["embed/w"]))
        for name in ("norm", "head"):
            getattr(net, name).weight.copy_(t(w[f"{name}/w"]))
            getattr(net, name).bias.copy_(t(w[f"{name}/b"]))
        for i, layer in enumerate(net.encoder.layers):
            p = f"encoder/layers/{i}/"
            att = layer.self_attn  # Ivy's projections are x @ w ([in, out]); torch's stacked, [out, in]
            att.in_proj_weight.copy_(t(np.concatenate([w[p + f"self_attn/{n}_w"].T for n in "qkv"])))
            att.in_proj_bias.copy_(t(np.concatenate([w[p + f"self_attn/{n}_b"] for n in "qkv"])))
            att.out_proj.weight.copy_(t(w[p + "self_attn/out_w"].T.copy()))
            att.out_proj.bias.copy_(t(w[p + "self_attn/out_b"]))
            for name in ("linear1", "linear2", "norm1", "norm2"):
                getattr(layer, name).weight.copy_(t(w[p + f"{name}/w"]))
                getattr(layer, name).bias.copy_(t(w[p + f"{name}/b"]))
    return net


def torch_step(net: Any) -> Callable[[Any, Any], Any]:
    import torch

    opt = torch.optim.Adam(net.parameters(), lr=LR, eps=EPS)

    def step(x: Any, y: Any) -> Any:
        opt.zero_grad()
        logits = net(x)
        loss = torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))
        loss.backward()
        opt.step()
        return loss

    return step


# ------------------------------------------------------------------------------------------- jax


def flax_model(kind: str, table: Any, channels: tuple[int, int] = (0, 0)) -> Any:
    import flax.linen as nn
    import jax.numpy as jnp

    if kind == "cnn":

        class CNN(nn.Module):
            @nn.compact
            def __call__(self, x: Any) -> Any:
                for c in channels:
                    x = nn.max_pool(nn.relu(nn.Conv(c, (3, 3), padding="SAME")(x)), (2, 2), (2, 2))
                return nn.Dense(CLASSES)(x.reshape(x.shape[0], -1))

        return CNN()

    class Block(nn.Module):
        @nn.compact
        def __call__(self, x: Any, mask: Any) -> Any:
            x = x + nn.MultiHeadDotProductAttention(HEADS)(nn.LayerNorm(epsilon=1e-5)(x), mask=mask)
            h = nn.Dense(D_MODEL)(nn.gelu(nn.Dense(FF)(nn.LayerNorm(epsilon=1e-5)(x)), approximate=False))
            return x + h

    class LM(nn.Module):
        @nn.compact
        def __call__(self, tokens: Any) -> Any:
            x = nn.Embed(VOCAB, D_MODEL)(tokens) * SCALE + jnp.asarray(table)
            mask = nn.make_causal_mask(tokens)
            for _ in range(LAYERS):
                x = Block()(x, mask)
            return nn.Dense(VOCAB)(nn.LayerNorm(epsilon=1e-5)(x))

    return LM()


def jax_step(net: Any, x: Any, y: Any) -> tuple[Callable[[Any, Any], Any], int]:
    import jax
    import optax

    params = net.init(jax.random.PRNGKey(0), x)
    tx = optax.adam(LR, eps=EPS)
    state = {"p": params, "o": tx.init(params)}

    @jax.jit
    def update(p: Any, o: Any, x: Any, y: Any) -> Any:
        def loss_fn(p: Any) -> Any:
            return optax.softmax_cross_entropy_with_integer_labels(net.apply(p, x), y).mean()

        loss, g = jax.value_and_grad(loss_fn)(p)
        updates, o = tx.update(g, o, p)
        return optax.apply_updates(p, updates), o, loss

    def step(x: Any, y: Any) -> Any:
        state["p"], state["o"], loss = update(state["p"], state["o"], x, y)
        return loss

    return step, n_params(params)


# ------------------------------------------------------------------------------------ tensorflow


def keras_model(kind: str, model: Any) -> Any:
    """The native Keras 3 model (on TensorFlow), built, with the Ivy model's weights."""
    import keras
    import numpy as np

    import ivy

    w = {k: np.asarray(ivy.to_numpy(a)) for k, a in model.v.to_flat_dict().items()}
    L = keras.layers
    if kind == "cnn":
        c1, c2 = _channels(model)
        net = keras.Sequential(
            [
                keras.Input((SIDE, SIDE, 1)),
                L.Conv2D(c1, 3, padding="same", activation="relu"),
                L.MaxPooling2D(2),
                L.Conv2D(c2, 3, padding="same", activation="relu"),
                L.MaxPooling2D(2),
                L.Flatten(),
                L.Dense(CLASSES),
            ]
        )
        convs = [layer for layer in net.layers if isinstance(layer, L.Conv2D)]
        for layer, i in zip(convs, (0, 3)):  # Keras' kernels are [kh, kw, in, out], as Ivy's
            layer.kernel.assign(w[f"layers/{i}/w"])
            layer.bias.assign(w[f"layers/{i}/b"])
        net.layers[-1].kernel.assign(w["layers/7/w"].T)  # Dense: [in, out]
        net.layers[-1].bias.assign(w["layers/7/b"])
        return net

    table = np.asarray(ivy.to_numpy(model.position(np.zeros((1, LENGTH, D_MODEL), np.float32))))
    heads_dim = D_MODEL // HEADS

    class Block(keras.layers.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.norm1, self.norm2 = L.LayerNormalization(epsilon=1e-5), L.LayerNormalization(epsilon=1e-5)
            self.attn = L.MultiHeadAttention(HEADS, heads_dim)
            self.linear1, self.linear2 = L.Dense(FF, activation="gelu"), L.Dense(D_MODEL)

        def call(self, x: Any) -> Any:
            h = self.norm1(x)
            x = x + self.attn(h, h, use_causal_mask=True)
            return x + self.linear2(self.linear1(self.norm2(x)))

    class KerasLM(keras.Model):
        def __init__(self) -> None:
            super().__init__()
            self.embed = L.Embedding(VOCAB, D_MODEL)
            self.blocks = [Block() for _ in range(LAYERS)]
            self.norm, self.head = L.LayerNormalization(epsilon=1e-5), L.Dense(VOCAB)

        def call(self, tokens: Any) -> Any:
            x = self.embed(tokens) * SCALE + table
            for block in self.blocks:
                x = block(x)
            return self.head(self.norm(x))

    net = KerasLM()
    net(np.zeros((LM_BATCH, LENGTH), np.int32))  # build
    net.embed.embeddings.assign(w["embed/w"])
    net.norm.gamma.assign(w["norm/w"])
    net.norm.beta.assign(w["norm/b"])
    net.head.kernel.assign(w["head/w"].T)
    net.head.bias.assign(w["head/b"])
    for i, block in enumerate(net.blocks):
        p = f"encoder/layers/{i}/"
        att = block.attn  # Keras' projections are per head: [d, heads, head_dim] and [heads, head_dim, d]
        for n, dense in (("q", att.query_dense), ("k", att.key_dense), ("v", att.value_dense)):
            dense.kernel.assign(w[p + f"self_attn/{n}_w"].reshape(D_MODEL, HEADS, heads_dim))
            dense.bias.assign(w[p + f"self_attn/{n}_b"].reshape(HEADS, heads_dim))
        att.output_dense.kernel.assign(w[p + "self_attn/out_w"].reshape(HEADS, heads_dim, D_MODEL))
        att.output_dense.bias.assign(w[p + "self_attn/out_b"])
        for name in ("linear1", "linear2"):
            getattr(block, name).kernel.assign(w[p + f"{name}/w"].T)
            getattr(block, name).bias.assign(w[p + f"{name}/b"])
        for name in ("norm1", "norm2"):
            getattr(block, name).gamma.assign(w[p + f"{name}/w"])
            getattr(block, name).beta.assign(w[p + f"{name}/b"])
    return net


def tf_step(net: Any) -> Callable[[Any, Any], Any]:
    """``tf.GradientTape`` and ``keras.optimizers.Adam``, as a Keras user writes a custom step."""
    import keras
    import tensorflow as tf

    opt = keras.optimizers.Adam(LR, epsilon=EPS)

    def step(x: Any, y: Any) -> Any:
        with tf.GradientTape() as tape:
            logits = net(x, training=True)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
        grads = tape.gradient(loss, net.trainable_variables)
        opt.apply_gradients(zip(grads, net.trainable_variables))
        return loss

    return step


# ---------------------------------------------------------------------------------------- paddle


def paddle_model(kind: str, model: Any) -> Any:
    """The native ``paddle.nn`` model, with the Ivy model's weights."""
    import numpy as np
    import paddle

    import ivy

    w = {k: np.asarray(ivy.to_numpy(a)) for k, a in model.v.to_flat_dict().items()}
    nn = paddle.nn
    net: Any
    if kind == "cnn":
        c1, c2 = _channels(model)
        net = nn.Sequential(
            nn.Conv2D(1, c1, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2D(2),
            nn.Conv2D(c1, c2, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2D(2),
            nn.Flatten(),
            nn.Linear(c2 * (SIDE // 4) ** 2, CLASSES),
        )
        for i in (0, 3):  # Ivy's kernels are [kh, kw, in, out], paddle's [out, in, kh, kw]
            net[i].weight.set_value(w[f"layers/{i}/w"].transpose(3, 2, 0, 1).copy())
            net[i].bias.set_value(w[f"layers/{i}/b"])
        net[7].weight.set_value(w["layers/7/w"].T.copy())  # paddle's Linear: [in, out]
        net[7].bias.set_value(w["layers/7/b"])
        return net

    table = np.asarray(ivy.to_numpy(model.position(np.zeros((1, LENGTH, D_MODEL), np.float32))))

    class PaddleLM(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.embed = nn.Embedding(VOCAB, D_MODEL)
            self.register_buffer("position", paddle.to_tensor(table))
            layer = nn.TransformerEncoderLayer(D_MODEL, HEADS, FF, 0.0, activation="gelu", normalize_before=True)
            self.encoder = nn.TransformerEncoder(layer, LAYERS)
            self.norm, self.head = nn.LayerNorm(D_MODEL), nn.Linear(D_MODEL, VOCAB)
            causal = np.triu(np.full((LENGTH, LENGTH), -np.inf, np.float32), 1)
            self.register_buffer("mask", paddle.to_tensor(causal))

        def forward(self, tokens: Any) -> Any:
            return self.head(self.norm(self.encoder(self.embed(tokens) * SCALE + self.position, self.mask)))

    net = PaddleLM()
    net.embed.weight.set_value(w["embed/w"])
    for name in ("norm", "head"):
        wt = w[f"{name}/w"]
        getattr(net, name).weight.set_value(wt.T.copy() if name == "head" else wt)
        getattr(net, name).bias.set_value(w[f"{name}/b"])
    for i, layer in enumerate(net.encoder.layers):
        p = f"encoder/layers/{i}/"
        att = layer.self_attn  # paddle's projections are Linear layers, [in, out] as Ivy's
        for n in "qkv":
            getattr(att, f"{n}_proj").weight.set_value(w[p + f"self_attn/{n}_w"])
            getattr(att, f"{n}_proj").bias.set_value(w[p + f"self_attn/{n}_b"])
        att.out_proj.weight.set_value(w[p + "self_attn/out_w"])
        att.out_proj.bias.set_value(w[p + "self_attn/out_b"])
        for name in ("linear1", "linear2", "norm1", "norm2"):
            wt = w[p + f"{name}/w"]
            getattr(layer, name).weight.set_value(wt.T.copy() if name.startswith("linear") else wt)
            getattr(layer, name).bias.set_value(w[p + f"{name}/b"])
    return net


def paddle_step(net: Any) -> Callable[[Any, Any], Any]:
    import paddle

    opt = paddle.optimizer.Adam(LR, parameters=net.parameters(), epsilon=EPS)

    def step(x: Any, y: Any) -> Any:
        logits = net(x)
        loss = paddle.nn.functional.cross_entropy(logits.reshape([-1, logits.shape[-1]]), y.reshape([-1]))
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    return step


# ------------------------------------------------------------------------------------------ child


def bench_backend(backend: str, rounds: int, number: int, torch_compile: bool) -> dict[str, Any]:
    """Every model on ``backend``: ``{model: {mode: timing}}`` (a child process)."""
    import numpy as np

    import ivy
    from benchmarks._common import block_until_ready, interleaved, paired, pin_one_thread, progress

    pin_one_thread(backend)
    sync = block_until_ready(backend)
    out: dict[str, Any] = {}
    kinds = ("cnn", "transformer")
    for k, kind in enumerate(kinds):
        progress(k, len(kinds))
        channels_first = backend in ("torch", "paddle")  # each framework's own layout
        xn, yn = data(kind, channels_first, "int32" if backend == "jax" else "int64")
        x, y = ivy.asarray(xn, backend=backend), ivy.asarray(yn, backend=backend)
        model = ivy_cnn(backend, "NCHW" if channels_first else "NHWC") if kind == "cnn" else ivy_lm(backend)
        model(x)  # build
        res: dict[str, Any] = {"params": n_params(model.v)}
        modes: list[tuple[str, Callable[..., Any], Callable[..., Any]]] = []
        if backend == "jax":
            table = ivy.to_numpy(model.position(np.zeros((1, LENGTH, D_MODEL), np.float32))) if kind != "cnn" else None
            native, count = jax_step(flax_model(kind, table, _channels(model) if kind == "cnn" else (0, 0)), x, y)
            if count != res["params"]:
                raise SystemExit(f"{kind}: the flax model has {count} parameters, the Ivy one {res['params']}")
            modes.append(("compiled", ivy_step(model, compiled=True), native))
        else:
            net, make_step = {
                "torch": (torch_models, torch_step),
                "tensorflow": (keras_model, tf_step),
                "paddle": (paddle_model, paddle_step),
            }[backend]
            net = net(kind, model)
            params = net.trainable_variables if backend == "tensorflow" else list(net.parameters())
            if n_params(params) != res["params"]:
                raise SystemExit(
                    f"{kind}: the {backend} model has {n_params(params)} parameters, Ivy's {res['params']}"
                )
            native = make_step(net)
            ivy_eager = ivy_step(model, compiled=False)
            first = float(ivy.to_numpy(ivy_eager(x, y))), float(ivy.to_numpy(native(x, y)))
            if not np.isclose(*first, rtol=1e-4):
                raise SystemExit(f"{kind}: first losses differ (ivy, {backend}) = {first}: not the same model")
            res["first_losses"] = first
            modes.append(("eager", ivy_eager, native))
            if backend == "tensorflow":  # what ivy.Trainer runs: the step under ivy.compile (tf.function)
                import tensorflow as tf

                modes.append(("compiled", ivy_step(model, compiled=True), tf.function(native)))
            elif backend == "torch" and torch_compile:
                import torch

                modes.append(("compiled", ivy_step(model, compiled=True), torch.compile(native)))
        for mode, ivy_fn, native_fn in modes:
            for _ in range(3):  # compile, warm caches
                sync(ivy_fn(x, y)), sync(native_fn(x, y))
            samples = interleaved(
                {"ivy": _bound(ivy_fn, x, y, sync), "native": _bound(native_fn, x, y, sync)}, rounds, number
            )
            res[mode] = {
                "ivy_ms": 1e3 * float(np.median(samples["ivy"])),
                "native_ms": 1e3 * float(np.median(samples["native"])),
                **paired(samples, "ivy", "native"),
            }
        out[kind] = res
    progress(len(kinds), len(kinds))
    return out


def _bound(step: Callable[[Any, Any], Any], x: Any, y: Any, sync: Callable[[Any], Any]) -> Callable[[], Any]:
    return lambda: sync(step(x, y))


# ----------------------------------------------------------------------------------------- parent


def table(results: dict[str, Any]) -> str:
    head = (
        f"{'model':<12} {'backend':<10} {'mode':<9} {'params':>8} {'native ms':>10} {'ivy ms':>9} "
        f"{'ivy/native':>10}  {'[q1, q3]':<14}  {'<= ' + str(TARGET)}"
    )
    lines = [head, "-" * len(head)]
    for backend, models in results["backends"].items():
        for kind, res in models.items():
            for mode in ("eager", "compiled"):
                if mode in res:
                    r = res[mode]
                    quartiles = f"[{r['q1']:.3f}, {r['q3']:.3f}]"
                    lines.append(
                        f"{kind:<12} {backend:<10} {mode:<9} {res['params']:>8,} {r['native_ms']:>10.2f} "
                        f"{r['ivy_ms']:>9.2f} {r['ratio']:>10.3f}  {quartiles:<14}  "
                        + ("yes" if r["ratio"] <= TARGET else "no")
                    )
    for backend, err in results["errors"].items():
        lines.append(f"{backend}: failed: {err}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from benchmarks._common import ChildError, child_env, run_child

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--backends", default=",".join(SUPPORTED), help="comma-separated (torch, jax, paddle, tensorflow)")
    ap.add_argument("--quick", action="store_true", help="fewer rounds")
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--torch-compile", action="store_true", help="also torch.compile'd steps (minutes to compile)")
    args = ap.parse_args(argv)
    rounds, number = (7, 2) if args.quick else (25, 2)
    names = [b for b in args.backends.split(",") if b in SUPPORTED]
    results: dict[str, Any] = {
        "rounds": rounds,
        "steps_per_round": number,
        "target": TARGET,
        "native": NATIVE,
        "backends": {},
        "errors": {},
        "skipped": [b for b in args.backends.split(",") if b and b not in SUPPORTED],
    }
    for name in names:
        try:
            results["backends"][name] = run_child(
                "benchmarks.bench_models",
                "bench_backend",
                {"backend": name, "rounds": rounds, "number": number, "torch_compile": args.torch_compile},
                env=child_env(name),
            )
        except ChildError as e:
            results["errors"][name] = str(e)
    print(
        f"Training step per model, Ivy vs native ({rounds} interleaved rounds of {number} steps, "
        f"median of per-round ratios; target <= {TARGET})"
    )
    print(table(results))
    if results["skipped"]:
        print(f"not measured (no native model written here): {', '.join(results['skipped'])}")
    if args.json:
        from ivy import _atomic

        _atomic.write_text(args.json, json.dumps(results, indent=1))
    return 1 if results["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
