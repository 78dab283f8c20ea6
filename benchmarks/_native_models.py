"""The native side of ``bench_native_models.py``: each model written as the framework's tutorials
write it (torch.nn + torch.optim; flax.linen + optax under jax.jit; Keras 3 layers with
``tf.GradientTape`` and a Keras Adam; paddle.nn + paddle.optimizer), and its training step.

``native_step(backend, kind, x, y, compiled)`` returns a step without arguments (the batch bound)
and the model's number of trainable parameters.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

MODELS = ("mlp", "cnn", "gru", "lstm", "transformer", "vit", "vae")
SIZES: dict[str, Any] = {
    "batch": 32,
    "mlp": (64, 128, 128, 10),
    "classes": 10,
    "side": 16,  # images 16x16
    "channels": 16,
    "features": 4,  # forecasters: 24 steps of 4 features, hidden 64
    "steps": 24,
    "hidden": 64,
    "tokens_in": 16,  # transformer: 32 tokens of 16 features
    "length": 32,
    "d_model": 64,
    "heads": 4,
    "ff": 128,
    "layers": 2,
    "patch": 4,  # ViT: 16 patches of 4x4
    "latent": 8,
}
S = SIZES
LR, EPS = 1e-3, 1e-7
NATIVE = {
    "torch": {"eager": "torch.nn, torch.optim.Adam", "compiled": "the same step, torch.compile"},
    "jax": {"compiled": "flax.linen, optax.adam, jax.jit"},
    "paddle": {"eager": "paddle.nn, paddle.optimizer.Adam", "compiled": "paddle.jit.to_static(model)"},
    "tensorflow": {
        "eager": "Keras 3 layers, tf.GradientTape, keras Adam",
        "compiled": "the same step, tf.function",
    },
}
# native - Ivy parameters where the layers differ only by redundant biases (the same functions):
# torch's and paddle's LSTM have bias_ih and bias_hh (Ivy, Keras and flax one bias per gate);
# flax's GRUCell has no hidden-side bias for the r and z gates (torch, Keras, paddle and Ivy do)
BIAS_DIFFERENCES = {
    ("torch", "lstm"): 4 * S["hidden"],
    ("paddle", "lstm"): 4 * S["hidden"],
    ("jax", "gru"): -2 * S["hidden"],
}


def data(kind: str, channels_first: bool, ints: str) -> tuple[Any, Any]:
    """A batch for ``kind``: inputs and labels (integer classes, float targets, or unused)."""
    import numpy as np

    rng = np.random.default_rng(0)
    b, side = S["batch"], S["side"]
    labels = rng.integers(0, S["classes"], b).astype(ints)
    if kind == "mlp":
        return rng.standard_normal((b, S["mlp"][0])).astype(np.float32), labels
    if kind in ("cnn", "vit", "vae"):
        c = 1 if kind == "vae" else 3
        shape = (b, c, side, side) if channels_first else (b, side, side, c)
        x = rng.uniform(0, 1, shape) if kind == "vae" else rng.standard_normal(shape)
        return x.astype(np.float32), labels
    if kind in ("gru", "lstm"):
        x = rng.standard_normal((b, S["steps"], S["features"])).astype(np.float32)
        return x, rng.standard_normal((b, 1)).astype(np.float32)
    return rng.standard_normal((b, S["length"], S["tokens_in"])).astype(np.float32), labels


def check_params(backend: str, kind: str, ivy_n: int, native_n: int) -> None:
    expected = BIAS_DIFFERENCES.get((backend, kind), 0)
    if native_n - ivy_n != expected:
        raise SystemExit(
            f"{kind} on {backend}: the native model has {native_n} parameters, the Ivy one {ivy_n} "
            f"(expected a difference of {expected}): not the same architecture"
        )


def to_numpy(a: Any) -> Any:
    import numpy as np

    if hasattr(a, "detach"):
        a = a.detach()
    return np.asarray(a.numpy() if hasattr(a, "numpy") else a)


def native_step(backend: str, kind: str, x: Any, y: Any, compiled: bool) -> tuple[Callable[[], Any], int]:
    return {"torch": torch_step, "jax": jax_step, "tensorflow": keras_step, "paddle": paddle_step}[backend](
        kind, x, y, compiled
    )


def _flat(kind: str) -> tuple[int, int, int]:
    c, q = S["channels"], S["side"] // 4
    return c, q, 2 * c * q * q


# ----------------------------------------------------------------------------------------- torch


def torch_model(kind: str) -> Any:
    import torch
    from torch import nn

    d, c, cls = S["d_model"], S["channels"], S["classes"]
    if kind == "mlp":
        m = S["mlp"]
        return nn.Sequential(nn.Linear(m[0], m[1]), nn.ReLU(), nn.Linear(m[1], m[2]), nn.ReLU(), nn.Linear(m[2], m[3]))
    if kind == "cnn":

        class ResNetish(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.stem = nn.Conv2d(3, c, 3, padding=1)
                self.conv1, self.bn1 = nn.Conv2d(c, c, 3, padding=1, bias=False), nn.BatchNorm2d(c)
                self.conv2, self.bn2 = nn.Conv2d(c, c, 3, padding=1, bias=False), nn.BatchNorm2d(c)
                self.pool, self.head = nn.AdaptiveAvgPool2d(1), nn.Linear(c, cls)

            def forward(self, x: Any) -> Any:
                x = torch.relu(self.stem(x))
                h = self.bn2(self.conv2(torch.relu(self.bn1(self.conv1(x)))))
                return self.head(self.pool(torch.relu(h + x)).flatten(1))

        return ResNetish()
    if kind in ("gru", "lstm"):

        class Forecaster(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.rnn = (nn.GRU if kind == "gru" else nn.LSTM)(S["features"], S["hidden"], batch_first=True)
                self.head = nn.Linear(S["hidden"], 1)

            def forward(self, x: Any) -> Any:
                out, _ = self.rnn(x)
                return self.head(out[:, -1])

        return Forecaster()
    if kind == "transformer":

        class Classifier(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.proj = nn.Linear(S["tokens_in"], d)
                layer = nn.TransformerEncoderLayer(d, S["heads"], S["ff"], 0.0, batch_first=True)
                self.encoder = nn.TransformerEncoder(layer, S["layers"], enable_nested_tensor=False)
                self.head = nn.Linear(d, cls)

            def forward(self, x: Any) -> Any:
                return self.head(self.encoder(self.proj(x)).mean(1))

        return Classifier()
    if kind == "vit":
        p = S["patch"]
        n = (S["side"] // p) ** 2

        class ViT(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.patches = nn.Conv2d(3, d, p, stride=p)
                self.cls_token = nn.Parameter(torch.zeros(1, 1, d))
                self.position = nn.Parameter(torch.randn(1, n + 1, d) * 0.02)
                layer = nn.TransformerEncoderLayer(
                    d, S["heads"], S["ff"], 0.0, activation="gelu", batch_first=True, norm_first=True
                )
                self.encoder = nn.TransformerEncoder(layer, S["layers"], nn.LayerNorm(d), enable_nested_tensor=False)
                self.head = nn.Linear(d, cls)

            def forward(self, x: Any) -> Any:
                h = self.patches(x).flatten(2).transpose(1, 2)
                h = torch.cat([self.cls_token.expand(h.shape[0], -1, -1), h], 1) + self.position
                return self.head(self.encoder(h)[:, 0])

        return ViT()
    _, q, flat = _flat(kind)

    class VAE(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.enc1, self.enc2 = nn.Conv2d(1, c, 4, 2, 1), nn.Conv2d(c, 2 * c, 4, 2, 1)
            self.stats, self.dec = nn.Linear(flat, 2 * S["latent"]), nn.Linear(S["latent"], flat)
            self.up1, self.up2 = nn.ConvTranspose2d(2 * c, c, 4, 2, 1), nn.ConvTranspose2d(c, 1, 4, 2, 1)

        def forward(self, x: Any) -> Any:
            h = torch.relu(self.enc2(torch.relu(self.enc1(x))))
            mu, logvar = self.stats(h.flatten(1)).chunk(2, dim=-1)
            z = mu + torch.exp(0.5 * logvar) * torch.randn_like(mu)
            h = torch.relu(self.dec(z)).view(-1, 2 * c, q, q)
            xhat = torch.sigmoid(self.up2(torch.relu(self.up1(h))))
            rec = ((xhat - x) ** 2).sum() / x.shape[0]
            kl = -0.5 * torch.sum(1 + logvar - mu**2 - logvar.exp()) / x.shape[0]
            return rec + kl

    return VAE()


def torch_step(kind: str, xn: Any, yn: Any, compiled: bool) -> tuple[Callable[[], Any], int]:
    import torch
    import torch.nn.functional as F

    net = torch_model(kind)
    net.train()
    opt = torch.optim.Adam(net.parameters(), lr=LR, eps=EPS)
    x, y = torch.from_numpy(xn), torch.from_numpy(yn)

    def step() -> Any:
        opt.zero_grad()
        out = net(x)
        if kind == "vae":
            loss = out
        elif kind in ("gru", "lstm"):
            loss = F.mse_loss(out, y)
        else:
            loss = F.cross_entropy(out, y)
        loss.backward()
        opt.step()
        return loss

    count = sum(p.numel() for p in net.parameters())
    return (torch.compile(step) if compiled else step), count


# ------------------------------------------------------------------------------------------- jax


def flax_model(kind: str) -> Any:
    import flax.linen as nn
    import jax
    import jax.numpy as jnp

    d, c, cls = S["d_model"], S["channels"], S["classes"]
    if kind == "mlp":
        m = S["mlp"]

        class MLP(nn.Module):
            @nn.compact
            def __call__(self, x: Any, train: bool = True) -> Any:
                x = nn.relu(nn.Dense(m[1])(x))
                return nn.Dense(m[3])(nn.relu(nn.Dense(m[2])(x)))

        return MLP()
    if kind == "cnn":

        class ResNetish(nn.Module):
            @nn.compact
            def __call__(self, x: Any, train: bool = True) -> Any:
                bn = lambda: nn.BatchNorm(use_running_average=not train, momentum=0.9, epsilon=1e-5)  # noqa: E731
                x = nn.relu(nn.Conv(c, (3, 3), padding="SAME")(x))
                h = nn.relu(bn()(nn.Conv(c, (3, 3), padding="SAME", use_bias=False)(x)))
                h = bn()(nn.Conv(c, (3, 3), padding="SAME", use_bias=False)(h))
                return nn.Dense(cls)(jnp.mean(nn.relu(h + x), axis=(1, 2)))

        return ResNetish()
    if kind in ("gru", "lstm"):
        cell = nn.GRUCell if kind == "gru" else nn.LSTMCell

        class Forecaster(nn.Module):
            @nn.compact
            def __call__(self, x: Any, train: bool = True) -> Any:
                return nn.Dense(1)(nn.RNN(cell(S["hidden"]))(x)[:, -1])

        return Forecaster()

    class Block(nn.Module):
        pre_norm: bool
        act: Callable[[Any], Any]

        @nn.compact
        def __call__(self, x: Any) -> Any:
            ln = lambda: nn.LayerNorm(epsilon=1e-5)  # noqa: E731
            attn = nn.MultiHeadDotProductAttention(S["heads"])
            ff = lambda h: nn.Dense(d)(self.act(nn.Dense(S["ff"])(h)))  # noqa: E731
            if self.pre_norm:
                h = ln()(x)
                x = x + attn(h, h)
                return x + ff(ln()(x))
            x = ln()(x + attn(x, x))
            return ln()(x + ff(x))

    if kind == "transformer":

        class Classifier(nn.Module):
            @nn.compact
            def __call__(self, x: Any, train: bool = True) -> Any:
                x = nn.Dense(d)(x)
                for _ in range(S["layers"]):
                    x = Block(False, nn.relu)(x)
                return nn.Dense(cls)(jnp.mean(x, axis=1))

        return Classifier()
    if kind == "vit":
        p = S["patch"]
        n = (S["side"] // p) ** 2

        class ViT(nn.Module):
            @nn.compact
            def __call__(self, x: Any, train: bool = True) -> Any:
                h = nn.Conv(d, (p, p), strides=(p, p), padding="VALID")(x).reshape(x.shape[0], n, d)
                tok = self.param("cls_token", nn.initializers.zeros, (1, 1, d))
                pos = self.param("position", nn.initializers.normal(0.02), (1, n + 1, d))
                h = jnp.concatenate([jnp.broadcast_to(tok, (x.shape[0], 1, d)), h], 1) + pos
                for _ in range(S["layers"]):
                    h = Block(True, lambda a: nn.gelu(a, approximate=False))(h)
                return nn.Dense(cls)(nn.LayerNorm(epsilon=1e-5)(h)[:, 0])

        return ViT()
    _, q, flat = _flat(kind)

    class VAE(nn.Module):
        @nn.compact
        def __call__(self, x: Any, train: bool = True) -> Any:
            h = nn.relu(nn.Conv(c, (4, 4), (2, 2), padding="SAME")(x))
            h = nn.relu(nn.Conv(2 * c, (4, 4), (2, 2), padding="SAME")(h))
            mu, logvar = jnp.split(nn.Dense(2 * S["latent"])(h.reshape(x.shape[0], flat)), 2, axis=-1)
            z = mu + jnp.exp(0.5 * logvar) * jax.random.normal(self.make_rng("noise"), mu.shape)
            h = nn.relu(nn.Dense(flat)(z)).reshape(x.shape[0], q, q, 2 * c)
            h = nn.relu(nn.ConvTranspose(c, (4, 4), (2, 2), padding="SAME")(h))
            xhat = nn.sigmoid(nn.ConvTranspose(1, (4, 4), (2, 2), padding="SAME")(h))
            rec = jnp.sum((xhat - x) ** 2) / x.shape[0]
            return rec - 0.5 * jnp.sum(1 + logvar - mu**2 - jnp.exp(logvar)) / x.shape[0]

    return VAE()


def jax_step(kind: str, xn: Any, yn: Any, compiled: bool) -> tuple[Callable[[], Any], int]:
    """The flax + optax step under jax.jit (the only way JAX trains)."""
    import jax
    import jax.numpy as jnp
    import optax

    net = flax_model(kind)
    x, y = jnp.asarray(xn), jnp.asarray(yn)
    key = jax.random.PRNGKey(0)
    variables = net.init({"params": key, "noise": key}, x)
    params, stats = variables["params"], variables.get("batch_stats")
    tx = optax.adam(LR, eps=EPS)

    @jax.jit
    def update(params: Any, stats: Any, opt_state: Any, key: Any, x: Any, y: Any) -> Any:
        key, noise = jax.random.split(key)

        def loss_fn(p: Any) -> Any:
            vs = {"params": p} if stats is None else {"params": p, "batch_stats": stats}
            out, new = net.apply(vs, x, mutable=["batch_stats"], rngs={"noise": noise})
            if kind == "vae":
                loss = out
            elif kind in ("gru", "lstm"):
                loss = jnp.mean((out - y) ** 2)
            else:
                loss = optax.softmax_cross_entropy_with_integer_labels(out, y).mean()
            return loss, new.get("batch_stats")

        (loss, stats), g = jax.value_and_grad(loss_fn, has_aux=True)(params)
        updates, opt_state = tx.update(g, opt_state, params)
        return optax.apply_updates(params, updates), stats, opt_state, key, loss

    st = {"p": params, "s": stats, "o": tx.init(params), "k": key}

    def step() -> Any:
        st["p"], st["s"], st["o"], st["k"], loss = update(st["p"], st["s"], st["o"], st["k"], x, y)
        return loss

    return step, int(sum(a.size for a in jax.tree_util.tree_leaves(params)))


# ------------------------------------------------------------------------------------ tensorflow


def keras_model(kind: str) -> Any:
    import keras
    from keras import layers as L

    d, c, cls = S["d_model"], S["channels"], S["classes"]
    if kind == "mlp":
        m = S["mlp"]
        return keras.Sequential(
            [keras.Input((m[0],)), L.Dense(m[1], activation="relu"), L.Dense(m[2], activation="relu"), L.Dense(m[3])]
        )
    if kind == "cnn":
        inp = keras.Input((S["side"], S["side"], 3))
        x = L.Conv2D(c, 3, padding="same", activation="relu")(inp)
        h = L.Conv2D(c, 3, padding="same", use_bias=False)(x)
        h = L.ReLU()(L.BatchNormalization(momentum=0.9, epsilon=1e-5)(h))
        h = L.BatchNormalization(momentum=0.9, epsilon=1e-5)(L.Conv2D(c, 3, padding="same", use_bias=False)(h))
        out = L.Dense(cls)(L.GlobalAveragePooling2D()(L.ReLU()(L.Add()([h, x]))))
        return keras.Model(inp, out)
    if kind in ("gru", "lstm"):
        rnn = (L.GRU if kind == "gru" else L.LSTM)(S["hidden"])
        return keras.Sequential([keras.Input((S["steps"], S["features"])), rnn, L.Dense(1)])

    class Block(L.Layer):
        def __init__(self, pre_norm: bool, activation: str) -> None:
            super().__init__()
            self.pre_norm = pre_norm
            self.attn = L.MultiHeadAttention(S["heads"], d // S["heads"])
            self.norm1, self.norm2 = L.LayerNormalization(epsilon=1e-5), L.LayerNormalization(epsilon=1e-5)
            self.ff1, self.ff2 = L.Dense(S["ff"], activation=activation), L.Dense(d)

        def call(self, x: Any) -> Any:
            if self.pre_norm:
                h = self.norm1(x)
                x = x + self.attn(h, h)
                return x + self.ff2(self.ff1(self.norm2(x)))
            x = self.norm1(x + self.attn(x, x))
            return self.norm2(x + self.ff2(self.ff1(x)))

    if kind == "transformer":
        inp = keras.Input((S["length"], S["tokens_in"]))
        h = L.Dense(d)(inp)
        for _ in range(S["layers"]):
            h = Block(False, "relu")(h)
        return keras.Model(inp, L.Dense(cls)(L.GlobalAveragePooling1D()(h)))
    if kind == "vit":
        p = S["patch"]
        n = (S["side"] // p) ** 2

        class ViT(keras.Model):
            def __init__(self) -> None:
                super().__init__()
                self.patches = L.Conv2D(d, p, strides=p)
                self.cls_token = self.add_weight(shape=(1, 1, d), initializer="zeros", name="cls_token")
                self.position = self.add_weight(
                    shape=(1, n + 1, d), initializer=keras.initializers.RandomNormal(stddev=0.02), name="position"
                )
                self.blocks = [Block(True, "gelu") for _ in range(S["layers"])]
                self.norm, self.head = L.LayerNormalization(epsilon=1e-5), L.Dense(cls)

            def call(self, x: Any) -> Any:
                h = keras.ops.reshape(self.patches(x), (-1, n, d))
                tok = keras.ops.broadcast_to(self.cls_token, (keras.ops.shape(h)[0], 1, d))
                h = keras.ops.concatenate([tok, h], axis=1) + self.position
                for block in self.blocks:
                    h = block(h)
                return self.head(self.norm(h)[:, 0])

        return ViT()
    _, q, flat = _flat(kind)

    class VAE(keras.Model):
        """As Keras' VAE example: a sampling step with its own seed generator, losses in the step."""

        def __init__(self) -> None:
            super().__init__()
            self.enc1 = L.Conv2D(c, 4, strides=2, padding="same", activation="relu")
            self.enc2 = L.Conv2D(2 * c, 4, strides=2, padding="same", activation="relu")
            self.stats, self.dec = L.Dense(2 * S["latent"]), L.Dense(flat, activation="relu")
            self.up1 = L.Conv2DTranspose(c, 4, strides=2, padding="same", activation="relu")
            self.up2 = L.Conv2DTranspose(1, 4, strides=2, padding="same", activation="sigmoid")
            self.seed = keras.random.SeedGenerator(0)

        def call(self, x: Any) -> Any:
            ops = keras.ops
            mu, logvar = ops.split(self.stats(ops.reshape(self.enc2(self.enc1(x)), (-1, flat))), 2, axis=-1)
            z = mu + ops.exp(0.5 * logvar) * keras.random.normal(ops.shape(mu), seed=self.seed)
            xhat = self.up2(self.up1(ops.reshape(self.dec(z), (-1, q, q, 2 * c))))
            b = ops.cast(ops.shape(x)[0], "float32")
            rec = ops.sum((xhat - x) ** 2) / b
            return rec - 0.5 * ops.sum(1 + logvar - mu**2 - ops.exp(logvar)) / b

    return VAE()


def keras_step(kind: str, xn: Any, yn: Any, compiled: bool) -> tuple[Callable[[], Any], int]:
    """A custom Keras training step (``tf.GradientTape``), as Keras' guide to writing one; compiled
    with ``tf.function`` as ``model.fit`` runs it (no XLA: ``jit_compile="auto"`` on a CPU)."""
    import keras
    import tensorflow as tf

    net = keras_model(kind)
    x, y = tf.constant(xn), tf.constant(yn)
    net(x[:1])  # build
    opt = keras.optimizers.Adam(LR, epsilon=EPS)
    if kind in ("gru", "lstm"):
        loss_fn: Any = keras.losses.MeanSquaredError()
    elif kind != "vae":
        loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    def step() -> Any:
        with tf.GradientTape() as tape:
            out = net(x, training=True)
            loss = out if kind == "vae" else loss_fn(y, out)
        grads = tape.gradient(loss, net.trainable_variables)
        opt.apply_gradients(zip(grads, net.trainable_variables))
        return loss

    count = int(sum(v.shape.num_elements() for v in net.trainable_variables))
    return (tf.function(step, jit_compile=False) if compiled else step), count


# ---------------------------------------------------------------------------------------- paddle


def paddle_model(kind: str) -> Any:
    import paddle
    from paddle import nn

    d, c, cls = S["d_model"], S["channels"], S["classes"]
    F = nn.functional
    if kind == "mlp":
        m = S["mlp"]
        return nn.Sequential(nn.Linear(m[0], m[1]), nn.ReLU(), nn.Linear(m[1], m[2]), nn.ReLU(), nn.Linear(m[2], m[3]))
    if kind == "cnn":

        class ResNetish(nn.Layer):
            def __init__(self) -> None:
                super().__init__()
                self.stem = nn.Conv2D(3, c, 3, padding=1)
                self.conv1, self.bn1 = nn.Conv2D(c, c, 3, padding=1, bias_attr=False), nn.BatchNorm2D(c)
                self.conv2, self.bn2 = nn.Conv2D(c, c, 3, padding=1, bias_attr=False), nn.BatchNorm2D(c)
                self.pool, self.head = nn.AdaptiveAvgPool2D(1), nn.Linear(c, cls)

            def forward(self, x: Any) -> Any:
                x = F.relu(self.stem(x))
                h = self.bn2(self.conv2(F.relu(self.bn1(self.conv1(x)))))
                return self.head(paddle.flatten(self.pool(F.relu(h + x)), 1))

        return ResNetish()
    if kind in ("gru", "lstm"):

        class Forecaster(nn.Layer):
            def __init__(self) -> None:
                super().__init__()
                self.rnn = (nn.GRU if kind == "gru" else nn.LSTM)(S["features"], S["hidden"])
                self.head = nn.Linear(S["hidden"], 1)

            def forward(self, x: Any) -> Any:
                out, _ = self.rnn(x)
                return self.head(out[:, -1])

        return Forecaster()
    if kind == "transformer":

        class Classifier(nn.Layer):
            def __init__(self) -> None:
                super().__init__()
                self.proj = nn.Linear(S["tokens_in"], d)
                self.encoder = nn.TransformerEncoder(
                    nn.TransformerEncoderLayer(d, S["heads"], S["ff"], 0.0), S["layers"]
                )
                self.head = nn.Linear(d, cls)

            def forward(self, x: Any) -> Any:
                return self.head(self.encoder(self.proj(x)).mean(1))

        return Classifier()
    if kind == "vit":
        p = S["patch"]
        n = (S["side"] // p) ** 2

        class ViT(nn.Layer):
            def __init__(self) -> None:
                super().__init__()
                self.patches = nn.Conv2D(3, d, p, stride=p)
                self.cls_token = self.create_parameter([1, 1, d], default_initializer=nn.initializer.Constant(0.0))
                self.position = self.create_parameter([1, n + 1, d], default_initializer=nn.initializer.Normal(0, 0.02))
                layer = nn.TransformerEncoderLayer(
                    d, S["heads"], S["ff"], 0.0, activation="gelu", normalize_before=True
                )
                self.encoder = nn.TransformerEncoder(layer, S["layers"], nn.LayerNorm(d))
                self.head = nn.Linear(d, cls)

            def forward(self, x: Any) -> Any:
                h = self.patches(x).flatten(2).transpose([0, 2, 1])
                h = paddle.concat([self.cls_token.expand([h.shape[0], 1, d]), h], 1) + self.position
                return self.head(self.encoder(h)[:, 0])

        return ViT()
    _, q, flat = _flat(kind)

    class VAE(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.enc1, self.enc2 = nn.Conv2D(1, c, 4, 2, 1), nn.Conv2D(c, 2 * c, 4, 2, 1)
            self.stats, self.dec = nn.Linear(flat, 2 * S["latent"]), nn.Linear(S["latent"], flat)
            self.up1, self.up2 = nn.Conv2DTranspose(2 * c, c, 4, 2, 1), nn.Conv2DTranspose(c, 1, 4, 2, 1)

        def forward(self, x: Any) -> Any:
            h = F.relu(self.enc2(F.relu(self.enc1(x))))
            mu, logvar = paddle.chunk(self.stats(paddle.flatten(h, 1)), 2, axis=-1)
            z = mu + paddle.exp(0.5 * logvar) * paddle.randn(mu.shape)
            h = F.relu(self.dec(z)).reshape([-1, 2 * c, q, q])
            xhat = F.sigmoid(self.up2(F.relu(self.up1(h))))
            rec = ((xhat - x) ** 2).sum() / x.shape[0]
            return rec - 0.5 * paddle.sum(1 + logvar - mu**2 - paddle.exp(logvar)) / x.shape[0]

    return VAE()


def paddle_step(kind: str, xn: Any, yn: Any, compiled: bool) -> tuple[Callable[[], Any], int]:
    """paddle.nn + paddle.optimizer.Adam; compiled as paddle's guide does: ``to_static`` of the model,
    the optimizer step eager."""
    import paddle
    import paddle.nn.functional as F

    net = paddle_model(kind)
    net.train()
    opt = paddle.optimizer.Adam(LR, parameters=net.parameters(), epsilon=EPS)
    count = int(sum(p.numel().item() for p in net.parameters() if not p.stop_gradient))
    if compiled:
        net = paddle.jit.to_static(net)
    x, y = paddle.to_tensor(xn), paddle.to_tensor(yn)

    def step() -> Any:
        out = net(x)
        if kind == "vae":
            loss = out
        elif kind in ("gru", "lstm"):
            loss = F.mse_loss(out, y)
        else:
            loss = F.cross_entropy(out, y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    return step, count
