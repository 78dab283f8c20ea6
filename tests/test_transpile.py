"""``ivy.transpile`` on each TARGET (the ``--backend`` of the run), from Ivy sources: functions and
models built from Ivy's own layers become the target's programs and native modules.

Every check has an independent reference: the Ivy function or module run eagerly on the same
backend (outputs), ``ivy.value_and_grad`` of the same loss (gradients w.r.t. every parameter),
NumPy formulas (the lazily transpiled test library), and the target's own optimizer lowering
the loss. The frontends of the other frameworks are tested with their plugins
(``tests/test_transpile_from_<source>.py``).

    python -m pytest tests/test_transpile.py --backend torch -q
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ivy

HERE = Path(__file__).resolve().parent
AUTODIFF = ("torch", "jax", "tensorflow", "paddle")


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IVY_CACHE_DIR", str(tmp_path / "cache"))


def _close(a: Any, b: Any, rtol: float = 1e-4, atol: float = 1e-5) -> None:
    np.testing.assert_allclose(
        np.asarray(ivy.to_numpy(a), np.float64), np.asarray(ivy.to_numpy(b), np.float64), rtol=rtol, atol=atol
    )


def _rand(*shape: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype("float32")


# --------------------------------------------------------------------------- models from Ivy layers


def _mlp() -> Any:
    return ivy.Sequential(ivy.Linear(6, 16), ivy.GELU(), ivy.Linear(16, 3))


def _cnn() -> Any:
    return ivy.Sequential(
        ivy.Conv2D(3, 4, [3, 3], padding="SAME", data_format="NCHW"),
        ivy.BatchNorm2D(4, data_format="NCHW"),
        ivy.ReLU(),
        ivy.Conv2D(4, 4, [3, 3], strides=2, data_format="NCHW"),
        ivy.Flatten(),
        ivy.Linear(4 * 3 * 3, 2),
    )


MODELS = {"mlp": (_mlp, (4, 6), (4, 3)), "cnn": (_cnn, (2, 3, 8, 8), (2, 2))}


def _build(backend: str, which: str) -> tuple[Any, Any, Any]:
    """An Ivy model on ``backend`` (its variables native arrays there), an input and a target."""
    make, xshape, yshape = MODELS[which]
    ivy.seed(0)
    with ivy.use_backend(backend):
        model = make()
        x = ivy.asarray(_rand(*xshape, seed=1))
        model(x)  # built; BatchNorm's running statistics moved once
    return model, x, ivy.asarray(_rand(*yshape, seed=2), backend=backend)


def _loss(out: Any, y: Any) -> Any:
    return ivy.mean(ivy.square(ivy.subtract(out, y)))


# --------------------------------------------------------------------------- the target's own idioms


def _params(backend: str, native: Any) -> dict[str, Any]:
    """The native module's trainable parameters by the graph's key chain."""
    if backend == "jax":
        from ivy.transpile._fingerprint import _flatten_params

        out: dict[str, Any] = {}
        _flatten_params(native.params, "", out)
        return out
    if backend == "tensorflow":
        return {native.key_chain(v): v for v in native.trainable_variables}
    return {native.key_chain(n): p for n, p in native.named_parameters()}


def _native_value_and_grads(backend: str, native: Any, x: Any, y: Any) -> tuple[float, dict[str, Any]]:
    """The loss and its gradients w.r.t. every parameter, by the target's own autodiff."""
    if backend == "torch":
        native.zero_grad()
        loss = _loss(native(x), y)
        loss.backward()
        return float(ivy.to_numpy(loss)), {native.key_chain(n): p.grad for n, p in native.named_parameters()}
    if backend == "jax":
        import jax

        def f(p: Any) -> Any:
            out = native.apply(p, x)
            return _loss(out[0] if native.programs.buffers else out, y)

        loss, g = jax.value_and_grad(f)(native.params)
        from ivy.transpile._fingerprint import _flatten_params

        flat: dict[str, Any] = {}
        _flatten_params(g, "", flat)
        return float(ivy.to_numpy(loss)), flat
    if backend == "tensorflow":
        import tensorflow as tf

        with tf.GradientTape() as tape:
            loss = _loss(native(x, training=True), y)
        grads = tape.gradient(loss, native.trainable_variables)
        return float(ivy.to_numpy(loss)), {native.key_chain(v): g for v, g in zip(native.trainable_variables, grads)}
    if backend == "paddle":
        loss = _loss(native(x), y)
        loss.backward()
        grads = {native.key_chain(n): p.grad.clone() for n, p in native.named_parameters()}
        native.clear_gradients()
        return float(ivy.to_numpy(loss)), grads
    raise AssertionError(backend)


def _train(backend: str, native: Any, x: Any, y: Any, steps: int, lr: float) -> list[float]:
    """``steps`` steps of the target's own SGD; the losses before each."""
    losses = []
    if backend == "torch":
        import torch

        opt = torch.optim.SGD(native.parameters(), lr=lr)
        for _ in range(steps):
            opt.zero_grad()
            loss = _loss(native(x), y)
            loss.backward()
            opt.step()
            losses.append(float(ivy.to_numpy(loss)))
    elif backend == "jax":
        import jax
        import optax

        opt = optax.sgd(lr)
        params, state = native.params, native.state

        def f(p: Any, s: Any) -> Any:
            out = native.apply(p, x, state=s)
            out, s = out if native.programs.buffers else (out, s)
            return _loss(out, y), s

        step = jax.jit(jax.value_and_grad(f, has_aux=True))
        opt_state = opt.init(params)
        for _ in range(steps):
            (loss, state), g = step(params, state)
            updates, opt_state = opt.update(g, opt_state, params)
            params = optax.apply_updates(params, updates)
            losses.append(float(ivy.to_numpy(loss)))
        native.params, native.state = params, state
    elif backend == "tensorflow":
        import keras
        import tensorflow as tf

        opt = keras.optimizers.SGD(lr)
        for _ in range(steps):
            with tf.GradientTape() as tape:
                loss = _loss(native(x, training=True), y)
            grads = tape.gradient(loss, native.trainable_variables)
            opt.apply_gradients(zip(grads, native.trainable_variables))
            losses.append(float(ivy.to_numpy(loss)))
    elif backend == "paddle":
        import paddle

        opt = paddle.optimizer.SGD(learning_rate=lr, parameters=native.parameters())
        for _ in range(steps):
            loss = _loss(native(x), y)
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(float(ivy.to_numpy(loss)))
    return losses


def _call(backend: str, native: Any, x: Any, training: bool) -> Any:
    """A forward pass of the native module in ``training`` mode, as the target does it."""
    if backend == "tensorflow":
        return native(x, training=training)
    native.train(training) if backend != "paddle" else (native.train() if training else native.eval())
    return native(x)


# --------------------------------------------------------------------------- functions


def attention(q: Any, k: Any, v: Any) -> Any:
    scores = ivy.divide(ivy.matmul(q, ivy.permute_dims(k, (0, 2, 1))), 2.0)
    return ivy.matmul(ivy.softmax(scores, axis=-1), v)


def test_a_function_becomes_a_native_program(backend: str, to_native: Any) -> None:
    q, k, v = (to_native(_rand(2, 5, 4, seed=s)) for s in range(3))
    program = ivy.transpile(attention, to=backend, args=(q, k, v))
    out = program(q, k, v)
    assert type(out) is type(q) or ivy.is_native_array(out)
    assert ivy.namespace(out) is ivy.backend_namespace(backend)
    with ivy.use_backend(backend):
        _close(out, attention(q, k, v))


def test_a_transpiled_function_is_differentiable_by_the_target(autodiff: str, to_native: Any) -> None:
    q, k, v = (to_native(_rand(2, 5, 4, seed=s)) for s in range(3))
    program = ivy.transpile(attention, to=autodiff, args=(q, k, v))

    def through_program(q: Any) -> Any:
        return ivy.sum(ivy.square(program(q, k, v)))

    def eager(q: Any) -> Any:
        return ivy.sum(ivy.square(attention(q, k, v)))

    (val, grad), (ref_val, ref_grad) = ivy.value_and_grad(through_program)(q), ivy.value_and_grad(eager)(q)
    _close(val, ref_val)
    _close(grad, ref_grad)


def test_example_inputs_may_come_from_numpy(backend: str, to_native: Any) -> None:
    q, k, v = (_rand(2, 5, 4, seed=s) for s in range(3))
    program = ivy.transpile(attention, to=backend, args=(q, k, v))
    native = [to_native(a) for a in (q, k, v)]
    with ivy.use_backend(backend):
        _close(program(*native), attention(*native))


def test_to_ivy_gives_a_graph_that_runs_here(backend: str, to_native: Any) -> None:
    q, k, v = (to_native(_rand(2, 5, 4, seed=s)) for s in range(3))
    graph = ivy.transpile(attention, to="ivy", args=(q, k, v))
    assert isinstance(graph, ivy.Graph)
    with ivy.use_backend(backend):
        _close(graph(q, k, v), attention(q, k, v))


# --------------------------------------------------------------------------- modules


def test_a_module_cannot_go_to_a_target_without_autodiff(backend: str) -> None:
    if backend != "numpy":
        pytest.skip("numpy is the target without autodiff")
    model, x, _ = _build("numpy", "mlp")
    with pytest.raises(ivy.errors.TranspileError, match="numpy has no automatic differentiation"):
        ivy.transpile(model, to="numpy", args=(x,))


@pytest.mark.parametrize("which", list(MODELS))
def test_a_module_becomes_a_native_module_with_the_same_outputs(autodiff: str, which: str) -> None:
    model, x, _ = _build(autodiff, which)
    native = ivy.transpile(model, to=autodiff, args=(x,))
    with ivy.use_backend(autodiff):
        model.train(True)
        expected_train = model(x)
        model.eval()
        expected_eval = model(x)
    model.train(True)
    _close(_call(autodiff, native, x, training=True), expected_train)
    _close(_call(autodiff, native, x, training=False), expected_eval)


@pytest.mark.parametrize("which", list(MODELS))
def test_gradients_wrt_every_parameter_match_ivy(autodiff: str, which: str) -> None:
    model, x, y = _build(autodiff, which)
    native = ivy.transpile(model, to=autodiff, args=(x,))
    if autodiff != "tensorflow":
        native.train(True) if autodiff != "paddle" else native.train()
    loss, grads = _native_value_and_grads(autodiff, native, x, y)
    with ivy.use_backend(autodiff):
        model.train(True)
        ref_loss, ref_grads = ivy.value_and_grad(lambda v: _loss(model(x, v=v), y))(model.v)
    _close(loss, ref_loss)
    ref = ref_grads.to_flat_dict()
    assert set(grads) == set(ref)
    for chain, g in grads.items():
        _close(g, ref[chain], rtol=1e-3, atol=1e-5)


@pytest.mark.parametrize("which", list(MODELS))
def test_the_targets_own_optimizer_trains_it(autodiff: str, which: str) -> None:
    model, x, y = _build(autodiff, which)
    native = ivy.transpile(model, to=autodiff, args=(x,))
    if autodiff != "tensorflow":
        native.train(True) if autodiff != "paddle" else native.train()
    losses = _train(autodiff, native, x, y, steps=6, lr=0.05)
    assert losses[-1] < 0.9 * losses[0], losses


def test_parameters_keep_the_key_chains_as_names(autodiff: str) -> None:
    model, x, _ = _build(autodiff, "cnn")
    native = ivy.transpile(model, to=autodiff, args=(x,))
    chains = set(model.v.to_flat_dict())
    assert set(_params(autodiff, native)) == chains
    buffers = set(model.state.to_flat_dict())
    if autodiff in ("torch", "paddle"):
        assert set(native.state_dict()) == {c.replace("/", ".") for c in chains | buffers}
    elif autodiff == "tensorflow":
        assert {v.name for v in native.non_trainable_variables} == {c.replace("/", ".") for c in buffers}
    else:
        from ivy.transpile._fingerprint import _flatten_params

        flat: dict[str, Any] = {}
        _flatten_params(native.state, "", flat)
        assert set(flat) == buffers


def test_batch_norm_statistics_update_in_training_mode(autodiff: str) -> None:
    model, x, _ = _build(autodiff, "cnn")
    native = ivy.transpile(model, to=autodiff, args=(x,))
    x2 = ivy.asarray(_rand(2, 3, 8, 8, seed=7), backend=autodiff)
    _call(autodiff, native, x2, training=True)
    with ivy.use_backend(autodiff):
        model.train(True)
        model(x2)
    expected = model.state.to_flat_dict()
    if autodiff == "jax":
        from ivy.transpile._fingerprint import _flatten_params

        got: dict[str, Any] = {}
        _flatten_params(native.state, "", got)
    elif autodiff == "tensorflow":
        got = {native.key_chain(v): v for v in native.non_trainable_variables}
    else:
        got = {native.key_chain(n): b for n, b in native.named_buffers()}
    assert set(got) == set(expected)
    for chain in expected:
        _close(got[chain], expected[chain])


def test_a_new_batch_size_is_read_again(autodiff: str) -> None:
    model, x, _ = _build(autodiff, "mlp")
    native = ivy.transpile(model, to=autodiff, args=(x,))
    x7 = ivy.asarray(_rand(7, 6, seed=3), backend=autodiff)
    out = _call(autodiff, native, x7, training=False)
    with ivy.use_backend(autodiff):
        model.eval()
        _close(out, model(x7))


def test_jax_apply_is_pure_and_jittable(backend: str) -> None:
    if backend != "jax":
        pytest.skip("the JAX native module's apply")
    import jax

    model, x, _ = _build("jax", "cnn")
    native = ivy.transpile(model, to="jax", args=(x,))
    x5 = ivy.asarray(_rand(5, 3, 8, 8, seed=4), backend="jax")
    with ivy.use_backend("jax"):
        model.eval()
        expected_eval = model(x5)
        model.train(True)
        expected_train = model(x)  # (this moves the Ivy model's running statistics: after the eval)
    out, state = jax.jit(lambda p, s, x: native.apply(p, x, state=s, training=True))(native.params, native.state, x)
    _close(out, expected_train)
    # a new batch size under jit: read with zeros of that shape as the example
    out5, _ = jax.jit(lambda p, x: native.apply(p, x, training=False))(native.params, x5)
    _close(out5, expected_eval)


def test_keras_fit_trains_the_layer_inside_a_model(backend: str) -> None:
    if backend != "tensorflow":
        pytest.skip("Keras' model.fit")
    import keras

    model, x, y = _build("tensorflow", "mlp")
    layer = ivy.transpile(model, to="tensorflow", args=(x,))

    class Net(keras.Model):
        def __init__(self) -> None:
            super().__init__()
            self.body = layer

        def call(self, inputs: Any, training: Any = None) -> Any:
            return self.body(inputs, training=training)

    net = Net()
    net.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
    history = net.fit(np.asarray(x), np.asarray(y), batch_size=4, epochs=5, verbose=0)
    assert history.history["loss"][-1] < 0.9 * history.history["loss"][0]
    assert net.predict(np.asarray(x), batch_size=4, verbose=0).shape == (4, 3)


def _exported_outputs(backend: str, native: Any, x: Any, x5: Any, tmp_path: Path) -> list[Any]:
    """Outputs of ``native`` (an MLP in inference mode) through the target's own compilers and
    exporters, on ``x`` (the example's shape) and, where the path takes another shape, ``x5``."""
    if backend == "torch":
        import torch

        traced = torch.jit.trace(native, (x,))
        exported = torch.export.export(native, (x,)).module()
        return [traced(x), exported(x)]
    if backend == "jax":
        import jax

        jitted = jax.jit(native.apply)
        served = jax.export.export(jitted)(native.params, x)
        return [jitted(native.params, x), served.call(native.params, x), jitted(native.params, x5)]
    if backend == "tensorflow":
        import tensorflow as tf

        root = tf.Module()
        root.layer = native
        root.serve = tf.function(lambda a: native(a, training=False), input_signature=[tf.TensorSpec(x.shape, x.dtype)])
        tf.saved_model.save(root, str(tmp_path / "saved"))
        loaded = tf.saved_model.load(str(tmp_path / "saved"))  # (kept: its variables die with it)
        return [loaded.serve(x), tf.function(native, jit_compile=True)(x)]
    if backend == "paddle":
        import paddle

        static = paddle.jit.to_static(native)  # SOT, paddle's default
        with pytest.raises(ivy.errors.TranspileError, match=r"paddle\.save\(layer\.state_dict\(\)"):
            paddle.jit.save(native, str(tmp_path / "m"), input_spec=[paddle.static.InputSpec(x.shape, "float32")])
        return [static(x), static(x5), static(x)]  # (x5: read again while SOT runs the call)
    raise AssertionError(backend)


def test_the_targets_own_compilers_and_exporters_take_the_native_module(autodiff: str, tmp_path: Path) -> None:
    model, x, _ = _build(autodiff, "mlp")
    x5 = ivy.asarray(_rand(5, 6, seed=4), backend=autodiff)
    native = ivy.transpile(model, to=autodiff, args=(x,))
    if autodiff in ("torch", "paddle"):
        native.eval()  # (read in training mode: a trace in inference mode reads the source again)
    outs = _exported_outputs(autodiff, native, x, x5, tmp_path)
    with ivy.use_backend(autodiff):
        model.eval()
        expected = {5: model(x5), 4: model(x)}
    for out in outs:
        _close(out, expected[int(out.shape[0])])


def test_to_ivy_gives_an_ivy_module_with_the_weights(autodiff: str) -> None:
    model, x, _ = _build(autodiff, "mlp")
    m = ivy.transpile(model, to="ivy", args=(x,))
    assert isinstance(m, ivy.Module)
    with ivy.use_backend(autodiff):
        _close(m(x), model(x))


def test_a_module_without_inputs_is_transpiled_on_its_first_call(autodiff: str) -> None:
    model, x, _ = _build(autodiff, "mlp")
    lazy = ivy.transpile(model, to=autodiff)
    assert isinstance(lazy, ivy.transpile.LazyModule) and lazy.native is None
    model.train(True)
    out = lazy(x)
    with ivy.use_backend(autodiff):
        _close(out, model(x))
    assert lazy.native is not None


def test_the_native_module_is_the_targets_own_kind(autodiff: str) -> None:
    model, x, _ = _build(autodiff, "mlp")
    native = ivy.transpile(model, to=autodiff, args=(x,))
    if autodiff == "torch":
        import torch

        assert isinstance(native, torch.nn.Module)
        assert all(isinstance(p, torch.nn.Parameter) and p.requires_grad for p in native.parameters())
    elif autodiff == "tensorflow":
        import keras

        assert isinstance(native, keras.layers.Layer)
        assert all(isinstance(v, keras.Variable) for v in native.trainable_variables)
        assert len(native.trainable_variables) == 4
    elif autodiff == "paddle":
        import paddle

        assert isinstance(native, paddle.nn.Layer)
        assert all(not p.stop_gradient for p in native.parameters()) and len(native.parameters()) == 4
    else:
        import jax

        leaves = jax.tree_util.tree_leaves(native.params)
        assert len(leaves) == 4 and all(isinstance(a, jax.Array) for a in leaves)
        assert callable(native.apply) and isinstance(native.params, dict)


# --------------------------------------------------------------------------- a library


def test_a_library_is_transpiled_lazily(backend: str, to_native: Any) -> None:
    import _transpile_pkg as pkg

    lib = ivy.transpile(pkg, to=backend, cache=False)
    x = _rand(3, 5, seed=5)
    xn = to_native(x)
    _close(lib.normalize(xn), x / (np.linalg.norm(x, axis=-1, keepdims=True) + 1e-6))
    padded = np.concatenate([x[:, :1], x, x[:, -1:]], axis=-1)
    _close(lib.box3(xn), (padded[:, :-2] + padded[:, 1:-1] + padded[:, 2:]) / 3)
    image = _rand(2, 3, 4, 4, seed=6)
    gray = 0.299 * image[:, 0:1] + 0.587 * image[:, 1:2] + 0.114 * image[:, 2:3]
    _close(lib.color.rgb_to_gray(to_native(image)), gray)
    assert ivy.namespace(lib.box3(xn)) is ivy.backend_namespace(backend)
    # one program per signature; what is not the library's passes through
    lib.box3(to_native(_rand(3, 5, seed=8)))
    lib.box3(to_native(_rand(4, 5, seed=8)))
    assert len(lib.box3.programs) == 2
    assert lib.hypot is pkg.hypot and lib.math is pkg.math and lib.GAIN == 2.5


def test_library_classes_build_lazily_transpiled_modules(autodiff: str) -> None:
    import _transpile_pkg as pkg

    lib = ivy.transpile(pkg, to=autodiff)
    with ivy.use_backend(autodiff):
        affine = lib.Affine(5)
    x = ivy.asarray(_rand(3, 5, seed=9), backend=autodiff)
    out = affine(x)
    assert affine.native is not None
    v = affine._source.obj.v  # the source module's weights: ivy.Linear's weight is [out, in]
    w, b = (np.asarray(ivy.to_numpy(a)) for a in (v.fc.w, v.fc.b))
    _close(out, np.tanh(np.asarray(ivy.to_numpy(x)) @ w.T + b))


# --------------------------------------------------------------------------- the disk cache


_CACHED = textwrap.dedent(
    """
    import logging, sys, time
    import numpy as np
    import ivy
    sys.path.insert(0, {tests!r})
    logging.basicConfig(level=logging.DEBUG, format="%(message)s", stream=sys.stdout)
    logging.getLogger("ivy.transpile").setLevel(logging.DEBUG)
    ivy.seed(0)
    with ivy.use_backend({backend!r}):
        model = ivy.Sequential(ivy.Linear(6, 16), ivy.GELU(), ivy.Linear(16, 3))
        x = ivy.asarray(np.ones((4, 6), "float32"))
        model(x)
    start = time.perf_counter()
    native = ivy.transpile(model, to={backend!r}, args=(x,))
    print("SECONDS", time.perf_counter() - start)
    out = native(x) if {backend!r} != "jax" else native.apply(native.params, x)
    with ivy.use_backend({backend!r}):
        print("MAXDIFF", float(np.max(np.abs(ivy.to_numpy(out) - ivy.to_numpy(model(x))))))
    """
)


def test_a_second_process_loads_the_graph_from_the_disk_cache(autodiff: str, tmp_path: Path) -> None:
    code = _CACHED.format(tests=str(HERE), backend=autodiff)
    env = {**os.environ, "IVY_CACHE_DIR": str(tmp_path / "shared-cache")}
    runs = [
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
        for _ in range(2)
    ]
    for r in runs:
        assert r.returncode == 0, r.stderr[-3000:]
        assert float(r.stdout.split("MAXDIFF")[1].split()[0]) < 1e-5
    assert "transpile cache hit" not in runs[0].stdout
    assert "transpile cache hit" in runs[1].stdout


def test_a_library_function_first_called_inside_the_targets_compiler(backend: str) -> None:
    if backend not in ("jax", "tensorflow"):
        pytest.skip("jax.jit and tf.function trace the first call with abstract values")
    import _transpile_pkg as pkg

    lib = ivy.transpile(pkg, to=backend, cache=False)
    x = _rand(3, 5, seed=11)
    if backend == "jax":
        import jax

        out = jax.jit(lambda a: lib.box3(a) * 2.0)(jax.numpy.asarray(x))
    else:
        import tensorflow as tf

        compiled = tf.function(lambda a: lib.box3(a) * 2.0)
        out = compiled(tf.constant(x))
        out = compiled(tf.constant(x + 1.0))  # the same program again, from the trace's graph
        x = x + 1.0
    padded = np.concatenate([x[:, :1], x, x[:, -1:]], axis=-1)
    _close(out, 2.0 * (padded[:, :-2] + padded[:, 1:-1] + padded[:, 2:]) / 3)


# --------------------------------------------------------------------------- the command line


def test_the_command_line_writes_the_targets_program(
    backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "cli_attention.py").write_text(
        "import ivy\n\n\ndef attention(q, k, v):\n"
        "    return ivy.matmul(ivy.softmax(ivy.matmul(q, ivy.permute_dims(k, (0, 2, 1))) / 2.0, axis=-1), v)\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    from ivy._cli import main

    spec = "float32[2,5,4]"
    status = main(
        [
            "transpile",
            "cli_attention:attention",
            "--to",
            backend,
            *(["--input", spec] * 3),
            "-q",
            "-o",
            str(tmp_path / "prog.py"),
        ]
    )
    err = capsys.readouterr().err
    assert status == 0, err
    text = (tmp_path / "prog.py").read_text()
    assert "def forward(q, k, v):" in text and (f"import {backend}" in text or f"import ivy_{backend}" in text)
    ns: dict[str, Any] = {}
    exec(text, ns)
    q, k, v = (_rand(2, 5, 4, seed=s) for s in range(3))
    with ivy.use_backend(backend):
        native = [ivy.asarray(a) for a in (q, k, v)]
        _close(ns["forward"](*native), attention(*native))
