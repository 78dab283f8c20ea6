"""Multi-head attention (masks, key/value input, attention weights) and the transformer blocks
(pre- and post-norm encoder and decoder layers, and stacks), batch- or sequence-first, against
each backend's own framework layers (see test_fn_layers_harness); torch.nn where the framework has
no such layer, and for the sequence-first layout (torch's default)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from test_fn_layers_harness import Ref, check_layer

import ivy
from ivy.testing.convert import native_to_numpy, to_native

RNG = np.random.default_rng(4)
E, HEADS, LQ, LK, KDIM = 8, 2, 5, 6, 5
HD = E // HEADS
MEMORY = RNG.standard_normal((2, LK, KDIM)).astype(np.float32)
# batch 1 may not attend to its last two keys; each query also sees only keys j <= i + 1
KEY_MASK = np.ones((2, LQ), bool)
KEY_MASK[1, -2:] = False
SHIFTED_CAUSAL = np.arange(LQ)[:, None] + 1 >= np.arange(LQ)[None, :]
FULL_MASK = KEY_MASK[:, None, :] & SHIFTED_CAUSAL[None]
# batch 0 may not attend to the last key of the memory
MEMORY_KEY_MASK = np.ones((2, LK), bool)
MEMORY_KEY_MASK[0, -1] = False


def _f32(*shape: int, scale: float = 0.5) -> np.ndarray:
    return (RNG.standard_normal(shape) * scale).astype(np.float32)


def _in_proj(names: tuple[str, ...], transpose: bool) -> tuple[Any, Any]:
    """Ivy's separate q/k/v arrays to torch's stacked ``in_proj`` one, and back."""

    def to_ref(arrays: list[np.ndarray]) -> np.ndarray:
        return np.concatenate([a.T if transpose else a for a in arrays])

    def to_ivy(g: np.ndarray) -> list[np.ndarray]:
        return [p.T if transpose else p for p in np.split(g, len(names))]

    return to_ref, to_ivy


def _torch_mha_weights(prefix: str = "mha.", separate: bool = False) -> dict[Any, Any]:
    t = (1, 0)
    w: dict[Any, Any] = {
        ("q_b", "k_b", "v_b"): (f"{prefix}in_proj_bias", _in_proj(("q", "k", "v"), False)),
        "out_w": (f"{prefix}out_proj.weight", t),
        "out_b": (f"{prefix}out_proj.bias", None),
    }
    if separate:  # key and value of other sizes: three projection weights
        w.update(
            {
                "q_w": (f"{prefix}q_proj_weight", t),
                "k_w": (f"{prefix}k_proj_weight", t),
                "v_w": (f"{prefix}v_proj_weight", t),
            }
        )
    else:
        w[("q_w", "k_w", "v_w")] = (f"{prefix}in_proj_weight", _in_proj(("q", "k", "v"), True))
    return w


def _keras_mha_weights() -> dict[str, Any]:
    def heads(n: int) -> tuple[Any, Any]:
        return (lambda a: a.reshape(n, HEADS, HD)), (lambda g: g.reshape(n, E))

    def bias() -> tuple[Any, Any]:
        return (lambda a: a.reshape(HEADS, HD)), (lambda g: g.reshape(E))

    out = ((lambda a: a.reshape(HEADS, HD, E)), (lambda g: g.reshape(E, E)))
    return {
        "q_w": ("query/kernel", heads(E)),
        "q_b": ("query/bias", bias()),
        "k_w": ("key/kernel", heads(KDIM)),
        "k_b": ("key/bias", bias()),
        "v_w": ("value/kernel", heads(KDIM)),
        "v_b": ("value/bias", bias()),
        "out_w": ("attention_output/kernel", out),
        "out_b": ("attention_output/bias", None),
    }


def _mha_refs(cross: bool) -> dict[str, Ref]:
    mask = None if cross else FULL_MASK
    kdim = KDIM if cross else E

    def torch_mha() -> Any:
        import torch

        class Wrap(torch.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.mha = torch.nn.MultiheadAttention(E, HEADS, batch_first=True, kdim=kdim, vdim=kdim)

            def forward(self, x: Any) -> Any:
                kv = torch.tensor(MEMORY) if cross else x
                m = None if mask is None else torch.tensor(~mask).repeat_interleave(HEADS, 0)  # True: masked
                return self.mha(x, kv, kv, attn_mask=m, need_weights=False)[0]

        return Wrap()

    def paddle_mha() -> Any:
        import paddle

        class Wrap(paddle.nn.Layer):
            def __init__(self) -> None:
                super().__init__()
                self.mha = paddle.nn.MultiHeadAttention(E, HEADS, kdim=kdim, vdim=kdim)

            def forward(self, x: Any) -> Any:
                kv = paddle.to_tensor(MEMORY) if cross else x
                m = None if mask is None else paddle.to_tensor(mask[:, None])  # True: may attend
                return self.mha(x, kv, kv, attn_mask=m)

        return Wrap()

    def keras_mha() -> Any:
        import keras
        import tensorflow as tf

        class Wrap(keras.layers.Layer):
            def __init__(self) -> None:
                super().__init__()
                self.mha = keras.layers.MultiHeadAttention(HEADS, HD)

            def call(self, x: Any) -> Any:
                kv = tf.constant(MEMORY) if cross else x
                return self.mha(x, kv, attention_mask=None if mask is None else tf.constant(mask))

        return Wrap()

    def flax_mha() -> Any:
        import flax.linen as nn
        import jax.numpy as jnp

        class Wrap(nn.Module):
            @nn.compact
            def __call__(self, x: Any) -> Any:
                kv = jnp.asarray(MEMORY) if cross else x
                m = None if mask is None else jnp.asarray(mask[:, None])
                return nn.MultiHeadDotProductAttention(HEADS, qkv_features=E, name="mha")(x, kv, mask=m)

        return Wrap()

    t = (1, 0)
    kw = _keras_mha_weights()
    if not cross:
        kw["k_w"] = ("key/kernel", (lambda a: a.reshape(E, HEADS, HD), lambda g: g.reshape(E, E)))
        kw["v_w"] = ("value/kernel", (lambda a: a.reshape(E, HEADS, HD), lambda g: g.reshape(E, E)))
    paddle_w = {
        f"{n}_{k}": (f"mha.{n}_proj.{'weight' if k == 'w' else 'bias'}", None)
        for n in ("q", "k", "v", "out")
        for k in ("w", "b")
    }
    del t
    return {
        "torch": Ref(torch_mha, _torch_mha_weights(separate=cross)),
        "paddle": Ref(paddle_mha, paddle_w),
        "keras": Ref(keras_mha, kw),
        "flax": Ref(
            flax_mha,
            {
                k: (
                    "params/mha/" + n.split("/", 1)[0].replace("attention_output", "out") + "/" + n.split("/", 1)[1],
                    tf,
                )
                for k, (n, tf) in kw.items()
            },
        ),
    }


def _weights(layer: Any) -> dict[str, np.ndarray]:
    return {k: _f32(*tuple(int(d) for d in a.shape)) for k, a in layer.v.to_flat_dict().items()}


@pytest.mark.parametrize("how", ["mask", "key_mask_and_causal"])
def test_fn_layers_self_attention_with_masks_matches_the_framework_layer(backend, how):
    layer = ivy.MultiHeadAttention(E, HEADS, backend=backend)
    if how == "mask":

        def call(lyr: Any, x: Any, v: Any) -> Any:
            return lyr(x, v=v, mask=to_native(backend, FULL_MASK))
    else:  # the same mask, from a key mask and a shifted causal one

        def call(lyr: Any, x: Any, v: Any) -> Any:
            return lyr(x, v=v, key_mask=to_native(backend, KEY_MASK), mask=to_native(backend, SHIFTED_CAUSAL))

    check_layer(backend, layer, _weights(layer), _f32(2, LQ, E, scale=1.0), _mha_refs(False), call=call)


def test_fn_layers_cross_attention_to_other_sized_keys_matches_the_framework_layer(backend):
    layer = ivy.MultiHeadAttention(E, HEADS, key_dim=KDIM, value_dim=KDIM, backend=backend)

    def call(lyr: Any, x: Any, v: Any) -> Any:
        return lyr(x, to_native(backend, MEMORY), v=v)

    check_layer(backend, layer, _weights(layer), _f32(2, LQ, E, scale=1.0), _mha_refs(True), call=call)


def test_fn_layers_attention_weights_and_causal_mask_match_torch(backend):
    import torch

    layer = ivy.MultiHeadAttention(E, HEADS, backend=backend)
    w = _weights(layer)
    layer.v = ivy.Container.from_flat_dict({k: to_native(backend, a) for k, a in w.items()})
    x = _f32(2, LQ, E, scale=1.0)
    out, weights = layer(to_native(backend, x), is_causal=True, return_attention_weights=True)
    ref = torch.nn.MultiheadAttention(E, HEADS, batch_first=True)
    with torch.no_grad():
        ref.in_proj_weight.copy_(torch.tensor(np.concatenate([w["q_w"].T, w["k_w"].T, w["v_w"].T])))
        ref.in_proj_bias.copy_(torch.tensor(np.concatenate([w["q_b"], w["k_b"], w["v_b"]])))
        ref.out_proj.weight.copy_(torch.tensor(w["out_w"].T))
        ref.out_proj.bias.copy_(torch.tensor(w["out_b"]))
        causal = torch.triu(torch.ones(LQ, LQ, dtype=torch.bool), 1)
        r_out, r_w = ref(
            torch.tensor(x), torch.tensor(x), torch.tensor(x), attn_mask=causal, average_attn_weights=False
        )
    np.testing.assert_allclose(native_to_numpy(backend, out), r_out.numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(native_to_numpy(backend, weights), r_w.numpy(), rtol=1e-4, atol=1e-6)
    assert tuple(weights.shape) == (2, HEADS, LQ, LQ)


@pytest.mark.parametrize("how", ["self_masks_and_weights", "cross_key_mask"])
def test_fn_layers_sequence_first_attention_matches_torch(backend, how):
    # batch_first=False: query, key, value and output [length, batch, features], against torch's
    # layer left at its default layout; masks and attention weights are batch-major in both
    cross = how.startswith("cross")
    kdim = KDIM if cross else E
    layer = ivy.MultiHeadAttention(E, HEADS, key_dim=kdim, value_dim=kdim, batch_first=False, backend=backend)
    memory = np.ascontiguousarray(np.swapaxes(MEMORY, 0, 1))  # [LK, batch, KDIM]

    def torch_mha() -> Any:
        import torch

        class Wrap(torch.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.mha = torch.nn.MultiheadAttention(E, HEADS, kdim=kdim, vdim=kdim)
                assert not self.mha.batch_first

            def forward(self, x: Any) -> Any:
                if cross:
                    kv, pad = torch.tensor(memory), torch.tensor(~MEMORY_KEY_MASK)  # True: masked
                    return self.mha(x, kv, kv, key_padding_mask=pad, need_weights=False)[0]
                m, pad = torch.tensor(~SHIFTED_CAUSAL), torch.tensor(~KEY_MASK)
                return self.mha(x, x, x, attn_mask=m, key_padding_mask=pad, average_attn_weights=False)

        return Wrap()

    def call(lyr: Any, x: Any, v: Any) -> Any:
        if cross:
            return lyr(x, to_native(backend, memory), v=v, key_mask=to_native(backend, MEMORY_KEY_MASK))
        mask, key_mask = to_native(backend, SHIFTED_CAUSAL), to_native(backend, KEY_MASK)
        return lyr(x, v=v, mask=mask, key_mask=key_mask, return_attention_weights=True)

    refs = {"torch": Ref(torch_mha, _torch_mha_weights(separate=cross))}
    x = _f32(LQ, 2, E, scale=1.0)  # [length, batch, features]
    check_layer(backend, layer, _weights(layer), x, refs, call=call, framework="torch")


def test_fn_layers_attention_shape_errors(backend):
    layer = ivy.MultiHeadAttention(E, HEADS, backend=backend)
    with pytest.raises(ValueError, match=r"the query \[batch, length, 8\] \(batch_first=True"):
        layer(to_native(backend, _f32(2, LQ, E + 1)))
    seq_first = ivy.MultiHeadAttention(E, HEADS, key_dim=KDIM, value_dim=KDIM, batch_first=False, backend=backend)
    with pytest.raises(ValueError, match=r"the key \[length, batch, 5\] \(batch_first=False"):
        seq_first(to_native(backend, _f32(LQ, 2, E)), to_native(backend, _f32(LK, 2, E)))
    # a torch user's [length, batch, features] query and memory, given to a batch-first layer
    with pytest.raises(ValueError, match=r"batch sizes differ \(query 5, key 6, value 6\).*pass batch_first=False"):
        layer(to_native(backend, _f32(LQ, 2, E)), to_native(backend, _f32(LK, 2, E)))
    with pytest.raises(ValueError, match="the key and value must have the same length"):
        layer(to_native(backend, _f32(2, LQ, E)), to_native(backend, _f32(2, LK, E)), to_native(backend, _f32(2, 4, E)))
    with pytest.raises(ValueError, match="3 heads do not divide embed_dim 8"):
        ivy.MultiHeadAttention(E, 3)


def test_fn_layers_rotary_attention_is_position_relative(backend):
    layer = ivy.MultiHeadAttention(E, HEADS, rotary=True, backend=backend)
    x = _f32(1, 4, E, scale=1.0)
    xx = np.concatenate([x, x], axis=1)  # a repeated sequence: same relative positions
    _, w = layer(to_native(backend, xx), return_attention_weights=True)
    w = native_to_numpy(backend, w)
    assert w.shape == (1, HEADS, 8, 8)
    assert not np.allclose(w[..., :4, :4], w[..., :4, 4:]), "rotary scores depend on position"


# ------------------------------------------------------------------ transformer blocks


def _block_weights(kind: str, prefix: str) -> tuple[dict[Any, Any], dict[Any, Any]]:
    """Ivy key chains -> torch names and paddle names of an encoder or decoder block."""
    t = (1, 0)
    torch_w: dict[Any, Any] = {}
    paddle_w: dict[Any, Any] = {}
    attns = [("self_attn", "self_attn", "self_attn")]
    if kind == "decoder":
        attns.append(("cross_attn", "multihead_attn", "cross_attn"))
    for ivy_name, torch_name, paddle_name in attns:
        for k, v in _torch_mha_weights(f"{torch_name}.").items():
            key = tuple(f"{ivy_name}/{n}" for n in k) if isinstance(k, tuple) else f"{ivy_name}/{k}"
            torch_w[key] = v
        for n in ("q", "k", "v", "out"):
            paddle_w[f"{ivy_name}/{n}_w"] = (f"{paddle_name}.{n}_proj.weight", None)
            paddle_w[f"{ivy_name}/{n}_b"] = (f"{paddle_name}.{n}_proj.bias", None)
    for lin in ("linear1", "linear2"):
        torch_w[f"{lin}/w"], torch_w[f"{lin}/b"] = (f"{lin}.weight", None), (f"{lin}.bias", None)
        paddle_w[f"{lin}/w"], paddle_w[f"{lin}/b"] = (f"{lin}.weight", t), (f"{lin}.bias", None)
    for norm in ("norm1", "norm2", "norm3")[: 3 if kind == "decoder" else 2]:
        for d in (torch_w, paddle_w):
            d[f"{norm}/w"], d[f"{norm}/b"] = (f"{norm}.weight", None), (f"{norm}.bias", None)
    return (
        {(tuple(prefix + x for x in k) if isinstance(k, tuple) else prefix + k): v for k, v in torch_w.items()},
        {prefix + k: v for k, v in paddle_w.items()},
    )


@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("kind", ["encoder", "decoder"])
def test_fn_layers_transformer_block_matches_the_framework_layer(backend, kind, norm_first):
    act = "gelu" if norm_first else "relu"
    mem = RNG.standard_normal((2, LK, E)).astype(np.float32)
    if kind == "encoder":
        layer = ivy.TransformerEncoderLayer(E, HEADS, 16, 0.0, activation=act, norm_first=norm_first, backend=backend)
    else:
        layer = ivy.TransformerDecoderLayer(E, HEADS, 16, 0.0, activation=act, norm_first=norm_first, backend=backend)
    torch_w, paddle_w = _block_weights(kind, "")
    causal = np.tril(np.ones((LQ, LQ), bool))

    def torch_block() -> Any:
        import torch

        cls = torch.nn.TransformerEncoderLayer if kind == "encoder" else torch.nn.TransformerDecoderLayer
        block = cls(E, HEADS, 16, 0.0, activation=act, batch_first=True, norm_first=norm_first)

        class Wrap(torch.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.block = block

            def forward(self, x: Any) -> Any:
                if kind == "encoder":
                    return self.block(x, src_key_padding_mask=torch.tensor(~KEY_MASK))
                return self.block(x, torch.tensor(mem), tgt_mask=torch.tensor(~causal))

        return Wrap()

    def paddle_block() -> Any:
        import paddle

        cls = paddle.nn.TransformerEncoderLayer if kind == "encoder" else paddle.nn.TransformerDecoderLayer
        block = cls(E, HEADS, 16, 0.0, activation=act, normalize_before=norm_first)

        class Wrap(paddle.nn.Layer):
            def __init__(self) -> None:
                super().__init__()
                self.block = block

            def forward(self, x: Any) -> Any:
                if kind == "encoder":
                    return self.block(x, paddle.to_tensor(KEY_MASK[:, None, None]))
                return self.block(x, paddle.to_tensor(mem), tgt_mask=paddle.to_tensor(causal))

        return Wrap()

    def prefixed(d: dict[Any, Any]) -> dict[Any, Any]:
        return {k: ("block." + n, tf) for k, (n, tf) in d.items()}

    refs = {"torch": Ref(torch_block, prefixed(torch_w)), "paddle": Ref(paddle_block, prefixed(paddle_w))}

    def call(lyr: Any, x: Any, v: Any) -> Any:
        if kind == "encoder":
            return lyr(x, v=v, key_mask=to_native(backend, KEY_MASK))
        return lyr(x, to_native(backend, mem), v=v, is_causal=True)

    x = _f32(2, LQ, E, scale=1.0)
    check_layer(backend, layer, _weights(layer), x, refs, call=call, rtol=2e-4, atol=2e-5)


def _torch_stack_weights(kind: str, n: int) -> dict[Any, Any]:
    """Ivy key chains of an encoder or decoder stack -> torch's names (``layers.{i}.``...)."""
    out: dict[Any, Any] = {}
    for i in range(n):
        torch_w, _ = _block_weights(kind, f"layers/{i}/")
        out.update({k: (f"layers.{i}.{name}", tf) for k, (name, tf) in torch_w.items()})
    return out


@pytest.mark.parametrize("stack", [False, True], ids=["block", "stack"])
@pytest.mark.parametrize("kind", ["encoder", "decoder"])
def test_fn_layers_sequence_first_transformer_matches_torch(backend, kind, stack):
    # batch_first=False: x and memory [length, batch, d_model], against torch's blocks (and a
    # stack of two) left at their default layout; masks as in torch: causal, key padding
    mem = np.ascontiguousarray(np.swapaxes(RNG.standard_normal((2, LK, E)).astype(np.float32), 0, 1))
    causal = np.tril(np.ones((LQ, LQ), bool))
    kw: dict[str, Any] = {"batch_first": False, "backend": backend}
    if kind == "encoder":
        layer = (
            ivy.TransformerEncoder(2, E, HEADS, 16, 0.0, **kw)
            if stack
            else ivy.TransformerEncoderLayer(E, HEADS, 16, 0.0, **kw)
        )
    else:
        layer = (
            ivy.TransformerDecoder(2, E, HEADS, 16, 0.0, **kw)
            if stack
            else ivy.TransformerDecoderLayer(E, HEADS, 16, 0.0, **kw)
        )
    assert ("batch_first=False" in repr(layer)) and layer.batch_first is False

    def torch_model() -> Any:
        import torch

        nn = torch.nn
        block = (nn.TransformerEncoderLayer if kind == "encoder" else nn.TransformerDecoderLayer)(E, HEADS, 16, 0.0)
        assert not block.self_attn.batch_first
        if stack:
            block = (
                nn.TransformerEncoder(block, 2, enable_nested_tensor=False)
                if kind == "encoder"
                else nn.TransformerDecoder(block, 2)
            )

        class Wrap(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.block = block

            def forward(self, x: Any) -> Any:
                pad = torch.tensor(~KEY_MASK)
                if kind == "encoder":
                    return self.block(x, torch.tensor(~causal), src_key_padding_mask=pad)  # src_mask, mask
                mem_pad = torch.tensor(~MEMORY_KEY_MASK)
                return self.block(
                    x,
                    torch.tensor(mem),
                    tgt_mask=torch.tensor(~causal),
                    tgt_key_padding_mask=pad,
                    memory_key_padding_mask=mem_pad,
                )

        return Wrap()

    names = _torch_stack_weights(kind, 2) if stack else _block_weights(kind, "")[0]
    refs = {"torch": Ref(torch_model, {k: ("block." + n, tf) for k, (n, tf) in names.items()})}

    def call(lyr: Any, x: Any, v: Any) -> Any:
        key_mask = to_native(backend, KEY_MASK)
        if kind == "encoder":
            return lyr(x, v=v, is_causal=True, key_mask=key_mask)
        memory, memory_key_mask = to_native(backend, mem), to_native(backend, MEMORY_KEY_MASK)
        return lyr(x, memory, v=v, is_causal=True, key_mask=key_mask, memory_key_mask=memory_key_mask)

    x = _f32(LQ, 2, E, scale=1.0)
    check_layer(backend, layer, _weights(layer), x, refs, call=call, rtol=2e-4, atol=2e-5, framework="torch")


def test_fn_layers_transformer_stack_and_repr(backend):
    enc = ivy.TransformerEncoder(2, E, HEADS, 16, 0.0, norm_first=True, final_norm=True, backend=backend)
    x = to_native(backend, _f32(2, LQ, E))
    y = enc(x, is_causal=True)
    assert tuple(y.shape) == (2, LQ, E)
    text = repr(enc)
    assert "(layers/0): TransformerEncoderLayer(d_model=8, num_heads=2, dim_feedforward=16" in text
    assert "norm_first=True" in text and "(norm): LayerNorm" in text
    # causal: the first position does not see the others
    x2 = native_to_numpy(backend, x).copy()
    x2[:, 1:] += 1.0
    y2 = enc(to_native(backend, x2), is_causal=True)
    np.testing.assert_allclose(
        native_to_numpy(backend, y2)[:, 0], native_to_numpy(backend, y)[:, 0], rtol=1e-5, atol=1e-5
    )
