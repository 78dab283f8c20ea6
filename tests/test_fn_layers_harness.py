"""The reference harness of the layer tests (imported by the other ``test_fn_layers_*`` files),
and its own checks.

A layer test gives the Ivy layer and, per framework, a :class:`Ref`: how to build that
framework's own layer, where each Ivy variable goes in it (name and layout transform), and how its
input and output map to the Ivy layer's. :func:`check_layer` then runs both with the same weights
and input, and compares the outputs and the gradients of ``sum(out * cotangent)`` with respect to
the input and every weight (on the autodiff backends). The reference is the backend's own
framework: torch.nn on torch, Keras on tensorflow, Flax (linen) on jax, paddle.nn on paddle; on
numpy, and where a framework has no such layer, torch.nn (importing torch beside jax or paddle is
fine; tensorflow and paddle never share a process).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

import ivy
from ivy.testing.convert import has_autodiff, native_to_numpy, to_native

#: the framework whose own layers are the reference on each backend
OWN = {"numpy": "torch", "torch": "torch", "jax": "flax", "tensorflow": "keras", "paddle": "paddle"}


@dataclass
class Ref:
    """A framework's own layer for comparison.

    Attributes:
        make: builds the layer (called in the test's process).
        weights: Ivy key chain -> ``(name in the reference, transform)``; the transform maps the
            Ivy array to the reference layout: ``None`` (same), a permutation tuple, or a pair of
            functions ``(to_ref, to_ivy)``. A tuple of key chains maps several Ivy variables to one
            reference weight: ``to_ref`` takes their list, ``to_ivy`` returns one.
        x: maps the Ivy input (NumPy) to the reference's input.
        out: maps the reference's output (NumPy arrays, as a list) to the Ivy layer's outputs.
        kwargs: keyword arguments of the reference call (``training=True``...).
        buffers: reference names of the non-trainable weights (no gradient compared).
        mutable: Flax collections updated by the call (``["batch_stats"]``).
    """

    make: Callable[[], Any]
    weights: dict[str, tuple[str, Any]] = field(default_factory=dict)
    x: Callable[[np.ndarray], np.ndarray] = lambda a: a
    out: Callable[[list[np.ndarray]], list[np.ndarray]] = lambda outs: outs
    kwargs: dict[str, Any] = field(default_factory=dict)
    buffers: tuple[str, ...] = ()
    mutable: tuple[str, ...] = ()


def _fwd(tf: Any, a: np.ndarray) -> np.ndarray:
    if tf is None:
        return a
    if isinstance(tf, tuple) and all(isinstance(i, int) for i in tf):
        return np.transpose(a, tf)
    return tf[0](a)


def _inv(tf: Any, a: np.ndarray) -> np.ndarray:
    if tf is None:
        return a
    if isinstance(tf, tuple) and all(isinstance(i, int) for i in tf):
        return np.transpose(a, np.argsort(tf))
    return tf[1](a)


def _ref_weights(ref: Ref, w: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Reference name -> array in the reference layout."""
    out = {}
    for key, (name, tf) in ref.weights.items():
        out[name] = tf[0]([w[k] for k in key]) if isinstance(key, tuple) else _fwd(tf, w[key])
    return out


def _ivy_grads(ref: Ref, grads: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The reference's gradients (by reference name) back in Ivy's layout, by Ivy key chain."""
    out = {}
    for key, (name, tf) in ref.weights.items():
        if name in ref.buffers or name not in grads:
            continue
        if isinstance(key, tuple):
            out.update(zip(key, tf[1](grads[name])))
        else:
            out[key] = _inv(tf, grads[name])
    return out


def _floating(x: np.ndarray) -> bool:
    return bool(np.issubdtype(x.dtype, np.floating))


def _as_list(out: Any) -> list[Any]:
    if isinstance(out, (list, tuple)):
        return [o for item in out for o in _as_list(item)]
    return [out]


# ------------------------------------------------------------------ the references


def _run_torch(ref: Ref, w: dict[str, np.ndarray], x: np.ndarray, cts: list[np.ndarray] | None) -> Any:
    import torch

    torch.manual_seed(0)
    m = ref.make()
    params = {n: torch.tensor(a.copy(), requires_grad=n not in ref.buffers) for n, a in _ref_weights(ref, w).items()}
    xt = torch.tensor(ref.x(x).copy(), requires_grad=_floating(x))
    outs = _as_list(torch.func.functional_call(m, params, (xt,), ref.kwargs))
    outs_np = ref.out([o.detach().numpy() for o in outs])
    if cts is None:
        return outs_np, None, None
    loss = sum((o * torch.tensor(c)).sum() for o, c in zip(ref.out(outs), cts))  # type: ignore[arg-type]
    names = [n for n in params if n not in ref.buffers]
    wrt = ([xt] if _floating(x) else []) + [params[n] for n in names]
    got = list(torch.autograd.grad(loss, wrt, allow_unused=True))
    gx = got.pop(0).numpy() if _floating(x) else None
    return outs_np, gx, _ivy_grads(ref, {n: g.numpy() for n, g in zip(names, got) if g is not None})


def _run_paddle(ref: Ref, w: dict[str, np.ndarray], x: np.ndarray, cts: list[np.ndarray] | None) -> Any:
    import paddle

    paddle.seed(0)
    m = ref.make()
    named = dict(m.named_parameters())
    named.update(dict(m.named_buffers()))
    for name, a in _ref_weights(ref, w).items():
        named[name].set_value(a.astype(np.float32))
    xt = paddle.to_tensor(ref.x(x), stop_gradient=not _floating(x))
    outs = _as_list(m(xt, **ref.kwargs))
    outs_np = ref.out([o.numpy() for o in outs])
    if cts is None:
        return outs_np, None, None
    loss = sum((o * paddle.to_tensor(c)).sum() for o, c in zip(ref.out(outs), cts))  # type: ignore[arg-type]
    loss.backward()
    grads = {n: named[n].grad.numpy() for n in _ref_weights(ref, w) if named[n].grad is not None}
    return outs_np, xt.grad.numpy() if _floating(x) else None, _ivy_grads(ref, grads)


def _run_keras(ref: Ref, w: dict[str, np.ndarray], x: np.ndarray, cts: list[np.ndarray] | None) -> Any:
    import tensorflow as tf

    m = ref.make()
    xt = tf.constant(ref.x(x))
    m(xt, **ref.kwargs)  # builds the weights (then set below)

    def var(name: str) -> Any:  # by the end of its path (nested layers' names vary)
        found = [v for v in m.weights if v.path == name or v.path.endswith("/" + name)]
        assert len(found) == 1, f"{name!r} matches {[v.path for v in found]} among {[v.path for v in m.weights]}"
        return found[0]

    for name, a in _ref_weights(ref, w).items():
        var(name).assign(a)
    names = [n for n in _ref_weights(ref, w) if n not in ref.buffers]
    with tf.GradientTape() as tape:
        if _floating(x):
            tape.watch(xt)
        outs = _as_list(m(xt, **ref.kwargs))
        mapped = ref.out(outs)
        loss = None if cts is None else tf.add_n([tf.reduce_sum(o * c) for o, c in zip(mapped, cts)])
    outs_np = ref.out([np.asarray(o) for o in outs])
    if cts is None:
        return outs_np, None, None
    got = tape.gradient(loss, ([xt] if _floating(x) else []) + [var(n) for n in names])
    gx = np.asarray(got.pop(0)) if _floating(x) else None
    # (an embedding's gradient comes as IndexedSlices: made dense)
    dense = {n: np.asarray(tf.convert_to_tensor(g)) for n, g in zip(names, got) if g is not None}
    return outs_np, gx, _ivy_grads(ref, dense)


def _run_flax(ref: Ref, w: dict[str, np.ndarray], x: np.ndarray, cts: list[np.ndarray] | None) -> Any:
    import jax
    import jax.numpy as jnp
    from flax import traverse_util

    m = ref.make()
    xin = jnp.asarray(ref.x(x))
    # the variables' shapes only (every one is set below): no compilation of the initialisers
    shapes = jax.eval_shape(lambda xx: m.init(jax.random.key(0), xx, **ref.kwargs), xin)
    flat = {k: np.zeros(a.shape, a.dtype) for k, a in traverse_util.flatten_dict(shapes, sep="/").items()}
    for name, a in _ref_weights(ref, w).items():
        flat[name] = jnp.asarray(a)
    variables = traverse_util.unflatten_dict(flat, sep="/")
    # (a layer without variables, such as a pooling one, has no "params" collection)
    params, rest = variables.get("params", {}), {k: v for k, v in variables.items() if k != "params"}

    def f(p: Any, xx: Any) -> Any:
        if ref.mutable:
            out, _ = m.apply({"params": p, **rest}, xx, mutable=list(ref.mutable), **ref.kwargs)
            return out
        return m.apply({"params": p, **rest}, xx, **ref.kwargs)

    if cts is None:
        return ref.out([np.asarray(o) for o in _as_list(jax.jit(f)(params, xin))]), None, None

    def loss(p: Any, xx: Any) -> Any:
        outs = ref.out(_as_list(f(p, xx)))
        return sum(jnp.sum(o * c) for o, c in zip(outs, cts)), outs

    # one trace for the outputs and the gradients (each trace of a new shape costs XLA compilations)
    if _floating(x):
        (_, outs), (gp, gx) = jax.jit(jax.value_and_grad(loss, argnums=(0, 1), has_aux=True))(params, xin)
    else:
        (_, outs), gp = jax.jit(jax.value_and_grad(loss, has_aux=True))(params, xin)
        gx = None
    gflat = traverse_util.flatten_dict({"params": gp}, sep="/")
    return (
        [np.asarray(o) for o in outs],
        None if gx is None else np.asarray(gx),
        _ivy_grads(ref, {n: np.asarray(g) for n, g in gflat.items()}),
    )


_RUNNERS = {"torch": _run_torch, "paddle": _run_paddle, "keras": _run_keras, "flax": _run_flax}


# ------------------------------------------------------------------ the Ivy side


def cotangents(shapes: list[tuple[int, ...]]) -> list[np.ndarray]:
    """Fixed random cotangents for outputs of these shapes (the same for Ivy and the reference)."""
    return [np.random.default_rng(7 + i).standard_normal(s).astype(np.float32) for i, s in enumerate(shapes)]


def run_ivy(
    backend: str,
    layer: Any,
    w: dict[str, np.ndarray],
    x: np.ndarray,
    grads: bool,
    call: Callable[..., Any] | None = None,
    state: dict[str, np.ndarray] | None = None,
) -> Any:
    """The Ivy layer's outputs and, with ``grads``, the gradients of ``sum(out * cotangents(...))``
    (input, each variable) with weights ``w``. On JAX the computation is compiled (``ivy.compile``,
    jax.jit): eagerly, XLA compiles every op of a new shape on its own, which is slow."""
    nat = {k: to_native(backend, v) for k, v in w.items()}
    layer.v = ivy.Container.from_flat_dict(nat)
    if state:
        layer.state = ivy.Container.from_flat_dict({k: to_native(backend, v) for k, v in state.items()})
    xn = to_native(backend, x)
    call = call or (lambda lyr, xx, v: lyr(xx, v=v))
    floating = np.issubdtype(x.dtype, np.floating)

    def forward(xx: Any) -> Any:
        return _as_list(call(layer, xx, layer.v))

    def with_grads(xx: Any) -> Any:
        xs = {"v": layer.v, "x": ivy.variable(xx)} if floating else {"v": layer.v}

        def loss(d: Any) -> Any:
            # (x * 1: a plain array, not TensorFlow's tf.Variable, goes into the layer)
            outs = _as_list(call(layer, d["x"] * 1.0 if floating else xx, d["v"]))
            cts = cotangents([tuple(int(n) for n in o.shape) for o in outs])
            total = ivy.sum(outs[0] * to_native(backend, cts[0]))
            for o, c in zip(outs[1:], cts[1:]):
                total = total + ivy.sum(o * to_native(backend, c))
            return total, outs

        _, g, outs = ivy.execute_with_gradients(loss, xs)
        return outs, g

    fn = with_grads if grads and has_autodiff(backend) else forward
    if backend == "jax":
        fn = ivy.compile(fn)
    res = fn(xn)
    if fn is forward or getattr(fn, "_fn", None) is forward:
        return [native_to_numpy(backend, o) for o in res], None, None
    outs, g = res
    dw = {k: native_to_numpy(backend, a) for k, a in g["v"].to_flat_dict().items()}
    gx = native_to_numpy(backend, g["x"]) if floating else None
    return [native_to_numpy(backend, o) for o in outs], gx, dw


def _close(actual: np.ndarray, expected: np.ndarray, what: str, rtol: float, atol: float) -> None:
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != reference {expected.shape}"
    np.testing.assert_allclose(
        actual.astype(np.float64), expected.astype(np.float64), rtol=rtol, atol=atol, err_msg=what
    )


def check_layer(
    backend: str,
    layer: Any,
    w: dict[str, np.ndarray],
    x: np.ndarray,
    refs: dict[str, Ref],
    *,
    grads: bool = True,
    rtol: float = 1e-4,
    atol: float = 1e-5,
    call: Any = None,
    state: dict[str, np.ndarray] | None = None,
    framework: str | None = None,
) -> str:
    """Compare ``layer`` (weights ``w``) with the reference of the backend's framework (or, if
    ``refs`` has none, torch's) on input ``x``: outputs, and on autodiff backends the gradients
    of ``sum(out * ct)`` (random cotangents) for the input and every variable. Returns the
    framework used."""
    fw = framework or (OWN[backend] if OWN[backend] in refs else "torch")
    if fw not in refs:
        pytest.skip(f"no {fw} reference for this layer")
    ref = refs[fw]
    want_grads = grads and has_autodiff(backend)
    got, gx, gw = run_ivy(backend, layer, w, x, want_grads, call, state)
    cts = cotangents([o.shape for o in got]) if want_grads else None
    exp, ex, ew = _RUNNERS[fw](ref, {**w, **(state or {})}, x, cts)
    assert len(got) == len(exp), f"{len(got)} outputs, the {fw} reference has {len(exp)}"
    for i, (a, e) in enumerate(zip(got, exp)):
        _close(a, e, f"output {i} vs {fw}", rtol, atol)
    if want_grads:
        if gx is not None:
            _close(gx, ex, f"input gradient vs {fw}", rtol, atol * 10)
        assert set(ew) == set(gw), f"gradients of {sorted(gw)}; the {fw} reference has {sorted(ew)}"
        for k, g in ew.items():
            _close(gw[k], g, f"gradient of {k!r} vs {fw}", rtol, atol * 10)
    return fw


# ------------------------------------------------------------------ self-checks


RNG = np.random.default_rng(0)


def _linear_refs(i: int, o: int) -> dict[str, Ref]:
    def torch_lin() -> Any:
        import torch

        return torch.nn.Linear(i, o)

    def keras_lin() -> Any:
        import keras

        return keras.layers.Dense(o)

    def flax_lin() -> Any:
        import flax.linen as nn

        return nn.Dense(o)

    def paddle_lin() -> Any:
        import paddle

        return paddle.nn.Linear(i, o)

    t = (1, 0)
    return {
        "torch": Ref(torch_lin, {"w": ("weight", None), "b": ("bias", None)}),
        "keras": Ref(keras_lin, {"w": ("kernel", t), "b": ("bias", None)}),
        "flax": Ref(flax_lin, {"w": ("params/kernel", t), "b": ("params/bias", None)}),
        "paddle": Ref(paddle_lin, {"w": ("weight", t), "b": ("bias", None)}),
    }


def test_fn_layers_linear_matches_the_framework_layer(backend):
    w = {"w": RNG.standard_normal((3, 4)).astype(np.float32), "b": RNG.standard_normal(3).astype(np.float32)}
    x = RNG.standard_normal((2, 5, 4)).astype(np.float32)
    check_layer(backend, ivy.Linear(4, 3), w, x, _linear_refs(4, 3))


def test_fn_layers_harness_catches_a_wrong_layout(backend):
    # the harness must fail when a weight reaches the reference in the wrong layout
    w = {"w": RNG.standard_normal((4, 4)).astype(np.float32), "b": np.zeros(4, np.float32)}
    x = RNG.standard_normal((2, 4)).astype(np.float32)
    wrong = {
        k: Ref(r.make, {"w": (r.weights["w"][0], None if r.weights["w"][1] else (1, 0)), "b": r.weights["b"]})
        for k, r in _linear_refs(4, 4).items()
    }
    with pytest.raises(AssertionError, match="output 0"):
        check_layer(backend, ivy.Linear(4, 4), w, x, wrong)
