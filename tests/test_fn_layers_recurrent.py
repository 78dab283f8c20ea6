"""Embeddings (token, learned / sinusoidal / rotary positions) and recurrent layers (SimpleRNN,
GRU, LSTM; stacked, bidirectional, batch- or sequence-first) against each backend's own framework layers (see
test_fn_layers_harness), and NumPy formulas where no framework layer is at hand."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from test_fn_layers_harness import Ref, check_layer

import ivy
from ivy.testing.convert import has_autodiff, native_to_numpy, to_native

RNG = np.random.default_rng(3)
H, IN = 4, 3


def _f32(*shape: int, scale: float = 1.0) -> np.ndarray:
    return (RNG.standard_normal(shape) * scale).astype(np.float32)


# ------------------------------------------------------------------ embeddings


def test_fn_layers_embedding_matches_the_framework_layer(backend):
    w = {"w": _f32(10, 4)}
    refs = {
        "torch": Ref(lambda: __import__("torch").nn.Embedding(10, 4), {"w": ("weight", None)}),
        "paddle": Ref(lambda: __import__("paddle").nn.Embedding(10, 4), {"w": ("weight", None)}),
        "keras": Ref(lambda: __import__("keras").layers.Embedding(10, 4), {"w": ("embeddings", None)}),
        "flax": Ref(
            lambda: __import__("flax.linen", fromlist=["linen"]).Embed(10, 4), {"w": ("params/embedding", None)}
        ),
    }
    check_layer(backend, ivy.Embedding(10, 4), w, RNG.integers(0, 10, (3, 5)), refs)


def _at_positions(pe: np.ndarray, batch_first: bool) -> np.ndarray:
    """``pe`` ``[length, dim]`` shaped to broadcast along the length axis of ``[batch, length,
    dim]`` (``batch_first``) or ``[length, batch, dim]``."""
    return pe[None] if batch_first else pe[:, None]


@pytest.mark.parametrize("batch_first", [True, False], ids=["batch_first", "sequence_first"])
def test_fn_layers_learned_positions_are_added(backend, batch_first):
    layer = ivy.LearnedPositionalEmbedding(8, 4, batch_first=batch_first)
    w = _f32(8, 4)
    layer.v = {"w": to_native(backend, w)}
    x = _f32(2, 5, 4) if batch_first else _f32(5, 2, 4)  # batch 2, length 5
    for offset in (0, 3):  # row offset + p of the table at position p
        got = native_to_numpy(backend, layer(to_native(backend, x), offset=offset))
        np.testing.assert_allclose(got, x + _at_positions(w[offset : offset + 5], batch_first), rtol=1e-6)
    with pytest.raises(ValueError, match="max_length is 8"):
        layer(to_native(backend, x), offset=4)


def _np_sinusoids(n: int, d: int, base: float = 10000.0, offset: int = 0) -> np.ndarray:
    pe = np.zeros((n, d))
    for p in range(n):
        for i in range(0, d, 2):
            angle = (p + offset) / base ** (i / d)
            pe[p, i] = np.sin(angle)
            if i + 1 < d:
                pe[p, i + 1] = np.cos(angle)
    return pe


@pytest.mark.parametrize("batch_first", [True, False], ids=["batch_first", "sequence_first"])
def test_fn_layers_sinusoidal_positions_follow_the_paper(backend, batch_first):
    x = _f32(2, 7, 6) if batch_first else _f32(7, 2, 6)  # batch 2, length 7
    layer = ivy.SinusoidalPositionalEmbedding(6, batch_first=batch_first)
    for offset in (0, 5):
        got = native_to_numpy(backend, layer(to_native(backend, x), offset=offset))
        want = x + _at_positions(_np_sinusoids(7, 6, offset=offset), batch_first)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    assert layer.v == {} and got.dtype == np.float32
    unbatched = _f32(7, 6)  # [length, dim] in either layout
    got = native_to_numpy(backend, layer(to_native(backend, unbatched)))
    np.testing.assert_allclose(got, unbatched + _np_sinusoids(7, 6), rtol=1e-5, atol=1e-5)


def test_fn_layers_position_embeddings_name_the_layout_they_expect(backend):
    for batch_first, layout in ((True, r"\[batch, length, 4\]"), (False, r"\[length, batch, 4\]")):
        for layer in (
            ivy.LearnedPositionalEmbedding(8, 4, batch_first=batch_first),
            ivy.SinusoidalPositionalEmbedding(4, batch_first=batch_first),
        ):
            for shape in ((4,), (2, 5, 3)):  # no length axis; 3 features, not 4
                with pytest.raises(ValueError, match=rf"batch_first={batch_first}\) expects {layout}"):
                    layer(to_native(backend, _f32(*shape)))
    with pytest.raises(ValueError, match=r"seq_axis=1\) expects the positions on axis 1, an axis before"):
        ivy.RotaryEmbedding(8)(to_native(backend, _f32(5, 8)))  # rank 2: axis 1 holds the features


def _np_rotary(x: np.ndarray, base: float, interleaved: bool) -> np.ndarray:
    """RoPE on [batch, length, heads, d], pair by pair, from the definition."""
    out = np.empty_like(x, dtype=np.float64)
    d = x.shape[-1]
    for p in range(x.shape[1]):
        for i in range(d // 2):
            theta = p * base ** (-2 * i / d)
            a, b = (2 * i, 2 * i + 1) if interleaved else (i, i + d // 2)
            c, s = np.cos(theta), np.sin(theta)
            out[:, p, :, a] = x[:, p, :, a] * c - x[:, p, :, b] * s
            out[:, p, :, b] = x[:, p, :, a] * s + x[:, p, :, b] * c
    return out


@pytest.mark.parametrize("seq_axis", [1, 0], ids=["batch_first", "sequence_first"])
@pytest.mark.parametrize("interleaved", [False, True])
def test_fn_layers_rotary_embedding_rotates_pairs(backend, interleaved, seq_axis):
    x = _f32(2, 5, 3, 8)  # [batch, length, heads, dim]
    layer = ivy.RotaryEmbedding(8, interleaved=interleaved, seq_axis=seq_axis)
    swap = (lambda a: a) if seq_axis == 1 else (lambda a: np.swapaxes(a, 0, 1))  # [length, batch, ...]
    got = swap(native_to_numpy(backend, layer(to_native(backend, swap(x)))))
    np.testing.assert_allclose(got, _np_rotary(x, 10000.0, interleaved), rtol=1e-5, atol=1e-5)
    # a rotation: norms of the pairs (so of every vector) are kept; relative positions only matter
    np.testing.assert_allclose(np.linalg.norm(got, axis=-1), np.linalg.norm(x, axis=-1), rtol=1e-5)


def test_fn_layers_rotary_scores_depend_on_relative_position(backend):
    q, k = _f32(1, 1, 1, 8), _f32(1, 1, 1, 8)
    layer = ivy.RotaryEmbedding(8)

    def score(pq: int, pk: int) -> float:
        rq = native_to_numpy(backend, layer(to_native(backend, q), offset=pq))
        rk = native_to_numpy(backend, layer(to_native(backend, k), offset=pk))
        return float((rq * rk).sum())

    assert abs(score(3, 1) - score(7, 5)) < 1e-4 and abs(score(3, 1) - score(3, 2)) > 1e-4


# ------------------------------------------------------------------ recurrent layers


def _zeroed(mod: Any, names: list[str]) -> Any:
    """``mod`` with the named parameters zeroed (the second bias torch and paddle add, which Ivy
    folds into one)."""
    for n in names:
        p = dict(mod.named_parameters())[n]
        if hasattr(p, "set_value"):
            p.set_value(np.zeros(p.shape, np.float32))
        else:
            import torch

            with torch.no_grad():
                p.zero_()
    return mod


def _gru_to_keras() -> tuple[Any, Any]:
    """Ivy's GRU blocks (r, z, n) to Keras' (z, r, n), along the last axis."""

    def perm(a: np.ndarray) -> np.ndarray:
        r, z, n = np.split(a, 3, axis=-1)
        return np.concatenate([z, r, n], axis=-1)

    def back(a: np.ndarray) -> np.ndarray:
        z, r, n = np.split(a, 3, axis=-1)
        return np.concatenate([r, z, n], axis=-1)

    return perm, back


def _single_layer_refs(kind: str) -> dict[str, Ref]:
    t = (1, 0)

    def torch_rnn() -> Any:
        import torch

        m = getattr(torch.nn, {"SimpleRNN": "RNN", "GRU": "GRU", "LSTM": "LSTM"}[kind])(IN, H, batch_first=True)
        return m if kind == "GRU" else _zeroed(m, ["bias_hh_l0"])

    def paddle_rnn() -> Any:
        import paddle

        m = getattr(paddle.nn, kind)(IN, H)
        return m if kind == "GRU" else _zeroed(m, ["bias_hh_l0"])

    def keras_rnn() -> Any:
        import keras

        return getattr(keras.layers, kind)(H, return_sequences=True, return_state=False)

    tw = {"layer0/w": ("weight_ih_l0", t), "layer0/r": ("weight_hh_l0", t), "layer0/b": ("bias_ih_l0", None)}
    if kind == "GRU":
        tw["layer0/rb"] = ("bias_hh_l0", None)
    refs = {
        "torch": Ref(torch_rnn, dict(tw), out=lambda o: o[:1]),
        "paddle": Ref(paddle_rnn, dict(tw), out=lambda o: o[:1]),
    }
    if kind == "GRU":
        perm, back = _gru_to_keras()
        kw = {
            "layer0/w": ("kernel", (perm, back)),
            "layer0/r": ("recurrent_kernel", (perm, back)),
            ("layer0/b", "layer0/rb"): (
                "bias",
                (lambda ab: np.stack([perm(ab[0]), perm(ab[1])]), lambda g: [back(g[0]), back(g[1])]),
            ),
        }
    else:
        kw = {"layer0/w": ("kernel", None), "layer0/r": ("recurrent_kernel", None), "layer0/b": ("bias", None)}
    refs["keras"] = Ref(keras_rnn, kw)
    if kind == "SimpleRNN":

        def flax_rnn() -> Any:
            import flax.linen as nn

            return nn.RNN(nn.SimpleCell(H))

        refs["flax"] = Ref(
            flax_rnn,
            {
                "layer0/w": ("params/cell/i/kernel", None),
                "layer0/r": ("params/cell/h/kernel", None),
                "layer0/b": ("params/cell/i/bias", None),
            },
        )
    return refs


def _weights(layer: Any) -> dict[str, np.ndarray]:
    return {k: _f32(*tuple(int(d) for d in a.shape), scale=0.5) for k, a in layer.v.to_flat_dict().items()}


@pytest.mark.parametrize("kind", ["SimpleRNN", "GRU", "LSTM"])
def test_fn_layers_recurrent_layer_matches_the_framework_layer(backend, kind):
    layer = getattr(ivy, kind)(IN, H, return_state=False, backend=backend)
    check_layer(backend, layer, _weights(layer), _f32(2, 5, IN), _single_layer_refs(kind))


_TORCH = {"SimpleRNN": "RNN", "GRU": "GRU", "LSTM": "LSTM"}


def _torch_names(kind: str, num_layers: int, bidirectional: bool) -> tuple[dict[str, Any], list[str]]:
    """Ivy key chain -> (torch's (and paddle's) name, transform), and the second biases torch
    adds (zeroed: Ivy folds them into one), of every layer and direction."""
    t = (1, 0)
    names = {}
    zero = []
    for layer in range(num_layers):
        for d in ("", "_reverse") if bidirectional else ("",):
            names[f"layer{layer}{d}/w"] = (f"weight_ih_l{layer}{d}", t)
            names[f"layer{layer}{d}/r"] = (f"weight_hh_l{layer}{d}", t)
            names[f"layer{layer}{d}/b"] = (f"bias_ih_l{layer}{d}", None)
            if kind == "GRU":
                names[f"layer{layer}{d}/rb"] = (f"bias_hh_l{layer}{d}", None)
            else:
                zero.append(f"bias_hh_l{layer}{d}")
    return names, zero


def _stacked_refs(kind: str) -> dict[str, Ref]:
    names, zero = _torch_names(kind, 2, True)

    def torch_rnn() -> Any:
        import torch

        cls = getattr(torch.nn, _TORCH[kind])
        return _zeroed(cls(IN, H, num_layers=2, bidirectional=True, batch_first=True), zero)

    def paddle_rnn() -> Any:
        import paddle

        return _zeroed(getattr(paddle.nn, kind)(IN, H, num_layers=2, direction="bidirect"), zero)

    return {"torch": Ref(torch_rnn, names), "paddle": Ref(paddle_rnn, names)}


@pytest.mark.parametrize("kind", ["SimpleRNN", "GRU", "LSTM"])
def test_fn_layers_stacked_bidirectional_recurrent_layers_match_the_framework_layer(backend, kind):
    # torch.nn (paddle.nn on paddle): the sequence of outputs and the final states of every layer
    # and direction; Keras and Flax stack and reverse with wrappers of other names, torch's is used
    layer = getattr(ivy, kind)(IN, H, num_layers=2, bidirectional=True, backend=backend)
    check_layer(backend, layer, _weights(layer), _f32(2, 5, IN), _stacked_refs(kind))


#: sequence-first cases: (num_layers, bidirectional, return_sequence, with an initial state)
_SEQUENCE_FIRST = [
    (1, False, True, False),  # for LSTM: the whole stack in one ivy.lstm
    (2, True, True, True),
    (2, True, False, False),
]


@pytest.mark.parametrize(
    "case", _SEQUENCE_FIRST, ids=["single", "stacked_bidirectional_state", "stacked_bidirectional_last"]
)
@pytest.mark.parametrize("kind", ["SimpleRNN", "GRU", "LSTM"])
def test_fn_layers_sequence_first_recurrent_layers_match_torch(backend, kind, case):
    # batch_first=False: [time, batch, features] in and out, as torch's default layout, against
    # torch's layer left at that default; the states are [layers * directions, batch, hidden]
    num_layers, bidirectional, return_sequence, with_state = case
    layer = getattr(ivy, kind)(
        IN,
        H,
        num_layers=num_layers,
        bidirectional=bidirectional,
        return_sequence=return_sequence,
        batch_first=False,
        backend=backend,
    )
    names, zero = _torch_names(kind, num_layers, bidirectional)
    states = num_layers * (2 if bidirectional else 1)
    h0, c0 = _f32(states, 2, H, scale=0.5), _f32(states, 2, H, scale=0.5)

    def torch_rnn() -> Any:
        import torch

        rnn = _zeroed(getattr(torch.nn, _TORCH[kind])(IN, H, num_layers=num_layers, bidirectional=bidirectional), zero)
        assert not rnn.batch_first

        class Wrap(torch.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.rnn = rnn

            def forward(self, x: Any) -> Any:
                state = None
                if with_state:
                    state = (torch.tensor(h0), torch.tensor(c0)) if kind == "LSTM" else torch.tensor(h0)
                out, final = self.rnn(x, state)
                if not return_sequence:  # the last layer's final states (forward, backward) joined
                    h_n = final[0] if kind == "LSTM" else final
                    out = torch.cat(list(h_n[-2:]) if bidirectional else [h_n[-1]], dim=-1)
                return out, final

        return Wrap()

    def call(lyr: Any, x: Any, v: Any) -> Any:
        if not with_state:
            return lyr(x, v=v)
        h, c = to_native(backend, h0), to_native(backend, c0)
        return lyr(x, (h, c) if kind == "LSTM" else h, v=v)

    refs = {"torch": Ref(torch_rnn, {k: ("rnn." + n, tf) for k, (n, tf) in names.items()})}
    x = _f32(5, 2, IN)  # [time, batch, features]: 5 steps, a batch of 2
    check_layer(backend, layer, _weights(layer), x, refs, call=call, framework="torch")


@pytest.mark.parametrize("batch_first", [True, False], ids=["batch_first", "sequence_first"])
@pytest.mark.parametrize("kind", ["GRU", "LSTM"])
def test_fn_layers_fused_recurrent_stack_matches_torch(backend, kind, batch_first):
    # unidirectional, no dropout: the whole stack is one ivy.gru / ivy.lstm (torch.gru and
    # torch.lstm on torch); two layers, an initial state and the final state, outputs and gradients
    layer = getattr(ivy, kind)(IN, H, num_layers=2, batch_first=batch_first, backend=backend)
    names, zero = _torch_names(kind, 2, False)
    h0, c0 = _f32(2, 2, H, scale=0.5), _f32(2, 2, H, scale=0.5)

    def torch_rnn() -> Any:
        import torch

        rnn = _zeroed(getattr(torch.nn, kind)(IN, H, num_layers=2, batch_first=batch_first), zero)

        class Wrap(torch.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.rnn = rnn

            def forward(self, x: Any) -> Any:
                return self.rnn(x, (torch.tensor(h0), torch.tensor(c0)) if kind == "LSTM" else torch.tensor(h0))

        return Wrap()

    def call(lyr: Any, x: Any, v: Any) -> Any:
        h, c = to_native(backend, h0), to_native(backend, c0)
        return lyr(x, (h, c) if kind == "LSTM" else h, v=v)

    refs = {"torch": Ref(torch_rnn, {k: ("rnn." + n, tf) for k, (n, tf) in names.items()})}
    x = _f32(2, 5, IN) if batch_first else _f32(5, 2, IN)
    check_layer(backend, layer, _weights(layer), x, refs, call=call, framework="torch")


def test_fn_layers_bidirectional_final_output_joins_both_directions(backend):
    layer = ivy.GRU(IN, H, bidirectional=True, return_sequence=False, return_state=False, backend=backend)
    layer.v = ivy.Container.from_flat_dict({k: to_native(backend, a) for k, a in _weights(layer).items()})
    full = ivy.GRU(IN, H, bidirectional=True, return_state=True, backend=backend)
    full.v = layer.v
    x = to_native(backend, _f32(2, 5, IN))
    last = native_to_numpy(backend, layer(x))
    seq, h_n = full(x)
    seq, h_n = native_to_numpy(backend, seq), native_to_numpy(backend, h_n)
    # forward: its last step; backward: its state after the reversed sequence (output step 0)
    np.testing.assert_allclose(last, np.concatenate([seq[:, -1, :H], seq[:, 0, H:]], axis=-1), rtol=1e-6)
    np.testing.assert_allclose(last, np.concatenate([h_n[0], h_n[1]], axis=-1), rtol=1e-6)
    assert last.shape == (2, 2 * H)


def test_fn_layers_recurrent_initial_state_and_errors(backend):
    layer = ivy.LSTM(IN, H, num_layers=2, backend=backend)
    x = to_native(backend, _f32(2, 5, IN))
    with pytest.raises(ValueError, match=r"initial state must be \(2, 2, 4\)"):
        ivy.GRU(IN, H, num_layers=2, backend=backend)(x, to_native(backend, _f32(1, 2, H)))
    with pytest.raises(ValueError, match=r"the input \[batch, time, 3\] \(batch_first=True"):
        layer(to_native(backend, _f32(2, 5, IN + 1)))
    with pytest.raises(ValueError, match=r"the input \[time, batch, 3\] \(batch_first=False"):
        ivy.LSTM(IN, H, batch_first=False, backend=backend)(to_native(backend, _f32(5, 2)))
    # a torch user's [time, batch, features] input, and state, given to a batch-first layer
    with pytest.raises(ValueError, match="looks sequence-first, pass batch_first=False"):
        layer(
            to_native(backend, _f32(5, 2, IN)), (to_native(backend, _f32(2, 2, H)), to_native(backend, _f32(2, 2, H)))
        )
    with pytest.raises(ValueError, match="looks batch-first, pass batch_first=True"):
        ivy.GRU(IN, H, batch_first=False, backend=backend)(
            to_native(backend, _f32(2, 5, IN)), to_native(backend, _f32(1, 2, H))
        )
    h0, c0 = _f32(2, 2, H), _f32(2, 2, H)
    out, (h, c) = layer(x, (to_native(backend, h0), to_native(backend, c0)))
    assert tuple(out.shape) == (2, 5, H) and tuple(h.shape) == (2, 2, H) and tuple(c.shape) == (2, 2, H)


def test_fn_layers_recurrent_dropout_between_layers_only_in_training(backend):
    layer = ivy.GRU(IN, H, num_layers=2, dropout=0.5, return_state=False, backend=backend)
    x = to_native(backend, _f32(2, 5, IN))
    ivy.seed(0)
    a = native_to_numpy(backend, layer(x))
    b = native_to_numpy(backend, layer(x))
    assert not np.allclose(a, b), "training mode draws new dropout masks"
    layer.eval()
    np.testing.assert_array_equal(native_to_numpy(backend, layer(x)), native_to_numpy(backend, layer(x)))
    if has_autodiff(backend):
        loss, grads = ivy.execute_with_gradients(lambda v: ivy.sum(layer(x, v=v)), layer.v)
        assert all(np.isfinite(native_to_numpy(backend, g)).all() for g in ivy.nest.leaves(grads))


@pytest.mark.parametrize("kind", ["GRU", "LSTM"])
def test_fn_layers_recurrent_training_step_compiles(autodiff, kind):
    # the fused kernels (torch.lstm, torch.gru) differentiated inside a compiled training step:
    # one program, the eager step's losses
    backend = autodiff
    x, y = to_native(backend, _f32(2, 5, IN)), to_native(backend, _f32(2, 1))
    runs = []
    for compiled in (True, False):
        ivy.seed(5)
        rnn, head = getattr(ivy, kind)(IN, H, backend=backend), ivy.Linear(H, 1, backend=backend)
        rnn.build(x)
        opt = ivy.Adam(1e-2)

        def loss(v: Any, rnn: Any = rnn, head: Any = head) -> Any:
            out = rnn(x, v=v["rnn"])
            seq = out[0] if isinstance(out, tuple) else out
            return ivy.mse_loss(y, head(seq[:, -1], v=v["head"]))

        def step(rnn: Any = rnn, head: Any = head, opt: Any = opt) -> Any:
            v = ivy.Container(rnn=rnn.v, head=head.v)
            value, grads = ivy.execute_with_gradients(loss, v)
            new = opt.step(v, grads)
            rnn.v, head.v = new["rnn"], new["head"]
            return value

        # (torch: dynamo's tracing, which is where it failed, without inductor's minutes)
        options = {"options": {"backend": "eager"}} if backend == "torch" else {}
        f = ivy.compile(step, backend=backend, **options) if compiled else step
        runs.append([float(native_to_numpy(backend, f())) for _ in range(3)])
        if compiled:
            assert f._programs() == 1
    np.testing.assert_allclose(runs[0], runs[1], rtol=1e-4, atol=1e-5)
    assert runs[1][2] < runs[1][0]
