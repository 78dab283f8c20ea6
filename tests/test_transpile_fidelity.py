"""A transpiled model is the source's model on each TARGET (the ``--backend`` of the run): weights
the source ties are one parameter there, with one gradient (the sum over its uses), weights it
freezes do not train, outputs keep the record class the source returns (a Hugging Face
``ModelOutput``), the disk cache keeps all of that, and a module first used under the target's
compiler (``jax.jit``, ``tf.function``) runs eagerly and under another trace afterwards.

The reference is the source framework itself: its parameter counts and names (torch's
``named_parameters()``, which lists a tied parameter once), its gradients, and its own optimizer's
step (``torch.optim.SGD``, optax, Keras, paddle) against the target's on the same loss.

* torch source (targets jax, tensorflow, paddle): Hugging Face models built from tiny configs
  (random weights, nothing downloaded): GPT-2 (``lm_head`` tied to ``wte``), T5 (one embedding
  under four names), Whisper and RoFormer (``embed_positions`` with ``requires_grad=False``).
* other sources (target torch): a Flax linen model reading its embedding back (``Embed.attend``)
  with a variable collection besides ``params``, a paddle Layer whose two embeddings share one
  parameter and whose bias has ``stop_gradient=True``, and a Keras model calling one layer twice
  after a frozen one (``trainable=False``).

    python -m pytest tests/test_transpile_fidelity.py --backend jax -q
"""

from __future__ import annotations

import copy
import logging
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from _helpers.transpiling import close, file_cache, rand, scaled_close, target_among

import ivy

torch = pytest.importorskip("torch")

_cache = file_cache()
module_target = target_among(("jax", "tensorflow", "paddle"), "a torch model is transpiled to the other frameworks")
torch_target = target_among(("torch",), "the other frameworks' models are transpiled to torch")


# ------------------------------------------------------------------------------ the torch models


def _ids(*shape: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).integers(1, 64, shape).astype("int64")


def _gpt2() -> tuple[Any, tuple[np.ndarray, ...], dict[str, np.ndarray]]:
    from transformers import GPT2Config, GPT2LMHeadModel

    config = GPT2Config(vocab_size=64, n_positions=16, n_embd=16, n_layer=1, n_head=2, use_cache=False)
    config.bos_token_id = config.eos_token_id = 0
    return GPT2LMHeadModel(config), (_ids(2, 6),), {}


def _t5() -> tuple[Any, tuple[np.ndarray, ...], dict[str, np.ndarray]]:
    from transformers import T5Config, T5ForConditionalGeneration

    config = T5Config(
        vocab_size=64, d_model=16, d_kv=4, d_ff=32, num_layers=1, num_heads=2, use_cache=False, decoder_start_token_id=0
    )
    return T5ForConditionalGeneration(config), (_ids(2, 6),), {"decoder_input_ids": _ids(2, 4, seed=1)}


def _whisper() -> tuple[Any, tuple[np.ndarray, ...], dict[str, np.ndarray]]:
    from transformers import WhisperConfig, WhisperModel

    config = WhisperConfig(
        vocab_size=64,
        d_model=16,
        encoder_layers=1,
        decoder_layers=1,
        encoder_attention_heads=2,
        decoder_attention_heads=2,
        encoder_ffn_dim=32,
        decoder_ffn_dim=32,
        num_mel_bins=8,
        max_source_positions=4,
        max_target_positions=8,
        use_cache=False,
        pad_token_id=0,
        bos_token_id=0,
        eos_token_id=0,
        decoder_start_token_id=0,
    )
    return WhisperModel(config), (rand(2, 8, 8),), {"decoder_input_ids": _ids(2, 4, seed=1)}


def _roformer() -> tuple[Any, tuple[np.ndarray, ...], dict[str, np.ndarray]]:
    from transformers import RoFormerConfig, RoFormerModel

    config = RoFormerConfig(
        vocab_size=64,
        embedding_size=16,
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=16,
    )
    return RoFormerModel(config), (_ids(2, 6),), {}


MODELS: dict[str, Callable[[], tuple[Any, tuple[np.ndarray, ...], dict[str, np.ndarray]]]] = {
    "gpt2": _gpt2,
    "t5": _t5,
    "whisper": _whisper,
    "roformer": _roformer,
}


class Case:
    """A torch model in eval mode, its example inputs, torch's outputs and a loss's fixed targets."""

    def __init__(self, which: str):
        torch.manual_seed(0)
        model, self.args, self.kwargs = MODELS[which]()
        self.model = model.eval()
        with torch.no_grad():
            out = self.model(*self.torch_args(), **self.torch_kwargs())
        self.out = out
        self.targets = {k: rand(*v.shape, seed=3 + i) for i, (k, v) in enumerate(out.items())}
        self.natives: dict[str, Any] = {}

    def torch_args(self) -> tuple[Any, ...]:
        return tuple(torch.from_numpy(a) for a in self.args)

    def torch_kwargs(self) -> dict[str, Any]:
        return {k: torch.from_numpy(v) for k, v in self.kwargs.items()}

    def native(self, target: str) -> Any:
        if target not in self.natives:
            self.natives[target] = ivy.transpile(
                self.model, to=target, args=self.torch_args(), kwargs=self.torch_kwargs()
            )
        return self.natives[target]


@pytest.fixture(scope="module")
def zoo() -> dict[str, Case]:
    return {}


def _case(zoo: dict[str, Case], which: str) -> Case:
    if which not in zoo:
        zoo[which] = Case(which)
    return zoo[which]


# ------------------------------------------------------------------------------ the target's view


def _flat(tree: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(tree, dict):
        out: dict[str, Any] = {}
        for k, v in tree.items():
            out.update(_flat(v, f"{prefix}/{k}" if prefix else str(k)))
        return out
    return {prefix: tree}


def _weights(target: str, native: Any) -> tuple[dict[str, tuple[int, ...]], dict[str, tuple[int, ...]]]:
    """The target module's trainable weights and the others, by key chain -> shape."""
    if target == "jax":
        return (
            {k: tuple(v.shape) for k, v in _flat(native.params).items()},
            {k: tuple(v.shape) for k, v in _flat(native.state).items()},
        )
    if target == "tensorflow":
        return (
            {native.key_chain(v): tuple(v.shape) for v in native.trainable_weights},
            {native.key_chain(v): tuple(v.shape) for v in native.non_trainable_weights},
        )
    if target == "paddle":
        named = list(native.named_parameters())
        return (
            {native.key_chain(n): tuple(p.shape) for n, p in named if not p.stop_gradient},
            {native.key_chain(n): tuple(p.shape) for n, p in named if p.stop_gradient},
        )
    named = list(native.named_parameters())
    return (
        {native.key_chain(n): tuple(p.shape) for n, p in named if p.requires_grad},
        {native.key_chain(n): tuple(p.shape) for n, p in named if not p.requires_grad},
    )


def _native_inputs(case: Case, to_native: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return tuple(to_native(a) for a in case.args), {k: to_native(v) for k, v in case.kwargs.items()}


def _outputs(target: str, native: Any, params: Any, args: Any, kwargs: Any) -> Any:
    """The module's outputs (JAX: with ``params``; a module with state returns it second)."""
    if target == "jax":
        res = native.apply(params, *args, **kwargs)
        return res[0] if native.state else res
    return native(*args, **kwargs)


def _loss(out: Any, targets: dict[str, Any]) -> Any:
    return sum(ivy.mean(ivy.square(ivy.subtract(out[k], t))) for k, t in targets.items())


def _torch_loss(case: Case, model: Any) -> Any:
    out = model(*case.torch_args(), **case.torch_kwargs())
    return sum(((out[k] - torch.from_numpy(t)) ** 2).mean() for k, t in case.targets.items())


def _grads(target: str, native: Any, case: Case, to_native: Any) -> dict[str, Any]:
    """The loss's gradient w.r.t. each trainable weight, by the target's autodiff."""
    args, kwargs = _native_inputs(case, to_native)
    targets = {k: to_native(t) for k, t in case.targets.items()}
    if target == "jax":
        import jax

        return _flat(jax.grad(lambda p: _loss(_outputs("jax", native, p, args, kwargs), targets))(native.params))
    if target == "tensorflow":
        import tensorflow as tf

        with tf.GradientTape() as tape:
            loss = _loss(native(*args, **kwargs), targets)
        grads = tape.gradient(loss, native.trainable_variables)
        return {native.key_chain(v): tf.convert_to_tensor(g) for v, g in zip(native.trainable_variables, grads)}
    import paddle

    named = [(n, p) for n, p in native.named_parameters() if not p.stop_gradient]
    grads = paddle.grad(_loss(native(*args, **kwargs), targets), [p for _, p in named], allow_unused=True)
    return {native.key_chain(n): g for (n, _), g in zip(named, grads)}


def _sgd_step(target: str, native: Any, case: Case, lr: float, to_native: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The outputs and every weight by key chain after one step of the target's own SGD on the
    loss (the module is left as it was)."""
    args, kwargs = _native_inputs(case, to_native)
    targets = {k: to_native(t) for k, t in case.targets.items()}
    if target == "jax":
        import jax
        import optax

        opt = optax.sgd(lr)
        grads = jax.grad(lambda p: _loss(_outputs("jax", native, p, args, kwargs), targets))(native.params)
        updates, _ = opt.update(grads, opt.init(native.params), native.params)
        params = optax.apply_updates(native.params, updates)
        return dict(_outputs("jax", native, params, args, kwargs)), {**_flat(params), **_flat(native.state)}
    if target == "tensorflow":
        import keras
        import tensorflow as tf

        saved = [v.numpy() for v in native.variables]
        try:
            with tf.GradientTape() as tape:
                loss = _loss(native(*args, **kwargs), targets)
            grads = tape.gradient(loss, native.trainable_variables)
            keras.optimizers.SGD(lr).apply_gradients(zip(grads, native.trainable_variables))
            weights = {native.key_chain(v): v.numpy() for v in native.variables}
            return {k: v.numpy() for k, v in native(*args, **kwargs).items()}, weights
        finally:
            for v, s in zip(native.variables, saved):
                v.assign(s)
    import paddle

    saved = {n: p.numpy() for n, p in native.named_parameters()}
    try:
        opt = paddle.optimizer.SGD(learning_rate=lr, parameters=native.parameters())
        _loss(native(*args, **kwargs), targets).backward()
        opt.step()
        opt.clear_grad()
        weights = {native.key_chain(n): p.numpy() for n, p in native.named_parameters()}
        return {k: v.numpy() for k, v in native(*args, **kwargs).items()}, weights
    finally:
        for n, p in native.named_parameters():
            p.set_value(saved[n])


# ------------------------------------------------------------------------------ torch source


@pytest.mark.parametrize("which", list(MODELS))
def test_each_source_parameter_is_one_parameter_of_the_target(module_target: str, which: str, zoo: Any) -> None:
    """Same trainable and frozen weights by name and shape (a tied one once), so the same counts."""
    case = _case(zoo, which)
    named = list(case.model.named_parameters())  # (a tied parameter once, under its first name)
    trainable, others = _weights(module_target, case.native(module_target))
    want = {n.replace(".", "/"): tuple(p.shape) for n, p in named if p.requires_grad}
    frozen = {n.replace(".", "/"): tuple(p.shape) for n, p in named if not p.requires_grad}
    assert trainable == want
    assert {k: others[k] for k in frozen if k in others} == frozen
    buffers = {n.replace(".", "/") for n, _ in case.model.named_buffers()}
    assert set(others) - set(frozen) <= buffers
    count = sum(int(np.prod(s)) for s in trainable.values())
    assert count == sum(p.numel() for _, p in named if p.requires_grad)
    if which in ("gpt2", "t5"):
        assert len(named) < len(list(case.model.named_parameters(remove_duplicate=False)))
    else:
        assert frozen, "the model has a frozen weight"


@pytest.mark.parametrize("which", ["gpt2", "t5"])
def test_paddle_holds_a_tied_parameter_under_each_of_its_names(which: str, zoo: Any, backend: str) -> None:
    """As Hugging Face ties them in torch: one parameter object, listed once, in state_dict twice."""
    if backend != "paddle":
        pytest.skip("paddle's Layers hold parameters by name, as torch's")
    case = _case(zoo, which)
    native = case.native("paddle")
    state = native.state_dict()
    names = [n for n, _ in case.model.named_parameters(remove_duplicate=False)]
    assert set(names) <= set(state)
    ties = {
        n: m
        for n, p in case.model.named_parameters(remove_duplicate=False)
        for m, q in case.model.named_parameters()
        if p is q and n != m
    }
    assert ties
    by_name = dict(native.named_parameters())
    for alias, first in ties.items():
        assert native.key_chain(alias) == first.replace(".", "/")
        assert state[alias] is by_name[first]


@pytest.mark.parametrize("which", ["gpt2", "t5"])
def test_a_tied_weight_gets_the_sum_of_its_gradients_as_in_torch(
    module_target: str, which: str, zoo: Any, to_native: Any
) -> None:
    case = _case(zoo, which)
    named = dict(case.model.named_parameters())
    torch_grads = torch.autograd.grad(_torch_loss(case, case.model), list(named.values()), allow_unused=True)
    grads = _grads(module_target, case.native(module_target), case, to_native)
    assert set(grads) == {n.replace(".", "/") for n in named}
    for (n, p), g in zip(named.items(), torch_grads):
        got = grads[n.replace(".", "/")]
        want = np.zeros(tuple(p.shape), np.float32) if g is None else g.numpy()
        if got is None:  # (paddle: a weight the loss does not reach)
            assert not want.any(), n
            continue
        scaled_close(got, want)


@pytest.mark.parametrize("which", ["gpt2", "whisper"])
def test_one_optimizer_step_trains_the_model_as_torch_does(
    module_target: str, which: str, zoo: Any, to_native: Any
) -> None:
    """After one SGD step the weights and outputs are torch's: GPT-2's tied weight moved once, by
    the summed gradient, Whisper's frozen one stayed put."""
    case, lr = _case(zoo, which), 0.5
    model = copy.deepcopy(case.model)  # (which keeps the tie)
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    _torch_loss(case, model).backward()
    opt.step()
    with torch.no_grad():
        want = {k: v.numpy() for k, v in model(*case.torch_args(), **case.torch_kwargs()).items()}
    got, weights = _sgd_step(module_target, case.native(module_target), case, lr, to_native)
    named = {n.replace(".", "/"): p.detach().numpy() for n, p in model.named_parameters()}
    assert set(weights) - set(named) <= {n.replace(".", "/") for n, _ in model.named_buffers()}
    for k, w in named.items():
        close(weights[k], w, rtol=1e-3, atol=1e-4)
    assert set(got) == set(want)
    for k, v in want.items():
        assert not np.allclose(v, case.out[k].numpy(), atol=1e-3), "the step must change the outputs"
        close(got[k], v, rtol=1e-3, atol=1e-4)


@pytest.mark.parametrize("which", ["gpt2", "whisper"])
def test_outputs_keep_the_sources_record_class(module_target: str, which: str, zoo: Any, to_native: Any) -> None:
    case = _case(zoo, which)
    native = case.native(module_target)
    args, kwargs = _native_inputs(case, to_native)
    out = _outputs(module_target, native, getattr(native, "params", None), args, kwargs)
    assert isinstance(out, ivy.transpile.Record)
    assert out.type_name == type(case.out).__name__
    assert list(out) == list(case.out.keys())
    for i, (k, v) in enumerate(case.out.items()):
        close(getattr(out, k), v.numpy())
        assert out[k] is getattr(out, k) and out[i] is getattr(out, k)
    unset = "attentions" if which == "gpt2" else "decoder_attentions"
    assert getattr(case.out, unset) is None and getattr(out, unset) is None
    with pytest.raises(AttributeError):
        out.no_such_field  # noqa: B018


class _NestedOutputs(torch.nn.Module):
    """A ``ModelOutput`` inside a dict, holding a tuple."""

    def __init__(self) -> None:
        super().__init__()
        self.linear = torch.nn.Linear(3, 3)

    def forward(self, x: Any) -> Any:
        from transformers.modeling_outputs import BaseModelOutput

        h = self.linear(x)
        return {"main": BaseModelOutput(last_hidden_state=h, hidden_states=(x, h)), "total": h.sum()}


def test_a_record_inside_other_outputs_comes_back_in_place(module_target: str, to_native: Any) -> None:
    torch.manual_seed(0)
    model, x = _NestedOutputs().eval(), rand(2, 3)
    with torch.no_grad():
        want = model(torch.from_numpy(x))
    native = ivy.transpile(model, to=module_target, args=(torch.from_numpy(x),), cache=False)
    if module_target == "jax":
        import jax

        out = jax.jit(native.apply)(native.params, to_native(x))
        out = jax.tree_util.tree_map(lambda a: a, out)  # (a pytree node: the structure survives)
    else:
        out = native(to_native(x))
    assert type(out) is dict and set(out) == {"main", "total"}
    main = out["main"]
    assert isinstance(main, ivy.transpile.Record) and main.type_name == "BaseModelOutput"
    assert list(main) == ["last_hidden_state", "hidden_states"] and main.attentions is None
    close(main.hidden_states[1], want["main"].hidden_states[1].numpy())
    close(main[0], want["main"].last_hidden_state.numpy())
    close(out["total"], want["total"].numpy())
    again = copy.copy(main)
    assert isinstance(again, ivy.transpile.Record) and again.type_name == main.type_name and list(again) == list(main)


def test_the_disk_cache_keeps_ties_frozen_weights_and_records(
    module_target: str, zoo: Any, to_native: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """A second transpile of the same models comes from the cache, with the same weights."""
    for which in ("gpt2", "whisper"):
        case = _case(zoo, which)
        first = _weights(module_target, case.native(module_target))
        with caplog.at_level(logging.DEBUG, logger="ivy.transpile"):
            again = ivy.transpile(case.model, to=module_target, args=case.torch_args(), kwargs=case.torch_kwargs())
        assert any("cache hit" in r.getMessage() for r in caplog.records), which
        caplog.clear()
        assert _weights(module_target, again) == first
        args, kwargs = _native_inputs(case, to_native)
        out = _outputs(module_target, again, getattr(again, "params", None), args, kwargs)
        assert isinstance(out, ivy.transpile.Record) and list(out) == list(case.out.keys())


class _EmbedLinear(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.embed = torch.nn.Embedding(10, 4, padding_idx=0)
        self.linear = torch.nn.Linear(4, 3)

    def forward(self, x: Any) -> Any:
        return self.linear(self.embed(x))


def test_a_module_first_used_under_the_compiler_runs_eagerly_after(backend: str, to_native: Any) -> None:
    """No value of the first trace stays in the module: another trace and an eager call work."""
    if backend not in ("jax", "tensorflow"):
        pytest.skip(f"{backend}'s transpiled modules run eagerly unless the user compiles them")
    torch.manual_seed(0)
    model = _EmbedLinear().eval()
    ids = np.array([[1, 2, 0, 5]], np.int64)
    with torch.no_grad():
        want = model(torch.from_numpy(ids)).numpy()
    native = ivy.transpile(model, to=backend, args=(torch.from_numpy(ids),), cache=False)
    x = to_native(ids)
    if backend == "jax":
        import jax

        close(jax.jit(native.apply)(native.params, x), want)
        close(jax.jit(lambda p, x: native.apply(p, x) * 2.0)(native.params, x), 2 * want)
        # the same for the module's ivy.Graph, whose program is made on its first call
        graph = ivy.transpile(model, to="ivy", args=(torch.from_numpy(ids),), cache=False).graph
        params = graph.param_arrays("jax")
        close(jax.jit(lambda p, x: graph(p, x))(params, x), want)
        close(graph(params, x), want)
    else:
        import tensorflow as tf

        close(tf.function(lambda x: native(x))(x), want)
        close(tf.function(lambda x: native(x) * 2.0)(x), 2 * want)
    close(native(x), want)


# ------------------------------------------------------------------------------ other sources, to torch


def _torch_sgd_outputs(native: Any, loss: Callable[[Any], Any], lr: float, *args: Any) -> np.ndarray:
    """The torch module's outputs after one ``torch.optim.SGD`` step on ``loss`` (weights restored)."""
    saved = {k: v.detach().clone() for k, v in native.state_dict().items()}
    try:
        opt = torch.optim.SGD([p for p in native.parameters() if p.requires_grad], lr=lr)
        loss(native(*args)).backward()
        opt.step()
        with torch.no_grad():
            return native(*args).numpy()
    finally:
        native.load_state_dict(saved)


def _count(named: list[tuple[str, Any]], trainable: bool | None = None) -> int:
    return sum(p.numel() for _, p in named if trainable is None or p.requires_grad == trainable)


def test_a_flax_embedding_read_back_is_one_parameter_on_torch(torch_target: str) -> None:
    """``Embed.attend`` uses the embedding twice: one parameter, trained by the sum of both uses;
    a collection besides ``params`` becomes buffers."""
    pytest.importorskip("flax")
    import flax.linen as nn
    import jax
    import jax.numpy as jnp
    import optax

    class TiedLM(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            embed = nn.Embed(12, 6)
            offset = self.variable("consts", "offset", lambda: jnp.linspace(-0.5, 0.5, 6))
            return embed.attend(jnp.tanh(nn.Dense(6)(embed(x)) + offset.value))

    ids = (_ids(2, 5) % 12).astype("int32")  # (JAX's integers, without x64)
    model = TiedLM()
    variables = model.init(jax.random.PRNGKey(0), jnp.asarray(ids))
    native = ivy.transpile(model, to="torch", args=(jnp.asarray(ids),), params_v=variables)
    named = list(native.named_parameters())
    assert _count(named) == sum(x.size for x in jax.tree_util.tree_leaves(variables["params"]))
    assert dict(native.named_buffers()).keys() == {"consts.offset"}
    lr, target = 0.3, rand(2, 5, 12, seed=2)

    def flax_loss(params: Any) -> Any:
        return jnp.mean((model.apply({**variables, "params": params}, jnp.asarray(ids)) - target) ** 2)

    opt = optax.sgd(lr)
    params = variables["params"]
    updates, _ = opt.update(jax.grad(flax_loss)(params), opt.init(params), params)
    want = model.apply({**variables, "params": optax.apply_updates(params, updates)}, jnp.asarray(ids))
    got = _torch_sgd_outputs(native, lambda o: ((o - torch.from_numpy(target)) ** 2).mean(), lr, torch.from_numpy(ids))
    close(got, np.asarray(want), rtol=1e-4, atol=1e-5)


def _paddle() -> Any:
    if "tensorflow" in sys.modules and "paddle" not in sys.modules:
        pytest.skip("paddle is never imported after TensorFlow in one process (it crashes there)")
    return pytest.importorskip("paddle")


def test_a_paddle_shared_parameter_and_a_frozen_one_on_torch(torch_target: str) -> None:
    paddle = _paddle()

    class SharedEmbeddings(paddle.nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.words = paddle.nn.Embedding(12, 6)
            self.again = paddle.nn.Embedding(12, 6)
            self.again.weight = self.words.weight
            self.proj = paddle.nn.Linear(6, 6)
            self.proj.bias.stop_gradient = True

        def forward(self, x: Any) -> Any:
            return paddle.tanh(self.proj(self.words(x))) + self.again(x)

    paddle.seed(0)
    layer = SharedEmbeddings()
    layer.proj.bias.set_value(paddle.full([6], 0.3))
    ids = _ids(2, 5) % 12
    native = ivy.transpile(layer, to="torch", args=(paddle.to_tensor(ids),))
    named = list(native.named_parameters())
    assert _count(named) == sum(int(np.prod(p.shape)) for p in layer.parameters())
    assert _count(named, trainable=False) == 6 and not native.get_parameter("proj.bias").requires_grad
    assert native.get_parameter("again.weight") is native.get_parameter("words.weight")
    assert {"words.weight", "again.weight"} <= set(native.state_dict())
    lr, target = 0.3, rand(2, 5, 6, seed=2)
    opt = paddle.optimizer.SGD(learning_rate=lr, parameters=layer.parameters())
    ((layer(paddle.to_tensor(ids)) - paddle.to_tensor(target)) ** 2).mean().backward()
    opt.step()
    want = layer(paddle.to_tensor(ids)).numpy()
    got = _torch_sgd_outputs(native, lambda o: ((o - torch.from_numpy(target)) ** 2).mean(), lr, torch.from_numpy(ids))
    close(got, want, rtol=1e-4, atol=1e-5)


def test_a_keras_shared_layer_and_a_frozen_one_on_torch(torch_target: str) -> None:
    keras = pytest.importorskip("keras")
    import tensorflow as tf

    keras.utils.set_random_seed(0)
    inp = keras.Input((5,), batch_size=2)
    frozen = keras.layers.Dense(5, name="frozen")
    frozen.trainable = False
    shared = keras.layers.Dense(5, activation="tanh", name="shared")
    model = keras.Model(inp, shared(shared(frozen(inp))))
    x = rand(2, 5)
    native = ivy.transpile(model, to="torch", args=(x,))
    named = list(native.named_parameters())
    assert _count(named, trainable=True) == sum(int(np.prod(v.shape)) for v in model.trainable_weights) == 30
    assert _count(named, trainable=False) == sum(int(np.prod(v.shape)) for v in model.non_trainable_weights) == 30
    lr, target = 0.3, rand(2, 5, seed=2)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x) - target) ** 2)
    keras.optimizers.SGD(lr).apply_gradients(zip(tape.gradient(loss, model.trainable_weights), model.trainable_weights))
    want = np.asarray(model(x))
    got = _torch_sgd_outputs(native, lambda o: ((o - torch.from_numpy(target)) ** 2).mean(), lr, torch.from_numpy(x))
    close(got, want, rtol=1e-4, atol=1e-5)
